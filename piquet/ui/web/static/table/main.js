// @ts-check
// The table page: one WebSocket to the server, and a full re-render of the table from every
// `state` message (see docs/protocol.md). This module starts the page: it connects the drawing modules' intents
// to the controller (control.js) and the socket's messages to messages.js, and reads the keyboard.

import { ensureSprite } from "../cards.js";
import "../display.js"; // the cards and colours this browser chose (applied at once)
import { lang, languageChoice, sentence, t } from "../i18n.js";
import { keepOffline, NEW_TABLE, offline, tableHref } from "../site/mode.js";
import { createTable, recordOf } from "../site/worker-socket.js";
import { session, store } from "../storage.js";
import { $, copyLink } from "./dom.js";
import {
  activateCard, handle, hideTutor, redraw, requestHint, requestMove, requestSay, requestUndo, scheduleForcedPlay,
  sendAction,
} from "./control.js";
import { onIntent } from "./intents.js";
import { onMessage } from "./messages.js";
import { clearError, renderPending, showError } from "./render.js";
import { app, readCredentials, saveTable, savedTable } from "./state.js";
import { connect, fatal, reconnectNow } from "./transport.js";

export async function start() {
  keepOffline();
  onIntent(handle);
  ensureSprite();
  languageChoice(/** @type {HTMLSelectElement} */ ($("language")));
  const auto = /** @type {HTMLInputElement} */ ($("auto-play"));
  auto.checked = store.get("piquet.autoPlay") !== "0";
  auto.addEventListener("change", () => {
    store.set("piquet.autoPlay", auto.checked ? "1" : "0");
    if (app.state) {
      scheduleForcedPlay();
      renderPending();
    }
  });
  const best = /** @type {HTMLInputElement} */ ($("declare-best"));
  best.addEventListener("change", () => {
    store.set("piquet.declareBest", best.checked ? "1" : "0");
    if (app.state) redraw(); // the declaration made for him, and the Undo button (which goes past it)
  });
  $("error-close").addEventListener("click", clearError);
  $("hint-button").addEventListener("click", requestHint);
  $("undo-button").addEventListener("click", requestUndo);
  $("move-button").addEventListener("click", requestMove);
  for (const b of $("phrases").querySelectorAll("button[data-phrase]")) {
    const phrase = /** @type {import("./protocol.js").Phrase} */ (b instanceof HTMLElement ? b.dataset.phrase : "");
    b.addEventListener("click", () => requestSay(phrase));
  }
  $("tutor-again").addEventListener("click", hideTutor);
  $("tutor-anyway").addEventListener("click", () => {
    const warning = app.advice.tutor;
    hideTutor();
    if (warning && app.state && warning.version === app.state.version) sendAction(warning.action, true);
  });
  $("rematch").addEventListener("click", requestRematch);
  if (offline) $("record-link").addEventListener("click", downloadRecord);
  $("hint-follow").addEventListener("click", () => {
    if (app.advice.hint && app.advice.hint.action && app.state && app.advice.hint.version === app.state.version) sendAction(app.advice.hint.action);
  });
  $("hand").addEventListener("click", (e) => {
    const card = e.target instanceof Element ? e.target.closest("[data-card]") : null;
    if (card instanceof HTMLElement && card.getAttribute("role") === "button") activateCard(card.dataset.card);
  });
  for (const b of document.querySelectorAll("button[data-copy]")) {
    if (!(b instanceof HTMLElement)) continue;
    b.addEventListener("click", () => copyLink(/** @type {HTMLAnchorElement} */ ($(b.dataset.copy || "")), b));
  }
  document.addEventListener("keydown", onKey);
  window.addEventListener("online", () => reconnectNow());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") reconnectNow();
  });
  if (offline && new URLSearchParams(location.search).has("new")) {
    const refused = await createHere();
    if (refused) {
      fatal(refused);
      return;
    }
  }
  const found = readCredentials();
  if (!found) {
    fatal("This page needs a table: open the link you were given, or start a game from the lobby.");
    return;
  }
  app.id = found.id;
  app.cred = found.cred;
  if (!app.cred) {
    fatal("This browser holds no seat at this table. Open the link you were given (it ends in #token=…, #invite=… or #spectate=…).");
    return;
  }
  connect(onMessage);
}

// ------------------------------------------------------------------ keyboard

