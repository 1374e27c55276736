// The lobby and invite pages: create a match (or play the AI in one click), join, list matches.
import { api } from "./js/api.js";
import { h } from "./js/dom.js";
import { _, fmt, pgettext } from "./js/i18n.js";

const $ = (id) => document.getElementById(id);

function showError(id, err) {
  const box = $(id);
  if (!box) return;
  const rules = err.extra && err.extra.errors ? " " + err.extra.errors.map((e) => e.message).join(" ") : "";
  box.textContent = err.message + (rules && !err.message.includes(rules.trim()) ? rules : "");
  box.hidden = false;
}

async function create(form, vsAi, kind = null) {
  const data = new FormData(form);
  const deck = String(data.get("deck_id") || "");
  const starter = deck.startsWith("starter:"); // a starter deck: the server copies it into your decks
  const body = {
    kind: kind || data.get("kind"),
    deck_id: deck && !starter ? Number(deck) : null,
    is_public: data.get("is_public") === "on",
    spectator_chat: data.get("spectator_chat") === "on",
    time_control: JSON.parse(data.get("time_control")),
    vs_ai: vsAi,
    rated: !vsAi && data.get("rated") === "on", // a game against the AI is never rated
    auto_start: data.get("auto_start") === "on",
  };
  // The AI level of every AI seat (easy, normal, hard): "play against the AI" and Westeros' AI houses.
  if (vsAi || Number(data.get("ai_seats") || 0) > 0) body.ai_agent = data.get("ai_agent") || "normal";
  if (starter) body.starter_deck_id = Number(deck.slice("starter:".length));
  const limit = data.get("turn_limit");
  if (limit && body.kind === "commandeer") body.rules_config = { turn_limit: Number(limit) };
  if (body.kind === "westeros") {
    // Westeros (W-1.1): 3-6 houses; how seats get houses (pick, random draw, draft); AI houses; no deck.
    body.deck_id = null;
    delete body.starter_deck_id;
    const seating = data.get("house") === "random" ? "random" : data.get("seating") || "choose";
    body.rules_config = { player_count: Number(data.get("player_count") || 3), seating };
    if (seating !== "random" && data.get("house")) body.rules_config.house = data.get("house");
    if (kind === "westeros" && form.elements.kind.value !== "westeros") {
      // "Westeros: play against AI houses" from the Commandeer form: its own live clock, not Commandeer's.
      const tc = [...form.elements.time_control.options].find((o) => (o.dataset.defaultFor || "").split(" ").includes("westeros"));
      if (tc) body.time_control = JSON.parse(tc.value);
    }
    if (!vsAi) body.ai_seats = Number(data.get("ai_seats") || 0);
  }
  try {
    const match = await api("/api/matches/", { method: "POST", body });
    location.href = `/play/${match.id}/`;
  } catch (err) {
    showError("lobby-error", err);
  }
}

const KIND_LABELS = { commandeer: "Commandeer", westeros: _("Westeros") }; // Commandeer: the brand, never translated
const HOUSE_NAMES = {
  stark: _("Stark"), lannister: _("Lannister"), baratheon: _("Baratheon"), greyjoy: _("Greyjoy"), tyrell: _("Tyrell"), martell: _("Martell"),
};

function matchItem(m, action) {
  const houses = m.seats.some((s) => s.house); // Westeros: "Stark: alice, Lannister: AI (easy), ..."
  const seats = m.seats.map((s) => (s.house ? `${HOUSE_NAMES[s.house] || s.house}: ${s.name}` : s.name)).join(houses ? _(", ") : ` ${_("vs")} `);
  const open = m.status === "waiting" ? ` · ${fmt(_("%(seated)s/%(needed)s seated"), { seated: m.seats.length, needed: m.seats_needed })}` : "";
  return h("li", { "data-testid": "match-item", "data-match": m.id },
    h("a", { href: `/play/${m.id}/` }, `#${m.id} ${KIND_LABELS[m.kind] || m.kind}`), ` — ${seats || _("empty")}${open} `,
    // The result in plain words (the server's result_text: who won and why), never a reason slug.
    h("span", { class: "muted", "data-testid": "match-result" }, m.status === "finished" ? (m.result_text || "") : ""),
    " ", action);
}

