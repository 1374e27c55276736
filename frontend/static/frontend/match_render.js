// Rendering of one viewer's game view (shared by the live match page and the replay page).
// Commandeer views get a 6×6 board drawn from the viewer's side, zones and hand, every card with its full
// text on hover, focus and tap (js/card_component.js); other game kinds fall back to a JSON view.
import { keepLabelsFitted } from "./js/board_labels.js";
import { withCardText } from "./js/card_component.js";
import { h } from "./js/dom.js";
import { _, fmt, ngettext, words } from "./js/i18n.js";

const FILES = "abcdef";
const ROTATE = { N: "S", NE: "SW", E: "W", SE: "NW", S: "N", SW: "NE", W: "E", NW: "SE" };
const ARROW = { N: "↑", NE: "↗", E: "→", SE: "↘", S: "↓", SW: "↙", W: "←", NW: "↖" };
const WORD = {
  N: _("up"), NE: _("up-right"), E: _("right"), SE: _("down-right"), S: _("down"), SW: _("down-left"), W: _("left"), NW: _("up-left"),
};

// The phases of a turn (C-5) and the steps the engine names inside them, as the viewer reads them.
const PHASES = {
  setup: _("Set-up"), planning: _("Planning Phase"), defending: _("Defending Phase"), combat: _("Combat Phase"), end: _("End Phase"),
  over: _("Match over"),
};
const STEPS = {
  commander: _("choosing Commanders"), mulligan: _("mulligans"), turn_start: _("turn start"), start_cp: _("Command Points"),
  planning_end: _("end of planning"), defending_start: _("start of defending"), combat_end: _("end of combat"), end_check: _("end check"),
};

/** A phase of the turn by its engine name ("planning"), in the viewer's language. */
export function phaseName(phase) {
  return PHASES[phase] || String(phase || "").replace(/_/g, " ");
}

/**
 * A card name short enough for a board square, cut only between grapheme clusters, after a whole word when
 * one fits (Thai writes no spaces: Intl.Segmenter finds its words), so a Thai name never ends inside a
 * syllable. The full name stays in the unit's label and card text.
 */
export function shortName(name, max = 24) {
  const text = String(name || "");
  if (text.length <= max) return text;
  let out = "";
  for (const word of words(text)) {
    if ((out + word).length > max) break;
    out += word;
  }
  if (out.trim().length >= Math.min(6, max / 2)) return `${out.trim()}…`;
  // one long word: cut between grapheme clusters (a Thai vowel or tone mark stays with its letter)
  const seg = typeof Intl !== "undefined" && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;
  const clusters = seg ? [...seg.segment(text)].map((s) => s.segment) : [...text];
  out = "";
  for (const c of clusters) {
    if ((out + c).length > max - 1) break;
    out += c;
  }
  return `${out}…`;
}

export const k = (n) => (n === null || n === undefined ? "–" : n >= 1000 && n % 100 === 0 ? `${n / 1000}k` : String(n));

/** Who sits at the bottom of the board: the viewer, or the first player for spectators (rank 1 at the
 * bottom, C-2.1, as the log names their directions). */
export function bottomPlayer(view, viewer) {
  if (viewer === 0 || viewer === 1) return viewer;
  return view.first_player ?? 0;
}

/** How the viewer sees the board: `bottom` seat, and `flip` when rank 1 (the first player's side, C-2.1) is on top. */
export function orientation(view, viewer) {
  const bottom = bottomPlayer(view, viewer);
  return { bottom, flip: bottom !== (view.first_player ?? 0) };
}

/** An engine direction (absolute, C-1.2: N toward rank 6) as drawn on this viewer's screen. */
export function screenDir(dir, orient) {
  return orient.flip ? ROTATE[dir] : dir;
}

/** "↑ up": the way an engine direction points on the viewer's screen, in a glyph and a word. */
export function dirLabel(dir, orient) {
  const d = screenDir(dir, orient);
  return `${ARROW[d]} ${WORD[d]}`; // a glyph and a word: no sentence to translate around them
}

export function squareName(row, col) {
  return `${FILES[col]}${row + 1}`;
}

/** Whose side a seat is on for this viewer: "mine"/"theirs" (spectators: bottom/top colours alike). */
export function sideClass(owner, orient) {
  return owner === orient.bottom ? "mine" : "theirs";
}

