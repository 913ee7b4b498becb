// @ts-check
// The page's state: what the server last said (app.state) and what this page is doing, grouped by concern; the
// secret it holds its seat with; what this browser and this tab keep; and small helpers reading a state.

import { t } from "../i18n.js";
import { session, store } from "../storage.js";

/** @typedef {import("./protocol.js").Action} Action */
/** @typedef {import("./protocol.js").Card} Card */
/** @typedef {import("./protocol.js").LogEntry} LogEntry */
/** @typedef {import("./protocol.js").Phrase} Phrase */
/** @typedef {import("./protocol.js").Seat} Seat */
/** @typedef {import("./protocol.js").Rules} Rules */
/** @typedef {import("./protocol.js").StateMessage} StateMessage */
/** @typedef {import("./protocol.js").TableInfo} TableInfo */
/** @typedef {import("./protocol.js").Trick} Trick */
/** @typedef {import("./protocol.js").View} View */

/** @typedef {{kind: "token" | "spectate" | "invite" | "move", value: string}} Credential */
/** The advice shown, for the state of `version`. */
/** @typedef {import("./protocol.js").Advice} Advice */
/** @typedef {import("./protocol.js").DiscardAdvice} DiscardAdvice */
/** @typedef {import("./protocol.js").TutorMessage} TutorMessage */
/**
 * A hint shown, for the state of `version`: the best choice and, from the review, why, the next best and the
 * margin, and at the exchange the best discards.
 * @typedef {{version: number, text: string, action: Action | null, reason?: string | null, next?: Advice | null,
 *   margin?: number | null, discards?: DiscardAdvice[]}} Hint
 */
/** @typedef {import("./protocol.js").ArchivedDeal} ArchivedDeal */
/** What this browser keeps of a table. */
/** @typedef {{token?: string, invite?: string, spectate?: string, at?: number}} SavedTable */

/**
 * The socket to the server and how the page keeps it: `connected` once a state has come on the current socket,
 * `fresh` until the first state on a new socket, `fatal` once the page has given up (no such table, no seat).
 * @typedef {object} Connection
 * @property {WebSocket | null} ws
 * @property {boolean} connected
 * @property {number} attempts
 * @property {number | null} reconnectTimer
 * @property {boolean} fatal
 * @property {boolean} everConnected
 * @property {boolean} fresh
 */
/**
 * What the page has sent and waits to hear about: an action (or an undo) on its way, a hint asked for.
 * @typedef {{action: boolean, undo: boolean, hint: boolean}} Waiting
 */
/**
 * The cards the player has chosen: those selected for the exchange (`key`: the prompt they answer, state.js
 * selectionKey), whether he shows the rest of the talon, and the cards a declaration's button lights up.
 * @typedef {{cards: Set<Card>, key: string | null, showRest: boolean, highlight: Set<Card>}} Selection
 */
/**
 * The advice shown: the hint, the tutor's warning (until the player answers it or the table moves on), and the
 * version at which "Declare for me" asked for a hint to play at once.
 * @typedef {{hint: Hint | null, tutor: TutorMessage | null, autoHintVersion: number | null}} AdviceShown
 */
/**
 * The page's own move at a prompt with one choice (a forced card, a declaration made for the player): its timer,
 * the version it was scheduled for, and whether it is about to be made.
 * @typedef {{autoPlay: number | null, autoVersion: number | null, autoPlaying: boolean}} Timers
 */
/**
 * A phrase heard at the table (protocol.js SaidMessage), and where in the talk: the deal it was said in (0 before
 * the first deal) and how many lines of that deal's log came before it.
 * @typedef {{seat: Seat, phrase: Phrase, deal: number, at: number}} Heard
 */
/**
 * The page's state, grouped by concern (as chessground groups its own). Only the controller modules (messages.js,
 * control.js, transport.js) change it; the drawing modules read it, and send what the player does as intents
 * (intents.js).
 * @typedef {object} App
 * @property {string | null} id
 * @property {Credential | null} cred
 * @property {StateMessage | null} state what the server last said
 * @property {Connection} connection
 * @property {Waiting} waiting
 * @property {Selection} selection
 * @property {AdviceShown} advice
 * @property {Timers} timers
 * @property {ArchivedDeal[]} archive finished deals' talk, which the state no longer carries
 * @property {Heard[]} said the phrases heard at the table (a room's), which no state or record carries
 * @property {number | null} dealEnd the deal whose count is shown until the player goes on
 * @property {Record<string, string | boolean | undefined>} keys what each part of the table was last drawn from
 *   (the drawing modules' own memo: a part whose key is unchanged is not drawn again)
 */

