// @ts-check
// The record of the partie beside the table: the table talk (each deal's dialogue), the score
// sheet, the tricks a player has won.

import { cardSpan, isCard, prettyText } from "../cards.js";
import { capital, t } from "../i18n.js";
import { offline, root } from "../site/mode.js";
import { $, h } from "./dom.js";
import { scoreLink, whatIs } from "./glossary.js";
import { app, names, pair, playsGames, rulesOf, seats } from "./state.js";
import { numberWord, reckoning } from "./words.js";

/** @typedef {import("./protocol.js").LogEntry} LogEntry */
/** @typedef {import("./state.js").Heard} Heard */
/** @typedef {import("./protocol.js").SheetRow} SheetRow */
/** @typedef {import("./protocol.js").StateMessage} StateMessage */
/** @typedef {import("./protocol.js").TableInfo} TableInfo */
/** @typedef {import("./protocol.js").Trick} Trick */
/** @typedef {import("./protocol.js").View} View */

/**
 * A line of the table talk.
 * @param {LogEntry} e the line
 * @param {number} i its place in the deal's log
 * @param {LogEntry[]} log the deal's log
 * @param {Trick[]} tricks the deal's tricks
 * @param {string[]} n the players' names
 * @param {number | null} seat this page's seat
 */
export function logItem(e, i, log, tricks, n, seat) {
  if (e.kind === "say") {
    const li = h("li", { className: `say speaker-${e.speaker}${e.speaker === seat ? " mine" : ""}` });
    li.append(h("b", { className: "who", text: capital(n[e.speaker] ?? "?") }), ": ");
    li.append(h("span", { className: "speech" }, "\u201c", prettyText(e.text), "\u201d"));
    return li;
  }
  if (e.kind === "play") {
    let plays = 0;
    for (let k = 0; k <= i; k += 1) if (log[k].kind === "play") plays += 1;
    const lead = plays % 2 === 1;
    const li = h("li", { className: `play speaker-${e.speaker}${e.speaker === seat ? " mine" : ""}` });
    li.append(t(lead ? "log.leads" : "log.plays", { name: n[e.speaker] ?? "?" }), isCard(e.card) ? cardSpan(e.card) : String(e.card || e.text || ""), ".");
    if (!lead) {
      const trick = tricks[plays / 2 - 1];
      if (trick && (trick.winner === 0 || trick.winner === 1)) li.append(h("span", { className: "aside", text: t("log.wins_trick", { name: n[trick.winner] }) }));
    }
    return li;
  }
  if (e.kind === "score") {
    const li = h("li", { className: `score speaker-${e.player}${e.player === seat ? " mine" : ""}` });
    li.append(h("b", { className: "who", text: capital(n[e.player] ?? "?") }), ": ", h("span", { className: "speech", text: `\u201c${reckoning(e.points, e.total)}\u201d` }));
    const reason = [e.reason, e.points !== undefined ? `${e.points}` : null].filter((x) => x !== null && x !== undefined && x !== "").join(" · ");
    if (reason) li.append(" ", h("span", { className: "aside" }, prettyText(reason)));
    const help = scoreLink(e.reason, app.state?.table?.variant, e.category);
    if (help) li.append(" ", help);
    return li;
  }
  const li = h("li", { className: "note" });
  li.append(prettyText(e.text ?? ""));
  return li;
}

/**
 * A phrase a player said, as a line of the talk of its own, in this page's words.
 * @param {Heard} said @param {string[]} n the players' names @param {number | null} seat this page's seat
 */
export function saidItem(said, n, seat) {
  const li = h("li", { className: `said speaker-${said.seat}${said.seat === seat ? " mine" : ""}` });
  li.append(h("b", { className: "who", text: capital(n[said.seat] ?? "?") }), ": ");
  li.append(h("span", { className: "speech", text: `\u201c${t(`phrase.${said.phrase}`)}\u201d` }));
  return li;
}

/**
 * A deal's talk: its log, with the phrases said during it where they were said.
 * @param {LogEntry[]} log @param {Trick[]} tricks @param {string[]} n @param {number | null} seat
 * @param {Heard[]} [said] the phrases said in this deal
 */
export function renderDealLog(log, tricks, n, seat, said = []) {
  const ol = h("ol", { className: "log-lines" });
  const at = (/** @type {Heard} */ s) => Math.max(0, s.at); // -1: before the deal's first line
  log.forEach((e, i) => {
    for (const s of said.filter((x) => at(x) === i)) ol.append(saidItem(s, n, seat));
    ol.append(logItem(e, i, log, tricks, n, seat));
  });
  for (const s of said.filter((x) => at(x) >= log.length)) ol.append(saidItem(s, n, seat));
  return ol;
}

