// Westeros game table: the caller's view on the board, the tracks, the houses, the log, and decisions
// offered ONLY from the server's legal actions (docs/style.md 3), grouped by area so a click on the map shows
// what can be done there. Submits with state_version + idempotency key; live updates via js/live.js (shared with the Commandeer table).
import { linkRules } from "../js/rule_links.js";
import { api } from "../js/api.js";
import { clockText } from "../js/clock.js";
import { h } from "../js/dom.js";
import { _, fmt, ngettext, pgettext } from "../js/i18n.js";
import { LiveMatch } from "../js/live.js";
import { HOUSES, WesterosMap, areaSpeech, humanize, orderLabel, unitName } from "./map.js";
import { houseChip, houseName, renderSupply, renderTracks, renderWesteros, renderWildlings } from "./panels.js";
import { DECISION_TEXT, MANY_TEXT, OPTION_TEXT, OPTION_WORDS, OTHERS_TEXT, PENDING_TEXT, PHASES, STEPS, TRACK_NAMES, iconText } from "./texts.js";

const root = document.getElementById("wx-game-app");
const mapData = JSON.parse(document.getElementById("wx-map-data").textContent);
const CARDS = JSON.parse(document.getElementById("wx-house-cards").textContent) || {};
const TEXTS = JSON.parse(document.getElementById("wx-card-texts").textContent) || { westeros: {}, wildling: {} };
const AREAS = Object.fromEntries(mapData.areas.map((a) => [a.id, a]));
const $ = (id) => document.getElementById(id);


let snap = null; // latest snapshot {state_version, status, view, legal_actions, seats, log, ...}
let selected = null; // selected area id
let chosenCard = null; // house card picked but not yet confirmed
let submitting = false;
let advance = true; // orders: open the next area without an order after each placement (and at the start)
let centred = false; // the board frame was panned to the player's lands once
let dismissedCombat = -1; // the log number of the last combat summary the player closed

const board = new WesterosMap($("wx-board"), mapData, { onSelect: (id) => {
  selected = id;
  chosenCard = null;
  advance = false;
  document.body.dataset.selectedArea = id;
  if (snap && snap.view) {
    renderDecision();
    renderAreaPanel();
  }
} });

/** Select an area from a list or a key (as a click on the map does), keeping the map in view of it. */
function selectArea(id) {
  board.choose(id);
  scrollToArea(id);
}

/** Pan the board's frame (a phone's, or a zoomed board's) so that the area is in the middle of it. */
function scrollToArea(id) {
  const poly = document.getElementById(`wx-area-${id}`);
  if (poly && board.scroller && board.scroller.scrollHeight > board.scroller.clientHeight + 4) {
    const box = poly.getBoundingClientRect();
    const frame = board.scroller.getBoundingClientRect();
    board.scroller.scrollTop += box.top + box.height / 2 - (frame.top + frame.height / 2);
    board.scroller.scrollLeft += box.left + box.width / 2 - (frame.left + frame.width / 2);
  }
}

// ---- names and helpers ------------------------------------------------------------------------------
const areaName = (id) => (AREAS[id] ? AREAS[id].name : humanize(id));

/** Engine log texts name areas by id ("in white_harbor"); show the map names instead. */
const TOKENS = new Set(["march_minus_one", "march", "march_plus_one", "defense_plus_one", "defense_plus_two", "support",
  "support_plus_one", "raid", "raid_special", "consolidate_power", "consolidate_power_special"]);

function plainWords(text) {
  return String(text).replace(/\b[a-z]+(?:_[a-z]+)+\b|\b[a-z]+\b/g, (w) => {
    if (AREAS[w]) return AREAS[w].name;
    if (CARDS[w]) return CARDS[w].name;
    if (TEXTS.wildling[w]) return TEXTS.wildling[w].name;
    if (w.includes("_") && TOKENS.has(w)) return orderLabel(w);
    if (HOUSES[w]) return HOUSES[w].name; // "Bids: baratheon 1, stark 0"
    return w;
  }).replace(/\bKings Court\b/g, "King's Court");
}

let clockBase = performance.now();

function seatOf(hid) {
  const v = snap.view || {};
  const order = v.seat_houses || v.houses || [];
  return (snap.seats || []).find((s) => order[s.position] === hid) || null;
}

/** A seat's clock now ("4:59", "23h 10m"); running clocks count down from the snapshot time. */
function seatClockText(seat) {
  if (!seat || typeof seat.clock_ms !== "number") return "";
  return clockText(seat.clock_ms - (seat.running ? performance.now() - clockBase : 0));
}

function tickClocks() {
  if (!snap || !snap.view) return;
  for (const node of document.querySelectorAll("[data-clock]")) {
    node.textContent = seatClockText(seatOf(node.dataset.clock));
  }
}

function seatName(hid) {
  const v = snap.view || {};
  const order = v.seat_houses || v.houses || [];
  const seat = (snap.seats || []).find((s) => order[s.position] === hid);
  return seat ? seat.name : "";
}

const me = () => (snap && snap.view ? snap.view.player : null);
const legal = () => (snap && snap.status === "active" ? snap.legal_actions || [] : []);

/** The board areas an action is about (empty for buttons that are not tied to one area). */
function actionAreas(act) {
  const out = [];
  for (const key of ["area", "dest", "target"]) if (typeof act[key] === "string" && AREAS[act[key]]) out.push(act[key]);
  if (act.type === "choose" && typeof act.option === "string") {
    const head = act.option.split(":")[0];
    if (AREAS[head]) out.push(head);
  }
  if (act.type === "muster" && act.upgrade === false && act.dest && act.dest !== act.area) out.push(act.dest);
  return [...new Set(out)];
}

