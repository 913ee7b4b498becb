// @ts-check
// What the server offers (GET /api/setup): the variants, their rule options, the computer's levels. The lobby
// knows no variant of its own: every name, title and option it shows is the server's (the titles and the levels'
// names in the page's language).

import { lang } from "../i18n.js";

import { setupUrl } from "../site/mode.js";

/** @typedef {import("../table/protocol.js").SetupAnswer} SetupAnswer */
/** @typedef {import("../table/protocol.js").VariantSetup} VariantSetup */

/** The computer's level the form offers first (the server's table default). */
export const DEFAULT_LEVEL = 3;

/** The server's setup, once read (`null` until then, or if it could not be read). */
export const setup = {
  /** @type {SetupAnswer | null} */
  answer: null,
};

/**
 * Read the setup from the server; throws if it cannot be read.
 * @returns {Promise<SetupAnswer>}
 */
export async function loadSetup() {
  const res = await fetch(setupUrl(lang), { headers: { Accept: "application/json" } });
  if (!res.ok) throw new Error(`setup: ${res.status}`);
  const answer = /** @type {SetupAnswer} */ (await res.json());
  if (!answer.variants.length) throw new Error("setup: no variant");
  setup.answer = answer;
  return answer;
}

/**
 * The variant of this name, or the server's first.
 * @param {string} name
 * @returns {VariantSetup | null}
 */
export function variantNamed(name) {
  const variants = setup.answer ? setup.answer.variants : [];
  return variants.find((v) => v.name === name) || variants[0] || null;
}

/**
 * An option's name in words: "four_deal_partie" is "Four deal partie".
 * @param {string} name
 */
export function humanise(name) {
  const s = name.replace(/_/g, " ");
  return s[0].toUpperCase() + s.slice(1);
}
