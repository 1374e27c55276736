// Public deck browser (/decks/public/, no sign-in needed): search deck and card names, filter by faction
// or by one card (?card=slug, from a card page), sort (newest, most liked, faction), pages; like and copy
// when signed in. The search lives in the address bar (?q=&faction=&card=&sort=&page=).
import { api, withQuery } from "./api.js";
import { h } from "./dom.js";
import { _, fmt, formatDate, ngettext, pgettext } from "./i18n.js";
import { loadFactions } from "./card_search.js";
import { bindLikeButton, copyDeck } from "./decks.js";

const root = document.getElementById("public-decks");
const $ = (selector) => root.querySelector(selector);
const form = $("[data-public-filters]");
const list = $("[data-public-list]");
const meta = $("[data-public-meta]");
const errorBox = $("[data-public-error]");
const signedIn = root.dataset.signedIn === "true";
const me = root.dataset.username;
const PAGE_SIZE = 24;
let factions = {};
let page = 1;
let seq = 0;
let lastUrl = null;

function params() {
  return {
    q: form.q.value.trim(),
    faction: form.faction.value,
    card: form.card.value,
    sort: form.sort.value,
  };
}

function writeUrl() {
  const url = new URL(location.href);
  const values = { ...params(), page: page > 1 ? String(page) : "" };
  if (values.sort === "newest") values.sort = "";
  for (const [key, value] of Object.entries(values)) {
    if (value) url.searchParams.set(key, value);
    else url.searchParams.delete(key);
  }
  if (url.href !== location.href) history.replaceState(null, "", url);
}

function readUrl() {
  const query = new URLSearchParams(location.search);
  form.q.value = query.get("q") || "";
  const faction = query.get("faction") || "";
  if (factions[faction]) form.faction.value = faction;
  const sort = query.get("sort") || "newest";
  if ([...form.sort.options].some((o) => o.value === sort)) form.sort.value = sort;
  page = Math.max(1, Number.parseInt(query.get("page") || "1", 10) || 1);
}

function deckItem(deck) {
  const faction = deck.faction ? factions[deck.faction.slug] : null;
  const legal = deck.legality && deck.legality.valid;
  const own = signedIn && deck.owner === me;
  let like;
  if (signedIn && !own) {
    like = h(
      "button",
      { type: "button", class: "button button-small button-secondary like-button", "aria-pressed": "false", "data-testid": "like-deck" },
      "♥ ",
      h("span", { class: "like-count", "data-like-count": "" }, "0")
    );
    bindLikeButton(like, deck);
  } else {
    const n = deck.like_count || 0;
    like = h(
      "span",
      { class: "like-count muted", "data-testid": "like-count", title: own ? _("Your deck") : _("Log in to like decks") },
      `♥ ${fmt(ngettext("%(count)s like", "%(count)s likes", n), { count: n })}`
    );
  }
  return h(
    "li",
    { class: "public-deck", style: { "--faction": (faction && faction.color) || "#666" }, "data-testid": "public-deck", "data-deck": deck.id },
    h("h3", {}, h("a", { href: `/decks/${deck.id}/` }, deck.name)),
    h(
      "div",
      { class: "deck-meta-line" },
      fmt(_("by %(player)s"), { player: deck.owner }),
      deck.faction ? ` · ${deck.faction.name}` : "",
      ` · ${fmt(ngettext("%(count)s card", "%(count)s cards", deck.card_count), { count: deck.card_count })}`,
      deck.commander ? ` · ${fmt(_("Commander: %(card)s"), { card: deck.commander.name })}` : ""
    ),
    h(
      "div",
      { class: "deck-meta-line" },
      h("span", { class: `status ${legal ? "status-ok" : "status-bad"}` }, legal ? pgettext("deck status", "Legal") : _("Not legal yet")),
      " ",
      h("time", { datetime: deck.created_at }, formatDate(deck.created_at))
    ),
    h(
      "div",
      { class: "deck-actions" },
      like,
      signedIn
        ? h("button", { type: "button", class: "button button-small", "data-testid": "copy-deck", onclick: () => copyDeck(`/api/decks/${deck.id}/`) }, _("Copy to my decks"))
        : null
    )
  );
}

async function load() {
  writeUrl();
  const url = withQuery("/api/decks/public/", { ...params(), page, page_size: PAGE_SIZE });
  if (url === lastUrl) return; // one request per search
  lastUrl = url;
  const mine = ++seq;
  meta.textContent = _("Loading…");
  try {
    const data = await api(url);
    if (mine !== seq) return;
    errorBox.hidden = true;
    const decks = data.results || [];
    list.replaceChildren(...decks.map(deckItem));
    const pages = Math.max(1, Math.ceil(data.count / PAGE_SIZE));
    meta.textContent = data.count
      ? (pages > 1
        ? fmt(ngettext("%(count)s public deck · page %(page)s of %(pages)s.", "%(count)s public decks · page %(page)s of %(pages)s.", data.count), { count: data.count, page, pages })
        : fmt(ngettext("%(count)s public deck.", "%(count)s public decks.", data.count), { count: data.count }))
      : _("No public deck matches.");
    $("[data-pager]").hidden = pages <= 1;
    $("[data-page-label]").textContent = fmt(_("Page %(page)s of %(pages)s"), { page, pages });
    $("[data-page-prev]").disabled = page <= 1;
    $("[data-page-next]").disabled = !data.next;
    root.dataset.ready = "true";
  } catch (error) {
    if (mine !== seq) return;
    lastUrl = null;
    if (error.status === 404 && page > 1) {
      page = 1; // past the last page (the list shrank): back to the first
      load();
      return;
    }
    errorBox.textContent = fmt(_("Could not load public decks: %(message)s"), { message: error.message });
    errorBox.hidden = false;
    list.replaceChildren();
    meta.textContent = "";
  }
}

function fresh() {
  page = 1;
  load();
}

async function main() {
  factions = await loadFactions();
  for (const faction of Object.values(factions)) form.faction.append(new Option(faction.name, faction.slug));
  readUrl();
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    fresh();
  });
  let timer = null;
  form.q.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(fresh, 350);
  });
  form.faction.addEventListener("change", fresh);
  form.sort.addEventListener("change", fresh);
  $("[data-clear-card]").addEventListener("click", () => {
    form.card.value = "";
    $("[data-card-filter]").hidden = true;
    fresh();
  });
  $("[data-page-prev]").addEventListener("click", () => {
    page = Math.max(1, page - 1);
    load();
  });
  $("[data-page-next]").addEventListener("click", () => {
    page += 1;
    load();
  });
  await load();
}

main();