/** The area a click on the map should open for an action (march: destination; others: its own area). */
function clickArea(act) {
  if (act.type === "march_move") return act.dest;
  if (act.type === "choose") {
    const head = String(act.option).split(":")[0];
    return AREAS[head] ? head : null;
  }
  return AREAS[act.area] ? act.area : null;
}

// ---- submitting ----------------------------------------------------------------------------------------
async function submit(action) {
  if (submitting || !snap) return;
  submitting = true;
  document.body.dataset.submitting = "1";
  $("wx-error").hidden = true;
  try {
    await live.submit(root.dataset.submitUrl, action, {
      accepted: () => {
        chosenCard = null;
        if (action.type === "place_order") advance = true;
      },
    });
    if (advance && snap && snap.view) {
      // the push of this very placement may have come first: open the next area now
      renderDecision();
      renderAreaPanel();
    }
  } catch (err) {
    $("wx-error").textContent = err.message;
    linkRules($("wx-error"));
    $("wx-error").hidden = false;
  } finally {
    submitting = false;
    delete document.body.dataset.submitting;
    // The buttons were redrawn: keep keyboard users in the decision panel rather than at the top of the page.
    if (!document.activeElement || document.activeElement === document.body) $("wx-decide-title").focus({ preventScroll: true });
  }
}

/** The "done / end / pass" choice of a step, pressed by the D key. */
function isDone(a) {
  if (a.type === "finish_orders") return true;
  if (a.type === "end_march") return !a.leave_power_token;
  if (a.type === "choose") return ["done", "pass"].includes(a.option);
  return false;
}

function actionButton(item, label, onclick = null) {
  return h("button", {
    type: "button", class: `button button-small${isDone(item.action) ? " wx-done" : ""}`, "data-testid": "action", "data-type": item.action.type,
    "data-action": JSON.stringify(item.action), "data-area": clickArea(item.action) || "", "data-done": isDone(item.action) ? "1" : null,
    title: plainWords(item.description), "aria-label": label && label !== item.description ? `${label} — ${plainWords(item.description)}` : null,
    onclick: onclick || (() => submit(item.action)),
  }, label || item.description);
}

// ---- panels ----------------------------------------------------------------------------------------------
function renderStatus() {
  const v = snap.view;
  $("wx-round").textContent = String(v.round);
  const step = v.step && v.phase !== "game_over" ? " · " + (STEPS[v.step] || humanize(v.step)) : ""; // no "Game over · Cleanup"
  $("wx-phase").textContent = `${PHASES[v.phase] || humanize(v.phase)}${step}`;
  $("wx-you").replaceChildren(...(me() ? [_("You:"), " ", houseChip(me())] : [_("Spectating")]));
  const deciding = v.current_players || [];
  $("wx-turn").textContent = snap.status !== "active" ? "" : deciding.includes(me()) ? _("Your decision")
    : fmt(_("Waiting for %(houses)s"), { houses: deciding.map(houseName).join(_(", ")) });
  $("wx-turn").dataset.mine = deciding.includes(me()) ? "1" : "0";
  // The play layer's result names the winner by seat (a timeout or a resignation ends a game too); the
  // engine's view by house.
  const res = snap.result || (v.winner ? { reason: v.end_reason } : null);
  const winner = v.winner || (res && res.winner != null ? (v.seat_houses || v.houses || [])[res.winner] : null);
  $("wx-result").hidden = !res;
  // Why it ended, in the game-over summary's words ("Most castles after the last round (W-18.2)").
  const why = (snap.result_reason || humanize(res ? res.reason || "" : "")).replace(/\.$/, "");
  if (res) {
    $("wx-result").textContent = winner ? fmt(_("Game over: %(house)s wins. %(reason)s."), { house: houseName(winner), reason: why })
      : fmt(_("Game over: no winner. %(reason)s."), { reason: why });
  }
  document.body.dataset.version = String(snap.state_version);
  document.body.dataset.status = snap.status;
}

// A house's name in three letters (one character in Chinese) where the tracks are narrow.
function renderHouses() {
  const v = snap.view;
  const deciding = new Set(v.current_players || []);
  const onBoard = {};
  for (const g of Object.values(v.units || {})) onBoard[g.house] = (onBoard[g.house] || 0) + g.units.length + (g.routed || []).length;
  const tokens = {};
  for (const hid of Object.values(v.tokens || {})) tokens[hid] = (tokens[hid] || 0) + 1;
  $("wx-houses").replaceChildren(h("table", { class: "wx-table" },
    h("thead", {}, h("tr", {}, h("th", {}, _("House")), h("th", { class: "num", title: _("Available power tokens") }, _("Power")),
      h("th", { class: "num", title: _("Power tokens on the board") }, _("Board")), h("th", { class: "num" }, _("Units")),
      h("th", { class: "num", title: _("House cards in hand") }, _("Cards")))),
    h("tbody", {}, v.houses.map((hid) => h("tr", { class: `${hid === me() ? "is-you" : ""}${deciding.has(hid) ? " is-deciding" : ""}`, "data-house-row": hid },
      h("td", {}, houseChip(hid), seatName(hid) ? h("div", { class: "muted", style: { fontSize: "0.75rem" } }, seatName(hid),
        seatClockText(seatOf(hid)) ? h("span", { class: `wx-clock${seatOf(hid).running ? " running" : ""}`, "data-clock": hid, title: _("Time left") }, seatClockText(seatOf(hid))) : null) : null),
      h("td", { class: "num" }, String(v.power[hid])), h("td", { class: "num" }, String(tokens[hid] || 0)),
      h("td", { class: "num" }, String(onBoard[hid] || 0)), h("td", { class: "num" }, String(((v.hands || {})[hid] || []).length)))))));
}