async function lists() {
  const fill = async (id, status, label) => {
    const box = $(id);
    if (!box) return;
    try {
      const data = await api(`/api/matches/?status=${status}`);
      const items = (data.results || data).map((m) => matchItem(m, label(m)));
      box.replaceChildren(...(items.length ? items : [h("li", { class: "muted" }, _("None right now."))]));
    } catch (err) {
      box.replaceChildren(h("li", { class: "form-error" }, err.message));
    }
  };
  await fill("open-matches", "waiting", (m) => (m.you === null ? h("a", { class: "button button-small", href: `/play/${m.id}/`, "data-testid": "open-match" }, _("Join")) : h("span", { class: "muted" }, ` ${_("(yours)")}`)));
  await fill("live-matches", "active", (m) => h("a", { class: "button button-small button-secondary", href: `/play/${m.id}/`, "data-testid": "spectate" }, m.you === null ? _("Watch") : pgettext("a match", "Play")));
  await fill("finished-matches", "finished", (m) => h("a", { class: "button button-small button-secondary", href: `/play/${m.id}/replay/` }, _("Replay")));
}

/** Show only the fields of the chosen game; offer only the houses of the chosen player count (W-2). */
function syncKind(form) {
  const kind = form.elements.kind.value;
  for (const label of form.querySelectorAll("[data-kinds]")) label.hidden = !label.dataset.kinds.split(" ").includes(kind);
  const count = Number(form.elements.player_count.value || 3);
  for (const opt of form.elements.house.options) {
    opt.disabled = Number(opt.dataset.minPlayers || 0) > count;
    if (opt.disabled && opt.selected) form.elements.house.value = "";
  }
  for (const opt of form.elements.ai_seats.options) opt.disabled = Number(opt.value) > count - 1;
  // Each level's line names its search time in the chosen game (the engines' budgets differ).
  for (const opt of form.elements.ai_agent.options) opt.textContent = opt.dataset[kind] || opt.textContent;
  // Only the chosen game's time controls (Commandeer per turn, Westeros per decision); its default first.
  const tc = form.elements.time_control;
  const offered = (o) => (o.dataset.kinds || "").split(" ").includes(kind);
  for (const opt of tc.options) opt.hidden = opt.disabled = !offered(opt);
  if (!offered(tc.options[tc.selectedIndex]) || !tc.dataset.touched) {
    const preferred = [...tc.options].find((o) => (o.dataset.defaultFor || "").split(" ").includes(kind)) || [...tc.options].find(offered);
    if (preferred) tc.selectedIndex = preferred.index;
  }
  if (Number(form.elements.ai_seats.value) > count - 1) form.elements.ai_seats.value = String(count - 1);
}

const form = $("new-match");
if (form) {
  const initial = JSON.parse(($("initial-kind") || {}).textContent || "null");
  if (initial && [...form.elements.kind.options].some((o) => o.value === initial)) form.elements.kind.value = initial;
  form.elements.time_control.addEventListener("change", () => { form.elements.time_control.dataset.touched = "1"; });
  // "Random draw for every house" as your house is the random seating, and the other way round.
  form.elements.house.addEventListener("change", () => {
    const random = form.elements.house.value === "random";
    if (random || form.elements.seating.value === "random") form.elements.seating.value = random ? "random" : "choose";
  });
  form.elements.seating.addEventListener("change", () => {
    const random = form.elements.seating.value === "random";
    if (random || form.elements.house.value === "random") form.elements.house.value = random ? "random" : "";
  });
  form.addEventListener("change", () => syncKind(form));
  syncKind(form);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    create(form, false);
  });
  $("play-ai").addEventListener("click", () => create(form, true));
  $("westeros-play-ai").addEventListener("click", () => create(form, true, "westeros"));
}
const join = $("join-form");
if (join) {
  join.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const data = new FormData(join);
    const deck = data.get("deck_id");
    try {
      await api(`/api/matches/${join.dataset.match}/join/`, {
        method: "POST", body: { deck_id: deck ? Number(deck) : null, invite_token: join.dataset.token, house: data.get("house") || "" },
      });
      location.href = `/play/${join.dataset.match}/`;
    } catch (err) {
      showError("join-error", err);
    }
  });
}
lists();
