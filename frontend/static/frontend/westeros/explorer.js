// Map explorer: the whole board; clicking an area shows its facts and neighbours (W-1.2, W-10).
import { h } from "../js/dom.js";
import { _, fmt } from "../js/i18n.js";
import { HOUSES, WesterosMap, humanize, unitName } from "./map.js";

const mapData = JSON.parse(document.getElementById("wx-map-data").textContent);
const board = JSON.parse(document.getElementById("wx-board-data").textContent);
const byId = Object.fromEntries(mapData.areas.map((a) => [a.id, a]));
const $ = (id) => document.getElementById(id);

// Choosing a player count reloads the page with that set-up (the form's GET).
$("wx-players")?.addEventListener("change", (event) => event.target.form.submit());

const map = new WesterosMap($("wx-board"), mapData, { onSelect: (id) => show(id) });
if (board) map.setView(board);
$("wx-board").wxMap = map; // for tests and the console

function chip(id) {
  const a = byId[id];
  return h("li", {}, h("button", {
    type: "button", class: "wx-chip", "data-kind": a ? a.kind : "", "data-neighbour": id,
    onclick: () => flash(id), onmouseenter: () => map.mark("flash", [id]), onmouseleave: () => map.mark("flash", []),
    ondblclick: () => goTo(id),
  }, a ? a.name : humanize(id)));
}

function flash(id) {
  map.mark("flash", []);
  requestAnimationFrame(() => map.mark("flash", [id]));
  const node = map.svg.querySelector(`[data-area-id="${CSS.escape(id)}"]`);
  if (node && node.getBoundingClientRect().bottom > window.innerHeight) node.scrollIntoView({ block: "center", behavior: "smooth" });
}

function goTo(id) {
  map.select(id);
  show(id);
  const node = map.svg.querySelector(`[data-area-id="${CSS.escape(id)}"]`);
  if (node) node.focus({ preventScroll: false });
}

function houseChip(house) {
  const c = HOUSES[house] || {};
  return h("span", { class: "wx-house", style: { "--house": c.fill, "--house-edge": c.stroke } }, c.name || humanize(house));
}

function boardFacts(id) {
  if (!board) return [];
  const out = [];
  const u = (board.units || {})[id];
  if (u) out.push([_("Units"), h("span", {}, houseChip(u.house), " ", [...u.units, ...(u.routed || [])].map(unitName).join(_(", ")))]);
  if ((board.garrisons || {})[id]) out.push([_("Garrison"), fmt(_("strength %(strength)s"), { strength: board.garrisons[id] })]);
  if ((board.neutral || {})[id] !== undefined) out.push([_("Neutral force"), fmt(_("strength %(strength)s"), { strength: board.neutral[id] })]);
  if ((board.impassable || []).includes(id)) out.push([_("Impassable"), _("no unit may enter (W-2.4)")]);
  return out;
}

function show(id) {
  const a = byId[id];
  if (!a) return;
  document.body.dataset.selectedArea = id;
  $("wx-area-name").textContent = a.name;
  $("wx-area-hint").hidden = true;
  const castle = a.castle === "stronghold" ? _("Stronghold (2 mustering points)") : a.castle === "castle" ? _("Castle (1 mustering point)") : _("None");
  const kinds = { land: _("land"), sea: _("sea"), port: _("port") };
  const facts = [[_("Kind"), h("span", { class: "wx-kind", "data-kind": a.kind }, kinds[a.kind] || a.kind)]];
  if (a.kind === "land") {
    facts.push([_("Castle"), castle], [_("Supply"), String(a.supply)], [_("Power crowns"), String(a.crowns)]);
    if (a.home_house) facts.push([_("Home of"), houseChip(a.home_house)]);
    if (a.island) facts.push([_("Island"), _("yes")]);
    if (a.port) facts.push([_("Port"), h("button", { type: "button", class: "wx-chip", "data-kind": "port", onclick: () => goTo(a.port) }, byId[a.port] ? byId[a.port].name : humanize(a.port))]);
  }
  if (a.kind === "port") {
    facts.push([_("Port of"), h("button", { type: "button", class: "wx-chip", onclick: () => goTo(a.land_area) }, byId[a.land_area].name)]);
    facts.push([_("Opens onto"), h("button", { type: "button", class: "wx-chip", "data-kind": "sea", onclick: () => goTo(a.sea_area) }, byId[a.sea_area].name)]);
    facts.push([_("Ships"), fmt(_("at most %(count)s (W-10.4)"), { count: a.max_ships })]);
  }
  facts.push(...boardFacts(id));
  const neighbours = [...a.neighbours].sort((x, y) => (byId[x]?.name || x).localeCompare(byId[y]?.name || y));
  $("wx-area-body").replaceChildren(
    h("dl", { class: "wx-facts", "data-testid": "area-facts" }, facts.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)])),
    h("h3", {}, fmt(_("Neighbours (%(count)s)"), { count: neighbours.length })),
    h("ul", { class: "wx-chips", "data-testid": "neighbours" }, neighbours.map(chip)),
    h("p", { class: "wx-hint" }, _("Click a neighbour to find it on the map; double-click to open it.")),
  );
  map.mark("neighbour", neighbours);
}

for (const node of document.querySelectorAll("[data-goto]")) node.addEventListener("click", () => goTo(node.dataset.goto));

if (board) {
  $("wx-setup-houses").replaceChildren(...board.houses.map((house) => h("li", {}, houseChip(house),
    h("span", { class: "muted" }, " ", fmt(_("%(power)s power, supply %(supply)s"), { power: board.power[house], supply: board.supply[house] })))));
}

const start = new URLSearchParams(location.search).get("area") || location.hash.slice(1);
if (start && byId[start]) goTo(start);
