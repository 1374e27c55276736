// "My games" (/play/mine/): the time left of each game waiting for you counts down on the page, and the
// page keeps itself current: while the tab shows it asks every 15 s which games wait for your move
// (GET /api/me/turns/, the header badge's question) and, when that set changed, or at least once a
// minute, fetches the page again and swaps its lists in place (no reload, no lost scroll position).
import { api } from "./api.js";
import { _, fmt } from "./i18n.js";

const CHECK_EVERY_MS = 15000;
const REFRESH_EVERY_MS = 60000;

let rows = [];
let lastRefresh = Date.now();

function left(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d) return fmt(_("%(days)s d %(hours)s h left"), { days: d, hours: h });
  if (h) return fmt(_("%(hours)s h %(minutes)s min left"), { hours: h, minutes: m });
  return fmt(_("%(time)s left"), { time: `${m}:${String(s % 60).padStart(2, "0")}` });
}

function tick() {
  const now = Date.now();
  for (const node of rows) {
    const ms = Date.parse(node.dataset.deadline) - now;
    if (Number.isNaN(ms)) continue;
    node.textContent = ms > 0 ? left(ms) : _("time is up");
    node.classList.toggle("time-left-low", ms < 3600 * 1000);
  }
}

function collectRows() {
  rows = Array.from(document.querySelectorAll("[data-testid=time-left][data-deadline]"));
  tick();
}

/** The match ids the page lists under "Your turn", sorted. */
function shownTurns(root = document) {
  return Array.from(root.querySelectorAll("[data-testid=your-turn-list] [data-match]"))
    .map((n) => Number(n.dataset.match))
    .sort((a, b) => a - b);
}

async function refreshPage() {
  lastRefresh = Date.now();
  let html;
  try {
    const response = await fetch(window.location.href, { credentials: "same-origin", headers: { Accept: "text/html" } });
    if (!response.ok) return;
    html = await response.text();
  } catch {
    return; // offline for a moment: the next check tries again
  }
  const fresh = new DOMParser().parseFromString(html, "text/html");
  const next = fresh.querySelector("[data-testid=my-games]");
  const current = document.querySelector("[data-testid=my-games]");
  if (!next || !current) return;
  current.replaceWith(document.adoptNode(next));
  document.title = fresh.title || document.title;
  collectRows();
}

async function check() {
  if (document.hidden) return;
  let answer;
  try {
    answer = await api("/api/me/turns/");
  } catch {
    return;
  }
  const turns = (answer.matches || []).map(Number).sort((a, b) => a - b);
  // The header's badge (js/your_turn.js) shows the same count: it takes this answer instead of its own.
  document.dispatchEvent(new CustomEvent("turns:count", { detail: { count: turns.length } }));
  const changed = turns.join(",") !== shownTurns().join(",");
  if (changed || Date.now() - lastRefresh >= REFRESH_EVERY_MS) await refreshPage();
}

if (document.querySelector("[data-testid=my-games]")) {
  collectRows();
  setInterval(tick, 1000);
  setInterval(check, CHECK_EVERY_MS);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) check();
  });
}
