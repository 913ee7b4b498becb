// The table page: one WebSocket to the server, and a full re-render of the
// table from every `state` message (see docs/protocol.md).

import { store } from "./storage.js";
import {
  backElement,
  cardElement,
  cardName,
  cardShort,
  cardSpan,
  ensureSprite,
  isCard,
  prettyText,
  spokenText,
  syncBacks,
  syncCards,
} from "./cards.js";

const $ = (id) => document.getElementById(id);

/** Create an element: h("p", {className: "x", "data-testid": "y"}, "text", child). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "className") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k in el && typeof v !== "string") el[k] = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}


// ------------------------------------------------------------------ words

const NUMBERS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
  "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

/** 49 -> "forty-nine", 160 -> "one hundred and sixty" (as the calls say them). */
export function numberWord(n) {
  if (n < 0) return "minus " + numberWord(-n);
  if (n < 20) return NUMBERS[n];
  if (n < 100) return TENS[Math.floor(n / 10)] + (n % 10 ? "-" + NUMBERS[n % 10] : "");
  if (n < 1000) {
    const rest = n % 100;
    return NUMBERS[Math.floor(n / 100)] + " hundred" + (rest ? " and " + numberWord(rest) : "");
  }
  return String(n);
}

const capitalize = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/** What a player says when he scores: "Five." or "Five, twelve." (points, then his total). */
function reckoning(points, total) {
  if (total === undefined || total === null || total === points) return capitalize(numberWord(points)) + ".";
  return `${capitalize(numberWord(points))}, ${numberWord(total)}.`;
}

const PHASES = {
  cut: "The cut",
  choose_dealer: "Choosing the dealer",
  deal: "The deal",
  bid: "The auction",
  carte_blanche: "Carte blanche",
  exchange: "The exchange",
  declare: "Declaring",
  play: "The play",
  over: "The partie is over",
};

const CATEGORY_WORDS = { point: "point", sequences: "sequences", sets: "sets" };

// ------------------------------------------------------------------ app state

const app = {
  id: null,
  cred: null, // {kind: "token" | "spectate" | "invite" | "move", value}
  ws: null,
  connected: false, // a state has come on the current socket
  attempts: 0,
  reconnectTimer: null,
  fatal: false,
  everConnected: false,
  freshConnection: false,
  state: null,
  pending: false,
  undoPending: false,
  selection: new Set(),
  selectionKey: null,
  showRest: false,
  autoHintVersion: null,
  hint: null, // {version, text, action}
  hintWaiting: false,
  autoTimer: null,
  autoVersion: null,
  autoPlaying: false,
  archive: [], // finished deals: {deal, log, tricks}
  keys: {},
  noticeTimer: null,
  highlight: new Set(),
};

// ------------------------------------------------------------------ start

const SECRET_KINDS = ["token", "move", "invite", "spectate"];

function savedTable(id) {
  try {
    return JSON.parse(store.get(`piquet.table.${id}`) || "{}") || {};
  } catch {
    return {};
  }
}

function saveTable(id, saved) {
  saved.at = Date.now();
  store.set(`piquet.table.${id}`, JSON.stringify(saved));
}

/**
 * The secret this page holds its place with. The server gives links with the secret after "#" (a browser
 * never sends that part to a server, so it is in no server's log); older links had it in the query. The
 * secret is kept in this browser and taken out of the address bar, so a copied address gives nothing away.
 */
function readCredentials() {
  const params = new URLSearchParams(location.search);
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ""));
  const m = location.pathname.match(/\/t\/([^/?#]+)/);
  const id = m ? decodeURIComponent(m[1]) : params.get("id") || params.get("table");
  if (!id) return null;
  const saved = savedTable(id);
  let cred = null;
  for (const kind of SECRET_KINDS) {
    const value = fragment.get(kind) || params.get(kind);
    if (value) {
      cred = { kind, value };
      break;
    }
  }
  if (cred && cred.kind === "token") saved.token = cred.value;
  else if (cred && cred.kind === "spectate") saved.spectate = cred.value;
  else if (cred && cred.kind === "invite" && saved.token) cred = { kind: "token", value: saved.token }; // joined already
  else if (cred && cred.kind === "invite") saved.invite = cred.value;
  else if (!cred && saved.token) cred = { kind: "token", value: saved.token };
  else if (!cred && saved.invite) cred = { kind: "invite", value: saved.invite };
  else if (!cred && saved.spectate) cred = { kind: "spectate", value: saved.spectate };
  if (cred) saveTable(id, saved);
  const clean = location.pathname + (params.get("id") || params.get("table") ? `?id=${encodeURIComponent(id)}` : "");
  if (clean !== location.pathname + location.search + location.hash) history.replaceState(null, "", clean);
  return { id, cred };
}

/** The server gave this browser a seat secret of its own (on joining a room, or on moving here). */
function onSeat(msg) {
  if (typeof msg.token !== "string" || !msg.token) return;
  app.cred = { kind: "token", value: msg.token };
  const saved = savedTable(app.id);
  saved.token = msg.token;
  delete saved.invite;
  saveTable(app.id, saved);
}

function start() {
  ensureSprite();
  const found = readCredentials();
  const auto = $("auto-play");
  auto.checked = store.get("piquet.autoPlay") !== "0";
  auto.addEventListener("change", () => {
    store.set("piquet.autoPlay", auto.checked ? "1" : "0");
    if (app.state) {
      scheduleForcedPlay();
      renderPending();
    }
  });
  $("error-close").addEventListener("click", clearError);
  $("hint-button").addEventListener("click", requestHint);
  $("undo-button").addEventListener("click", requestUndo);
  $("move-button").addEventListener("click", requestMove);
  $("hint-follow").addEventListener("click", () => {
    if (app.hint && app.hint.action && app.state && app.hint.version === app.state.version) sendAction(app.hint.action);
  });
  $("hand").addEventListener("click", (e) => {
    const card = e.target.closest("[data-card]");
    if (card && card.getAttribute("role") === "button") activateCard(card.dataset.card);
  });
  for (const b of document.querySelectorAll("button[data-copy]")) {
    b.addEventListener("click", () => copyLink($(b.dataset.copy), b));
  }
  document.addEventListener("keydown", onKey);
  window.addEventListener("online", () => reconnectNow());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") reconnectNow();
  });
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
  connect();
}

// ------------------------------------------------------------------ connection

function connect() {
  clearTimeout(app.reconnectTimer);
  app.reconnectTimer = null;
  if (app.fatal) return;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const url = `${proto}//${location.host}/ws/${encodeURIComponent(app.id)}?${app.cred.kind}=${encodeURIComponent(app.cred.value)}`;
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
    if (ev.code === 4404) fatal("There is no such table (it may have ended and been cleared away).");
    else if (ev.code === 4403) fatal("This link does not give a seat at this table.");
    else if (ev.code === 4410) fatal(app.cred && app.cred.kind === "move"
      ? "This link to move a seat has been used or has expired: ask for a new one on the device that holds the seat."
      : "This invitation has been used: the seat is taken. Ask the players for the watch link to follow the game.");
    else if (ev.code === 4401) fatal("Your seat moved to another device: this page no longer holds it.");
    else scheduleReconnect();
    renderPending();
  });
}

function scheduleReconnect() {
  if (app.fatal || app.reconnectTimer) return;
  const delays = [400, 1000, 2000, 4000, 8000, 15000];
  const base = delays[Math.min(app.attempts, delays.length - 1)];
  const delay = base + Math.round(Math.random() * base * 0.25);
  app.attempts += 1;
  showBanner(app.everConnected ? "Connection lost: reconnecting…" : "Connecting…", true);
  app.reconnectTimer = setTimeout(() => {
    app.reconnectTimer = null;
    connect();
  }, delay);
}

