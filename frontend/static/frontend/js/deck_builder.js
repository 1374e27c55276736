// Deck builder page: edit a deck locally, check it live against /api/decks/validate/ (C-3),
// save it (drafts may be illegal), curves, sample hand, import/export and revisions.
import { api, debounce, toast, withQuery } from "./api.js";
import { h } from "./dom.js";
import { artImage } from "./cards.js";
import { _, fmt, formatDateTime, ngettext, pgettext } from "./i18n.js";
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
  saveState.textContent = dirty ? _("Unsaved changes") : _("All changes saved");
  saveState.classList.toggle("dirty", dirty);
  const link = $("[data-share-link]");
  if (state.shareId && state.savedVisibility !== "private") {
    const url = `${location.origin}/decks/shared/${state.shareId}/`;
    link.replaceChildren(_("Share link:"), " ", h("a", { href: url, "data-testid": "share-url" }, url));
  } else {
    link.textContent = _("Make the deck unlisted or public (and save) to get a share link.");
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

// ---------- save, delete ----------

async function save() {
  const button = $("[data-save]");
  button.disabled = true;
  saveState.textContent = _("Saving…");
  try {
    const deck = await api(apiUrl, { method: "PUT", body: payload() });
    applyDeck(deck);
    renderDeck();
    renderLegality(legalityPanel, legality);
    toast(deck.legality && deck.legality.valid ? _("Saved — the deck is legal.") : _("Saved as a draft."));
    loadRevisions();
    drawHand();
    return true;
  } catch (error) {
    toast(fmt(_("Could not save: %(message)s"), { message: error.message }), { error: true });
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
    if (result.errors && result.errors.length) {
      errorBox.textContent = importErrorText({ message: _("Some lines could not be read; the deck is unchanged."), extra: { errors: result.errors } });
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
    toast(fmt(ngettext("Imported %(count)s card — save to keep it.", "Imported %(count)s cards — save to keep them.", total()), { count: total() }));
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
  if (isDirty() && !confirm(_("Discard your unsaved changes and restore this revision?"))) return;
  try {
    const deck = await api(`${apiUrl}revisions/${number}/restore/`, { method: "POST" });
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
  meta.name.addEventListener("input", () => {
    state.name = meta.name.value;
    $("[data-deck-title]").textContent = state.name || _("Untitled deck");
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
    if (!confirm(fmt(_("Delete “%(deck)s” for good?"), { deck: state.name }))) return;
    try {
      await api(apiUrl, { method: "DELETE" });
      location.assign("/decks/");
    } catch (error) {
      toast(fmt(_("Could not delete: %(message)s"), { message: error.message }), { error: true });
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
    saveState.textContent = fmt(_("Could not load the deck: %(message)s"), { message: error.message });
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
