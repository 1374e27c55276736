// Match chat, an add-on of both game pages (templates/frontend/matches/_chat.html).
// The channels this viewer may read and write come with every snapshot (`snapshot.chat.channels`, through
// the document event "match:snapshot" of js/live.js); history is read over REST
// (GET /api/matches/<id>/chat/?channel=…); new messages arrive on the match socket as "match:message"
// events {"type": "chat", "channel", "message"} (or {"type": "chat", "channel", "removed": id} when staff
// hid one). Every piece of user text is set with textContent: a message is text, never HTML.
import { api, ApiError } from "./api.js";
import { h } from "./dom.js";
import { _, fmt, formatTime, ngettext, pgettext } from "./i18n.js";

// The server names the shared channels in English ("Table", "Spectators"); they are shown by their id.
const CHANNEL_NAMES = { table: pgettext("chat channel", "Table"), spectators: pgettext("chat channel", "Spectators") };
const channelName = (c) => CHANNEL_NAMES[c.id] || c.label;

const root = document.getElementById("chat");
const OPEN_KEY = "chat:open";
const PAGE = 50;
const HOUSE_NAMES = {
  stark: _("Stark"), lannister: _("Lannister"), baratheon: _("Baratheon"), greyjoy: _("Greyjoy"), tyrell: _("Tyrell"), martell: _("Martell"),
};

if (root) start(root);