function squareOrder(orient) {
  const rows = [];
  for (let r = 6; r >= 1; r--) {
    const row = [];
    for (let f = 0; f < 6; f++) row.push(`${FILES[f]}${r}`);
    rows.push(row);
  }
  if (orient.flip) return rows.reverse().map((row) => row.reverse());
  return rows;
}

/** The public facts of a named card (from the view's catalog) as a card object for the card component. */
export function cardOf(view, name) {
  const facts = (view.catalog || {})[name];
  if (!facts) return { name: name || "?" };
  return { ...facts, name: facts.display_name || name, rules_text: facts.display_rules_text ?? facts.rules_text };
}

/** A card's name as the viewer reads it: the catalog's translation, else the English name the engine uses. */
export function cardName(view, name) {
  const facts = (view.catalog || {})[name];
  return (facts && facts.display_name) || name || "?";
}

function playerName(owner, names) {
  return names[owner] || fmt(_("Player %(number)s"), { number: owner + 1 });
}

/** "C3, your Blazing Lancer, power 2000, health 1000 of 3000, attacks up, right" — a unit as read aloud. */
export function unitLabel(u, view, orient, names, viewer) {
  const left = (u.health ?? 0) - (u.damage ?? 0);
  const dirs = (u.arrows || []).map((a) => WORD[screenDir(a, orient)]).join(", ");
  const attached = (u.attached || []).map((e) => cardName(view, e.card)).join(", ");
  const square = u.square.toUpperCase();
  return [
    u.owner === viewer ? fmt(_("%(square)s, your %(card)s"), { square, card: cardName(view, u.card) })
      : fmt(_("%(square)s, %(player)s's %(card)s"), { square, player: playerName(u.owner, names), card: cardName(view, u.card) }),
    u.power !== undefined ? fmt(_("power %(power)s"), { power: u.power }) : null,
    u.health !== undefined ? fmt(_("health %(left)s of %(health)s"), { left, health: u.health }) : null,
    dirs ? fmt(_("attacks %(directions)s"), { directions: dirs }) : null,
    u.range_attack ? _("range attack") : null,
    attached ? fmt(_("attached: %(cards)s"), { cards: attached }) : null,
    u.attacked ? _("has attacked") : null,
  ].filter(Boolean).join(_(", "));
}

function chip(ref, view, { zone = "", owner = null } = {}) {
  const node = h("span", {
    class: `chip chip-${((view.catalog || {})[ref.card] || {}).type || "card"}`,
    "data-token": ref.id !== undefined ? `c:${ref.id}` : null,
    "data-testid": zone ? `${zone}-card` : null,
    "data-name": ref.card,
    role: "button",
    "aria-label": cardName(view, ref.card),
  }, cardName(view, ref.card));
  if (owner !== null) node.dataset.owner = owner;
  withCardText(node, () => cardOf(view, ref.card));
  return node;
}

function handCard(ref, view, note) {
  const f = (view.catalog || {})[ref.card] || {};
  const isUnit = f.type === "unit";
  const arrows = (f.arrows || []).map((a) => ARROW[a]).join("");
  const label = [
    cardName(view, ref.card), fmt(_("%(cp)s CP, %(energy)s Energy"), { cp: f.command_cost ?? "?", energy: f.energy_cost ?? 0 }),
    isUnit ? fmt(_("power %(power)s, health %(health)s"), { power: f.power, health: f.health }) : eventKind(f.event_type),
    note ? fmt(_("cannot be played: %(reason)s"), { reason: note }) : null,
  ].filter(Boolean).join(_("; "));
  const node = h("div", {
    class: `hand-card hand-${f.type || "card"}${note ? " unplayable" : ""}`, "data-token": `c:${ref.id}`,
    "data-testid": "hand-card", "data-name": ref.card, role: "button", "aria-label": label, style: { "--faction": f.faction_color || null },
  },
    h("div", { class: "hc-top" },
      h("span", { class: "cost cost-command", "aria-hidden": "true" }, String(f.command_cost ?? "?")),
      h("span", { class: "cost cost-energy", "aria-hidden": "true" }, String(f.energy_cost ?? 0))),
    artThumb(f, "hc-art"),
    h("div", { class: "hc-name" }, cardName(view, ref.card)),
    h("div", { class: "hc-costs", "aria-hidden": "true" }, fmt(_("CP %(cp)s · En %(energy)s"), { cp: f.command_cost ?? "?", energy: f.energy_cost ?? 0 })),
    isUnit ? h("div", { class: "hc-stats", "aria-hidden": "true" }, h("b", { class: "p" }, k(f.power)), " / ", h("b", { class: "hp" }, k(f.health)), " ", h("span", { class: "hc-arrows" }, arrows))
      : h("div", { class: "hc-stats", "aria-hidden": "true" }, eventKind(f.event_type)),
    f.rules_text ? h("div", { class: "hc-text", "aria-hidden": "true" }, f.display_rules_text ?? f.rules_text) : null,
    note ? h("div", { class: "hc-note", "data-testid": "unplayable-reason", "aria-hidden": "true" }, note) : null,
  );
  withCardText(node, () => cardOf(view, ref.card));
  return node;
}