/**
 * The table talk: the finished deals folded, the deal in progress, kept scrolled to the end.
 * @param {StateMessage} st @param {Partial<View>} v
 */
export function renderLog(st, v) {
  const n = names(st);
  const { seat } = seats(st);
  const key = JSON.stringify([v.deal_number, v.log, v.tricks && v.tricks.length, app.archive.length, n, app.said.length]);
  if (app.keys.log === key) return;
  app.keys.log = key;
  const box = $("log");
  const nearBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 60;
  /** @type {HTMLElement[]} */
  const parts = [];
  for (const d of app.archive) {
    const det = h("details", { className: "old-deal" }, h("summary", { text: d.deal ? t("log.deal", { n: d.deal }) : t("log.the_cut") }));
    det.append(renderDealLog(d.log, d.tricks, n, seat, app.said.filter((s) => s.deal === d.deal)));
    parts.push(det);
  }
  if (v.deal_number) parts.push(h("h3", { className: "deal-heading", text: t("log.deal", { n: v.deal_number }) }));
  const log = v.log || [];
  const deal = v.deal_number || 0;
  // The phrases of this deal where they were said; any of a deal this page shows no talk of, first.
  const archived = new Set(app.archive.map((d) => d.deal));
  const said = app.said.filter((s) => s.deal === deal || !archived.has(s.deal)).map((s) => (s.deal === deal ? s : { ...s, at: -1 }));
  if (log.length || said.length) parts.push(renderDealLog(log, v.tricks || [], n, seat, said));
  else parts.push(h("p", { className: "muted", text: t("log.nothing") }));
  box.replaceChildren(...parts);
  if (nearBottom || !app.keys.logScrolled) {
    box.scrollTop = box.scrollHeight;
    app.keys.logScrolled = true;
  }
}

/**
 * The score sheet: a row per deal, the deal in progress, the partie's totals (or the games won).
 * @param {StateMessage} st @param {Partial<View>} v
 */
export function renderSheet(st, v) {
  const table = st.table || /** @type {Partial<TableInfo>} */ ({});
  const key = JSON.stringify([v.sheet, v.totals, v.deal_points, v.result, v.games, v.game_scores, names(st), v.phase, table.status]);
  if (app.keys.sheet === key) return;
  app.keys.sheet = key;
  $("sheet").replaceChildren(...sheetParts(st, v, true));
}

/**
 * The score sheet's table and lines, for the panel beside the table or the summary of a deal (which has neither the
 * deal in progress nor the review links, the summary offering its own).
 * @param {StateMessage} st @param {Partial<View>} v
 * @param {boolean} live with the deal in progress and each deal's review link
 * @returns {HTMLElement[]}
 */
