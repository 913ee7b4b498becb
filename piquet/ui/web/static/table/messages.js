// @ts-check
// What the server sends on the socket, and what the page does with each message.

import { sentence, t } from "../i18n.js";
import { $, absolute } from "./dom.js";
import { keepTalk, keptTalk, noticeScoredDeal } from "./dealend.js";
import { clearError, hideHint, hideTutor, render, showError, showHint, showTutor } from "./render.js";
import { app, rememberTable, saveTable, savedTable } from "./state.js";
import { sendAction, showBanner } from "./transport.js";

/** @typedef {import("./protocol.js").ErrorMessage} ErrorMessage */
/** @typedef {import("./protocol.js").HintMessage} HintMessage */
/** @typedef {import("./protocol.js").MoveMessage} MoveMessage */
/** @typedef {import("./protocol.js").SeatMessage} SeatMessage */
/** @typedef {import("./protocol.js").ServerMessage} ServerMessage */
/** @typedef {import("./protocol.js").StateMessage} StateMessage */
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
}

/** @param {StateMessage} msg */
export function onState(msg) {
  const prev = app.state;
  const fresh = app.freshConnection;
  app.freshConnection = false;
  if (prev && typeof msg.version === "number" && typeof prev.version === "number" && msg.version < prev.version) {
    // Older than what we have: a late message, unless the table went back (an undo at a
    // table against the computer, or a server that restarted).
    const wentBack = app.undoPending || fresh || (msg.table && msg.table.kind === "computer");
    if (!wentBack) return;
  }
  app.everConnected = true;
  app.connected = true;
  if (fresh) app.autoVersion = null; // a forced card not sent before the connection fell: play it now
  if (app.undoPending) app.autoVersion = null; // taken back to a forced card: it is played again, not waited on
  showBanner("");
  app.undoPending = false;
  app.pending = false;
  archiveDeals(prev, msg);
  if (!prev || prev.version !== msg.version) {
    if (prev) clearError();
    if (app.hint && app.hint.version !== msg.version) hideHint();
    if (app.tutor && app.tutor.version !== msg.version) hideTutor();
  }
  app.state = msg;
  if (!prev) rememberTable(msg);
  render();
}

/** @param {ErrorMessage} msg */
export function onError(msg) {
  app.pending = false;
  app.undoPending = false;
  app.autoHintVersion = null;
  if (app.hintWaiting) {
    app.hintWaiting = false;
    hideHint();
  }
  // Stale: the move answered a state the table has left (sent twice, or crossed another change); the
  // table's state now follows at once and replaces ours. Nothing was done.
  if (msg.code === "stale") {
    if (app.state) render();
    return;
  }
  showError(msg.message ? sentence(msg.message) : t("error.generic"));
  if (app.state) render();
}

/** @param {HintMessage} msg */
export function onHint(msg) {
  app.hintWaiting = false;
  const st = app.state;
  if (!st) return;
  if (app.autoHintVersion !== null && app.autoHintVersion === st.version && msg.action && st.prompt) {
    app.autoHintVersion = null;
    hideHint();
    sendAction(msg.action);
    return;
  }
  app.autoHintVersion = null;
  showHint({ version: st.version, text: msg.text || "", action: msg.action || null, reason: msg.reason,
    next: msg.next, margin: msg.margin, discards: msg.discards || [] });
}

/**
 * The tutor held the choice back: say why, and let the player think again or play it anyway.
 * @param {TutorMessage} msg
 */
export function onTutor(msg) {
  app.pending = false;
  if (!app.state || msg.version !== app.state.version) return; // the table moved on: nothing to answer
  hideHint();
  showTutor(msg);
  render();
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
  noticeScoredDeal(prev, next);
  if (!pv || pv.deal_number === nv.deal_number || nv.deal_number < pv.deal_number) return;
  if (pv.log && pv.log.length && !app.archive.some((d) => d.deal === pv.deal_number)) {
    app.archive.push({ deal: pv.deal_number, log: pv.log, tricks: pv.tricks || [] });
    keepTalk();
  }
}
