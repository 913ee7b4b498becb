// @ts-check

import { store } from "../storage.js";

// ------------------------------------------------------------------ app state

export const app = {
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

export const SECRET_KINDS = ["token", "move", "invite", "spectate"];

export function savedTable(id) {
  try {
    return JSON.parse(store.get(`piquet.table.${id}`) || "{}") || {};
  } catch {
    return {};
  }
}

export function saveTable(id, saved) {
  saved.at = Date.now();
  store.set(`piquet.table.${id}`, JSON.stringify(saved));
}

/**
 * The secret this page holds its place with. The server gives links with the secret after "#" (a browser
 * never sends that part to a server, so it is in no server's log); older links had it in the query. The
 * secret is kept in this browser and taken out of the address bar, so a copied address gives nothing away.
 */
export function readCredentials() {
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

/** The lobby lists the tables this browser holds a seat at (or watches). */
export function rememberTable(st) {
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

// ------------------------------------------------------------------ helpers on the state

export function names(st = app.state) {
  const players = (st && st.players) || [];
  return [0, 1].map((s) => {
    const n = players[s];
    if (n) return String(n);
    if (st && st.table && st.table.status === "waiting" && s === 1) return "Second player";
    return s === 0 ? "Player 1" : "Player 2";
  });
}

export function seats(st = app.state) {
  const seat = st.seat === 0 || st.seat === 1 ? st.seat : null;
  const me = seat === null ? 0 : seat;
  return { seat, me, opp: 1 - me };
}

export function playedCards(v) {
  const out = new Set();
  for (const t of v.tricks || []) for (const c of t.cards || []) out.add(c);
  for (const c of v.trick || []) out.add(c);
  return out;
}

export function shownCards(v, s, played) {
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

export const pair = (arr, s, fallback = 0) => (Array.isArray(arr) && arr[s] !== undefined && arr[s] !== null ? arr[s] : fallback);

export function gamesWon(v) {
  const won = [0, 0];
  for (const g of v.games || []) if (g.winner === 0 || g.winner === 1) won[g.winner] += g.double ? 2 : 1;
  return won;
}

export function isAuCent(st) {
  return (st.table && st.table.variant === "au-cent") || (st.view && Array.isArray(st.view.games) && st.view.games.length > 0);
}

export function selectionKey(st) {
  const p = st.prompt;
  return p && p.kind === "exchange" ? `${st.version}:${JSON.stringify(p)}` : null;
}

export const handOrder = (a, b) => {
  const key = (c) => "SHDC".indexOf(c[1]) * 8 + "AKQJT987".indexOf(c[0]);
  return key(a) - key(b);
};