// ------------------------------------------------------------------ app state

/** @type {App} */
export const app = {
  id: null,
  cred: null,
  state: null,
  connection: { ws: null, connected: false, attempts: 0, reconnectTimer: null, fatal: false, everConnected: false, fresh: false },
  waiting: { action: false, undo: false, hint: false },
  selection: { cards: new Set(), key: null, showRest: false, highlight: new Set() },
  advice: { hint: null, tutor: null, autoHintVersion: null },
  timers: { autoPlay: null, autoVersion: null, autoPlaying: false },
  archive: [],
  said: [],
  dealEnd: null,
  keys: {},
};

// ------------------------------------------------------------------ start

/** @type {Credential["kind"][]} */
export const SECRET_KINDS = ["token", "move", "invite", "spectate"];

/** @param {string} id @returns {SavedTable} */
export function savedTable(id) {
  try {
    return JSON.parse(store.get(`piquet.table.${id}`) || "{}") || {};
  } catch {
    return {};
  }
}

/** @param {string} id @param {SavedTable} saved */
export function saveTable(id, saved) {
  saved.at = Date.now();
  store.set(`piquet.table.${id}`, JSON.stringify(saved));
}

/**
 * The secret this page holds its place with. The server gives links with the secret after "#" (a browser
 * never sends that part to a server, so it is in no server's log); older links had it in the query. The
 * secret is kept in this browser and taken out of the address bar, so a copied address gives nothing away.
 * @returns {{id: string, cred: Credential | null} | null}
 */
