// @ts-check
// What the server sends on the socket, and what the page does with each message: the state changed, then the
// table drawn again.

import { sentence, t } from "../i18n.js";
import { $, absolute } from "./dom.js";
import { hideHint, hideTutor, redraw, sendAction, showHint, showTutor } from "./control.js";
import { hearInDealEnd, scoredDeal, showDealEnd } from "./dealend.js";
import { clearError, showError } from "./render.js";
import {
  app, keepSaid, keepTalk, keptSaid, keptTalk, keptSelection, rememberTable, saveTable, savedTable, selectionKey,
} from "./state.js";
import { showBanner } from "./transport.js";

/** @typedef {import("./protocol.js").ErrorMessage} ErrorMessage */
/** @typedef {import("./protocol.js").HintMessage} HintMessage */
/** @typedef {import("./protocol.js").MoveMessage} MoveMessage */
/** @typedef {import("./protocol.js").SaidMessage} SaidMessage */
/** @typedef {import("./protocol.js").SeatMessage} SeatMessage */
/** @typedef {import("./protocol.js").ServerMessage} ServerMessage */
/** @typedef {import("./protocol.js").StateMessage} StateMessage */
/** @typedef {import("./protocol.js").TalkMessage} TalkMessage */
/** @typedef {import("./protocol.js").TutorMessage} TutorMessage */

/**
 * The server gave this browser a seat secret of its own (on joining a room, or on moving here).
 * @param {SeatMessage} msg
 */
export function onSeat(msg) {
  if (typeof msg.token !== "string" || !msg.token) return;
  app.cred = { kind: "token", value: msg.token };
  const id = /** @type {string} */ (app.id);
  const saved = savedTable(id);
  saved.token = msg.token;
  delete saved.invite;
  saveTable(id, saved);
}

/**
 * The one-time link to move this seat to another device.
 * @param {MoveMessage} msg
 */
export function onMove(msg) {
  if (typeof msg.link !== "string") return;
  const a = /** @type {HTMLAnchorElement} */ ($("move-link"));
  a.href = absolute(msg.link);
  a.textContent = a.href;
  $("move-box").hidden = false;
}

// ------------------------------------------------------------------ messages

/** @param {ServerMessage} msg */
export function onMessage(msg) {
  if (!msg || typeof msg !== "object") return;
  if (msg.type === "state") onState(msg);
  else if (msg.type === "error") onError(msg);
  else if (msg.type === "hint") onHint(msg);
  else if (msg.type === "tutor") onTutor(msg);
  else if (msg.type === "seat") onSeat(msg);
  else if (msg.type === "move") onMove(msg);
  else if (msg.type === "talk") onTalk(msg);
  else if (msg.type === "said") onSaid(msg);
}

/**
 * A phrase said at the table: a line of the talk where the deal is now, said in this page's words (the server sends
 * its id only). Kept for this tab, not in the record.
 * @param {SaidMessage} msg
 */
export function onSaid(msg) {
  if ((msg.seat !== 0 && msg.seat !== 1) || typeof msg.phrase !== "string") return;
  const v = app.state && app.state.view;
  const heard = { seat: msg.seat, phrase: msg.phrase, deal: v ? v.deal_number : 0, at: v ? v.log.length : 0 };
  app.said.push(heard);
  keepSaid();
  if (app.state && app.dealEnd !== null) hearInDealEnd(heard, app.state);
  if (app.state) redraw();
}

/**
 * The talk of the deals finished, as the server keeps it: the whole partie's, though this tab saw none of it.
 * @param {TalkMessage} msg
 */
export function onTalk(msg) {
  if (!Array.isArray(msg.deals)) return;
  const current = app.state && app.state.view ? app.state.view.deal_number : Infinity;
  app.archive = msg.deals.filter((d) => d.deal < current);
  keepTalk();
  delete app.keys.log; // drawn again even if this tab kept as many deals
  if (app.state) redraw();
}

