// Card page: the tile, every field, the plain-words ability descriptions from the API, and the public
// decks that use the card (most liked first).
import { api, withQuery } from "./api.js";
import { h } from "./dom.js";
import { _, fmt } from "./i18n.js";
import { loadFactions, loadKeywords } from "./card_search.js";
import { cardTile, cardType, eventTypeName, factionOf, keywordsOf } from "./cards.js";

const root = document.getElementById("card-detail");
const slug = root.dataset.slug;

function abilityLines(card) {
  const lines = card.ability_descriptions || [];
  return lines.map((line) => (typeof line === "string" ? line : line.text || line.description || JSON.stringify(line)));
}

async function main() {
  let card;
  const [factions, known] = await Promise.all([loadFactions(), loadKeywords()]);
  try {
    card = await api(`/api/cards/${encodeURIComponent(slug)}/`);
  } catch (error) {
    root.replaceChildren(
      h("div", { class: "error-box", role: "alert" }, error.status === 404 ? _("No card with this name exists.") : fmt(_("Could not load the card: %(message)s"), { message: error.message }))
    );
    return;
  }
  document.title = fmt(_("%(card)s · Commandeer & Westeros"), { card: card.name });
  const faction = factionOf(card, factions);
  const type = cardType(card);
  const abilities = abilityLines(card);
  const keywords = keywordsOf(card, known);
  root.replaceChildren(
    cardTile(card, { factions, keywords: known, link: false, large: true }),
    h(
      "section",
      { class: "panel" },
      h("h1", {}, card.name),
      h(
        "dl",
        { class: "kv" },
        h("dt", {}, _("Faction")), h("dd", {}, h("a", { href: `/cards/?q=${encodeURIComponent("f:" + faction.slug)}` }, faction.name)),
        h("dt", {}, _("Type")), h("dd", {}, type === "unit" ? _("Unit") : eventTypeName(card.event_type)),
        h("dt", {}, _("Command cost")), h("dd", {}, String(card.command_cost)),
        h("dt", {}, _("Energy cost")), h("dd", {}, String(card.energy_cost)),
        type === "unit" ? [h("dt", {}, _("Power")), h("dd", {}, String(card.power)), h("dt", {}, _("Health")), h("dd", {}, String(card.health))] : null,
        type === "unit" ? [h("dt", {}, _("Attack arrows")), h("dd", {}, (card.arrows || []).join(", ") || _("none"))] : null,
        card.legendary ? [h("dt", {}, _("Legendary")), h("dd", {}, _("yes — at most 1 copy (C-3.3)"))] : null,
        card.unique ? [h("dt", {}, _("Unique")), h("dd", {}, _("yes — at most 1 copy (C-3.3)"))] : null
      ),
      h("h2", { style: { marginTop: "1rem" } }, _("Abilities")),
      abilities.length
        ? h("ul", { class: "ability-list", "data-testid": "ability-descriptions" }, abilities.map((line) => h("li", {}, line)))
        : h("p", { class: "muted" }, _("No structured abilities.")),
      keywords.length
        ? [h("h2", { style: { marginTop: "1rem" } }, _("Keywords")),
           h("dl", { class: "kv" }, keywords.map((k) => [h("dt", {}, k.name), h("dd", {}, k.reminder || "")]))]
        : null,
      card.rules_text ? [h("h2", { style: { marginTop: "1rem" } }, _("Rules text")), h("p", { class: "rules-text" }, card.rules_text)] : null,
      card.flavor_text ? h("p", { class: "flavor-text" }, card.flavor_text) : null
    )
  );
}

const DECKS_SHOWN = 10;

async function publicDecks() {
  const box = document.querySelector("[data-card-decks-list]");
  if (!box) return;
  try {
    const data = await api(withQuery("/api/decks/public/", { card: slug, sort: "liked", page_size: DECKS_SHOWN }));
    const decks = data.results || [];
    box.replaceChildren(
      ...(decks.length
        ? decks.map((deck) => {
            const copies = (deck.cards || []).find((row) => row.card === slug);
            return h(
              "li",
              { "data-testid": "card-deck" },
              h("a", { href: `/decks/${deck.id}/` }, deck.name),
              h(
                "span",
                { class: "muted" },
                fmt(_("by %(player)s"), { player: deck.owner }) + (deck.faction ? ` · ${deck.faction.name}` : "") + ` · ♥ ${deck.like_count}` + (copies ? ` · ×${copies.count}` : "")
              )
            );
          })
        : [h("li", { class: "muted" }, _("No public deck uses this card yet."))])
    );
    if (data.count > decks.length) {
      box.append(h("li", { class: "muted" }, fmt(_("… and %(count)s more."), { count: data.count - decks.length })));
    }
  } catch (error) {
    box.replaceChildren(h("li", { class: "error-box" }, fmt(_("Could not load decks: %(message)s"), { message: error.message })));
  }
}

main();
publicDecks();
