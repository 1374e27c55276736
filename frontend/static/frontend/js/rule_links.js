// Rule citations (C-6.2, W-7.1, "C-5.2, C-5.3") in shown text become links to the rules pages — the browser's
// twin of the server's `rule_links` template filter (frontend/templatetags/rules.py).
// Only text nodes and <a> elements are created; text is never parsed as HTML.

/** The rules page of each game, by the letter its rule numbers start with. */
export const RULE_PAGES = Object.freeze({ C: "/rules/commandeer/", W: "/rules/westeros/" });

// The digits after a dot are required, so the full stop after "C-5.2." stays outside the number; Thai and
// Chinese letters may touch a number ("见W-9.4的"), Latin letters and digits may not ("ABC-5.2", "C-5.2a").
const RULE_NUMBER = /(?<![A-Za-z0-9_-])([CW])-(\d+(?:\.\d+)*)(?![A-Za-z0-9_-]|\.[A-Za-z0-9_])/g;
// The same without the global flag, for a test that keeps no lastIndex (matchAll starts from a regex's lastIndex).
const HAS_RULE_NUMBER = new RegExp(RULE_NUMBER.source);
// Text inside these is left alone: links already link, code shows code, form fields hold input.
const SKIP = new Set(["A", "CODE", "PRE", "SCRIPT", "STYLE", "TEXTAREA", "INPUT", "SELECT", "OPTION", "BUTTON"]);

/** The address of a rule number's anchor ("C-6.2" → "/rules/commandeer/#C-6.2"), or null for no game's number. */
export function ruleHref(number, pages = RULE_PAGES) {
  const page = pages[String(number).charAt(0)];
  return page ? `${page}#${number}` : null;
}

/**
 * A DocumentFragment of `text` with every rule number as an <a class="rule-ref">; null when it has none.
 * For renderers that build nodes from strings: `el.append(ruleLinked(text) ?? text)`.
 */
export function ruleLinked(text, pages = RULE_PAGES) {
  const value = String(text ?? "");
  const fragment = document.createDocumentFragment();
  let position = 0;
  let found = 0;
  for (const match of value.matchAll(RULE_NUMBER)) {
    const href = ruleHref(match[0], pages);
    if (!href) continue;
    if (match.index > position) fragment.append(document.createTextNode(value.slice(position, match.index)));
    const link = document.createElement("a");
    link.className = "rule-ref";
    link.href = href;
    link.textContent = match[0];
    fragment.append(link);
    position = match.index + match[0].length;
    found += 1;
  }
  if (!found) return null;
  if (position < value.length) fragment.append(document.createTextNode(value.slice(position)));
  return fragment;
}

/** Replace one text node by its text with rule numbers linked. Returns how many links it made. */
export function linkRulesInTextNode(node, pages = RULE_PAGES) {
  if (!node || node.nodeType !== Node.TEXT_NODE || !node.parentNode) return 0;
  const fragment = ruleLinked(node.nodeValue, pages);
  if (!fragment) return 0;
  const count = fragment.querySelectorAll("a").length;
  node.parentNode.replaceChild(fragment, node);
  return count;
}

/** Link every rule number in the text under `root` (outside links, code and form fields). Returns the count. */
export function linkRules(root, pages = RULE_PAGES) {
  if (!root) return 0;
  if (root.nodeType === Node.TEXT_NODE) return linkRulesInTextNode(root, pages);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode(node) {
      for (let el = node.parentElement; el && el !== root.parentElement; el = el.parentElement) {
        if (SKIP.has(el.tagName)) return NodeFilter.FILTER_REJECT;
      }
      return HAS_RULE_NUMBER.test(node.nodeValue) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP;
    },
  });
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  return nodes.reduce((count, node) => count + linkRulesInTextNode(node, pages), 0);
}
