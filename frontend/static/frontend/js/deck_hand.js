// Sample hand and draw odds of a saved deck, shared by the builder and the read-only deck page.
//
// Sample hand (C-4.3, C-4.4): 6 cards from the shuffled deck (the Commander stays out, C-4.1). The k-th
// mulligan shuffles the hand back into the whole deck, draws 6 again and asks for k cards to put on the
// bottom — the player picks them here, as in a match. "Reinforce" (C-5.2) then draws 2 from the top.
// Draw odds: exact chances from /api/decks/…/draw-odds/ (hypergeometric over the real deck).
import { api, withQuery } from "./api.js";
import { h } from "./dom.js";
import { _, fmt, formatNumber, ngettext } from "./i18n.js";
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
            "aria-label": fmt(isBottom ? _("Keep: %(card)s") : _("Put on the bottom: %(card)s"), { card: row.name }),
            "data-testid": "hand-pick",
            disabled: !isBottom && !choosing,
            onclick: () => {
              if (isBottom) bottomed.delete(index);
              else if (pendingBottom() > 0) bottomed.add(index);
              render();
            },
          },
          tile,
          isBottom ? h("span", { class: "bottom-tag" }, _("Bottom")) : null
        );
      }
      return tile;
    });
    const drawn = extra.map((card) => {
      const tile = handCard(options.rowFor(card), factions);
      tile.classList.add("hand-drawn");
      tile.title = _("Drawn by Reinforce (C-5.2)");
      return tile;
    });
    container.replaceChildren(...tiles, ...drawn);
    const kept = deal.hand.length - bottomed.size + extra.length;
    const parts = [];
    // Whole sentences, each translated as one (word order differs between the languages).
    if (!deal.hand.length) parts.push(_("The saved deck has no cards to draw."));
    else if (deal.mulligans === 0) parts.push(fmt(_("Opening hand of %(count)s (C-4.3)."), { count: deal.hand.length }));
    else {
      parts.push(fmt(_("Mulligan %(number)s (C-4.4): the hand went back into the deck and %(count)s new cards were drawn."), { number: deal.mulligans, count: deal.hand.length }));
      const params = { count: pendingBottom(), total: deal.bottom };
      if (!choosing) parts.push(fmt(_("%(total)s went to the bottom."), params));
      else if (bottomed.size) parts.push(fmt(_("Choose %(count)s more to put on the bottom (%(total)s in all)."), params));
      else parts.push(fmt(_("Choose %(count)s to put on the bottom (%(total)s in all)."), params));
    }
    if (extra.length) parts.push(fmt(_("Reinforced %(times)s× (+%(count)s)."), { times: extra.length / REINFORCE_DRAW, count: extra.length }));
    if (deal.hand.length && !choosing) parts.push(fmt(ngettext("%(count)s card in hand.", "%(count)s cards in hand.", kept), { count: kept }));
    parts.push(fmt(_("Seed %(seed)s."), { seed: deal.seed }));
    const stale = options.staleNote ? options.staleNote() : "";
    if (stale) parts.push(stale);
    note.textContent = parts.join(" ");
    if (mulliganButton) {
      mulliganButton.disabled = deal.mulligans >= maxMulligans;
      mulliganButton.textContent = deal.mulligans >= maxMulligans ? _("No more mulligans") : fmt(_("Mulligan (%(number)s)"), { number: deal.mulligans + 1 });
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
  return formatNumber(p, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });
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
      const head = ["", _("Opening"), ...Array.from({ length: turns }, (unused, i) => fmt(_("Turn %(turn)s"), { turn: i + 1 }))];
      $("[data-odds-table]").replaceChildren(
        data.cards.length
          ? table(
              _("Chance to hold at least one copy"),
              [_("Card"), ...head.slice(1)],
              data.cards.map((row) =>
                h(
                  "tr",
                  { "data-card": row.card },
                  h("th", { scope: "row" }, `${row.name} `, h("span", { class: "muted" }, row.commander ? _("(Commander)") : `×${row.count}`)),
                  cells(row.probabilities)
                )
              ),
              "odds-cards"
            )
          : h("p", { class: "muted" }, _("Save some cards to see their odds."))
      );
      // replaceChildren(null) would print "null": an empty deck has no unit rows, so no table at all
      $("[data-odds-units]").replaceChildren(
        ...(data.units_by_cost.length
          ? [table(
              _("Chance to hold a unit of Command cost N or less"),
              [_("Unit cost"), ...head.slice(1)],
              data.units_by_cost.map((row) =>
                h("tr", {}, h("th", { scope: "row" }, `≤ ${row.max_cost} `, h("span", { class: "muted" }, `(${row.copies})`)), cells(row.probabilities))
              ),
              "odds-units"
            )]
          : [])
      );
      const reinforce = Number(data.reinforces);
      // One sentence per fact, each translated whole.
      const note = [
        fmt(_("Exact odds over the saved deck's %(count)s cards."), { count: data.draw_pile }),
        fmt(_("Commandeer has no draw step: you see the opening %(hand)s (C-4.3) and %(draw)s more per Reinforce (1 CP, C-5.2)."), { hand: data.opening_hand, draw: data.reinforce_draw }),
      ];
      if (reinforce) {
        note.push(fmt(_("Reinforcing %(times)s× a turn, you have seen %(seen)s cards by turns 1–%(turns)s."), { times: reinforce, seen: data.cards_seen.slice(1).join(", "), turns }));
      }
      if (data.first && reinforce > 2) note.push(_("Going first, turn 1 has only 2 CP (C-4.6)."));
      if (Number(data.mulligans)) note.push(fmt(_("Mulliganing up to %(count)s× while the hand lacks it (C-4.4)."), { count: data.mulligans }));
      note.push(_("A Commander waits in its zone and is always at hand (C-4.5)."));
      $("[data-odds-note]").textContent = note.join(" ");
    } catch (error) {
      if (mine !== seq) return;
      $("[data-odds-table]").replaceChildren(h("div", { class: "error-box", role: "alert" }, error.message));
    }
  }

  for (const el of Object.values(controls)) el.addEventListener("change", load);
  return { load };
}