function cardNode(id, { playable = null, used = false } = {}) {
  const c = CARDS[id] || { name: humanize(id), strength: "?", swords: 0, fortifications: 0, effect: "" };
  const hc = HOUSES[c.house] || {};
  const body = [h("span", { class: "wx-str" }, String(c.strength)), h("b", {}, c.name),
    h("span", { class: "wx-icons" }, iconText(c).join(" · ")),
    c.effect ? h("div", { class: "wx-effect" }, c.effect) : null];
  const attrs = { class: `wx-card${used ? " is-used" : ""}${chosenCard === id ? " is-chosen" : ""}`, "data-card": id, style: { "--house-edge": hc.fill },
    title: c.effect || c.name, "aria-label": cardSpeech(id, used) };
  if (playable) return h("button", { type: "button", ...attrs, "aria-pressed": chosenCard === id ? "true" : "false", "data-testid": "playable-card", onclick: playable }, body);
  return h("div", { ...attrs, tabindex: "0", role: "group" }, body);
}

/** What a screen reader says for a house card: name, strength, icons and text (W-17). */
function cardSpeech(id, used = false) {
  const c = CARDS[id] || { name: humanize(id), strength: "?", swords: 0, fortifications: 0, effect: "" };
  const parts = [fmt(_("%(card)s, strength %(strength)s"), { card: c.name, strength: c.strength }), ...iconText(c, true), used ? _("discarded") : ""];
  const said = parts.filter(Boolean).join(_(", "));
  return c.effect ? fmt(_("%(card)s. %(text)s"), { card: said, text: c.effect }) : said;
}

/** The player's own hand in one compact row inside the decision panel (the phone's one-screen view). */
function renderHandStrip() {
  const v = snap.view;
  const mine = me();
  const strip = $("wx-hand-strip");
  const hand = mine ? (v.hands || {})[mine] || [] : [];
  strip.hidden = !hand.length;
  if (!hand.length) return strip.replaceChildren();
  const playable = new Set(legal().filter((a) => a.action.type === "play_house_card").map((a) => a.action.card));
  strip.replaceChildren(h("span", { class: "wx-strip-label" }, _("Your cards")), ...hand.map((id) => {
    const c = CARDS[id] || { name: humanize(id), strength: "?" };
    const attrs = { class: `wx-mini-card${chosenCard === id ? " is-chosen" : ""}`, "data-mini-card": id, title: c.effect || c.name, "aria-label": cardSpeech(id),
      style: { "--house-edge": (HOUSES[c.house] || {}).fill } };
    const body = [h("b", {}, String(c.strength)), " ", c.name];
    if (playable.has(id)) {
      return h("button", { type: "button", ...attrs, "aria-pressed": chosenCard === id ? "true" : "false",
        onclick: () => { chosenCard = id; renderDecision(); renderHand(); } }, body);
    }
    return h("span", { ...attrs, tabindex: "0", role: "group" }, body);
  }));
}

function renderHand() {
  const v = snap.view;
  const mine = me();
  const out = [];
  const playable = Object.fromEntries(legal().filter((a) => a.action.type === "play_house_card").map((a) => [a.action.card, a]));
  const pick = (id) => () => { chosenCard = id; renderDecision(); renderHand(); };
  if (mine) {
    out.push(h("h3", {}, _("Your hand")), h("div", { class: "wx-cards" }, (v.hands[mine] || []).map((id) => cardNode(id, { playable: playable[id] ? pick(id) : null }))));
    if ((v.discards[mine] || []).length) out.push(h("h3", {}, _("Your discards")), h("div", { class: "wx-cards" }, v.discards[mine].map((id) => cardNode(id, { used: true }))));
  }
  for (const hid of v.houses) {
    if (hid === mine) continue;
    const hand = (v.hands || {})[hid] || [];
    const disc = (v.discards || {})[hid] || [];
    out.push(h("details", { class: "wx-other-hand" }, h("summary", {}, houseChip(hid), " ", fmt(_("%(hand)s in hand, %(discarded)s discarded"), { hand: hand.length, discarded: disc.length })),
      h("div", { class: "wx-cards" }, hand.map((id) => cardNode(id)), disc.map((id) => cardNode(id, { used: true })))));
  }
  $("wx-hand").replaceChildren(...out);
}

function renderLog() {
  const v = snap.view;
  const entries = (v.log && v.log.length ? v.log : (snap.log || []).map((e) => ({ round: null, text: e.text })));
  const tail = entries.slice(-80);
  $("wx-log").replaceChildren(...tail.map((e) => h("li", {}, e.round ? h("span", { class: "wx-round", title: fmt(_("Round %(round)s"), { round: e.round }) }, fmt(_("R%(round)s"), { round: e.round })) : null, plainWords(e.text))));
  $("wx-log").scrollTop = $("wx-log").scrollHeight;
}

/** The latest combat result in the log (W-9.8): both revealed cards and each side's contributions. */
function lastCombat() {
  const v = snap.view;
  const log = v.log || [];
  for (let i = log.length - 1; i >= 0; i--) {
    if (log[i].combat) return { n: log[i].n, round: log[i].round, ...log[i].combat };
  }
  return null;
}

/** One revealed house card in the combat panel: name, printed strength, icons and text. */
function combatCard(id) {
  const c = CARDS[id] || { name: humanize(id), strength: "?", swords: 0, fortifications: 0, effect: "" };
  const icons = iconText(c).join(" · ");
  return h("div", { class: "wx-combat-card", "data-revealed-card": id, style: { "--house-edge": (HOUSES[c.house] || {}).fill }, "aria-label": cardSpeech(id) },
    h("span", { class: "wx-str" }, String(c.strength)), h("b", {}, c.name), icons ? h("span", { class: "wx-icons" }, icons) : null,
    c.effect ? h("p", { class: "wx-effect-full" }, c.effect) : null);
}

