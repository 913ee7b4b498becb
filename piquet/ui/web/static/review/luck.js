// @ts-check
// The review page's luck panel (docs/review.md, "Luck" and "In the browser"): for each player, the luck of the deal
// and of the draws, his luck in all, the deal's result and the result adjusted for luck, as the review's JSON
// reckons them (piquet/coach/luck.py); nothing is reckoned here. While the partie goes on the server sends no luck
// (it would tell the opponent's discards), and the panel says it waits for the end of the partie.

import { h } from "../table/dom.js";
import { capital, t } from "../i18n.js";
import { signed, size } from "./format.js";

/**
 * One player's luck in one deal (``DealLuck.to_json``'s ``players``).
 * @typedef {object} PlayerLuck
 * @property {number} deal the luck of the deal for his seat: the hands dealt against the seat's average deal
 * @property {number} draw the luck of his own draw: against the talons his discard could have brought
 * @property {number} luck his luck in the deal: ``deal`` plus his ``draw`` less his opponent's
 * @property {number | null} result his points of the deal less his opponent's (``null``: the deal did not end)
 */
/**
 * One deal's luck (an entry of the review's ``luck``).
 * @typedef {object} DealLuck
 * @property {number} deal
 * @property {string} elder
 * @property {number} average elder's average deal, in points of the deal
 * @property {Record<string, number>} values
 * @property {{books: string | null, played: string | null}} [contracts] Auction Piquet's
 * @property {Record<string, PlayerLuck>} players
 */
/**
 * One player's luck over the deals reviewed that ended (his ``summary``'s ``luck``).
 * @typedef {object} LuckSummary
 * @property {number} deals
 * @property {number} deal
 * @property {number} draws his draws' luck less his opponent's
 * @property {number} luck
 * @property {number} result
 * @property {number} adjusted ``result`` less ``luck``
 */
/** @typedef {Record<string, {luck?: LuckSummary}>} Summary */

/** Under a twentieth of a point is no luck either way (it shows as 0). */
const NOTHING = 0.05;

/**
 * "12.3 more than" / "7.7 less than" / "as much as".
 * @param {number} x
 */
function moreOrLess(x) {
  if (Math.abs(x) < NOTHING) return t("review.as_much_as");
  return t(x > 0 ? "review.more_than" : "review.less_than", { x: size(x) });
}

/**
 * What one player's luck in one deal means, in words; with ``adjusted``, his result adjusted for it (the
 * summary's, where the review is of this deal alone).
 * @param {DealLuck} entry @param {string} name @param {string} other @param {number | null} adjusted
 */
function sentence(entry, name, other, adjusted) {
  const mine = entry.players[name];
  const theirs = entry.players[other];
  /** @param {string} who @param {number} x */
  const draw = (who, x) => Math.abs(x) < NOTHING
    ? t("review.luck_draw_none", { name: who })
    : t(x > 0 ? "review.luck_draw_more" : "review.luck_draw_less", { name: who, x: size(x) });
  const parts = [
    t(name === entry.elder ? "review.luck_hand_elder" : "review.luck_hand_younger",
      { name, compare: moreOrLess(mine.deal) }),
    draw(name, mine.draw),
    draw(other, theirs.draw),
  ];
  let text = t("review.luck_line", { parts: parts.join(t("review.semicolon")), luck: signed(mine.luck), name });
  if (mine.result !== null) {
    text += adjusted === null
      ? t("review.luck_scored", { name, result: signed(mine.result) })
      : t("review.luck_scored_adjusted", { name, result: signed(mine.result), adjusted: signed(adjusted) });
  }
  return capital(text);
}

/**
 * The luck panel of a review: ``luck``, the review's deals' luck, and ``summary``, each player's (with ``luck``
 * where the luck was sent).
 * @param {HTMLElement} box
 * @param {{players: string[], luck?: DealLuck[], summary?: Summary}} review
 */
export function renderLuck(box, review) {
  box.replaceChildren();
  const deals = review.luck || [];
  const names = review.players;
  const totals = names.map((name) => (review.summary && review.summary[name] ? review.summary[name].luck : undefined));
  if (!deals.length || totals.some((x) => x === undefined)) {
    box.dataset.shown = "no";
    box.append(h("p", { className: "muted", "data-testid": "luck-hidden",
      text: t("review.luck_hidden") }));
    return;
  }
  box.dataset.shown = "yes";
  const sums = /** @type {LuckSummary[]} */ (totals);
  const which = deals.length === 1 ? t("review.luck_which_deal", { n: deals[0].deal })
    : t("review.luck_which_deals", { n: sums[0].deals });
  box.append(h("p", { className: "small-note luck-meaning", text: t("review.luck_meaning") }));
  const head = [t("review.luck_of_the_deal"), t("review.luck_of_the_draws"), t("review.luck_in_all"),
    t("review.result"), t("review.adjusted")];
  const keys = /** @type {(keyof LuckSummary)[]} */ (["deal", "draws", "luck", "result", "adjusted"]);
  const table = h("table", { className: "sheet-table luck-table", "data-testid": "luck-table" },
    h("caption", { text: t("review.luck_caption", { which }) }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("review.player") }),
      head.map((text) => h("th", { scope: "col", className: "num", text })))),
    h("tbody", {}, names.map((name, seat) => h("tr", { "data-player": name },
      h("th", { scope: "row", text: name }),
      keys.map((k) => h("td", { className: "num", "data-part": k, text: signed(sums[seat][k]) }))))));
  box.append(table);
  for (const entry of deals) {
    const list = h("ul", { className: "luck-lines", "aria-label": t("review.luck_means", { n: entry.deal }) },
      names.map((name, seat) => h("li", { "data-player": name },
        sentence(entry, name, names[1 - seat], deals.length === 1 ? sums[seat].adjusted : null))));
    const lead = deals.length > 1 ? h("p", { className: "pile-label", text: t("review.deal_n", { n: entry.deal }) }) : null;
    const contract = entry.contracts
      ? h("p", { className: "small-note", text: t("review.luck_contracts", {
        played: entry.contracts.played ?? t("review.none_both_passed"),
        books: entry.contracts.books ?? t("review.none_both_pass") }) })
      : null;
    box.append(...[lead, list, contract].filter((x) => x !== null));
  }
}