function reconnectNow() {
  if (!app.fatal && !app.ws && app.reconnectTimer) {
    clearTimeout(app.reconnectTimer);
    app.reconnectTimer = null;
    connect();
  }
}

function showBanner(text, busy = false) {
  const el = $("connection");
  el.textContent = text;
  el.classList.toggle("busy", busy);
  el.hidden = !text;
}

function fatal(text) {
  app.fatal = true;
  clearTimeout(app.reconnectTimer);
  showBanner("");
  const el = $("connection");
  el.replaceChildren(h("span", { text: text + " " }), h("a", { href: "/", text: "Back to the lobby" }));
  el.classList.add("fatal");
  el.hidden = false;
  $("status").textContent = text;
  document.body.dataset.connected = "false";
}

function send(msg) {
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) {
    showError("Not connected to the table: your move was not sent. Reconnecting…");
    return false;
  }
  app.ws.send(JSON.stringify(msg));
  return true;
}

function sendAction(action) {
  if (app.pending || !app.state) return;
  // The version of the state this answers: the server refuses it as stale if the table has moved on.
  if (!send({ type: "action", action, version: app.state.version })) return;
  app.pending = true;
  clearTimeout(app.autoTimer);
  app.autoTimer = null;
  app.autoPlaying = false;
  renderPending();
}

function requestHint() {
  if (!app.state || !app.state.prompt || app.hintWaiting) return;
  if (send({ type: "hint" })) {
    app.hintWaiting = true;
    showHint({ version: app.state.version, text: "Thinking…", action: null });
  }
}

function requestUndo() {
  if (!app.state || !app.state.can_undo || app.pending) return;
  if (send({ type: "undo", version: app.state.version })) {
    app.undoPending = true;
    app.pending = true;
    renderPending();
  }
}

function requestMove() {
  if (!app.state || (app.state.seat !== 0 && app.state.seat !== 1)) return;
  send({ type: "move" });
}

function onMove(msg) {
  if (typeof msg.link !== "string") return;
  const a = $("move-link");
  a.href = absolute(msg.link);
  a.textContent = a.href;
  $("move-box").hidden = false;
}

// ------------------------------------------------------------------ messages

function onMessage(msg) {
  if (!msg || typeof msg !== "object") return;
  if (msg.type === "state") onState(msg);
  else if (msg.type === "error") onError(msg);
  else if (msg.type === "hint") onHint(msg);
  else if (msg.type === "seat") onSeat(msg);
  else if (msg.type === "move") onMove(msg);
}

function onState(msg) {
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
  }
  app.state = msg;
  if (!prev) rememberTable(msg);
  render();
}

/** The lobby lists the tables this browser holds a seat at (or watches). */
function rememberTable(st) {
  const table = st.table || {};
  let list = [];
  try {
    list = JSON.parse(store.get("piquet.recent") || "[]");
    if (!Array.isArray(list)) list = [];
  } catch {
    list = [];
  }
  const old = list.find((t) => t.id === app.id) || {};
  const entry = { ...old, id: app.id, title: table.title || old.title, kind: table.kind || old.kind, level: table.level ?? old.level,
    watching: st.seat !== 0 && st.seat !== 1, at: Date.now() };
  store.set("piquet.recent", JSON.stringify([entry, ...list.filter((t) => t.id !== app.id)].slice(0, 8)));
}

function onError(msg) {
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
  showError(msg.message || msg.code || "Something went wrong.");
  if (app.state) render();
}

function onHint(msg) {
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
  showHint({ version: st.version, text: msg.text || "", action: msg.action || null });
}

function showError(text) {
  $("error-text").textContent = text;
  $("error").hidden = false;
}

function clearError() {
  $("error").hidden = true;
  $("error-text").textContent = "";
}

function showHint(hint) {
  app.hint = hint;
  const text = $("hint-text");
  text.replaceChildren(h("strong", { text: "Hint: " }), prettyText(hint.text));
  text.setAttribute("aria-label", "Hint: " + spokenText(hint.text));
  $("hint-follow").hidden = !hint.action || !app.state || !app.state.prompt;
  $("hint-box").hidden = false;
}

function hideHint() {
  app.hint = null;
  $("hint-box").hidden = true;
  $("hint-text").textContent = "";
}

/** Keep the dialogue of finished deals, which the state no longer carries. */
function archiveDeals(prev, next) {
  const pv = prev && prev.view;
  const nv = next.view;
  if (!nv) return;
  app.archive = app.archive.filter((d) => d.deal < nv.deal_number);
  noticeScoredDeal(prev, next);
  if (!pv || pv.deal_number === nv.deal_number || nv.deal_number < pv.deal_number) return;
  if (pv.log && pv.log.length && !app.archive.some((d) => d.deal === pv.deal_number)) {
    app.archive.push({ deal: pv.deal_number, log: pv.log, tricks: pv.tricks || [] });
  }
}

/** A deal just scored: say so for a few seconds (the next deal may start at once). */
function noticeScoredDeal(prev, next) {
  const before = (prev && prev.view && prev.view.sheet) || null;
  const after = (next.view && next.view.sheet) || [];
  if (before && after.length > before.length) showDealNotice(after[after.length - 1], next.players || []);
}

// ------------------------------------------------------------------ helpers on the state

function names(st = app.state) {
  const players = (st && st.players) || [];
  return [0, 1].map((s) => {
    const n = players[s];
    if (n) return String(n);
    if (st && st.table && st.table.status === "waiting" && s === 1) return "Second player";
    return s === 0 ? "Player 1" : "Player 2";
  });
}

function seats(st = app.state) {
  const seat = st.seat === 0 || st.seat === 1 ? st.seat : null;
  const me = seat === null ? 0 : seat;
  return { seat, me, opp: 1 - me };
}

function playedCards(v) {
  const out = new Set();
  for (const t of v.tricks || []) for (const c of t.cards || []) out.add(c);
  for (const c of v.trick || []) out.add(c);
  return out;
}

function shownCards(v, s, played) {
  const seen = new Set();
  const out = [];
  for (const list of [(v.shown_dealt || [])[s] || [], (v.revealed || [])[s] || []]) {
    for (const c of list) {
      if (!seen.has(c) && !played.has(c)) {
        seen.add(c);
        out.push(c);
      }
    }
  }
  return out;
}

const pair = (arr, s, fallback = 0) => (Array.isArray(arr) && arr[s] !== undefined && arr[s] !== null ? arr[s] : fallback);

function gamesWon(v) {
  const won = [0, 0];
  for (const g of v.games || []) if (g.winner === 0 || g.winner === 1) won[g.winner] += g.double ? 2 : 1;
  return won;
}

function isAuCent(st) {
  return (st.table && st.table.variant === "au-cent") || (st.view && Array.isArray(st.view.games) && st.view.games.length > 0);
}

// ------------------------------------------------------------------ render

function render() {
  const st = app.state;
  if (!st) return;
  const v = st.view || {};
  const table = st.table || {};
  renderHeader(st, table);
  renderStatus(st, v, table);
  renderSeats(st, v);
  renderCentre(st, v, table);
  renderPrompt(st);
  renderToolbar(st, table);
  renderLog(st, v);
  renderSheet(st, v);
  renderShare(table);
  scheduleForcedPlay();
  const b = document.body.dataset;
  b.phase = v.phase || "";
  b.toAct = v.to_act === 0 || v.to_act === 1 ? String(v.to_act) : "";
  b.seat = st.seat === 0 || st.seat === 1 ? String(st.seat) : "";
  b.version = st.version === undefined || st.version === null ? "" : String(st.version);
  b.status = table.status || "";
  renderPending();
}

