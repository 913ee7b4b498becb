// @ts-check
// The review page's numbers: a value to a tenth, its sign written (docs/review.md, "In the browser"), in the page's
// language's digits (a decimal comma in French).

import { lang } from "../i18n.js";

/** A number as the page's language writes it. @param {number} x */
function digits(x) {
  return lang === "fr" ? String(x).replace(".", ",") : String(x);
}

/**
 * A value rounded to a tenth with its sign: "+12.3", "−4", "0" (the minus sign, not the hyphen).
 * @param {number} x
 */
export function signed(x) {
  const r = Math.round(x * 10) / 10;
  return (r > 0 ? "+" : r < 0 ? "−" : "") + digits(Math.abs(r));
}

/**
 * A value's size to a tenth, without its sign: "12.3".
 * @param {number} x
 */
export function size(x) {
  return digits(Math.abs(Math.round(x * 10) / 10));
}
