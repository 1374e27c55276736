// The live match page: WebSocket view updates (resync on reconnect), legal-action clicking with a decision
// panel that says what to do now, attack confirmation, automatic passes, keyboard use, clocks, the log
// with each action's consequences (animated on the board when they arrive live).
import { linkRules } from "./js/rule_links.js";
import { api } from "./js/api.js";
import { ask, asking } from "./js/ask.js";
import { hideCard, loadCardData, showCard } from "./js/card_component.js";
import { clockText } from "./js/clock.js";
import { h } from "./js/dom.js";
import { _, fmt, ngettext } from "./js/i18n.js";
import { LiveMatch } from "./js/live.js";
import { logLine } from "./js/match_log.js";
import { cardOf, dirLabel, k, orientation, outcomeText, phaseName, renderView, squareName } from "./match_render.js";

const root = document.getElementById("match-app");
const matchId = root.dataset.match;
const kind = root.dataset.kind;
const $ = (id) => document.getElementById(id);

let match = null; // the latest snapshot from the server
let picks = []; // clicked tokens narrowing the legal actions
let confirming = null; // an attack waiting for its confirmation
let submitting = false;
let leaving = false; // a Westeros game has started: the page is on its way to the table
let clockBase = 0;
const ONE_CLICK_KEY = "commandeer.oneClickAttacks";
const oneClick = () => localStorage.getItem(ONE_CLICK_KEY) === "1";

// ---- actions ------------------------------------------------------------------------------------
function tokensOf(action) {
  if (kind !== "commandeer") return [];
  const out = [];
  for (const key of ["card", "unit", "target"]) if (Number.isInteger(action[key])) out.push(`c:${action[key]}`);
  if (typeof action.square === "string") out.push(`s:${action.square}`);
  return out;
}

function matching() {
  const legal = (match && match.legal_actions) || [];
  return legal.filter((a) => picks.every((t) => tokensOf(a.action).includes(t)));
}

function seated() {
  return match && (match.you === 0 || match.you === 1);
}

function unitById(id) {
  return ((match.view && match.view.board) || []).find((u) => u.id === id);
}

