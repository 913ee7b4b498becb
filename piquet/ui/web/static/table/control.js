// @ts-check
// The page's controller: what the player asks for (the intents of the drawing modules, the keys and buttons
// main.js listens to) changes the page's state, goes to the server, and the table is drawn again. And the page's
// own move at a prompt with one choice, after a moment in which the player sees it (the timers).

import { isCard } from "../cards.js";
import { t } from "../i18n.js";
import { store } from "../storage.js";
import { closeDealEnd } from "./dealend.js";
import { drawHighlight, drawSelection } from "./prompt.js";
import { drawHint, drawTutor, render, renderPending } from "./render.js";
import { app, canUndo, declaresBest, keepSelection } from "./state.js";
import { send } from "./transport.js";
import { $ } from "./dom.js";

/** @typedef {import("./protocol.js").Action} Action */
/** @typedef {import("./protocol.js").Card} Card */
/** @typedef {import("./protocol.js").ClientMessage} ClientMessage */
/** @typedef {import("./protocol.js").StateMessage} StateMessage */
/** @typedef {import("./protocol.js").TutorMessage} TutorMessage */
/** @typedef {import("./intents.js").Intent} Intent */
/** @typedef {import("./state.js").Hint} Hint */

// ------------------------------------------------------------------ the intents

/**
 * What the player asked for, from the drawing modules (intents.js).
 * @param {Intent} intent
 */
export function handle(intent) {
  switch (intent.type) {
    case "action":
      sendAction(intent.action, intent.confirm);
      break;
    case "join":
      store.set("piquet.name", intent.name);
      send({ type: "join", name: intent.name });
      break;
    case "declare_for_me":
      declareForMe();
      break;
    case "select":
      select(new Set(intent.cards));
      break;
    case "show_rest":
      app.selection.showRest = intent.on;
      break;
    case "highlight":
      app.selection.highlight = new Set(intent.cards);
      drawHighlight();
      break;
    case "go_on":
      goOn();
      break;
  }
}

/** Draw the table from the state, and schedule the page's own move at the prompt if it makes one. */
export function redraw() {
  if (app.state && app.dealEnd === null) scheduleForcedPlay();
  render();
}

// ------------------------------------------------------------------ what goes to the server

/**
 * Send the player's decision; `confirm`: he was warned by the tutor and plays it anyway.
 * @param {Action} action
 * @param {boolean} [confirm]
 */
export function sendAction(action, confirm = false) {
  if (app.waiting.action || !app.state) return;
  // The version of the state this answers: the server refuses it as stale if the table has moved on.
  const message = confirm ? { type: "action", action, version: app.state.version, confirm: true }
    : { type: "action", action, version: app.state.version };
  if (!send(/** @type {ClientMessage} */ (message))) return;
  app.waiting.action = true;
  clearTimeout(app.timers.autoPlay ?? undefined);
  app.timers.autoPlay = null;
  app.timers.autoPlaying = false;
  renderPending();
}

export function requestHint() {
  if (!app.state || !app.state.prompt || !app.state.can_hint || app.waiting.hint) return;
  if (send({ type: "hint" })) {
    app.waiting.hint = true;
    showHint({ version: app.state.version, text: t("hint.thinking"), action: null });
  }
}

/** "Declare for me": a hint asked for, played as soon as it comes (messages.js onHint). */
function declareForMe() {
  if (app.waiting.action || !app.state || !app.state.prompt) return;
  if (send({ type: "hint" })) {
    app.advice.autoHintVersion = app.state.version;
    app.waiting.hint = true;
  }
}

/**
 * Take back the player's last decision. With "Declare my best" the page declares for him: those declarations are
 * not his decisions, and the server goes past them (`declare_best`) to the one before, or the page would take back
 * a declaration only to make it again at once.
 */
export function requestUndo() {
  if (!app.state || !canUndo(app.state) || app.waiting.action) return;
  const msg = declaresBest()
    ? { type: /** @type {const} */ ("undo"), version: app.state.version, declare_best: true }
    : { type: /** @type {const} */ ("undo"), version: app.state.version };
  if (send(msg)) {
    app.waiting.undo = true;
    app.waiting.action = true;
    renderPending();
  }
}

/**
 * Say one of the table's phrases (a room's seated player only; the server limits how often).
 * @param {import("./protocol.js").Phrase} phrase
 */
