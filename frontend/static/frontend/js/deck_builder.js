// Deck builder page: edit a deck locally, check it live against /api/decks/validate/ (C-3),
// save it (drafts may be illegal), curves, sample hand, import/export and revisions.
import { api, debounce, toast, withQuery } from "./api.js";
import { h } from "./dom.js";
import { showCard, withCardText } from "./card_component.js";
import { createCardSearch, loadFactions } from "./card_search.js";
import { createDrawOdds, createSampleHand } from "./deck_hand.js";
import { groupRows, importErrorText, renderCharts, renderLegality } from "./decks.js";

const root = document.getElementById("deck-builder");
const apiUrl = root.dataset.apiUrl;
const minCards = Number(root.dataset.minCards); // C-3.1, from the server's deck rules (one source)
const $ = (selector) => root.querySelector(selector);
const meta = $("[data-meta]");
meta.addEventListener("submit", (event) => event.preventDefault()); // fields save as you type
const legalityPanel = $("[data-legality]");
const saveState = $("[data-save-state]");
const exportOutput = $("[data-export-output]");

const state = {
  id: Number(root.dataset.deckId),
  name: "",
  faction: "",
  visibility: "private",
  notes: "",
  commander: "",
  shareId: "",
  savedVisibility: "private",
  rows: new Map(), // slug -> {card, name, count, faction, card_type, command_cost, energy_cost, legendary, unique}
};
let factions = {};
let savedSnapshot = "";
let legality = null;
let validateSeq = 0;
let search = null;

// ---------- state ----------

function payload() {
  return {
    name: state.name.trim() || "Untitled deck",
    faction: state.faction || null,
    commander: state.commander || null,
    notes: state.notes,
    visibility: state.visibility,
    cards: [...state.rows.values()].map((row) => ({ card: row.card, count: row.count })),
  };
}

function snapshot() {
  const data = payload();
  data.cards.sort((a, b) => a.card.localeCompare(b.card));
  return JSON.stringify(data);
}

function isDirty() {
  return snapshot() !== savedSnapshot;
}

function applyDeck(deck) {
  state.name = deck.name;
  state.faction = deck.faction ? deck.faction.slug : "";
  state.commander = deck.commander ? deck.commander.slug : "";
  state.notes = deck.notes || "";
  state.visibility = deck.visibility;
  state.savedVisibility = deck.visibility;
  state.shareId = deck.share_id || "";
  state.rows = new Map((deck.cards || []).map((row) => [row.card, { ...row }]));
  legality = deck.legality || null;
  savedSnapshot = snapshot();
  meta.name.value = state.name;
  meta.faction.value = state.faction;
  meta.visibility.value = state.visibility;
  meta.notes.value = state.notes;
  $("[data-deck-title]").textContent = state.name;
  document.title = `${state.name} — deck builder · Commandeer & Westeros`;
}

function total() {
  let sum = 0;
  for (const row of state.rows.values()) sum += row.count;
  return sum;
}

function rowFromCard(card) {
  return {
    card: card.slug,
    name: card.name,
    count: 0,
    faction: card.faction,
    card_type: card.type || card.card_type,
    command_cost: card.command_cost,
    energy_cost: card.energy_cost,
    legendary: Boolean(card.legendary),
    unique: Boolean(card.unique),
  };
}

// The full card behind a deck row (its text, arrows, keywords), for the card component: a card added
// from the search is known already; a saved deck's rows are fetched on their first hover or focus.
const fullCards = new Map(); // slug -> the card API's object, or a Promise while it is fetched

function rowCard(row) {
  const full = fullCards.get(row.card);
  if (full && !(full instanceof Promise)) return full;
  return { slug: row.card, name: row.name, type: row.card_type, faction: row.faction, command_cost: row.command_cost,
           energy_cost: row.energy_cost, legendary: row.legendary, unique: row.unique }; // prettier-ignore
}

function withRowText(node, row) {
  withCardText(node, () => rowCard(row));
  const fetchOnce = () => {
    if (fullCards.has(row.card)) return;
    const pending = api(`/api/cards/${encodeURIComponent(row.card)}/`)
      .then((card) => {
        fullCards.set(row.card, card);
        if (node.matches(":hover, :focus-visible")) showCard(node, card); // still looked at: the whole card now
      })
      .catch(() => fullCards.delete(row.card)); // try again on the next hover
    fullCards.set(row.card, pending);
  };
  node.addEventListener("pointerenter", fetchOnce);
  node.addEventListener("focus", fetchOnce);
  return node;
}