/** The parts that depend on whether an action is on its way. */
function renderPending() {
  const st = app.state;
  const b = document.body.dataset;
  // Busy: an action on its way, a forced card about to be played, or no connection.
  const busy = app.pending || app.autoPlaying || !app.connected;
  b.connected = app.connected ? "true" : "false";
  b.pending = app.pending || app.autoPlaying ? "1" : "";
  b.prompt = st && st.prompt && !busy ? st.prompt.kind || "" : "";
  const prompt = $("prompt");
  const blocked = app.pending || !app.connected;
  prompt.classList.toggle("pending", blocked);
  for (const btn of prompt.querySelectorAll("button, input")) {
    if (blocked) {
      if (!btn.disabled) btn.dataset.pendingDisabled = "1";
      btn.disabled = true;
    } else if (btn.dataset.pendingDisabled) {
      delete btn.dataset.pendingDisabled;
      btn.disabled = false;
    }
  }
  if (!blocked) updateExchangeControls();
  $("hint-button").disabled = !(st && st.prompt) || blocked;
  $("undo-button").disabled = blocked;
  const join = $("join-submit");
  if (join) join.disabled = !app.connected;
}

function renderHeader(st, table) {
  const title = table.title || "Piquet";
  $("title").textContent = title;
  const n = names(st);
  document.title = `${title}: ${n[0]} v ${n[1]} · Piquet`;
  if (table.variant) $("rules-link").href = `/rules/${encodeURIComponent(table.variant)}`;
}

function promptSummary(p, st) {
  const v = st.view || {};
  switch (p.kind) {
    case "choose_dealer":
      return "choose who deals first";
    case "packets":
      return "deal in packets of 2 or 3";
    case "bid":
      return "your call in the auction";
    case "carte_blanche":
      return "announce your carte blanche, or not";
    case "exchange":
      return p.min === p.max ? `discard ${p.min}` : `discard ${p.min} to ${p.max} cards`;
    case "declare":
      return `${p.elder ? "declare" : "answer for"} your ${CATEGORY_WORDS[p.category] || p.category}`;
    case "play":
      return v.trick && v.trick.length ? "play a card" : "lead a card";
    default:
      return p.kind;
  }
}

function renderStatus(st, v, table) {
  const n = names(st);
  const { seat } = seats(st);
  let text;
  if (table.status === "waiting") {
    text = seat === 1 ? "Enter your name to take your seat." : `Waiting for the second player to join.`;
  } else if (table.status === "over" || v.phase === "over") {
    text = (v.result && v.result.text) || "The partie is over.";
  } else if (st.prompt && seat !== null) {
    text = "Your turn: " + promptSummary(st.prompt, st) + ".";
  } else if (v.to_act === 0 || v.to_act === 1) {
    if (st.computer === v.to_act) text = `${n[v.to_act]} is thinking…`;
    else if (seat === null) text = `${n[v.to_act]} to act: ${(PHASES[v.phase] || v.phase || "").toLowerCase()}.`;
    else text = `Waiting for ${n[v.to_act]}…`;
  } else {
    text = PHASES[v.phase] ? PHASES[v.phase] + "…" : "…";
  }
  const el = $("status");
  if (el.textContent !== text) el.textContent = text;
  document.body.classList.toggle("my-turn", !!(st.prompt && seat !== null));
  document.body.classList.toggle("spectator", seat === null);

  // Chips: deal, contract, deal score.
  const chips = [];
  if (v.deal_number) {
    let deal = `Deal ${v.deal_number}`;
    if (isAuCent(st)) deal += ` · game ${(v.games || []).length + (table.status === "over" ? 0 : 1)}`;
    chips.push(deal);
  }
  if (v.phase && PHASES[v.phase] && v.phase !== "over") chips.push(PHASES[v.phase]);
  if (v.contract) chips.push(`Contract ${v.contract.text || v.contract.bid} (${n[v.contract.holder] ?? "?"})`);
  const key = JSON.stringify(chips);
  if (app.keys.chips !== key) {
    app.keys.chips = key;
    $("chips").replaceChildren(...chips.map((c) => h("span", { className: "chip", text: c })));
  }
}

function plate(st, v, s, isMe) {
  const n = names(st);
  const { seat } = seats(st);
  const el = h("div", { className: "plate-inner" + (v.to_act === s ? " acting" : "") });
  const nameLine = h("div", { className: "plate-name" }, h("span", { className: "who", text: n[s] }));
  if (isMe && seat !== null) nameLine.append(h("span", { className: "you", text: "you" }));
  if (st.computer === s) nameLine.append(h("span", { className: "badge computer", text: `computer${st.table && st.table.level ? " · level " + st.table.level : ""}` }));
  if (v.dealer === s) nameLine.append(h("span", { className: "badge", text: "dealer", title: "Deals this hand" }));
  const beforeRoles = ["cut", "choose_dealer", "deal", "bid"].includes(v.phase);
  if (!beforeRoles && (v.elder === 0 || v.elder === 1) && v.phase !== "over") {
    nameLine.append(h("span", { className: "badge role", text: v.elder === s ? "elder" : "younger" }));
  }
  if (pair(v.carte_blanche, s, false)) nameLine.append(h("span", { className: "badge gold", text: "carte blanche" }));
  if (v.to_act === s && st.table && st.table.status !== "over") {
    nameLine.append(h("span", { className: "turn-dot", title: "To act", "aria-label": "to act" }));
  }
  el.append(nameLine);
  const scores = h("div", { className: "plate-scores" });
  if (isAuCent(st)) {
    scores.append(
      h("span", { className: "score", title: "Games won (a double game counts two)" }, "games ", h("b", { text: gamesWon(v)[s] })),
      h("span", { className: "score", title: "Score in the game in progress" }, "game ", h("b", { text: pair(v.game_scores, s) })),
    );
  } else {
    scores.append(h("span", { className: "score", title: "Partie total" }, "partie ", h("b", { text: pair(v.totals, s) })));
  }
  scores.append(h("span", { className: "score", title: "This deal so far" }, "deal ", h("b", { "data-testid": `deal-points-${s}`, text: pair(v.deal_points, s) })));
  if (["play", "over"].includes(v.phase) || (v.tricks && v.tricks.length)) {
    const won = pair(v.tricks_won, s);
    scores.append(
      h("button", {
        type: "button",
        className: "small tricks-button",
        "data-testid": "tricks",
        "data-seat": String(s),
        "aria-label": `${n[s]} has won ${won} trick${won === 1 ? "" : "s"}: show them`,
        onclick: () => openTricks(s),
      }, "tricks ", h("b", { text: won })),
    );
  }
  el.append(scores);
  return el;
}