/** "Planning event", "Defensive event", "Ongoing event" (C-3.2) as the glossary names them. */
function eventKind(type) {
  const kinds = { planning: _("Planning event"), defensive: _("Defensive event"), ongoing: _("Ongoing event") };
  return kinds[String(type || "").toLowerCase()] || (type ? fmt(_("%(type)s event"), { type }) : _("Event"));
}

function zoneLine(label, cards, view, zone, owner) {
  const list = h("span", { class: "zone-cards" }, cards.map((c) => chip(c, view, { zone, owner })));
  return h("details", { class: "zone", "data-testid": `zone-${zone}-${owner}`, "data-zone": zone },
    h("summary", {}, `${label} `, h("b", { "data-testid": `count-${zone}-${owner}` }, String(cards.length))), list);
}

function sidePanel(view, p, names, viewer, orient, ended) {
  const side = view.players[p];
  const cmd = side.commander;
  let cmdNode;
  if (!cmd) cmdNode = h("span", { class: "muted" }, _("none"));
  else if (cmd.face_down) cmdNode = h("span", { class: "muted" }, _("face down"));
  else cmdNode = chip(cmd, view, { zone: "commander", owner: p });
  const who = p === viewer ? _("You") : playerName(p, names);
  const role = viewer === 0 || viewer === 1 ? (p === viewer ? "" : ` ${_("(opponent)")}`) : ` ${fmt(_("(player %(number)s)"), { number: p + 1 })}`;
  const active = view.active === p && view.phase !== "setup" && !ended;
  return h("div", { class: `side-panel ${sideClass(p, orient)}${active ? " active" : ""}`, "data-testid": `side-${p}`, "data-owner": p },
    h("div", { class: "side-name" }, h("span", { class: "swatch", "aria-hidden": "true" }), who, p === viewer && names[p] ? ` (${names[p]})` : role,
      active ? h("span", { class: "badge" }, p === viewer ? _("your turn") : _("their turn")) : null,
      h("span", { class: "side-clock", "data-clock": p })),
    h("div", { class: "side-stats" },
      h("span", { title: _("Command Points") }, _("CP"), " ", h("b", { "data-testid": `cp-${p}` }, String(side.cp))),
      h("span", { title: _("Cards in hand") }, _("Hand"), " ", h("b", { "data-testid": `hand-count-${p}` }, String(side.hand_count))),
      h("span", { title: _("Cards in deck") }, _("Deck"), " ", h("b", {}, String(side.deck_count))),
      h("span", { title: _("Six defeated cards lose the match (C-6.1)") }, _("Defeated"), " ", h("b", {}, `${side.defeated.length}/6`)),
      h("span", { class: `cmd${cmd && !cmd.face_down ? "" : " cmd-none"}` }, _("Commander"), " ", cmdNode)),
    h("div", { class: "zones" },
      zoneLine(_("Energy"), side.energy, view, "energy", p),
      zoneLine(_("Retired"), side.retired, view, "retired", p),
      zoneLine(_("Defeated"), side.defeated, view, "defeated", p),
      zoneLine(_("Removed"), side.removed, view, "removed", p)),
  );
}

