// The card search widget (query language + filters + results + load more), used by the card
// browser and the deck builder. Filters are folded into the query as query-language terms.
import { ApiError, api, debounce, localUrl, resultsOf, withQuery } from "./api.js";
import { cardTile } from "./cards.js";

let factionsPromise = null;

/** All factions as {slug: {slug, name, color}} (fetched once per page). */
export function loadFactions() {
  if (!factionsPromise) {
    factionsPromise = api("/api/factions/")
      .then((data) => Object.fromEntries(resultsOf(data).map((f) => [f.slug, f])))
      .catch(() => ({}));
  }
  return factionsPromise;
}

let keywordsPromise = null;

/** All keywords as {code: {code, name, reminder_text}} (fetched once per page). */
export function loadKeywords() {
  if (!keywordsPromise) {
    keywordsPromise = api("/api/keywords/")
      .then((data) => Object.fromEntries(resultsOf(data).map((k) => [k.code, k])))
      .catch(() => ({}));
  }
  return keywordsPromise;
}

/**
 * Bind a rendered `_card_search.html` inside `root`.
 * options.actions(card) -> element|null for the tile's bottom row;
 * options.lockedFaction() -> faction slug enforced while the "restrict" checkbox is on.
 */
export function createCardSearch(root, options = {}) {
  const form = root.querySelector("[data-card-search]");
  const input = form.querySelector("input[name=q]");
  const factionSelect = form.querySelector("[data-filter=faction]");
  const typeSelect = form.querySelector("[data-filter=type]");
  const costSelect = form.querySelector("[data-filter=cost]");
  const restrict = form.querySelector("[data-filter=restrict]");
  const errorBox = form.querySelector("[data-search-error]");
  const meta = form.querySelector("[data-search-meta]");
  const grid = root.querySelector("[data-search-results]");
  const moreButton = root.querySelector("[data-load-more]");
  const pageSize = options.pageSize || 24;
  let factions = {};
  let keywords = {};
  let nextUrl = null;
  let seq = 0;
  let shown = 0;
  const seen = new Map();

  function composedQuery() {
    const parts = [];
    const typed = input.value.trim();
    if (typed) parts.push(/\bor\b/i.test(typed) ? `(${typed})` : typed);
    const locked = restrict && restrict.checked && options.lockedFaction ? options.lockedFaction() : "";
    const faction = locked || factionSelect.value;
    if (faction) parts.push(`f:${faction}`);
    if (typeSelect.value) parts.push(`t:${typeSelect.value}`);
    if (costSelect.value) parts.push(`cp${costSelect.value}`);
    return parts.join(" ");
  }

  function syncLock() {
    const locked = restrict && restrict.checked && options.lockedFaction ? options.lockedFaction() : "";
    if (locked) factionSelect.value = locked;
    factionSelect.disabled = Boolean(locked);
  }

  function render(cards, append) {
    if (!append) {
      grid.replaceChildren();
      shown = 0;
    }
    for (const card of cards) {
      seen.set(card.slug, card);
      grid.append(cardTile(card, { factions, keywords, actions: options.actions ? options.actions(card) : null }));
    }
    shown += cards.length;
  }

  async function run({ append = false } = {}) {
    const mine = ++seq;
    syncLock();
    const url = append && nextUrl ? nextUrl : withQuery("/api/cards/", { q: composedQuery(), page_size: pageSize });
    moreButton.disabled = true;
    try {
      const data = await api(url);
      if (mine !== seq) return;
      errorBox.hidden = true;
      const cards = resultsOf(data);
      render(cards, append);
      nextUrl = localUrl(data && data.next);
      const total = data && typeof data.count === "number" ? data.count : shown;
      meta.textContent = total === 0 ? "No cards match." : `Showing ${shown} of ${total} card${total === 1 ? "" : "s"}.`;
      moreButton.hidden = !nextUrl;
    } catch (error) {
      if (mine !== seq) return;
      errorBox.textContent =
        error instanceof ApiError && error.status === 400
          ? `Query problem: ${error.message}`
          : `Could not search cards: ${error.message}`;
      errorBox.hidden = false;
      grid.replaceChildren();
      meta.textContent = "";
      moreButton.hidden = true;
      nextUrl = null;
    } finally {
      moreButton.disabled = false;
    }
    if (options.onSearch) options.onSearch(input.value);
  }

  const runSoon = debounce(() => run(), 300);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    run();
  });
  input.addEventListener("input", runSoon);
  for (const select of [factionSelect, typeSelect, costSelect]) select.addEventListener("change", () => run());
  if (restrict) restrict.addEventListener("change", () => run());
  moreButton.addEventListener("click", () => run({ append: true }));

  const ready = Promise.all([loadFactions(), loadKeywords()]).then(([loaded, loadedKeywords]) => {
    factions = loaded;
    keywords = loadedKeywords;
    for (const faction of Object.values(factions)) {
      factionSelect.append(new Option(faction.name, faction.slug));
    }
    const initialFaction = new URLSearchParams(location.search).get("faction");
    if (initialFaction && !restrict) factionSelect.value = initialFaction;
    return run();
  });

  return {
    run,
    ready,
    factions: () => factions,
    /** Re-render tile action rows (e.g. counts changed in the deck builder). */
    refreshActions() {
      if (!options.actions) return;
      for (const tile of grid.querySelectorAll(".card-tile")) {
        const card = seen.get(tile.dataset.card);
        const old = tile.querySelector(".card-actions");
        const fresh = card ? options.actions(card) : null;
        if (old && fresh) old.replaceWith(fresh);
      }
    },
  };
}
