// Live match connection, game-agnostic: the same protocol as the Commandeer match page (match.js).
// The server sends {"type": "state", "match": snapshot} on connect and after every change; the client
// may ask {"type": "sync"} for a resync. Reconnects with backoff; falls back to the REST state endpoint.
// (match.js keeps its own copy of this code inline; both merge snapshots through js/snapshots.js.)
import { api } from "../js/api.js";

export class LiveMatch {
  /**
   * @param {{socketPath: string, stateUrl: string, onSnapshot: Function, onStatus?: Function, logSince?: Function}} opts
   * socketPath "" = no WebSocket (the page polls nothing; it refreshes after its own submits).
   * logSince() = the newest log version the page holds (null: none): a REST resync then asks only for the
   * entries after it (`?log_since=`); the page merges them with js/snapshots.js acceptSnapshot.
   */
  constructor({ socketPath, stateUrl, onSnapshot, onStatus = () => {}, logSince = () => null }) {
    this.socketPath = socketPath;
    this.stateUrl = stateUrl;
    this.onSnapshot = onSnapshot;
    this.onStatus = onStatus;
    this.logSince = logSince;
    this.socket = null;
    this.retry = 500;
    this.closed = false;
  }

  start() {
    this.fetchState(); // render at once over REST; the socket then keeps the page live
    if (this.socketPath) this.connect();
  }

  /** The caller's snapshot over REST: with `full`, the log's whole tail; else only the entries the page lacks. */
  async fetchState({ full = false } = {}) {
    const since = full ? null : this.logSince();
    const url = since === null || since === undefined ? this.stateUrl : `${this.stateUrl}?log_since=${since}`;
    try {
      this.onSnapshot(await api(url));
      this.fetchRetry = 1000;
    } catch (err) {
      // A short plain message (never a server's error page); retry unless the socket is up.
      const what = err.status ? `HTTP ${err.status}` : "offline";
      if (err.status === 403 || err.status === 404) {
        this.onStatus("down", `${what}: ${String(err.message).slice(0, 120)}`);
        return;
      }
      this.onStatus("down", `${what}, retrying…`);
      this.fetchRetry = Math.min((this.fetchRetry || 1000) * 2, 10000);
      if (!this.socket || this.socket.readyState !== WebSocket.OPEN) setTimeout(() => this.fetchState({ full }), this.fetchRetry);
    }
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${this.socketPath}`);
    this.socket = socket;
    socket.onopen = () => {
      this.retry = 500;
      this.onStatus("live", "live");
    };
    socket.onmessage = (msg) => {
      let data = null;
      try {
        data = JSON.parse(msg.data);
      } catch {
        return;
      }
      if (data && data.type === "state") this.onSnapshot(data.match);
    };
    socket.onclose = (ev) => {
      if (this.closed) return;
      if (ev.code === 4403 || ev.code === 4404) {
        this.onStatus("down", "no access to this match");
        this.fetchState();
        return;
      }
      this.onStatus("down", "reconnecting…");
      this.fetchState();
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 5000);
    };
  }

  /** Ask for a fresh snapshot (after an error, a stale submit, or a gap in the log: `full`); the socket's is always full. */
  sync({ full = false } = {}) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type: "sync" }));
    else this.fetchState({ full });
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
