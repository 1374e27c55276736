// Read-only deck page (shared link or someone's public deck): list, legality, curves, sample hand with
// C-4.4 mulligans, draw odds, text; like it and copy it to your decks (signed in).
import { api, withQuery } from "./api.js";
import { h } from "./dom.js";
import { _, fmt, ngettext } from "./i18n.js";
import { loadFactions } from "./card_search.js";
import { createDrawOdds, createSampleHand } from "./deck_hand.js";
import { bindLikeButton, copyDeck, groupRows, renderCharts, renderLegality } from "./decks.js";

const root = document.getElementById("deck-view");
const apiUrl = root.dataset.apiUrl;
const $ = (selector) => root.querySelector(selector);
let factions = {};
let rows = [];

async function main() {
  factions = await loadFactions();
  const deck = await api(apiUrl);
  rows = deck.cards || [];
  renderLegality($("[data-legality]"), deck.legality);
  $("[data-total]").textContent = fmt(ngettext("%(count)s card", "%(count)s cards", deck.card_count), { count: deck.card_count });
  $("[data-commander]").textContent = deck.commander ? fmt(_("Commander: %(card)s"), { card: deck.commander.name }) : _("No Commander chosen.");
  $("[data-decklist]").replaceChildren(
    ...groupRows(rows).flatMap(([title, list]) => [
      h("h3", { class: "deck-group-title" }, `${title} (${list.reduce((s, r) => s + r.count, 0)})`),
      h(
        "ul",
        { class: "deck-list" },
        list.map((row) =>
          h(
            "li",
            { class: "deck-row", style: { "--faction": (factions[row.faction] && factions[row.faction].color) || "#666" } },
            h("span", { class: "cost cost-command row-cost" }, String(row.command_cost)),
            h("span", { class: "row-name" }, h("a", { href: `/cards/${encodeURIComponent(row.card)}/` }, row.name)),
            h("span", { class: "row-count" }, `×${row.count}`)
          )
        )
      ),
    ])
  );
  renderCharts($("[data-charts]"), rows);
  const text = await api(withQuery(`${apiUrl}export/`, { format: "text" }));
  $("[data-export-output]").value = text.content;
  const bySlug = new Map(rows.map((r) => [r.card, r]));
  const handPanel = $("[data-sample-hand]");
  createSampleHand(handPanel, {
    apiUrl,
    rowFor: (card) => bySlug.get(card.card) || { name: card.name, card: card.card },
    factions: () => factions,
    maxMulligans: handPanel.dataset.maxMulligans,
  }).draw();
  createDrawOdds($("[data-draw-odds]"), { apiUrl }).load();
  const like = $("[data-like]");
  if (like) {
    const count = like.querySelector("[data-like-count]");
    if (like.disabled) count.textContent = String(deck.like_count || 0);
    else bindLikeButton(like, deck);
  }
  const copy = $("[data-copy-deck]");
  if (copy) copy.addEventListener("click", () => copyDeck(apiUrl));
  root.dataset.ready = "true";
}

main().catch((error) => {
  root.append(h("div", { class: "error-box" }, fmt(_("Could not load the deck: %(message)s"), { message: error.message })));
});
