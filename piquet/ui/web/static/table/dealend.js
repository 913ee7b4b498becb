// @ts-check
// The end of a deal: a dialog with the deal's count by category for both players as the books say it (the
// server's score sheet row carries it), the partie's score sheet, the review of the deal and "Go on". The table
// keeps the finished deal until the player goes on, though the server may have dealt the next: the next deal's
// state is shown then (control.js goes on: the dialog's "Go on" and its closing are the intent "go_on").

import { capital, t } from "../i18n.js";
import { h } from "./dom.js";
import { intend } from "./intents.js";
import { reviewLink, saidItem, sheetParts } from "./record.js";
import { names, pair } from "./state.js";

/** @typedef {import("./protocol.js").SheetRow} SheetRow */
/** @typedef {import("./protocol.js").StateMessage} StateMessage */
/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./state.js").Heard} Heard */

/** The dialog, made on first use. @returns {HTMLDialogElement} */
function dialog() {
  const found = document.getElementById("deal-end");
  if (found instanceof HTMLDialogElement) return found;
  const made = h("dialog", { id: "deal-end", className: "dialog deal-end", "aria-labelledby": "deal-end-title", "data-testid": "deal-end" });
  made.addEventListener("close", () => intend({ type: "go_on" }));
  document.body.append(made);
  return made;
}

/**
 * The deal just scored, if one was (the score sheet has a row more than the page had): its count is shown until
 * the player goes on. Another deal scored meanwhile (a spectator who has not gone on) gives the newest.
 * @param {StateMessage | null} prev
 * @param {StateMessage} next
 * @returns {SheetRow | null}
 */
export function scoredDeal(prev, next) {
  const before = (prev && prev.view && prev.view.sheet) || null;
  const after = (next.view && next.view.sheet) || [];
  return before && after.length > before.length ? after[after.length - 1] : null;
}

/**
 * The count of a deal: a line per category either player scored in, the tricks each won, the totals.
 * @param {SheetRow} row @param {string[]} n
 */
export function countTable(row, n) {
  const body = h("tbody");
  for (const line of row.count || []) {
    body.append(h("tr", { "data-category": line.category }, h("th", { scope: "row", text: t(`count.${line.category}`) }),
      h("td", { className: "num", text: pair(line.points, 0) }), h("td", { className: "num", text: pair(line.points, 1) })));
  }
  body.append(h("tr", { className: "muted" }, h("th", { scope: "row", text: t("count.tricks_won") }),
    h("td", { className: "num", text: pair(row.tricks, 0) }), h("td", { className: "num", text: pair(row.tricks, 1) })));
  return h("table", { className: "sheet-table deal-count", "data-testid": "deal-count" },
    h("caption", { text: t("count.caption", { n: row.deal }) }),
    h("thead", {}, h("tr", {}, h("td"), h("th", { scope: "col", className: "num", text: capital(n[0]) }), h("th", { scope: "col", className: "num", text: capital(n[1]) }))),
    body,
    h("tfoot", {}, h("tr", { "data-testid": "deal-total" }, h("th", { scope: "row", text: t("count.total") }),
      h("td", { className: "num", text: pair(row.points, 0) }), h("td", { className: "num", text: pair(row.points, 1) }))));
}

/**
 * Open (or refresh) the dialog of a deal scored.
 * @param {SheetRow} row @param {StateMessage} st the state with the deal's row (the next deal may have begun)
 */
export function showDealEnd(row, st) {
  const n = names(st);
  const v = st.view || /** @type {Partial<View>} */ ({});
  const over = st.table.status === "over" || v.phase === "over";
  const box = dialog();
  const title = t(row.annulled ? "dealend.annulled" : "dealend.scored", { n: row.deal });
  const review = row.annulled ? null : reviewLink(row.deal, over);
  box.replaceChildren(h("div", { className: "dialog-inner" },
    h("h2", { id: "deal-end-title", text: title }),
    row.contract ? h("p", { className: "deal-contract", text: t("dealend.contract", { contract: row.contract }) }) : null,
    row.annulled ? null : countTable(row, n),
    row.notes ? h("p", { className: "deal-notes", text: row.notes }) : null,
    h("h3", { className: "deal-end-sheet", text: t("dealend.sheet") }),
    h("div", { className: "sheet" }, sheetParts(st, v, false)),
    h("p", { className: "dialog-actions" },
      review ? h("a", { href: review, className: "button", "data-testid": "review-deal", text: t("sheet.review"), "aria-label": t("sheet.review_deal", { n: row.deal }) }) : null,
      " ",
      h("button", { type: "button", className: "primary", "data-testid": "go-on", text: t("dealend.go_on"), autofocus: true, onclick: () => box.close() }))));
  document.body.dataset.dealEnd = String(row.deal);
  document.body.dataset.prompt = "";
  if (!box.open) {
    if (typeof box.showModal === "function") box.showModal();
    else box.setAttribute("open", "");
  }
  const go = box.querySelector("[data-testid=go-on]");
  if (go instanceof HTMLElement) go.focus();
}

/**
 * A phrase heard while the count is shown: said in the dialog too, as the table talk behind it is not drawn again
 * until the player goes on (where the phrase then stands in the talk).
 * @param {Heard} said @param {StateMessage} st
 */
export function hearInDealEnd(said, st) {
  const box = document.getElementById("deal-end");
  const actions = box instanceof HTMLDialogElement && box.open ? box.querySelector(".dialog-actions") : null;
  if (!box || !actions) return;
  let list = box.querySelector(".deal-end-said ol");
  if (!list) {
    list = h("ol", { className: "log-lines" });
    actions.before(h("div", { className: "deal-end-said", role: "log", "aria-label": t("table.table_talk") }, list));
  }
  list.append(saidItem(said, names(st), st.seat));
}

/** Close the dialog (the player went on: the table shows the state the server has now). */
export function closeDealEnd() {
  delete document.body.dataset.dealEnd;
  const box = document.getElementById("deal-end");
  if (box instanceof HTMLDialogElement && box.open) box.close();
}
