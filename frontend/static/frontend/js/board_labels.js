// Board labels: every unit on the board names its card in full when the name fits its square, else by a
// deliberate abbreviation that no other card on the same board shares ("A. Skirmisher", "Ashfoot S.").
// Never an ellipsis: a label is a whole word or an abbreviation marked with a full stop, and the full name
// stays in the unit's accessible label and card text.
//
//   labelCandidates(names)  — {name: [labels, longest first]}, each label told apart from every other name's
//   fitLabels(root)         — give each `.unit-name[data-label-for]` in `root` the longest label that fits
import { words } from "./i18n.js";

const graphemes = (text) => {
  if (typeof Intl !== "undefined" && Intl.Segmenter) {
    return [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)].map((s) => s.segment);
  }
  return [...text];
};

const initial = (word) => graphemes(word)[0] || "";

/** The ways to write one name, longest first: in full, then shortened by whole words, then by letters. */
function variants(name) {
  const text = String(name || "").trim();
  const out = [text];
  const segments = words(text);
  const isWord = (w) => /[\p{L}\p{N}]/u.test(w);
  const parts = segments.filter(isWord);
  const trimEnd = (t) => t.replace(/[\s\p{P}]+$/u, "");
  if (/\p{Lu}/u.test(text) && /\s/.test(text) && parts.length >= 2) {
    // a script with capitals: initials, leaving the small words ("of", "the") out: "Nix, Votary of the
    // Deep" -> "N. V. Deep"
    const major = parts.filter((w, i) => i === 0 || i === parts.length - 1 || w !== w.toLowerCase());
    const last = major[major.length - 1], first = major[0], lead = major.slice(0, -1).map(initial);
    if (major.length >= 2) {
      out.push(`${lead.join(". ")}. ${last}`); // "A. Skirmisher"
      out.push(`${first} ${major.slice(1).map(initial).join(". ")}.`); // "Ashfoot S."
      if (graphemes(last).length > 5) out.push(`${lead.join("")}. ${graphemes(last).slice(0, 4).join("")}.`); // "A. Skir."
      out.push(major.map(initial).join("").toUpperCase()); // "AS"
    }
  } else if (parts.length >= 2) {
    // Thai, Chinese: no initials; whole words from the start (Intl.Segmenter finds Thai words), marked "."
    let prefix = "";
    const prefixes = [];
    for (const segment of segments) {
      prefix += segment;
      if (isWord(segment)) prefixes.push(trimEnd(prefix));
    }
    for (const p of prefixes.slice(0, -1).reverse()) out.push(`${p}.`);
  }
  // last resort: the first letters, cut between grapheme clusters (a Thai vowel stays with its letter)
  const letters = graphemes(text);
  for (let n = Math.min(letters.length - 1, 10); n >= 2; n--) {
    const cut = trimEnd(letters.slice(0, n).join(""));
    if (cut) out.push(`${cut}.`);
  }
  return [...new Set(out.filter(Boolean))];
}

/**
 * For each distinct name, its labels longest first, keeping only those that no other name on the board
 * could also be shown as: whichever label each unit ends up with, two different cards never read alike.
 */
export function labelCandidates(names) {
  const distinct = [...new Set(names)];
  const all = new Map(distinct.map((n) => [n, variants(n)]));
  const owners = new Map(); // label -> the names that could show it
  for (const [name, list] of all) for (const label of list) owners.set(label, (owners.get(label) || new Set()).add(name));
  const out = {};
  for (const [name, list] of all) {
    const own = list.filter((label) => owners.get(label).size === 1);
    out[name] = own.length ? own : [name]; // the full name is the card's own (names are unique)
  }
  return out;
}

const overflows = (node) => node.scrollWidth > node.clientWidth + 0.5 || node.scrollHeight > node.clientHeight + 0.5;

/**
 * Give each unit label in `root` the longest of its card's labels that fits its box without overflow.
 * Labels are chosen per card (every unit of one card reads the same); measured in the page, so they follow
 * the square's size, the language and the font. A label that fits nowhere gets the shortest one, smaller.
 */
export function fitLabels(root) {
  const nodes = [...root.querySelectorAll(".unit-name[data-label-for]")];
  if (!nodes.length) return;
  const byName = new Map();
  for (const node of nodes) {
    const name = node.dataset.labelFor;
    if (!byName.has(name)) byName.set(name, []);
    byName.get(name).push(node);
  }
  const candidates = labelCandidates([...byName.keys()]);
  for (const [name, group] of byName) {
    const list = candidates[name];
    let chosen = list[list.length - 1];
    for (const node of group) node.classList.remove("label-tight");
    for (const label of list) {
      for (const node of group) node.textContent = label;
      if (!group.some(overflows)) { chosen = label; break; }
    }
    for (const node of group) {
      node.textContent = chosen;
      node.dataset.label = chosen;
      if (overflows(node)) node.classList.add("label-tight");
    }
  }
}

/** Fit the labels of `board` now and whenever it changes size (once per board element). */
export function keepLabelsFitted(board) {
  fitLabels(board);
  if (board.dataset.labelsWatched || typeof ResizeObserver !== "function") return;
  board.dataset.labelsWatched = "1";
  let frame = 0;
  let last = board.getBoundingClientRect().width;
  new ResizeObserver(() => {
    const width = board.getBoundingClientRect().width;
    if (Math.abs(width - last) < 1) return;
    last = width;
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => fitLabels(board));
  }).observe(board);
}
