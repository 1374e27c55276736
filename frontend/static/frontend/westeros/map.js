// Westeros board renderer: draws the curated map (areas, icons, names) as one SVG and lays a game
// view on top (units, routed units, power tokens, orders, garrisons, neutral forces).
// Vanilla ES module, no build step. Map data = GET /api/westeros/map/ (viewbox, areas with x, y, outline).
// View = the engine's player_view (W-20: orders of other houses arrive without their token).

import { _, fmt, ngettext, pgettext, words } from "../js/i18n.js";

const NS = "http://www.w3.org/2000/svg";

/** House colours (fill, outline, text on the fill). */
export const HOUSES = {
  stark: { name: _("Stark"), fill: "#e9ecef", stroke: "#4d5a66", ink: "#1d2329" },
  lannister: { name: _("Lannister"), fill: "#b3262b", stroke: "#5e0f12", ink: "#ffffff" },
  baratheon: { name: _("Baratheon"), fill: "#f2c21b", stroke: "#6e5400", ink: "#2a2000" },
  greyjoy: { name: _("Greyjoy"), fill: "#1f1f1f", stroke: "#b8a46a", ink: "#f1e3b5" },
  tyrell: { name: _("Tyrell"), fill: "#3d8b37", stroke: "#173f14", ink: "#ffffff" },
  martell: { name: _("Martell"), fill: "#e3781c", stroke: "#6b3000", ink: "#ffffff" },
};
const NEUTRAL = { fill: "#8b8171", stroke: "#3b342a", ink: "#ffffff" };

/** "the_golden_sound" → "The Golden Sound" (fallback when no map name is known). */
export function humanize(id) {
  return String(id ?? "").replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}

const ORDER_R = 12.5; // an order token's drawn radius, in map units
const HIT_PX = 44; // the smallest tap target, in CSS pixels (WCAG 2.5.5)

/** Short face of an order token id, and whether it is special (★), W-1.6. */
export function orderFace(token) {
  const faces = {
    march_minus_one: ["march", "−1", false], march: ["march", "+0", false], march_plus_one: ["march", "+1", true],
    defense_plus_one: ["defense", "+1", false], defense_plus_two: ["defense", "+2", true],
    support: ["support", "+0", false], support_plus_one: ["support", "+1", true],
    raid: ["raid", "", false], raid_special: ["raid", "", true],
    consolidate_power: ["consolidate_power", "", false], consolidate_power_special: ["consolidate_power", "", true],
  };
  const [type, mod, special] = faces[token] || [String(token || "").split("_")[0], "", false];
  return { type, mod, special };
}

// The one letter (or character) on a face-up order token: the first of the order's name in the language.
const ORDER_LETTER = {
  march: pgettext("order token letter: March", "M"), defense: pgettext("order token letter: Defense", "D"),
  support: pgettext("order token letter: Support", "S"), raid: pgettext("order token letter: Raid", "R"),
  consolidate_power: pgettext("order token letter: Consolidate Power", "C"),
};
export const ORDER_NAMES = {
  march: _("March"), defense: _("Defense"), support: _("Support"), raid: _("Raid"), consolidate_power: _("Consolidate Power"),
};

/** The units of the game (W-1.3) in the viewer's language: a unit's name, and "2 footmen" counted. */
const UNIT_NAMES = { footman: _("footman"), knight: _("knight"), ship: _("ship"), siege_engine: _("siege engine") };

export function unitName(unit) {
  return UNIT_NAMES[unit] || humanize(unit).toLowerCase();
}

function unitCount(unit, count) {
  const forms = {
    footman: ngettext("%(count)s footman", "%(count)s footmen", count),
    knight: ngettext("%(count)s knight", "%(count)s knights", count),
    ship: ngettext("%(count)s ship", "%(count)s ships", count),
    siege_engine: ngettext("%(count)s siege engine", "%(count)s siege engines", count),
  };
  return forms[unit] ? fmt(forms[unit], { count }) : `${count} ${humanize(unit).toLowerCase()}`;
}

