// The card search widget (query language + filters + results + load more), used by the card
// browser and the deck builder. Filters are folded into the query as query-language terms.
import { ApiError, api, localUrl, resultsOf, withQuery } from "./api.js";
import { cardTile } from "./cards.js";
import { _, fmt, ngettext } from "./i18n.js";

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

// URL parameters of the search state, so a search is shareable and survives a reload.
const URL_KEYS = { q: "q", faction: "faction", type: "type", cost: "cost", restrict: "only" };

/** Cost select value ("=3", ">=7") <-> URL value ("3", "7+"). */
function costToUrl(value) {
  if (!value) return "";
  return value.startsWith(">=") ? `${value.slice(2)}+` : value.replace(/^=/, "");
}
function costFromUrl(value) {
  if (!value) return "";
  return value.endsWith("+") ? `>=${value.slice(0, -1)}` : `=${value}`;
}

/**
 * Bind a rendered `_card_search.html` inside `root`.
 * options.actions(card) -> element|null for the tile's bottom row;
 * options.lockedFaction() -> faction slug enforced while the "restrict" checkbox is on.
 * options.syncUrl (default true) keeps the text and every filter in the address bar.
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

  // The Faction dropdown follows the "Only this deck's faction" checkbox: ticked, it shows the deck's
  // faction and is locked; unticked, it is free again and back on the player's own choice.
  let ownFaction = "";
  let wasLocked = false;
  function syncLock() {
    const locked = restrict && restrict.checked && options.lockedFaction ? options.lockedFaction() : "";
    if (locked) {
      if (!wasLocked) ownFaction = factionSelect.value;
      factionSelect.value = locked;
    } else if (wasLocked) {
      factionSelect.value = ownFaction;
    }
    wasLocked = Boolean(locked);
    factionSelect.disabled = wasLocked;
    factionSelect.title = wasLocked ? _("Untick “Only this deck's faction” to choose another faction") : "";
  }

  function writeUrl() {
    if (options.syncUrl === false) return;
    const url = new URL(location.href);
    const values = {
      q: input.value.trim(),
      faction: wasLocked ? "" : factionSelect.value,
      type: typeSelect.value,
      cost: costToUrl(costSelect.value),
      restrict: restrict && !restrict.checked ? "0" : "",
    };
    for (const [key, param] of Object.entries(URL_KEYS)) {
      if (values[key]) url.searchParams.set(param, values[key]);
      else url.searchParams.delete(param);
    }
    if (url.href !== location.href) history.replaceState(history.state, "", url);
  }

  function readUrl() {
    const params = new URLSearchParams(location.search);
    if (params.has(URL_KEYS.q)) input.value = params.get(URL_KEYS.q);
    const faction = params.get(URL_KEYS.faction) || "";
    if (faction && factions[faction]) {
      factionSelect.value = faction;
      ownFaction = faction;
    }
    const type = params.get(URL_KEYS.type) || "";
    if ([...typeSelect.options].some((o) => o.value === type)) typeSelect.value = type;
    const cost = costFromUrl(params.get(URL_KEYS.cost) || "");
    if ([...costSelect.options].some((o) => o.value === cost)) costSelect.value = cost;
    if (restrict && params.get(URL_KEYS.restrict) === "0") restrict.checked = false;
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

  // One request per search: a pending debounce is dropped when a search runs, a search identical to
  // the one in flight or just shown is not sent again, and a superseded request is aborted.
  let timer = null;
  let lastUrl = null;
  let controller = null;
  async function run({ append = false, force = false } = {}) {
    clearTimeout(timer);
    syncLock();
    writeUrl();
    const url = append && nextUrl ? nextUrl : withQuery("/api/cards/", { q: composedQuery(), page_size: pageSize });
    if (!append && !force && url === lastUrl) return;
    lastUrl = append ? lastUrl : url;
    if (controller) controller.abort();
    controller = new AbortController();
    const mine = ++seq;
    moreButton.disabled = true;
    try {
      const data = await api(url, { signal: controller.signal });
      if (mine !== seq) return;
      errorBox.hidden = true;
      const cards = resultsOf(data);
      render(cards, append);
      nextUrl = localUrl(data && data.next);
      const total = data && typeof data.count === "number" ? data.count : shown;
      meta.textContent = total === 0 ? _("No cards match.") : fmt(ngettext("Showing %(shown)s of %(total)s card.", "Showing %(shown)s of %(total)s cards.", total), { shown, total });
      moreButton.hidden = !nextUrl;
    } catch (error) {
      if (mine !== seq) return;
      lastUrl = null; // a failed search may be tried again
      errorBox.textContent =
        error instanceof ApiError && error.status === 400
          ? fmt(_("Query problem: %(message)s"), { message: error.message })
          : fmt(_("Could not search cards: %(message)s"), { message: error.message });
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

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    run();
  });
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => run(), 300);
  });
  for (const select of [factionSelect, typeSelect, costSelect]) select.addEventListener("change", () => run());
  if (restrict) restrict.addEventListener("change", () => run());
  moreButton.addEventListener("click", () => run({ append: true }));

  const ready = Promise.all([loadFactions(), loadKeywords()]).then(([loaded, loadedKeywords]) => {
    factions = loaded;
    keywords = loadedKeywords;
    for (const faction of Object.values(factions)) {
      factionSelect.append(new Option(faction.name, faction.slug));
    }
    readUrl();
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