function renderSeats(st, v) {
  const { seat, me, opp } = seats(st);
  const played = playedCards(v);
  // Plates (rebuilt only when what they show changes, so focus on a button survives).
  const plateKey = (s) => JSON.stringify([names(st), s, v.to_act, v.dealer, v.elder, v.phase, v.totals, v.deal_points,
    v.tricks_won, v.carte_blanche, v.games, v.game_scores, st.computer, seat, st.table && st.table.status, (v.tricks || []).length]);
  for (const [s, id, isMe] of [[opp, "plate-opp", false], [me, "plate-me", true]]) {
    const key = plateKey(s);
    if (app.keys[id] !== key) {
      app.keys[id] = key;
      $(id).replaceChildren(plate(st, v, s, isMe));
    }
  }

  // The opponent's hand: backs. A spectator sees both hands as backs.
  syncBacks($("opp-hand"), pair(v.hand_sizes, opp));
  $("opp-hand").setAttribute("aria-label", `${names(st)[opp]}'s hand: ${pair(v.hand_sizes, opp)} cards`);

  // Piles beside each plate: discards, cards shown.
  renderPiles($("piles-opp"), st, v, opp, false, played);
  renderPiles($("piles-me"), st, v, me, seat !== null, played);

  // Own hand.
  const hand = $("hand");
  if (seat === null) {
    // Spectator: no cards of his own; the bottom seat's hand as backs.
    for (const el of [...hand.children]) if (el.dataset.card) el.remove();
    syncBacks(hand, pair(v.hand_sizes, me));
    hand.setAttribute("aria-label", `${names(st)[me]}'s hand: ${pair(v.hand_sizes, me)} cards`);
    return;
  }
  for (const el of [...hand.children]) if (!el.dataset.card) el.remove();
  hand.setAttribute("aria-label", "Your hand");
  const p = st.prompt;
  const legal = new Set(p && p.kind === "play" ? p.cards || [] : []);
  const selKey = selectionKey(st);
  if (app.selectionKey !== selKey) {
    app.selectionKey = selKey;
    app.selection = new Set();
    app.showRest = false;
  }
  const shown = new Set([...pair(v.revealed, me, []), ...pair(v.shown_dealt, me, [])]);
  const cards = v.hand || [];
  const suitStarts = new Set(cards.filter((c, i) => i > 0 && cards[i - 1][1] !== c[1]));
  syncCards(hand, cards, {
    clickable: (c) => !!p && (p.kind === "exchange" || (p.kind === "play" && legal.has(c))),
    decorate: (el, c) => {
      const selected = p && p.kind === "exchange" && app.selection.has(c);
      el.classList.toggle("selected", !!selected);
      el.classList.toggle("dim", !!p && p.kind === "play" && !legal.has(c));
      el.classList.toggle("shown", shown.has(c));
      el.classList.toggle("hl", app.highlight.has(c));
      el.classList.toggle("suit-start", suitStarts.has(c));
      if (p && p.kind === "exchange") {
        el.setAttribute("aria-pressed", selected ? "true" : "false");
        el.setAttribute("aria-label", `${cardName(c)}${shown.has(c) ? ", shown" : ""}`);
      } else {
        el.removeAttribute("aria-pressed");
        let label = cardName(c);
        if (p && p.kind === "play") label = legal.has(c) ? `play the ${label}` : `${label}, cannot be played`;
        if (shown.has(c)) label += ", shown to your opponent";
        el.setAttribute("aria-label", label);
      }
      if (p && p.kind === "play" && !legal.has(c)) el.setAttribute("aria-disabled", "true");
      else el.removeAttribute("aria-disabled");
      // data-legal: may this card be clicked now (play: a legal card; exchange: any card).
      if (p && (p.kind === "play" || p.kind === "exchange")) el.dataset.legal = String(p.kind === "exchange" || legal.has(c));
      else delete el.dataset.legal;
      el.title = shown.has(c) ? "Shown to your opponent" : "";
    },
  });
  hand.classList.toggle("choosing", !!p && (p.kind === "exchange" || p.kind === "play"));
}

function selectionKey(st) {
  const p = st.prompt;
  return p && p.kind === "exchange" ? `${st.version}:${JSON.stringify(p)}` : null;
}

function pileGroup(label, cards, { backs = 0, className = "", testid = null } = {}) {
  const row = h("div", { className: "cards-row small-cards" });
  for (const c of cards) row.append(cardElement(c));
  for (let i = 0; i < backs; i += 1) row.append(backElement());
  const aria = cards.length ? `${label}: ${cards.map(cardName).join(", ")}` : `${label}: ${backs} card${backs === 1 ? "" : "s"} face down`;
  return h("div", { className: "pile " + className, "data-testid": testid, role: "group", "aria-label": aria },
    h("div", { className: "pile-label", text: label }), row);
}

function renderPiles(container, st, v, s, own, played) {
  const groups = [];
  const exchanged = pair(v.exchanged, s, null);
  if (own && (v.discards || []).length) {
    groups.push(["Your discards", v.discards, 0, "discards", "discards-me"]);
  } else if (exchanged) {
    groups.push(["Discards", [], exchanged, "discards", own ? "discards-me" : "discards-opp"]);
  }
  if (!own) {
    const shown = shownCards(v, s, played);
    if (shown.length) groups.push(["Shown", shown, 0, "shown", "shown-opp"]);
  }
  const key = JSON.stringify(groups);
  const keyName = container.id;
  if (app.keys[keyName] === key) return;
  app.keys[keyName] = key;
  container.replaceChildren(...groups.map(([label, cards, backs, cls, testid]) => pileGroup(label, cards, { backs, className: cls, testid })));
}

function renderCentre(st, v, table) {
  const n = names(st);
  const { seat, me, opp } = seats(st);
  // Talon.
  const talonLeft = v.talon_left || 0;
  syncBacks($("talon"), Math.min(talonLeft, 8));
  $("talon").dataset.count = String(talonLeft);
  $("talon").setAttribute("aria-label", `Talon: ${talonLeft} card${talonLeft === 1 ? "" : "s"}`);
  $("talon-area").hidden = !talonLeft && !["exchange", "carte_blanche", "bid"].includes(v.phase);
  $("talon-caption").textContent = talonLeft ? `Talon · ${talonLeft}` : "Talon empty";

  // Trick in play, or the last trick seen faintly.
  const trickEl = $("trick");
  const trick = v.trick || [];
  const tricks = v.tricks || [];
  let cards = trick;
  let lastTrick = null;
  if (!trick.length && tricks.length && v.phase === "play") {
    lastTrick = tricks[tricks.length - 1];
    cards = lastTrick.cards || [];
  }
  const leader = lastTrick ? lastTrick.leader : v.leader;
  const els = syncCards(trickEl, cards);
  els.forEach((el, i) => {
    const by = (leader + i) % 2;
    el.classList.toggle("by-me", by === me);
    el.classList.toggle("by-opp", by === opp);
    el.setAttribute("aria-label", `${cardName(el.dataset.card)}, ${i === 0 ? "led" : "played"} by ${n[by]}`);
  });
  trickEl.classList.toggle("last", !!lastTrick);
  let caption = "";
  if (lastTrick) caption = `Last trick: ${n[lastTrick.winner]}`;
  else if (trick.length) caption = `${n[v.leader]} led`;
  else if (v.phase === "play") caption = `${v.leader === me && seat !== null ? "Your" : n[v.leader] + "'s"} lead`;
  $("trick-caption").textContent = caption;
  $("trick-area").hidden = !(v.phase === "play" || trick.length || lastTrick);

  // Info: rest of the talon, peeked cards, auction, contract.
  const info = [];
  if ((v.peeked || []).length) info.push(["You looked at", v.peeked, "peeked"]);
  if ((v.rest || []).length) info.push(["Rest of the talon", v.rest, "rest"]);
  if (v.show_rest === true && !(v.rest || []).length && v.phase !== "play" && v.phase !== "over") {
    info.push(["The rest of the talon will be shown after the lead", [], "note"]);
  }
  if (v.phase === "bid" || ((v.bids || []).length && !v.contract)) {
    const text = (v.bids || []).map((b) => `${n[b.player]} ${b.call}`).join(", ");
    info.push([`Auction: ${text || "no call yet"}`, [], "note"]);
  }
  if (v.contract) {
    const c = v.contract;
    const minus = String(c.bid || "").endsWith("-");
    const tricksN = parseInt(c.bid, 10);
    let t = `Contract ${c.text || c.bid}: ${c.holder === seat ? "you" : n[c.holder]} must ${minus ? "lose" : "win"} ${Number.isFinite(tricksN) ? tricksN : "?"} tricks`;
    if (minus) t += " (both score for tricks lost, and for the other's combinations)";
    info.push([t, [], "note contract"]);
  }
  const infoKey = JSON.stringify(info);
  if (app.keys.info !== infoKey) {
    app.keys.info = infoKey;
    $("info-area").replaceChildren(
      ...info.map(([label, cards, cls]) => (cards.length
        ? pileGroup(label, cards, { className: cls, testid: cls })
        : h("p", { className: "info-note " + cls, text: label }))),
    );
  }

  // Waiting room.
  renderWaiting(st, table);

  // Result.
  const over = table.status === "over" || v.phase === "over";
  $("result-box").hidden = !over;
  if (over) $("notice").hidden = true;
  document.body.classList.toggle("over", over);
  $("result").textContent = over ? (v.result && v.result.text) || "The partie is over." : "";
  const link = $("record-link");
  if (over && app.cred) {
    // The server reads the spectator's secret from ?token= too.
    link.href = `/api/tables/${encodeURIComponent(app.id)}/record?token=${encodeURIComponent(app.cred.value)}`;
    link.setAttribute("download", `piquet-${app.id}.json`);
    link.hidden = false;
  } else {
    link.hidden = true;
  }
}

