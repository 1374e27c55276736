// Deck helpers shared by the deck pages: legality panel, curves, sample-hand tiles, import errors.
import { api, toast } from "./api.js";
import { h } from "./dom.js";
import { _, fmt, ngettext, pgettext } from "./i18n.js";
import { linkRules } from "./rule_links.js";

export function legalityOf(deck) {
  return deck && deck.legality ? deck.legality : null;
}

export function deckTotal(deck) {
  if (typeof deck.card_count === "number") return deck.card_count;
  return (deck.cards || []).reduce((sum, row) => sum + row.count, 0);
}

/** Human text of an import failure, listing the lines that could not be read. */
export function importErrorText(error) {
  const lines = (error.extra && error.extra.errors) || [];
  if (!lines.length) return error.message;
  return [error.message, ...lines.map(lineErrorText)].join("\n");
}

export function lineErrorText(e) {
  const where = e.line ? fmt(_("Line %(line)s"), { line: e.line }) : _("Deck");
  // the server's message already ends with "did you mean …?": add the names only when it does not
  const named = e.suggestions && e.suggestions.length && !/did you mean/i.test(e.message);
  const hint = named ? ` ${fmt(_("— did you mean %(names)s?"), { names: e.suggestions.join(", ") })}` : "";
  const quoted = e.text && !e.message.includes(e.text) ? ` (“${e.text}”)` : "";
  return `${where}: ${e.message}${quoted}${hint}`;
}

/** Fill the legality panel with the validator's errors and warnings (each citing its rule). */
export function renderLegality(panel, legality, { pending = false } = {}) {
  const badge = panel.querySelector("[data-legality-badge]");
  const list = panel.querySelector("[data-issues]");
  panel.classList.toggle("is-legal", Boolean(legality && legality.valid));
  panel.classList.toggle("is-illegal", Boolean(legality && !legality.valid));
  if (!legality) {
    badge.replaceChildren(h("span", { class: "status" }, pending ? _("Checking…") : ""));
    list.replaceChildren();
    return;
  }
  badge.replaceChildren(
    legality.valid
      ? h("span", { class: "status status-ok", "data-testid": "legality-status" }, pgettext("deck status", "Legal"))
      : h("span", { class: "status status-bad", "data-testid": "legality-status" }, _("Not legal yet"))
  );
  const issues = [
    ...(legality.errors || []).map((issue) => ({ ...issue, level: "error" })),
    ...(legality.warnings || []).map((issue) => ({ ...issue, level: "warning" })),
  ];
  list.replaceChildren(
    ...issues.map((issue) =>
      h(
        "li",
        { class: `issue issue-${issue.level}`, "data-rule": issue.rule, "data-testid": `legality-${issue.level}` },
        h("span", { class: "issue-rule" }, issue.rule),
        h("span", {}, issue.level === "warning" ? fmt(_("Warning: %(message)s"), { message: issue.message }) : issue.message)
      )
    )
  );
  if (!issues.length) list.replaceChildren(h("li", { class: "muted" }, _("Every deck rule (C-3) is met.")));
  // every rule number in the list (an issue's own and those its message cites) links to the rules pages
  linkRules(list);
}

/** A bar chart (pure CSS) of {label: value}. */
export function barChart(title, curve, { cls = "" } = {}) {
  const entries = Object.entries(curve);
  const max = Math.max(1, ...entries.map(([, v]) => v));
  return h(
    "figure",
    { style: { margin: 0 } },
    h("figcaption", { class: "chart-title" }, title),
    entries.length
      ? [
          h(
            "div",
            { class: `bar-chart ${cls}`, role: "img", "aria-label": `${title}: ${entries.map(([k, v]) => `${k}: ${v}`).join(", ")}` },
            entries.map(([, value]) =>
              h(
                "div",
                { class: "bar-col" },
                h("span", { class: "bar-value" }, value ? String(value) : ""),
                h("div", { class: "bar", style: { height: `${(value / max) * 78}%` } })
              )
            )
          ),
          h("div", { class: "bar-labels" }, entries.map(([label]) => h("span", {}, label))),
        ]
      : h("p", { class: "muted" }, _("No cards yet."))
  );
}

/** {"0": n, "1": n, …} from rows {key: cost, count}, with zero-filled gaps; the top bucket is "7+". */
export function curveOf(rows, key) {
  const counts = new Map();
  let top = -1;
  for (const row of rows) {
    const cost = Math.min(Number(row[key]) || 0, 7);
    counts.set(cost, (counts.get(cost) || 0) + row.count);
    top = Math.max(top, cost);
  }
  const curve = {};
  for (let cost = 0; cost <= Math.max(top, 4); cost++) curve[cost === 7 ? "7+" : String(cost)] = counts.get(cost) || 0;
  return top < 0 ? {} : curve;
}

