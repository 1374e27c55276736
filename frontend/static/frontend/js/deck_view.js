// Read-only deck page (shared link or someone's public deck): list, legality, curves, hand, text.
import { api, toast, withQuery } from "./api.js";
import { h } from "./dom.js";
import { loadFactions } from "./card_search.js";
import { groupRows, handCard, renderCharts, renderLegality } from "./decks.js";

const root = document.getElementById("deck-view");
const apiUrl = root.dataset.apiUrl;
const $ = (selector) => root.querySelector(selector);
let factions = {};
let rows = [];

async function drawHand() {
  try {
    const data = await api(withQuery(`${apiUrl}sample-hand/`, {}));
    const bySlug = new Map(rows.map((r) => [r.card, r]));
    $("[data-hand]").replaceChildren(...data.hand.map((c) => handCard(bySlug.get(c.card) || c, factions)));
  } catch (error) {
    $("[data-hand]").replaceChildren(h("div", { class: "error-box" }, error.message));
  }
}

async function main() {
  factions = await loadFactions();
  const deck = await api(apiUrl);
  rows = deck.cards || [];
  renderLegality($("[data-legality]"), deck.legality);
  $("[data-total]").textContent = `${deck.card_count} cards`;
  $("[data-commander]").textContent = deck.commander ? `Commander: ${deck.commander.name}` : "No Commander chosen.";
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
  drawHand();
  $("[data-new-hand]").addEventListener("click", drawHand);
  const copy = $("[data-copy-deck]");
  if (copy) {
    copy.addEventListener("click", async () => {
      try {
        const json = await api(withQuery(`${apiUrl}export/`, { format: "json" }));
        const result = await api("/api/decks/import/", {
          method: "POST",
          body: { data: json.content, format: "json", save: true, name: `${deck.name} (copy)` },
        });
        location.assign(`/decks/${result.deck.id}/`);
      } catch (error) {
        toast(`Could not copy: ${error.message}`, { error: true });
      }
    });
  }
}

main().catch((error) => {
  root.append(h("div", { class: "error-box" }, `Could not load the deck: ${error.message}`));
});
