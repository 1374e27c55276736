// Deck builder page: edit a deck, check it live against /api/decks/validate/ (C-3), saved as you go
// (drafts may be illegal) with undo, curves, sample hand, importing, exporting and revisions.
import { ApiError, api, debounce, toast, withQuery } from "./api.js";
import { h } from "./dom.js";
import { artImage } from "./cards.js";
import { _, fmt, formatDateTime, ngettext, pgettext } from "./i18n.js";
import { showCard, withCardText } from "./card_component.js";
import { createCardSearch, loadFactions } from "./card_search.js";
import { createDrawOdds, createSampleHand } from "./deck_hand.js";
import { groupRows, importErrorText, renderCharts, renderLegality } from "./decks.js";
import { rememberLeftovers, renderLeftovers, takeLeftovers } from "./deck_import.js";

const root = document.getElementById("deck-builder");
const apiUrl = root.dataset.apiUrl;
const minCards = Number(root.dataset.minCards); // C-3.1, from the server's deck rules (one source)
const $ = (selector) => root.querySelector(selector);
const meta = $("[data-meta]");
meta.addEventListener("submit", (event) => event.preventDefault()); // fields save as you type
const legalityPanel = $("[data-legality]");
const saveState = $("[data-save-state]");
const retryButton = $("[data-save-retry]");
const undoButton = $("[data-undo]");
const SAVE_DELAY = 800; // ms after the last change: a burst of clicks is one request, saved within 1–2 s
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
let saving = null; // the save request in flight (a Promise), or null
let saveFailed = null; // the last save's error while the deck is not saved
const undoStack = []; // earlier states (editable fields and rows), the latest last
const MAX_UNDO = 100;
let legality = null;
let validateSeq = 0;
let search = null;

// ---------- state ----------

/** A revision's note in the reader's language: the server stores the English words (decks/services.py). */
function revisionNote(note) {
  if (!note || note === "saved") return _("saved");
  if (note === "created") return pgettext("deck revision", "created");
  const restored = /^restored revision (\d+)$/.exec(note);
  if (restored) return fmt(_("restored revision %(number)s"), { number: restored[1] });
  const copied = /^copied from “(.*)” by (.+)$/.exec(note);
  if (copied) return fmt(_("copied from “%(deck)s” by %(player)s"), { deck: copied[1], player: copied[2] });
  return note;
}

