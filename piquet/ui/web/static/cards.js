// @ts-check
// Playing cards drawn as inline SVG, and small helpers for card notation.
//
// A card is written as in the game records: rank (A K Q J T 9 8 7) then suit
// (S H D C), e.g. "QS", "TD". Faces are generated here; suit shapes and the
// pattern of the card back live once in a hidden sprite (ensureSprite).

import { t } from "./i18n.js";

/** @type {Record<string, {name: string, symbol: string}>} */
export const SUITS = {
  S: { name: "spades", symbol: "\u2660" },
  H: { name: "hearts", symbol: "\u2665" },
  D: { name: "diamonds", symbol: "\u2666" },
  C: { name: "clubs", symbol: "\u2663" },
};

/**
 * The ranks, each with its index as the page's language marks it: a French pack's court cards are R, D, V (roi,
 * dame, valet; the ace keeps its A, as most French packs print it). The codes stay the records' (K, Q, J).
 * @type {Record<string, {name: string, label: string}>}
 */
export const RANKS = {
  A: { name: "ace", label: "A" },
  K: { name: "king", label: t("index.K") },
  Q: { name: "queen", label: t("index.Q") },
  J: { name: "knave", label: t("index.J") },
  T: { name: "ten", label: "10" },
  9: { name: "nine", label: "9" },
  8: { name: "eight", label: "8" },
  7: { name: "seven", label: "7" },
};

const SUIT_ORDER = "SHDC";
const RANK_ORDER = "AKQJT987";

/**
 * True for a card code such as "QS".
 * @param {unknown} code
 * @returns {code is string}
 */
export function isCard(code) {
  return typeof code === "string" && code.length === 2 && code[0] in RANKS && code[1] in SUITS;
}

/** "queen of spades" @param {unknown} code */
export function cardName(code) {
  if (!isCard(code)) return String(code);
  return t("card.name", { rank: t(`rank.${code[0]}`), suit: t(`suit.${code[1]}`) });
}

/** "Q♠", "10♥" @param {unknown} code */
export function cardShort(code) {
  if (!isCard(code)) return String(code);
  return RANKS[code[0]].label + SUITS[code[1]].symbol;
}

/** Sort by suit (spades, hearts, diamonds, clubs), then rank high first. @param {Iterable<string>} cards */
export function sortCards(cards) {
  const key = (/** @type {string} */ c) => SUIT_ORDER.indexOf(c[1]) * 8 + RANK_ORDER.indexOf(c[0]);
  return [...cards].sort((a, b) => key(a) - key(b));
}

// ------------------------------------------------------------------ sprite

const SVG_NS = "http://www.w3.org/2000/svg";

// Suit shapes in a 100 x 100 box, filled with currentColor.
/** @type {Record<string, string>} */
const SUIT_SHAPES = {
  H: '<path d="M50 92C38 78 4 58 4 30C4 14 16 4 29 4C39 4 46 10 50 19C54 10 61 4 71 4C84 4 96 14 96 30C96 58 62 78 50 92Z"/>',
  D: '<path d="M50 2L86 50L50 98L14 50Z"/>',
  S: '<path d="M50 2C58 18 96 38 96 62C96 77 85 86 73 86C64 86 57 81 53 74C54 84 58 92 66 98H34C42 92 46 84 47 74C43 81 36 86 27 86C15 86 4 77 4 62C4 38 42 18 50 2Z"/>',
  C: '<circle cx="50" cy="27" r="22"/><circle cx="25" cy="60" r="22"/><circle cx="75" cy="60" r="22"/>' +
     '<path d="M42 40H58V60H42Z"/><path d="M46 58C46 78 42 90 32 98H68C58 90 54 78 54 58Z"/>',
};

/** Put the suit symbols and the back pattern into the document once. */
export function ensureSprite(doc = document) {
  if (doc.getElementById("pq-sprite")) return;
  const holder = doc.createElement("div");
  holder.innerHTML =
    `<svg id="pq-sprite" xmlns="${SVG_NS}" aria-hidden="true" focusable="false" ` +
    'style="position:absolute;width:0;height:0;overflow:hidden">' +
    "<defs>" +
    Object.entries(SUIT_SHAPES)
      .map(([s, shape]) => `<symbol id="pq-suit-${s}" viewBox="0 0 100 100">${shape}</symbol>`)
      .join("") +
    Object.keys(RANKS).map(rankSymbols).join("") +
    '<pattern id="pq-back-pattern" width="12" height="12" patternUnits="userSpaceOnUse" ' +
    'patternTransform="rotate(45)">' +
    '<rect width="12" height="12" fill="#7d1f2c"/>' +
    '<rect x="1" y="1" width="4" height="4" fill="#9c2f3e"/>' +
    '<rect x="7" y="7" width="4" height="4" fill="#9c2f3e"/>' +
    "</pattern>" +
    "</defs></svg>";
  doc.body.prepend(/** @type {ChildNode} */ (holder.firstChild));
}

