// The one card component: wherever a card appears (search, deck builder, hand, board, zones, log, replay)
// its full text is a hover, a focus or a tap away, in the same frame as on /cards/ (cards.js `cardTile`).
//
//   withCardText(node, card, {extra, keywords, factions})  — make `node` show `card`'s full text:
//       pointer hover or keyboard focus shows a popover next to it; a tap (touch) or the "i" key opens it
//       as a dismissable dialog (Escape, the close button, a tap outside). `card` may be a function that
//       returns the card when asked (the page's data changes under a node). `extra(card)` adds elements
//       below the frame (a unit's live numbers, its attached Ongoing events).
//   cardPanel(card, opts)  — the frame with its text and keyword rules, as the popover shows it.
//   loadCardData()  — factions and keywords, fetched once per page ({factions, keywords}).
import { api, resultsOf } from "./api.js";
import { cardTile, keywordUrl } from "./cards.js";
import { h } from "./dom.js";
import { _, fmt } from "./i18n.js";

let dataPromise = null;
const cache = { factions: {}, keywords: {} };

/** Factions {slug: {...}} and keywords {code: {code, name, reminder_text}}, fetched once per page. */
export function loadCardData() {
  if (!dataPromise) {
    const get = (path) => api(path).then((d) => resultsOf(d)).catch(() => []);
    dataPromise = Promise.all([get("/api/factions/"), get("/api/keywords/")]).then(([factions, keywords]) => {
      cache.factions = Object.fromEntries(factions.map((f) => [f.slug, f]));
      cache.keywords = Object.fromEntries(keywords.map((k) => [k.code, k]));
      return cache;
    });
  }
  return dataPromise;
}

/** The keywords of a card with their rule text, each linked to the cards that have it. */
export function keywordRules(card, known = cache.keywords) {
  const codes = (card.keywords || []).map((k) => (typeof k === "string" ? k : k.code));
  if (!codes.length) return null;
  return h("dl", { class: "keyword-rules", "data-testid": "keyword-rules" }, codes.map((code) => {
    const info = known[code] || {};
    const name = info.name || code.replace(/_/g, " ");
    return [
      h("dt", {}, h("a", { href: keywordUrl(code), title: fmt(_("Cards with %(keyword)s"), { keyword: name }) }, name)),
      h("dd", {}, info.reminder_text || ""),
    ];
  }));
}

/** The card's frame (as on /cards/) with its keywords' rule text and any extra elements below. */
export function cardPanel(card, { extra = null, keywords = cache.keywords, factions = cache.factions } = {}) {
  const tile = cardTile(card, { factions, keywords, link: Boolean(card.slug) });
  tile.classList.add("card-pop-tile");
  const more = extra ? extra(card) : null;
  return h("div", { class: "card-pop-body" }, tile, keywordRules(card, keywords), more);
}

// ---- the popover (one per page) -------------------------------------------------------------------------
let pop = null; // {node, anchor, pinned}
let hideTimer = 0;
let quietFocus = false;

function popNode() {
  let node = document.getElementById("card-pop");
  if (!node) {
    node = h("div", { id: "card-pop", class: "card-pop", role: "dialog", "aria-modal": "false", "aria-label": _("Card text"), hidden: true, "data-testid": "card-pop" });
    node.addEventListener("mouseenter", () => clearTimeout(hideTimer));
    node.addEventListener("mouseleave", () => { if (pop && !pop.pinned) scheduleHide(); });
    document.body.append(node);
    document.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape" && pop) {
        const anchor = pop.anchor;
        hideCard();
        if (anchor && anchor.isConnected) {
          quietFocus = true; // focus goes back to the card without opening it again
          anchor.focus({ preventScroll: true });
          quietFocus = false;
        }
      }
    });
    document.addEventListener("pointerdown", (ev) => {
      if (pop && pop.pinned && !node.contains(ev.target) && !(pop.anchor && pop.anchor.contains(ev.target))) hideCard();
    }, true);
    window.addEventListener("scroll", () => { if (pop && !pop.pinned) hideCard(); }, { passive: true });
    // a hover popover whose card was redrawn (a live update) or left: the pointer is elsewhere now
    document.addEventListener("pointermove", (ev) => {
      if (!pop || pop.pinned || ev.pointerType !== "mouse") return;
      const over = node.contains(ev.target) || (pop.anchor.isConnected && pop.anchor.contains(ev.target));
      if (!over) scheduleHide();
      else clearTimeout(hideTimer);
    }, { passive: true });
  }
  return node;
}