/** One side of a combat: its card (or why it is not shown) and every contribution to its strength (W-9.3). */
function combatSide(hid, role, card, rows, total, winner) {
  const list = (rows || []).filter(([label, n]) => n !== 0 || label.startsWith("House card"));
  return h("div", { class: `wx-side${winner === hid ? " is-winner" : ""}`, "data-side": role, "data-house": hid },
    h("h3", {}, role === "attacker" ? _("Attacker:") : _("Defender:"), " ", hid === "neutral" ? _("Neutral force") : houseChip(hid),
      winner === hid ? h("span", { class: "wx-win" }, " ", _("— wins")) : null),
    card ? combatCard(card) : h("p", { class: "wx-hint", "data-card-hidden": "1" }, hid === "neutral" ? _("No house card.") : _("House card: face down until both have chosen (W-9.4).")),
    list.length ? h("table", { class: "wx-table wx-parts", "data-testid": "combat-parts" },
      h("tbody", {}, list.map(([label, n]) => h("tr", {}, h("td", {}, plainWords(label)), h("td", { class: "num" }, n > 0 ? `+${n}` : String(n))))),
      total !== null && total !== undefined ? h("tfoot", {}, h("tr", {}, h("th", {}, _("Combat strength")), h("th", { class: "num", "data-final-strength": hid }, String(total)))) : null) : null);
}

function renderCombat() {
  const v = snap.view;
  const c = v.combat;
  const box = $("wx-combat");
  const last = c ? null : lastCombat();
  const showLast = last && last.round === v.round && last.n !== dismissedCombat;
  box.hidden = !c && !showLast;
  board.mark("combat", c ? [c.area] : []);
  if (!c && !showLast) return;
  if (!c) {
    const [att, dfn] = [last.attacker, last.defender];
    box.replaceChildren(h("div", { class: "wx-combat-head" },
      h("h2", {}, fmt(_("Last combat: %(area)s"), { area: areaName(last.area) })),
      h("button", { type: "button", class: "button button-small button-secondary", "aria-label": _("Close the last combat"), "data-testid": "combat-close",
        onclick: () => { dismissedCombat = last.n; renderCombat(); } }, "×")),
      h("p", { class: "wx-combat-result", "data-testid": "combat-result" }, houseChip(last.winner), " ", fmt(_("wins %(winner)s to %(loser)s"), { winner: last.numbers[last.winner].strength, loser: last.numbers[last.winner === att ? dfn : att].strength })),
      h("div", { class: "wx-sides" },
        combatSide(att, "attacker", last.cards[att], last.parts[att], last.numbers[att].strength, last.winner),
        combatSide(dfn, "defender", last.cards[dfn], last.parts[dfn], last.numbers[dfn].strength, last.winner)));
    return;
  }
  const nums = v.combat_strength || {};
  const parts = v.combat_parts || {};
  const support = Object.entries(c.support || {}).map(([hid, side]) => `${houseName(hid)} → ${side === "none" ? _("nobody") : houseName(side)}`);
  const revealed = c.cards && c.cards[c.attacker] && c.cards[c.defender];
  box.replaceChildren(...[h("h2", {}, fmt(_("Combat in %(area)s"), { area: areaName(c.area) })),
    h("p", { class: "wx-hint" }, fmt(_("Attacking from %(area)s with %(units)s."), { area: areaName(c.from), units: c.att_units.map(unitName).join(_(", ")) })),
    support.length ? h("p", { class: "wx-hint" }, fmt(_("Support: %(support)s."), { support: support.join(_("; ")) })) : null,
    h("div", { class: "wx-sides" },
      combatSide(c.attacker, "attacker", (c.cards || {})[c.attacker], parts[c.attacker], (nums[c.attacker] || {}).strength, c.winner),
      combatSide(c.defender, "defender", (c.cards || {})[c.defender], parts[c.defender], (nums[c.defender] || {}).strength, c.winner)),
    h("table", { class: "wx-table" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, houseName(c.attacker)), h("th", {}, c.defender === "neutral" ? _("Neutral force") : houseName(c.defender)))),
      h("tbody", {}, ...numberRows(nums, c))),
    revealed ? null : h("p", { class: "wx-hint" }, _("Strengths so far, before the house cards (W-9.3)."))].filter(Boolean));
}

/** Strength, swords and fortifications of both sides (W-9.3, W-9.9) when the server sends them. */
function numberRows(nums, c) {
  if (!nums || !nums[c.attacker] || !nums[c.defender]) return [];
  return [[_("Strength"), "strength"], [_("Swords"), "swords"], [_("Forts"), "forts"]].map(([label, key]) =>
    h("tr", { "data-number": key }, h("th", {}, label), h("td", { class: "num" }, String(nums[c.attacker][key])), h("td", { class: "num" }, String(nums[c.defender][key]))));
}

/** Who is still deciding (W-3.3: simultaneous steps show WHO, never WHAT). */
function waitingList() {
  const v = snap.view;
  const deciding = v.current_players || [];
  if (!deciding.length) return null;
  const p = v.pending || {};
  let all = deciding;
  if (p.kind === "orders") all = v.houses.filter((hid) => Object.values(v.units || {}).some((g) => g.house === hid));
  else if (p.kind === "bid") all = v.houses.filter((hid) => deciding.includes(hid) || hid in (p.bids || {}));
  else if (p.kind === "house_card" && v.combat) all = [v.combat.attacker, v.combat.defender];
  return h("ul", { class: "wx-waiting", "data-testid": "deciding" },
    all.map((hid) => h("li", { class: deciding.includes(hid) ? "" : "done", "data-deciding": deciding.includes(hid) ? "1" : "0", "data-house": hid },
      houseName(hid), deciding.includes(hid) ? ` ${_("— deciding")}` : " ✓")));
}

