// @ts-check
// The words of the game the table links to the player's guide ("What is a repique?"): each term, the anchor of
// its section in /guide/{variant}, and the question the link asks. The one place the page knows the guide's
// anchors (tests/test_guide.py checks that every guide has each of them).

import { lang, t } from "../i18n.js";
import { h } from "./dom.js";
import { guideHref } from "../site/mode.js";

/** @typedef {import("./protocol.js").Prompt} Prompt */

/**
 * A term of the guide; `variants`: the only variants whose guide has it (all when absent).
 * @typedef {{anchor: string, question: string, variants?: string[]}} Term
 */

/** @type {Record<string, Term>} */
export const GLOSSARY = {
  elder: { anchor: "elder", question: t("glossary.elder") },
  younger: { anchor: "younger", question: t("glossary.younger") },
  talon: { anchor: "talon", question: t("glossary.talon") },
  exchange: { anchor: "exchange", question: t("glossary.exchange") },
  "carte blanche": { anchor: "carte-blanche", question: t("glossary.carte-blanche") },
  declaring: { anchor: "declaring", question: t("glossary.declaring") },
  point: { anchor: "point", question: t("glossary.point") },
  sequences: { anchor: "sequences", question: t("glossary.sequences") },
  sets: { anchor: "sets", question: t("glossary.sets") },
  play: { anchor: "the-play", question: t("glossary.the-play") },
  "the cards": { anchor: "the-cards", question: t("glossary.the-cards") },
  capot: { anchor: "capot", question: t("glossary.capot") },
  repique: { anchor: "repique", question: t("glossary.repique") },
  pique: { anchor: "pique", question: t("glossary.pique") },
  partie: { anchor: "partie", question: t("glossary.partie") },
  rubicon: { anchor: "rubicon", question: t("glossary.rubicon"), variants: ["rubicon", "auction"] },
  contract: { anchor: "contract", question: t("glossary.contract"), variants: ["auction"] },
  games: { anchor: "games", question: t("glossary.games"), variants: ["au-cent"] },
};

/** What a prompt asks about, as a term of the guide. @type {Record<string, string>} */
const PROMPT_TERMS = { carte_blanche: "carte blanche", exchange: "exchange", bid: "contract", concession: "rubicon" };

/** The score lines worth a "What is ...?" (the rare ones; a point or a lead needs no explaining each time). */
const NOTABLE = ["carte blanche", "repique", "pique", "capot", "rubicon"];

/**
 * A link that opens the guide at a term, in a new tab; `null` for a term the variant's guide does not have.
 * @param {string} term a key of GLOSSARY
 * @param {string | undefined} variant the table's variant
 * @returns {HTMLAnchorElement | null}
 */
export function whatIs(term, variant) {
  const entry = GLOSSARY[term];
  const name = variant || "rubicon";
  if (!entry || (entry.variants && !entry.variants.includes(name))) return null;
  return /** @type {HTMLAnchorElement} */ (h("a", {
    className: "whatis",
    href: guideHref(name, `#${entry.anchor}`, lang),
    target: "_blank",
    rel: "noopener",
    "data-term": term,
    text: entry.question,
  }));
}

/**
 * The link for what a prompt asks (the category to declare, carte blanche, the exchange, a bid, a concession).
 * @param {Prompt} prompt @param {string | undefined} variant
 */
export function promptLink(prompt, variant) {
  const term = prompt.kind === "declare" ? prompt.category : PROMPT_TERMS[prompt.kind];
  return term ? whatIs(term, variant) : null;
}

/** The scores whose category is itself a notable term (their reason may be said in another language). */
/** @type {Record<string, string>} */
const NOTABLE_CATEGORIES = { repique: "repique", pique: "pique", carte_blanche: "carte blanche" };

/**
 * The link for a notable score (its category, or its reason, names a repique, a pique, capot, carte blanche), else
 * `null`.
 * @param {string | undefined} reason @param {string | undefined} variant @param {string} [category]
 */
export function scoreLink(reason, variant, category) {
  const said = (reason || "").toLowerCase();
  const term = (category && NOTABLE_CATEGORIES[category]) || NOTABLE.find((word) => new RegExp(`\\b${word}\\b`).test(said));
  return term ? whatIs(term, variant) : null;
}
