// The lobby and invite pages: create a match (or play the AI in one click), join, list matches.
import { api } from "./js/api.js";
import { el } from "./match_render.js";

const $ = (id) => document.getElementById(id);

function showError(id, err) {
  const box = $(id);
  if (!box) return;
  const rules = err.extra && err.extra.errors ? " " + err.extra.errors.map((e) => e.message).join(" ") : "";
  box.textContent = err.message + (rules && !err.message.includes(rules.trim()) ? rules : "");
  box.hidden = false;
}

async function create(form, vsAi) {
  const data = new FormData(form);
  const deck = data.get("deck_id");
  const body = {
    kind: data.get("kind"),
    deck_id: deck ? Number(deck) : null,
    is_public: data.get("is_public") === "on",
    time_control: JSON.parse(data.get("time_control")),
    vs_ai: vsAi,
  };
  const limit = data.get("turn_limit");
  if (limit && body.kind === "commandeer") body.rules_config = { turn_limit: Number(limit) };
  if (body.kind === "westeros") body.rules_config = { player_count: Number(data.get("player_count") || 3) };
  try {
    const match = await api("/api/matches/", { method: "POST", body });
    location.href = `/play/${match.id}/`;
  } catch (err) {
    showError("lobby-error", err);
  }
}

function matchItem(m, action) {
  const seats = m.seats.map((s) => s.name).join(" vs ");
  return el("li", { "data-testid": "match-item", "data-match": m.id },
    el("a", { href: `/play/${m.id}/` }, `#${m.id} ${m.kind}`), ` — ${seats || "empty"} `,
    el("span", { class: "muted" }, m.status === "finished" && m.result ? (m.result.winner_name ? `${m.result.winner_name} won` : m.result.reason) : ""),
    action);
}

async function lists() {
  const fill = async (id, status, label) => {
    const box = $(id);
    if (!box) return;
    try {
      const data = await api(`/api/matches/?status=${status}`);
      const items = (data.results || data).map((m) => matchItem(m, label(m)));
      box.replaceChildren(...(items.length ? items : [el("li", { class: "muted" }, "None right now.")]));
    } catch (err) {
      box.replaceChildren(el("li", { class: "form-error" }, err.message));
    }
  };
  await fill("open-matches", "waiting", (m) => (m.you === null ? el("a", { class: "button button-small", href: `/play/${m.id}/`, "data-testid": "open-match" }, "Join") : el("span", { class: "muted" }, " (yours)")));
  await fill("live-matches", "active", (m) => el("a", { class: "button button-small button-secondary", href: `/play/${m.id}/`, "data-testid": "spectate" }, m.you === null ? "Watch" : "Play"));
  await fill("finished-matches", "finished", (m) => el("a", { class: "button button-small button-secondary", href: `/play/${m.id}/replay/` }, "Replay"));
}

const form = $("new-match");
if (form) {
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    create(form, false);
  });
  $("play-ai").addEventListener("click", () => create(form, true));
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
