// One line of a match log: the action in plain words, then what it caused, as the server wrote it for
// this viewer (`consequences`: damage, defeats, draws, CP and Energy, triggered abilities; see
// docs/play-layer.md). Shared by the live match page and the replay.
import { linkRules } from "./rule_links.js";
import { withCardText } from "./card_component.js";
import { h } from "./dom.js";
import { _ } from "./i18n.js";

const SIGNED = new Set(["cp", "energy", "modify"]);

function amountBadge(c) {
  if (c.amount === null || c.amount === undefined) return null;
  const n = Number(c.amount);
  let text;
  if (c.kind === "damage") text = `−${n}`;
  else if (c.kind === "heal") text = `+${n}`;
  else if (SIGNED.has(c.kind)) text = n > 0 ? `+${n}` : `−${-n}`;
  else return null;
  return h("span", { class: "caused-amount", "aria-hidden": "true" }, text);
}

/** The list of consequences of one entry (null when it caused nothing the viewer may see). */
export function causedList(entry, catalog = null) {
  const caused = entry.consequences || [];
  if (!caused.length) return null;
  // A list by role, not <ul>/<li>: a log line's <li> stays the only <li> of the log (one per entry).
  return h(
    "div",
    { class: "log-caused", role: "list", "aria-label": _("What it caused"), "data-testid": "log-consequences" },
    caused.map((c) =>
      h(
        "div",
        { role: "listitem", class: `caused caused-${c.kind}`, "data-kind": c.kind },
        amountBadge(c),
        ...withCardNames(c.text, catalog),
      ),
    ),
  );
}

/**
 * The card names of `catalog` ({name: public facts}, as a view carries it) as the log may write them — the
 * English name the engine uses and the name in the viewer's language (`display_name`) — longest first, as
 * one pattern, with the English name each stands for.
 */
function namesPattern(catalog) {
  const byShown = new Map();
  for (const [name, facts] of Object.entries(catalog || {})) {
    for (const shown of [name, facts && facts.display_name]) if (shown && shown.length > 2) byShown.set(shown, name);
  }
  if (!byShown.size) return null;
  const names = [...byShown.keys()].sort((a, b) => b.length - a.length);
  const escaped = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return { regex: new RegExp(`(${escaped.join("|")})`, "g"), byShown };
}

const patterns = new WeakMap(); // catalog object -> its pattern (a log renders many lines per catalog)

/** `text` with every card name of `catalog` showing that card's full text on hover, focus or tap. */
function withCardNames(text, catalog) {
  if (!catalog) return [text];
  if (!patterns.has(catalog)) patterns.set(catalog, namesPattern(catalog));
  const pattern = patterns.get(catalog);
  if (!pattern) return [text];
  return String(text)
    .split(pattern.regex)
    .map((part, i) => {
      if (i % 2 === 0) return part; // split() with one group: names at the odd places
      // tabindex -1: hover and tap show the card; the log is not one tab stop per name
      const node = h("span", { class: "log-card", tabindex: "-1" }, part);
      const facts = catalog[pattern.byShown.get(part)] || {};
      withCardText(node, () => ({ ...facts, name: part, rules_text: facts.display_rules_text ?? facts.rules_text }));
      return node;
    });
}

/**
 * An <li> for a log entry, numbered by its version (the step the replay names). `catalog` (optional:
 * {card name: public facts}, a view's `catalog`) makes the card names in its words show their card.
 */
export function logLine(entry, attrs = {}, catalog = null) {
  const line = h(
    "li",
    { value: entry.version, "data-version": entry.version, class: `log-${entry.source || "start"}`, ...attrs },
    h("span", { class: "log-text" }, ...withCardNames(entry.text, catalog)),
    causedList(entry, catalog),
  );
  linkRules(line); // "(C-6.2)" opens that rule
  return line;
}
