// Card rendering shared by the card browser, the card page, the deck builder and the match pages
// (js/card_component.js adds the full text on hover, focus and tap to any node showing a card).
import { h } from "./dom.js";
import { _, fmt } from "./i18n.js";

// 3×3 compass of the attack arrows (C-1.2): row by row, the centre is the card itself.
const COMPASS = [
  ["NW", "↖"], ["N", "↑"], ["NE", "↗"],
  ["W", "←"], [null, "●"], ["E", "→"],
  ["SW", "↙"], ["S", "↓"], ["SE", "↘"],
];

/** {slug, name, color} of a card's faction, whatever shape the API gives (slug or object). */
export function factionOf(card, factions = {}) {
  const raw = card.faction;
  if (raw && typeof raw === "object") {
    return { slug: raw.slug || "", name: raw.name || raw.slug || "", color: raw.color || "#666666" };
  }
  const slug = raw || card.faction_slug || "";
  const known = factions[slug] || {};
  return {
    slug,
    name: card.faction_name || known.name || slug,
    color: card.faction_color || known.color || "#666666",
  };
}

export function cardType(card) {
  return card.type || card.card_type || "unit";
}

export function keywordsOf(card, known = {}) {
  return (card.keywords || []).map((k) => {
    const code = typeof k === "string" ? k : k.code;
    const info = known[code] || (typeof k === "object" ? k : {});
    return { code, name: info.name || code.replace(/_/g, " "), reminder: info.reminder_text || "" };
  });
}

export function compass(arrows, { large = false } = {}) {
  const on = new Set(arrows || []);
  const label = on.size ? fmt(_("Attack directions: %(directions)s"), { directions: [...on].join(", ") }) : _("No attack directions");
  return h(
    "div",
    { class: "compass" + (large ? " compass-large" : ""), role: "img", "aria-label": label, title: label },
    COMPASS.map(([dir, glyph]) =>
      dir === null
        ? h("span", { class: "core" }, "")
        : h("span", { class: on.has(dir) ? "on" : "", "data-dir": dir }, on.has(dir) ? glyph : "·")
    )
  );
}

export function costBadges(card) {
  return h(
    "div",
    { class: "card-costs" },
    h("span", { class: "cost cost-command", title: _("Command cost (CP)") }, String(card.command_cost ?? 0)),
    h("span", { class: "cost cost-energy", title: _("Energy cost") }, String(card.energy_cost ?? 0))
  );
}

export function formatStat(value) {
  if (value === null || value === undefined) return "—";
  return String(value);
}

/**
 * A card's picture URL in one of the sizes the server makes ("thumb" 160×120, "card" 480×360): staff's art,
 * or the card's placeholder (its faction's colours and costs) until there is art. A card known only by its
 * slug (a saved deck's row) gets a URL that redirects to whichever of the two the card has now.
 */
export function artUrl(card, size = "thumb") {
  if (card.art && card.art[size]) return card.art[size];
  return card.slug ? `/cards/${encodeURIComponent(card.slug)}/art/${size}/` : null;
}

/** An <img> of the card's art (decorative: the card's name is always written beside it), or null. */
export function artImage(card, size = "thumb", { className = "card-art", lazy = true } = {}) {
  const src = artUrl(card, size);
  if (!src) return null;
  const [width, height] = size === "card" ? [480, 360] : [160, 120];
  return h("img", {
    class: className, src, alt: "", width, height, decoding: "async", loading: lazy ? "lazy" : null,
    draggable: "false", "data-testid": "card-art", "data-art": card.art && !card.art.placeholder ? "art" : "placeholder",
  });
}

/** A card tile; `actions` is an optional element appended at the bottom (e.g. an "Add" button). */
export function cardTile(card, { factions = {}, keywords: knownKeywords = {}, actions = null, link = true, large = false } = {}) {
  const faction = factionOf(card, factions);
  const type = cardType(card);
  const isUnit = type === "unit";
  const tags = [];
  tags.push(h("span", { class: "tag" }, isUnit ? _("Unit") : eventTypeName(card.event_type)));
  if (card.legendary) tags.push(h("span", { class: "tag tag-legendary" }, _("Legendary")));
  if (card.unique) tags.push(h("span", { class: "tag tag-unique" }, _("Unique")));
  // each keyword links to the cards that have it; its rule text is the link's tooltip and accessible description
  const keywords = keywordsOf(card, knownKeywords).map((k) =>
    h("a", { class: "tag tag-keyword", href: keywordUrl(k.code), title: k.reminder || k.name, "aria-description": k.reminder || null }, k.name)
  );
  const nameNode = link && card.slug ? h("a", { href: `/cards/${encodeURIComponent(card.slug)}/` }, card.name) : card.name;
  return h(
    "article",
    { class: "card-tile", style: { "--faction": faction.color }, "data-card": card.slug || card.name, "data-testid": "card-tile" },
    artImage(card, "card", { className: "card-art card-tile-art", lazy: !large }),
    h("div", { class: "card-tile-head" }, h("div", { class: "card-name" }, nameNode), costBadges(card)),
    h("div", { class: "card-line" }, h("span", { class: "faction-chip" }, faction.name), ...tags),
    isUnit
      ? h(
          "div",
          { class: "card-body" },
          h(
            "div",
            { class: "card-stats" },
            h("div", { class: "stat stat-power" }, h("span", {}, _("Power")), h("b", {}, formatStat(card.power))),
            h("div", { class: "stat stat-health" }, h("span", {}, _("Health")), h("b", {}, formatStat(card.health)))
          ),
          compass(card.arrows, { large })
        )
      : null,
    keywords.length ? h("div", { class: "card-line" }, ...keywords) : null,
    card.rules_text ? h("p", { class: "rules-text" }, card.rules_text) : null,
    large && card.flavor_text ? h("p", { class: "flavor-text" }, card.flavor_text) : null,
    actions
  );
}

/** The card search for one keyword (C-7): where a keyword's name links to. */
export function keywordUrl(code) {
  return `/cards/?q=${encodeURIComponent(`kw:${code}`)}`;
}

/** An event card's type (C-3.2) as the glossary names it: "Planning event", "Defensive event", "Ongoing event". */
export function eventTypeName(type) {
  const names = { planning: _("Planning event"), defensive: _("Defensive event"), ongoing: _("Ongoing event") };
  return names[String(type || "").toLowerCase()] || (type ? fmt(_("%(type)s event"), { type: capitalize(type) }) : _("Event"));
}

export function capitalize(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}
