// The Westeros page's side panels that only show the view: the influence tracks, supply and castles, the
// wildlings and the Westeros cards (W-1.9, W-12, W-16, W-18). Each draws into its own element by id.
import { h } from "../js/dom.js";
import { _, fmt, ngettext, pgettext } from "../js/i18n.js";
import { HOUSES, humanize, orderLabel } from "./map.js";
import { DOMINANCE, TRACK_NAMES } from "./texts.js";

const $ = (id) => document.getElementById(id);
export const houseName = (hid) => (HOUSES[hid] ? HOUSES[hid].name : humanize(hid));

export function houseChip(hid, extra = "") {
  const c = HOUSES[hid] || {};
  return h("span", { class: "wx-house", "data-house": hid, style: { "--house": c.fill, "--house-edge": c.stroke } }, houseName(hid) + extra);
}

const SHORT = {
  stark: pgettext("house, short", "STA"), lannister: pgettext("house, short", "LAN"), baratheon: pgettext("house, short", "BAR"),
  greyjoy: pgettext("house, short", "GRE"), tyrell: pgettext("house, short", "TYR"), martell: pgettext("house, short", "MAR"),
};

export function renderTracks(v) {
  const used = { fiefdoms: v.blade_used, kings_court: v.raven_used };
  $("wx-tracks").replaceChildren(...Object.entries(TRACK_NAMES).map(([t, name]) => {
    const order = (v.tracks || {})[t] || [];
    const holder = order[0];
    return h("div", { "data-track": t },
      h("div", { class: "wx-track-name" }, h("span", {}, name)),
      h("ol", { class: "wx-track" }, order.map((hid, i) => {
        const c = HOUSES[hid] || {};
        return h("li", { style: { "--house": c.fill, "--house-edge": c.stroke, "--house-ink": c.ink }, title: `${i + 1}. ${houseName(hid)}`, "data-house": hid },
          h("b", {}, String(i + 1)), SHORT[hid] || houseName(hid));
      })),
      h("p", { class: "wx-dominance", title: _("Dominance token: always position 1 (W-1.9)") },
        fmt(used[t] ? _("%(token)s (used):") : _("%(token)s:"), { token: DOMINANCE[t] }), " ", holder ? houseChip(holder) : "–"));
  }));
}

export function renderSupply(v, me) {
  const rows = v.houses.map((hid) => h("tr", { class: hid === me ? "is-you" : "" },
    h("td", {}, houseChip(hid)), h("td", { class: "num" }, String(v.supply[hid])),
    h("td", { class: "num" }, v.castles ? String(v.castles[hid]) : "–")));
  $("wx-supply").replaceChildren(h("table", { class: "wx-table" },
    h("thead", {}, h("tr", {}, h("th", {}, _("House")), h("th", { class: "num", title: _("Supply track 0–6 (W-12)") }, _("Supply")),
      h("th", { class: "num", title: _("Castles and strongholds controlled; 7 wins (W-18)") }, _("Castles")))),
    h("tbody", {}, rows)), h("p", { class: "wx-hint" }, _("7 castles/strongholds win at once; otherwise most after round 10.")));
}

export function renderWildlings(v, TEXTS) {
  const threat = v.threat || 0;
  const meter = h("div", { class: "wx-meter", title: fmt(_("Wildling threat %(threat)s of 12 (W-16)"), { threat }) },
    [0, 2, 4, 6, 8, 10, 12].map((n) => h("span", { class: n === threat ? "on" : "" }, String(n))));
  const parts = [h("div", { class: "wx-track-name" }, h("span", {}, _("Threat")), h("b", { "data-testid": "threat" }, `${threat} / 12`)), meter,
    h("p", { class: "wx-hint" }, fmt(ngettext("%(count)s wildling card in the deck.", "%(count)s wildling cards in the deck.", v.wildling_deck), { count: v.wildling_deck }))];
  const rk = v.raven_knows;
  if (rk) {
    const top = rk.where !== "bottom";
    parts.push(h("p", { class: "wx-hint" }, rk.card
      ? fmt(top ? _("You know the top wildling card: %(card)s.") : _("You know the bottom wildling card: %(card)s."),
        { card: TEXTS.wildling[rk.card] ? TEXTS.wildling[rk.card].name : humanize(rk.card) })
      : fmt(top ? _("%(house)s knows the top wildling card.") : _("%(house)s knows the bottom wildling card."), { house: houseName(rk.house) })));
  }
  $("wx-wildlings").replaceChildren(...parts);
}

export function renderWesteros(v, TEXTS) {
  const revealed = (v.revealed || []).map((c) => {
    const [deck, id] = String(c).split(":");
    const card = TEXTS.westeros[c];
    return h("li", { title: card ? card.text : "" }, `${["", "I", "II", "III"][Number(deck)] || deck}: ${card ? card.name : humanize(id)}`);
  });
  const out = [];
  out.push(revealed.length ? h("ul", { class: "wx-hint" }, revealed) : h("p", { class: "wx-hint" }, _("No Westeros card revealed this round.")));
  if ((v.bans || []).length) out.push(h("p", { class: "wx-hint" }, fmt(_("Banned orders this round: %(orders)s."), { orders: v.bans.map(orderLabel).join(_(", ")) })));
  out.push(h("p", { class: "wx-hint" }, fmt(_("Decks: %(decks)s"), { decks: Object.entries(v.wdecks || {}).map(([k, n]) => `${["", "I", "II", "III"][Number(k)]} ${n}`).join(" · ") })));
  $("wx-westeros").replaceChildren(...out);
}

