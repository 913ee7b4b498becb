// @ts-check
// The game's words on the page: numbers as the calls say them (in the chosen language), the phases.

import { lang, t } from "../i18n.js";

export const NUMBERS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
  "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"];
export const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
// French numbers follow their own grammar (soixante-dix, quatre-vingts): the words are here with the rule that
// joins them, as the server's piquet.engine.language.french_number says them.
const NOMBRES = ["zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix", "onze",
  "douze", "treize", "quatorze", "quinze", "seize", "dix-sept", "dix-huit", "dix-neuf"];
const DIZAINES = ["", "", "vingt", "trente", "quarante", "cinquante", "soixante"];

/**
 * The computer's thinking time as the table says it: 1 -> "thinks up to 1 s", 0 -> "thinks without a time limit".
 * @param {number} budget CPU seconds per decision (0: no limit)
 * @returns {string}
 */
export function thinkingTime(budget) {
  return budget > 0 ? t("words.thinks_up_to", { s: Math.round(budget * 1000) / 1000 }) : t("words.thinks_unlimited");
}

/**
 * 49 -> "forty-nine", 160 -> "one hundred and sixty" (as the calls say them).
 * @param {number} n
 * @returns {string}
 */
function englishNumber(n) {
  if (n < 0) return "minus " + englishNumber(-n);
  if (n < 20) return NUMBERS[n];
  if (n < 100) return TENS[Math.floor(n / 10)] + (n % 10 ? "-" + NUMBERS[n % 10] : "");
  if (n < 1000) {
    const rest = n % 100;
    return NUMBERS[Math.floor(n / 100)] + " hundred" + (rest ? " and " + englishNumber(rest) : "");
  }
  return String(n);
}

/**
 * 48 -> "quarante-huit", 71 -> "soixante et onze", 80 -> "quatre-vingts".
 * @param {number} n
 * @returns {string}
 */
function frenchNumber(n) {
  if (n < 0) return "moins " + frenchNumber(-n);
  if (n < 20) return NOMBRES[n];
  if (n < 70) {
    const units = n % 10;
    const tens = DIZAINES[Math.floor(n / 10)];
    return units === 0 ? tens : tens + (units === 1 ? " et un" : "-" + NOMBRES[units]);
  }
  if (n < 80) return "soixante" + (n === 71 ? " et onze" : "-" + NOMBRES[n - 60]);
  if (n < 100) return n === 80 ? "quatre-vingts" : "quatre-vingt-" + NOMBRES[n - 80];
  if (n < 1000) {
    const hundreds = Math.floor(n / 100);
    const rest = n % 100;
    const head = hundreds === 1 ? "cent" : NOMBRES[hundreds] + (rest ? " cent" : " cents");
    return head + (rest ? " " + frenchNumber(rest) : "");
  }
  return String(n);
}

/**
 * A number in words in the chosen language.
 * @param {number} n
 * @returns {string}
 */
export function numberWord(n) {
  return lang === "fr" ? frenchNumber(n) : englishNumber(n);
}

export const capitalize = (/** @type {string} */ s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/**
 * What a player says when he scores: "Five." or "Five, twelve." (points, then his total).
 * @param {number} points
 * @param {number | null} [total]
 */
export function reckoning(points, total) {
  if (total === undefined || total === null || total === points) return capitalize(numberWord(points)) + ".";
  return `${capitalize(numberWord(points))}, ${numberWord(total)}.`;
}

/** @type {Record<string, string>} */
export const PHASES = {
  cut: t("phase.cut"),
  choose_dealer: t("phase.choose_dealer"),
  deal: t("phase.deal"),
  bid: t("phase.bid"),
  carte_blanche: t("phase.carte_blanche"),
  exchange: t("phase.exchange"),
  declare: t("phase.declare"),
  play: t("phase.play"),
  over: t("phase.over"),
};
