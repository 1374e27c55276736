// The lines an import could not read, each with one click to put the card it meant in the deck.
// The import keeps what it knows (/api/decks/import/); what is left is listed here, on the builder, and
// carried across the redirect of "Import as new deck" in sessionStorage (this tab only).
import { h } from "./dom.js";
import { _, fmt, ngettext } from "./i18n.js";
import { lineErrorText } from "./decks.js";

const KEY = (deckId) => `deck-import-leftovers:${deckId}`;

/** Keep an import's unread lines for the builder page of the deck it created. */
export function rememberLeftovers(deckId, errors) {
  if (!errors || !errors.length) return;
  try {
    sessionStorage.setItem(KEY(deckId), JSON.stringify(errors));
  } catch {
    // storage full or off: the builder simply shows no list
  }
}

/** The unread lines remembered for this deck (once: they are forgotten when read). */
export function takeLeftovers(deckId) {
  try {
    const text = sessionStorage.getItem(KEY(deckId));
    sessionStorage.removeItem(KEY(deckId));
    const errors = text ? JSON.parse(text) : [];
    return Array.isArray(errors) ? errors : [];
  } catch {
    return [];
  }
}

/**
 * Fill `box` with the unread lines: each line's message and a button per suggested card.
 * `fix({card, count, commander})` adds the card (count copies, or as the Commander) and answers true
 * when it worked; the line then leaves the list.
 */
export function renderLeftovers(box, errors, fix) {
  // a name on two lines is one fix (its count sums them): show it once
  const seen = new Set();
  const items = errors.filter((e) => {
    const key = `${e.code}:${e.count === null ? "commander" : "card"}:${e.text}`;
    if (e.code === "unknown_card" && seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  function draw() {
    box.hidden = !items.length;
    if (!items.length) return box.replaceChildren();
    box.replaceChildren(
      h("p", { class: "leftovers-title" }, fmt(ngettext("%(count)s line was not imported:", "%(count)s lines were not imported:", items.length), { count: items.length })),
      h(
        "ul",
        { class: "leftovers" },
        items.map((e) => {
          const commander = e.count === null || e.count === undefined;
          const buttons = (e.suggested_cards || []).map((s) =>
            h(
              "button",
              {
                type: "button",
                class: "button button-small",
                "data-testid": "import-fix",
                "data-card": s.card,
                onclick: async (event) => {
                  event.currentTarget.disabled = true;
                  if (await fix({ card: s.card, count: commander ? 1 : e.count, commander })) {
                    items.splice(items.indexOf(e), 1);
                    draw();
                  } else event.currentTarget.disabled = false;
                },
              },
              commander
                ? fmt(_("Make %(card)s the Commander"), { card: s.name })
                : fmt(ngettext("Add %(count)s copy of %(card)s", "Add %(count)s copies of %(card)s", e.count), { count: e.count, card: s.name })
            )
          );
          const dismiss = h(
            "button",
            {
              type: "button",
              class: "qty-btn remove",
              "aria-label": _("Leave this line out"),
              title: _("Leave this line out"),
              "data-testid": "import-leftover-dismiss",
              onclick: () => {
                items.splice(items.indexOf(e), 1);
                draw();
              },
            },
            "×"
          );
          return h("li", { "data-testid": "import-leftover", "data-line": e.line || "" }, h("span", {}, lineErrorText(e)), h("span", { class: "button-row" }, buttons, dismiss));
        })
      )
    );
  }
  draw();
}
