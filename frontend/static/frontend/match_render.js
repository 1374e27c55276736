// Rendering of one viewer's game view (shared by the live match page and the replay page).
// Commandeer views get a 6×6 board, zones and hand; other game kinds fall back to a JSON view.
import { h } from "./js/dom.js";

const FILES = "abcdef";
const ROTATE = { N: "S", NE: "SW", E: "W", SE: "NW", S: "N", SW: "NE", W: "E", NW: "SE" };
const ARROW = { N: "↑", NE: "↗", E: "→", SE: "↘", S: "↓", SW: "↙", W: "←", NW: "↖" };

const k = (n) => (n === null || n === undefined ? "–" : n >= 1000 && n % 100 === 0 ? `${n / 1000}k` : String(n));

/** Who sits at the bottom of the board: the viewer, or the first player for spectators (C-2.1). */
export function bottomPlayer(view, viewer) {
  if (viewer === 0 || viewer === 1) return viewer;
  return view.first_player ?? 0;
}

function squareOrder(view, viewer) {
  // rank 1 is the first player's side (C-2.1); the bottom player sees their own side below
  const first = view.first_player ?? 0;
  const flip = bottomPlayer(view, viewer) !== first;
  const rows = [];
  for (let r = 6; r >= 1; r--) {
    const row = [];
    for (let f = 0; f < 6; f++) row.push(`${FILES[f]}${r}`);
    rows.push(row);
  }
  if (flip) return rows.reverse().map((row) => row.reverse());
  return rows;
}

function cardChip(ref, view, { zone = "", owner = null } = {}) {
  const facts = (view.catalog || {})[ref.card] || {};
  const chip = h("span", {
    class: `chip chip-${facts.type || "card"}`,
    "data-token": ref.id !== undefined ? `c:${ref.id}` : null,
    "data-testid": zone ? `${zone}-card` : null,
    title: facts.rules_text || ref.card,
  }, ref.card || "?");
  if (owner !== null) chip.dataset.owner = owner;
  return chip;
}

function handCard(ref, view) {
  const f = (view.catalog || {})[ref.card] || {};
  const arrows = (f.arrows || []).map((a) => ARROW[a]).join("");
  return h("div", { class: `hand-card hand-${f.type || "card"}`, "data-token": `c:${ref.id}`, "data-testid": "hand-card", "data-name": ref.card },
    h("div", { class: "hc-name" }, ref.card),
    h("div", { class: "hc-costs" }, `CP ${f.command_cost ?? "?"} · En ${f.energy_cost ?? 0}`),
    f.type === "unit" ? h("div", { class: "hc-stats" }, `${k(f.power)} / ${k(f.health)} ${arrows}`) : h("div", { class: "hc-stats" }, f.event_type || "event"),
  );
}

function zoneLine(label, cards, view, zone, owner) {
  const list = h("span", { class: "zone-cards" }, cards.map((c) => cardChip(c, view, { zone, owner })));
  return h("details", { class: "zone", "data-testid": `zone-${zone}-${owner}` },
    h("summary", {}, `${label} `, h("b", { "data-testid": `count-${zone}-${owner}` }, String(cards.length))), list);
}

function sidePanel(view, p, names, viewer) {
  const side = view.players[p];
  const cmd = side.commander;
  let cmdNode;
  if (!cmd) cmdNode = h("span", { class: "muted" }, "none");
  else if (cmd.face_down) cmdNode = h("span", { class: "muted" }, "face down");
  else cmdNode = cardChip(cmd, view, { zone: "commander", owner: p });
  return h("div", { class: `side-panel owner-${p}`, "data-testid": `side-${p}` },
    h("div", { class: "side-name" }, names[p] || `Player ${p + 1}`, p === viewer ? " (you)" : ""),
    h("div", { class: "side-stats" },
      h("span", {}, "CP ", h("b", { "data-testid": `cp-${p}` }, String(side.cp))),
      h("span", {}, "Hand ", h("b", { "data-testid": `hand-count-${p}` }, String(side.hand_count))),
      h("span", {}, "Deck ", h("b", {}, String(side.deck_count))),
      h("span", {}, "Commander ", cmdNode)),
    h("div", { class: "zones" },
      zoneLine("Energy", side.energy, view, "energy", p),
      zoneLine("Retired", side.retired, view, "retired", p),
      zoneLine("Defeated", side.defeated, view, "defeated", p),
      zoneLine("Removed", side.removed, view, "removed", p)),
  );
}