/** The keys: 1-9 choose, arrows move among the cards, Enter plays or selects, H hint, U undo. @param {KeyboardEvent} e */
export function onKey(e) {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
  const t = e.target;
  if (t instanceof Element && t.closest("input, textarea, select, [contenteditable=''], [contenteditable='true'], dialog")) return;
  const st = app.state;
  const p = st && st.prompt;
  const card = t instanceof Element ? /** @type {HTMLElement | null} */ (t.closest("#hand [data-card]")) : null;
  if ((e.key === "Enter" || e.key === " ") && card) {
    e.preventDefault();
    if (card.getAttribute("role") === "button") activateCard(card.dataset.card);
    return;
  }
  if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && p && (p.kind === "play" || p.kind === "exchange")) {
    const cards = [.../** @type {NodeListOf<HTMLElement>} */ ($("hand").querySelectorAll("[data-card][role=button]"))];
    if (!cards.length) return;
    e.preventDefault();
    let i = card ? cards.indexOf(card) : -1;
    if (i < 0) i = e.key === "ArrowRight" ? 0 : cards.length - 1;
    else i = (i + (e.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length;
    cards[i].focus();
    return;
  }
  if (/^[1-9]$/.test(e.key) && p && !app.waiting.action && app.connection.connected) {
    const k = Number(e.key) - 1;
    if (p.kind === "play") {
      const code = (p.cards || [])[k];
      if (code) {
        e.preventDefault();
        activateCard(code);
      }
    } else if (p.kind === "exchange") {
      const code = ((st.view && st.view.hand) || [])[k];
      if (code) {
        e.preventDefault();
        activateCard(code);
      }
    } else {
      const buttons = [.../** @type {NodeListOf<HTMLButtonElement>} */ ($("prompt").querySelectorAll("[data-testid=choice]"))].filter((b) => !b.disabled);
      if (buttons[k]) {
        e.preventDefault();
        buttons[k].click();
      }
    }
    return;
  }
  if (e.key === "h" || e.key === "H") {
    e.preventDefault();
    requestHint();
    return;
  }
  if (e.key === "u" || e.key === "U") {
    e.preventDefault();
    requestUndo();
  }
}

// Exposed for debugging in the console; the page does not use it.
/** @type {any} */ (window).piquetTable = app;

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();

/**
 * The offline site's table page was asked for a new table (the lobby left the request in this tab): make it in the
 * worker, keep its seat's secret in this browser and take its address. The reason it was refused, or null.
 * @returns {Promise<string | null>}
 */
async function createHere() {
  const request = session.get(NEW_TABLE);
  if (!request) return "This page was asked for a new table, but the request is gone: start a game from the lobby.";
  const answer = await createTable(JSON.parse(request), lang);
  session.set(NEW_TABLE, null);
  if (!("id" in answer)) return sentence(answer.detail);
  saveTable(answer.id, { ...savedTable(answer.id), token: answer.token, at: Date.now() });
  history.replaceState(null, "", tableHref(answer.id));
  return null;
}

/**
 * The offline site's record of a finished partie, from the worker, downloaded as the server's is.
 * @param {Event} e
 */
async function downloadRecord(e) {
  e.preventDefault();
  const socket = app.connection.ws;
  const text = socket ? await recordOf(/** @type {import("../site/worker-socket.js").WorkerSocket} */ (/** @type {unknown} */ (socket))) : null;
  if (!text) {
    showError("The record is given once the partie is over.");
    return;
  }
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  link.download = `piquet-${app.id}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

/** Ask the server for another partie with the same settings (POST /api/tables/{id}/rematch), and go to it. */
async function requestRematch() {
  if (!app.id || !app.cred) return;
  if (offline && app.state && app.state.seat !== null) {
    // In this browser: a new table with the same settings, made by the table page (createHere).
    const table = app.state.table;
    session.set(NEW_TABLE, JSON.stringify({ kind: "computer", variant: table.variant, options: table.options,
      level: table.level ?? 3, name: app.state.players[app.state.seat] || "Player", takebacks: table.takebacks,
      tutor: table.tutor ?? false, budget: table.budget ?? undefined }));
    location.assign("table.html?new=1");
    return;
  }
  const button = /** @type {HTMLButtonElement} */ ($("rematch"));
  button.disabled = true;
  const url = `/api/tables/${encodeURIComponent(app.id)}/rematch?token=${encodeURIComponent(app.cred.value)}`
    + `&lang=${encodeURIComponent(lang)}`; // a refusal's reason comes back in the page's language
  const answer = await fetch(url, { method: "POST" }).catch(() => null);
  button.disabled = false;
  if (!answer || !answer.ok) {
    const detail = answer ? /** @type {{detail?: string}} */ (await answer.json().catch(() => ({}))).detail : null;
    showError(t("result.no_rematch", { why: detail || t("result.rematch_unreachable") }));
    return;
  }
  const data = /** @type {{id: string, link: string}} */ (await answer.json());
  location.assign(data.link);
}