function start(root) {
  const matchId = root.dataset.match;
  const me = root.dataset.user || "";
  const base = `/api/matches/${matchId}/chat/`;
  const $ = (id) => document.getElementById(id);
  const toggle = $("chat-toggle");
  const body = $("chat-body");
  const tabs = $("chat-tabs");
  const list = $("chat-messages");
  const older = $("chat-older");
  const form = $("chat-form");
  const input = $("chat-input");
  const count = $("chat-count");
  const send = $("chat-send");
  const note = $("chat-note");
  const error = $("chat-error");
  const badge = $("chat-badge");

  /** @type {{id: string, label: string, write: boolean}[]} */
  let channels = [];
  let maxChars = Number(input.getAttribute("maxlength")) || 500;
  let active = null;
  const messages = new Map(); // channel -> Map(id -> message), each in id order
  const loaded = new Set(); // channels whose history was read
  const readAt = new Map(); // channel -> when its history was last read (ms)
  const FRESH_MS = 3000; // a full snapshot within this time of a read needs no second read
  const hasMore = new Map();
  const unread = new Map();
  let muted = new Set();
  let seatHouse = new Map(); // seat position -> its house (Westeros), from the latest snapshot
  let mutesRead = false;
  let sending = false;

  // Wide enough for the table and the chat side by side (the page's include says from which width):
  // the open chat docks on the right (chat.css .is-docked); narrower, it opens over the page.
  const dock = window.matchMedia(`(min-width: ${Number(root.dataset.dockMin) || 1200}px)`);
  const isOpen = () => !body.hidden;
  const docked = () => isOpen() && !root.hidden && dock.matches;
  // Open or closed is remembered per layout (docked beside the table, or a drawer over it on a phone),
  // and only when the player chose it: by default the chat is docked open where it fits beside the table
  // and another person can answer, and a closed drawer on a phone, so the game comes first.
  const layoutKey = () => `${OPEN_KEY}:${dock.matches ? "dock" : "drawer"}`;
  let someoneToTalkTo = false;
  function remembered() {
    try {
      return localStorage.getItem(layoutKey());
    } catch {
      return null; // private mode: nothing remembered
    }
  }
  function defaultOpen() {
    const stored = remembered();
    return stored === null ? dock.matches && someoneToTalkTo : stored === "1";
  }
  // Folded, the chat is only its button, in the page's header (the page's `data-chat-slot`): it never
  // lies over the board, the hand or a decision. Open, it docks beside the page (wide screens) or is a
  // sheet over the whole screen with its own close button (chat.css).
  const slot = document.querySelector("[data-chat-slot]");
  if (slot) {
    slot.append(toggle);
    root.classList.add("has-slot");
  }
  function setOpen(open, { remember = false } = {}) {
    root.classList.toggle("is-docked", dock.matches);
    body.hidden = !open;
    root.classList.toggle("is-open", open);
    document.body.classList.toggle("chat-docked", docked());
    toggle.setAttribute("aria-expanded", String(open));
    if (remember) {
      try {
        localStorage.setItem(layoutKey(), open ? "1" : "0");
      } catch {
        /* private mode: nothing to remember */
      }
    }
    if (open && active) {
      unread.set(active, 0);
      renderTabs();
      scrollToEnd();
    }
  }
  toggle.addEventListener("click", () => setOpen(!isOpen(), { remember: true }));
  $("chat-close").addEventListener("click", () => {
    setOpen(false, { remember: true });
    toggle.focus();
  });
  dock.addEventListener("change", () => setOpen(defaultOpen())); // rotated, or a window resized across 1200px
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && isOpen() && (root.contains(document.activeElement) || document.activeElement === toggle)) {
      setOpen(false);
      toggle.focus();
    }
  });

  // ---- channels ------------------------------------------------------------------------------------------------
  function setChannels(next, { full }) {
    const key = (list) => JSON.stringify(list.map((c) => [c.id, c.label]));
    const changed = key(next) !== key(channels);
    channels = next;
    root.hidden = channels.length === 0;
    toggle.hidden = root.hidden; // in the page's header when the page has a place for it
    document.body.classList.toggle("has-chat", !root.hidden);
    document.body.classList.toggle("chat-docked", docked());
    for (const id of [...unread.keys()]) if (!channels.some((c) => c.id === id)) unread.delete(id);
    if (!channels.some((c) => c.id === active)) {
      active = channels.length ? channels[0].id : null; // the channel left this viewer's list
      if (active) renderMessages();
    }
    if (changed) renderTabs();
    renderForm();
    if (me && !mutesRead) {
      mutesRead = true; // after the page's own first state read, never before it
      api("/api/chat/mutes/")
        .then((data) => {
          muted = new Set(data.muted);
          renderMuted();
          if (active) renderMessages();
        })
        .catch(() => {});
    }
    const now = Date.now();
    for (const c of channels) {
      const stale = full && now - (readAt.get(c.id) || 0) > FRESH_MS;
      if (!readAt.has(c.id) || stale) {
        readAt.set(c.id, now);
        loadHistory(c.id, { refresh: loaded.has(c.id) });
      }
    }
  }

  function renderTabs() {
    const buttons = channels.map((c) => {
      const selected = c.id === active;
      const n = unread.get(c.id) || 0;
      return h(
        "button",
        {
          type: "button",
          role: "tab",
          id: `chat-tab-${cssId(c.id)}`,
          class: "chat-tab",
          "aria-selected": String(selected),
          "aria-controls": "chat-panel",
          tabindex: selected ? "0" : "-1",
          dataset: { channel: c.id, testid: "chat-tab" },
          onclick: () => select(c.id),
          onkeydown: (event) => tabKeys(event, c.id),
        },
        channelName(c),
        n ? h("span", { class: "chat-tab-unread", "aria-label": fmt(ngettext("%(count)s unread", "%(count)s unread", n), { count: n }) }, String(n)) : null,
      );
    });
    tabs.replaceChildren(...buttons);
    $("chat-panel").setAttribute("aria-labelledby", active ? `chat-tab-${cssId(active)}` : "");
    const total = [...unread.values()].reduce((a, b) => a + b, 0);
    badge.hidden = total === 0;
    badge.textContent = total ? String(total) : "";
    badge.setAttribute("aria-label", fmt(ngettext("%(count)s unread", "%(count)s unread", total), { count: total }));
  }

  function tabKeys(event, id) {
    const at = channels.findIndex((c) => c.id === id);
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (!step) return;
    event.preventDefault();
    const next = channels[(at + step + channels.length) % channels.length];
    select(next.id);
    document.getElementById(`chat-tab-${cssId(next.id)}`)?.focus();
  }

  function select(id) {
    active = id;
    unread.set(id, 0);
    hideError();
    renderTabs();
    renderForm();
    renderMessages();
    scrollToEnd();
  }

  function renderForm() {
    const channel = channels.find((c) => c.id === active);
    const canWrite = Boolean(channel && channel.write);
    input.disabled = send.disabled = !canWrite || sending;
    form.hidden = !channel;
    input.placeholder = canWrite ? fmt(_("Message %(channel)s"), { channel: channelName(channel) }) : whyReadOnly(channel);
    input.setAttribute("maxlength", String(maxChars));
    updateCount();
  }

  function whyReadOnly(channel) {
    if (!channel) return "";
    if (channel.id === "table") return _("Only the players write here");
    if (channel.id === "spectators") return me ? _("Only spectators write here") : _("Sign in to chat with the spectators");
    return _("You cannot write here");
  }

  // ---- messages --------------------------------------------------------------------------------------------------
  function store(channel, message) {
    if (!messages.has(channel)) messages.set(channel, new Map());
    messages.get(channel).set(message.id, message);
  }

  function sorted(channel) {
    return [...(messages.get(channel) || new Map()).values()]
      .filter((m) => !muted.has(m.author))
      .sort((a, b) => a.id - b.id);
  }

  async function loadHistory(channel, { refresh = false, before = null } = {}) {
    const params = new URLSearchParams({ channel, limit: String(PAGE) });
    if (before) params.set("before", String(before));
    try {
      const data = await api(`${base}?${params}`);
      if (refresh && !before) messages.set(channel, new Map());
      for (const m of data.messages) store(channel, m);
      hasMore.set(channel, data.has_more);
      loaded.add(channel);
      if (channel === active) {
        const keep = before ? list.scrollHeight - list.scrollTop : null;
        renderMessages();
        if (keep !== null) list.scrollTop = list.scrollHeight - keep;
        else scrollToEnd();
      }
    } catch (err) {
      if (err instanceof ApiError && err.status === 403) return; // the channel left this viewer's list
      if (channel === active) showError(err.message || _("The chat could not be loaded."));
    }
  }

  older.addEventListener("click", () => {
    const first = sorted(active)[0];
    if (first) loadHistory(active, { before: first.id });
  });

  function renderMessages() {
    const items = sorted(active).map(renderMessage);
    if (!items.length) items.push(h("li", { class: "chat-empty" }, emptyText()));
    const channel = channels.find((c) => c.id === active);
    if (channel && channel.id.startsWith("private:")) {
      items.unshift(
        h(
          "li",
          { class: "chat-private-note", dataset: { testid: "chat-private-note" } },
          fmt(_("Private: only you and %(player)s read this, during the game and after it."), { player: channel.label }),
        ),
      );
    }
    list.replaceChildren(...items);
    older.hidden = !hasMore.get(active);
  }

  function emptyText() {
    if (active === "table") return _("No messages yet. Say hello to the table.");
    if (active === "spectators") return _("No messages from spectators yet.");
    return _("No messages yet.");
  }

  function renderMessage(m) {
    const mine = me && m.author === me;
    const time = new Date(m.created_at);
    let author;
    if (mine) author = h("span", { class: "chat-author" }, _("You"));
    else if (!me) author = h("span", { class: "chat-author" }, m.author); // signed out: nobody to mute for
    else {
      author = h(
        "button",
        {
          type: "button",
          class: "chat-author",
          title: fmt(_("Mute %(player)s"), { player: m.author }),
          "aria-label": fmt(_("%(player)s: options"), { player: m.author }),
          dataset: { testid: "chat-author" },
          onclick: (event) => authorMenu(event.currentTarget, m.author),
        },
        m.author,
      );
    }
    return h(
      "li",
      {
        class: `chat-message${mine ? " is-mine" : ""}`,
        dataset: { id: String(m.id), testid: "chat-message", author: m.author },
      },
      h(
        "div",
        { class: "chat-meta" },
        author,
        h("span", { class: "chat-role" }, roleOf(m)),
        h(
          "time",
          { datetime: m.created_at, class: "chat-time" },
          isNaN(time) ? "" : formatTime(time, { hour: "2-digit", minute: "2-digit" }),
        ),
      ),
      h("p", { class: "chat-text", dataset: { testid: "chat-text" } }, m.body),
    );
  }

  function roleOf(m) {
    if (m.seat === null || m.seat === undefined) return _("spectator");
    const house = seatHouse.get(m.seat);
    return house ? HOUSE_NAMES[house] || house.charAt(0).toUpperCase() + house.slice(1) : "";
  }

  function authorMenu(button, author) {
    const item = button.closest("li");
    const open = item.querySelector(".chat-menu");
    document.querySelectorAll(".chat-menu").forEach((n) => n.remove());
    if (open || !me) return;
    const menu = h(
      "div",
      { class: "chat-menu" },
      h(
        "button",
        {
          type: "button",
          class: "button button-small button-secondary",
          dataset: { testid: "chat-mute" },
          onclick: () => mute(author),
        },
        fmt(_("Mute %(player)s"), { player: author }),
      ),
    );
    item.append(menu);
    menu.querySelector("button").focus();
  }

  async function mute(author) {
    try {
      const data = await api(`/api/chat/mutes/${encodeURIComponent(author)}/`, { method: "PUT" });
      muted = new Set(data.muted);
      renderMessages();
      renderMuted();
    } catch (err) {
      showError(err.message);
    }
  }

  async function unmute(author) {
    try {
      const data = await api(`/api/chat/mutes/${encodeURIComponent(author)}/`, { method: "DELETE" });
      muted = new Set(data.muted);
      for (const c of loaded) loadHistory(c, { refresh: true });
      renderMuted();
    } catch (err) {
      showError(err.message);
    }
  }

  function renderMuted() {
    const names = [...muted].sort();
    note.hidden = names.length === 0;
    note.replaceChildren(
      _("Muted:"), " ",
      ...names.flatMap((name, i) => [
        i ? ", " : "",
        h("span", { class: "chat-muted-name" }, name),
        " ",
        h(
          "button",
          {
            type: "button",
            class: "chat-link",
            dataset: { testid: "chat-unmute" },
            "aria-label": fmt(_("Unmute %(player)s"), { player: name }),
            onclick: () => unmute(name),
          },
          _("unmute"),
        ),
      ]),
    );
  }

  function scrollToEnd() {
    list.scrollTop = list.scrollHeight;
  }

  function atEnd() {
    return list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  }

  // ---- live ------------------------------------------------------------------------------------------------------
  document.addEventListener("match:snapshot", (event) => {
    const { snapshot } = event.detail;
    const chat = snapshot && snapshot.chat;
    if (!chat) return;
    if (chat.max_chars) maxChars = chat.max_chars;
    seatHouse = new Map((snapshot.seats || []).filter((x) => x.house).map((x) => [x.position, x.house]));
    const talker = (snapshot.seats || []).some((x) => !x.is_ai && !x.is_you) || snapshot.you === null;
    if (talker !== someoneToTalkTo) {
      someoneToTalkTo = talker; // another person seated (or we are a spectator): worth opening by default
      if (remembered() === null) setOpen(defaultOpen());
    }
    // A full snapshot comes after every (re)connect: read the history again so nothing missed while
    // the socket was down stays missing.
    setChannels(chat.channels || [], { full: snapshot.log_since === null });
  });

  document.addEventListener("match:message", (event) => {
    const message = event.detail && event.detail.message;
    if (!message || message.type !== "chat" || !channels.some((c) => c.id === message.channel)) return;
    const channel = message.channel;
    if (message.removed !== undefined) {
      messages.get(channel)?.delete(message.removed);
      if (channel === active) renderMessages();
      return;
    }
    const m = message.message;
    if (!m || typeof m.id !== "number" || muted.has(m.author)) return;
    const follow = atEnd();
    store(channel, m);
    if (channel === active) {
      renderMessages();
      if (follow || m.author === me) scrollToEnd();
    }
    if (m.author !== me && (channel !== active || !isOpen())) {
      unread.set(channel, (unread.get(channel) || 0) + 1);
      renderTabs();
    }
  });

  // ---- sending ---------------------------------------------------------------------------------------------------
  function updateCount() {
    const n = input.value.trim().length;
    count.textContent = `${n}/${maxChars}`;
    count.classList.toggle("is-near", n > maxChars - 50);
  }
  input.addEventListener("input", () => {
    updateCount();
    hideError();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || !active || sending) return;
    sending = true;
    renderForm();
    try {
      const posted = await api(`${base}?channel=${encodeURIComponent(active)}`, {
        method: "POST",
        body: { body: text },
      });
      store(active, posted);
      input.value = "";
      renderMessages();
      scrollToEnd();
      hideError();
    } catch (err) {
      showError(err.message || _("The message was not sent."));
    } finally {
      sending = false;
      renderForm();
      input.focus();
    }
  });

  function showError(text) {
    error.textContent = text;
    error.hidden = false;
  }
  function hideError() {
    error.hidden = true;
    error.textContent = "";
  }

  // ---- start -----------------------------------------------------------------------------------------------------
  root.hidden = true; // shown once the first snapshot lists its channels
  toggle.hidden = true;
  setOpen(defaultOpen());
  const held = window.liveMatch && window.liveMatch.snapshot;
  if (held && held.chat) setChannels(held.chat.channels || [], { full: false });
}

function cssId(channel) {
  return channel.replace(/[^a-z0-9_-]/gi, "-");
}
