// "Your turn" wherever the player is, on both game pages, so nobody misses a move. A page add-on: it never
// touches the game's page script; it listens to the "match:snapshot" events js/live.js dispatches on
// `document` (detail {snapshot, previous}) and decides from the snapshot alone: the match is running, the
// viewer has a seat (`you`) and is among `current_players` with legal actions to choose from.
//
// While it is your turn: the tab's title starts with "(●) Your turn — " and the favicon wears a red dot.
// When it becomes your turn: a short sound (setting `sound`), and a browser notification when the tab is
// hidden (setting `browser_notifications`, with the browser's permission). The game page offers
// notifications once, the first time it is your turn (setting `notifications_asked`); the settings page
// (/accounts/settings/) changes them any time. Low time: under a live clock, a warning when yours runs
// low, and a tick each second of the last ten with sound on (setting `low_time_warning`).
// Settings come from GET /api/me/settings/, read when the first snapshot arrives (only on game pages).
// On every page the header's "My games" link shows how many games wait for your move (GET /api/me/turns/,
// once a minute while the tab is visible, or at once when another script dispatches "turns:count").
import { api } from "./api.js";
import { clockText } from "./clock.js";
import { _, fmt, ngettext } from "./i18n.js";

// The dot marks the title in every language; the words follow the page's language.
export const TITLE_PREFIX = `(●) ${_("Your turn")} — `;
const LOW_TIME_MAX_MS = 30000; // warn at 20% of the time per turn, between 5 and 30 seconds
const LOW_TIME_MIN_MS = 5000;
const LOW_TIME_FRACTION = 0.2;
const TICK_UNDER_MS = 10000;
const LIVE_PER_MOVE_MAX_S = 3600; // a per-move clock of an hour or more is correspondence: no warnings
const DEFAULTS = { browser_notifications: false, notifications_asked: true, sound: false, low_time_warning: true };

let settings = null;
let settingsLoading = null;
let yourTurn = false;
let lastSnapshot = null;
let receivedAt = 0;
let lowTimer = null;
let lowShown = false;
let lastTick = null;
let badgeIcon = null;
let audio = null;

/** Whether this snapshot waits for the viewer: a running match, a seat, among the players to act. */
export function isYourTurn(snapshot) {
  if (!snapshot || snapshot.status !== "active") return false;
  const you = snapshot.you;
  if (you === null || you === undefined || !Array.isArray(snapshot.current_players)) return false;
  if (!snapshot.current_players.includes(you)) return false;
  return !Array.isArray(snapshot.legal_actions) || snapshot.legal_actions.length > 0;
}

function loadSettings() {
  if (!settingsLoading) {
    settingsLoading = api("/api/me/settings/")
      .then((data) => (settings = { ...DEFAULTS, ...data }))
      .catch(() => (settings = { ...DEFAULTS }));
  }
  return settingsLoading;
}

function saveSettings(changes) {
  settings = { ...(settings || DEFAULTS), ...changes };
  return api("/api/me/settings/", { method: "PATCH", body: changes }).catch(() => {});
}

// ---------- title and favicon ----------

function baseTitle() {
  const title = document.title;
  return title.startsWith(TITLE_PREFIX) ? title.slice(TITLE_PREFIX.length) : title;
}

function showTitle(on) {
  const base = baseTitle();
  const wanted = on ? TITLE_PREFIX + base : base;
  if (document.title !== wanted) document.title = wanted;
}

function iconLink() {
  return document.querySelector('link[rel="icon"]');
}

const plainIcon = iconLink() ? iconLink().getAttribute("href") : null;

async function badgeIconUrl() {
  if (badgeIcon || !plainIcon) return badgeIcon;
  try {
    const svg = await (await fetch(plainIcon, { credentials: "same-origin" })).text();
    if (!svg.includes("</svg>")) return null;
    const dot = '<circle cx="25" cy="7" r="6.5" fill="#cf222e" stroke="#ffffff" stroke-width="2"/>';
    badgeIcon = `data:image/svg+xml,${encodeURIComponent(svg.replace("</svg>", `${dot}</svg>`))}`;
  } catch {
    badgeIcon = null;
  }
  return badgeIcon;
}

async function showIcon(on) {
  const link = iconLink();
  if (!link || !plainIcon) return;
  const href = on ? await badgeIconUrl() : plainIcon;
  if (href && yourTurn === on) {
    link.dataset.plainHref = plainIcon; // the page's own icon, under the dot
    link.setAttribute("href", href);
    link.dataset.yourTurn = on ? "1" : "0";
  }
}

// ---------- sound ----------

function audioContext() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!audio) audio = new Ctx();
  return audio;
}

/** A short sine beep (WebAudio: no sound file). Browsers play it only after the page had a click or key. */
function beep({ frequency = 880, ms = 120, volume = 0.08, delay = 0 } = {}) {
  const ctx = audioContext();
  if (!ctx || ctx.state !== "running") return;
  const start = ctx.currentTime + delay / 1000;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = "sine";
  osc.frequency.value = frequency;
  gain.gain.setValueAtTime(volume, start);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + ms / 1000);
  osc.connect(gain).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + ms / 1000 + 0.02);
}

