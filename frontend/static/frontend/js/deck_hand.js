// Sample hand and draw odds of a saved deck, shared by the builder and the read-only deck page.
//
// Sample hand (C-4.3, C-4.4): 6 cards from the shuffled deck (the Commander stays out, C-4.1). The k-th
// mulligan shuffles the hand back into the whole deck, draws 6 again and asks for k cards to put on the
// bottom — the player picks them here, as in a match. "Reinforce" (C-5.2) then draws 2 from the top.
// Draw odds: exact chances from /api/decks/…/draw-odds/ (hypergeometric over the real deck).
import { api, withQuery } from "./api.js";
import { h } from "./dom.js";
import { handCard } from "./decks.js";

const REINFORCE_DRAW = 2; // C-5.2: Reinforce draws 2

/**
 * Bind the sample-hand panel inside `root` ([data-hand], [data-hand-note], [data-new-hand], [data-mulligan],
 * [data-reinforce]). options.apiUrl: the deck's API URL; options.rowFor(card) -> a deck row for the tile;
 * options.factions(); options.maxMulligans; options.staleNote() -> extra text (e.g. unsaved changes).
 */
export function createSampleHand(root, options) {
  const $ = (selector) => root.querySelector(selector);
  const container = $("[data-hand]");
  const note = $("[data-hand-note]");
  const mulliganButton = $("[data-mulligan]");
  const reinforceButton = $("[data-reinforce]");
  const maxMulligans = Number(options.maxMulligans || 5);
  let deal = null; // {seed, mulligans, hand, bottom, upcoming}
  let bottomed = new Set(); // indexes into deal.hand put on the bottom (C-4.4)
  let extra = []; // cards drawn by Reinforce (C-5.2)

  function pendingBottom() {
    return deal ? deal.bottom - bottomed.size : 0;
  }

  function render() {
    if (!deal) return;
    const factions = options.factions();
    const choosing = pendingBottom() > 0;
    const tiles = deal.hand.map((card, index) => {
      const row = options.rowFor(card);
      const isBottom = bottomed.has(index);
      const tile = handCard(row, factions);
      if (deal.bottom > 0) {
        return h(
          "button",
          {
            type: "button",
            class: "hand-pick" + (isBottom ? " is-bottom" : ""),
            "aria-pressed": isBottom ? "true" : "false",
            "aria-label": `${isBottom ? "Keep" : "Put on the bottom:"} ${row.name}`,
            "data-testid": "hand-pick",
            disabled: !isBottom && !choosing,
            onclick: () => {
              if (isBottom) bottomed.delete(index);
              else if (pendingBottom() > 0) bottomed.add(index);
              render();
            },
          },
          tile,
          isBottom ? h("span", { class: "bottom-tag" }, "Bottom") : null
        );
      }
      return tile;
    });
    const drawn = extra.map((card) => {
      const tile = handCard(options.rowFor(card), factions);
      tile.classList.add("hand-drawn");
      tile.title = "Drawn by Reinforce (C-5.2)";
      return tile;
    });
    container.replaceChildren(...tiles, ...drawn);
    const kept = deal.hand.length - bottomed.size + extra.length;
    const parts = [];
    if (!deal.hand.length) parts.push("The saved deck has no cards to draw.");
    else if (deal.mulligans === 0) parts.push(`Opening hand of ${deal.hand.length} (C-4.3).`);
    else
      parts.push(
        `Mulligan ${deal.mulligans} (C-4.4): the hand went back into the deck and ${deal.hand.length} new cards were drawn; ` +
          (choosing
            ? `choose ${pendingBottom()} ${bottomed.size ? "more " : ""}to put on the bottom (${deal.bottom} in all).`
            : `${deal.bottom} went to the bottom.`)
      );
    if (extra.length) parts.push(`Reinforced ${extra.length / REINFORCE_DRAW}× (+${extra.length}).`);
    if (deal.hand.length && !choosing) parts.push(`${kept} card${kept === 1 ? "" : "s"} in hand.`);
    parts.push(`Seed ${deal.seed}.`);
    const stale = options.staleNote ? options.staleNote() : "";
    if (stale) parts.push(stale);
    note.textContent = parts.join(" ");
    if (mulliganButton) {
      mulliganButton.disabled = deal.mulligans >= maxMulligans;
      mulliganButton.textContent = deal.mulligans >= maxMulligans ? "No more mulligans" : `Mulligan (${deal.mulligans + 1})`;
    }
    if (reinforceButton) reinforceButton.disabled = choosing || extra.length + REINFORCE_DRAW > deal.upcoming.length;
    root.dataset.handState = choosing ? "choosing" : "kept";
  }

  async function draw({ mulligan = false } = {}) {
    const seed = mulligan && deal ? deal.seed : Math.floor(Math.random() * 2 ** 31);
    const mulligans = mulligan && deal ? Math.min(deal.mulligans + 1, maxMulligans) : 0;
    try {
      deal = await api(withQuery(`${options.apiUrl}sample-hand/`, { seed, mulligans }));
      bottomed = new Set();
      extra = [];
      render();
    } catch (error) {
      container.replaceChildren(h("div", { class: "error-box", role: "alert" }, error.message));
    }
  }

  function reinforce() {
    if (!deal || pendingBottom() > 0) return;
    extra = deal.upcoming.slice(0, extra.length + REINFORCE_DRAW);
    render();
  }

  const newHand = $("[data-new-hand]");
  if (newHand) newHand.addEventListener("click", () => draw());
  if (mulliganButton) mulliganButton.addEventListener("click", () => draw({ mulligan: true }));
  if (reinforceButton) reinforceButton.addEventListener("click", reinforce);
  return { draw, render };
}

