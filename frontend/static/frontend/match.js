// The live match page: WebSocket view updates (resync on reconnect), legal-action clicking, clocks.
import { api } from "./js/api.js";
import { h } from "./js/dom.js";
import { LiveMatch, newKey } from "./js/live.js";
import { outcomeText, renderView } from "./match_render.js";

const root = document.getElementById("match-app");
const matchId = root.dataset.match;
const kind = root.dataset.kind;
const $ = (id) => document.getElementById(id);

let match = null; // the latest snapshot from the server
let picks = []; // clicked tokens narrowing the legal actions
let submitting = false;
let clockBase = 0;

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

async function submit(action) {
  if (submitting || !match) return;
  submitting = true;
  $("action-error").hidden = true;
  picks = [];
  const body = { action, state_version: match.state_version, idempotency_key: newKey() };
  document.body.dataset.submitting = "1";
  try {
    const res = await api(`/api/matches/${matchId}/actions/`, { method: "POST", body });
    // Our own view right after the move: render it now (the socket tells the other viewers).
    if (res && res.state) live.accept(res.state);
    else live.sync();
  } catch (err) {
    $("action-error").textContent = err.message;
    $("action-error").hidden = false;
    live.sync();
  } finally {
    submitting = false;
    delete document.body.dataset.submitting;
    renderActions();
  }
}

function actionButton(a) {
  return h("button", {
    class: "button button-small action", type: "button", "data-testid": "action", "data-type": a.action.type,
    onclick: () => submit(a.action),
  }, a.description);
}

function renderActions() {
  const box = $("actions");
  const sel = $("selection");
  box.replaceChildren();
  sel.replaceChildren();
  for (const n of document.querySelectorAll(".selectable, .picked")) n.classList.remove("selectable", "picked");
  if (!match || match.status !== "active") return;
  const legal = match.legal_actions || [];
  if (match.you === null || match.you === undefined) {
    box.append(h("p", { class: "muted", "data-testid": "spectating" }, "You are watching: hands stay hidden."));
    return;
  }
  if (!legal.length) {
    box.append(h("p", { class: "muted", "data-testid": "no-moves" }, "Waiting for the other player…"));
    return;
  }
  const cands = matching();
  for (const a of legal) for (const t of tokensOf(a.action)) if (!picks.includes(t)) markToken(t, "selectable", picks.length ? cands.includes(a) : true);
  for (const t of picks) markToken(t, "picked", true);
  if (picks.length) {
    sel.append(h("p", {}, "Choose: "), h("div", { class: "button-row" }, cands.map(actionButton)),
      h("button", { class: "link-button", type: "button", onclick: () => { picks = []; renderActions(); } }, "cancel"));
  }
  const plain = legal.filter((a) => tokensOf(a.action).length === 0);
  box.append(h("div", { class: "button-row" }, plain.map(actionButton)));
  const withTokens = legal.filter((a) => tokensOf(a.action).length > 0);
  if (withTokens.length) {
    box.append(h("p", { class: "muted hint" }, "Click a card or unit, then a square or target."));
    box.append(h("details", { class: "all-moves" }, h("summary", {}, `All ${withTokens.length} moves`),
      h("div", { class: "button-row" }, withTokens.map(actionButton))));
  }
}

function markToken(token, cls, on) {
  if (!on) return;
  for (const n of document.querySelectorAll(`[data-token="${token}"]`)) n.classList.add(cls);
}