function place(node, anchor, pinned) {
  node.classList.toggle("pinned", pinned);
  if (pinned && window.innerWidth < 700) { // a phone: a sheet at the bottom of the screen
    Object.assign(node.style, { left: "", top: "", right: "", bottom: "" });
    node.classList.add("sheet");
    return;
  }
  node.classList.remove("sheet");
  const r = anchor.getBoundingClientRect();
  const w = node.offsetWidth, hgt = node.offsetHeight;
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  let left = r.right + 8;
  if (left + w > vw - 4) left = r.left - w - 8;
  if (left < 4) left = Math.max(4, Math.min(vw - w - 4, r.left));
  let top = Math.min(Math.max(4, r.top), vh - hgt - 4);
  if (left === Math.max(4, Math.min(vw - w - 4, r.left)) && r.left - w - 8 < 4) { // no room beside: below/above
    top = r.bottom + 6 + hgt <= vh ? r.bottom + 6 : Math.max(4, r.top - hgt - 6);
  }
  Object.assign(node.style, { left: `${left + window.scrollX}px`, top: `${top + window.scrollY}px`, right: "", bottom: "" });
}

/** Show `card` for `anchor`; `pinned` (tap, "i" key): a dialog that stays until dismissed. */
export function showCard(anchor, card, opts = {}, pinned = false) {
  clearTimeout(hideTimer);
  if (!card) return;
  const node = popNode();
  const body = cardPanel(card, opts);
  const close = h("button", { type: "button", class: "card-pop-close", "aria-label": _("Close card text"), "data-testid": "card-pop-close", onclick: () => hideCard() }, "×");
  node.replaceChildren(...(pinned ? [close, body] : [body]));
  node.setAttribute("aria-label", fmt(_("%(card)s: card text"), { card: card.name || _("Card") }));
  node.setAttribute("aria-modal", pinned ? "true" : "false");
  node.hidden = false;
  pop = { node, anchor, pinned };
  place(node, anchor, pinned);
  if (pinned) close.focus({ preventScroll: true });
}

export function hideCard() {
  clearTimeout(hideTimer);
  if (!pop) return;
  pop.node.hidden = true;
  pop.node.replaceChildren();
  pop = null;
}

function scheduleHide() {
  clearTimeout(hideTimer);
  hideTimer = setTimeout(hideCard, 160);
}

/**
 * Give `node` its card's full text on hover, focus and tap. `card`: the card object or a function
 * returning it. Keeps the node's own click (selecting a card in a match): a tap shows the text only when
 * `tapShows` is true (default) and no click handler claimed the tap (`event.defaultPrevented`); a long
 * press (or right click) and the "i" key always show it.
 */
export function withCardText(node, card, opts = {}) {
  const get = typeof card === "function" ? card : () => card;
  const { tapShows = true, focusable = true } = opts;
  let touch = false;
  node.classList.add("has-card-text");
  // `focusable: false`: the node sits inside a control of its own (a unit on a board square), which the
  // keyboard reaches instead; that control opens the text with `node.showCardText(pinned, control)`.
  if (focusable && !node.hasAttribute("tabindex") && !/^(A|BUTTON)$/.test(node.tagName)) node.setAttribute("tabindex", "0");
  node.showCardText = (pinned, anchor = node) => showCard(anchor, get(), opts, pinned);
  node.addEventListener("pointerenter", (ev) => {
    if (ev.pointerType === "mouse") showCard(node, get(), opts, false);
  });
  node.addEventListener("pointerleave", (ev) => {
    if (ev.pointerType === "mouse" && pop && pop.anchor === node && !pop.pinned) scheduleHide();
  });
  node.addEventListener("pointerdown", (ev) => { touch = ev.pointerType !== "mouse"; });
  node.addEventListener("focus", () => { if (!touch && !quietFocus && node.matches(":focus-visible")) showCard(node, get(), opts, false); });
  node.addEventListener("blur", () => { if (pop && pop.anchor === node && !pop.pinned) scheduleHide(); });
  node.addEventListener("click", (ev) => {
    if (!touch || !tapShows) return;
    touch = false;
    // after the whole dispatch: when the page used the tap (a card to play) no dialog covers it
    setTimeout(() => { if (!ev.defaultPrevented) showCard(node, get(), opts, true); }, 0);
  });
  node.addEventListener("contextmenu", (ev) => { // a long press on a phone, a right click
    ev.preventDefault();
    showCard(node, get(), opts, true);
  });
  node.addEventListener("keydown", (ev) => {
    if (ev.key === "i" || ev.key === "I") {
      ev.preventDefault();
      showCard(node, get(), opts, true);
    }
  });
  return node;
}