function setCount(slug, count, card = null) {
  if (card && card.slug) fullCards.set(card.slug, card);
  let row = state.rows.get(slug);
  if (!row && card) row = rowFromCard(card);
  if (!row) return;
  if (count <= 0) {
    state.rows.delete(slug);
    if (state.commander === slug) state.commander = "";
  } else {
    row.count = Math.min(count, 99);
    state.rows.set(slug, row);
  }
  changed();
}

function changed() {
  renderDeck();
  renderSaveState();
  validateSoon();
  if (search) search.refreshActions();
}

// ---------- rendering ----------

function renderSaveState() {
  const dirty = isDirty();
  saveState.textContent = dirty ? "Unsaved changes" : "All changes saved";
  saveState.classList.toggle("dirty", dirty);
  const link = $("[data-share-link]");
  if (state.shareId && state.savedVisibility !== "private") {
    const url = `${location.origin}/decks/shared/${state.shareId}/`;
    link.replaceChildren("Share link: ", h("a", { href: url, "data-testid": "share-url" }, url));
  } else {
    link.textContent = "Make the deck unlisted or public (and save) to get a share link.";
  }
}

function errorCardNames() {
  const names = new Set();
  for (const issue of (legality && legality.errors) || []) for (const name of issue.cards || []) names.add(name.toLowerCase());
  return names;
}

function renderDeck() {
  const count = total();
  $("[data-total]").textContent = `${count} / ${minCards}`;
  $("[data-total-badge]").textContent = `(${count} cards)`;
  const container = $("[data-decklist]");
  const rows = [...state.rows.values()];
  if (!rows.length) {
    container.replaceChildren(h("p", { class: "muted" }, "No cards yet. Search below and press “Add”."));
  } else {
    const bad = errorCardNames();
    container.replaceChildren(
      ...groupRows(rows).flatMap(([title, list]) => [
        h("h3", { class: "deck-group-title" }, `${title} (${list.reduce((s, r) => s + r.count, 0)})`),
        h(
          "ul",
          { class: "deck-list" },
          list.map((row) =>
            h(
              "li",
              {
                class: "deck-row" + (bad.has(row.name.toLowerCase()) ? " row-error" : ""),
                style: { "--faction": (factions[row.faction] && factions[row.faction].color) || "#666" },
                "data-testid": "deck-row",
                "data-card": row.card,
              },
              h("span", { class: "cost cost-command row-cost", title: "Command cost" }, String(row.command_cost)),
              h(
                "span",
                { class: "row-name", title: row.name },
                withRowText(h("a", { href: `/cards/${encodeURIComponent(row.card)}/`, target: "_blank", rel: "noopener", "data-testid": "row-name" }, row.name), row),
                row.legendary ? " ★" : "",
                state.commander === row.card ? h("span", { class: "tag tag-legendary", style: { marginLeft: ".3rem" } }, "Commander") : null
              ),
              h("button", { type: "button", class: "qty-btn", "aria-label": `One fewer ${row.name}`, "data-testid": "row-minus", onclick: () => setCount(row.card, row.count - 1) }, "−"),
              h("span", { class: "row-count", "data-testid": "row-count" }, String(row.count)),
              h("button", { type: "button", class: "qty-btn", "aria-label": `One more ${row.name}`, "data-testid": "row-plus", onclick: () => setCount(row.card, row.count + 1) }, "+"),
              h("button", { type: "button", class: "qty-btn remove", "aria-label": `Remove ${row.name}`, "data-testid": "row-remove", onclick: () => setCount(row.card, 0) }, "×")
            )
          )
        ),
      ])
    );
  }
  renderCommanderOptions();
  renderCharts($("[data-charts]"), rows);
}

function renderCommanderOptions() {
  const select = meta.commander;
  const legends = [...state.rows.values()].filter((r) => r.card_type === "unit" && r.legendary);
  const options = [new Option(legends.length ? "— none —" : "— no Legendary unit —", "")];
  for (const row of legends.sort((a, b) => a.name.localeCompare(b.name))) options.push(new Option(row.name, row.card));
  if (state.commander && !legends.some((r) => r.card === state.commander)) {
    options.push(new Option(`${state.commander} (not in the deck)`, state.commander));
  }
  select.replaceChildren(...options);
  select.value = state.commander;
}

// ---------- live validation (C-3) ----------