/** Order token in words: "March +1 ★". */
export function orderLabel(token) {
  const f = orderFace(token);
  return `${ORDER_NAMES[f.type] || humanize(f.type)}${f.mod ? " " + f.mod : ""}${f.special ? " ★" : ""}`;
}

/** ["footman", "footman", "knight"] → ["2 footmen", "1 knight"]. */
function countUnits(list) {
  const n = {};
  for (const u of list) n[u] = (n[u] || 0) + 1;
  return Object.entries(n).map(([u, k]) => unitCount(u, k));
}

/** The spoken name of an area with what stands in it (see `WesterosMap.nameAreas`). */
export function areaSpeech(a, view) {
  if (!a) return "";
  const kind = a.kind === "port" ? _("port") : a.kind === "sea" ? _("sea") : a.castle === "stronghold" ? _("stronghold") : a.castle === "castle" ? _("castle") : _("land");
  const parts = [];
  const group = view && (view.units || {})[a.id];
  if (group) {
    const name = (HOUSES[group.house] || {}).name || humanize(group.house);
    const units = [...countUnits(group.units), ...countUnits(group.routed || []).map((x) => fmt(_("%(units)s routed"), { units: x }))];
    parts.push(fmt(_("%(house)s: %(units)s"), { house: name, units: units.join(_(", ")) }));
  } else if (view && (view.control || {})[a.id]) {
    parts.push(fmt(_("controlled by %(house)s"), { house: (HOUSES[view.control[a.id]] || {}).name || humanize(view.control[a.id]) }));
  }
  parts.push(kind);
  const order = view && (view.orders || {})[a.id];
  if (order) parts.push(order[1] ? fmt(_("order %(order)s"), { order: orderLabel(order[1]) }) : _("order face down"));
  if (view && (view.garrisons || {})[a.id]) parts.push(fmt(_("garrison %(strength)s"), { strength: view.garrisons[a.id] }));
  if (view && (view.neutral || {})[a.id] !== undefined) parts.push(fmt(_("neutral force %(strength)s"), { strength: view.neutral[a.id] }));
  return fmt(_("%(area)s — %(facts)s"), { area: a.name, facts: parts.join(_("; ")) });
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c) node.append(c);
  return node;
}

function title(text) {
  return svg("title", { text });
}

const points = (outline) => outline.map(([x, y]) => `${x},${y}`).join(" ");

// ---- glyphs (symbols in a 20×20 box centred on 0,0) ----------------------------------------------------
const GLYPHS = {
  footman: '<circle cx="0" cy="-5" r="3.8"/><path d="M-6,8 L-4.2,0.5 Q0,-2.2 4.2,0.5 L6,8 Z"/>',
  knight:
    '<path d="M-6.5,8.5 L-5,2.5 Q-7.5,-2 -3,-5.5 L-2.5,-9.5 L0.2,-6.8 Q6,-7.5 8,-0.5 L6.2,1.6 L2.8,-0.6 Q1.5,3.5 4.5,8.5 Z"/>',
  ship: '<path d="M-9.5,1.5 L9.5,1.5 L6.5,7.5 L-6.5,7.5 Z"/><path d="M-0.8,0.5 L-0.8,-9.5 L7.5,0.5 Z"/><path d="M-2.2,0.5 L-2.2,-7 L-7.5,0.5 Z"/>',
  siege_engine:
    '<path d="M-8,5 L0,-7 L8,5 Z M-3.5,2.5 L3.5,2.5 L0,-2.8 Z" fill-rule="evenodd"/><path d="M-1,-7 L9,-10 L9.6,-8.6 L0,-5.2 Z"/><circle cx="-5" cy="7" r="2.6"/><circle cx="5" cy="7" r="2.6"/>',
  castle: '<path d="M-7,7 V-3 H-4 V0 H-1.5 V-3 H1.5 V0 H4 V-3 H7 V7 Z"/>',
  stronghold: '<path d="M-9,8 V-2 H-6 V1 H-3.5 V-7 H-1.5 V-4 H1.5 V-7 H3.5 V1 H6 V-2 H9 V8 Z"/>',
  barrel:
    '<path d="M-5,-7 Q-7.5,0 -5,7 L5,7 Q7.5,0 5,-7 Z"/><path d="M-6.3,-2.6 L6.3,-2.6 M-6.3,2.6 L6.3,2.6" fill="none"/>',
  crown: '<path d="M-8,6 L-9,-5 L-4,-1 L0,-8 L4,-1 L9,-5 L8,6 Z"/>',
  power: '<circle r="8.5"/><path d="M-4.5,3 L-5,-3 L-2.2,-0.6 L0,-4.5 L2.2,-0.6 L5,-3 L4.5,3 Z" fill="none" stroke-width="1.6" stroke-linejoin="round"/>',
};