function unitExtra(u, view, orient) {
  return () => {
    const left = (u.health ?? 0) - (u.damage ?? 0);
    const mods = [];
    const signed = (n) => `${n > 0 ? "+" : ""}${n}`;
    if (u.power_mod || u.turn_power_mod) mods.push(fmt(_("Power %(change)s"), { change: signed(u.power_mod + u.turn_power_mod) }));
    if (u.health_mod || u.turn_health_mod) mods.push(fmt(_("Health %(change)s"), { change: signed(u.health_mod + u.turn_health_mod) }));
    return h("div", { class: "unit-live" },
      h("p", {}, h("b", {}, _("On the board:")), " ",
        fmt(_("%(square)s · Power %(power)s · Health %(left)s of %(health)s"), { square: u.square.toUpperCase(), power: u.power ?? "–", left, health: u.health ?? "–" }),
        u.damage ? ` ${fmt(_("(%(damage)s damage)"), { damage: u.damage })}` : "", mods.length ? ` · ${mods.join(_(", "))}` : "",
        u.range_attack ? ` · ${_("Range Attack")}` : "", u.attacked ? ` · ${_("has attacked this turn")}` : ""),
      (u.arrows || []).length ? h("p", {}, h("b", {}, _("Attacks:")), " ", u.arrows.map((a) => dirLabel(a, orient)).join(_(", "))) : null,
      (u.attached || []).length
        ? h("div", { class: "attached-list" }, h("b", {}, _("Attached Ongoing events:")),
          u.attached.map((e) => {
            const c = cardOf(view, e.card);
            return h("div", { class: "attached-text", "data-testid": "attached-text" }, h("b", {}, c.name), c.rules_text ? ` — ${c.rules_text}` : "");
          }))
        : null,
    );
  };
}

/** A card's art thumbnail from the view's catalog (staff's art or its placeholder); decorative (the name is
 * written beside it), nothing for a card the database does not hold. */
function artThumb(facts, className) {
  const src = facts.art && facts.art.thumb;
  return src ? h("img", { class: `${className} card-art`, src, alt: "", width: 160, height: 120, decoding: "async", draggable: "false", "data-testid": "card-art" }) : null;
}

function unitNode(u, view, orient, names, viewer) {
  const arrows = (u.arrows || []).map((a) => {
    const d = screenDir(a, orient);
    return h("span", { class: `arrow arrow-${d}`, "data-dir": d, "data-engine-dir": a, "aria-hidden": "true" }, ARROW[d]);
  });
  const left = (u.health ?? 0) - (u.damage ?? 0);
  const node = h("div", {
    class: `unit ${sideClass(u.owner, orient)}${u.attacked ? " attacked" : ""}`, "data-token": `c:${u.id}`, "data-testid": "unit",
    "data-name": u.card, "data-owner": u.owner, "data-square": u.square, role: "button", "aria-label": unitLabel(u, view, orient, names, viewer),
    "aria-hidden": "true", // its square is the control and says all of this (a button inside a button is no control)
  },
    artThumb((view.catalog || {})[u.card] || {}, "unit-art"),
    // the card's full name; board_labels.js shortens it, told apart from the other cards, if it does not fit
    h("div", { class: "unit-name", title: cardName(view, u.card), "data-label-for": cardName(view, u.card), "data-testid": "unit-label" }, cardName(view, u.card)),
    h("div", { class: "unit-stats" }, h("span", { class: "p", title: _("Power") }, `⚔${k(u.power)}`), " ", h("span", { class: `hp${u.damage ? " hurt" : ""}`, title: _("Health left / Health"), "data-testid": "unit-health" }, `♥${k(left)}`, h("span", { class: "hp-max" }, `/${k(u.health)}`))),
    u.damage ? h("div", { class: "unit-damage", "data-testid": "unit-damage" }, `−${k(u.damage)}`) : null,
    (u.attached || []).length ? h("div", { class: "unit-attached" }, u.attached.map((e) => {
      const c = h("span", { class: "attached-chip", "data-testid": "attached", "data-name": e.card, title: cardName(view, e.card) }, "◆", h("span", {}, cardName(view, e.card)));
      return c;
    })) : null,
    h("div", { class: "arrows" }, arrows),
  );
  withCardText(node, () => cardOf(view, u.card), { extra: unitExtra(u, view, orient), focusable: false });
  return node;
}

/**
 * Render a view into the page's table elements; returns nothing. `names` maps seat -> display name.
 * `over`: the match has ended (a concession or a timeout ends it outside the engine's view): no side is
 * marked as the one to move, no card in the hand says why it cannot be played and no turns are left.
 */