function decisionTitle() {
  const v = snap.view;
  const p = v.pending;
  if ((snap.status !== "active" && snap.status !== "replay") || !p) return snap.status === "waiting" ? _("Waiting for players") : _("No decision pending");
  if (p.kind === "orders" && legal().some((it) => it.action.type === "reopen_orders")) return _("Your orders are in — waiting for the other houses");
  const deciding = v.current_players || [];
  if (deciding.length && !deciding.includes(me())) return othersTitle(p, deciding);
  if (p.kind === "choose") return DECISION_TEXT[p.decision] || humanize(p.decision);
  if (p.kind === "bid" && p.task) {
    return p.task.purpose === "clash" ? fmt(_("Clash of Kings: bid for the %(track)s track"), { track: TRACK_NAMES[p.task.track] || humanize(p.task.track) })
      : _("Wildling attack: bid power tokens (W-16.3)");
  }
  return PENDING_TEXT[p.kind] || humanize(p.kind);
}

/** The heading when the deciding houses do not include the viewer (another house's march, a spectator). */
function othersTitle(p, deciding) {
  const houses = deciding.map(houseName).join(_(", "));
  if (p.kind === "choose") return fmt(_("%(player)s decides: %(decision)s"), { player: houses, decision: DECISION_TEXT[p.decision] || humanize(p.decision) });
  if (deciding.length === 1 && OTHERS_TEXT[p.kind]) return fmt(OTHERS_TEXT[p.kind], { house: houses });
  if (MANY_TEXT[p.kind]) return fmt(MANY_TEXT[p.kind], { houses });
  return fmt(_("Waiting for %(houses)s"), { houses });
}

function bidSlider(items) {
  const amounts = items.map((a) => a.action.amount).sort((x, y) => x - y);
  const min = amounts[0];
  const max = amounts[amounts.length - 1];
  const out = h("output", { "data-testid": "bid-value" }, String(min));
  const range = h("input", { type: "range", min, max, step: 1, value: min, "data-testid": "bid-slider", "aria-label": _("Bid"),
    oninput: () => { out.textContent = range.value; },
    onkeydown: (ev) => { if (ev.key === "Enter") { ev.preventDefault(); go.click(); } } });
  const go = h("button", { type: "button", class: "button", "data-testid": "bid-submit", onclick: () => {
    const item = items.find((a) => a.action.amount === Number(range.value));
    if (item) submit(item.action);
  } }, _("Bid"));
  return h("div", {}, h("div", { class: "wx-slider" }, range, out, go),
    h("p", { class: "wx-hint" }, fmt(ngettext("You have %(count)s power token; bids stay secret until everyone has bid.",
      "You have %(count)s power tokens; bids stay secret until everyone has bid.", max), { count: max })));
}

/** The player's areas that take an order (W-5.1), in map-name order. */
function myOrderAreas() {
  const mine = me();
  return Object.entries(snap.view.units || {}).filter(([, g]) => g.house === mine).map(([id]) => id)
    .sort((x, y) => areaName(x).localeCompare(areaName(y)));
}

/** Orders (W-5.1): every area of the player with its order; the open area shows the tokens that fit, and
 * "Change" takes a placed order back (legal until Ready; the others only see that a token lies there). */
function openNextArea(perArea) {
  const v = snap.view;
  const next = myOrderAreas().find((id) => !(v.orders || {})[id] && (perArea[id] || []).some((it) => it.action.type === "place_order"));
  if (next && next !== selected) {
    selected = next;
    board.select(next);
    document.body.dataset.selectedArea = next;
    requestAnimationFrame(() => scrollToArea(next));
  }
  advance = false;
}

function ordersPlan(perArea, ready = false) {
  const v = snap.view;
  const areas = myOrderAreas();
  const rows = areas.map((id) => {
    const order = (v.orders || {})[id];
    const acts = perArea[id] || [];
    const place = acts.filter((it) => it.action.type === "place_order");
    const take = acts.find((it) => it.action.type === "remove_order");
    const open = selected === id && place.length > 0;
    const label = order && order[1] ? orderLabel(order[1]) : _("no order yet");
    return h("li", { class: `wx-plan-row${open ? " is-open" : ""}${selected === id ? " is-selected" : ""}`, "data-plan-area": id },
      h("button", { type: "button", class: "wx-plan-area", title: areaName(id), "aria-expanded": open ? "true" : "false", "aria-label": fmt(_("%(area)s. %(order)s"), { area: areaSpeech(AREAS[id], v), order: order && order[1] ? fmt(_("Your order: %(order)s"), { order: label }) : _("No order yet") }),
        onclick: () => selectArea(id) }, areaName(id)),
      h("span", { class: `wx-plan-order${order ? "" : " is-empty"}`, "data-plan-order": order && order[1] ? order[1] : "" }, label),
      take ? actionButton(take, _("Change"), () => { selectArea(id); submit(take.action); }) : null,
      open ? h("div", { class: "button-row wx-plan-tokens", role: "group", "aria-label": fmt(_("Orders for %(area)s"), { area: areaName(id) }) },
        place.map((it) => actionButton(it, buttonLabel(it)))) : null);
  });
  const left = areas.filter((id) => !(v.orders || {})[id]).length;
  if (ready) {
    return [
      h("p", { class: "wx-hint", "data-testid": "map-hint" }, _("You are ready. Your orders are revealed when every house is ready; until then you can still change them.")),
      h("ol", { class: "wx-plan", "data-testid": "orders-plan" }, rows),
    ];
  }
  return [
    h("p", { class: "wx-hint", "data-testid": "map-hint" }, left
      ? fmt(ngettext("%(left)s of %(count)s area still needs an order. Pick an area, then its order; until you press Ready you can change any of them.",
        "%(left)s of %(count)s areas still need an order. Pick an area, then its order; until you press Ready you can change any of them.", left), { left, count: areas.length })
      : _("Every area has its order. Change any of them, or press Ready: orders are revealed when every house is ready (W-5.4).")),
    h("ol", { class: "wx-plan", "data-testid": "orders-plan" }, rows),
  ];
}