function absolute(url) {
  try {
    return new URL(url, location.origin).href;
  } catch {
    return url;
  }
}

function renderWaiting(st, table) {
  const box = $("waiting");
  const { seat } = seats(st);
  const waiting = table.status === "waiting";
  const key = JSON.stringify([waiting, seat, table.invite, names(st)]);
  if (app.keys.waiting === key) return;
  app.keys.waiting = key;
  if (!waiting) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.hidden = false;
  if (seat === 1) {
    const input = h("input", {
      id: "join-name", type: "text", name: "name", required: true, maxLength: 40, autocomplete: "nickname",
      "data-testid": "join-name", value: store.get("piquet.name") || "",
    });
    const form = h("form", { className: "join-form", "aria-labelledby": "join-title" },
      h("h2", { id: "join-title", text: `${names(st)[0]} invites you to a game of ${table.title || "Piquet"}` }),
      h("label", { for: "join-name", text: "Your name" }),
      h("div", { className: "join-row" }, input, h("button", { type: "submit", id: "join-submit", "data-testid": "join-submit", text: "Take your seat" })),
    );
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (!name) {
        input.focus();
        return;
      }
      store.set("piquet.name", name);
      send({ type: "join", name });
    });
    box.replaceChildren(form);
    setTimeout(() => input.focus(), 0);
  } else if (seat === 0 && table.invite) {
    const url = absolute(table.invite);
    const a = h("a", { id: "invite-link", href: url, "data-testid": "invite-link", className: "link-box", text: url });
    const copy = h("button", { type: "button", className: "small copy", text: "Copy", onclick: (e) => copyLink(a, e.currentTarget) });
    box.replaceChildren(
      h("h2", { text: "Waiting for your opponent" }),
      h("p", { text: "Send this link to the person you want to play. The game starts when they take their seat." }),
      h("div", { className: "share-row" }, a, copy),
    );
  } else {
    box.replaceChildren(h("h2", { text: "Waiting for the second player" }),
      h("p", { text: "The game starts when the second player takes their seat." }));
  }
}

function renderShare(table) {
  const a = $("spectate-link");
  if (table.spectate) {
    const url = absolute(table.spectate);
    if (a.href !== url) {
      a.href = url;
      a.textContent = url;
    }
    $("share").hidden = false;
  } else {
    $("share").hidden = true;
  }
  const seated = !!app.state && (app.state.seat === 0 || app.state.seat === 1) && table.status !== "waiting";
  $("move-seat").hidden = !seated;
}

async function copyLink(a, button) {
  const text = a.href || a.textContent;
  let ok = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      ok = true;
    }
  } catch {
    ok = false;
  }
  if (!ok) {
    const ta = h("textarea", { className: "offscreen", readOnly: true });
    ta.value = text;
    document.body.append(ta);
    ta.select();
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    ta.remove();
  }
  if (button) {
    const old = button.dataset.label || button.textContent;
    button.dataset.label = old;
    button.textContent = ok ? "Copied" : "Select and copy";
    setTimeout(() => {
      button.textContent = old;
    }, 1600);
  }
  if (!ok) {
    const range = document.createRange();
    range.selectNodeContents(a);
    const sel = getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }
}

// ------------------------------------------------------------------ the prompt

function choiceButton(label, action, index, { value = null, title = null, className = "", pretty = false } = {}) {
  const btn = h("button", {
    type: "button",
    className: "choice " + className,
    "data-testid": "choice",
    "data-value": value === null ? null : String(value),
    title,
  });
  // The key that chooses it, drawn by CSS (data-key), so the button's text is its label alone.
  if (index < 9) btn.dataset.key = String(index + 1);
  const text = h("span", { className: "choice-label" });
  text.append(pretty ? prettyText(label) : label);
  btn.append(text);
  if (pretty) btn.setAttribute("aria-label", spokenText(label));
  btn.addEventListener("click", () => sendAction(action));
  return btn;
}

function carteBlancheLabel(action) {
  if (!action || typeof action !== "object") return String(action);
  if (action.carte_blanche === false) return "Do not announce it";
  if (action.will_exchange !== undefined && action.will_exchange !== null) {
    return `Announce it, and exchange ${action.will_exchange}`;
  }
  return "Announce it";
}

function bidTitle(call) {
  const m = /^(\d+)([+-])$/.exec(call);
  if (!m) return { pass: "Pass", double: "Double the last bid", redouble: "Redouble" }[call] || call;
  return `Bid ${m[1]} ${m[2] === "+" ? "plus: to win" : "minus: to lose"} ${m[1]} tricks`;
}

/** The opponent's last words, when the prompt answers them. */
function lastSpeech(st) {
  const log = (st.view && st.view.log) || [];
  const { seat } = seats(st);
  for (let i = log.length - 1; i >= 0; i -= 1) {
    const e = log[i];
    if (e.kind === "say") return e.speaker !== seat ? e : null;
    if (e.kind === "play") return null;
  }
  return null;
}