export function renderView(root, view, viewer, names, { over = false } = {}) {
  const $ = (id) => root.querySelector(`#${id}`);
  const generic = $("generic-view");
  if (!view || view.format !== "commandeer-view") {
    for (const id of ["board", "side-top", "side-bottom", "hand"]) if ($(id)) $(id).replaceChildren();
    generic.hidden = false;
    generic.textContent = JSON.stringify(view, null, 2);
    if ($("turn")) $("turn").textContent = view && view.turn !== undefined ? String(view.turn) : "";
    return;
  }
  generic.hidden = true;
  const ended = over || Boolean(view.outcome); // the engine's own end, or one outside it
  const limit = view.turn_limit ? 2 * view.turn_limit : null; // C-6.5: the limit counts each player's turns
  $("turn").textContent = limit ? fmt(_("%(turn)s of %(limit)s"), { turn: view.turn, limit }) : String(view.turn);
  if ($("turns-left")) {
    const left = limit && !ended ? Math.max(0, limit - view.turn) : null;
    $("turns-left").textContent = left === null ? ""
      : fmt(ngettext("%(count)s turn left · then fewer Defeated cards wins (C-6.5)", "%(count)s turns left · then fewer Defeated cards wins (C-6.5)", left), { count: left });
  }
  const step = view.step !== view.phase ? STEPS[view.step] || view.step.replace(/_/g, " ") : "";
  $("phase").textContent = step ? fmt(_("%(phase)s (%(step)s)"), { phase: phaseName(view.phase), step }) : phaseName(view.phase);
  $("phase").dataset.phase = view.phase; // the engine's name, whatever the language shows
  const orient = orientation(view, viewer);
  const top = 1 - orient.bottom;
  $("side-top").replaceChildren(sidePanel(view, top, names, viewer, orient, ended));
  $("side-bottom").replaceChildren(sidePanel(view, orient.bottom, names, viewer, orient, ended));
  const units = {};
  for (const u of view.board) units[u.square] = u;
  const board = $("board");
  board.replaceChildren();
  board.setAttribute("role", "group");
  board.setAttribute("aria-label", viewer === orient.bottom ? _("Battlefield, your side at the bottom")
    : fmt(_("Battlefield, %(player)s's side at the bottom"), { player: playerName(orient.bottom, names) }));
  board.dataset.flip = orient.flip ? "1" : "0";
  board.dataset.bottom = String(orient.bottom);
  for (const row of squareOrder(orient)) {
    for (const sq of row) {
      const u = units[sq];
      const cell = h("div", {
        class: "square", "data-square": sq, "data-token": `s:${sq}`, "data-testid": `square-${sq}`,
        role: "button", tabindex: "-1", "aria-label": u ? unitLabel(u, view, orient, names, viewer) : fmt(_("%(square)s, empty"), { square: sq.toUpperCase() }),
      }, h("span", { class: "sq-name", "aria-hidden": "true" }, sq));
      if (u) cell.append(unitNode(u, view, orient, names, viewer));
      board.append(cell);
    }
  }
  keepLabelsFitted(board);
  const hand = $("hand");
  hand.replaceChildren();
  const mine = viewer === 0 || viewer === 1 ? view.players[viewer] : null;
  if (mine && mine.hand) {
    const notes = ended ? {} : view.unplayable || {}; // nothing is played once it has ended
    hand.append(h("h3", { class: "hand-title" }, fmt(_("Your hand (%(count)s)"), { count: mine.hand.length })));
    // a group, not a list: a list may hold only list items, and each card is a button
    hand.append(h("div", { class: "hand-cards", role: "group", "aria-label": _("Your hand") }, mine.hand.map((c) => handCard(c, view, notes[String(c.id)]))));
  }
}

export function outcomeText(match) {
  const r = match.result;
  if (!r) return "";
  const why = r.text || r.reason; // the server's words, already in the viewer's language
  if (match.status === "aborted") return fmt(_("Aborted — %(reason)s"), { reason: why });
  if (r.winner === null || r.winner === undefined) return fmt(_("Draw — %(reason)s"), { reason: why });
  return fmt(_("%(player)s wins — %(reason)s"), { player: r.winner_name || fmt(_("Player %(number)s"), { number: r.winner + 1 }), reason: why });
}