/** What the decision panel's choices depend on: while it is unchanged (another house moved), the buttons
 * stay as they are, so a click is never lost to a redraw under the pointer. */
function decisionKey(items) {
  const v = snap.view;
  const mine = me();
  const own = Object.entries(v.orders || {}).filter(([, o]) => o[0] === mine);
  const units = Object.entries(v.units || {}).filter(([, g]) => g.house === mine).map(([a]) => a);
  return JSON.stringify([snap.status, v.round, v.step, v.pending && v.pending.kind, items.map((it) => it.action), selected, chosenCard, advance,
    own, units, (v.hands || {})[mine], v.combat, v.combat_strength]);
}

let lastDecision = "";

function renderDecision() {
  const title = decisionTitle();
  if ($("wx-decide-title").textContent !== title) $("wx-decide-title").textContent = title;
  $("wx-waiting").replaceChildren(...[waitingList()].filter(Boolean));
  const items = legal();
  const perArea = {};
  for (const it of items) {
    const a = clickArea(it.action);
    if (a) (perArea[a] = perArea[a] || []).push(it);
  }
  if (advance && (snap.view.pending || {}).kind === "orders" && items.length) openNextArea(perArea);
  const key = decisionKey(items);
  if (key === lastDecision) return;
  lastDecision = key;
  const box = $("wx-actions");
  box.replaceChildren();
  renderHandStrip();
  const onMap = Object.keys(perArea);
  board.mark("actionable", onMap);
  document.body.dataset.pending = (snap.view.pending || {}).kind || "";
  if (!items.length) {
    if (snap.status === "active" && me()) box.append(h("p", { class: "muted", "data-testid": "no-moves" }, _("Nothing to decide now — waiting for the others.")));
    return;
  }
  const loose = items.filter((it) => !clickArea(it.action));
  const bids = loose.filter((it) => it.action.type === "bid");
  const cards = loose.filter((it) => it.action.type === "play_house_card");
  const rest = loose.filter((it) => it.action.type !== "bid" && it.action.type !== "play_house_card");
  const ordering = (snap.view.pending || {}).kind === "orders";
  const fight = snap.view.combat;
  const nums = snap.view.combat_strength;
  if (fight && nums && nums[fight.attacker] && nums[fight.defender]) {
    // The combat at a glance inside the decision (on a phone the combat panel is below the fold).
    const side = (hid) => `${hid === "neutral" ? _("Neutral force") : houseName(hid)} ${nums[hid].strength}`;
    const before = !(fight.cards && fight.cards[fight.attacker]);
    box.append(h("p", { class: "wx-combat-line", "data-testid": "combat-line" },
      fmt(before ? _("Combat in %(area)s: %(attacker)s vs %(defender)s (before house cards)") : _("Combat in %(area)s: %(attacker)s vs %(defender)s"),
        { area: areaName(fight.area), attacker: side(fight.attacker), defender: side(fight.defender) })));
  }
  if (bids.length) box.append(bidSlider(bids));
  if (cards.length) {
    const chosen = cards.find((c) => c.action.card === chosenCard);
    box.append(...[h("p", { class: "wx-hint" }, _("Pick a card, then confirm (Enter). The other side will not see it until both have chosen.")),
      h("div", { class: "button-row", role: "group", "aria-label": _("Your playable house cards") }, cards.map((c) => h("button", { type: "button", class: `button button-small${c.action.card === chosenCard ? "" : " button-secondary"}`, "data-card-choice": c.action.card,
        "aria-pressed": c.action.card === chosenCard ? "true" : "false", "aria-label": cardSpeech(c.action.card),
        onclick: () => { chosenCard = c.action.card; renderDecision(); renderHand(); } }, CARDS[c.action.card] ? `${CARDS[c.action.card].name} (${CARDS[c.action.card].strength})` : humanize(c.action.card)))),
      chosen ? h("button", { type: "button", class: "button", "data-testid": "play-card", "data-confirm": "1", onclick: () => submit(chosen.action) }, fmt(_("Play %(card)s"), { card: CARDS[chosenCard] ? CARDS[chosenCard].name : humanize(chosenCard) })) : null].filter(Boolean));
  }
  const main = rest.length ? h("div", { class: "button-row wx-main-actions" }, rest.map((it) => actionButton(it, buttonLabel(it)))) : null;
  if (ordering) {
    // Ready above the list: a long list (late rounds) must not push it off a phone's screen.
    const plan = ordersPlan(perArea, rest.some((it) => it.action.type === "reopen_orders"));
    box.append(plan[0], ...(main ? [main] : []), ...plan.slice(1));
  }
  else if (onMap.length && items.length - loose.length <= 6) {
    // Few choices (e.g. which March to resolve): all of them as buttons, each naming its area.
    box.append(h("p", { class: "wx-hint", "data-testid": "map-hint" }, _("Your choices (highlighted on the map):")));
    box.append(h("div", { class: "button-row wx-few" }, items.filter((it) => clickArea(it.action)).map((it) => actionButton(it, buttonLabel(it)))));
  } else if (onMap.length) {
    box.append(h("p", { class: "wx-hint", "data-testid": "map-hint" }, onMap.length === 1 ? _("Your choice is in the highlighted area:")
      : fmt(_("Choose an area (%(count)s highlighted on the map), then what to do there:"), { count: onMap.length })));
    box.append(h("div", { class: "wx-area-chips", role: "group", "aria-label": _("Areas with a choice") }, onMap.sort((x, y) => areaName(x).localeCompare(areaName(y))).map((id) =>
      h("button", { type: "button", class: `wx-chip${selected === id ? " is-selected" : ""}`, "data-area-chip": id, "aria-pressed": selected === id ? "true" : "false",
        "aria-label": areaSpeech(AREAS[id], snap.view), onclick: () => selectArea(id) }, areaName(id)))));
    const here = perArea[selected] || (onMap.length === 1 ? perArea[onMap[0]] : null);
    if (here) {
      const where = selected && perArea[selected] ? selected : onMap[0];
      box.append(h("div", { class: "wx-here", "data-testid": "here-actions" }, h("h3", {}, areaName(where)),
        h("div", { class: "button-row" }, here.map((it) => actionButton(it, buttonLabel(it))))));
    }
  }
  if (main && !ordering) box.append(main);
  if (onMap.length) {
    box.append(h("details", { class: "wx-all" }, h("summary", {}, fmt(ngettext("All %(count)s choice on the map", "All %(count)s choices on the map", items.length - loose.length), { count: items.length - loose.length })),
      Object.entries(perArea).map(([a, list]) => h("div", { class: "wx-action-group" }, h("h3", {}, areaName(a)),
        h("div", { class: "button-row" }, list.map((it) => actionButton(it, buttonLabel(it))))))));
  }
}

