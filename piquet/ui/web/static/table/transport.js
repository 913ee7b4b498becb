// @ts-check
// The table's WebSocket (on the offline site, its worker's socket, ../site/worker-socket.js, with the same messages):
// connecting and reconnecting, and sending on it. What comes on it goes to the handler
// main.js gives (messages.js onMessage), so this module imports none of the modules that answer it.

import { lang, sentence, t } from "../i18n.js";
import { lobbyHref, offline } from "../site/mode.js";
import { WorkerSocket } from "../site/worker-socket.js";
import { $, h } from "./dom.js";
import { renderPending, showError } from "./render.js";
import { app } from "./state.js";

/** @typedef {import("./protocol.js").ClientMessage} ClientMessage */
/** @typedef {import("./protocol.js").ServerMessage} ServerMessage */

/** @type {(msg: ServerMessage) => void} */
let deliver = () => {};

// ------------------------------------------------------------------ connection

/**
 * Open the table's socket (the page's seat secret in the query), unless the page has given up; each message that
 * comes on it goes to `onMessage` (the last given, on a reconnection).
 * @param {(msg: ServerMessage) => void} [onMessage]
 */
export function connect(onMessage) {
  if (onMessage) deliver = onMessage;
  clearTimeout(app.connection.reconnectTimer ?? undefined);
  app.connection.reconnectTimer = null;
  if (app.connection.fatal) return;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const cred = /** @type {import("./state.js").Credential} */ (app.cred);
  const url = `${proto}//${location.host}/ws/${encodeURIComponent(/** @type {string} */ (app.id))}?${cred.kind}=${encodeURIComponent(cred.value)}&lang=${lang}`;
  let ws;
  try {
    // The worker's socket has what the page uses of a WebSocket: readyState, send, and its events.
    ws = offline
      ? /** @type {WebSocket} */ (/** @type {unknown} */ (new WorkerSocket(/** @type {string} */ (app.id), cred.kind, cred.value, lang)))
      : new WebSocket(url);
  } catch {
    scheduleReconnect();
    return;
  }
  app.connection.ws = ws;
  ws.addEventListener("open", () => {
    if (app.connection.ws !== ws) return;
    app.connection.attempts = 0;
    app.connection.fresh = true;
  });
  ws.addEventListener("message", (ev) => {
    if (app.connection.ws !== ws) return;
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    deliver(msg);
  });
  ws.addEventListener("close", (ev) => {
    if (app.connection.ws !== ws) return;
    app.connection.ws = null;
    app.connection.connected = false;
    app.waiting.action = false;
    app.waiting.undo = false;
    app.waiting.hint = false;
    app.advice.autoHintVersion = null;
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
  if (app.connection.fatal || app.connection.reconnectTimer) return;
  // The first try at once, or nearly (a quarter more at random spreads a crowd): a connection lost to a server's
  // restart or to its table moving to another process is back within a fraction of a second; then back off.
  const delays = [50, 1000, 2000, 4000, 8000, 15000];
  const base = delays[Math.min(app.connection.attempts, delays.length - 1)];
  const delay = base + Math.round(Math.random() * base * 0.25);
  app.connection.attempts += 1;
  showBanner(app.connection.everConnected ? t("conn.lost") : t("conn.connecting"), true);
  app.connection.reconnectTimer = setTimeout(() => {
    app.connection.reconnectTimer = null;
    connect();
  }, delay);
}

export function reconnectNow() {
  if (!app.connection.fatal && !app.connection.ws && app.connection.reconnectTimer) {
    clearTimeout(app.connection.reconnectTimer ?? undefined);
    app.connection.reconnectTimer = null;
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
  app.connection.fatal = true;
  clearTimeout(app.connection.reconnectTimer ?? undefined);
  showBanner("");
  const el = $("connection");
  el.replaceChildren(h("span", { text: text + " " }), h("a", { href: lobbyHref(), text: t("conn.lobby") }));
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
  if (!app.connection.ws || app.connection.ws.readyState !== 1) { // open
    showError(t("conn.not_sent"));
    return false;
  }
  app.connection.ws.send(JSON.stringify(msg));
  return true;
}