export function splitBar(units, events) {
  const total = units + events;
  const pct = (n) => (total ? `${(n / total) * 100}%` : "0");
  return h(
    "figure",
    { style: { margin: 0 } },
    h("figcaption", { class: "chart-title" }, _("Units and events")),
    h(
      "div",
      { class: "split-bar", role: "img", "aria-label": fmt(_("%(units)s units, %(events)s events"), { units, events }) },
      units ? h("div", { class: "split-units", style: { width: pct(units) } }, String(units)) : null,
      events ? h("div", { class: "split-events", style: { width: pct(events) } }, String(events)) : null
    ),
    h("div", { class: "split-legend" }, `${fmt(ngettext("%(count)s unit", "%(count)s units", units), { count: units })} · ${fmt(ngettext("%(count)s event", "%(count)s events", events), { count: events })}`)
  );
}

export function renderCharts(container, rows) {
  const units = rows.filter((r) => r.card_type === "unit").reduce((s, r) => s + r.count, 0);
  const events = rows.filter((r) => r.card_type !== "unit").reduce((s, r) => s + r.count, 0);
  container.replaceChildren(
    barChart(_("Command cost"), curveOf(rows, "command_cost")),
    barChart(_("Energy cost"), curveOf(rows, "energy_cost"), { cls: "bar-energy" }),
    splitBar(units, events)
  );
}

export function handCard(row, factions) {
  const color = (factions[row.faction] && factions[row.faction].color) || "#666";
  return h(
    "div",
    { class: "hand-card", style: { "--faction": color }, "data-testid": "hand-card" },
    h("b", {}, row.name),
    h(
      "span",
      { class: "hand-stats" },
      row.command_cost !== undefined ? fmt(_("%(cp)s CP · %(energy)s E · %(type)s"), { cp: row.command_cost, energy: row.energy_cost, type: row.card_type === "unit" ? _("Unit") : _("Event") }) : ""
    )
  );
}

/** Deck rows grouped as Units then Events, sorted by cost then name. */
export function groupRows(rows) {
  const sorted = [...rows].sort((a, b) => a.command_cost - b.command_cost || a.name.localeCompare(b.name));
  return [
    [_("Units"), sorted.filter((r) => r.card_type === "unit")],
    [_("Events"), sorted.filter((r) => r.card_type !== "unit")],
  ].filter(([, list]) => list.length);
}

/** Like (true) or un-like a public deck; answers {liked, like_count}. One like per player per deck. */
export function setLiked(deckId, liked) {
  return api(`/api/decks/${deckId}/like/`, { method: liked ? "POST" : "DELETE" });
}

/** Bind a like button ([aria-pressed], a [data-like-count] inside) to a deck; keeps both in step. */
export function bindLikeButton(button, deck) {
  const count = button.querySelector("[data-like-count]");
  const show = (liked, likes) => {
    button.setAttribute("aria-pressed", liked ? "true" : "false");
    button.setAttribute("aria-label", fmt(liked ? ngettext("Unlike “%(deck)s” (%(count)s like)", "Unlike “%(deck)s” (%(count)s likes)", likes) : ngettext("Like “%(deck)s” (%(count)s like)", "Like “%(deck)s” (%(count)s likes)", likes), { deck: deck.name, count: likes }));
    count.textContent = String(likes);
  };
  show(Boolean(deck.liked), deck.like_count || 0);
  button.addEventListener("click", async () => {
    const want = button.getAttribute("aria-pressed") !== "true";
    button.disabled = true;
    try {
      const result = await setLiked(deck.id, want);
      show(result.liked, result.like_count);
    } catch (error) {
      toast(fmt(want ? _("Could not like the deck: %(message)s") : _("Could not unlike the deck: %(message)s"), { message: error.message }), { error: true });
    } finally {
      button.disabled = false;
    }
  });
}

/** Copy a deck (its API URL: /api/decks/<id>/ or /api/decks/shared/<share id>/) into my decks and open it. */
export async function copyDeck(deckApiUrl) {
  try {
    const copy = await api(`${deckApiUrl}copy/`, { method: "POST", body: {} });
    location.assign(`/decks/${copy.id}/`);
  } catch (error) {
    toast(fmt(_("Could not copy the deck: %(message)s"), { message: error.message }), { error: true });
  }
}