/** Short button text for an action (the server's description stays as the tooltip). */
function buttonLabel(it) {
  const a = it.action;
  switch (a.type) {
    case "place_order": return orderLabel(a.token);
    case "raven_swap": return fmt(_("Swap for %(order)s"), { order: orderLabel(a.token) });
    case "remove_order": {
      const o = (snap.view.orders || {})[a.area];
      return o && o[1] ? fmt(_("Take back %(order)s"), { order: orderLabel(o[1]) }) : _("Take back the order");
    }
    case "finish_orders": return _("Ready — orders done");
    case "reopen_orders": return _("Not ready — change my orders");
    case "end_march": return a.leave_power_token ? _("End march, leave a power token") : _("End march");
    case "declare_support": return a.side === "none" ? _("Support nobody") : fmt(_("Support %(house)s"), { house: houseName(a.side) });
    case "choose_march": return fmt(_("Resolve March in %(area)s"), { area: areaName(a.area) });
    case "resolve_raid": return a.target ? fmt(_("Raid %(area)s"), { area: areaName(a.target) }) : _("Raid nothing (remove)");
    case "resolve_consolidate": return a.muster ? _("Muster here (★)") : _("Consolidate Power");
    case "march_move": return fmt(_("Move %(units)s → %(area)s"), { units: a.units.map(unitName).join(_(", ")), area: areaName(a.dest) });
    case "muster": return a.upgrade ? fmt(_("Upgrade footman → %(unit)s"), { unit: unitName(a.unit) }) : `${unitName(a.unit)} → ${areaName(a.dest)}`;
    case "choose": {
      const [head, unit] = String(a.option).split(":");
      if (AREAS[head]) return unit ? fmt(_("%(unit)s in %(area)s"), { unit: unitName(unit), area: areaName(head) }) : areaName(head);
      if (HOUSES[a.option]) return houseName(a.option);
      if (CARDS[a.option]) return CARDS[a.option].name;
      if (TEXTS.wildling[a.option]) return TEXTS.wildling[a.option].name;
      if (TRACK_NAMES[a.option]) return TRACK_NAMES[a.option];
      if (OPTION_TEXT[a.option]) return OPTION_TEXT[a.option];
      if (OPTION_WORDS[a.option]) return OPTION_WORDS[a.option];
      return humanize(a.option);
    }
    default: return it.description;
  }
}

function renderAreaPanel() {
  const box = $("wx-area");
  if (!selected || !snap) {
    box.hidden = true;
    return;
  }
  const v = snap.view;
  const a = AREAS[selected];
  box.hidden = false;
  const facts = [];
  const castle = { castle: _("castle"), stronghold: _("stronghold") };
  const kind = a.kind === "land"
    ? [castle[a.castle] || _("land"), a.supply ? fmt(_("%(count)s supply"), { count: a.supply }) : "", a.crowns ? fmt(_("%(count)s power"), { count: a.crowns }) : ""].filter(Boolean).join(_(", "))
    : a.kind === "sea" ? _("sea") : a.kind === "port" ? _("port") : a.kind;
  facts.push(h("p", { class: "wx-hint" }, kind));
  const u = (v.units || {})[selected];
  if (u) facts.push(h("p", {}, houseChip(u.house), " ", [...u.units.map(unitName), ...(u.routed || []).map((x) => fmt(_("%(unit)s (routed)"), { unit: unitName(x) }))].join(_(", "))));
  const ctl = (v.control || {})[selected];
  if (ctl) facts.push(h("p", { class: "wx-hint" }, _("Controlled by"), " ", houseChip(ctl)));
  const order = (v.orders || {})[selected];
  if (order) facts.push(h("p", { class: "wx-hint" }, fmt(_("Order: %(order)s"), { order: order[1] ? orderLabel(order[1]) : _("face down") })));
  if ((v.garrisons || {})[selected]) facts.push(h("p", { class: "wx-hint" }, fmt(_("Garrison %(strength)s"), { strength: v.garrisons[selected] })));
  if ((v.neutral || {})[selected] !== undefined) facts.push(h("p", { class: "wx-hint" }, fmt(_("Neutral force %(strength)s"), { strength: v.neutral[selected] })));
  const here = legal().filter((it) => clickArea(it.action) === selected);
  const targets = new Set();
  for (const it of here) for (const t of actionAreas(it.action)) if (t !== selected) targets.add(t);
  board.mark("target", [...targets]);
  const acts = here.length
    ? [h("h3", {}, _("Your choices here")), h("div", { class: "button-row", "data-testid": "area-actions" }, here.map((it) => actionButton(it, buttonLabel(it))))]
    : [h("p", { class: "muted" }, legal().length ? _("No choice of yours in this area.") : "")];
  box.replaceChildren(h("h2", { "data-testid": "area-name" }, a.name), ...facts, ...acts);
}