/** An action in words as this viewer sees the board: an attack names its direction as drawn. */
function labelOf(a) {
  const act = a.action;
  if (act.type === "attack" && match.view) {
    const orient = orientation(match.view, match.you);
    const unit = unitById(act.unit), target = unitById(act.target);
    return fmt(_("%(unit)s attacks %(target)s (%(direction)s)"), {
      unit: unit ? unit.card : _("Unit"), target: target ? target.card : _("a unit"), direction: dirLabel(act.direction, orient),
    });
  }
  if (act.type === "pass" && match.view) return fmt(_("End the %(phase)s"), { phase: phaseName(match.view.phase) });
  const me = seated() ? names()[match.you] : "";
  let text = a.description.replace(/^[^:]+: /, "");
  if (me && text.startsWith(`${me} `)) text = text.slice(me.length + 1);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Send a move. The server is asked first whether it loses the match at once while another move would not
 * (`guard`, matches/losing.py: the engine plays it on a copy; C-6.2 ending Planning with no unit, C-6.1 a
 * sixth Defeated card); if so the player is asked once, in words with the rule's number, and only a
 * confirmed move is sent again without the guard. Clicks and the E key come through here alike.
 */
async function submit(action, { guard = true } = {}) {
  if (submitting || !match) return;
  const label = labelFor(action);
  let lossReason = null;
  submitting = true;
  $("action-error").hidden = true;
  picks = [];
  confirming = null;
  hideCard();
  $("selection").replaceChildren(); // the choice is made: no button of it stays clickable while it is sent
  for (const b of $("actions").querySelectorAll("button")) b.disabled = true;
  document.body.dataset.submitting = "1";
  try {
    await live.submit(`/api/matches/${matchId}/actions/`, action, { guard });
  } catch (err) {
    if (guard && err.code === "loses_at_once") lossReason = (err.extra && err.extra.reason) || err.message;
    else {
      $("action-error").textContent = err.message;
      linkRules($("action-error"));
      $("action-error").hidden = false;
    }
  } finally {
    submitting = false;
    delete document.body.dataset.submitting;
    renderActions();
  }
  if (lossReason === null) return;
  const yes = await ask({
    title: _("This move loses the match"),
    text: fmt(_("“%(action)s” ends the match at once, and you lose it: %(reason)s."), { action: label, reason: lossReason }),
    yes: _("Play it and lose"),
    testid: "lose-question",
  });
  if (yes) submit(action, { guard: false });
}

/** The words of one of the viewer's legal actions, as its button shows them. */
function labelFor(action) {
  const key = JSON.stringify(action);
  const entry = ((match && match.legal_actions) || []).find((a) => JSON.stringify(a.action) === key);
  return entry ? labelOf(entry) : _("This move");
}

function actionButton(a, { primary = false, key = "" } = {}) {
  return h("button", {
    class: `button button-small action${primary ? "" : " button-secondary"}`, type: "button", "data-testid": "action", "data-type": a.action.type,
    "aria-keyshortcuts": key || null, onclick: () => choose(a),
  }, labelOf(a), key ? h("kbd", { class: "key" }, key) : null);
}

/** A chosen action: an attack waits for its confirmation unless one-click attacks are on. */
function choose(a) {
  if (a.action.type === "attack" && !oneClick() && confirming !== a) {
    confirming = a;
    picks = tokensOf(a.action);
    renderActions();
    return;
  }
  submit(a.action);
}

// ---- what to do now ---------------------------------------------------------------------------------
const DECISION_HINTS = {
  reinforce_energy: _("Click a card in your hand (highlighted) to put it into your Energy zone."),
  pay_energy: _("Pay the Energy cost: click a card in your Energy zone (highlighted) to move it to your Retired zone (C-5.3)."),
  discard: _("Click a card in your hand (highlighted) to discard it to your Retired zone."),
  bottom: _("Click a card in your hand (highlighted) to put it on the bottom of your deck (C-4.4)."),
  retire_energy: _("Click a card in your Energy zone (highlighted) to retire it."),
  target: _("Click the unit to target (highlighted on the board)."),
  move_square: _("Click the square to move the unit to (highlighted on the board)."),
  order: _("Choose which triggered ability resolves first."),
};

const DECISION_TITLES = {
  reinforce_energy: _("Reinforce: put a card into Energy"),
  pay_energy: _("Pay Energy"),
  discard: _("Discard"),
  bottom: _("Put a card on the bottom of your deck"),
  retire_energy: _("Retire a card from Energy"),
  target: _("Choose a target"),
  move_square: _("Choose a square"),
  order: _("Order triggered abilities"),
};

function promptText(view, mine) {
  const dec = view.decision;
  if (dec) {
    const title = DECISION_TITLES[dec.kind] || dec.kind.replace(/_/g, " ");
    if (!mine) return fmt(_("%(player)s decides: %(decision)s"), { player: names()[dec.player] || _("Opponent"), decision: title });
    return dec.count && dec.count > 1 ? fmt(_("%(decision)s (%(count)s left)"), { decision: title, count: dec.count }) : title;
  }
  if (!mine) return "";
  const legal = match.legal_actions || [];
  const types = new Set(legal.map((a) => a.action.type));
  if (types.has("choose_commander")) return _("Set-up: choose your Commander (C-4.1)");
  if (types.has("keep")) return _("Set-up: keep this hand or take a mulligan (C-4.4)");
  const cp = view.players[match.you].cp;
  if (view.step === "planning") return fmt(_("Your Planning Phase — %(cp)s CP to spend"), { cp });
  if (view.step === "defending") return _("Your Defending Phase");
  if (view.step === "combat") return _("Your Combat Phase");
  return fmt(_("Your move (%(phase)s)"), { phase: phaseName(view.phase) });
}

function hintText(view, mine) {
  const dec = view.decision;
  if (dec && mine) return DECISION_HINTS[dec.kind] || _("Choose one of the options below.");
  if (!mine) return "";
  const legal = match.legal_actions || [];
  const types = new Set(legal.map((a) => a.action.type));
  if (view.step === "planning") {
    // Each option is a whole phrase of its own; the list is joined with the language's list format.
    const parts = [];
    if (types.has("deploy")) parts.push(_("deploy a unit (click a highlighted card, then a square)"));
    if (types.has("play_event")) parts.push(_("play an event"));
    if (types.has("move")) parts.push(_("move a unit (1 CP: click it, then a square)"));
    if (types.has("reinforce")) parts.push(_("reinforce (1 CP: draw 2, then put 1 into Energy)"));
    if (types.has("activate")) parts.push(_("use an ability"));
    return parts.length ? fmt(_("You may %(options)s — or end the phase."), { options: listText(parts) }) : _("Nothing left to do: end the phase.");
  }
  if (view.step === "defending") return types.has("play_event") || types.has("activate") ? _("Play a Defensive event or use an ability, or pass.") : _("No Defensive event to play: pass.");
  if (view.step === "combat") return types.has("attack") ? _("Click one of your units (highlighted) to attack with it, then confirm — or end combat.") : _("No attack possible: end combat.");
  return "";
}

/** Phrases as one list in the viewer's language ("a, b or c"; Thai and Chinese join them their own way). */
function listText(parts) {
  try {
    return new Intl.ListFormat(document.documentElement.lang || "en", { type: "disjunction" }).format(parts);
  } catch (error) {
    return parts.join(", ");
  }
}

function renderActions() {
  const box = $("actions");
  const sel = $("selection");
  box.replaceChildren();
  sel.replaceChildren();
  for (const n of root.querySelectorAll(".selectable, .picked, .confirm-target")) n.classList.remove("selectable", "picked", "confirm-target");
  if (!match || match.status !== "active" || !match.view || kind !== "commandeer") {
    $("prompt").textContent = "";
    $("hint").textContent = "";
    if (match && match.status === "active" && !seated()) box.append(h("p", { class: "muted", "data-testid": "spectating" }, _("You are watching: hands stay hidden.")));
    return;
  }
  const view = match.view;
  const legal = match.legal_actions || [];
  const mine = legal.length > 0;
  $("decision").dataset.mine = mine ? "1" : "0";
  $("prompt").textContent = promptText(view, mine);
  $("hint").textContent = hintText(view, mine);
  if (!seated()) {
    box.append(h("p", { class: "muted", "data-testid": "spectating" }, _("You are watching: hands stay hidden.")));
    return;
  }
  if (!mine) {
    box.append(h("p", { class: "muted", "data-testid": "no-moves" }, _("Waiting for the other player…")));
    return;
  }
  if (confirming) {
    const act = confirming.action;
    for (const t of tokensOf(act)) markToken(t, "picked", true);
    markToken(`c:${act.target}`, "confirm-target", true);
    sel.append(h("p", { class: "confirm-text", "data-testid": "confirm-text" }, fmt(_("%(action)s?"), { action: labelOf(confirming) })),
      h("div", { class: "button-row" },
        h("button", { class: "button button-small", type: "button", "data-testid": "confirm", "aria-keyshortcuts": "Enter", onclick: () => submit(act) }, _("Attack"), h("kbd", { class: "key" }, "Enter")),
        h("button", { class: "button button-small button-secondary", type: "button", "data-testid": "cancel", "aria-keyshortcuts": "Escape", onclick: cancel }, _("Cancel"), h("kbd", { class: "key" }, "Esc"))));
    return;
  }
  const cands = matching();
  for (const a of legal) for (const t of tokensOf(a.action)) if (!picks.includes(t)) markToken(t, "selectable", picks.length ? cands.includes(a) : true);
  for (const t of picks) markToken(t, "picked", true);
  for (const z of root.querySelectorAll("details.zone")) if (z.querySelector(".selectable, .picked")) z.open = true;
  if (picks.length) {
    const picked = picks.map((t) => root.querySelector(`[data-token="${t}"]`)).find((n) => n && n.dataset.name);
    const buttons = h("div", { class: "button-row" }, cands.map((a) => actionButton(a)));
    const ask = picked
      ? fmt(cands.length > 1 ? _("%(card)s: choose a highlighted square or target, or:") : _("%(card)s: choose:"), { card: picked.dataset.name })
      : cands.length > 1 ? _("Choose a highlighted square or target, or:") : _("Choose:");
    sel.append(h("p", {}, ask),
      cands.length > 4 ? h("details", { class: "all-moves" }, h("summary", {}, fmt(_("choose from a list (%(count)s)"), { count: cands.length })), buttons) : buttons,
      h("button", { class: "link-button", type: "button", "data-testid": "cancel", onclick: cancel }, _("cancel (Esc)")),
      picked ? h("button", { class: "link-button", type: "button", onclick: () => showCard(picked, cardOf(view, picked.dataset.name), {}, true) }, _("read the card")) : null);
  }
  const plain = legal.filter((a) => tokensOf(a.action).length === 0);
  const pass = plain.find((a) => a.action.type === "pass");
  box.append(h("div", { class: "button-row" }, plain.map((a) => actionButton(a, { primary: a === pass || plain.length === 1, key: a === pass ? "E" : "" }))));
  const withTokens = legal.filter((a) => tokensOf(a.action).length > 0);
  if (withTokens.length) {
    box.append(h("details", { class: "all-moves" }, h("summary", {}, fmt(ngettext("All %(count)s move as a list", "All %(count)s moves as a list", withTokens.length), { count: withTokens.length })),
      h("div", { class: "button-row" }, withTokens.map((a) => actionButton(a)))));
  }
  rovingFocus();
}

function cancel() {
  picks = [];
  confirming = null;
  renderActions();
}

function markToken(token, cls, on) {
  if (!on) return;
  for (const n of root.querySelectorAll(`[data-token="${token}"]`)) n.classList.add(cls);
}

function pick(token) {
  const legal = match.legal_actions || [];
  if (!legal.some((a) => tokensOf(a.action).includes(token))) return false;
  if (confirming) {
    if (tokensOf(confirming.action).includes(token)) return true; // a click on the attack's own cards
    confirming = null;
    picks = [];
  }
  picks = picks.includes(token) ? picks : [...picks, token];
  let cands = matching();
  if (!cands.length) {
    picks = [token];
    cands = matching();
  }
  const complete = cands.filter((a) => tokensOf(a.action).every((t) => picks.includes(t)));
  if (cands.length === 1 || (complete.length === 1 && cands.length === complete.length)) {
    choose(cands[0]);
    return true;
  }
  renderActions();
  if (!token.startsWith("s:")) focusHighlightedSquare();
  return true;
}

/** After a card is picked, the keyboard goes where the next choice is: the first highlighted square. */
function focusHighlightedSquare() {
  const squares = [...root.querySelectorAll(".board .square")];
  const next = squares.find((s) => s.classList.contains("selectable") || s.querySelector(".selectable"));
  if (!next) return;
  for (const s of squares) s.tabIndex = s === next ? 0 : -1;
  next.focus({ preventScroll: true });
}

root.addEventListener("click", (ev) => {
  const node = ev.target.closest("[data-token]");
  if (!node || !match || match.status !== "active" || submitting) return;
  // a unit sits on its square: a click on it is the unit unless only the square is wanted
  let token = node.dataset.token;
  const legal = match.legal_actions || [];
  const wanted = (t) => legal.some((a) => tokensOf(a.action).includes(t));
  if (!wanted(token)) {
    const square = node.closest(".square");
    // copies are interchangeable: the server offers the first copy of a name in hand, so a click on
    // another copy plays that one
    const copy = node.dataset.name && [...root.querySelectorAll(".hand-card[data-name]")]
      .find((n) => n.dataset.name === node.dataset.name && wanted(n.dataset.token));
    if (square && wanted(square.dataset.token)) token = square.dataset.token;
    else if (copy) token = copy.dataset.token;
    else return;
  }
  ev.preventDefault();
  pick(token);
});

// ---- keyboard ----------------------------------------------------------------------------------------
function rovingFocus() {
  const squares = [...root.querySelectorAll(".board .square")];
  if (!squares.length) return;
  const current = squares.find((s) => s.tabIndex === 0) || squares.find((s) => s.querySelector(".selectable") || s.classList.contains("selectable")) || squares[14];
  for (const s of squares) s.tabIndex = s === current ? 0 : -1;
}

function moveFocus(from, dx, dy) {
  const squares = [...root.querySelectorAll(".board .square")];
  const i = squares.indexOf(from);
  if (i < 0) return;
  const x = (i % 6) + dx, y = Math.floor(i / 6) + dy;
  if (x < 0 || x > 5 || y < 0 || y > 5) return;
  const next = squares[y * 6 + x];
  for (const s of squares) s.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
}

document.addEventListener("keydown", (ev) => {
  if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const t = ev.target;
  if (t && (t.closest("input, textarea, select, [contenteditable]") || (t.closest("#card-pop")))) return;
  if (asking()) return; // a question on screen waits for its answer
  const square = t && t.closest && t.closest(".board .square");
  const unit = square && square.querySelector(".unit");
  if (unit && unit.showCardText && (ev.key === "i" || ev.key === "I")) {
    ev.preventDefault(); // the unit's card text, as on a card ("i"); Escape gives focus back to the square
    unit.showCardText(true, square);
    return;
  }
  if (!match || match.status !== "active") return;
  const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (square && arrows[ev.key]) {
    ev.preventDefault();
    moveFocus(square, ...arrows[ev.key]);
    return;
  }
  const onButton = t && t.closest && t.closest("button, a, summary");
  if ((ev.key === "Enter" || ev.key === " ") && !onButton) {
    const tokenNode = t && t.closest && t.closest("[data-token]");
    if (tokenNode && root.contains(tokenNode)) {
      ev.preventDefault();
      const unit = tokenNode.querySelector(".unit");
      const token = unit && (match.legal_actions || []).some((a) => tokensOf(a.action).includes(unit.dataset.token)) ? unit.dataset.token : tokenNode.dataset.token;
      pick(token);
      return;
    }
    if (confirming) {
      ev.preventDefault();
      submit(confirming.action);
    }
    return;
  }
  if (ev.key === "Escape" && (picks.length || confirming)) {
    cancel();
    return;
  }
  if ((ev.key === "e" || ev.key === "E") && !submitting) {
    const pass = (match.legal_actions || []).find((a) => a.action.type === "pass");
    if (pass) {
      ev.preventDefault();
      submit(pass.action);
    }
  }
});

// ---- rendering ---------------------------------------------------------------------------------------
function names() {
  const out = {};
  for (const s of match.seats) out[s.position] = s.name;
  return out;
}

function renderClocks() {
  const box = $("clocks");
  if (!match) return;
  const elapsed = performance.now() - clockBase;
  box.replaceChildren(...match.seats.map((s) => {
    const ms = Math.max(0, s.clock_ms - (s.running ? elapsed : 0));
    for (const n of root.querySelectorAll(`[data-clock="${s.position}"]`)) {
      n.textContent = clockText(ms);
      n.classList.toggle("running", s.running);
    }
    return h("div", { class: `clock${s.running ? " running" : ""}${s.is_you ? " mine" : ""}`, "data-testid": `clock-${s.position}` },
      h("span", {}, s.name), h("b", {}, clockText(ms)), s.consecutive_timeouts ? h("small", {}, " ", fmt(_("timeouts: %(count)s"), { count: s.consecutive_timeouts })) : null);
  }));
}

function renderWaiting() {
  $("waiting").hidden = false;
  $("table").hidden = true;
  $("seat-list").replaceChildren(...match.seats.map((s) => h("li", { "data-testid": "seat" }, fmt(s.is_you ? _("Seat %(seat)s: %(name)s (you)") : _("Seat %(seat)s: %(name)s"), { seat: s.position + 1, name: s.name }))));
  const isSeated = match.you !== null && match.you !== undefined;
  const full = match.seats.length >= match.seats_needed;
  $("start").hidden = !(isSeated && full);
  $("leave").hidden = !isSeated;
  $("join-here").hidden = isSeated || full || !root.dataset.user;
  if (match.invite_token) {
    $("invite-box").hidden = false;
    $("invite-link").value = `${location.origin}/play/join/${match.invite_token}/`;
  }
  $("auto-start-note").hidden = !match.auto_start;
}

$("invite-copy").addEventListener("click", async () => {
  const input = $("invite-link");
  try {
    await navigator.clipboard.writeText(input.value);
    $("invite-copied").textContent = _("Copied");
  } catch {
    input.select(); // no clipboard access (an http page, a refusal): selected for Ctrl+C
    $("invite-copied").textContent = _("Selected: press Ctrl+C to copy");
  }
  setTimeout(() => { $("invite-copied").textContent = ""; }, 4000);
});

function renderLog() {
  const log = $("log");
  const catalog = (match.view && match.view.catalog) || null; // card names in the log show their card
  log.replaceChildren(...(match.log || []).map((e) => logLine(e, {}, catalog)));
  log.scrollTop = log.scrollHeight;
}

function renderSettings() {
  const me = match.seats.find((s) => s.is_you);
  $("play-settings").hidden = !me;
  if (me && typeof me.auto_pass === "boolean") $("auto-pass").checked = me.auto_pass;
  $("one-click").checked = oneClick();
}

/** Focus stays on the card or square it was on when a new view is drawn. */
function focusKey() {
  const a = document.activeElement;
  if (!a || !root.contains(a)) return null;
  return a.dataset.square ? `[data-square="${a.dataset.square}"].square` : a.dataset.token ? `[data-token="${a.dataset.token}"]` : null;
}

function render() {
  if (kind === "westeros" && match.status !== "waiting") {
    // The table lives in the frontend app. Go once: the start's answer and the socket's push both land
    // here, and a second assignment would abort the first navigation.
    if (!leaving) location.href = `/westeros/games/${matchId}/`;
    leaving = true;
    return;
  }
  root.dataset.you = seated() ? String(match.you) : ""; // a seat taken after the page loaded counts too
  document.body.dataset.version = String(match.state_version);
  document.body.dataset.status = match.status;
  $("result").hidden = !match.result;
  $("result").textContent = outcomeText(match);
  $("replay-link").hidden = !["finished", "aborted"].includes(match.status);
  if (match.status === "waiting" || (match.status === "aborted" && !match.view)) {
    renderWaiting();
    return;
  }
  const keep = focusKey();
  $("waiting").hidden = true;
  $("table").hidden = false;
  $("version").textContent = String(match.state_version);
  const viewer = match.you;
  renderView(root, match.view, viewer, names(), { over: ["finished", "aborted"].includes(match.status) });
  const current = match.current_players || [];
  const mine = current.includes(viewer);
  $("whose").textContent = match.status === "active"
    ? (mine ? _("Your move") : fmt(_("Waiting for %(players)s"), { players: current.map((p) => names()[p]).join(", ") }))
    : match.status === "finished" ? _("The match is over") : "";
  $("whose").dataset.mine = mine ? "1" : "0";
  $("concede").hidden = !(match.status === "active" && seated());
  renderLog();
  renderSettings();
  renderActions();
  rovingFocus();
  renderClocks();
  if (keep) {
    const node = root.querySelector(keep);
    if (node) {
      if (node.classList.contains("square")) {
        for (const s of root.querySelectorAll(".board .square")) s.tabIndex = -1;
        node.tabIndex = 0;
      }
      node.focus({ preventScroll: true });
    }
  }
  fitPhone();
}

// ---- consequences on the board (damage numbers, defeated units fading) ---------------------------------
function animateConsequences(entries, previousView) {
  if (!match.view || match.view.format !== "commandeer-view" || window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const board = $("board");
  for (const e of entries) {
    for (const c of Array.isArray(e.consequences) ? e.consequences : []) {
      if (!Array.isArray(c.square) || c.square.length !== 2) continue;
      const sq = squareName(c.square[0], c.square[1]);
      const cell = board.querySelector(`.square[data-square="${sq}"]`);
      if (!cell) continue;
      if (c.kind === "defeat") {
        const old = previousView && (previousView.board || []).find((u) => u.square === sq);
        const ghost = h("div", { class: `unit ghost ${old && old.owner === orientation(match.view, match.you).bottom ? "mine" : "theirs"}`, "aria-hidden": "true", "data-testid": "defeated-ghost" },
          h("div", { class: "unit-name" }, old ? old.card : _("Defeated")), h("div", { class: "unit-stats" }, _("defeated")));
        cell.append(ghost);
        setTimeout(() => ghost.remove(), 1600);
      }
      if (c.kind === "defeat" || c.amount === null || c.amount === undefined) continue; // the fading unit says it
      const sign = c.kind === "heal" ? "+" : c.kind === "damage" ? "−" : c.amount > 0 ? "+" : "";
      const text = `${sign}${k(Math.abs(c.amount))}`;
      const stacked = cell.querySelectorAll(".float").length; // several numbers on one square: one above the other
      const float = h("div", { class: `float float-${c.kind || "other"}`, "aria-hidden": "true", "data-testid": `float-${c.kind}`, style: { marginTop: `${-18 * stacked}px` } }, text);
      cell.append(float);
      setTimeout(() => float.remove(), 1600);
    }
  }
}

// ---- phone layout: the decision bar is fixed at the bottom; the page leaves room for it ---------------
// The squares take what the screen has left once the panels, the hand strip and the bar are counted, so
// the whole hand shows above the bar without scrolling.
function fitPhone() {
  const bar = $("decision");
  const app = $("match-app");
  const phone = window.matchMedia("(max-width: 700px)").matches && !$("table").hidden;
  document.body.style.paddingBottom = phone ? `${bar.offsetHeight + 8}px` : "";
  if (!phone || !match || match.status !== "active") { // a finished game's panels come first: no fitting
    app.style.removeProperty("--sq");
    return;
  }
  const board = $("board");
  const square = board.querySelector(".square");
  const sq = square ? square.getBoundingClientRect().height : 0;
  if (!sq) return;
  // From the top of the page to the bottom of the hand strip (the clocks and the log come after it).
  const handBottom = document.querySelector(".table-hand").getBoundingClientRect().bottom + window.scrollY;
  const others = handBottom - 6 * sq; // everything above the hand's bottom but the squares themselves
  // Room for the bar at its tallest (27vh, match.css), so the board keeps one size from turn to turn.
  const reserve = Math.max(bar.offsetHeight, Math.ceil(window.innerHeight * 0.27));
  const fit = Math.floor((window.innerHeight - reserve - 4 - others) / 6);
  const widest = Math.floor((window.innerWidth - 20) / 6);
  const next = Math.max(44, Math.min(widest, fit)); // never under a comfortable tap target (match.css)
  if (Math.abs(next - sq) >= 1) app.style.setProperty("--sq", `${next}px`);
}
window.addEventListener("resize", fitPhone);

// ---- live connection (js/live.js: reconnect with back-off, resync, log deltas merged) ------------------
/** Every accepted snapshot (socket push, REST resync, submit answer) comes in here, its log already merged. */
function onSnapshot(snapshot, previous) {
  if (!previous || snapshot.state_version !== previous.state_version) {
    picks = [];
    confirming = null;
  }
  match = snapshot;
  clockBase = performance.now();
  render();
  if (previous && snapshot.state_version > previous.state_version) {
    animateConsequences((snapshot.log || []).filter((e) => e.version > previous.state_version), previous.view);
  }
}

const live = new LiveMatch({
  socketPath: `/ws/matches/${matchId}/`, stateUrl: `/api/matches/${matchId}/state/`, onSnapshot, statusNode: $("conn"),
});
window.matchConnection = live; // for tests: drop(ms) the socket to see the reconnect resync

// ---- waiting-room buttons and settings ---------------------------------------------------------------
/** POST to the API: the answer ({} for an empty 204), or null after showing the error. */
async function post(path, body) {
  try {
    return (await api(path, { method: "POST", body: body || {} })) ?? {};
  } catch (err) {
    $("action-error").textContent = err.message;
    linkRules($("action-error"));
    $("action-error").hidden = false;
    alertBox(err.message);
    return null;
  }
}

function alertBox(text) {
  let box = document.getElementById("waiting-error");
  if (!box) {
    box = h("p", { class: "form-error", id: "waiting-error", role: "alert", "data-testid": "waiting-error" });
    $("waiting").append(box);
  }
  box.textContent = text;
}

$("start").addEventListener("click", () => post(`/api/matches/${matchId}/start/`));
$("leave").addEventListener("click", async () => {
  // A player's seat is simply freed; the creator's leaving cancels the match for everyone seated: asked first.
  const creator = match && match.seats.some((s) => s.is_you && s.name === match.created_by);
  const others = match ? match.seats.filter((s) => !s.is_you && !s.is_ai).length : 0;
  if (creator && others > 0) {
    const yes = await ask({
      title: _("Cancel this match?"),
      text: _("You created this match: if you leave, it is cancelled for every player who has joined it."),
      yes: _("Leave and cancel"),
      testid: "leave-question",
    });
    if (!yes) return;
  }
  if ((await post(`/api/matches/${matchId}/leave/`)) !== null) location.href = "/play/";
});
$("join-here").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const deck = new FormData(ev.target).get("deck_id");
  post(`/api/matches/${matchId}/join/`, { deck_id: deck ? Number(deck) : null }).then(() => live.sync());
});
$("concede").addEventListener("click", async () => {
  const other = match && match.seats.find((s) => !s.is_you);
  const yes = await ask({
    title: _("Concede this match?"),
    text: fmt(_("You lose the match at once and %(player)s wins it (C-6.4). A concession cannot be taken back."), { player: other ? other.name : _("your opponent") }),
    yes: _("Concede"),
    testid: "concede-question",
  });
  if (yes) post(`/api/matches/${matchId}/concede/`);
});
$("auto-pass").addEventListener("change", async (ev) => {
  const on = ev.target.checked;
  try {
    await api(`/api/matches/${matchId}/seat/`, { method: "PATCH", body: { auto_pass: on } });
    live.sync();
  } catch (err) {
    ev.target.checked = !on;
    $("action-error").textContent = err.message;
    linkRules($("action-error"));
    $("action-error").hidden = false;
  }
});
$("one-click").addEventListener("change", (ev) => {
  localStorage.setItem(ONE_CLICK_KEY, ev.target.checked ? "1" : "0");
  confirming = null;
  if (match) renderActions();
});

setInterval(renderClocks, 250);
loadCardData();
live.start();
