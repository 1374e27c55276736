// The question before an action that cannot be taken back: a move that loses the match at once, conceding,
// leaving a table. A modal <dialog> in the site's style (css/app.css ".ask"), never window.confirm: its words
// say what will happen and why, rule numbers linked like every rule citation (js/rule_links.js). The safe
// answer has the focus, so Enter or a second press of a key shortcut does not lose the game; Esc and the
// safe button answer no. The page's keyboard shortcuts stay off while it is open (`asking()`).
import { h } from "./dom.js";
import { _ } from "./i18n.js";
import { ruleLinked } from "./rule_links.js";

let open = null;

/** True while a question is on screen: key shortcuts of the page wait for the answer. */
export function asking() {
  return open !== null;
}

/**
 * Ask once; resolves true when the player confirms. `text` may hold rule numbers (C-6.2, W-7.1).
 * `yes` names the action as a verb ("Concede"), `no` the way back (default "Go back").
 */
export function ask({ title, text, yes, no = _("Go back"), testid = "ask" }) {
  if (open) open.answer(false); // one question at a time: a new one replaces an unanswered one
  return new Promise((resolve) => {
    const id = `ask-${Date.now().toString(36)}`;
    const noButton = h("button", { type: "button", class: "button button-secondary", "data-testid": `${testid}-no` }, no);
    const yesButton = h("button", { type: "button", class: "button button-danger", "data-testid": `${testid}-yes` }, yes);
    const dialog = h("dialog", { class: "ask", "aria-labelledby": `${id}-title`, "aria-describedby": `${id}-text`, "data-testid": testid },
      h("h2", { id: `${id}-title`, class: "ask-title" }, title),
      h("p", { id: `${id}-text`, class: "ask-text" }, ruleLinked(text) ?? text),
      h("div", { class: "button-row ask-buttons" }, noButton, yesButton));
    const back = document.activeElement;
    const answer = (value) => {
      if (open !== current) return;
      open = null;
      dialog.close();
      dialog.remove();
      if (back && back.isConnected && typeof back.focus === "function") back.focus({ preventScroll: true });
      resolve(value);
    };
    const current = { answer };
    open = current;
    noButton.addEventListener("click", () => answer(false));
    yesButton.addEventListener("click", () => answer(true));
    dialog.addEventListener("cancel", (ev) => { // Esc
      ev.preventDefault();
      answer(false);
    });
    dialog.addEventListener("click", (ev) => { // a tap on the backdrop, outside the box
      if (ev.target === dialog) {
        const r = dialog.getBoundingClientRect();
        if (ev.clientX < r.left || ev.clientX > r.right || ev.clientY < r.top || ev.clientY > r.bottom) answer(false);
      }
    });
    document.body.append(dialog);
    dialog.showModal();
    noButton.focus();
  });
}