function unlockAudio() {
  const ctx = audioContext();
  if (ctx && ctx.state === "suspended") ctx.resume().catch(() => {});
}

// ---------- notifications ----------

function gameName(snapshot) {
  return baseTitle().split(" · ")[0] || fmt(_("Match #%(id)s"), { id: snapshot.id });
}

function notify(snapshot) {
  if (!settings || !settings.browser_notifications || !("Notification" in window)) return;
  if (Notification.permission !== "granted" || !document.hidden) return;
  const others = (snapshot.seats || []).filter((s) => !s.is_you).map((s) => s.name);
  try {
    const note = new Notification(fmt(_("Your turn — %(game)s"), { game: gameName(snapshot) }), {
      body: others.length ? fmt(ngettext("%(players)s is waiting for you.", "%(players)s are waiting for you.", others.length), { players: others.join(", ") }) : "",
      tag: `match-${snapshot.id}`,
      icon: plainIcon || undefined,
    });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  } catch {
    // Some browsers (Android Chrome) allow notifications only from a service worker: the title still shows it.
  }
}

/** The one-time offer of browser notifications, inline at the top of the page (never over the board). */
function offerNotifications() {
  if (!settings || settings.notifications_asked || !("Notification" in window)) return;
  if (Notification.permission !== "default" || document.getElementById("yt-offer")) return;
  // A browser driven by automation (WebDriver, Playwright: navigator.webdriver) has nobody to answer the
  // question, and the bar would move the page under its clicks: offered to people only.
  if (navigator.webdriver) return;
  const main = document.getElementById("main") || document.body;
  const box = document.createElement("div");
  box.id = "yt-offer";
  box.className = "yt-offer";
  box.setAttribute("role", "region");
  box.setAttribute("aria-label", _("Turn notifications"));
  box.dataset.testid = "notify-offer";
  const text = document.createElement("p");
  text.textContent = _("Get a browser notification when it is your turn and this tab is hidden?");
  const yes = document.createElement("button");
  yes.type = "button";
  yes.className = "button button-small";
  yes.textContent = _("Turn on notifications");
  const no = document.createElement("button");
  no.type = "button";
  no.className = "button button-small button-secondary";
  no.textContent = _("Not now");
  yes.addEventListener("click", async () => {
    box.remove();
    let permission = "denied";
    try {
      permission = await Notification.requestPermission(); // inside the click: browsers require a gesture
    } catch {
      permission = "denied";
    }
    saveSettings({ notifications_asked: true, browser_notifications: permission === "granted" });
  });
  no.addEventListener("click", () => {
    box.remove();
    saveSettings({ notifications_asked: true });
  });
  box.append(text, yes, no);
  main.prepend(box);
}

// ---------- low time ----------

function mySeat(snapshot) {
  return (snapshot && (snapshot.seats || []).find((s) => s.is_you)) || null;
}

/** The warning threshold of a live clock (ms), or null for correspondence and unknown controls. */
export function lowTimeThreshold(timeControl) {
  const tc = timeControl || {};
  let turnMs;
  if (tc.per_move_s !== undefined && tc.per_move_s !== null) {
    if (tc.per_move_s >= LIVE_PER_MOVE_MAX_S && !tc.bank_s) return null;
    turnMs = 1000 * tc.per_move_s;
  } else {
    turnMs = 1000 * (tc.initial_s || 300);
  }
  return Math.max(LOW_TIME_MIN_MS, Math.min(LOW_TIME_MAX_MS, LOW_TIME_FRACTION * turnMs));
}

function lowTimeNode() {
  let node = document.getElementById("yt-low-time");
  if (!node) {
    node = document.createElement("div");
    node.id = "yt-low-time";
    node.className = "yt-low-time";
    node.setAttribute("role", "status");
    node.dataset.testid = "low-time";
    node.hidden = true;
    document.body.append(node);
  }
  return node;
}

function stopLowTime() {
  if (lowTimer) clearInterval(lowTimer);
  lowTimer = null;
  lowShown = false;
  lastTick = null;
  const node = document.getElementById("yt-low-time");
  if (node) node.hidden = true;
}

function checkLowTime() {
  const seat = mySeat(lastSnapshot);
  const threshold = lastSnapshot ? lowTimeThreshold(lastSnapshot.time_control) : null;
  if (!yourTurn || !seat || !seat.running || threshold === null || (settings && !settings.low_time_warning)) {
    stopLowTime();
    return;
  }
  const left = seat.clock_ms - (Date.now() - receivedAt);
  const node = lowTimeNode();
  if (left > threshold) {
    node.hidden = true;
    lowShown = false;
    return;
  }
  node.textContent = fmt(_("Low time: %(time)s left"), { time: clockText(left) });
  if (!lowShown) {
    lowShown = true;
    node.hidden = false;
    if (settings && settings.sound) beep({ frequency: 660, ms: 180 });
  }
  const second = Math.ceil(left / 1000);
  if (settings && settings.sound && left > 0 && left <= TICK_UNDER_MS && second !== lastTick) {
    lastTick = second;
    beep({ frequency: 1200, ms: 40, volume: 0.05 });
  }
}

