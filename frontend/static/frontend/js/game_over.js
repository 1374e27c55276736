// The end-of-game summary of a match page (partial matches/_game_over.html), for both games. It listens
// to "match:snapshot" (js/live.js): once the match has ended it shows a "Summary" button, reads
// GET /api/matches/<id>/summary/ and opens the summary by itself once per match (this browser), at the
// end seen live or on the first visit after it. The summary is a non-modal dialog shown in the page's
// flow (closable with its ✕ or Escape), so the Rematch button, the log and the replay link stay usable
// beside it. Nothing here computes a result: the server's summary says who won, why, how long each
// player took and what changed in the ratings.
import { api } from "./api.js";
import { h } from "./dom.js";
import { _, fmt, language, ngettext } from "./i18n.js";

const ENDED = new Set(["finished", "aborted"]);
const HOUSE_COLOURS = {
  stark: "#6c7a89", lannister: "#b3261e", baratheon: "#c9a227",
  greyjoy: "#2f3b45", tyrell: "#2e7d32", martell: "#e07b00",
};

const bar = document.getElementById("game-over-bar");
const dialog = document.getElementById("game-over");
const body = document.getElementById("game-over-body");
const title = document.getElementById("game-over-title");
let summary = null;
let loading = null;
let you = null;

function shownKey(id) {
  return `game-over-shown:${id}`;
}

function clock(ms) {
  const s = Math.round((ms || 0) / 1000);
  const hours = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

const HOUSE_NAMES = {
  stark: _("Stark"), lannister: _("Lannister"), baratheon: _("Baratheon"), greyjoy: _("Greyjoy"), tyrell: _("Tyrell"), martell: _("Martell"),
};

function title_(name) {
  return HOUSE_NAMES[name] || (name ? name.charAt(0).toUpperCase() + name.slice(1) : "");
}

/** A finishing place: "2nd" in English, "อันดับที่ 2", "第 2 名" (each language its own way). */
function ordinal(n) {
  if (language === "en" || !language) {
    const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
    return `${n}${tail}`;
  }
  return fmt(_("place %(place)s"), { place: n });
}

function label(p) {
  // "Lannister (alice)"; an AI seat's house alone ("AI (easy)" stands in the table below, not nested here)
  if (!(p.facts && p.facts.house)) return p.name;
  return p.username ? fmt(_("%(house)s (%(player)s)"), { house: title_(p.facts.house), player: p.name }) : title_(p.facts.house);
}

function playerName(p) {
  const who = p.username ? h("a", { href: `/players/${encodeURIComponent(p.username)}/` }, p.name) : p.name;
  if (!(p.facts && p.facts.house)) return who;
  return [h("b", {}, title_(p.facts.house)), h("br"), h("span", { class: "go-small" }, who)];
}

function headline(s) {
  if (s.status === "aborted") return _("Match aborted");
  const winner = s.players.find((p) => p.position === s.winner);
  const me = s.players.find((p) => p.position === you);
  if (!winner) return me && me.place ? fmt(_("No winner — you share %(place)s place"), { place: ordinal(me.place) }) : _("No winner");
  if (me && winner.position === you) return _("You won!");
  if (me && s.players.length > 2 && me.place) return fmt(_("You finished %(place)s — %(winner)s wins"), { place: ordinal(me.place), winner: label(winner) });
  if (me) return fmt(_("You lost — %(winner)s wins"), { winner: label(winner) });
  return fmt(_("%(winner)s wins"), { winner: label(winner) });
}

function factCells(s, p) {
  if (s.kind === "westeros") return [h("td", {}, String(p.facts.castles ?? "–")), h("td", {}, String(p.facts.supply ?? "–"))];
  return [h("td", {}, p.facts.defeated === undefined ? "–" : `${p.facts.defeated} / 6`)];
}

function factHeads(s) {
  if (s.kind === "westeros") return [h("th", { scope: "col" }, _("Castles")), h("th", { scope: "col" }, _("Supply"))];
  return [h("th", { scope: "col", title: _("Own cards in the Defeated zone (six lose, C-6.1)") }, _("Defeated"))];
}

function byPlace(s) {
  return [...s.players].sort((x, y) => (x.place ?? 99) - (y.place ?? 99) || x.position - y.position);
}

function playersTable(s) {
  return h("div", { class: "go-table-wrap" },
    h("table", { class: "go-table", "data-testid": "summary-players" },
      h("caption", { class: "sr-only" }, _("Players")),
      h("thead", {}, h("tr", {}, s.players.length > 2 ? h("th", { scope: "col" }, "#") : null,
        h("th", { scope: "col" }, _("Player")), h("th", { scope: "col", title: _("Time spent deciding, as the clock counts it") }, _("Time")),
        h("th", { scope: "col", class: "go-wide" }, _("Moves")), factHeads(s))),
      h("tbody", {}, byPlace(s).map((p) => h("tr", { class: p.position === you ? "go-you" : null },
        s.players.length > 2 ? h("td", {}, p.place ? String(p.place) : "–") : null,
        h("th", { scope: "row" }, playerName(p), p.position === s.winner ? h("span", { class: "go-crown", title: _("Winner") }, " ★") : null),
        h("td", { "data-testid": "time-used" }, clock(p.time_used_ms)),
        h("td", { class: "go-wide" }, String(p.moves)),
        factCells(s, p))))));
}

function roundsTable(s, fact, label) {
  const cols = s.rounds;
  return h("div", { class: "go-table-wrap" },
    h("table", { class: "go-table go-rounds", "data-testid": `summary-${fact}` },
      h("caption", {}, label),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, _("House")),
        cols.map((r) => h("th", { scope: "col" }, r.round === "final" ? _("End") : fmt(_("R%(round)s"), { round: r.round }))))),
      h("tbody", {}, s.players.map((p) => h("tr", {},
        h("th", { scope: "row" }, h("span", { class: "go-swatch", style: { "--house": HOUSE_COLOURS[p.facts.house] || "#888" } }), title_(p.facts.house)),
        cols.map((r) => {
          const v = (r.seats[String(p.position)] || {})[fact];
          return h("td", {}, v === undefined ? "–" : String(v));
        }))))));
}

