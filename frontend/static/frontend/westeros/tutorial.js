// The Westeros tutorial page: the game page's map (map.js) with a panel that says what to do, marks the one
// area to click and offers the one button to press, and explains what happened. The server
// (frontend/tutorial_westeros.py) replays the real engine to the learner's step and accepts only the step's
// move, so the page never decides what is legal; it only walks the learner through `highlight`.
import { api } from "../js/api.js";
import { h } from "../js/dom.js";
import { _, fmt, pgettext } from "../js/i18n.js";
import { linkRules } from "../js/rule_links.js";
import { WesterosMap, orderLabel } from "./map.js";

const root = document.getElementById("wx-tutorial-app");
const url = `/api/tutorials/${root.dataset.game}/`;
const mapData = JSON.parse(document.getElementById("wx-map-data").textContent);
const CARDS = JSON.parse(document.getElementById("wx-house-cards").textContent) || {};
const TEXTS = JSON.parse(document.getElementById("wx-card-texts").textContent) || { westeros: {}, wildling: {} };
const $ = (id) => document.getElementById(id);
const PHASES = { westeros: _("Westeros Phase"), planning: pgettext("Westeros", "Planning Phase"), action: _("Action Phase") };

let lesson = null; // the server's payload for the current step
let clicked = 0; // how many of the step's highlighted elements have been used
let sending = false;

const board = new WesterosMap($("wx-board"), mapData, { onSelect: (id) => use(id) });

function buttonLabel(action) {
  switch (action.type) {
    case "place_order": return orderLabel(action.token);
    case "finish_orders": return _("Done");
    case "choose":
      return action.option === "look" ? _("Look at the top wildling card") : action.option === "top" ? _("Top of the deck") : action.option;
    case "play_house_card": return (CARDS[action.card] && CARDS[action.card].name) || action.card;
    case "bid": return fmt(_("Bid %(count)s power tokens"), { count: action.amount });
    default: return action.type;
  }
}

/** A log line names some areas and cards by id ("moat_cailin", "3:wildlings_attack", "skinchanger_scout"):
 * their names, in the reader's language, as the map and the card data have them. */
function areaNames(line) {
  return line.replace(/\b(?:[123]:)?[a-z]+(?:_[a-z]+)*\b/g, (word) => {
    if (board.areas[word]) return board.name(word);
    const card = TEXTS.westeros[word] || TEXTS.wildling[word];
    return card ? card.name : word;
  });
}

function render() {
  const v = lesson.view;
  board.setView(v);
  $("wx-round").textContent = String(v.round);
  $("wx-phase").textContent = PHASES[v.phase] || v.phase;
  $("wx-facts").textContent = fmt(_("Stark power tokens: %(power)s · Wildling threat: %(threat)s"), { power: v.power.stark, threat: v.threat });
  $("tutorial-chapter").textContent = lesson.chapter.title;
  $("tutorial-step").textContent = lesson.finished ? _("Finished") : fmt(_("Step %(step)s of %(total)s"), { step: lesson.step + 1, total: lesson.total });
  $("tutorial-bar").max = lesson.total;
  $("tutorial-bar").value = lesson.step;
  $("tutorial-explanation").textContent = lesson.explanation || "";
  linkRules($("tutorial-explanation"));
  $("tutorial-happened").replaceChildren(...(lesson.happened || []).map((line) => h("li", {}, areaNames(line))));
  $("tutorial-happened").hidden = !(lesson.happened || []).length;
  $("tutorial-what").hidden = !lesson.explanation && !(lesson.happened || []).length;
  $("tutorial-instruction").hidden = lesson.finished;
  $("tutorial-instruction").textContent = lesson.instruction || "";
  linkRules($("tutorial-instruction"));
  $("tutorial-done").hidden = !lesson.finished;
  $("tutorial-error").hidden = true;
  clicked = 0;
  mark();
  document.body.dataset.tutorialStep = String(lesson.step);
}

/** Mark the area to click next on the map, or offer the button to press. */
function mark() {
  const next = (lesson.highlight || [])[clicked] || "";
  const area = next.startsWith("area:") ? next.slice(5) : null;
  board.mark("actionable", area ? [area] : []);
  for (const n of root.querySelectorAll(".wx-area.tutorial-target")) n.classList.remove("tutorial-target");
  const actions = $("tutorial-actions");
  actions.replaceChildren();
  if (area) {
    const poly = document.getElementById(`wx-area-${area}`);
    if (poly) {
      poly.classList.add("tutorial-target");
      show(poly);
    }
  } else if (next.startsWith("button:")) {
    const button = h("button", {
      class: "button button-small tutorial-target", type: "button", "data-testid": "tutorial-action",
      "data-type": lesson.expect.type, onclick: () => send(lesson.expect),
    }, buttonLabel(lesson.expect));
    actions.append(button);
    button.focus({ preventScroll: true });
  } else if (!lesson.finished && !lesson.expect) {
    actions.append(h("button", { class: "button button-small tutorial-target", type: "button", "data-testid": "tutorial-next", onclick: () => send(null) }, _("Next")));
  }
}

/** Bring the area to click into sight: pan the board's frame, then the page. */
function show(node) {
  if (board.scroller && board.scroller.scrollHeight > board.scroller.clientHeight + 4) {
    const box = node.getBoundingClientRect();
    const frame = board.scroller.getBoundingClientRect();
    board.scroller.scrollTop += box.top + box.height / 2 - (frame.top + frame.height / 2);
    board.scroller.scrollLeft += box.left + box.width / 2 - (frame.left + frame.width / 2);
  }
  const box = node.getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight) window.scrollBy({ top: box.top - window.innerHeight / 3 });
}

/** A click on an area of the map: the marked one moves the step on; another only says where to click. */
function use(id) {
  if (!lesson || sending) return;
  const next = (lesson.highlight || [])[clicked] || "";
  if (!next.startsWith("area:")) return;
  if (next !== `area:${id}`) {
    error(_("Not that one: click the highlighted area."));
    return;
  }
  $("tutorial-error").hidden = true;
  clicked += 1;
  if (clicked >= lesson.highlight.length) send(lesson.expect);
  else mark();
}

async function send(action) {
  if (sending) return;
  sending = true;
  try {
    lesson = await api(url, { method: "POST", body: { step: lesson.step, action } });
    render();
  } catch (err) {
    error(err.message);
  } finally {
    sending = false;
  }
}

function error(text) {
  $("tutorial-error").textContent = text;
  linkRules($("tutorial-error"));
  $("tutorial-error").hidden = false;
}

$("tutorial-restart").addEventListener("click", async () => {
  if (sending) return;
  sending = true;
  try {
    lesson = await api(`${url}restart/`, { method: "POST", body: {} });
    render();
    window.scrollTo({ top: 0 });
  } catch (err) {
    error(err.message);
  } finally {
    sending = false;
  }
});

async function start() {
  try {
    lesson = await api(url);
    render();
  } catch (err) {
    $("tutorial-load-error").textContent = err.message;
    $("tutorial-load-error").hidden = false;
  }
}

start();