function unitNode(u, view, viewer) {
  const rotate = bottomPlayer(view, viewer) !== (view.first_player ?? 0);
  const arrows = (u.arrows || []).map((a) => h("span", { class: `arrow arrow-${rotate ? ROTATE[a] : a}` }, ARROW[rotate ? ROTATE[a] : a]));
  const left = (u.health ?? 0) - (u.damage ?? 0);
  return h("div", { class: `unit owner-${u.owner}${u.attacked ? " attacked" : ""}`, "data-token": `c:${u.id}`, "data-testid": "unit", "data-name": u.card, "data-owner": u.owner },
    h("div", { class: "unit-name" }, u.card),
    h("div", { class: "unit-stats" }, h("span", { title: "Power" }, `⚔${k(u.power)}`), " ", h("span", { title: "Health left / Health", "data-testid": "unit-health" }, `♥${k(left)}/${k(u.health)}`)),
    u.damage ? h("div", { class: "unit-damage", "data-testid": "unit-damage" }, `−${k(u.damage)}`) : null,
    h("div", { class: "arrows" }, arrows),
  );
}

/** Render a view into the page's table elements; returns nothing. `names` maps seat -> display name. */
export function renderView(root, view, viewer, names) {
  const $ = (id) => root.querySelector(`#${id}`);
  const generic = $("generic-view");
  if (!view || view.format !== "commandeer-view") {
    for (const id of ["board", "side-top", "side-bottom", "hand"]) $(id).replaceChildren();
    generic.hidden = false;
    generic.textContent = JSON.stringify(view, null, 2);
    if ($("turn")) $("turn").textContent = view && view.turn !== undefined ? String(view.turn) : "";
    return;
  }
  generic.hidden = true;
  $("turn").textContent = String(view.turn);
  $("phase").textContent = `${view.phase}${view.step !== view.phase ? ` (${view.step.replace("_", " ")})` : ""}`;
  const bottom = bottomPlayer(view, viewer);
  const top = 1 - bottom;
  $("side-top").replaceChildren(sidePanel(view, top, names, viewer));
  $("side-bottom").replaceChildren(sidePanel(view, bottom, names, viewer));
  const units = {};
  for (const u of view.board) units[u.square] = u;
  const board = $("board");
  board.replaceChildren();
  for (const row of squareOrder(view, viewer)) {
    for (const sq of row) {
      const cell = h("div", { class: "square", "data-square": sq, "data-token": `s:${sq}`, "data-testid": `square-${sq}` },
        h("span", { class: "sq-name" }, sq));
      if (units[sq]) cell.append(unitNode(units[sq], view, viewer));
      board.append(cell);
    }
  }
  const hand = $("hand");
  hand.replaceChildren();
  const mine = viewer === 0 || viewer === 1 ? view.players[viewer] : null;
  if (mine && mine.hand) {
    hand.append(h("h3", {}, `Your hand (${mine.hand.length})`));
    hand.append(h("div", { class: "hand-cards" }, mine.hand.map((c) => handCard(c, view))));
  }
}

export function outcomeText(match) {
  const r = match.result;
  if (!r) return "";
  if (match.status === "aborted") return `Aborted — ${r.text || r.reason}`;
  const who = r.winner === null || r.winner === undefined ? "Draw" : `${r.winner_name || `Player ${r.winner + 1}`} wins`;
  return `${who} — ${r.text || r.reason}`;
}