function render() {
  if ($("wx-waiting-room")) $("wx-waiting-room").hidden = snap.status !== "waiting";
  if (!snap.view) {
    $("wx-decide-title").textContent = snap.status === "waiting" ? _("Waiting for players to join") : _("No game yet");
    return;
  }
  board.setView(snap.view);
  if (!centred && me()) {
    // First view: the player's own lands in the middle of a phone's (or zoomed) board frame.
    const home = Object.entries(snap.view.units || {}).find(([, g]) => g.house === me());
    if (home) requestAnimationFrame(() => scrollToArea(selected || home[0]));
    centred = true;
  }
  if (snap.view.march && snap.view.march.source) board.mark("neighbour", [snap.view.march.source]);
  else board.mark("neighbour", []);
  renderStatus();
  renderTracks(snap.view);
  renderSupply(snap.view, me());
  renderWildlings(snap.view, TEXTS);
  renderWesteros(snap.view, TEXTS);
  renderCombat();
  renderHouses();
  renderHand();
  renderDecision();
  renderAreaPanel();
  renderLog();
}

/** Every accepted snapshot (socket push, REST resync, submit answer) comes in here, its log already merged. */
function onSnapshot(snapshot, previous) {
  if (previous && snapshot.state_version !== previous.state_version) chosenCard = null;
  const kind = (s) => (s && s.view && s.view.pending ? s.view.pending.kind : null);
  if (kind(snapshot) === "orders" && (kind(previous) !== "orders" || (previous && previous.view.round !== snapshot.view.round))) advance = true;
  snap = snapshot;
  clockBase = performance.now();
  render();
}

// ---- replay: the finished match frame by frame (matches API /replay/) ----------------------------------
let frames = [];
let replayData = null;
let playing = null;

function showFrame(i) {
  const n = Math.max(0, Math.min(frames.length - 1, i));
  const frame = frames[n];
  $("wx-frame").value = String(n);
  $("wx-frame-label").textContent = fmt(_("Frame %(frame)s of %(count)s"), { frame: n + 1, count: frames.length });
  $("wx-frame-text").textContent = plainWords(frame.text || "");
  snap = {
    status: "replay", state_version: frame.version, seats: replayData.seats,
    you: replayData.you, view: frame.view, legal_actions: [], log: [], result: n === frames.length - 1 ? replayData.result : null,
  };
  render();
}

async function startReplay() {
  try {
    replayData = await api(root.dataset.stateUrl);
  } catch (err) {
    $("wx-decide-title").textContent = err.message;
    return;
  }
  frames = replayData.frames || [];
  if (!frames.length) return;
  $("wx-frame").max = String(frames.length - 1);
  const step = (d) => showFrame(Number($("wx-frame").value) + d);
  $("wx-frame").addEventListener("input", () => showFrame(Number($("wx-frame").value)));
  $("wx-first").addEventListener("click", () => showFrame(0));
  $("wx-last").addEventListener("click", () => showFrame(frames.length - 1));
  $("wx-prev").addEventListener("click", () => step(-1));
  $("wx-next").addEventListener("click", () => step(1));
  $("wx-play").addEventListener("click", () => {
    if (playing) {
      clearInterval(playing);
      playing = null;
      $("wx-play").textContent = pgettext("replay", "Play");
      return;
    }
    $("wx-play").textContent = _("Pause");
    playing = setInterval(() => {
      if (Number($("wx-frame").value) >= frames.length - 1) $("wx-play").click();
      else step(1);
    }, 700);
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
    if (ev.key === "ArrowRight") step(1);
    if (ev.key === "ArrowLeft") step(-1);
  });
  showFrame(0);
}

// ---- keyboard: D done/end, Enter confirm, Esc cancel, N/P next/previous area with a choice -------------
function cancel() {
  chosenCard = null;
  selected = null;
  delete document.body.dataset.selectedArea;
  board.select(null);
  board.mark("target", []);
  render();
}

function cycleArea(step) {
  const ids = [...new Set(legal().map((it) => clickArea(it.action)).filter(Boolean))].sort((x, y) => areaName(x).localeCompare(areaName(y)));
  if (!ids.length) return;
  const at = ids.indexOf(selected);
  const next = ids[(at + step + ids.length) % ids.length];
  selectArea(next);
  const row = document.querySelector(`[data-plan-area="${next}"] .wx-plan-area, [data-area-chip="${next}"]`);
  if (row) row.focus();
}

document.addEventListener("keydown", (ev) => {
  if (root.dataset.mode === "replay" || !snap || ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const t = ev.target;
  const typing = t && t.closest && t.closest("input, select, textarea, [contenteditable]");
  if (ev.key === "Escape") {
    if (typing && !t.closest(".wx-decide")) return; // leave other widgets' Escape alone (e.g. a chat box)
    cancel();
    return;
  }
  if (typing) return;
  const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
  if (key === "d") {
    const done = document.querySelector("#wx-actions [data-done='1']");
    if (done) {
      ev.preventDefault();
      done.click();
    }
  } else if (key === "Enter" && !(t.closest && t.closest("button, a, [role=button], summary"))) {
    const confirm = document.querySelector("#wx-actions [data-confirm='1'], #wx-actions [data-testid=bid-submit]");
    if (confirm) {
      ev.preventDefault();
      confirm.click();
    }
  } else if (key === "n" || key === "p") {
    ev.preventDefault();
    cycleArea(key === "n" ? 1 : -1);
  }
});

const live = new LiveMatch({
  socketPath: root.dataset.socket, stateUrl: root.dataset.stateUrl, onSnapshot, statusNode: $("wx-conn"),
});
window.matchConnection = live; // for tests: drop(ms) the socket to see the reconnect resync
// A phone shows the board a little larger than the screen is wide: the names stay readable and the frame pans.
if (window.matchMedia("(max-width: 600px)").matches) board.setZoom(1.6);
if (root.dataset.mode === "replay") startReplay();
else live.start();
setInterval(tickClocks, 1000);