async function validateNow() {
  const mine = ++validateSeq;
  const body = payload();
  legalityPanel.dataset.pending = "true";
  try {
    const result = await api("/api/decks/validate/", {
      method: "POST",
      body: { faction: body.faction, commander: body.commander, cards: body.cards },
    });
    if (mine !== validateSeq) return;
    legality = result;
  } catch (error) {
    if (mine !== validateSeq) return;
    legality = { valid: false, errors: [{ rule: "—", code: error.code, message: error.message, cards: [] }], warnings: [] };
  }
  delete legalityPanel.dataset.pending;
  renderLegality(legalityPanel, legality);
  renderDeck();
}
const validateSoon = debounce(validateNow, 250);

// ---------- save, delete ----------

async function save() {
  const button = $("[data-save]");
  button.disabled = true;
  saveState.textContent = "Saving…";
  try {
    const deck = await api(apiUrl, { method: "PUT", body: payload() });
    applyDeck(deck);
    renderDeck();
    renderLegality(legalityPanel, legality);
    toast(deck.legality && deck.legality.valid ? "Saved — the deck is legal." : "Saved as a draft.");
    loadRevisions();
    drawHand();
    return true;
  } catch (error) {
    toast(`Could not save: ${error.message}`, { error: true });
    return false;
  } finally {
    button.disabled = false;
    renderSaveState();
  }
}

async function ensureSaved() {
  return isDirty() ? save() : true;
}

// ---------- export / import ----------

async function exportAs(kind) {
  if (!(await ensureSaved())) return;
  try {
    const data = await api(withQuery(`${apiUrl}export/`, { format: kind }));
    if (kind === "json") {
      const text = JSON.stringify(data.content, null, 2);
      exportOutput.value = text;
      const blob = new Blob([text + "\n"], { type: "application/json" });
      const link = h("a", { href: URL.createObjectURL(blob), download: `${(state.name || "deck").replace(/[^\w-]+/g, "_")}.json` });
      document.body.append(link);
      link.click();
      setTimeout(() => {
        URL.revokeObjectURL(link.href);
        link.remove();
      }, 1000);
    } else {
      exportOutput.value = data.content;
    }
    exportOutput.dataset.format = kind;
  } catch (error) {
    toast(`Could not export: ${error.message}`, { error: true });
  }
}

async function copyExport() {
  if (!exportOutput.value) await exportAs("text");
  try {
    await navigator.clipboard.writeText(exportOutput.value);
    toast("Copied.");
  } catch {
    exportOutput.select();
    toast("Select-all done: press Ctrl+C to copy.");
  }
}

async function importReplace(event) {
  event.preventDefault();
  const form = $("[data-import]");
  const errorBox = $("[data-import-error]");
  errorBox.hidden = true;
  try {
    const result = await api("/api/decks/import/", { method: "POST", body: { data: form.data.value, save: false } });
    if (result.errors && result.errors.length) {
      errorBox.textContent = importErrorText({ message: "Some lines could not be read; the deck is unchanged.", extra: { errors: result.errors } });
      errorBox.hidden = false;
      return;
    }
    state.rows = new Map(result.entries.map((row) => [row.card, { ...row }]));
    if (result.faction) state.faction = result.faction;
    else {
      const seen = new Set(result.entries.map((r) => r.faction));
      if (seen.size === 1) state.faction = [...seen][0];
    }
    state.commander = result.commander ? result.commander.slug : "";
    meta.faction.value = state.faction;
    if (result.name) {
      // a "# Deck: Name" line names the deck
      state.name = result.name;
      meta.name.value = result.name;
      $("[data-deck-title]").textContent = result.name;
    }
    changed();
    if (search) search.run();
    toast(`Imported ${total()} cards — save to keep them.`);
  } catch (error) {
    errorBox.textContent = importErrorText(error);
    errorBox.hidden = false;
  }
}

async function importNew() {
  const form = $("[data-import]");
  const errorBox = $("[data-import-error]");
  errorBox.hidden = true;
  try {
    const result = await api("/api/decks/import/", { method: "POST", body: { data: form.data.value, save: true } });
    location.assign(`/decks/${result.deck.id}/`);
  } catch (error) {
    errorBox.textContent = importErrorText(error);
    errorBox.hidden = false;
  }
}

// ---------- sample hand (C-4.3, C-4.4) and draw odds ----------

let sampleHand = null;
let drawOdds = null;

function drawHand() {
  if (sampleHand) sampleHand.draw();
  if (drawOdds) drawOdds.load();
}

// ---------- revisions ----------

