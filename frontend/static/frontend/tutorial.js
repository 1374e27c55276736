// The interactive tutorial page: the match page's board, zones and hand (match_render.js) with a panel that
// says what to do, highlights the one card, square or button to use, and explains what happened. The server
// (frontend/tutorial.py) holds the lesson: it replays the real engine to the learner's step and accepts only
// the step's move, so the page never decides what is legal; it only walks the learner through `highlight`.
import { api } from "./js/api.js";
import { hideCard, loadCardData } from "./js/card_component.js";
import { _, fmt } from "./js/i18n.js";
import { linkRules } from "./js/rule_links.js";
import { h } from "./js/dom.js";
import { phaseName, renderView } from "./match_render.js";

const root = document.getElementById("match-app");
const game = root.dataset.game;
const url = `/api/tutorials/${game}/`;
const $ = (id) => document.getElementById(id);
const NAMES = { 1: _("Stonehold Clans") };

let lesson = null; // the server's payload for the current step
let clicked = 0; // how many of the step's highlighted elements have been clicked
let sending = false;

function buttonLabel(kind) {
  if (kind === "reinforce") return _("Reinforce (1 CP)");
  if (kind === "pass") return fmt(_("End the %(phase)s"), { phase: phaseName(lesson.view.phase) });
  return kind;
}

function nodesOf(token) {
  return [...root.querySelectorAll(`[data-token="${token}"]`)];
}

/** Mark the element to click next, the ones already clicked, and the elements an explanation points at. */
function mark() {
  for (const n of root.querySelectorAll(".tutorial-target, .picked, .tutorial-focus")) n.classList.remove("tutorial-target", "picked", "selectable", "tutorial-focus");
  const tokens = lesson.highlight || [];
  tokens.slice(0, clicked).forEach((t) => nodesOf(t).forEach((n) => n.classList.add("picked")));
  const next = tokens[clicked];
  if (next && !next.startsWith("button:")) {
    const nodes = nodesOf(next);
    for (const n of nodes) {
      n.classList.add("tutorial-target", "selectable");
      n.tabIndex = 0;
    }
    if (nodes[0]) show(nodes[0]);
  }
  for (const id of lesson.focus || []) {
    const n = root.querySelector(`[data-testid="${id}"]`);
    if (n) n.classList.add("tutorial-focus");
  }
}

/** Bring the element to click into sight (the phone's bar covers the bottom of the screen). */
function show(node) {
  const box = node.getBoundingClientRect();
  const bar = $("decision").getBoundingClientRect();
  const bottom = getComputedStyle($("decision")).position === "fixed" ? bar.top : window.innerHeight;
  if (box.top < 0 || box.bottom > bottom) window.scrollBy({ top: box.top - Math.max(8, (bottom - box.height) / 2) });
}

function render() {
  hideCard();
  $("table").hidden = false;
  renderView(root, lesson.view, 0, NAMES, { over: lesson.finished });
  $("tutorial-chapter").textContent = fmt(_("Chapter %(number)s of %(count)s: %(title)s"), {
    number: lesson.chapter.index + 1, count: lesson.chapter.count, title: lesson.chapter.title,
  });
  $("tutorial-step").textContent = lesson.finished ? _("Finished") : fmt(_("Step %(step)s of %(total)s"), { step: lesson.step + 1, total: lesson.total });
  $("tutorial-bar").max = lesson.total;
  $("tutorial-bar").value = lesson.step;
  const explanation = $("tutorial-explanation");
  explanation.textContent = lesson.explanation || "";
  linkRules(explanation);
  $("tutorial-happened").replaceChildren(...(lesson.happened || []).map((line) => h("li", {}, line)));
  $("tutorial-happened").hidden = !(lesson.happened || []).length;
  $("tutorial-what").hidden = !lesson.explanation && !(lesson.happened || []).length;
  const instruction = $("tutorial-instruction");
  instruction.hidden = lesson.finished;
  instruction.textContent = lesson.instruction || "";
  linkRules(instruction);
  $("tutorial-done").hidden = !lesson.finished;
  $("tutorial-error").hidden = true;
  const actions = $("tutorial-actions");
  actions.replaceChildren();
  const first = (lesson.highlight || [])[0] || "";
  if (!lesson.finished && !lesson.expect) {
    actions.append(h("button", { class: "button button-small tutorial-target", type: "button", "data-testid": "tutorial-next", onclick: () => send(null) }, _("Next")));
  } else if (first.startsWith("button:")) {
    const kind = first.slice("button:".length);
    actions.append(h("button", { class: "button button-small tutorial-target", type: "button", "data-testid": "tutorial-action", "data-type": kind, onclick: () => send(lesson.expect) }, buttonLabel(kind)));
  }
  clicked = 0;
  mark();
  // Keyboard and screen-reader users land on the button to press (a card or square keeps the page still:
  // focusing it would open its card text over the board).
  const button = actions.querySelector("button");
  if (button) button.focus({ preventScroll: true });
  document.body.dataset.tutorialStep = String(lesson.step);
  document.body.style.paddingBottom = getComputedStyle($("decision")).position === "fixed" ? `${$("decision").offsetHeight + 8}px` : "";
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

/** A click (or Enter) on a card, unit or square: the highlighted one moves the step on; others only say where to click. */
function use(node) {
  const next = (lesson.highlight || [])[clicked];
  if (!next || next.startsWith("button:") || sending) return false;
  const square = node.closest(".square");
  const hit = node.dataset.token === next || (square && square.dataset.token === next);
  if (!hit) {
    error(_("Not that one: click the highlighted card, unit or square."));
    return true;
  }
  $("tutorial-error").hidden = true;
  clicked += 1;
  mark(); // the clicked ones stay marked; the next one lights up (none while the move is sent)
  if (clicked >= lesson.highlight.length) send(lesson.expect);
  return true;
}

root.addEventListener("click", (ev) => {
  const node = ev.target.closest("[data-token]");
  if (!node || !lesson || !root.contains(node)) return;
  if (use(node)) ev.preventDefault();
});

root.addEventListener("keydown", (ev) => {
  if (ev.key !== "Enter" && ev.key !== " ") return;
  const node = ev.target.closest && ev.target.closest("[data-token]");
  if (!node || !lesson) return;
  if (use(node)) ev.preventDefault();
});

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

loadCardData();
start();
