// Match snapshots as a live page holds them (matches API: GET /state/, the submit answer's `state`,
// WebSocket {"type": "state"} pushes): which snapshot wins, and how its log joins the log the page
// already holds. Shared by the Commandeer match page (match.js) and the Westeros table (westeros/).

/** How many log entries a page keeps: the server's full tail (matches.selectors.LOG_TAIL). */
export const LOG_KEEP = 200;

/** How far a match has come: waiting, then active, then over. A status never goes back down this list. */
const STATUS_RANK = { waiting: 0, active: 1, finished: 2, aborted: 2 };

/**
 * Newer-or-equal snapshots only: a late message never rolls the page back. An older version always loses
 * (the answer to the page's own last move can arrive after the socket pushed the AI's replies and the end
 * of the match); at an equal version (a start, a concession or a timeout does not bump it) the snapshot
 * wins unless it is an earlier status: a finished match never shows as active again.
 */
export function isNewer(current, snapshot) {
  if (!current) return true;
  if (snapshot.state_version !== current.state_version) return snapshot.state_version > current.state_version;
  return (STATUS_RANK[snapshot.status] ?? 0) >= (STATUS_RANK[current.status] ?? 0);
}

/** The newest log version a held snapshot covers (0: none yet; a match's log starts after version 0). */
export function newestLogVersion(snapshot) {
  const log = (snapshot && snapshot.log) || [];
  return log.length ? log[log.length - 1].version : 0;
}

/**
 * Accept `next` (any snapshot the server sent) over the held `current` one: the ONE place a page merges logs.
 *
 * Returns {snapshot, resync}. `snapshot` is what to hold and render, or null when `next` is older (ignore
 * it). Its log follows `next.log_since`: null means `next.log` is the log's tail (it replaces the held log);
 * a version N means `next.log` holds only the entries after N, appended to the held log (deduplicated by
 * version, the newer copy kept, ordered by version, the last LOG_KEEP kept). When the held log ends
 * before N (entries between are missing), the held log stays as it is and `resync` asks the caller for a
 * full snapshot — the rest of `next` (board, legal actions, clocks) is still current and is rendered.
 */
export function acceptSnapshot(current, next) {
  if (!next || !isNewer(current, next)) return { snapshot: null, resync: false };
  const incoming = next.log || [];
  const since = next.log_since;
  if (since === null || since === undefined) return { snapshot: { ...next, log: incoming.slice(-LOG_KEEP) }, resync: false };
  const held = (current && current.log) || [];
  if (newestLogVersion(current) < since) return { snapshot: { ...next, log: held }, resync: true };
  const byVersion = new Map(held.map((e) => [e.version, e]));
  for (const e of incoming) byVersion.set(e.version, e);
  const log = [...byVersion.values()].sort((x, y) => x.version - y.version).slice(-LOG_KEEP);
  return { snapshot: { ...next, log }, resync: false };
}
