// The Westeros tutorial page: the game page's map (map.js) with the tutorial panel (js/tutorial_panel.js)
// that says what to do, marks the one area to click or offers the one button to press, shows the round's
// Westeros cards, and explains what happened. The server (frontend/tutorial_westeros.py) replays the real
// engine to the learner's step and accepts only the step's move, so the page never decides what is legal;
// it only walks the learner through `highlight`.
import { h } from "../js/dom.js";
import { _, fmt } from "../js/i18n.js";
import { Tutorial } from "../js/tutorial_panel.js";
import { WesterosMap, humanize, orderLabel } from "./map.js";
import { OPTION_WORDS, PHASES } from "./texts.js";

const root = document.getElementById("wx-tutorial-app");
const mapData = JSON.parse(document.getElementById("wx-map-data").textContent);
const CARDS = JSON.parse(document.getElementById("wx-house-cards").textContent) || {};
const TEXTS = JSON.parse(document.getElementById("wx-card-texts").textContent) || { westeros: {}, wildling: {} };
const $ = (id) => document.getElementById(id);
const DECKS = { 1: "I", 2: "II", 3: "III" };

const board = new WesterosMap($("wx-board"), mapData, { onSelect: (id) => tutorial.use([`area:${id}`]) });

const optionLabel = (option) => OPTION_WORDS[option] || humanize(option);

function buttonLabel(action) {
  switch (action.type) {
    case "place_order": return orderLabel(action.token);
    case "finish_orders": return _("Done");
    case "choose": return optionLabel(action.option);
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

/** The round's Westeros cards (W-4.1), one per deck; a card the step points at (its `focus`) with its text. */
function renderCards(lesson) {
  const revealed = lesson.view.revealed || [];
  const box = $("tutorial-cards");
  box.hidden = !revealed.length;
  const focus = lesson.focus || [];
  box.replaceChildren(
    h("p", { class: "tutorial-cards-title" }, fmt(_("Westeros cards of round %(round)s"), { round: lesson.view.round })),
    h("ul", {}, revealed.map((id) => {
      const [deck, card] = String(id).split(":");
      const text = TEXTS.westeros[id] || { name: humanize(card), text: "" };
      const testid = `westeros-card-${card}`;
      return h("li", { "data-testid": testid }, [
        h("b", {}, `${DECKS[deck] || deck} · ${text.name}`),
        focus.includes(testid) && text.text ? h("span", { class: "tutorial-card-text" }, text.text) : null,
      ].filter(Boolean));
    })),
  );
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

const tutorial = new Tutorial(root, {
  draw(lesson) {
    const v = lesson.view;
    board.select(null); // the area clicked in the step before is done with
    board.setView(v);
    $("wx-round").textContent = String(v.round);
    $("wx-phase").textContent = PHASES[v.phase] || v.phase;
    $("wx-facts").textContent = fmt(_("Stark power tokens: %(power)s · Wildling threat: %(threat)s"), { power: v.power.stark, threat: v.threat });
    renderCards(lesson);
  },
  /** Mark the area to click next on the map (none: the step's button is in the panel). */
  markBoard(next) {
    const area = next.startsWith("area:") ? next.slice("area:".length) : null;
    board.mark("actionable", area ? [area] : []);
    for (const n of root.querySelectorAll(".wx-area.tutorial-target")) n.classList.remove("tutorial-target");
    const poly = area && document.getElementById(`wx-area-${area}`);
    if (poly) {
      poly.classList.add("tutorial-target");
      show(poly);
    }
  },
  buttonLabel,
  optionLabel,
  happenedLine: areaNames,
  wrongClick: _("Not that one: click the highlighted area."),
});

tutorial.start();