function renderPrompt(st) {
  const el = $("prompt");
  const p = st.prompt;
  const key = JSON.stringify([st.version, p, st.table && st.table.status]);
  if (app.keys.prompt === key) return;
  app.keys.prompt = key;
  app.highlight = new Set();
  el.replaceChildren();
  el.dataset.kind = p ? p.kind : "";
  el.classList.toggle("active", !!p);
  if (!p) {
    el.append(h("p", { className: "prompt-idle", text: idleText(st) }));
    // The last deal: a player who cannot save his rubicon may concede before the first card, in turn or not.
    if (st.can_concede) el.append(concedeButton());
    return;
  }
  const n = names(st);
  const { me, opp } = seats(st);
  const title = h("p", { className: "prompt-title" });
  const choices = h("div", { className: "choices" });
  const extra = h("div", { className: "prompt-extra" });
  let i = 0;
  switch (p.kind) {
    case "choose_dealer":
      title.textContent = "You cut the higher card: choose who deals first.";
      for (const o of p.options || []) {
        choices.append(choiceButton(o === me ? "I deal first" : `${n[o]} deals first`, { choose_dealer: o }, i++, { value: o }));
      }
      extra.append(h("p", { className: "prompt-note", text: "Cavendish advises dealing first." }));
      break;
    case "packets":
      title.textContent = "You deal: in packets of two or of three (the same in all your deals).";
      for (const o of p.options || []) {
        choices.append(choiceButton(`Packets of ${o}`, { packets: o }, i++, { value: o }));
      }
      break;
    case "bid": {
      const bids = (st.view && st.view.bids) || [];
      title.textContent = bids.length
        ? "The auction so far: " + bids.map((b) => `${n[b.player]} ${b.call}`).join(", ") + ". Your call:"
        : "You bid first: the tricks you contract to win (+) or to lose (−), 7 to 12.";
      const options = p.options || [];
      const special = options.filter((c) => !/^\d+[+-]$/.test(c));
      const plus = options.filter((c) => /^\d+\+$/.test(c));
      const minus = options.filter((c) => /^\d+-$/.test(c));
      const row = (list, cls) => {
        if (!list.length) return;
        const r = h("div", { className: "choice-row " + cls });
        for (const c of list) {
          const label = /^\d/.test(c) ? c.replace("-", "−") : capitalize(c);
          r.append(choiceButton(label, { bid: c }, i++, { value: c, title: bidTitle(c), className: "bid" }));
        }
        choices.append(r);
      };
      row(plus, "plus");
      row(minus, "minus");
      row(special, "special");
      break;
    }
    case "carte_blanche":
      title.textContent = "You hold no king, queen or knave: carte blanche, worth 10.";
      for (const o of p.options || []) {
        const action = o && o.action ? o.action : o;
        const label = o && o.label ? o.label : carteBlancheLabel(action);
        const value = action.carte_blanche === false ? "no" : action.will_exchange ?? "yes";
        choices.append(choiceButton(label, action, i++, { value }));
      }
      break;
    case "exchange":
      buildExchange(st, p, title, choices, extra);
      break;
    case "declare": {
      const said = lastSpeech(st);
      const cat = CATEGORY_WORDS[p.category] || p.category;
      if (said && !p.elder) {
        title.append(h("span", { className: "quote" }, `${n[said.speaker]}: “`, prettyText(said.text), "” "));
      }
      title.append(p.elder ? `Declare your ${cat}:` : `Your answer, ${cat}:`);
      (p.options || []).forEach((o, idx) => {
        const btn = choiceButton(o.label, o.action, i++, { value: idx, pretty: true, className: "declare" });
        const cards = new Set(((o.action && o.action.combinations) || []).flat());
        const on = () => setHighlight(cards);
        const off = () => setHighlight(new Set());
        btn.addEventListener("mouseenter", on);
        btn.addEventListener("focus", on);
        btn.addEventListener("mouseleave", off);
        btn.addEventListener("blur", off);
        choices.append(btn);
      });
      if (p.in_full_only) extra.append(h("p", { className: "prompt-note", text: "In a minus contract nothing may be sunk: you declare your best and show every other." }));
      extra.append(h("button", {
        type: "button",
        className: "secondary",
        "data-testid": "declare-for-me",
        text: "Declare for me",
        title: "Declare as the strongest computer player would",
        onclick: () => {
          if (app.pending || !app.state.prompt) return;
          if (send({ type: "hint" })) {
            app.autoHintVersion = app.state.version;
            app.hintWaiting = true;
          }
        },
      }));
      break;
    }
    case "play": {
      const trick = (st.view && st.view.trick) || [];
      const cards = p.cards || [];
      if (trick.length) {
        title.append(`${n[opp]} led `, cardSpan(trick[0]), ": ");
      } else {
        title.append("Your lead: ");
      }
      title.append(cards.length === 1 ? "your only card is " : "click a card to play it", cards.length === 1 ? cardSpan(cards[0]) : "");
      if (cards.length === 1 && !p.concede && $("auto-play").checked) title.append(" (playing it…)");
      if (p.concede) extra.append(concedeButton());
      break;
    }
    case "concession":
      title.textContent = `${n[opp]} concedes: you may count 13 for the play and 10 for the cards, or decline and play on for a capot.`;
      for (const o of p.options || []) {
        const label = o.accept_concession ? "Accept: count 13 and 10" : "Decline: play on";
        choices.append(choiceButton(label, o, i++, { value: o.accept_concession ? "accept" : "decline" }));
      }
      break;
    default:
      title.textContent = `The server asks for a decision this page does not know (${p.kind}).`;
      for (const o of p.options || []) {
        const action = o && o.action ? o.action : o;
        choices.append(choiceButton(o && o.label ? o.label : JSON.stringify(action), action, i++));
      }
  }
  el.append(title);
  if (choices.childElementCount) el.append(choices);
  if (extra.childElementCount) el.append(extra);
}

function concedeButton() {
  return h("div", { className: "concede" },
    h("button", {
      type: "button",
      className: "danger",
      "data-testid": "concede",
      text: "Concede",
      title: "Concede the partie: your opponent counts 13 for play and 10 for the cards",
      onclick: () => {
        if (confirm("Concede the partie? Your opponent scores 13 for play and 10 for the cards.")) sendAction({ concede: true });
      },
    }),
    h("p", { className: "prompt-note", text: "You cannot save the rubicon: you may concede before the first card is played." }));
}

function idleText(st) {
  const table = st.table || {};
  const v = st.view || {};
  const { seat } = seats(st);
  if (table.status === "over") return "The partie is over.";
  if (table.status === "waiting") return "";
  if (seat === null) return "You are watching this table.";
  if (v.to_act === 0 || v.to_act === 1) {
    return st.computer === v.to_act ? `${names(st)[v.to_act]} is thinking…` : `${names(st)[v.to_act]} to act…`;
  }
  return "";
}

function setHighlight(cards) {
  app.highlight = cards;
  for (const el of $("hand").querySelectorAll("[data-card]")) el.classList.toggle("hl", cards.has(el.dataset.card));
}

function buildExchange(st, p, title, choices, extra) {
  const lo = p.min ?? 0;
  const hi = p.max ?? 0;
  const span = lo === hi ? `${lo}` : `${lo} to ${hi}`;
  title.textContent = `${p.younger ? "You are younger" : "You are elder"}: choose ${span} card${hi === 1 ? "" : "s"} to discard; you draw as many from the talon.`;
  const counter = h("span", { className: "counter", id: "exchange-count", "data-testid": "exchange-count", "aria-live": "polite" });
  const confirmBtn = h("button", {
    type: "button",
    id: "confirm-exchange",
    className: "primary",
    "data-testid": "confirm-exchange",
    text: "Exchange",
    onclick: () => {
      const n = app.selection.size;
      if (n < lo || n > hi) return;
      // Younger may show the rest only if she leaves some of the talon (Law 36).
      const leaves = (p.max ?? 0) - app.selection.size > 0;
      const action = { exchange: [...app.selection].sort(handOrder),
                       show_rest: !!(p.may_show_rest && app.showRest && leaves) };
      sendAction(action);
    },
  });
  const suggest = h("button", {
    type: "button",
    className: "secondary",
    "data-testid": "suggest",
    text: "Suggest",
    title: "Select the cards the computer would discard",
    disabled: !(p.advice && p.advice.length) && !(lo === 0 && p.advice),
    onclick: () => {
      app.selection = new Set(p.advice || []);
      refreshSelection();
    },
  });
  const clear = h("button", {
    type: "button",
    className: "secondary",
    "data-testid": "clear-selection",
    text: "Clear",
    onclick: () => {
      app.selection = new Set();
      refreshSelection();
    },
  });
  // Advice is given at a table against the computer only (two people play on their own).
  const bar = p.advice == null
    ? h("div", { className: "exchange-bar" }, counter, confirmBtn, clear)
    : h("div", { className: "exchange-bar" }, counter, confirmBtn, suggest, clear);
  choices.append(bar);
  if (p.may_show_rest) {
    const box = h("input", { type: "checkbox", id: "show-rest", "data-testid": "show-rest", checked: app.showRest });
    box.addEventListener("change", () => {
      app.showRest = box.checked;
    });
    extra.append(h("label", { className: "check", for: "show-rest" }, box,
      h("span", {}, "Show the rest of the talon to both after elder leads", h("span", { className: "left-note", id: "left-note" }))));
  }
}