async function loadRevisions() {
  const list = $("[data-revisions]");
  try {
    const revisions = await api(`${apiUrl}revisions/`);
    list.replaceChildren(
      ...revisions.map((rev) => {
        const cards = (rev.snapshot.cards || []).reduce((s, c) => s + c.count, 0);
        const when = new Date(rev.created_at).toLocaleString();
        return h(
          "li",
          { "data-testid": "revision" },
          h("span", {}, h("b", {}, `#${rev.number}`), ` ${rev.note || "saved"} · ${cards} cards · `, h("time", { datetime: rev.created_at }, when)),
          h("button", { type: "button", class: "button button-small button-secondary", onclick: () => restore(rev.number) }, "Restore")
        );
      })
    );
  } catch (error) {
    list.replaceChildren(h("li", {}, error.message));
  }
}

async function restore(number) {
  if (isDirty() && !confirm("Discard your unsaved changes and restore this revision?")) return;
  try {
    const deck = await api(`${apiUrl}revisions/${number}/restore/`, { method: "POST" });
    applyDeck(deck);
    renderDeck();
    renderLegality(legalityPanel, legality);
    renderSaveState();
    if (search) search.run();
    loadRevisions();
    toast(`Restored revision ${number}.`);
  } catch (error) {
    toast(`Could not restore: ${error.message}`, { error: true });
  }
}

// ---------- wiring ----------

function tileActions(card) {
  const row = state.rows.get(card.slug);
  const count = row ? row.count : 0;
  return h(
    "div",
    { class: "card-actions" },
    h("span", { class: "in-deck-count" }, count ? `In deck: ${count}` : ""),
    count ? h("button", { type: "button", class: "qty-btn", "aria-label": `One fewer ${card.name}`, onclick: () => setCount(card.slug, count - 1) }, "−") : null,
    h(
      "button",
      { type: "button", class: "button button-small", "data-testid": "add-card", "aria-label": `Add ${card.name}`, onclick: () => setCount(card.slug, count + 1, card) },
      "Add"
    )
  );
}

function bindMeta() {
  meta.name.addEventListener("input", () => {
    state.name = meta.name.value;
    $("[data-deck-title]").textContent = state.name || "Untitled deck";
    renderSaveState();
  });
  meta.notes.addEventListener("input", () => {
    state.notes = meta.notes.value;
    renderSaveState();
  });
  meta.visibility.addEventListener("change", () => {
    state.visibility = meta.visibility.value;
    renderSaveState();
  });
  meta.faction.addEventListener("change", () => {
    state.faction = meta.faction.value;
    changed();
    if (search) search.run();
  });
  meta.commander.addEventListener("change", () => {
    state.commander = meta.commander.value;
    changed();
  });
  $("[data-save]").addEventListener("click", save);
  for (const button of root.querySelectorAll("[data-export]")) button.addEventListener("click", () => exportAs(button.dataset.export));
  $("[data-copy]").addEventListener("click", copyExport);
  $("[data-import]").addEventListener("submit", importReplace);
  $("[data-import-new]").addEventListener("click", importNew);
  $("[data-delete]").addEventListener("click", async () => {
    if (!confirm(`Delete “${state.name}” for good?`)) return;
    try {
      await api(apiUrl, { method: "DELETE" });
      location.assign("/decks/");
    } catch (error) {
      toast(`Could not delete: ${error.message}`, { error: true });
    }
  });
  window.addEventListener("beforeunload", (event) => {
    if (isDirty()) event.preventDefault();
  });
  document.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key === "s") {
      event.preventDefault();
      save();
    }
  });
}

async function main() {
  factions = await loadFactions();
  for (const faction of Object.values(factions)) meta.faction.append(new Option(faction.name, faction.slug));
  let deck;
  try {
    deck = await api(apiUrl);
  } catch (error) {
    saveState.textContent = `Could not load the deck: ${error.message}`;
    return;
  }
  applyDeck(deck);
  renderDeck();
  renderLegality(legalityPanel, legality);
  renderSaveState();
  bindMeta();
  search = createCardSearch($("#builder-search"), { actions: tileActions, lockedFaction: () => state.faction, pageSize: 12 });
  sampleHand = createSampleHand($("[data-sample-hand]"), {
    apiUrl,
    rowFor: (card) => state.rows.get(card.card) || { name: card.name, card: card.card },
    factions: () => factions,
    maxMulligans: $("[data-sample-hand]").dataset.maxMulligans,
    staleNote: () => (isDirty() ? "Drawn from the saved deck — save to draw from your changes." : ""),
  });
  drawOdds = createDrawOdds($("[data-draw-odds]"), { apiUrl });
  // Ready once the card search has its factions too (it locks its Faction filter to the deck's then).
  search.ready.catch(() => {}).finally(() => {
    root.dataset.ready = "true";
  });
  loadRevisions();
  drawHand();
}

main();
