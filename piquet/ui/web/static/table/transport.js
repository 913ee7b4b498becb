// @ts-check
// The table's WebSocket: connecting and reconnecting, and what the page sends on it.

import { lang, sentence, t } from "../i18n.js";
import { $, h } from "./dom.js";
import { onMessage } from "./messages.js";
import { renderPending, showError, showHint } from "./render.js";
import { app, canUndo, declaresBest } from "./state.js";

/** @typedef {import("./protocol.js").Action} Action */
/** @typedef {import("./protocol.js").ClientMessage} ClientMessage */

// ------------------------------------------------------------------ connection

/** Open the table's socket (the page's seat secret in the query), unless the page has given up. */
export function connect() {
  clearTimeout(app.reconnectTimer ?? undefined);
  app.reconnectTimer = null;
  if (app.fatal) return;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const cred = /** @type {import("./state.js").Credential} */ (app.cred);
  const url = `${proto}//${location.host}/ws/${encodeURIComponent(/** @type {string} */ (app.id))}?${cred.kind}=${encodeURIComponent(cred.value)}&lang=${lang}`;
  let ws;
  try {
    ws = new WebSocket(url);
  } catch {
    scheduleReconnect();
    return;
  }
  app.ws = ws;
  ws.addEventListener("open", () => {
    if (app.ws !== ws) return;
    app.attempts = 0;
    app.freshConnection = true;
  });
  ws.addEventListener("message", (ev) => {
    if (app.ws !== ws) return;
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    onMessage(msg);
  });
  ws.addEventListener("close", (ev) => {
    if (app.ws !== ws) return;
    app.ws = null;
    app.connected = false;
    app.pending = false;
    app.undoPending = false;
    app.hintWaiting = false;
    app.autoHintVersion = null;
    if (ev.code === 4404) fatal(t("conn.no_table"));
    else if (ev.code === 4403) fatal(t("conn.no_seat"));
    else if (ev.code === 4400) fatal(sentence(ev.reason || t("error.generic")));
    else if (ev.code === 4410) fatal(app.cred && app.cred.kind === "move"
      ? t("conn.move_used")
      : t("conn.invite_used"));
    else if (ev.code === 4401) fatal(t("conn.moved"));
    else scheduleReconnect();
    renderPending();
  });
}

export function scheduleReconnect() {
  if (app.fatal || app.reconnectTimer) return;
  const delays = [400, 1000, 2000, 4000, 8000, 15000];
  const base = delays[Math.min(app.attempts, delays.length - 1)];
  const delay = base + Math.round(Math.random() * base * 0.25);
  app.attempts += 1;
  showBanner(app.everConnected ? t("conn.lost") : t("conn.connecting"), true);
  app.reconnectTimer = setTimeout(() => {
    app.reconnectTimer = null;
    connect();
  }, delay);
}

export function reconnectNow() {
  if (!app.fatal && !app.ws && app.reconnectTimer) {
    clearTimeout(app.reconnectTimer ?? undefined);
    app.reconnectTimer = null;
    connect();
  }
}

/** @param {string} text */
export function showBanner(text, busy = false) {
  const el = $("connection");
  el.textContent = text;
  el.classList.toggle("busy", busy);
  el.hidden = !text;
}

/**
 * The page cannot go on (no such table, no seat): say why, and stop reconnecting.
 * @param {string} text
 */
export function fatal(text) {
  app.fatal = true;
  clearTimeout(app.reconnectTimer ?? undefined);
  showBanner("");
  const el = $("connection");
  el.replaceChildren(h("span", { text: text + " " }), h("a", { href: "/", text: t("conn.lobby") }));
  el.classList.add("fatal");
  el.hidden = false;
  $("status").textContent = text;
  document.body.dataset.connected = "false";
  document.body.dataset.ready = "1"; // all the page will draw: why it cannot go on
}

/**
 * Send a message if the socket is open; otherwise say the move was not sent.
 * @param {ClientMessage} msg
 */
export function send(msg) {
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) {
    showError(t("conn.not_sent"));
    return false;
  }
  app.ws.send(JSON.stringify(msg));
  return true;
}

/**
 * Send the player's decision; `confirm`: he was warned by the tutor and plays it anyway.
 * @param {Action} action
 * @param {boolean} [confirm]
 */
export function sendAction(action, confirm = false) {
  if (app.pending || !app.state) return;
  // The version of the state this answers: the server refuses it as stale if the table has moved on.
  const message = confirm ? { type: "action", action, version: app.state.version, confirm: true }
    : { type: "action", action, version: app.state.version };
  if (!send(/** @type {ClientMessage} */ (message))) return;
  app.pending = true;
  clearTimeout(app.autoTimer ?? undefined);
  app.autoTimer = null;
  app.autoPlaying = false;
  renderPending();
}

export function requestHint() {
  if (!app.state || !app.state.prompt || !app.state.can_hint || app.hintWaiting) return;
  if (send({ type: "hint" })) {
    app.hintWaiting = true;
    showHint({ version: app.state.version, text: "Thinking…", action: null });
  }
}

/**
 * Take back the player's last decision. With "Declare my best" the page declares for him: those declarations are
 * not his decisions, and the server goes past them (`declare_best`) to the one before, or the page would take back
 * a declaration only to make it again at once.
 */
export function requestUndo() {
  if (!app.state || !canUndo(app.state) || app.pending) return;
  const msg = declaresBest()
    ? { type: /** @type {const} */ ("undo"), version: app.state.version, declare_best: true }
    : { type: /** @type {const} */ ("undo"), version: app.state.version };
  if (send(msg)) {
    app.undoPending = true;
    app.pending = true;
    renderPending();
  }
}

export function requestMove() {
  if (!app.state || (app.state.seat !== 0 && app.state.seat !== 1)) return;
  send({ type: "move" });
}
