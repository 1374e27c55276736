// The live connection of a match page, game-agnostic: the Commandeer table (match.js) and the Westeros
// table (westeros/game.js) both use it. The server sends {"type": "state", "match": snapshot} on connect
// and after every change; the client may ask {"type": "sync"} for a resync. The socket reconnects with
// back-off (and the server's first message after it resyncs the page); while it is down, the REST state
// endpoint stands in. Every snapshot (socket push, REST answer, the page's own submit answer) enters
// through `accept`, which merges its log with the held one through js/snapshots.js.
//
// Page add-ons (chat, your-turn notices, the end-of-game panel, rematch) never reach into a game's page
// script: they listen on `document` for two events this module dispatches:
//   "match:snapshot"  detail {snapshot, previous}  after every accepted snapshot (any source);
//   "match:message"   detail {message}             every socket message that is not a state push
//                                                  (e.g. {"type": "chat", ...}).
// `window.liveMatch` is the page's LiveMatch, for an add-on that must send on the socket.
import { api } from "./api.js";
import { _, fmt } from "./i18n.js";
import { acceptSnapshot, newestLogVersion } from "./snapshots.js";

const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 5000;
const FETCH_RETRY_MAX_MS = 10000;
const NO_ACCESS = new Set([4403, 4404]); // the consumer's close codes: the match is not ours to watch
// matches/consumers.py CLOSE_TOO_MANY_SOCKETS: this user already has the most sockets open (on this match,
// or in all) that the server allows. Reconnecting would only be refused again, so the page says so (the
// status node's `data-too-many-sockets`, translated by the template) and stays on what it shows; a reload
// once other tabs are closed connects again.
const TOO_MANY_SOCKETS = 4429;

export class LiveMatch {
  /**
   * @param {{socketPath: string, stateUrl: string, onSnapshot: Function, statusNode?: HTMLElement}} opts
   * socketPath "" = no WebSocket (the page reads the state once and after its own submits).
   * onSnapshot(snapshot, previous) is called with every accepted snapshot (its log already merged).
   * statusNode shows the connection: its text and `data-state` ("live" or "down").
   */
  constructor({ socketPath, stateUrl, onSnapshot, statusNode = null }) {
    this.socketPath = socketPath;
    this.stateUrl = stateUrl;
    this.onSnapshot = onSnapshot;
    this.statusNode = statusNode;
    this.snapshot = null; // the newest accepted snapshot
    this.socket = null;
    this.retry = RETRY_FIRST_MS;
    this.fetchRetry = 1000;
    this.pausedUntil = 0; // drop(ms): no reconnect and no REST read before this time
    this.closed = false;
  }

  start() {
    window.liveMatch = this;
    this.fetchState(); // render at once over REST; the socket then keeps the page live
    if (this.socketPath) this.connect();
  }

  /** Take any snapshot the server sent; older ones are ignored, a gap in the log asks for a full resync. */
  accept(next) {
    const { snapshot, resync } = acceptSnapshot(this.snapshot, next);
    if (snapshot) {
      const previous = this.snapshot;
      this.snapshot = snapshot;
      this.onSnapshot(snapshot, previous);
      document.dispatchEvent(new CustomEvent("match:snapshot", { detail: { snapshot, previous } }));
    }
    if (resync) this.sync({ full: true });
  }

  /** The newest log version held (null: none), so a REST resync asks only for the entries after it. */
  logSince() {
    const held = this.snapshot;
    return held && held.log && held.log.length ? newestLogVersion(held) : null;
  }

  status(state, text) {
    if (!this.statusNode) return;
    this.statusNode.dataset.state = state;
    this.statusNode.textContent = text;
  }

