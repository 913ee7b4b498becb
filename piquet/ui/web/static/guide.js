// @ts-check
// The player's guide: draw each card the server wrote (`<span class="card" data-card="QS" aria-label=...>`)
// with the table's own card faces. The card's name stays its label for a screen reader.

import { ensureSprite, faceSVG, isCard } from "./cards.js";
import "./display.js"; // the cards and colours this browser chose (applied at once)

/** Draw the faces of the guide's cards (those not drawn yet). @param {ParentNode} root */
export function drawCards(root = document) {
  ensureSprite();
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".guide-hand .card[data-card]"))) {
    const code = el.dataset.card;
    if (!isCard(code) || el.classList.contains("drawn")) continue;
    el.insertAdjacentHTML("afterbegin", faceSVG(code));
    el.classList.add("drawn");
  }
}

drawCards();
// The page is ready: its cards are drawn (the tests wait on this signal, as on every page's).
document.body.dataset.ready = "1";
