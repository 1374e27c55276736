// Deck list page: my decks, public decks, create a deck, import a decklist as a new deck.
import { api, localUrl, resultsOf } from "./api.js";
import { h } from "./dom.js";
import { _, fmt, pgettext } from "./i18n.js";
import { loadFactions } from "./card_search.js";
import { deckTotal, importErrorText, legalityOf } from "./decks.js";
import { rememberLeftovers } from "./deck_import.js";

const root = document.getElementById("deck-lists");
let factions = {};
const VISIBILITY = { private: _("private"), unlisted: _("unlisted"), public: _("public") };

function factionName(deck) {
  const raw = deck.faction;
  if (raw && typeof raw === "object") return raw.name || raw.slug;
  return (factions[raw] && factions[raw].name) || raw || "—";
}

function statusBadge(deck) {
  const legality = legalityOf(deck);
  if (!legality) return h("span", { class: "status" }, "");
  if (!legality.valid) return h("span", { class: "status status-bad", title: (legality.errors || []).map((e) => e.message).join("\n") }, pgettext("deck status", "Draft"));
  return h("span", { class: "status status-ok" }, pgettext("deck status", "Legal"));
}

function deckTable(decks, { showOwner = false } = {}) {
  if (!decks.length) return h("p", { class: "muted" }, showOwner ? _("No public decks yet.") : _("No decks yet — create one or import a list."));
  return h(
    "table",
    { class: "deck-table" },
    h("thead", {}, h("tr", {}, h("th", {}, _("Name")), h("th", { class: "hide-narrow" }, _("Faction")), h("th", {}, _("Cards")),
      showOwner ? h("th", { class: "hide-narrow" }, _("By")) : h("th", { class: "hide-narrow" }, _("Visibility")), h("th", {}, _("Status")))),
    h(
      "tbody",
      {},
      decks.map((deck) =>
        h(
          "tr",
          { "data-deck-id": deck.id },
          h("td", {}, h("a", { href: `/decks/${deck.id}/` }, deck.name || _("(unnamed)"))),
          h("td", { class: "hide-narrow" }, factionName(deck)),
          h("td", {}, String(deckTotal(deck))),
          h("td", { class: "hide-narrow" }, showOwner ? deck.owner || "" : VISIBILITY[deck.visibility] || deck.visibility || ""),
          h("td", {}, statusBadge(deck))
        )
      )
    )
  );
}

/** Every page of a paginated list (a user's decks are few; capped to stay quick). */
async function allPages(url, maxPages = 20) {
  const items = [];
  for (let page = 0; url && page < maxPages; page++) {
    const data = await api(url);
    items.push(...resultsOf(data));
    url = localUrl(data && data.next);
  }
  return items;
}

async function loadLists() {
  const mine = root.querySelector("[data-my-decks]");
  const pub = root.querySelector("[data-public-decks]");
  try {
    mine.replaceChildren(deckTable(await allPages("/api/decks/")));
  } catch (error) {
    mine.replaceChildren(h("div", { class: "error-box" }, fmt(_("Could not load your decks: %(message)s"), { message: error.message })));
  }
  try {
    const liked = await api("/api/decks/public/?sort=liked&page_size=10"); // the full browser: /decks/public/
    pub.replaceChildren(deckTable(liked.results || [], { showOwner: true }));
  } catch (error) {
    pub.replaceChildren(h("div", { class: "error-box" }, fmt(_("Could not load public decks: %(message)s"), { message: error.message })));
  }
}

// The "new deck" form posts to the page itself with a one-time token (frontend.views.deck_list), so a
// double click creates one deck; the button is only disabled for looks.
function bindNewDeck() {
  const form = root.querySelector("[data-new-deck]");
  const select = form.querySelector("select[name=faction]");
  for (const faction of Object.values(factions)) select.append(new Option(faction.name, faction.slug));
  if (select.dataset.selected) select.value = select.dataset.selected;
  form.addEventListener("submit", () => {
    const button = form.querySelector("[type=submit]");
    setTimeout(() => { button.disabled = true; }, 0); // after the browser has taken the submit
  });
}

function bindImport() {
  const form = root.querySelector("[data-import-deck]");
  const errorBox = form.querySelector("[data-import-error]");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    errorBox.hidden = true;
    try {
      const result = await api("/api/decks/import/", {
        method: "POST",
        body: { data: form.data.value, name: form.name.value.trim(), save: true },
      });
      rememberLeftovers(result.deck.id, result.errors); // the builder lists them with one-click fixes
      location.assign(`/decks/${result.deck.id}/`);
    } catch (error) {
      errorBox.textContent = importErrorText(error);
      errorBox.hidden = false;
    }
  });
}

loadFactions().then((loaded) => {
  factions = loaded;
  bindNewDeck();
  bindImport();
  loadLists();
});
