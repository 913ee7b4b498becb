// @ts-check
// The end of a deal: a dialog with the deal's count by category for both players as the books say it (the
// server's score sheet row carries it), the partie's score sheet, the review of the deal and "Go on". The table
// keeps the finished deal until the player goes on, though the server may have dealt the next: the next deal's
// state is shown then. And what a reload keeps (this tab's session storage): the talk of the deals finished, which
// the state no longer carries (the deal in progress's is in the state), and the cards selected for an exchange
// not yet made.

import { t } from "../i18n.js";
import { session } from "../storage.js";
import { h } from "./dom.js";
import { reviewLink, sheetParts } from "./record.js";
import { render } from "./render.js";
import { app, names, pair } from "./state.js";

/** @typedef {import("./protocol.js").Card} Card */
/** @typedef {import("./state.js").ArchivedDeal} ArchivedDeal */
/** @typedef {import("./protocol.js").SheetRow} SheetRow */
/** @typedef {import("./protocol.js").StateMessage} StateMessage */
/** @typedef {import("./protocol.js").View} View */

/** The dialog, made on first use. @returns {HTMLDialogElement} */
function dialog() {
  const found = document.getElementById("deal-end");
  if (found instanceof HTMLDialogElement) return found;
  const made = h("dialog", { id: "deal-end", className: "dialog deal-end", "aria-labelledby": "deal-end-title", "data-testid": "deal-end" });
  made.addEventListener("close", goOn);
  document.body.append(made);
  return made;
}

/**
 * A deal just scored (the score sheet has a row more than the page had): show its count until the player goes
 * on. Another deal scored meanwhile (a spectator who has not gone on) shows the newest.
 * @param {StateMessage | null} prev
 * @param {StateMessage} next
 */
export function noticeScoredDeal(prev, next) {
  const before = (prev && prev.view && prev.view.sheet) || null;
  const after = (next.view && next.view.sheet) || [];
  if (before && after.length > before.length) showDealEnd(after[after.length - 1], next);
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
    h("thead", {}, h("tr", {}, h("td"), h("th", { scope: "col", className: "num", text: n[0] }), h("th", { scope: "col", className: "num", text: n[1] }))),
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
  app.dealEnd = row.deal;
  document.body.dataset.dealEnd = String(row.deal);
  document.body.dataset.prompt = "";
  if (!box.open) {
    if (typeof box.showModal === "function") box.showModal();
    else box.setAttribute("open", "");
  }
  const go = box.querySelector("[data-testid=go-on]");
  if (go instanceof HTMLElement) go.focus();
}

/** @param {string} what @returns {unknown} what this tab keeps of this table under that name, or null */
function kept(what) {
  try {
    return JSON.parse(session.get(`piquet.${what}.${app.id}`) || "null");
  } catch {
    return null;
  }
}

/** The player goes on (the button, or Escape): the table shows the state the server has now. */
export function goOn() {
  if (app.dealEnd === null) return;
  app.dealEnd = null;
  delete document.body.dataset.dealEnd;
  const box = document.getElementById("deal-end");
  if (box instanceof HTMLDialogElement && box.open) box.close();
  render();
  // The focus goes back to the table: to the player's decision, if the next deal asks one.
  if (!document.activeElement || document.activeElement === document.body) document.getElementById("prompt")?.focus();
}

// ------------------------------------------------------------------ the talk kept over a reload

/** The talk of the deals finished that this tab kept (a reload), or none. @returns {ArchivedDeal[]} */
export function keptTalk() {
  const saved = kept("talk");
  return Array.isArray(saved) ? /** @type {ArchivedDeal[]} */ (saved) : [];
}

/** Keep the talk of the deals finished for this tab, to show it again after a reload. */
export function keepTalk() {
  session.set(`piquet.talk.${app.id}`, JSON.stringify(app.archive));
}

// ------------------------------------------------------------------ the exchange kept over a reload

/**
 * The cards selected for the exchange this prompt asks for, as this tab left them (a reload), or none; the
 * selection kept for another prompt (the exchange made, a deal since) is forgotten.
 * @param {string | null} key the prompt's selection key (state.js selectionKey), null if it asks for no exchange
 * @param {Card[]} hand the cards the player holds
 * @returns {Set<Card>}
 */
export function keptSelection(key, hand) {
  const saved = /** @type {{key?: unknown, cards?: unknown} | null} */ (kept("exchange"));
  if (!key || !saved || saved.key !== key || !Array.isArray(saved.cards)) {
    if (saved) session.set(`piquet.exchange.${app.id}`, null);
    return new Set();
  }
  return new Set(/** @type {Card[]} */ (saved.cards).filter((c) => hand.includes(c)));
}

/** Keep the cards selected now for this tab, to select them again after a reload. */
export function keepSelection() {
  if (!app.selectionKey) return;
  session.set(`piquet.exchange.${app.id}`, JSON.stringify({ key: app.selectionKey, cards: [...app.selection] }));
}