function defs() {
  const d = svg("defs");
  d.innerHTML = `
    <pattern id="wx-waves" width="36" height="18" patternUnits="userSpaceOnUse">
      <path d="M0,9 q9,-6 18,0 t18,0" fill="none" stroke="rgba(255,255,255,0.16)" stroke-width="1.4"/>
    </pattern>
    <pattern id="wx-port" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="6" height="6" fill="#234a73"/><rect width="2.2" height="6" fill="#3b6b9c"/>
    </pattern>
    <pattern id="wx-impassable" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="10" height="10" fill="rgba(60,50,40,0.18)"/><rect width="3" height="10" fill="rgba(60,50,40,0.45)"/>
    </pattern>
    <radialGradient id="wx-land" cx="50%" cy="45%" r="75%">
      <stop offset="0" stop-color="#f1e7c8"/><stop offset="1" stop-color="#dccb9c"/>
    </radialGradient>
    <linearGradient id="wx-sea" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#5f8fbf"/><stop offset="1" stop-color="#4a7aab"/>
    </linearGradient>
    <filter id="wx-shadow" x="-30%" y="-30%" width="160%" height="160%">
      <feDropShadow dx="0.6" dy="1.2" stdDeviation="0.9" flood-color="#000" flood-opacity="0.45"/>
    </filter>`;
  for (const [id, body] of Object.entries(GLYPHS)) {
    const s = svg("symbol", { id: `wx-${id}`, viewBox: "-10 -10 20 20", overflow: "visible" });
    s.innerHTML = body;
    d.append(s);
  }
  return d;
}

function use(glyph, x, y, size, attrs = {}) {
  return svg("use", { href: `#wx-${glyph}`, x: x - size / 2, y: y - size / 2, width: size, height: size, ...attrs });
}

/**
 * An area's name on two lines of about equal length when it is long, broken only between words:
 * Intl.Segmenter finds the words of a Thai or Chinese name (no spaces), so a line never ends inside one.
 */
function wrapName(name) {
  const parts = words(name);
  if (name.length <= 12 || parts.filter((p) => p.trim()).length < 2) return [name];
  let best = 1;
  let bestDiff = Infinity;
  for (let i = 1; i < parts.length; i++) {
    const head = parts.slice(0, i).join("").trim();
    const tail = parts.slice(i).join("").trim();
    if (!head || !tail) continue;
    const diff = Math.abs(head.length - tail.length);
    if (diff < bestDiff) [best, bestDiff] = [i, diff];
  }
  return [parts.slice(0, best).join("").trim(), parts.slice(best).join("").trim()];
}