/** @param {StateMessage} msg */
export function onState(msg) {
  const prev = app.state;
  const fresh = app.connection.fresh;
  app.connection.fresh = false;
  if (prev && typeof msg.version === "number" && typeof prev.version === "number" && msg.version < prev.version) {
    // Older than what we have: a late message, unless the table went back (an undo at a
    // table against the computer, or a server that restarted).
    const wentBack = app.waiting.undo || fresh || (msg.table && msg.table.kind === "computer");
    if (!wentBack) return;
  }
  app.connection.everConnected = true;
  app.connection.connected = true;
  if (fresh) app.timers.autoVersion = null; // a forced card not sent before the connection fell: play it now
  if (app.waiting.undo) app.timers.autoVersion = null; // taken back to a forced card: it is played again, not waited on
  showBanner("");
  app.waiting.undo = false;
  app.waiting.action = false;
  if (!prev) app.said = keptSaid();
  archiveDeals(prev, msg);
  if (!prev || prev.version !== msg.version) {
    if (prev) clearError();
    if (app.advice.hint && app.advice.hint.version !== msg.version) hideHint();
    if (app.advice.tutor && app.advice.tutor.version !== msg.version) hideTutor();
  }
  if (!prev || prev.version !== msg.version) app.selection.highlight = new Set();
  app.state = msg;
  selectionFor(msg);
  rememberTable(msg);
  redraw();
}

/** @param {ErrorMessage} msg */
export function onError(msg) {
  app.waiting.action = false;
  app.waiting.undo = false;
  app.advice.autoHintVersion = null;
  if (app.waiting.hint) {
    app.waiting.hint = false;
    hideHint();
  }
  // Stale: the move answered a state the table has left (sent twice, or crossed another change); the
  // table's state now follows at once and replaces ours. Nothing was done.
  if (msg.code === "stale") {
    if (app.state) redraw();
    return;
  }
  showError(msg.message ? sentence(msg.message) : t("error.generic"));
  if (app.state) redraw();
}

/** @param {HintMessage} msg */
export function onHint(msg) {
  app.waiting.hint = false;
  const st = app.state;
  if (!st) return;
  if (app.advice.autoHintVersion !== null && app.advice.autoHintVersion === st.version && msg.action && st.prompt) {
    app.advice.autoHintVersion = null;
    hideHint();
    sendAction(msg.action);
    return;
  }
  app.advice.autoHintVersion = null;
  showHint({ version: st.version, text: msg.text || "", action: msg.action || null, reason: msg.reason,
    next: msg.next, margin: msg.margin, discards: msg.discards || [] });
}

/**
 * The tutor held the choice back: say why, and let the player think again or play it anyway.
 * @param {TutorMessage} msg
 */
export function onTutor(msg) {
  app.waiting.action = false;
  if (!app.state || msg.version !== app.state.version) return; // the table moved on: nothing to answer
  hideHint();
  showTutor(msg);
  redraw();
}

/**
 * Keep the dialogue of finished deals, which the state no longer carries.
 * @param {StateMessage | null} prev
 * @param {StateMessage} next
 */
export function archiveDeals(prev, next) {
  const pv = prev && prev.view;
  const nv = next.view;
  if (!nv) return;
  if (!prev) app.archive = keptTalk();
  app.archive = app.archive.filter((d) => d.deal < nv.deal_number);
  const scored = scoredDeal(prev, next);
  if (scored) {
    app.dealEnd = scored.deal;
    showDealEnd(scored, next);
  }
  if (!pv || pv.deal_number === nv.deal_number || nv.deal_number < pv.deal_number) return;
  if (pv.log && pv.log.length && !app.archive.some((d) => d.deal === pv.deal_number)) {
    app.archive.push({ deal: pv.deal_number, log: pv.log, tricks: pv.tricks || [] });
    keepTalk();
  }
}

/**
 * The cards selected for the exchange a new prompt asks for: none, or those this tab kept (a reload); the choice
 * to show the rest starts unticked.
 * @param {StateMessage} st
 */
function selectionFor(st) {
  const key = selectionKey(st);
  if (app.selection.key === key) return;
  app.selection.key = key;
  app.selection.cards = keptSelection(key, (st.view && st.view.hand) || []);
  app.selection.showRest = false;
}