// ------------------------------------------------------------------ faces

// Pip centres for the number cards in a 100 x 140 card (x, y); y > 70 are drawn upside down.
const L = 35, M = 50, R = 65;
/** @type {Record<string, number[][]>} */
const PIPS = {
  7: [[L, 30], [R, 30], [M, 50], [L, 70], [R, 70], [L, 110], [R, 110]],
  8: [[L, 30], [R, 30], [M, 50], [L, 70], [R, 70], [M, 90], [L, 110], [R, 110]],
  9: [[L, 30], [R, 30], [L, 56.7], [R, 56.7], [M, 70], [L, 83.3], [R, 83.3], [L, 110], [R, 110]],
  T: [[L, 30], [R, 30], [M, 43], [L, 56.7], [R, 56.7], [L, 83.3], [R, 83.3], [M, 97], [L, 110], [R, 110]],
};

/**
 * @param {string} suit @param {number} x @param {number} y @param {number} size
 */
function use(suit, x, y, size, flip = false) {
  const t = flip ? ` transform="rotate(180 ${x + size / 2} ${y + size / 2})"` : "";
  return `<use href="#pq-suit-${suit}" x="${x}" y="${y}" width="${size}" height="${size}"${t}/>`;
}

/**
 * The rank's letters as symbols of the sprite, in the card's own 100 x 140 box: the corner's, and a court
 * card's large one. A face draws them with `<use>`, so a card holds no text of its own: what a screen reader
 * says of it is its name alone ("queen of spades"), and the card's visible label cannot disagree with it.
 * @param {string} rank
 */
function rankSymbols(rank) {
  const label = RANKS[rank].label;
  const size = label.length > 1 ? 22 : 27;
  const cornerText =
    `<text x="14" y="29" text-anchor="middle" font-size="${size}" font-weight="700" ` +
    `letter-spacing="${label.length > 1 ? -2 : 0}">${label}</text>`;
  const court = "KQJ".includes(rank)
    ? `<symbol id="pq-court-${rank}" viewBox="0 0 100 140"><text x="50" y="86" text-anchor="middle" ` +
      `font-size="40" font-weight="700" font-family="Georgia, 'Times New Roman', serif">${label}</text></symbol>`
    : "";
  return `<symbol id="pq-rank-${rank}" viewBox="0 0 100 140">${cornerText}</symbol>` + court;
}

/** @param {string} rank @param {string} suit */
function corner(rank, suit) {
  return `<use href="#pq-rank-${rank}" x="0" y="0" width="100" height="140"/>` + use(suit, 5, 34, 18);
}

/** The SVG markup of a card's face. @param {string} code */
export function faceSVG(code) {
  const rank = code[0];
  const suit = code[1];
  // The suit's ink and the court's tint are style.css's (--ink-S ... --tint-C), so that the four-colour
  // deck and the high contrast (display.js) colour every card drawn, on every page.
  const ink = `var(--ink-${suit})`;
  let middle = "";
  if (rank === "A") {
    middle = use(suit, 26, 46, 48);
  } else if (rank in PIPS) {
    middle = PIPS[rank].map(([x, y]) => use(suit, x - 7.5, y - 7.5, 15, y > 70)).join("");
  } else {
    // Court cards: a framed panel with the letter and the suit.
    const tint = `var(--tint-${suit})`;
    middle =
      `<rect x="27" y="20" width="46" height="100" rx="5" style="fill:${tint}" stroke="currentColor" ` +
      'stroke-width="1.5" opacity="0.95"/>' +
      use(suit, 41, 26, 18) +
      `<use href="#pq-court-${rank}" x="0" y="0" width="100" height="140"/>` +
      use(suit, 41, 96, 18, true);
  }
  return (
    `<svg xmlns="${SVG_NS}" viewBox="0 0 100 140" class="card-svg" aria-hidden="true" focusable="false">` +
    '<rect x="1" y="1" width="98" height="138" rx="9" fill="#fffdf8" style="stroke:var(--card-edge)" stroke-width="1.5"/>' +
    `<g fill="currentColor" style="color:${ink}" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif">` +
    corner(rank, suit) +
    `<g transform="rotate(180 50 70)">${corner(rank, suit)}</g>` +
    middle +
    "</g></svg>"
  );
}

/** The SVG markup of a card back. */
export function backSVG() {
  return (
    `<svg xmlns="${SVG_NS}" viewBox="0 0 100 140" class="card-svg" aria-hidden="true" focusable="false">` +
    '<rect x="1" y="1" width="98" height="138" rx="9" fill="#fffdf8" stroke="#8a8378" stroke-width="1.5"/>' +
    '<rect x="7" y="7" width="86" height="126" rx="5" fill="url(#pq-back-pattern)"/>' +
    '<rect x="7" y="7" width="86" height="126" rx="5" fill="none" stroke="#f3d9a4" stroke-width="1.5"/>' +
    '<circle cx="50" cy="70" r="15" fill="#7d1f2c" stroke="#f3d9a4" stroke-width="1.5"/>' +
    '<path d="M50 60L58 70L50 80L42 70Z" fill="#f3d9a4"/>' +
    "</svg>"
  );
}