const handOrder = (a, b) => {
  const key = (c) => "SHDC".indexOf(c[1]) * 8 + "AKQJT987".indexOf(c[0]);
  return key(a) - key(b);
};

function refreshSelection() {
  for (const el of $("hand").querySelectorAll("[data-card]")) {
    const on = app.selection.has(el.dataset.card);
    el.classList.toggle("selected", on);
    if (el.getAttribute("role") === "button") el.setAttribute("aria-pressed", on ? "true" : "false");
  }
  updateExchangeControls();
}

function updateExchangeControls() {
  const st = app.state;
  const p = st && st.prompt;
  if (!p || p.kind !== "exchange") return;
  const n = app.selection.size;
  const lo = p.min ?? 0;
  const hi = p.max ?? 0;
  const counter = $("exchange-count");
  if (counter) counter.textContent = `${n} selected (${lo === hi ? lo : `${lo}-${hi}`})`;
  const btn = $("confirm-exchange");
  if (btn) {
    btn.disabled = app.pending || n < lo || n > hi;
    if (n === 0 && lo === 0) {
      btn.textContent = "Stand pat";
      btn.setAttribute("aria-label", "Exchange no cards (stand pat)");
    } else {
      btn.textContent = n ? `Exchange ${n}` : "Exchange";
      btn.setAttribute("aria-label", n ? `Exchange ${n} card${n === 1 ? "" : "s"}` : "Exchange");
    }
  }
  const note = $("left-note");
  if (note) {
    const left = (p.max ?? 0) - n;
    note.textContent = left > 0 ? ` (${left} card${left === 1 ? "" : "s"} will be left)` : " (none will be left)";
  }
  const box = $("show-rest");
  if (box) box.disabled = (p.max ?? 0) - n <= 0;
}

function activateCard(code) {
  const st = app.state;
  if (!st || app.pending || !app.connected || !isCard(code)) return;
  const p = st.prompt;
  if (!p) return;
  if (p.kind === "exchange") {
    if (app.selection.has(code)) app.selection.delete(code);
    else app.selection.add(code);
    refreshSelection();
  } else if (p.kind === "play" && (p.cards || []).includes(code)) {
    sendAction({ play: code });
  }
}

/**
 * A forced card (the only legal one, no concession) is played by itself after a short
 * pause when the toggle is on. Until then the page counts as busy: body data-prompt is ""
 * and data-pending "1", as after an action sent, so nothing else answers that prompt.
 */
function scheduleForcedPlay() {
  const st = app.state;
  const p = st && st.prompt;
  const forced = !!p && p.kind === "play" && Array.isArray(p.cards) && p.cards.length === 1 && !p.concede;
  if (!forced || !$("auto-play").checked) {
    if (app.autoTimer) {
      clearTimeout(app.autoTimer);
      app.autoTimer = null;
    }
    app.autoPlaying = false;
    return;
  }
  if (app.pending || app.autoVersion === st.version) return;
  app.autoVersion = st.version;
  app.autoPlaying = true;
  const version = st.version;
  const card = p.cards[0];
  clearTimeout(app.autoTimer);
  app.autoTimer = setTimeout(() => {
    app.autoTimer = null;
    app.autoPlaying = false;
    const now = app.state;
    if (!now || now.version !== version || !now.prompt || now.prompt.kind !== "play" || app.pending || !app.connected) {
      renderPending();
      return;
    }
    sendAction({ play: card });
    renderPending();
  }, 300);
}

// ------------------------------------------------------------------ toolbar, log, sheet

function renderToolbar(st, table) {
  const undo = $("undo-button");
  undo.hidden = !st.can_undo;
  const taken = table.taken_back || 0;
  undo.title = table.takebacks === "free"
    ? `Take back your previous decision (U). Free takebacks are noted on the score sheet and in the record${taken ? `: ${taken} so far` : ""}.`
    : "Take back your previous decision, as long as you have seen nothing new since (U)";
  undo.textContent = table.takebacks === "free" && taken ? `Undo (${taken} so far)` : "Undo";
  $("hint-button").hidden = st.seat !== 0 && st.seat !== 1;
  if (app.hint && st.version !== app.hint.version) hideHint();
  else if (app.hint) $("hint-follow").hidden = !app.hint.action || !st.prompt;
}

function logItem(e, i, log, tricks, n, seat) {
  if (e.kind === "say") {
    const li = h("li", { className: `say speaker-${e.speaker}${e.speaker === seat ? " mine" : ""}` });
    li.append(h("b", { className: "who", text: n[e.speaker] ?? "?" }), ": ");
    li.append(h("span", { className: "speech" }, "\u201c", prettyText(e.text), "\u201d"));
    return li;
  }
  if (e.kind === "play") {
    let plays = 0;
    for (let k = 0; k <= i; k += 1) if (log[k].kind === "play") plays += 1;
    const lead = plays % 2 === 1;
    const li = h("li", { className: `play speaker-${e.speaker}${e.speaker === seat ? " mine" : ""}` });
    li.append(`${n[e.speaker] ?? "?"} ${lead ? "leads" : "plays"} `, isCard(e.card) ? cardSpan(e.card) : String(e.card || e.text || ""), ".");
    if (!lead) {
      const t = tricks[plays / 2 - 1];
      if (t && (t.winner === 0 || t.winner === 1)) li.append(h("span", { className: "aside", text: ` ${n[t.winner]} wins the trick.` }));
    }
    return li;
  }
  if (e.kind === "score") {
    const li = h("li", { className: `score speaker-${e.player}${e.player === seat ? " mine" : ""}` });
    li.append(h("b", { className: "who", text: n[e.player] ?? "?" }), ": ", h("span", { className: "speech", text: `\u201c${reckoning(e.points, e.total)}\u201d` }));
    const reason = [e.reason, e.points !== undefined ? `${e.points}` : null].filter((x) => x !== null && x !== undefined && x !== "").join(" · ");
    if (reason) li.append(" ", h("span", { className: "aside" }, prettyText(reason)));
    return li;
  }
  const li = h("li", { className: "note" });
  li.append(prettyText(e.text ?? ""));
  return li;
}

function renderDealLog(log, tricks, n, seat) {
  const ol = h("ol", { className: "log-lines" });
  log.forEach((e, i) => ol.append(logItem(e, i, log, tricks, n, seat)));
  return ol;
}

