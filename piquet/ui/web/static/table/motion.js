// @ts-check
// Cards that move (issue: a player sees what the computer did): a card played flies from the hand that held it
// to the trick, and a trick won goes to its winner's side. Short transitions of the `translate` property (the
// cards' own tilt in the trick stays theirs), none at all when the player asks for reduced motion. render()
// takes a snapshot of where the cards are before it draws, and moves them from there after.

import { cardElement } from "../cards.js";
import { $ } from "./dom.js";

/** How long a card takes to move (ms). */
const DURATION = 260;

/**
 * @typedef {{hand: Map<string, DOMRect>, trick: Map<string, DOMRect>, oppHand: DOMRect | null,
 *   plates: [DOMRect | null, DOMRect | null], me: number, elements: Map<string, HTMLElement>}} Snapshot
 */

export function reduced() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** @param {string} id */
function rect(id) {
  const el = document.getElementById(id);
  return el && !el.hidden ? el.getBoundingClientRect() : null;
}

/**
 * Where the cards are now: those in the player's hand and in the trick, the opponent's hand and the two plates.
 * @param {number} me the seat at the bottom of the table
 * @returns {Snapshot}
 */
export function snapshot(me) {
  /** @type {Map<string, DOMRect>} */
  const hand = new Map();
  /** @type {Map<string, DOMRect>} */
  const trick = new Map();
  /** @type {Map<string, HTMLElement>} */
  const elements = new Map();
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#hand [data-card]"))) {
    hand.set(el.dataset.card || "", el.getBoundingClientRect());
    elements.set(el.dataset.card || "", el);
  }
  // The trick in play only: the last trick shown faintly in its place (no card led yet) has gone to its winner.
  const shown = document.getElementById("trick");
  if (shown && !shown.classList.contains("last")) {
    for (const el of /** @type {NodeListOf<HTMLElement>} */ (shown.querySelectorAll("[data-card]"))) {
      trick.set(el.dataset.card || "", el.getBoundingClientRect());
      elements.set(el.dataset.card || "", el);
    }
  }
  const plates = /** @type {[DOMRect | null, DOMRect | null]} */ ([null, null]);
  plates[me] = rect("plate-me");
  plates[1 - me] = rect("plate-opp");
  return { hand, trick, oppHand: rect("opp-hand"), plates, me, elements };
}

/** Count a movement on the page (the tests read it), and say whether it may be made. */
function moving() {
  if (reduced()) return false;
  const b = document.body.dataset;
  b.moved = String(Number(b.moved || "0") + 1);
  return true;
}

/**
 * Move the cards from where the snapshot saw them: each card new in the trick from the hand that played it, and
 * the cards of a trick just won, which left the trick, to the winner's plate.
 * @param {Snapshot} before
 * @param {{trick?: string[], leader?: number | null, tricks?: Array<{leader: number, cards: string[], winner: number}>}} v
 *   the view drawn: the trick in play, its leader and the deal's tricks won so far
 */
export function move(before, v) {
  const trickEl = $("trick");
  const trick = v.trick || [];
  const tricks = v.tricks || [];
  const leader = v.leader ?? 0;
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (trickEl.querySelectorAll("[data-card]"))) {
    const card = el.dataset.card || "";
    const i = trick.indexOf(card);
    if (before.trick.has(card) || i < 0) continue;
    const from = (leader + i) % 2 === before.me ? before.hand.get(card) : before.oppHand;
    if (!from || !moving()) continue;
    const to = el.getBoundingClientRect();
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    el.animate([{ translate: `${dx}px ${dy}px` }, { translate: "0 0" }], { duration: DURATION, easing: "ease-out" });
  }
  // A trick just completed (one of its cards was on the table or in the hand before, none is in the trick now):
  // its cards leave for the winner's side.
  const last = tricks.length ? tricks[tricks.length - 1] : null;
  if (!last || trick.some((c) => last.cards.includes(c))) return;
  if (!last.cards.some((c) => before.trick.has(c)) && !(trick.length === 0 && last.cards.some((c) => before.hand.has(c)))) return;
  const plate = before.plates[last.winner];
  if (!plate) return;
  last.cards.forEach((card, i) => {
    const mine = (last.leader + i) % 2 === before.me;
    const from = before.trick.get(card) || (mine ? before.hand.get(card) : before.oppHand);
    if (!from || !moving()) return;
    const source = before.elements.get(card);
    const ghost = source ? /** @type {HTMLElement} */ (source.cloneNode(true)) : cardElement(card);
    ghost.className = "card card-ghost";
    ghost.removeAttribute("role");
    ghost.removeAttribute("tabindex");
    ghost.setAttribute("aria-hidden", "true");
    Object.assign(ghost.style, { position: "fixed", left: `${from.left}px`, top: `${from.top}px`,
      width: `${from.width}px`, height: `${from.height}px`, margin: "0", pointerEvents: "none", zIndex: "20" });
    document.body.append(ghost);
    const dx = plate.left + plate.width / 2 - (from.left + from.width / 2);
    const dy = plate.top + plate.height / 2 - (from.top + from.height / 2);
    const flight = ghost.animate([{ translate: "0 0", opacity: 1 }, { translate: `${dx}px ${dy}px`, opacity: 0.2 }],
      { duration: DURATION * 1.4, easing: "ease-in", delay: 120, fill: "forwards" });
    flight.onfinish = () => ghost.remove();
    flight.oncancel = () => ghost.remove();
  });
}