export function requestSay(phrase) {
  if (!app.state || app.state.table.kind !== "room" || (app.state.seat !== 0 && app.state.seat !== 1)) return;
  send({ type: "say", phrase });
}

export function requestMove() {
  if (!app.state || (app.state.seat !== 0 && app.state.seat !== 1)) return;
  send({ type: "move" });
}

// ------------------------------------------------------------------ advice shown

/** @param {Hint} hint */
export function showHint(hint) {
  app.advice.hint = hint;
  drawHint();
}

export function hideHint() {
  app.advice.hint = null;
  drawHint();
}

/** @param {TutorMessage} warning */
export function showTutor(warning) {
  app.advice.tutor = warning;
  drawTutor();
}

export function hideTutor() {
  app.advice.tutor = null;
  drawTutor();
}

// ------------------------------------------------------------------ the cards chosen

/**
 * The cards selected for the exchange, kept for this tab (a reload selects them again).
 * @param {Set<Card>} cards
 */
function select(cards) {
  app.selection.cards = cards;
  keepSelection();
  drawSelection();
}

/**
 * A card of the hand clicked (or chosen by key): select it for the exchange, or play it.
 * @param {unknown} code
 */
export function activateCard(code) {
  const st = app.state;
  if (!st || app.waiting.action || !app.connection.connected || !isCard(code)) return;
  const p = st.prompt;
  if (!p) return;
  if (p.kind === "exchange") {
    const cards = new Set(app.selection.cards);
    if (cards.has(code)) cards.delete(code);
    else cards.add(code);
    select(cards);
  } else if (p.kind === "play" && (p.cards || []).includes(code)) {
    sendAction({ play: code });
  }
}

/** The player goes on from a deal's count (the button, or Escape): the table shows the state the server has now. */
function goOn() {
  if (app.dealEnd === null) return;
  app.dealEnd = null;
  closeDealEnd();
  redraw();
  // The focus goes back to the table: to the player's decision, if the next deal asks one.
  if (!document.activeElement || document.activeElement === document.body) document.getElementById("prompt")?.focus();
}

// ------------------------------------------------------------------ the page's own move (timers)

/**
 * The action the page makes by itself at this prompt, if any: a card that is the only one the law allows
 * ("Play forced cards automatically"), a declaration where the menu holds one choice (nothing held, or a
 * minus contract's declaration in full), and, with "Declare my best", the full declaration (the menu's first).
 * @param {StateMessage["prompt"] | null | undefined} p
 * @returns {Action | null}
 */
function automatic(p) {
  if (!p) return null;
  if (p.kind === "play") {
    const forced = Array.isArray(p.cards) && p.cards.length === 1 && !p.concede;
    return forced && /** @type {HTMLInputElement} */ ($("auto-play")).checked ? { play: p.cards[0] } : null;
  }
  if (p.kind === "declare") {
    const options = p.options || [];
    if (options.length === 1 || (options.length && declaresBest())) return options[0].action;
  }
  return null;
}

/**
 * Make the page's own action at this prompt (above), after a moment in which the player sees it. Until then the
 * page counts as busy: body data-prompt is "" and data-pending "1", as after an action sent, so nothing else
 * answers that prompt.
 */
export function scheduleForcedPlay() {
  const st = app.state;
  const p = st && st.prompt;
  const action = automatic(p);
  const timers = app.timers;
  if (!st || !p || !action) {
    if (timers.autoPlay) {
      clearTimeout(timers.autoPlay ?? undefined);
      timers.autoPlay = null;
    }
    timers.autoPlaying = false;
    return;
  }
  if (app.waiting.action || timers.autoVersion === st.version) return;
  timers.autoVersion = st.version;
  timers.autoPlaying = true;
  const version = st.version;
  const kind = p.kind;
  clearTimeout(timers.autoPlay ?? undefined);
  timers.autoPlay = setTimeout(() => {
    timers.autoPlay = null;
    timers.autoPlaying = false;
    const now = app.state;
    if (!now || now.version !== version || !now.prompt || now.prompt.kind !== kind || app.waiting.action
        || !app.connection.connected) {
      renderPending();
      return;
    }
    sendAction(action);
    renderPending();
  }, kind === "declare" ? 500 : 300);
}