export function sheetParts(st, v, live) {
  const n = names(st);
  const table = st.table || /** @type {Partial<TableInfo>} */ ({});
  const sheet = v.sheet || [];
  const auction = rulesOf(st).bidding;
  const head = h("tr", {}, h("th", { scope: "col", text: t("sheet.deal") }));
  if (auction) head.append(h("th", { scope: "col", text: t("sheet.contract") }));
  head.append(h("th", { scope: "col", className: "num", text: capital(n[0]) }), h("th", { scope: "col", className: "num", text: capital(n[1]) }), h("th", { scope: "col", text: t("sheet.notes") }));
  const body = h("tbody");
  const playing = table.status !== "over" && v.phase !== "over" && table.status !== "waiting";
  for (const row of sheet) {
    const tr = h("tr", { className: row.annulled ? "annulled" : "" }, h("th", { scope: "row", text: row.deal ?? "" }));
    if (auction) tr.append(h("td", { text: row.contract || "" }));
    if (row.annulled) {
      tr.append(h("td", { className: "num", text: "–" }), h("td", { className: "num", text: "–" }), h("td", { text: row.notes || t("sheet.annulled") }));
    } else {
      const review = live ? reviewLink(row.deal ?? 0, !playing) : null;
      tr.append(h("td", { className: "num", text: pair(row.points, 0) }), h("td", { className: "num", text: pair(row.points, 1) }),
        h("td", {}, row.notes || "", review ? h("a", { href: review, className: "sheet-review", "aria-label": t("sheet.review_deal", { n: row.deal ?? "" }), text: t("sheet.review") }) : ""));
    }
    body.append(tr);
  }
  if (live && playing && v.deal_number && !sheet.some((r) => r.deal === v.deal_number)) {
    const tr = h("tr", { className: "current" }, h("th", { scope: "row", text: `${v.deal_number}…` }));
    if (auction) tr.append(h("td", { text: v.contract ? v.contract.text || v.contract.bid : "" }));
    tr.append(h("td", { className: "num", text: pair(v.deal_points, 0) }), h("td", { className: "num", text: pair(v.deal_points, 1) }), h("td", { className: "muted", text: t("sheet.in_progress") }));
    body.append(tr);
  }
  const foot = h("tfoot");
  if (!playsGames(st)) {
    const tr = h("tr", {}, h("th", { scope: "row", text: t("sheet.partie") }));
    if (auction) tr.append(h("td"));
    tr.append(h("td", { className: "num", text: pair(v.totals, 0) }), h("td", { className: "num", text: pair(v.totals, 1) }), h("td"));
    foot.append(tr);
  }
  const tableEl = h("table", { className: "sheet-table" }, h("caption", { className: "visually-hidden", text: t("sheet.caption") }), h("thead", {}, head), body, foot);
  /** @type {HTMLElement[]} */
  const parts = [tableEl];
  if (!sheet.length && !(live && playing && v.deal_number)) parts.splice(0, 1, h("p", { className: "muted", text: t("sheet.none") }));
  const rules = rulesOf(st);
  if (rules.plays_games) {
    const won = [pair(v.games_won, 0), pair(v.games_won, 1)];
    const games = v.games || [];
    const list = h("ol", { className: "games" });
    games.forEach((g) => list.append(h("li", { text: t(g.double ? "sheet.double_game_won" : "sheet.game_won", { name: n[g.winner], a: pair(g.scores, 0), b: pair(g.scores, 1) }) })));
    parts.push(h("p", { className: "games-line", text: t("sheet.games_won", { a: n[0], x: won[0], b: n[1], y: won[1], n: numberWord(rules.games_to_win) }) }));
    if (games.length) parts.push(list);
    if (playing) parts.push(h("p", { className: "muted", text: t("sheet.game_in_progress", { a: n[0], x: pair(v.game_scores, 0), b: n[1], y: pair(v.game_scores, 1), target: rules.game_target ?? "" }) }));
  }
  if (v.result && v.result.text) parts.push(h("p", { className: "sheet-result" }, v.result.text, v.result.rubiconed ? [" ", whatIs("rubicon", table.variant)] : null));
  return parts;
}

/**
 * The review page of a finished deal (docs/review.md, "In the browser"), or null where this page may not review it: a
 * spectator reviews once the partie is over, a seat each deal that has ended.
 * @param {number} deal @param {boolean} over
 * @returns {string | null}
 */
export function reviewLink(deal, over) {
  if (!app.id || !app.cred || (app.cred.kind !== "token" && !(app.cred.kind === "spectate" && over))) return null;
  const deals = (app.state && app.state.view && app.state.view.sheet && app.state.view.sheet.length) || deal;
  if (offline) {
    // The offline site's review page asks the page's worker (docs/offline.md): the table is named in its address.
    return new URL(`review.html?deal=${deal}&deals=${deals}&id=${encodeURIComponent(app.id)}`, root).href;
  }
  return `/t/${encodeURIComponent(app.id)}/review?deal=${deal}&deals=${deals}`;
}

/**
 * The dialog of the tricks a player has won in this deal.
 * @param {number} s the player's seat
 */
export function openTricks(s) {
  const st = app.state;
  if (!st) return;
  const v = st.view || /** @type {Partial<View>} */ ({});
  const n = names(st);
  const dialog = /** @type {HTMLDialogElement} */ ($("tricks-dialog"));
  const list = $("tricks-list");
  const tricks = v.tricks || [];
  const won = tricks.filter((trick) => trick.winner === s).length;
  $("tricks-title").textContent = t("tricks.title", { name: n[s], won, all: tricks.length });
  list.replaceChildren();
  if (!tricks.length) list.append(h("li", { className: "muted", text: t("tricks.none") }));
  tricks.forEach((trick, k) => {
    const mine = trick.winner === s;
    const li = h("li", { className: "trick-line" + (mine ? " won" : " lost") },
      h("span", { className: "trick-no", text: t("tricks.n", { n: k + 1 }) }));
    (trick.cards || []).forEach((c, i) => {
      const by = (trick.leader + i) % 2;
      li.append(h("span", { className: "trick-card" }, cardSpan(c), h("small", { text: t(i === 0 ? "tricks.led_by" : "tricks.by", { name: n[by] }) })));
    });
    li.append(h("span", { className: "trick-winner", text: t("tricks.wins", { name: n[trick.winner] ?? "?" }) }));
    list.append(li);
  });
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
}