/** Arrow keys as steps on the drawn map (x to the right, y down). */
const ARROW_STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/**
 * The board. `new WesterosMap(container, mapData, {onSelect})` draws it; `setView(view)` lays a game
 * view on top; `select(id)`, `mark(name, ids)` highlight areas; every area is a button.
 *
 * The keyboard reaches the map in one Tab stop (a roving tabindex, as in the WAI-ARIA grid and toolbar
 * patterns): the stop is the selected area, else the first area with a choice; the arrow keys move to the
 * nearest area in that direction on the map, Enter or Space chooses it.
 */
export class WesterosMap {
  constructor(container, mapData, { onSelect = null, label = _("Map of Westeros") } = {}) {
    this.container = container;
    this.data = mapData;
    this.onSelect = onSelect;
    this.areas = {};
    for (const a of mapData.areas) this.areas[a.id] = a;
    this.selected = null;
    this.marks = {};
    this.draw(label);
  }

  name(id) {
    return (this.areas[id] && this.areas[id].name) || humanize(id);
  }

  /** Anchor point of an area's overlay (label point; a port's centre). */
  anchor(id) {
    const a = this.areas[id];
    if (!a) return [0, 0];
    if (a.kind === "port" && a.outline.length) {
      const xs = a.outline.map((p) => p[0]);
      const ys = a.outline.map((p) => p[1]);
      return [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
    }
    return [a.x, a.y];
  }

  draw(label) {
    const vb = this.data.viewbox || [0, 0, 1000, 1700];
    const root = svg("svg", {
      viewBox: vb.join(" "), class: "wx-map", role: "group", "aria-label": label, tabindex: "-1", // its areas are the Tab stop
      "data-testid": "westeros-map", preserveAspectRatio: "xMidYMin meet",
    });
    root.append(defs());
    root.append(svg("rect", { x: vb[0], y: vb[1], width: vb[2], height: vb[3], class: "wx-ocean" }));
    const order = { sea: 0, land: 1, port: 2 };
    const sorted = [...this.data.areas].sort((a, b) => (order[a.kind] ?? 3) - (order[b.kind] ?? 3));
    this.layers = {};
    for (const name of ["areas", "waves", "homes", "marks", "focus", "icons", "labels", "overlay"]) {
      this.layers[name] = svg("g", { class: `wx-layer wx-${name}` });
    }
    for (const a of sorted) {
      if (!a.outline || a.outline.length < 3) continue;
      const kindText = a.kind === "port" ? _("port") : a.kind === "sea" ? _("sea area") : _("land area");
      const poly = svg("polygon", {
        points: points(a.outline), class: `wx-area wx-${a.kind}`, "data-area-id": a.id, "data-kind": a.kind,
        "data-x": a.x, "data-y": a.y, tabindex: "-1", role: "button", "aria-label": fmt(_("%(area)s (%(kind)s)"), { area: a.name, kind: kindText }),
        id: `wx-area-${a.id}`,
      }, title(a.name));
      if (a.home_house) poly.dataset.home = a.home_house;
      this.layers.areas.append(poly);
      if (a.kind === "sea") {
        this.layers.waves.append(svg("polygon", { points: points(a.outline), class: "wx-wave-fill" }));
      }
      if (a.home_house && HOUSES[a.home_house]) {
        this.layers.homes.append(svg("polygon", {
          points: points(a.outline), class: "wx-home", stroke: HOUSES[a.home_house].stroke === "#4d5a66" ? "#7d8b97" : HOUSES[a.home_house].fill,
        }));
      }
      if (a.kind !== "port") this.drawLabel(a);
    }
    for (const name of Object.keys(this.layers)) root.append(this.layers[name]);
    root.addEventListener("click", (ev) => {
      const node = ev.target.closest("[data-area-id], [data-hit-area]");
      if (node) this.choose(node.dataset.areaId || node.dataset.hitArea);
    });
    root.addEventListener("keydown", (ev) => {
      const node = ev.target.closest && ev.target.closest("[data-area-id]");
      if (!node || ev.altKey || ev.ctrlKey || ev.metaKey) return;
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        this.choose(node.dataset.areaId);
      } else if (ARROW_STEPS[ev.key]) {
        ev.preventDefault();
        const next = this.neighbourOnScreen(node.dataset.areaId, ...ARROW_STEPS[ev.key]);
        if (next) this.focusArea(next);
      }
    });
    root.addEventListener("focusin", (ev) => {
      const node = ev.target.closest && ev.target.closest("[data-area-id]");
      if (node) this.setTabStop(node.dataset.areaId);
    });
    this.svg = root;
    const first = sorted.find((a) => a.outline && a.outline.length >= 3);
    if (first) this.setTabStop(first.id);
    this.zoom = 1;
    const scroller = document.createElement("div");
    scroller.className = "wx-scroller";
    scroller.append(root);
    this.scroller = scroller;
    this.container.replaceChildren(scroller, this.zoomControls());
    if (typeof ResizeObserver === "function") new ResizeObserver(() => this.sizeHits()).observe(scroller);
  }

