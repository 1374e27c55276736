// The Commandeer tutorial page: the match page's board, zones and hand (match_render.js) with the tutorial
// panel (js/tutorial_panel.js) that says what to do, highlights the one card, square or button to use, and
// explains what happened. The server (frontend/tutorial.py) holds the lesson: it replays the real engine to
// the learner's step and accepts only the step's move, so the page never decides what is legal; it only
// walks the learner through `highlight`.
import { hideCard, loadCardData } from "./js/card_component.js";
import { _, fmt } from "./js/i18n.js";
import { Tutorial } from "./js/tutorial_panel.js";
import { phaseName, renderView } from "./match_render.js";

const root = document.getElementById("match-app");
const $ = (id) => document.getElementById(id);
const NAMES = { 1: _("Stonehold Clans") };

function nodesOf(token) {
  return [...root.querySelectorAll(`[data-token="${token}"]`)];
}

/** Bring the element to click into sight (the phone's bar covers the bottom of the screen). */
function show(node) {
  const box = node.getBoundingClientRect();
  const bar = $("decision").getBoundingClientRect();
  const bottom = getComputedStyle($("decision")).position === "fixed" ? bar.top : window.innerHeight;
  if (box.top < 0 || box.bottom > bottom) window.scrollBy({ top: box.top - Math.max(8, (bottom - box.height) / 2) });
}

const tutorial = new Tutorial(root, {
  draw(lesson) {
    hideCard();
    $("table").hidden = false;
    renderView(root, lesson.view, 0, NAMES, { over: lesson.finished });
  },
  /** Mark the card or square to click next and the ones already clicked. */
  markBoard(next, clicked) {
    for (const n of root.querySelectorAll(".tutorial-target, .picked")) n.classList.remove("tutorial-target", "picked", "selectable");
    (tutorial.lesson.highlight || []).slice(0, clicked).forEach((t) => nodesOf(t).forEach((n) => n.classList.add("picked")));
    if (!next) return;
    const nodes = nodesOf(next);
    for (const n of nodes) {
      n.classList.add("tutorial-target", "selectable");
      n.tabIndex = 0;
    }
    if (nodes[0]) show(nodes[0]);
  },
  buttonLabel(expect, kind) {
    if (kind === "reinforce") return _("Reinforce (1 CP)");
    if (kind === "pass") return fmt(_("End the %(phase)s"), { phase: phaseName(tutorial.lesson.view.phase) });
    return kind;
  },
  wrongClick: _("Not that one: click the highlighted card, unit or square."),
});

/** A click (or Enter) on a card, unit or square: its own token, or its square's. */
function use(node) {
  const square = node.closest(".square");
  return tutorial.use([node.dataset.token, square && square.dataset.token].filter(Boolean));
}

root.addEventListener("click", (ev) => {
  const node = ev.target.closest("[data-token]");
  if (!node || !tutorial.lesson || !root.contains(node)) return;
  if (use(node)) ev.preventDefault();
});

root.addEventListener("keydown", (ev) => {
  if (ev.key !== "Enter" && ev.key !== " ") return;
  const node = ev.target.closest && ev.target.closest("[data-token]");
  if (!node || !tutorial.lesson) return;
  if (use(node)) ev.preventDefault();
});

loadCardData();
tutorial.start();
