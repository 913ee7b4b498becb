// @ts-check
// The words of the game the table links to the player's guide ("What is a repique?"): each term, the anchor of
// its section in /guide/{variant}, and the question the link asks. The one place the page knows the guide's
// anchors (tests/test_guide.py checks that every guide has each of them).

import { h } from "./dom.js";

/** @typedef {import("./protocol.js").Prompt} Prompt */

/**
 * A term of the guide; `variants`: the only variants whose guide has it (all when absent).
 * @typedef {{anchor: string, question: string, variants?: string[]}} Term
 */

/** @type {Record<string, Term>} */
export const GLOSSARY = {
  elder: { anchor: "elder", question: "Who is elder?" },
  younger: { anchor: "younger", question: "Who is younger?" },
  talon: { anchor: "talon", question: "What is the talon?" },
  exchange: { anchor: "exchange", question: "How does the exchange work?" },
  "carte blanche": { anchor: "carte-blanche", question: "What is carte blanche?" },
  declaring: { anchor: "declaring", question: "How are combinations declared?" },
  point: { anchor: "point", question: "What is the point?" },
  sequences: { anchor: "sequences", question: "What are sequences?" },
  sets: { anchor: "sets", question: "What are sets?" },
  play: { anchor: "the-play", question: "How is the play scored?" },
  "the cards": { anchor: "the-cards", question: "What are the cards?" },
  capot: { anchor: "capot", question: "What is capot?" },
  repique: { anchor: "repique", question: "What is a repique?" },
  pique: { anchor: "pique", question: "What is a pique?" },
  partie: { anchor: "partie", question: "What is a partie?" },
  rubicon: { anchor: "rubicon", question: "What is the rubicon?", variants: ["rubicon", "auction"] },
  contract: { anchor: "contract", question: "What is a contract?", variants: ["auction"] },
  games: { anchor: "games", question: "How is a game won?", variants: ["au-cent"] },
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
    href: `/guide/${encodeURIComponent(name)}#${entry.anchor}`,
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

/**
 * The link for a notable score (its reason names a repique, a pique, capot, carte blanche), else `null`.
 * @param {string | undefined} reason @param {string | undefined} variant
 */
export function scoreLink(reason, variant) {
  const said = (reason || "").toLowerCase();
  const term = NOTABLE.find((t) => new RegExp(`\\b${t}\\b`).test(said));
  return term ? whatIs(term, variant) : null;
}