root.addEventListener("click", (ev) => {
  const node = ev.target.closest("[data-token]");
  if (!node || !match || match.status !== "active" || submitting) return;
  const token = node.dataset.token;
  const legal = match.legal_actions || [];
  if (!legal.some((a) => tokensOf(a.action).includes(token))) return;
  ev.preventDefault();
  picks = picks.includes(token) ? picks : [...picks, token];
  let cands = matching();
  if (!cands.length) {
    picks = [token];
    cands = matching();
  }
  const complete = cands.filter((a) => tokensOf(a.action).every((t) => picks.includes(t)));
  if (cands.length === 1 || (complete.length === 1 && cands.length === complete.length)) {
    submit(cands[0].action);
    return;
  }
  renderActions();
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
    const total = Math.ceil(ms / 1000);
    const text = total >= 3600 ? `${Math.floor(total / 3600)}h ${Math.floor((total % 3600) / 60)}m` : `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
    return h("div", { class: `clock${s.running ? " running" : ""}${s.is_you ? " mine" : ""}`, "data-testid": `clock-${s.position}` },
      h("span", {}, s.name), h("b", {}, text), s.consecutive_timeouts ? h("small", {}, ` timeouts: ${s.consecutive_timeouts}`) : null);
  }));
}

function renderWaiting() {
  $("waiting").hidden = false;
  $("table").hidden = true;
  $("seat-list").replaceChildren(...match.seats.map((s) => h("li", { "data-testid": "seat" }, `Seat ${s.position + 1}: ${s.name}${s.is_you ? " (you)" : ""}`)));
  const seated = match.you !== null && match.you !== undefined;
  const full = match.seats.length >= match.seats_needed;
  $("start").hidden = !(seated && full);
  $("leave").hidden = !seated;
  $("join-here").hidden = seated || full || !root.dataset.user;
  if (match.invite_token) {
    $("invite-box").hidden = false;
    $("invite-link").value = `${location.origin}/play/join/${match.invite_token}/`;
  }
}

function renderLog() {
  const log = $("log");
  log.replaceChildren(...(match.log || []).map((e) => h("li", { "data-version": e.version, class: `log-${e.source}` }, e.text)));
  log.scrollTop = log.scrollHeight;
}

function render() {
  if (kind === "westeros" && match.status !== "waiting") {
    location.href = `/westeros/games/${matchId}/`; // the Westeros table lives in the frontend app
    return;
  }
  document.body.dataset.version = String(match.state_version);
  document.body.dataset.status = match.status;
  $("result").hidden = !match.result;
  $("result").textContent = outcomeText(match);
  $("replay-link").hidden = !["finished", "aborted"].includes(match.status);
  if (match.status === "waiting" || (match.status === "aborted" && !match.view)) {
    renderWaiting();
    return;
  }
  $("waiting").hidden = true;
  $("table").hidden = false;
  $("version").textContent = String(match.state_version);
  const viewer = match.you;
  renderView(root, match.view, viewer, names());
  const current = match.current_players || [];
  $("whose").textContent = match.status === "active"
    ? (current.includes(viewer) ? "Your move" : `Waiting for ${current.map((p) => names()[p]).join(", ")}`)
    : "";
  $("whose").dataset.mine = current.includes(viewer) ? "1" : "0";
  const dec = match.view && match.view.decision;
  $("prompt").textContent = dec ? `Decision: ${dec.kind.replace("_", " ")}${dec.player === viewer ? " — yours" : ""}` : "";
  $("prompt").hidden = !dec;
  $("concede").hidden = !(match.status === "active" && viewer !== null && viewer !== undefined);
  renderLog();
  renderActions();
  renderClocks();
}

// ---- live connection (js/live.js: reconnect with back-off, resync, log deltas merged) ------------------
/** Every accepted snapshot (socket push, REST resync, submit answer) comes in here, its log already merged. */
function onSnapshot(snapshot, previous) {
  if (!previous || snapshot.state_version !== previous.state_version) picks = [];
  match = snapshot;
  clockBase = performance.now();
  render();
}

const live = new LiveMatch({
  socketPath: `/ws/matches/${matchId}/`, stateUrl: `/api/matches/${matchId}/state/`, onSnapshot, statusNode: $("conn"),
});
window.matchConnection = live; // for tests: drop(ms) the socket to see the reconnect resync

// ---- waiting-room buttons ------------------------------------------------------------------------------
async function post(path, body) {
  try {
    return await api(path, { method: "POST", body: body || {} });
  } catch (err) {
    $("action-error").textContent = err.message;
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
  if ((await post(`/api/matches/${matchId}/leave/`)) !== null) location.href = "/play/";
});
$("join-here").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const deck = new FormData(ev.target).get("deck_id");
  post(`/api/matches/${matchId}/join/`, { deck_id: deck ? Number(deck) : null }).then(() => live.sync());
});
$("concede").addEventListener("click", () => {
  if (confirm("Concede this match?")) post(`/api/matches/${matchId}/concede/`);
});

setInterval(renderClocks, 250);
live.start();
