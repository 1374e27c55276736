// The replay page: frames rebuilt by the server from the match log, stepped through one action at a time.
import { api } from "./js/api.js";
import { h } from "./js/dom.js";
import { outcomeText, renderView } from "./match_render.js";

const root = document.getElementById("replay-app");
const $ = (id) => document.getElementById(id);
let data = null;
let at = 0;

function show(i) {
  at = Math.max(0, Math.min(i, data.frames.length - 1));
  const frame = data.frames[at];
  const names = {};
  for (const s of data.seats) names[s.position] = s.name;
  renderView(root, frame.view, data.you, names);
  $("frame-no").textContent = `Step ${at} of ${data.frames.length - 1}`;
  $("frame-text").textContent = frame.text;
  document.body.dataset.frame = String(at);
  for (const li of $("log").children) li.classList.toggle("current", Number(li.dataset.frame) === at);
  const v = frame.view || {};
  $("whose").textContent = v.current_players && v.current_players.length ? `To act: ${v.current_players.map((p) => names[p]).join(", ")}` : "";
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
  $("log").replaceChildren(...data.frames.map((f, i) => h("li", { "data-frame": i, onclick: () => show(i) }, f.text)));
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
