// @ts-check
// The page's words in the language this browser chose (in the lobby or at the table, remembered), from the
// catalogues i18n/<lang>.json: t("key", {name: "Ann"}) is the key's text with its {fields} filled. A key missing
// from a language's catalogue falls back to the English one. Importing this module waits for the catalogues (a
// top-level await), so every module that imports it may call t() at once. A page that speaks the chosen language
// says so (<html data-translated>), and its fixed text is marked in its HTML (data-i18n="key" for an element's
// text, data-i18n-aria-label / -title for an attribute) and filled by translatePage(). The game's own words (the
// calls, the table talk) come from the server in the seat's language.

import { store } from "./storage.js";

/** The languages the page speaks, each by its name in itself. @type {Record<string, string>} */
export const LANGUAGES = { en: "English", fr: "Français" };
const KEY = "piquet.lang";

/**
 * The language chosen in this browser; without a choice, the browser's own if the page speaks it, else English.
 * @returns {string}
 */
export function chosenLanguage() {
  const kept = store.get(KEY);
  if (kept && kept in LANGUAGES) return kept;
  const own = (typeof navigator === "object" && navigator.language ? navigator.language : "en").slice(0, 2);
  return own in LANGUAGES ? own : "en";
}

/** @param {string} code @returns {Promise<Record<string, string>>} */
async function load(code) {
  try {
    const response = await fetch(new URL(`./i18n/${code}.json`, import.meta.url));
    return response.ok ? await response.json() : {};
  } catch {
    return {}; // the page still shows its HTML's English, and t() its keys' English fallbacks where loaded
  }
}

/** Whether this page speaks the chosen language: the lobby, the table and the review do (their <html
 * data-translated>). A page the server wrote in one language, the guide (which shares the cards' drawing and so this
 * module), speaks its own: the one its <html lang> names. */
const translated = document.documentElement.hasAttribute("data-translated");
const written = document.documentElement.lang;
export const lang = translated ? chosenLanguage() : written in LANGUAGES ? written : "en";
const english = await load("en");
const words = lang === "en" ? english : await load(lang);

/**
 * The text of ``key`` in the chosen language, its {fields} filled from ``params``.
 * @param {string} key
 * @param {Record<string, string | number>} [params]
 * @returns {string}
 */
export function t(key, params = {}) {
  const text = words[key] ?? english[key] ?? key;
  const filled = text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  // A text that begins with what fills it begins with a capital all the same ("l'ordinateur joue" is "L'ordinateur
  // joue"): a French table names the computer in lower case, as the middle of a sentence has it.
  return text.startsWith("{") ? capital(filled) : filled;
}

/** The page's language's plural rule (French: 0 and 1 are singular; English: 1 alone). */
const pluralRule = new Intl.PluralRules(lang);

/**
 * The form of a text for the number ``n``, by the language's plural rule: the key ``one`` for a singular, ``many``
 * else, each with its {fields} filled from ``params`` ({n} among them).
 * @param {number} n @param {string} one @param {string} many
 * @param {Record<string, string | number>} [params]
 */
export function plural(n, one, many, params = {}) {
  return t(pluralRule.select(n) === "one" ? one : many, { n, ...params });
}

/**
 * The text with its first letter a capital: a name shown on its own, at the head of a column or a plate.
 * @param {string} text
 */
export function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/**
 * A reason the server gives (an error's message, a refusal's detail: a clause, "this table allows no takebacks")
 * as the page shows it, a sentence like its own: its first letter a capital, a full stop at its end.
 * @param {string} reason
 * @returns {string}
 */
export function sentence(reason) {
  const text = reason.trim();
  if (!text) return text;
  return text[0].toUpperCase() + text.slice(1) + (/[.!?…]$/.test(text) ? "" : ".");
}

/**
 * Fill the marked text and attributes of ``root`` in the chosen language, and name the document's language.
 * @param {ParentNode} [root]
 */
export function translatePage(root = document) {
  if (!translated) return;
  document.documentElement.lang = lang;
  for (const el of root.querySelectorAll("[data-i18n]")) {
    if (el instanceof HTMLElement && el.dataset.i18n) el.textContent = t(el.dataset.i18n);
  }
  for (const attr of ["aria-label", "title", "placeholder"]) {
    for (const el of root.querySelectorAll(`[data-i18n-${attr}]`)) {
      const key = el.getAttribute(`data-i18n-${attr}`);
      if (key) el.setAttribute(attr, t(key));
    }
  }
}

/**
 * A select of the languages, showing the chosen one; a new choice is kept and the page reloaded in it (the
 * table's connection then asks the server for its words in that language).
 * @param {HTMLSelectElement} select
 */
export function languageChoice(select) {
  select.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) => {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    return option;
  }));
  select.value = lang;
  select.addEventListener("change", () => {
    store.set(KEY, select.value);
    location.reload();
  });
}

translatePage();
