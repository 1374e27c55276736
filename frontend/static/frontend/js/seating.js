// The waiting room's houses (matches/_seating.html; services.seating on the server): every house of the
// table's player count with who holds it (W-1.1); a visitor joins with a free house, a seated player picks
// or changes theirs ("choose"), or picks in join order ("draft"); the creator removes a player and fills
// the empty seats with AI houses of a level. A player the creator removed is told so.
// Page add-on: it only listens to document "match:snapshot" (js/live.js) and calls the JSON API.
import { api } from "./api.js";
import { h } from "./dom.js";
import { _, fmt } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const root = $("match-app");
const box = $("seating");
const matchId = root ? root.dataset.match : null;
const username = root ? root.dataset.user : "";
let snapshot = null;

const HOUSE_TITLES = {
  stark: _("House Stark"), lannister: _("House Lannister"), baratheon: _("House Baratheon"),
  greyjoy: _("House Greyjoy"), tyrell: _("House Tyrell"), martell: _("House Martell"),
};
const title = (house) => HOUSE_TITLES[house] || `${house[0].toUpperCase()}${house.slice(1)}`;
const MODES = {
  choose: _("Each player picks a free house and may change it until the start."),
  random: _("Houses are drawn at random when the match starts."),
  draft: _("Draft: players pick in the order they joined; a pick is final. AI houses take what is left."),
};
const holder = (seat) => (seat.is_you ? fmt(_("%(name)s (you)"), { name: seat.name }) : seat.name);

function showError(err) {
  const node = $("seating-error");
  node.textContent = err ? err.message : "";
  node.hidden = !err;
}

async function post(path, body) {
  showError(null);
  try {
    const answer = await api(`/api/matches/${matchId}/${path}/`, { method: "POST", body: body || {} });
    if (window.liveMatch) window.liveMatch.sync();
    return answer;
  } catch (err) {
    showError(err);
    return null;
  }
}

/** The page's own join form (match.js) gets a house select in the "choose" seating; its submit is taken
 * over here (a capture listener, before the page's) so the join names the house. */
function joinForm(m, seating, kicked) {
  const form = $("join-here");
  if (!form) return;
  if (kicked) form.hidden = true;
  // A Westeros seat plays no deck: the page's deck field is not asked for.
  const deck = form.querySelector("select[name=deck_id]");
  if (deck && deck.closest("label")) deck.closest("label").hidden = true;
  let select = form.querySelector("select[name=house]");
  const offer = seating.mode === "choose" ? seating.free : [];
  if (!select && offer.length) {
    select = h("select", { name: "house", "data-testid": "join-house" });
    form.prepend(h("label", { "data-testid": "join-house-label" }, _("Your house"), " ", select));
    form.addEventListener("submit", joinWithHouse, { capture: true });
  }
  if (!select) return;
  const previous = select.value;
  select.replaceChildren(...offer.map((house) => h("option", { value: house }, title(house))));
  if (offer.includes(previous)) select.value = previous;
  select.closest("label").hidden = !offer.length;
}

async function joinWithHouse(ev) {
  const form = ev.currentTarget;
  const select = form.querySelector("select[name=house]");
  if (!select || !snapshot || !snapshot.seating || snapshot.seating.mode !== "choose") return;
  ev.preventDefault();
  ev.stopImmediatePropagation(); // the page's own listener would join without the house
  await post("join", { house: select.value });
}

function render(m) {
  const seating = m.seating;
  const kicked = Boolean(seating && username && seating.kicked.includes(username) && m.you === null);
  $("kicked-note").hidden = !kicked;
  const waiting = m.status === "waiting";
  box.hidden = !(waiting && seating && seating.mode);
  if (box.hidden) return;
  const you = m.seats.find((s) => s.is_you) || null;
  const creator = Boolean(m.invite_token); // only the creator's snapshot carries the invite token
  const full = m.seats.length >= m.seats_needed;
  // Draft: the server names the seat picking now (the first player, in join order, without a house).
  const turn = seating.picking === null || seating.picking === undefined ? null : m.seats.find((s) => s.position === seating.picking) || null;
  $("seating-mode").textContent = MODES[seating.mode] + (turn ? ` ${fmt(_("Now picking: %(name)s."), { name: turn.name })}` : "");
  const canPick = you && seating.mode !== "random" && (seating.mode === "choose" || (!you.house && turn && turn.is_you));
  const unassigned = m.seats.filter((s) => !s.house);
  const rows = seating.houses.map((house) => {
    const seat = m.seats.find((s) => s.house === house);
    const kick = creator && seat && !seat.is_you
      ? h("button", { type: "button", class: "button button-small button-secondary", "data-testid": `kick-${seat.position}`,
        onclick: () => post("kick", { position: seat.position }) }, seat.is_ai ? _("Remove AI") : _("Remove player"))
      : null;
    const pick = !seat && canPick
      ? h("button", { type: "button", class: "button button-small", "data-testid": `pick-${house}`,
        onclick: () => post("house", { house }) }, you.house ? _("Switch to this house") : _("Pick"))
      : null;
    return h("li", { class: `${seat ? "taken" : "free"}${seat && seat.is_you ? " mine" : ""}`, "data-testid": "seating-house", "data-house": house },
      h("span", { class: "house-name" }, title(house)),
      h("span", { class: "holder" }, seat ? holder(seat) : _("free")),
      pick, kick);
  });
  // Seated without a house yet (random draw, a draft pick to come): listed with their removal button.
  for (const seat of unassigned) {
    const kick = creator && !seat.is_you
      ? h("button", { type: "button", class: "button button-small button-secondary", "data-testid": `kick-${seat.position}`,
        onclick: () => post("kick", { position: seat.position }) }, seat.is_ai ? _("Remove AI") : _("Remove player"))
      : null;
    rows.push(h("li", { class: `unassigned${seat.is_you ? " mine" : ""}`, "data-testid": "seating-unassigned" },
      h("span", { class: "house-name" }, seating.mode === "random" ? _("House drawn at start") : _("No house yet")),
      h("span", { class: "holder" }, holder(seat)), kick));
  }
  $("seating-houses").replaceChildren(...rows);
  joinForm(m, seating, kicked);
  $("seating-fill").hidden = !(creator && !full);
}

if (box && matchId) {
  document.addEventListener("match:snapshot", (ev) => {
    snapshot = ev.detail.snapshot;
    render(snapshot);
  });
  $("seating-fill").addEventListener("submit", (ev) => {
    ev.preventDefault();
    post("fill-ai", { ai_agent: ev.target.elements.ai_agent.value });
  });
}