function renderLog(st, v) {
  const n = names(st);
  const { seat } = seats(st);
  const key = JSON.stringify([v.deal_number, v.log, v.tricks && v.tricks.length, app.archive.length, n]);
  if (app.keys.log === key) return;
  app.keys.log = key;
  const box = $("log");
  const nearBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 60;
  const parts = [];
  for (const d of app.archive) {
    const det = h("details", { className: "old-deal" }, h("summary", { text: d.deal ? `Deal ${d.deal}` : "The cut" }));
    det.append(renderDealLog(d.log, d.tricks, n, seat));
    parts.push(det);
  }
  if (v.deal_number) parts.push(h("h3", { className: "deal-heading", text: `Deal ${v.deal_number}` }));
  const log = v.log || [];
  if (log.length) parts.push(renderDealLog(log, v.tricks || [], n, seat));
  else parts.push(h("p", { className: "muted", text: "Nothing said yet." }));
  box.replaceChildren(...parts);
  if (nearBottom || !app.keys.logScrolled) {
    box.scrollTop = box.scrollHeight;
    app.keys.logScrolled = true;
  }
}

function renderSheet(st, v) {
  const n = names(st);
  const table = st.table || {};
  const sheet = v.sheet || [];
  const auction = table.variant === "auction" || sheet.some((r) => r.contract);
  const key = JSON.stringify([sheet, v.totals, v.deal_points, v.result, v.games, v.game_scores, n, v.phase, table.status]);
  if (app.keys.sheet === key) return;
  app.keys.sheet = key;
  const head = h("tr", {}, h("th", { scope: "col", text: "Deal" }));
  if (auction) head.append(h("th", { scope: "col", text: "Contract" }));
  head.append(h("th", { scope: "col", className: "num", text: n[0] }), h("th", { scope: "col", className: "num", text: n[1] }), h("th", { scope: "col", text: "Notes" }));
  const body = h("tbody");
  for (const row of sheet) {
    const tr = h("tr", { className: row.annulled ? "annulled" : "" }, h("th", { scope: "row", text: row.deal ?? "" }));
    if (auction) tr.append(h("td", { text: row.contract || "" }));
    if (row.annulled) {
      tr.append(h("td", { className: "num", text: "–" }), h("td", { className: "num", text: "–" }), h("td", { text: row.notes || "annulled: both passed" }));
    } else {
      tr.append(h("td", { className: "num", text: pair(row.points, 0) }), h("td", { className: "num", text: pair(row.points, 1) }), h("td", { text: row.notes || "" }));
    }
    body.append(tr);
  }
  const playing = table.status !== "over" && v.phase !== "over" && table.status !== "waiting";
  if (playing && v.deal_number && !sheet.some((r) => r.deal === v.deal_number)) {
    const tr = h("tr", { className: "current" }, h("th", { scope: "row", text: `${v.deal_number}…` }));
    if (auction) tr.append(h("td", { text: v.contract ? v.contract.text || v.contract.bid : "" }));
    tr.append(h("td", { className: "num", text: pair(v.deal_points, 0) }), h("td", { className: "num", text: pair(v.deal_points, 1) }), h("td", { className: "muted", text: "in progress" }));
    body.append(tr);
  }
  const foot = h("tfoot");
  if (!isAuCent(st)) {
    const tr = h("tr", {}, h("th", { scope: "row", text: "Partie" }));
    if (auction) tr.append(h("td"));
    tr.append(h("td", { className: "num", text: pair(v.totals, 0) }), h("td", { className: "num", text: pair(v.totals, 1) }), h("td"));
    foot.append(tr);
  }
  const tableEl = h("table", { className: "sheet-table" }, h("caption", { className: "visually-hidden", text: "Score sheet" }), h("thead", {}, head), body, foot);
  const parts = [tableEl];
  if (!sheet.length && !(playing && v.deal_number)) parts.splice(0, 1, h("p", { className: "muted", text: "No deal scored yet." }));
  if (isAuCent(st)) {
    const won = gamesWon(v);
    const games = v.games || [];
    const list = h("ol", { className: "games" });
    games.forEach((g) => list.append(h("li", { text: `${n[g.winner]} wins${g.double ? " a double game" : ""}, ${pair(g.scores, 0)}–${pair(g.scores, 1)}` })));
    parts.push(h("p", { className: "games-line", text: `Games won: ${n[0]} ${won[0]}, ${n[1]} ${won[1]} (a double game counts two; the first to three wins).` }));
    if (games.length) parts.push(list);
    if (playing) parts.push(h("p", { className: "muted", text: `Game in progress: ${n[0]} ${pair(v.game_scores, 0)}, ${n[1]} ${pair(v.game_scores, 1)} (to 100).` }));
  }
  if (v.result && v.result.text) parts.push(h("p", { className: "sheet-result", text: v.result.text }));
  $("sheet").replaceChildren(...parts);
}

function showDealNotice(row, players) {
  const n = [0, 1].map((s) => players[s] || `Player ${s + 1}`);
  const box = $("notice");
  const text = row.annulled
    ? `Deal ${row.deal} annulled: both passed.`
    : `Deal ${row.deal} scored: ${n[0]} ${pair(row.points, 0)}, ${n[1]} ${pair(row.points, 1)}${row.notes ? ` (${row.notes})` : ""}.`;
  box.replaceChildren(h("span", { text }), h("button", {
    type: "button", className: "small", "aria-label": "Dismiss", text: "OK",
    onclick: () => {
      box.hidden = true;
    },
  }));
  box.hidden = false;
  clearTimeout(app.noticeTimer);
  app.noticeTimer = setTimeout(() => {
    box.hidden = true;
  }, 9000);
}

function openTricks(s) {
  const st = app.state;
  if (!st) return;
  const v = st.view || {};
  const n = names(st);
  const dialog = $("tricks-dialog");
  const list = $("tricks-list");
  const tricks = v.tricks || [];
  const won = tricks.filter((t) => t.winner === s).length;
  $("tricks-title").textContent = `Tricks won by ${n[s]}: ${won} of ${tricks.length}`;
  list.replaceChildren();
  if (!tricks.length) list.append(h("li", { className: "muted", text: "No trick played yet." }));
  tricks.forEach((t, k) => {
    const mine = t.winner === s;
    const li = h("li", { className: "trick-line" + (mine ? " won" : " lost") },
      h("span", { className: "trick-no", text: `Trick ${k + 1}` }));
    (t.cards || []).forEach((c, i) => {
      const by = (t.leader + i) % 2;
      li.append(h("span", { className: "trick-card" }, cardSpan(c), h("small", { text: ` ${i === 0 ? "led by" : "by"} ${n[by]}` })));
    });
    li.append(h("span", { className: "trick-winner", text: `${n[t.winner] ?? "?"} wins` }));
    list.append(li);
  });
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
}

// ------------------------------------------------------------------ keyboard

function onKey(e) {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
  const t = e.target;
  if (t instanceof Element && t.closest("input, textarea, select, [contenteditable=''], [contenteditable='true'], dialog")) return;
  const st = app.state;
  const p = st && st.prompt;
  const card = t instanceof Element ? t.closest("#hand [data-card]") : null;
  if ((e.key === "Enter" || e.key === " ") && card) {
    e.preventDefault();
    if (card.getAttribute("role") === "button") activateCard(card.dataset.card);
    return;
  }
  if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && p && (p.kind === "play" || p.kind === "exchange")) {
    const cards = [...$("hand").querySelectorAll("[data-card][role=button]")];
    if (!cards.length) return;
    e.preventDefault();
    let i = cards.indexOf(card);
    if (i < 0) i = e.key === "ArrowRight" ? 0 : cards.length - 1;
    else i = (i + (e.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length;
    cards[i].focus();
    return;
  }
  if (/^[1-9]$/.test(e.key) && p && !app.pending && app.connected) {
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
      const buttons = [...$("prompt").querySelectorAll("[data-testid=choice]")].filter((b) => !b.disabled);
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
window.piquetTable = app;

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
