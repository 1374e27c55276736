// The replay page: frames rebuilt by the server from the match log, stepped through one action at a time.
import { api } from "./js/api.js";
import { causedList, logLine } from "./js/match_log.js";
import { _, fmt } from "./js/i18n.js";
import { outcomeText, renderView } from "./match_render.js";

const root = document.getElementById("replay-app");
const $ = (id) => document.getElementById(id);
let data = null;
let at = 0;

/** Scroll the log list (not the page) so that the current step is visible. */
function keepInView(list, item) {
  const box = list.getBoundingClientRect();
  const r = item.getBoundingClientRect();
  if (r.top < box.top) list.scrollTop -= box.top - r.top;
  else if (r.bottom > box.bottom) list.scrollTop += r.bottom - box.bottom;
}

function show(i) {
  at = Math.max(0, Math.min(i, data.frames.length - 1));
  const frame = data.frames[at];
  const names = {};
  for (const s of data.seats) names[s.position] = s.name;
  // The last step of an ended match: nobody is to act, whatever the engine's view says (a concession or a
  // timeout ends a match outside the engine, after its last action).
  const over = Boolean(data.result) && at === data.frames.length - 1;
  renderView(root, frame.view, data.you, names, { over });
  $("frame-no").textContent = fmt(_("Step %(step)s of %(count)s"), { step: at, count: data.frames.length - 1 });
  $("frame-text").textContent = frame.text;
  $("frame-caused").replaceChildren(...[causedList(frame, (frame.view && frame.view.catalog) || null)].filter(Boolean));
  document.body.dataset.frame = String(at);
  for (const li of $("log").children) {
    const current = Number(li.dataset.frame) === at;
    li.classList.toggle("current", current);
    if (current) li.setAttribute("aria-current", "step");
    else li.removeAttribute("aria-current");
    if (current) keepInView($("log"), li);
  }
  const v = frame.view || {};
  $("whose").textContent = !over && v.current_players && v.current_players.length ? fmt(_("To act: %(players)s"), { players: v.current_players.map((p) => names[p]).join(", ") }) : "";
}

async function load() {
  try {
    data = await api(`/api/matches/${root.dataset.match}/replay/`);
  } catch (err) {
    $("replay-error").textContent = err.message;
    $("replay-error").hidden = false;
    return;
  }
  $("result").hidden = !data.result;
  $("result").textContent = outcomeText({ result: data.result, status: data.result && data.result.reason === "aborted" ? "aborted" : "finished" });
  // every card any step showed: the names in the log show their card's text on hover or tap
  const catalog = Object.assign({}, ...data.frames.map((f) => (f.view && f.view.catalog) || {}));
  $("log").replaceChildren(
    ...data.frames.map((f, i) => {
      const li = logLine({ ...f, version: i }, { "data-frame": i, tabindex: "0", onclick: () => show(i) }, catalog);
      li.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          show(i);
        }
      });
      return li;
    }),
  );
  show(0);
}

$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(at - 1));
$("next").addEventListener("click", () => show(at + 1));
$("last").addEventListener("click", () => show(data.frames.length - 1));
document.addEventListener("keydown", (ev) => {
  if (ev.key === "ArrowRight") show(at + 1);
  if (ev.key === "ArrowLeft") show(at - 1);
});
load();