function watchLowTime() {
  checkLowTime();
  if (!lowTimer && yourTurn) lowTimer = setInterval(checkLowTime, 250);
}

// ---------- the header's badge: games waiting for you, on every page ----------

const TURNS_EVERY_MS = 60000;
let turnsTimer = null;
let turnsAt = 0;

async function refreshTurns() {
  if (!document.querySelector("[data-testid=nav-my-games]")) return;
  turnsAt = Date.now();
  let count = 0;
  try {
    count = (await api("/api/me/turns/")).count || 0;
  } catch {
    return;
  }
  showTurns(count);
}

/** The header's badge shows `count` games waiting for your move (none: no badge). */
function showTurns(count) {
  const link = document.querySelector("[data-testid=nav-my-games]");
  if (!link) return;
  // The link's badge, and one on the phone layout's menu button (which hides the links).
  const toggle = document.querySelector(".nav-toggle-label");
  for (const [holder, testid] of [[link, "nav-turns"], [toggle, "nav-turns-menu"]]) {
    if (!holder) continue;
    let badge = holder.querySelector(".nav-badge");
    if (!count) {
      if (badge) badge.remove();
      continue;
    }
    if (!badge) {
      badge = document.createElement("span");
      badge.className = "nav-badge";
      badge.dataset.testid = testid;
      // the link's name says the count and begins with the visible "My games 3" (WCAG 2.5.3: label in name)
      badge.setAttribute("aria-hidden", "true");
      if (!/\s$/.test(holder.textContent)) holder.append(" ");
      holder.append(badge);
    }
    badge.textContent = String(count);
  }
  link.dataset.turns = String(count);
  if (count) link.setAttribute("aria-label", fmt(ngettext("My games: %(count)s waiting for your move", "My games: %(count)s waiting for your move", count), { count }));
  else link.removeAttribute("aria-label");
}

/** Refresh the badge after `delay` ms, then once a minute while the tab shows (`force`: hidden or not). */
function scheduleTurns(delay = 0, force = false) {
  if (turnsTimer) clearTimeout(turnsTimer);
  turnsTimer = setTimeout(async () => {
    if (force || !document.hidden) await refreshTurns();
    scheduleTurns(TURNS_EVERY_MS);
  }, delay);
}

// ---------- the snapshot ----------

async function onSnapshot(event) {
  const snapshot = event.detail && event.detail.snapshot;
  if (!snapshot || snapshot.you === null || snapshot.you === undefined) return; // spectators: nothing
  lastSnapshot = snapshot;
  receivedAt = Date.now();
  const was = yourTurn;
  yourTurn = isYourTurn(snapshot);
  showTitle(yourTurn);
  document.documentElement.dataset.yourTurn = yourTurn ? "1" : "0";
  showIcon(yourTurn);
  await loadSettings();
  if (yourTurn !== was) scheduleTurns(500, true); // this game joined or left the waiting ones
  if (yourTurn && !was) {
    if (event.detail.previous) {
      // It became your turn while the page was open (not the page's first look at the match).
      if (settings.sound) {
        beep({ frequency: 660 });
        beep({ frequency: 990, delay: 140 });
      }
      notify(snapshot);
    }
    offerNotifications();
  }
  watchLowTime();
}

// Another page script that asked /api/me/turns/ itself (js/my_games.js) shares the answer: the badge
// follows the page's lists at once instead of at its own next minute.
document.addEventListener("turns:count", (event) => {
  const count = event.detail && event.detail.count;
  if (!Number.isInteger(count) || count < 0) return;
  turnsAt = Date.now();
  showTurns(count);
});
document.addEventListener("match:snapshot", (event) => {
  onSnapshot(event).catch(() => {});
});
// Browsers start audio only after a gesture on the page: the first click or key unlocks the beeps.
document.addEventListener("pointerdown", unlockAudio, { once: true, capture: true });
document.addEventListener("keydown", unlockAudio, { once: true, capture: true });
// A hidden tab may have throttled the timers: refresh the title and warning when it shows again.
document.addEventListener("visibilitychange", () => {
  if (lastSnapshot) {
    showTitle(yourTurn);
    checkLowTime();
  }
  if (!document.hidden && Date.now() - turnsAt > TURNS_EVERY_MS) scheduleTurns(0);
});
// The page came with the badge (base.html's `data-turns`, counted when the server drew it): the first
// read is a minute on. A page without it reads once it has loaded what it needs itself.
const TURNS_FIRST_MS = 1000;
const served = document.querySelector("[data-testid=nav-my-games][data-turns]");
if (served) turnsAt = Date.now();
const firstRead = served ? TURNS_EVERY_MS : TURNS_FIRST_MS;
if (document.readyState === "complete") scheduleTurns(firstRead);
else window.addEventListener("load", () => scheduleTurns(firstRead), { once: true });
// Back or forward to a page the browser kept whole: its badge is as old as the page, read it again.
window.addEventListener("pageshow", (event) => {
  if (event.persisted) scheduleTurns(0);
});