function percent(p) {
  if (p >= 1) return "100%";
  if (p >= 0.9995) return ">99.9%"; // not certain: never round a miss chance away
  if (p > 0 && p < 0.0005) return "<0.1%";
  return `${(p * 100).toFixed(1)}%`;
}

function heat(p) {
  return `hsl(${Math.round(p * 120)} 55% ${92 - Math.round(p * 12)}%)`;
}

/**
 * Bind the draw-odds panel inside `root`: selects [data-odds=turns|reinforces|mulligans|first], a table
 * container [data-odds-table], a units table [data-odds-units] and a note [data-odds-note].
 */
export function createDrawOdds(root, options) {
  const $ = (selector) => root.querySelector(selector);
  const controls = Object.fromEntries([...root.querySelectorAll("[data-odds]")].map((el) => [el.dataset.odds, el]));
  let seq = 0;

  function table(caption, head, rows, testid) {
    return h(
      "div",
      { class: "odds-scroll", tabindex: "0", role: "region", "aria-label": caption },
      h(
        "table",
        { class: "odds-table", "data-testid": testid },
        h("caption", { class: "sr-only" }, caption),
        h("thead", {}, h("tr", {}, head.map((label, i) => h("th", { scope: "col", class: i ? "num" : "" }, label)))),
        h("tbody", {}, rows)
      )
    );
  }

  function cells(probabilities) {
    return probabilities.map((p) => h("td", { class: "num", style: { background: heat(p) } }, percent(p)));
  }

  async function load() {
    const mine = ++seq;
    const params = Object.fromEntries(Object.entries(controls).map(([key, el]) => [key, el.value]));
    try {
      const data = await api(withQuery(`${options.apiUrl}draw-odds/`, params));
      if (mine !== seq) return;
      const turns = data.cards_seen.length - 1;
      const head = ["", "Opening", ...Array.from({ length: turns }, (_, i) => `Turn ${i + 1}`)];
      $("[data-odds-table]").replaceChildren(
        data.cards.length
          ? table(
              "Chance to hold at least one copy",
              ["Card", ...head.slice(1)],
              data.cards.map((row) =>
                h(
                  "tr",
                  { "data-card": row.card },
                  h("th", { scope: "row" }, `${row.name} `, h("span", { class: "muted" }, row.commander ? "(Commander)" : `×${row.count}`)),
                  cells(row.probabilities)
                )
              ),
              "odds-cards"
            )
          : h("p", { class: "muted" }, "Save some cards to see their odds.")
      );
      $("[data-odds-units]").replaceChildren(
        data.units_by_cost.length
          ? table(
              "Chance to hold a unit of Command cost N or less",
              ["Unit cost", ...head.slice(1)],
              data.units_by_cost.map((row) =>
                h("tr", {}, h("th", { scope: "row" }, `≤ ${row.max_cost} `, h("span", { class: "muted" }, `(${row.copies})`)), cells(row.probabilities))
              ),
              "odds-units"
            )
          : null
      );
      const reinforce = Number(data.reinforces);
      $("[data-odds-note]").textContent =
        `Exact odds over the saved deck's ${data.draw_pile} cards. Commandeer has no draw step: you see the opening ` +
        `${data.opening_hand} (C-4.3) and ${data.reinforce_draw} more per Reinforce (1 CP, C-5.2)` +
        (reinforce ? `; reinforcing ${reinforce}× a turn you have seen ${data.cards_seen.slice(1).join(", ")} cards by turns 1–${turns}` : "") +
        (data.first && reinforce > 2 ? " (going first, turn 1 has only 2 CP, C-4.6)" : "") +
        (Number(data.mulligans) ? `; mulliganing up to ${data.mulligans}× while the hand lacks it (C-4.4)` : "") +
        ". A Commander waits in its zone and is always at hand (C-4.5).";
    } catch (error) {
      if (mine !== seq) return;
      $("[data-odds-table]").replaceChildren(h("div", { class: "error-box", role: "alert" }, error.message));
    }
  }

  for (const el of Object.values(controls)) el.addEventListener("change", load);
  return { load };
}