function payload() {
  return {
    name: state.name.trim() || _("Untitled deck"),
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

// ---------- undo ----------

function captureState() {
  const { name, faction, visibility, notes, commander } = state;
  return { name, faction, visibility, notes, commander, rows: [...state.rows.values()].map((row) => ({ ...row })) };
}

/** Remember the state before a change, for undo (a change that changes nothing is not remembered). */
function rememberForUndo() {
  const now = captureState();
  const last = undoStack[undoStack.length - 1];
  if (last && JSON.stringify(last) === JSON.stringify(now)) return;
  undoStack.push(now);
  if (undoStack.length > MAX_UNDO) undoStack.shift();
  undoButton.disabled = false;
}

function undo() {
  const before = undoStack.pop();
  undoButton.disabled = !undoStack.length;
  if (!before) return;
  Object.assign(state, { name: before.name, faction: before.faction, visibility: before.visibility, notes: before.notes, commander: before.commander });
  state.rows = new Map(before.rows.map((row) => [row.card, row]));
  meta.name.value = state.name;
  meta.faction.value = state.faction;
  meta.visibility.value = state.visibility;
  meta.notes.value = state.notes;
  $("[data-deck-title]").textContent = state.name || _("Untitled deck");
  changed();
  if (search) search.run();
  toast(_("Undone."));
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
  document.title = fmt(_("%(deck)s — deck builder · Commandeer & Westeros"), { deck: state.name });
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
  rememberForUndo();
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
  edited();
  validateSoon();
  if (search) search.refreshActions();
}

/** After any edit: show "Saving…" and save a moment later. */
function edited() {
  renderSaveState();
  saveSoon();
}

// ---------- rendering ----------

function renderSaveState() {
  const dirty = isDirty();
  let text = _("Saved");
  if (saveFailed && dirty) {
    // fetch's own TypeError reads "Failed to fetch" in English: say what happened in the reader's language
    const message = saveFailed instanceof ApiError ? saveFailed.message : _("the server could not be reached");
    text = fmt(_("Not saved — %(message)s"), { message });
  }
  else if (dirty || saving) text = _("Saving…");
  saveState.textContent = text;
  saveState.dataset.state = saveFailed && dirty ? "failed" : dirty || saving ? "saving" : "saved";
  saveState.classList.toggle("dirty", Boolean(saveFailed && dirty));
  retryButton.hidden = !(saveFailed && dirty);
  const link = $("[data-share-link]");
  if (state.shareId && state.savedVisibility !== "private") {
    const url = `${location.origin}/decks/shared/${state.shareId}/`;
    link.replaceChildren(_("Share link:"), " ", h("a", { href: url, "data-testid": "share-url" }, url));
  } else {
    link.textContent = _("Make the deck unlisted or public to get a share link.");
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
  $("[data-total-badge]").textContent = fmt(ngettext("(%(count)s card)", "(%(count)s cards)", count), { count });
  const container = $("[data-decklist]");
  const rows = [...state.rows.values()];
  if (!rows.length) {
    container.replaceChildren(h("p", { class: "muted" }, _("No cards yet. Search below and press “Add”.")));
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
              h("span", { class: "cost cost-command row-cost", title: _("Command cost") }, String(row.command_cost)),
              artImage(rowCard(row), "thumb", { className: "card-art row-art", lazy: false }),
              h(
                "span",
                { class: "row-name", title: row.name },
                withRowText(h("a", { href: `/cards/${encodeURIComponent(row.card)}/`, target: "_blank", rel: "noopener", "data-testid": "row-name" }, row.name), row),
                row.legendary ? " ★" : "",
                state.commander === row.card ? h("span", { class: "tag tag-legendary", style: { marginLeft: ".3rem" } }, _("Commander")) : null
              ),
              h("button", { type: "button", class: "qty-btn", "aria-label": fmt(_("One fewer %(card)s"), { card: row.name }), "data-testid": "row-minus", onclick: () => setCount(row.card, row.count - 1) }, "−"),
              h("span", { class: "row-count", "data-testid": "row-count" }, String(row.count)),
              h("button", { type: "button", class: "qty-btn", "aria-label": fmt(_("One more %(card)s"), { card: row.name }), "data-testid": "row-plus", onclick: () => setCount(row.card, row.count + 1) }, "+"),
              h("button", { type: "button", class: "qty-btn remove", "aria-label": fmt(_("Remove %(card)s"), { card: row.name }), "data-testid": "row-remove", onclick: () => setCount(row.card, 0) }, "×")
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
  const options = [new Option(legends.length ? _("— none —") : _("— no Legendary unit —"), "")];
  for (const row of legends.sort((a, b) => a.name.localeCompare(b.name))) options.push(new Option(row.name, row.card));
  if (state.commander && !legends.some((r) => r.card === state.commander)) {
    options.push(new Option(fmt(_("%(card)s (not in the deck)"), { card: state.commander }), state.commander));
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

// ---------- saving as you go ----------

/** Save the deck now unless it is saved; answers whether it is saved afterwards. A change made while a
 * request is in flight is saved by the next one (the answer never overwrites what was typed since). */
async function save() {
  if (saving) {
    await saving.catch(() => {});
    return isDirty() ? save() : !saveFailed;
  }
  if (!isDirty()) return true;
  const sent = snapshot();
  saving = api(apiUrl, { method: "PUT", body: payload() });
  renderSaveState();
  try {
    const deck = await saving;
    saveFailed = null;
    savedSnapshot = sent;
    state.savedVisibility = deck.visibility;
    state.shareId = deck.share_id || "";
    if (!isDirty()) {
      legality = deck.legality || legality;
      renderLegality(legalityPanel, legality);
    }
    loadRevisions();
    if (drawOdds) drawOdds.load();
    return true;
  } catch (error) {
    saveFailed = error; // the change stays here, marked, until a retry or the next change saves it
    return false;
  } finally {
    saving = null;
    renderSaveState();
    if (isDirty() && !saveFailed) saveSoon();
  }
}
const saveSoon = debounce(() => {
  if (isDirty()) save();
}, SAVE_DELAY);

async function ensureSaved() {
  return isDirty() || saving ? save() : true;
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
    toast(fmt(_("Could not export: %(message)s"), { message: error.message }), { error: true });
  }
}

async function copyExport() {
  if (!exportOutput.value) await exportAs("text");
  try {
    await navigator.clipboard.writeText(exportOutput.value);
    toast(_("Copied."));
  } catch {
    exportOutput.select();
    toast(_("Select-all done: press Ctrl+C to copy."));
  }
}

async function importReplace(event) {
  event.preventDefault();
  const form = $("[data-import]");
  const errorBox = $("[data-import-error]");
  errorBox.hidden = true;
  try {
    const result = await api("/api/decks/import/", { method: "POST", body: { data: form.data.value, save: false } });
    rememberForUndo();
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
    showLeftovers(result.errors || []);
    toast(fmt(ngettext("Imported %(count)s card.", "Imported %(count)s cards.", total()), { count: total() }));
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
    rememberLeftovers(result.deck.id, result.errors);
    location.assign(`/decks/${result.deck.id}/`);
  } catch (error) {
    errorBox.textContent = importErrorText(error);
    errorBox.hidden = false;
  }
}

/** The lines an import left out, each with a one-click fix that adds the card it meant. */
function showLeftovers(errors) {
  renderLeftovers($("[data-import-leftovers]"), errors, async ({ card, count, commander }) => {
    try {
      const full = await api(`/api/cards/${encodeURIComponent(card)}/`);
      const row = state.rows.get(card);
      if (commander) {
        if (!row) setCount(card, 1, full); // one undo step: the card and its Commander role
        else rememberForUndo();
        state.commander = card;
        changed();
      } else setCount(card, (row ? row.count : 0) + count, full);
      return true;
    } catch (error) {
      toast(error.message, { error: true });
      return false;
    }
  });
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
        const when = formatDateTime(rev.created_at);
        return h(
          "li",
          { "data-testid": "revision" },
          h("span", {}, h("b", {}, `#${rev.number}`), " ", fmt(ngettext("%(note)s · %(count)s card · ", "%(note)s · %(count)s cards · ", cards), { note: revisionNote(rev.note), count: cards }), h("time", { datetime: rev.created_at }, when)),
          h("button", { type: "button", class: "button button-small button-secondary", onclick: () => restore(rev.number) }, _("Restore"))
        );
      })
    );
  } catch (error) {
    list.replaceChildren(h("li", {}, error.message));
  }
}

async function restore(number) {
  if (!(await ensureSaved()) && !confirm(_("Discard your unsaved changes and restore this revision?"))) return;
  try {
    const deck = await api(`${apiUrl}revisions/${number}/restore/`, { method: "POST" });
    rememberForUndo();
    applyDeck(deck);
    renderDeck();
    renderLegality(legalityPanel, legality);
    renderSaveState();
    if (search) search.run();
    loadRevisions();
    toast(fmt(_("Restored revision %(number)s."), { number }));
  } catch (error) {
    toast(fmt(_("Could not restore: %(message)s"), { message: error.message }), { error: true });
  }
}

// ---------- wiring ----------

function tileActions(card) {
  const row = state.rows.get(card.slug);
  const count = row ? row.count : 0;
  return h(
    "div",
    { class: "card-actions" },
    h("span", { class: "in-deck-count" }, count ? fmt(_("In deck: %(count)s"), { count }) : ""),
    count ? h("button", { type: "button", class: "qty-btn", "aria-label": fmt(_("One fewer %(card)s"), { card: card.name }), onclick: () => setCount(card.slug, count - 1) }, "−") : null,
    h(
      "button",
      { type: "button", class: "button button-small", "data-testid": "add-card", "aria-label": fmt(_("Add %(card)s"), { card: card.name }), onclick: () => setCount(card.slug, count + 1, card) },
      _("Add")
    )
  );
}

function bindMeta() {
  // typing in a field is one undo step per visit to the field (the field's own Ctrl+Z undoes letters)
  for (const field of [meta.name, meta.notes]) field.addEventListener("focus", () => { field.dataset.undoTaken = ""; });
  const typed = (field) => {
    if (!field.dataset.undoTaken) {
      rememberForUndo();
      field.dataset.undoTaken = "1";
    }
  };
  meta.name.addEventListener("beforeinput", () => typed(meta.name));
  meta.notes.addEventListener("beforeinput", () => typed(meta.notes));
  meta.name.addEventListener("input", () => {
    state.name = meta.name.value;
    $("[data-deck-title]").textContent = state.name || _("Untitled deck");
    edited();
  });
  meta.notes.addEventListener("input", () => {
    state.notes = meta.notes.value;
    edited();
  });
  meta.visibility.addEventListener("change", () => {
    rememberForUndo();
    state.visibility = meta.visibility.value;
    edited();
  });
  meta.faction.addEventListener("change", () => {
    rememberForUndo();
    state.faction = meta.faction.value;
    changed();
    if (search) search.run();
  });
  meta.commander.addEventListener("change", () => {
    rememberForUndo();
    state.commander = meta.commander.value;
    changed();
  });
  retryButton.addEventListener("click", () => {
    saveFailed = null;
    save();
  });
  undoButton.addEventListener("click", undo);
  for (const button of root.querySelectorAll("[data-export]")) button.addEventListener("click", () => exportAs(button.dataset.export));
  $("[data-copy]").addEventListener("click", copyExport);
  $("[data-import]").addEventListener("submit", importReplace);
  $("[data-import-new]").addEventListener("click", importNew);
  $("[data-delete]").addEventListener("click", async () => {
    if (!confirm(fmt(_("Delete “%(deck)s” for good?"), { deck: state.name }))) return;
    try {
      await api(apiUrl, { method: "DELETE" });
      location.assign("/decks/");
    } catch (error) {
      toast(fmt(_("Could not delete: %(message)s"), { message: error.message }), { error: true });
    }
  });
  window.addEventListener("beforeunload", (event) => {
    if (isDirty() || saving) {
      event.preventDefault();
      event.returnValue = ""; // older browsers ask only when it is set
    }
  });
  document.addEventListener("keydown", (event) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
    const key = event.key.toLowerCase();
    if (key === "s") {
      event.preventDefault();
      saveFailed = null;
      save();
    } else if (key === "z" && !event.shiftKey && !event.target.closest("input, textarea, select, [contenteditable]")) {
      event.preventDefault(); // in a text field the browser's own undo is meant
      undo();
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
    saveState.textContent = fmt(_("Could not load the deck: %(message)s"), { message: error.message });
    return;
  }
  applyDeck(deck);
  renderDeck();
  renderLegality(legalityPanel, legality);
  renderSaveState();
  bindMeta();
  showLeftovers(takeLeftovers(state.id));
  search = createCardSearch($("#builder-search"), { actions: tileActions, lockedFaction: () => state.faction, pageSize: 12 });
  sampleHand = createSampleHand($("[data-sample-hand]"), {
    apiUrl,
    rowFor: (card) => state.rows.get(card.card) || { name: card.name, card: card.card },
    factions: () => factions,
    maxMulligans: $("[data-sample-hand]").dataset.maxMulligans,
    staleNote: () => (isDirty() ? _("Drawn from the saved deck — save to draw from your changes.") : ""),
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
