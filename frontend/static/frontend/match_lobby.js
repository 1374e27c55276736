// The lobby and invite pages: create a match (or play the AI in one click), join, list matches.
import { api } from "./js/api.js";
import { h } from "./js/dom.js";

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
  const deck = data.get("deck_id");
  const body = {
    kind: kind || data.get("kind"),
    deck_id: deck ? Number(deck) : null,
    is_public: data.get("is_public") === "on",
    time_control: JSON.parse(data.get("time_control")),
    vs_ai: vsAi,
  };
  // The AI level of every AI seat (easy, normal, hard): "play against the AI" and Westeros' AI houses.
  if (vsAi || Number(data.get("ai_seats") || 0) > 0) body.ai_agent = data.get("ai_agent") || "normal";
  const limit = data.get("turn_limit");
  if (limit && body.kind === "commandeer") body.rules_config = { turn_limit: Number(limit) };
  if (body.kind === "westeros") {
    // Westeros (W-1.1): 3-6 houses, your house or a random draw, any number of AI houses; no deck.
    body.deck_id = null;
    body.rules_config = { player_count: Number(data.get("player_count") || 3), house: data.get("house") || "random" };
    if (!vsAi) body.ai_seats = Number(data.get("ai_seats") || 0);
  }
  try {
    const match = await api("/api/matches/", { method: "POST", body });
    location.href = `/play/${match.id}/`;
  } catch (err) {
    showError("lobby-error", err);
  }
}

function matchItem(m, action) {
  const seats = m.seats.map((s) => s.name).join(" vs ");
  return h("li", { "data-testid": "match-item", "data-match": m.id },
    h("a", { href: `/play/${m.id}/` }, `#${m.id} ${m.kind}`), ` — ${seats || "empty"} `,
    h("span", { class: "muted" }, m.status === "finished" && m.result ? (m.result.winner_name ? `${m.result.winner_name} won` : m.result.reason) : ""),
    action);
}

async function lists() {
  const fill = async (id, status, label) => {
    const box = $(id);
    if (!box) return;
    try {
      const data = await api(`/api/matches/?status=${status}`);
      const items = (data.results || data).map((m) => matchItem(m, label(m)));
      box.replaceChildren(...(items.length ? items : [h("li", { class: "muted" }, "None right now.")]));
    } catch (err) {
      box.replaceChildren(h("li", { class: "form-error" }, err.message));
    }
  };
  await fill("open-matches", "waiting", (m) => (m.you === null ? h("a", { class: "button button-small", href: `/play/${m.id}/`, "data-testid": "open-match" }, "Join") : h("span", { class: "muted" }, " (yours)")));
  await fill("live-matches", "active", (m) => h("a", { class: "button button-small button-secondary", href: `/play/${m.id}/`, "data-testid": "spectate" }, m.you === null ? "Watch" : "Play"));
  await fill("finished-matches", "finished", (m) => h("a", { class: "button button-small button-secondary", href: `/play/${m.id}/replay/` }, "Replay"));
}

/** Show only the fields of the chosen game; offer only the houses of the chosen player count (W-2). */
function syncKind(form) {
  const kind = form.elements.kind.value;
  for (const label of form.querySelectorAll("[data-kinds]")) label.hidden = !label.dataset.kinds.split(" ").includes(kind);
  const count = Number(form.elements.player_count.value || 3);
  for (const opt of form.elements.house.options) {
    opt.disabled = Number(opt.dataset.minPlayers || 0) > count;
    if (opt.disabled && opt.selected) form.elements.house.value = "random";
  }
  for (const opt of form.elements.ai_seats.options) opt.disabled = Number(opt.value) > count - 1;
  // Each level's line names its search time in the chosen game (the engines' budgets differ).
  for (const opt of form.elements.ai_agent.options) opt.textContent = opt.dataset[kind] || opt.textContent;
  // Westeros decides per step, not per turn: its live control is the default until the user picks one.
  const tc = form.elements.time_control;
  if (!tc.dataset.touched) tc.selectedIndex = kind === "westeros" ? [...tc.options].findIndex((o) => o.value.includes("bank_s")) : 0;
  if (Number(form.elements.ai_seats.value) > count - 1) form.elements.ai_seats.value = String(count - 1);
}

const form = $("new-match");
if (form) {
  const initial = JSON.parse(($("initial-kind") || {}).textContent || "null");
  if (initial && [...form.elements.kind.options].some((o) => o.value === initial)) form.elements.kind.value = initial;
  form.elements.time_control.addEventListener("change", () => { form.elements.time_control.dataset.touched = "1"; });
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
    const deck = new FormData(join).get("deck_id");
    try {
      await api(`/api/matches/${join.dataset.match}/join/`, {
        method: "POST", body: { deck_id: deck ? Number(deck) : null, invite_token: join.dataset.token },
      });
      location.href = `/play/${join.dataset.match}/`;
    } catch (err) {
      showError("join-error", err);
    }
  });
}
lists();