export function readCredentials() {
  const params = new URLSearchParams(location.search);
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ""));
  const m = location.pathname.match(/\/t\/([^/?#]+)/);
  const id = m ? decodeURIComponent(m[1]) : params.get("id") || params.get("table");
  if (!id) return null;
  const saved = savedTable(id);
  /** @type {Credential | null} */
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

/**
 * The lobby lists the tables this browser holds a seat at (or watches), each with its status and score as this page
 * last saw them (written again whenever either changes; the entry moves to the top of the list).
 * @param {StateMessage} st
 */
export function rememberTable(st) {
  const table = st.table || /** @type {Partial<TableInfo>} */ ({});
  const v = st.view;
  /** @type {import("../lobby/recent.js").Recent[]} */
  let list = [];
  try {
    list = JSON.parse(store.get("piquet.recent") || "[]");
    if (!Array.isArray(list)) list = [];
  } catch {
    list = [];
  }
  const old = list.find((t) => t.id === app.id) || /** @type {import("../lobby/recent.js").Recent} */ ({ id: app.id || "" });
  const plays = Boolean(table.rules && table.rules.plays_games);
  /** @type {import("../lobby/recent.js").Recent} */
  const entry = { ...old, id: app.id || old.id, title: table.title || old.title, kind: table.kind || old.kind, level: table.level ?? old.level,
    watching: st.seat !== 0 && st.seat !== 1, status: table.status || old.status,
    players: (st.players || []).map((p) => p || ""),
    score: v ? (plays ? v.games_won : v.totals) : null, games: plays, deal: v ? v.deal_number : 0,
    winner: v && v.result ? v.result.winner : null };
  /** @param {import("../lobby/recent.js").Recent} e */
  const standing = (e) => JSON.stringify([e.status, e.score, e.deal, e.winner, e.players]);
  const same = standing(entry) === standing(old);
  if (same && list[0] && list[0].id === app.id) return;
  entry.at = Date.now();
  store.set("piquet.recent", JSON.stringify([entry, ...list.filter((t) => t.id !== app.id)].slice(0, 8)));
}

// ------------------------------------------------------------------ helpers on the state

/**
 * The players' names, or what to call an empty seat.
 * @param {StateMessage | null} [st]
 * @returns {string[]}
 */
export function names(st = app.state) {
  const players = (st && st.players) || [];
  return [0, 1].map((s) => {
    const n = players[s];
    if (n) return String(n);
    if (st && st.table && st.table.status === "waiting" && s === 1) return t("player.second");
    return s === 0 ? t("player.one") : t("player.two");
  });
}

/**
 * This page's seat (null for a spectator), the seat drawn at the bottom, the one at the top.
 * @param {StateMessage} st
 * @returns {{seat: 0 | 1 | null, me: 0 | 1, opp: 0 | 1}}
 */
export function seats(st) {
  const seat = st.seat === 0 || st.seat === 1 ? st.seat : null;
  const me = seat === null ? 0 : seat;
  return { seat, me, opp: me === 0 ? 1 : 0 };
}

/** @param {Partial<View>} v @returns {Set<Card>} */
export function playedCards(v) {
  /** @type {Set<Card>} */
  const out = new Set();
  for (const t of v.tricks || []) for (const c of t.cards || []) out.add(c);
  for (const c of v.trick || []) out.add(c);
  return out;
}

/** @param {Partial<View>} v @param {number} s @param {Set<Card>} played @returns {Card[]} */
export function shownCards(v, s, played) {
  const seen = new Set();
  /** @type {Card[]} */
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

/**
 * A player's entry in a pair (`[ann, bill]`), or the fallback.
 * @template [T=number]
 * @param {T[] | null | undefined} arr
 * @param {number} s
 * @param {T} [fallback]
 * @returns {T}
 */
export const pair = (arr, s, fallback = /** @type {T} */ (/** @type {unknown} */ (0))) => (Array.isArray(arr) && arr[s] !== undefined && arr[s] !== null ? arr[s] : fallback);

/**
 * Whether the partie is played in games (Piquet au Cent), as the server's rules say.
 * @param {StateMessage} st
 */
export function playsGames(st) {
  return rulesOf(st).plays_games;
}

/**
 * The facts of the table's rules, as the server sends them with the table (from the start: a room
 * waiting for its guest has them before it has a view).
 * @param {StateMessage} st
 * @returns {Rules}
 */
export function rulesOf(st) {
  return st.table.rules;
}

/** @param {StateMessage} st */
export function selectionKey(st) {
  const p = st.prompt;
  return p && p.kind === "exchange" ? `${st.version}:${JSON.stringify(p)}` : null;
}

/** The order of a hand: by suit (spades, hearts, diamonds, clubs), then rank high first. */
export const handOrder = (/** @type {Card} */ a, /** @type {Card} */ b) => {
  const key = (/** @type {Card} */ c) => "SHDC".indexOf(c[1]) * 8 + "AKQJT987".indexOf(c[0]);
  return key(a) - key(b);
};

/**
 * Whether this player's declarations are made for him in full ("Declare my best", the table's top bar): his
 * choice, kept in this browser; until he makes it, on against the computer and off in a room.
 */
export function declaresBest() {
  const kept = store.get("piquet.declareBest");
  if (kept !== null) return kept === "1";
  return !!app.state && !!app.state.table && app.state.table.kind === "computer";
}

/**
 * Whether an undo would take something back now: with "Declare my best", past the declarations the page made.
 * @param {StateMessage} st
 */
export function canUndo(st) {
  return declaresBest() ? !!st.can_undo_declare_best : !!st.can_undo;
}

// ------------------------------------------------------------------ what this tab keeps over a reload

/** @param {string} what @returns {unknown} what this tab keeps of this table under that name, or null */
function kept(what) {
  try {
    return JSON.parse(session.get(`piquet.${what}.${app.id}`) || "null");
  } catch {
    return null;
  }
}

/** The talk of the deals finished that this tab kept (a reload), or none. @returns {ArchivedDeal[]} */
export function keptTalk() {
  const saved = kept("talk");
  return Array.isArray(saved) ? /** @type {ArchivedDeal[]} */ (saved) : [];
}

/** Keep the talk of the deals finished for this tab, to show it again after a reload. */
export function keepTalk() {
  session.set(`piquet.talk.${app.id}`, JSON.stringify(app.archive));
}

/** The phrases this tab heard at the table (a reload), or none. @returns {Heard[]} */
export function keptSaid() {
  const saved = kept("said");
  return Array.isArray(saved) ? /** @type {Heard[]} */ (saved) : [];
}

/** Keep the phrases heard for this tab, to show them again after a reload (or a change of language). */
export function keepSaid() {
  session.set(`piquet.said.${app.id}`, JSON.stringify(app.said));
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
  if (!app.selection.key) return;
  session.set(`piquet.exchange.${app.id}`, JSON.stringify({ key: app.selection.key, cards: [...app.selection.cards] }));
}
