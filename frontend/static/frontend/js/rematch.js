// End of a match and leaving one (matches/_rematch.html; services.rematch and services.seating on the server).
// A finished match offers "Rematch" to its players: the first click records the offer, which the others see
// as "Rematch offered by X — Accept"; once every player has asked, the server makes the new match (same
// settings, sides swapped) and announces its id in the snapshot, and every player's page goes there.
// In a running game of 3+ seats a player may "Leave game": an AI plays their seat on under their name.
// Page add-on: it only listens to document "match:snapshot" (js/live.js) and calls the JSON API.
import { api } from "./api.js";
import { ask } from "./ask.js";
import { _, fmt } from "./i18n.js";

const HOUSE_NAMES = {
  stark: _("Stark"), lannister: _("Lannister"), baratheon: _("Baratheon"), greyjoy: _("Greyjoy"), tyrell: _("Tyrell"), martell: _("Martell"),
};
const $ = (id) => document.getElementById(id);
const box = $("rematch-box");
let snapshot = null;
let going = false;

function matchId() {
  const root = $("match-app") || $("wx-game-app");
  return root ? root.dataset.match : null;
}

function go(id) {
  if (going) return;
  going = true;
  location.href = `/play/${id}/`;
}

function showError(id, err) {
  $(id).textContent = err ? err.message : "";
  $(id).hidden = !err;
}

function render(m) {
  const offer = m.rematch;
  const me = m.you;
  const player = me !== null && me !== undefined && offer && offer.players.includes(me);
  box.hidden = !(m.status === "finished" && offer && (player || offer.match_id || offer.offered_by.length));
  if (!box.hidden) {
    const asked = offer.offered_by.includes(me);
    const others = offer.offered_by_names.filter((name, i) => offer.offered_by[i] !== me);
    const button = $("rematch-button");
    const link = $("rematch-link");
    link.hidden = !offer.match_id;
    if (offer.match_id) {
      link.href = `/play/${offer.match_id}/`;
      link.textContent = player ? _("Go to the rematch") : _("Watch the rematch");
      $("rematch-text").textContent = _("The rematch has started.");
      button.hidden = true;
      if (player) go(offer.match_id);
    } else if (!player) {
      $("rematch-text").textContent = fmt(_("Rematch offered by %(players)s."), { players: offer.offered_by_names.join(", ") });
      button.hidden = true;
    } else if (asked) {
      const waiting = offer.players.filter((p) => !offer.offered_by.includes(p)).map((p) => (m.seats.find((s) => s.position === p) || {}).name);
      $("rematch-text").textContent = fmt(_("Rematch offered — waiting for %(players)s to accept."), { players: waiting.join(", ") });
      button.hidden = true;
    } else if (others.length) {
      $("rematch-text").textContent = fmt(_("Rematch offered by %(players)s."), { players: others.join(", ") });
      button.textContent = _("Accept rematch");
      button.hidden = false;
    } else {
      $("rematch-text").textContent = _("Play again with the same settings, sides swapped.");
      button.textContent = _("Rematch");
      button.hidden = false;
    }
  }
  // Leaving a running game of 3+ seats (a 2-player game is conceded instead, C-6.4).
  const mine = m.seats.find((s) => s.is_you);
  if ($("leave-box")) $("leave-box").hidden = !(m.status === "active" && mine && !mine.is_ai && m.seats.length >= 3);
}

if (box && matchId()) {
  document.addEventListener("match:snapshot", (ev) => {
    snapshot = ev.detail.snapshot;
    render(snapshot);
  });
  $("rematch-button").addEventListener("click", async () => {
    const button = $("rematch-button");
    button.disabled = true; // a double click sends one request (the server makes one rematch anyway)
    showError("rematch-error", null);
    try {
      const answer = await api(`/api/matches/${matchId()}/rematch/`, { method: "POST" });
      if (answer.match) go(answer.match.id);
      else if (snapshot) render({ ...snapshot, rematch: answer.rematch });
    } catch (err) {
      if (err.extra && err.extra.match_id) go(err.extra.match_id);
      else showError("rematch-error", err);
    } finally {
      button.disabled = false;
    }
  });
  $("leave-game")?.addEventListener("click", async () => {
    const mine = snapshot && snapshot.seats.find((s) => s.is_you);
    const house = mine && HOUSE_NAMES[mine.house];
    const yes = await ask({
      title: _("Leave this game?"),
      text: house
        ? fmt(_("An AI plays House %(house)s on to the end under your name, marked “(AI, left)”. You can still watch, but you cannot take the seat back."), { house })
        : _("An AI plays your house on to the end under your name, marked “(AI, left)”. You can still watch, but you cannot take the seat back."),
      yes: _("Leave the game"),
      testid: "leave-question",
    });
    if (!yes) return;
    try {
      await api(`/api/matches/${matchId()}/leave/`, { method: "POST" });
      location.reload();
    } catch (err) {
      showError("leave-error", err);
    }
  });
}