// ------------------------------------------------------------------ elements

/**
 * A card as an element: `<div class="card" data-card="QS" aria-label="queen of spades">`.
 * Options: clickable (role=button, focusable), extra classes.
 * @param {string} code
 * @param {{clickable?: boolean, className?: string}} [options]
 */
export function cardElement(code, { clickable = false, className = "" } = {}) {
  const el = document.createElement("div");
  el.className = "card" + (className ? " " + className : "");
  el.dataset.card = code;
  el.innerHTML = faceSVG(code);
  setClickable(el, clickable);
  return el;
}

/** A card back (no data-card: hidden cards are not named). */
export function backElement(className = "") {
  const el = document.createElement("div");
  el.className = "card back" + (className ? " " + className : "");
  el.dataset.back = "";
  el.innerHTML = backSVG();
  el.setAttribute("aria-hidden", "true");
  return el;
}

/**
 * Make a card element a button (role, tab stop) or a plain picture of the card.
 * @param {HTMLElement} el @param {boolean} clickable @param {string} [label]
 */
export function setClickable(el, clickable, label) {
  const name = label || cardName(el.dataset.card);
  el.setAttribute("aria-label", name);
  if (clickable) {
    el.setAttribute("role", "button");
    el.tabIndex = 0;
    el.classList.add("clickable");
    el.removeAttribute("aria-disabled");
  } else {
    el.setAttribute("role", "img");
    el.removeAttribute("tabindex");
    el.classList.remove("clickable");
  }
}

/**
 * Show face-up cards in a container, reusing the elements of cards already shown
 * (so only new cards animate in, and focus stays on a card that stays).
 * Returns the card elements in order.
 * @param {HTMLElement} container
 * @param {string[]} cards
 * @param {{clickable?: (code: string) => boolean, decorate?: ((el: HTMLElement, code: string) => void) | null}} [options]
 * @returns {HTMLElement[]}
 */
export function syncCards(container, cards, { clickable = () => false, decorate = null } = {}) {
  const wanted = new Set(cards);
  /** @type {Map<string, HTMLElement>} */
  const existing = new Map();
  // Drop what is no longer shown first, so the cards that stay keep their place
  // (moving an element in the DOM would restart its entry animation).
  for (const el of /** @type {HTMLElement[]} */ ([...container.children])) {
    if (el.dataset.card && wanted.has(el.dataset.card) && !existing.has(el.dataset.card)) existing.set(el.dataset.card, el);
    else el.remove();
  }
  /** @type {HTMLElement[]} */
  const out = [];
  cards.forEach((code, i) => {
    let el = existing.get(code);
    if (!el) el = enterElement(cardElement(code));
    setClickable(el, !!clickable(code));
    if (decorate) decorate(el, code);
    if (container.children[i] !== el) container.insertBefore(el, container.children[i] || null);
    out.push(el);
  });
  return out;
}

/** Mark a new element to animate in once. @param {HTMLElement} el */
function enterElement(el) {
  el.classList.add("enter");
  el.addEventListener("animationend", () => el.classList.remove("enter"), { once: true });
  return el;
}

/**
 * Show `count` card backs in a container (kept when the count does not change).
 * @param {HTMLElement} container @param {number} count
 */
export function syncBacks(container, count) {
  count = Math.max(0, count | 0);
  while (container.children.length > count) /** @type {Element} */ (container.lastElementChild).remove();
  while (container.children.length < count) container.append(backElement());
}

const CARD_TOKEN = /\b([AKQJT987])([SHDC])\b/g;

/**
 * Text with the card codes it contains ("Point of five (AS KS QS)") turned into
 * coloured short cards ("A♠ K♠ Q♠"); returns a DocumentFragment.
 * @param {unknown} text
 */
export function prettyText(text) {
  const frag = document.createDocumentFragment();
  const s = String(text ?? "");
  let pos = 0;
  for (const m of s.matchAll(CARD_TOKEN)) {
    const at = /** @type {number} */ (m.index);
    if (at > pos) frag.append(s.slice(pos, at));
    frag.append(cardSpan(m[0]));
    pos = at + m[0].length;
  }
  if (pos < s.length) frag.append(s.slice(pos));
  return frag;
}

/** A card written inline: <span class="cardtext suit-H" title="queen of hearts">Q♥</span>. @param {unknown} code */
export function cardSpan(code) {
  const span = document.createElement("span");
  span.className = "cardtext" + (isCard(code) ? ` suit-${String(code)[1]}` : "");
  span.textContent = cardShort(code);
  span.title = cardName(code);
  return span;
}

/** Plain text with card codes replaced by their names (for accessible labels). @param {unknown} text */
export function spokenText(text) {
  return String(text ?? "").replace(CARD_TOKEN, (m) => cardName(m));
}
