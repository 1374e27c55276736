// Translation and locale formatting for every page script (docs/i18n.md).
//
// The strings come from Django's JavaScript catalogue (/jsi18n/<code>/), a classic script the base template
// loads before any page module; it defines window.django. Mark strings as `_("Text")` in a module (and
// `ngettext`, `pgettext`) so that `makemessages -d djangojs` finds them; put values in with `fmt`, by name,
// never by gluing sentences together: fmt(_("%(unit)s attacks %(target)s"), {unit, target}).
// Without the catalogue (a page opened from a file, a test harness) every function answers the English.

const catalogue = globalThis.django || null;

/** The page's language, as <html lang> says (en, th, zh-hans). */
export const language = (globalThis.document && document.documentElement.lang) || "en";

/** The translation of `text` (English when there is none). */
export function _(text) {
  return catalogue ? catalogue.gettext(text) : text;
}

/** The singular or plural translation for `count`; put the number in with fmt: fmt(ngettext(...), {count}). */
export function ngettext(singular, plural, count) {
  if (catalogue) return catalogue.ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

/** The translation of `text` in a context, for a word with two meanings ("Play" a card / the Play page). */
export function pgettext(context, text) {
  return catalogue ? catalogue.pgettext(context, text) : text;
}

/**
 * `template` with its named placeholders filled, as Python's `%` does: "%(name)s" (and "%(n)d") are
 * replaced by params.name; "%%" is a percent sign. A placeholder without a value is left as it is, so a
 * mistake shows on the page instead of the word "undefined".
 */
export function fmt(template, params = {}) {
  return String(template).replace(/%(?:\(([A-Za-z_][A-Za-z0-9_]*)\))?([sd%])/g, (whole, name, kind) => {
    if (kind === "%") return "%";
    if (name === undefined || !Object.prototype.hasOwnProperty.call(params, name)) return whole;
    const value = params[name];
    return kind === "d" ? formatNumber(Number(value)) : String(value);
  });
}

// Intl formatters are costly to make: one per set of options.
const formatters = new Map();
function formatter(kind, options) {
  const key = `${kind}:${JSON.stringify(options)}`;
  if (!formatters.has(key)) {
    const Make = kind === "number" ? Intl.NumberFormat : Intl.DateTimeFormat;
    let made;
    try {
      made = new Make(language, options);
    } catch (error) {
      made = new Make("en", options); // a browser without the page's locale data
    }
    formatters.set(key, made);
  }
  return formatters.get(key);
}

/** A number in the viewer's locale (grouping as they write it; Thai and Chinese use Western digits). */
export function formatNumber(value, options = {}) {
  return formatter("number", options).format(value);
}

/** A date (and time, with options) in the viewer's locale; `value` is a Date, an ISO string or ms. */
export function formatDate(value, options = { dateStyle: "medium" }) {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  return formatter("date", options).format(date);
}

/** A date with its time, e.g. for "finished at" and deadlines. */
export function formatDateTime(value, options = { dateStyle: "medium", timeStyle: "short" }) {
  return formatDate(value, options);
}

/** A time of day, e.g. a chat message's. */
export function formatTime(value, options = { timeStyle: "short" }) {
  return formatDate(value, options);
}

/** Split text into words where the language has no spaces (Thai), for code that measures or wraps text. */
export function words(text) {
  if (typeof Intl.Segmenter !== "function") return String(text).split(/(\s+)/);
  const segmenter = new Intl.Segmenter(language, { granularity: "word" });
  return Array.from(segmenter.segment(String(text)), (part) => part.segment);
}