function castleChart(s) {
  // Castles per house over the rounds as small SVG lines (W-18: seven win at once).
  const cols = s.rounds;
  if (cols.length < 2) return null;
  const W = 320, H = 120, P = 14;
  const x = (i) => P + ((W - 2 * P) * i) / (cols.length - 1);
  const y = (v) => H - P - ((H - 2 * P) * Math.min(v, 7)) / 7;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "go-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", _("Castles held by each house, round by round (the table below has the numbers)"));
  const seven = document.createElementNS(ns, "line");
  Object.entries({ x1: P, x2: W - P, y1: y(7), y2: y(7), class: "go-seven" }).forEach(([k, v]) => seven.setAttribute(k, v));
  svg.append(seven);
  for (const p of s.players) {
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", cols.map((r, i) => `${x(i)},${y((r.seats[String(p.position)] || {}).castles || 0)}`).join(" "));
    line.setAttribute("class", "go-line");
    line.style.stroke = HOUSE_COLOURS[p.facts.house] || "#888";
    svg.append(line);
  }
  return svg;
}

function ratingsList(s) {
  if (!s.ratings.length) return s.rated ? h("p", { class: "muted" }, _("This rated match changed no rating (it did not count).")) : null;
  return h("section", { class: "go-ratings", "data-testid": "summary-ratings" },
    h("h3", {}, _("Ratings")),
    h("ul", {}, s.ratings.map((r) => h("li", { class: r.position === you ? "go-you" : null },
      h("a", { href: `/players/${encodeURIComponent(r.username)}/` }, r.username), " ",
      `${r.before} → ${r.after} `,
      h("span", { class: r.delta >= 0 ? "go-up" : "go-down" }, `(${r.delta >= 0 ? "+" : ""}${r.delta})`)))));
}

function render(s) {
  title.textContent = headline(s);
  const facts = [
    s.reason_text ? h("p", { class: "go-reason", "data-testid": "summary-reason" }, s.reason_text) : null,
    h("p", { class: "muted", "data-testid": "summary-turns" },
      fmt(s.turns_label === "rounds" ? ngettext("%(count)s round", "%(count)s rounds", s.turns) : ngettext("%(count)s turn", "%(count)s turns", s.turns), { count: s.turns }),
      s.duration_ms ? ` · ${fmt(_("%(time)s in all"), { time: clock(s.duration_ms) })}` : "",
      ` · ${s.rated ? _("rated") : _("unrated")}`),
  ];
  const westeros = s.kind === "westeros" && s.rounds.length;
  const parts = [
    ...facts,
    playersTable(s),
    westeros ? h("section", { class: "go-westeros" }, h("h3", {}, _("Castles over the rounds")), castleChart(s),
      roundsTable(s, "castles", _("Castles at the start of each round")), roundsTable(s, "supply", _("Supply at the start of each round"))) : null,
    ratingsList(s),
    h("p", { class: "go-links" }, h("a", { class: "button button-small button-secondary", href: s.replay_url, "data-testid": "summary-replay" }, _("Watch the replay"))),
  ];
  body.replaceChildren(...parts.filter(Boolean));
}

async function load(id) {
  if (summary || loading) return loading;
  loading = api(`/api/matches/${id}/summary/`)
    .then((data) => { summary = data; render(data); return data; })
    .catch((err) => {
      body.replaceChildren(h("p", { class: "form-error", role: "alert" }, fmt(_("The summary could not be loaded: %(message)s"), { message: err.message })));
      return null;
    })
    .finally(() => { loading = null; });
  return loading;
}

function open({ focus = false } = {}) {
  if (!dialog.open) {
    if (typeof dialog.show === "function") dialog.show();
    else dialog.setAttribute("open", "");
  }
  openButton.setAttribute("aria-expanded", "true");
  if (focus) {
    title.focus();
    dialog.scrollIntoView({ block: "nearest" });
  }
}

function close() {
  if (typeof dialog.close === "function") dialog.close();
  else dialog.removeAttribute("open");
  openButton.setAttribute("aria-expanded", "false");
  openButton.focus();
}

const openButton = document.getElementById("game-over-open");
openButton.addEventListener("click", async () => {
  if (dialog.open) {
    close();
    return;
  }
  open({ focus: true });
  if (!summary && bar.dataset.match) await load(bar.dataset.match);
});
document.getElementById("game-over-close").addEventListener("click", close);
dialog.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape") {
    ev.preventDefault();
    close();
  }
});

document.addEventListener("match:snapshot", async (ev) => {
  const snap = ev.detail && ev.detail.snapshot;
  if (!snap || !ENDED.has(snap.status) || !snap.seats || !snap.seats.length) return;
  if (snap.status === "aborted" && snap.result && snap.result.reason === "cancelled") return;
  you = typeof snap.you === "number" ? snap.you : null;
  bar.hidden = false;
  bar.dataset.match = snap.id;
  const data = await load(snap.id);
  let seen = false;
  try { seen = localStorage.getItem(shownKey(snap.id)) === "1"; } catch { /* storage off */ }
  if (data && !seen) {
    try { localStorage.setItem(shownKey(snap.id), "1"); } catch { /* storage off */ }
    open();
  }
});