  /** Map units per CSS pixel as drawn now (zoom and screen width), or null before the board is laid out. */
  unitsPerPixel() {
    const width = this.svg ? this.svg.getBoundingClientRect().width : 0;
    const vb = this.data.viewbox || [0, 0, 1000, 1700];
    return width > 0 ? vb[2] / width : null;
  }

  /** Every order token answers a tap 44 CSS px across whatever the zoom (a finger's size; the drawn disc
   * stays small so the map stays readable): a tap on it chooses its area. */
  sizeHits() {
    const per = this.unitsPerPixel();
    if (!per || !this.layers) return;
    const r = String(Math.max(ORDER_R, (HIT_PX / 2 + 0.5) * per)); // half a pixel over: rounding never makes it 43.99
    for (const hit of this.layers.overlay.querySelectorAll(".wx-order-hit")) hit.setAttribute("r", r);
  }

  /** Zoom buttons: the board grows inside its frame, which then scrolls (small screens, W-1.2 names). */
  zoomControls() {
    const box = document.createElement("div");
    box.className = "wx-zoom";
    const button = (text, label, delta) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = text;
      b.setAttribute("aria-label", label);
      b.dataset.zoom = String(delta);
      b.addEventListener("click", () => this.setZoom(delta === 0 ? 1 : this.zoom * delta));
      return b;
    };
    box.append(button("+", _("Zoom in"), 1.5), button("−", _("Zoom out"), 1 / 1.5), button("⤢", _("Fit the board"), 0));
    return box;
  }

  setZoom(z) {
    const old = this.zoom;
    this.zoom = Math.min(4, Math.max(1, z));
    const sc = this.scroller;
    const cx = (sc.scrollLeft + sc.clientWidth / 2) / old;
    const cy = (sc.scrollTop + sc.clientHeight / 2) / old;
    this.svg.style.width = `${this.zoom * 100}%`;
    this.sizeHits();
    this.container.classList.toggle("is-zoomed", this.zoom > 1);
    sc.scrollLeft = cx * this.zoom - sc.clientWidth / 2;
    sc.scrollTop = cy * this.zoom - sc.clientHeight / 2;
  }

  drawLabel(a) {
    const lines = wrapName(a.name);
    const sea = a.kind === "sea";
    const top = a.y - 4 - (lines.length - 1) * 7;
    lines.forEach((line, n) => {
      this.layers.labels.append(svg("text", {
        x: a.x, y: top + n * 14, class: sea ? "wx-label wx-sea-label" : "wx-label", text: line,
      }));
    });
    if (a.kind !== "land") return;
    const icons = [];
    if (a.castle === "stronghold" || a.castle === "castle") icons.push(a.castle);
    for (let i = 0; i < (a.supply || 0); i++) icons.push("barrel");
    for (let i = 0; i < (a.crowns || 0); i++) icons.push("crown");
    const y = a.y + 9 + (lines.length - 1) * 7 + 3;
    const step = 17;
    const left = a.x - ((icons.length - 1) * step) / 2;
    icons.forEach((icon, n) => {
      this.layers.icons.append(use(icon, left + n * step, y, icon === "stronghold" ? 17 : 14, { class: `wx-icon wx-icon-${icon}` }));
    });
    this.iconBottom = this.iconBottom || {};
    this.iconBottom[a.id] = icons.length ? y + 9 : a.y + 6 + (lines.length - 1) * 7;
  }

  /** The one area the Tab key reaches. */
  setTabStop(id) {
    const poly = this.polygon(id);
    if (!poly || poly.tabIndex === 0) return;
    for (const n of this.svg.querySelectorAll(".wx-area[tabindex='0']")) n.setAttribute("tabindex", "-1");
    poly.setAttribute("tabindex", "0");
  }

  focusArea(id) {
    this.setTabStop(id);
    const poly = this.polygon(id);
    if (poly) poly.focus();
  }

  polygon(id) {
    return id && this.svg ? this.svg.querySelector(`.wx-area[data-area-id="${CSS.escape(id)}"]`) : null;
  }

  /** The nearest area from `id` in the direction (dx, dy) on the drawn map: ahead along that axis, the
   * distance across it counting double (so "right" prefers the area level with this one). */
  neighbourOnScreen(id, dx, dy) {
    const [x0, y0] = this.anchor(id);
    let best = null;
    let bestScore = Infinity;
    for (const other of Object.keys(this.areas)) {
      if (other === id || !this.polygon(other)) continue;
      const [x, y] = this.anchor(other);
      const ahead = (x - x0) * dx + (y - y0) * dy;
      if (ahead <= 0) continue;
      const across = Math.abs((x - x0) * dy) + Math.abs((y - y0) * dx);
      const score = ahead + 2 * across;
      if (score < bestScore) [best, bestScore] = [other, score];
    }
    return best;
  }

  choose(id) {
    this.select(id);
    if (this.onSelect) this.onSelect(id);
  }

  /** Outline one area as "selected" (drawn above its neighbours). */
  select(id) {
    this.selected = id;
    for (const n of this.svg.querySelectorAll(".wx-area[aria-pressed]")) n.removeAttribute("aria-pressed");
    this.layers.focus.replaceChildren();
    const a = this.areas[id];
    if (!a) return;
    const poly = this.svg.querySelector(`[data-area-id="${CSS.escape(id)}"]`);
    if (poly) poly.setAttribute("aria-pressed", "true");
    this.setTabStop(id);
    this.layers.focus.append(svg("polygon", { points: points(a.outline), class: "wx-selected" }));
  }

  /** Draw a named highlight (e.g. "neighbour", "actionable", "target") around these areas; [] clears it. */
  mark(name, ids) {
    // Tab into the map lands on an area with a choice, unless the keyboard is on the map already
    if (name === "actionable" && ids && ids.length && !this.selected && !this.svg.contains(document.activeElement)) this.setTabStop([...ids].sort()[0]);
    for (const n of this.layers.marks.querySelectorAll(`[data-mark="${name}"]`)) n.remove();
    for (const n of this.svg.querySelectorAll(`.wx-area.mark-${name}`)) n.classList.remove(`mark-${name}`);
    this.marks[name] = [...(ids || [])];
    for (const id of this.marks[name]) {
      const a = this.areas[id];
      if (!a) continue;
      this.layers.marks.append(svg("polygon", { points: points(a.outline), class: `wx-mark wx-mark-${name}`, "data-mark": name }));
      const poly = this.svg.querySelector(`[data-area-id="${CSS.escape(id)}"]`);
      if (poly) poly.classList.add(`mark-${name}`);
    }
  }

  // ---- overlays from a game view ----------------------------------------------------------------------
  /** Lay a player_view on the board: units, routed units, power tokens, orders, garrisons, neutral forces. */
  setView(view) {
    const layer = this.layers.overlay;
    layer.replaceChildren();
    this.nameAreas(view);
    if (!view) return;
    const viewer = view.player || null;
    for (const id of view.impassable || []) {
      const a = this.areas[id];
      if (a) layer.append(svg("polygon", { points: points(a.outline), class: "wx-impassable", "data-impassable": id }));
    }
    const ids = new Set([
      ...Object.keys(view.units || {}), ...Object.keys(view.tokens || {}), ...Object.keys(view.orders || {}),
      ...Object.keys(view.garrisons || {}), ...Object.keys(view.neutral || {}), ...(view.impassable || []),
    ]);
    for (const id of ids) {
      if (!this.areas[id]) continue;
      const g = svg("g", { class: "wx-area-overlay", "data-overlay": id });
      this.drawAreaOverlay(g, id, view, viewer);
      layer.append(g);
    }
    this.sizeHits();
  }

  /** What a screen reader says for each area: "Winterfell — Stark: 2 footmen, 1 knight; stronghold; order
   * face down" (the same facts the board draws; face-down orders stay face down, W-20.1). */
  nameAreas(view) {
    for (const poly of this.svg.querySelectorAll(".wx-area[data-area-id]")) {
      const id = poly.dataset.areaId;
      const a = this.areas[id];
      poly.setAttribute("aria-label", areaSpeech(a, view));
    }
  }

  drawAreaOverlay(g, id, view, viewer) {
    const a = this.areas[id];
    const [ax, ay] = this.anchor(id);
    const port = a.kind === "port";
    const sea = a.kind === "sea";
    const group = (view.units || {})[id];
    if (group) {
      const h = HOUSES[group.house] || NEUTRAL;
      const list = [...group.units.map((u) => [u, false]), ...(group.routed || []).map((u) => [u, true])];
      const size = port ? 14 : 19;
      const step = port ? 15 : 23.5;
      const y = port ? ay : sea ? ay + 22 : (this.iconBottom?.[id] ?? ay + 20) + 13;
      const left = ax - ((list.length - 1) * step) / 2;
      const names = list.map(([u, r]) => (r ? fmt(_("%(unit)s (routed)"), { unit: unitName(u) }) : unitName(u)));
      const said = fmt(_("%(house)s: %(units)s"), { house: h.name || humanize(group.house), units: names.join(_(", ")) });
      const units = svg("g", { class: "wx-units", "data-units": id, "data-house": group.house, "aria-label": said }, title(said));
      list.forEach(([unit, routed], n) => {
        const x = left + n * step;
        const badge = svg("g", {
          class: `wx-unit${routed ? " wx-routed" : ""}`, "data-unit": unit, "data-routed": routed ? "1" : "0",
          transform: routed ? `rotate(80 ${x} ${y})` : null,
        });
        badge.append(svg("circle", { cx: x, cy: y, r: size / 2 + 1.5, class: "wx-unit-disc", fill: h.fill, stroke: h.stroke }));
        badge.append(use(unit, x, y, size * 0.78, { fill: h.ink, class: "wx-unit-glyph" }));
        units.append(badge);
      });
      g.append(units);
    }
    // Orders sit above the name (a port's: beside the port).
    const order = (view.orders || {})[id];
    let ox = ax;
    let oy = port ? ay - 24 : ay - 34 - (this.areas[id].name.length > 12 ? 7 : 0);
    if (order) g.append(this.orderToken(ox, oy, order, viewer, id, !view.orders_revealed));
    // Power token (control marker), garrison and neutral force to the right of the order.
    const side = [];
    const token = (view.tokens || {})[id];
    if (token) side.push(["power", token]);
    const garrison = (view.garrisons || {})[id];
    if (garrison) side.push(["garrison", garrison]);
    const neutral = (view.neutral || {})[id];
    if (neutral !== undefined && neutral !== null) side.push(["neutral", neutral]);
    ox = order ? ax + 26 : ax - ((side.length - 1) * 22) / 2;
    side.forEach(([kind, value], n) => {
      const x = ox + n * 22;
      if (kind === "power") {
        const h = HOUSES[value] || NEUTRAL;
        g.append(svg("g", { class: "wx-power", "data-power": value }, title(fmt(_("%(house)s power token (controls %(area)s)"), { house: h.name || value, area: a.name })),
          use("power", x, oy, 21, { fill: h.fill, stroke: h.stroke, "stroke-width": 1.2 })));
      } else if (kind === "garrison") {
        const home = (a.home_house && HOUSES[a.home_house]) || NEUTRAL;
        g.append(svg("g", { class: "wx-garrison", "data-garrison": value }, title(fmt(_("Garrison, strength %(strength)s"), { strength: value })),
          svg("path", { d: `M${x - 8},${oy - 9} h16 v8 q0,7 -8,10 q-8,-3 -8,-10 z`, fill: home.fill, stroke: home.stroke, "stroke-width": 1.5 }),
          svg("text", { x, y: oy + 3.5, class: "wx-token-num", fill: home.ink, text: value })));
      } else {
        g.append(svg("g", { class: "wx-neutral", "data-neutral": value }, title(fmt(_("Neutral force, strength %(strength)s"), { strength: value })),
          svg("rect", { x: x - 10, y: oy - 10, width: 20, height: 20, rx: 3, fill: NEUTRAL.fill, stroke: NEUTRAL.stroke, "stroke-width": 1.5 }),
          svg("text", { x, y: oy + 4.5, class: "wx-token-num", fill: NEUTRAL.ink, text: value })));
      }
    });
  }

  /** One order token: face up (public after reveal, or the viewer's own), else the generic back (W-20.1). */
  orderToken(x, y, order, viewer, areaId, secret = false) {
    const [house, token] = order;
    const h = HOUSES[house] || NEUTRAL;
    const g = svg("g", { class: "wx-order", "data-order": areaId, "data-house": house });
    g.append(svg("circle", { cx: x, cy: y, r: ORDER_R, class: "wx-order-hit", "data-hit-area": areaId, "data-testid": "order-target" }));
    g.append(svg("circle", { cx: x, cy: y, r: ORDER_R, class: "wx-order-disc", stroke: h.fill === "#1f1f1f" ? "#b8a46a" : h.fill }));
    if (!token) {
      g.dataset.face = "down";
      g.append(title(fmt(_("%(house)s: an order, face down"), { house: h.name || house })));
      g.append(svg("circle", { cx: x, cy: y, r: 8, class: "wx-order-back" }));
      g.append(svg("text", { x, y: y + 4, class: "wx-order-back-mark", text: "?" }));
      return g;
    }
    const face = orderFace(token);
    const own = viewer && viewer === house;
    g.dataset.face = "up";
    g.dataset.token = token;
    g.classList.add(`wx-order-${face.type}`);
    if (own && secret) g.classList.add("wx-order-secret");
    g.append(title(fmt(_("%(house)s: %(order)s"), { house: h.name || house, order: orderLabel(token) })));
    g.append(svg("text", { x, y: face.mod ? y + 1.5 : y + 4.5, class: "wx-order-letter", text: ORDER_LETTER[face.type] || "?" }));
    if (face.mod) g.append(svg("text", { x, y: y + 9.5, class: "wx-order-mod", text: face.mod }));
    if (face.special) g.append(svg("text", { x: x + 11, y: y - 7, class: "wx-order-star", text: "★" }));
    return g;
  }
}

/** Fetch the map data from the API (pages that did not embed it). */
export async function loadMap(url = "/api/westeros/map/") {
  const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
  if (!response.ok) throw new Error(fmt(_("Map data could not be loaded (HTTP %(status)s)."), { status: response.status }));
  return response.json();
}
