// The tutorial panel shared by both tutorial pages (frontend/templates/frontend/tutorial/_panel.html): the
// step and its progress bar, what happened and why, the instruction, the one button to press (or "Next"),
// the errors, and the talk with the server (/api/tutorials/<game>/): load, send the step's move, restart.
// The server (frontend/tutorial.py) replays the real engine to the learner's step and accepts only the
// step's move, so a page never decides what is legal: it draws its board (`draw`), marks the board element
// the highlight names next (`markBoard`) and labels the buttons (`buttonLabel`, `optionLabel`).
import { api } from "./api.js";
import { h } from "./dom.js";
import { _, fmt } from "./i18n.js";
import { linkRules } from "./rule_links.js";

const $ = (id) => document.getElementById(id);

export class Tutorial {
  /**
   * @param {HTMLElement} root the page's tutorial element (its `data-game` names the lesson)
   * @param {object} page the page's part:
   *   draw(lesson) — draw the board for a new step;
   *   markBoard(next, clicked) — mark the board element `next` names (a highlight token, "" for none);
   *   buttonLabel(expect, kind) — the words on the step's button;
   *   optionLabel(option) — the words for one option of a `choose` decision (offered beside the step's);
   *   happenedLine(line) — a log line as the reader should see it;
   *   wrongClick — what to say when another element is clicked.
   */
  constructor(root, page) {
    this.root = root;
    this.page = page;
    this.url = `/api/tutorials/${root.dataset.game}/`;
    this.lesson = null; // the server's payload for the current step
    this.clicked = 0; // how many of the step's highlighted elements have been used
    this.sending = false;
    $("tutorial-restart").addEventListener("click", () => this.request(`${this.url}restart/`, {}, true));
  }

  /** The highlight token to use next ("area:winterfell", "c:12", "button:bid"), or "". */
  get next() {
    return ((this.lesson && this.lesson.highlight) || [])[this.clicked] || "";
  }

  render() {
    const lesson = this.lesson;
    this.page.draw(lesson);
    const chapter = lesson.chapter;
    $("tutorial-chapter").textContent = chapter.count > 1
      ? fmt(_("Chapter %(number)s of %(count)s: %(title)s"), { number: chapter.index + 1, count: chapter.count, title: chapter.title })
      : chapter.title;
    $("tutorial-step").textContent = lesson.finished ? _("Finished") : fmt(_("Step %(step)s of %(total)s"), { step: lesson.step + 1, total: lesson.total });
    $("tutorial-bar").max = lesson.total;
    $("tutorial-bar").value = lesson.step;
    const happened = lesson.happened || [];
    $("tutorial-explanation").textContent = lesson.explanation || "";
    linkRules($("tutorial-explanation"));
    $("tutorial-happened").replaceChildren(...happened.map((line) => h("li", {}, this.page.happenedLine ? this.page.happenedLine(line) : line)));
    $("tutorial-happened").hidden = !happened.length;
    $("tutorial-what").hidden = !lesson.explanation && !happened.length;
    $("tutorial-instruction").hidden = lesson.finished;
    $("tutorial-instruction").textContent = lesson.instruction || "";
    linkRules($("tutorial-instruction"));
    $("tutorial-done").hidden = !lesson.finished;
    $("tutorial-error").hidden = true;
    this.clicked = 0;
    this.mark();
    document.body.dataset.tutorialStep = String(lesson.step);
    // a panel fixed to the bottom of a phone's screen must not cover the end of the page
    const fixed = getComputedStyle($("decision")).position === "fixed";
    document.body.style.paddingBottom = fixed ? `${$("decision").offsetHeight + 8}px` : "";
  }

  /** Mark the next element to use: on the board (the page's part), or the button to press here. */
  mark() {
    const lesson = this.lesson;
    for (const n of this.root.querySelectorAll(".tutorial-focus")) n.classList.remove("tutorial-focus");
    for (const id of lesson.focus || []) {
      const n = this.root.querySelector(`[data-testid="${id}"]`);
      if (n) n.classList.add("tutorial-focus");
    }
    const next = this.next;
    this.page.markBoard(next.startsWith("button:") ? "" : next, this.clicked);
    const actions = $("tutorial-actions");
    actions.replaceChildren();
    let button = null;
    if (next.startsWith("button:")) {
      const expect = lesson.expect;
      const kind = next.slice("button:".length);
      button = h("button", {
        class: "button button-small tutorial-target", type: "button", "data-testid": "tutorial-action",
        "data-type": kind, onclick: () => this.send(expect),
      }, this.page.buttonLabel(expect, kind));
      actions.append(button, ...this.otherOptions(expect));
    } else if (!lesson.finished && !lesson.expect) {
      button = h("button", { class: "button button-small tutorial-target", type: "button", "data-testid": "tutorial-next", onclick: () => this.send(null) }, _("Next"));
      actions.append(button);
    }
    if (button) {
      // Keyboard and screen-reader users land on the button to press; a phone's reader sees it (a card or
      // square keeps the page still: focusing it would open its card text over the board).
      button.focus({ preventScroll: true });
      // the buttons at the foot of the screen, with the instruction and what it is about above them
      const box = actions.getBoundingClientRect();
      if (box.bottom > window.innerHeight) window.scrollBy({ top: box.bottom - window.innerHeight + 16 });
      else if (box.top < 0) window.scrollBy({ top: box.top - 16 });
    }
  }

  /** A decision's other options (a Westeros card's choice), shown beside the step's so the learner sees
   * what they choose between; they only say to press the highlighted one. */
  otherOptions(expect) {
    const pending = (this.lesson.view && this.lesson.view.pending) || {};
    if (!expect || expect.type !== "choose" || pending.decision !== expect.decision || !this.page.optionLabel) return [];
    return (pending.options || []).filter((o) => o !== expect.option).map((option) => h("button", {
      class: "button button-small button-secondary", type: "button", "data-testid": "tutorial-option", "data-option": option,
      onclick: () => this.error(_("Not that one: press the highlighted button.")),
    }, this.page.optionLabel(option)));
  }

  /** A click (or Enter) on a board element known by `tokens`: the highlighted one moves the step on, another
   * only says where to click. Answers whether the click was the tutorial's to handle. */
  use(tokens) {
    const next = this.next;
    if (!this.lesson || !next || next.startsWith("button:") || this.sending) return false;
    if (!tokens.includes(next)) {
      this.error(this.page.wrongClick);
      return true;
    }
    $("tutorial-error").hidden = true;
    this.clicked += 1;
    this.mark(); // the clicked ones stay marked; the next one lights up (none while the move is sent)
    if (this.clicked >= this.lesson.highlight.length) this.send(this.lesson.expect);
    return true;
  }

  send(action) {
    return this.request(this.url, { step: this.lesson.step, action });
  }

  /** POST to the tutorial's API and show the step it answers; `top` scrolls back up (a restart). */
  async request(path, body, top = false) {
    if (this.sending) return;
    this.sending = true;
    try {
      this.lesson = await api(path, { method: "POST", body });
      this.render();
      if (top) window.scrollTo({ top: 0 });
    } catch (err) {
      this.error(err.message);
    } finally {
      this.sending = false;
    }
  }

  error(text) {
    $("tutorial-error").textContent = text;
    linkRules($("tutorial-error"));
    $("tutorial-error").hidden = false;
  }

  async start() {
    try {
      this.lesson = await api(this.url);
      this.render();
    } catch (err) {
      $("tutorial-load-error").textContent = err.message;
      $("tutorial-load-error").hidden = false;
    }
  }
}