  /** The caller's snapshot over REST: with `full`, the log's whole tail; else only the entries the page lacks. */
  async fetchState({ full = false } = {}) {
    const since = full ? null : this.logSince();
    const url = since === null ? this.stateUrl : `${this.stateUrl}?log_since=${since}`;
    try {
      this.accept(await api(url));
      this.fetchRetry = 1000;
    } catch (err) {
      // A short plain message (never a server's error page); retry unless the socket is up.
      const what = err.status ? `HTTP ${err.status}` : _("offline");
      if (err.status === 403 || err.status === 404) {
        this.status("down", fmt(_("%(problem)s: %(message)s"), { problem: what, message: String(err.message).slice(0, 120) }));
        return;
      }
      this.status("down", fmt(_("%(problem)s, retrying…"), { problem: what }));
      this.fetchRetry = Math.min(this.fetchRetry * 2, FETCH_RETRY_MAX_MS);
      if (!this.socketOpen()) setTimeout(() => this.fetchState({ full }), this.fetchRetry);
    }
  }

  socketOpen() {
    return Boolean(this.socket) && this.socket.readyState === WebSocket.OPEN;
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${this.socketPath}`);
    this.socket = socket;
    socket.onopen = () => {
      this.retry = RETRY_FIRST_MS;
      this.status("live", _("live"));
    };
    socket.onmessage = (msg) => {
      let data = null;
      try {
        data = JSON.parse(msg.data);
      } catch {
        return;
      }
      if (data && data.type === "state") this.accept(data.match);
      else if (data && typeof data.type === "string") {
        document.dispatchEvent(new CustomEvent("match:message", { detail: { message: data } }));
      }
    };
    socket.onclose = (ev) => {
      if (this.closed) return;
      if (NO_ACCESS.has(ev.code)) {
        this.status("down", _("no access to this match"));
        this.fetchState();
        return;
      }
      if (ev.code === TOO_MANY_SOCKETS) {
        this.status("down", (this.statusNode && this.statusNode.dataset.tooManySockets) || String(ev.code));
        return;
      }
      this.status("down", _("reconnecting…"));
      const paused = this.pausedUntil - Date.now();
      if (paused <= 0) this.fetchState();
      setTimeout(() => this.connect(), Math.max(this.retry, paused));
      this.retry = Math.min(this.retry * 2, RETRY_MAX_MS);
    };
  }

  /**
   * Send one action of this viewer's seat: the one submit path of both tables. The body carries the state
   * version the page shows and a fresh idempotency key; the answer's snapshot is rendered at once (the
   * socket tells the other viewers); `accepted(res)`, when given, runs first, so the page can settle its own
   * state (a choice made, a panel to open) before the new snapshot renders. An error is thrown on for the
   * page to show, after a resync. `guard`: the server refuses a move that would lose the match at once
   * while another would not (409 `loses_at_once`), so the page can ask first (js/ask.js).
   */
  async submit(url, action, { accepted = null, guard = false } = {}) {
    const held = this.snapshot;
    const body = { action, state_version: held ? held.state_version : null, idempotency_key: newKey() };
    if (guard) body.guard = true;
    try {
      const res = await api(url, { method: "POST", body });
      if (accepted) accepted(res);
      if (res && res.state) this.accept(res.state);
      else this.sync();
      return res;
    } catch (err) {
      this.sync();
      throw err;
    }
  }

  /** Ask for a fresh snapshot (after an error, a stale submit, or a gap in the log: `full`); the socket's is always full. */
  sync({ full = false } = {}) {
    if (this.socketOpen()) this.socket.send(JSON.stringify({ type: "sync" }));
    else this.fetchState({ full });
  }

  /** Drop the connection for `ms` (what a flaky network does: tests use it); the reconnect resyncs the page. */
  drop(ms = 0) {
    this.pausedUntil = Date.now() + ms;
    if (this.socket) this.socket.close();
  }

  close() {
    this.closed = true;
    if (this.socket) this.socket.close();
  }
}

/** A fresh idempotency key for one submit (a retry of the same click reuses it). */
export function newKey() {
  return window.crypto && crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(16).slice(2)}`;
}
