// @ts-check
// History: the finished parties this browser's seats played (POST /api/history; see docs/protocol.md, "History").
// The page sends the seat secrets this browser holds (the table page keeps one for each table it sat at); the
// server answers with the finished parties where a secret holds a seat, and nothing for any other.

import { lang, plural, t } from "../i18n.js";
import { offline } from "../site/mode.js";
import { historyOf, recordFile } from "../site/worker-socket.js";
import { store } from "../storage.js";
import { $, h } from "../table/dom.js";

/**
 * One finished partie as the server sends it (piquet/ui/web/history.py, Party).
 * @typedef {{winner: number | null, points: number, rubiconed: boolean | null, games: number[] | null,
 *   totals: number[], deals: number}} PartyResult
 * @typedef {{id: string, variant: string, title: string, kind: string, level: number | null, seat: number,
 *   players: string[], opponent: string, created: number, finished: number, result: PartyResult,
 *   won: boolean | null, links: {record: string, replay: string, review: string, table: string}}} Party
 * @typedef {{variant: string, opponent: string, label: string, parties: number, won: number, lost: number,
 *   drawn: number, points_a_partie: number, points_a_deal: number}} Group
 * @typedef {{exchange: number | null, declarations: number | null, play: number | null}} PerDecision
 * @typedef {{id: string, finished: number, deals: number, per_decision: PerDecision, lost_a_deal: number}} PhasePoint
 * @typedef {{variant: string, title: string, parties: PhasePoint[], per_decision: PerDecision, lost_a_deal: number,
 *   played_like: number, played_like_words: string, svg: string}} PhaseRow
 * @typedef {{reviewed: number, waiting: number, failed: number, variants: PhaseRow[]}} Phases
 */

/** Seconds between two requests while parties are still being reviewed. */
const ASK_AGAIN = 5;
/** The phases of a deal, as the server names them (piquet/coach/phases.py, PHASES). */
const PHASES = /** @type {const} */ (["exchange", "declarations", "play"]);

/** The most seats one request names (the server's limit: MAX_PLAYED in piquet/ui/web/store.py). */
const MOST = 2000;

/**
 * The seats this browser holds: each table's id with its seat's secret (a table only watched holds none), the
 * tables last opened first, as many as the server takes at once.
 */
export function heldSeats() {
  /** @type {{table: string, token: string, at: number}[]} */
  const seats = [];
  for (const key of store.keys("piquet.table.")) {
    try {
      const saved = JSON.parse(store.get(key) || "{}");
      if (saved && typeof saved.token === "string" && saved.token) {
        seats.push({ table: key.slice("piquet.table.".length), token: saved.token, at: Number(saved.at) || 0 });
      }
    } catch {
      /* an entry this page cannot read holds no seat */
    }
  }
  seats.sort((a, b) => b.at - a.at);
  return seats.slice(0, MOST).map(({ table, token }) => ({ table, token }));
}

/** @param {Party} p */
function opponent(p) {
  return p.kind === "computer" && p.level ? t("history.computer_level", { n: p.level }) : p.opponent;
}

/** @param {Party} p */
function outcome(p) {
  const r = p.result;
  if (p.won === null) return t("history.drawn");
  return p.won ? plural(r.points, "history.won_one", "history.won_many") : plural(r.points, "history.lost_one", "history.lost_many");
}

/** @param {Party} p */
function score(p) {
  const r = p.result;
  const mine = p.seat;
  if (r.games) return t("history.games", { x: r.games[mine], y: r.games[1 - mine] });
  return t("history.totals", { x: r.totals[mine], y: r.totals[1 - mine] });
}

/** @param {Party} p */
function rubicon(p) {
  const r = p.result;
  if (r.rubiconed === null) return t("history.no_rubicon");
  if (!r.rubiconed) return t("history.not_rubiconed");
  return p.won ? t("history.rubiconed_opponent") : t("history.rubiconed_you");
}

/** @param {Party} p */
function row(p) {
  const when = new Date(p.finished * 1000).toLocaleString(lang, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
  return h("tr", { "data-testid": "history-row", "data-table": p.id, className: p.won === null ? "drawn" : p.won ? "won" : "lost" },
    h("td", { "data-testid": "history-date", text: when }),
    h("td", { text: p.title }),
    h("td", { text: opponent(p) }),
    h("td", { "data-testid": "history-result", text: outcome(p) }),
    h("td", { "data-testid": "history-score", text: score(p) }),
    h("td", { "data-testid": "history-rubicon", text: rubicon(p) }),
    h("td", { className: "history-links" },
      p.links.record
        ? h("a", { href: p.links.record, download: `piquet-${p.id}.json`, "data-testid": "history-record", text: t("history.record") })
        : recordButton(p),
      h("a", { href: p.links.replay, "data-testid": "history-replay", text: t("history.replay") }),
      h("a", { href: p.links.review, "data-testid": "history-review", text: t("history.review") }),
      h("a", { href: p.links.table, "data-testid": "history-table", text: t("history.table") })));
}

/**
 * In the offline site a record has no address: the worker writes it from the table kept in this browser, and the
 * page hands it over as a file.
 * @param {Party} p
 */
function recordButton(p) {
  const button = h("button", { type: "button", className: "link-button", "data-testid": "history-record", text: t("history.record") });
  button.addEventListener("click", async () => {
    const seat = heldSeats().find((s) => s.table === p.id);
    const text = seat ? await recordFile({ table: seat.table, token: seat.token }) : null;
    if (typeof text !== "string") {
      fail(t("history.unreachable"));
      return;
    }
    const a = h("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })), download: `piquet-${p.id}.json` });
    document.body.append(a);
    a.click();
    a.remove();
  });
  return button;
}

/**
 * The server's picture of the progress by variant and opponent, with its words for those who do not see it.
 * @param {{groups: Group[], svg: string}} progress
 */
function showProgress(progress) {
  const figure = $("progress-figure");
  const picture = progress.svg ? new DOMParser().parseFromString(progress.svg, "image/svg+xml").documentElement : null;
  figure.replaceChildren(...(picture ? [document.importNode(picture, true)] : []));
  figure.setAttribute("aria-label", progress.groups.map((g) => t("history.progress_row", {
    label: g.label, won: g.won, lost: g.lost, drawn: g.drawn, partie: g.points_a_partie, deal: g.points_a_deal,
  })).join("; "));
  $("progress").hidden = progress.groups.length === 0;
}

/** @param {number} x */
function figure(x) {
  return x.toLocaleString(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/**
 * One variant's plot of the points lost a decision by phase (the server's picture), the level the play resembles,
 * and the figures of each partie in a table for those who do not see the picture.
 * @param {PhaseRow} row
 */
function phasePlot(row) {
  const picture = new DOMParser().parseFromString(row.svg, "image/svg+xml").documentElement;
  const dated = (/** @type {PhasePoint} */ p) => new Date(p.finished * 1000).toLocaleDateString(lang, { year: "numeric", month: "short", day: "numeric" });
  const cell = (/** @type {number | null} */ v) => h("td", { text: v === null ? t("history.phases_none") : figure(v) });
  const table = h("table", { className: "history phases-figures", "data-testid": "phases-figures" },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", text: t("history.phases_partie") }),
      ...PHASES.map((phase) => h("th", { scope: "col", text: t(`history.phases_${phase}`) })),
      h("th", { scope: "col", text: t("history.phases_deal") }))),
    h("tbody", {}, ...row.parties.map((p, i) => h("tr", {},
      h("th", { scope: "row", text: `${i + 1} · ${dated(p)}` }),
      ...PHASES.map((phase) => cell(p.per_decision[phase])),
      h("td", { text: figure(p.lost_a_deal) })))));
  return h("figure", { className: "phases-figure", "data-testid": "phases-figure", "data-variant": row.variant },
    h("figcaption", { "data-testid": "phases-like", text: t("history.phases_like", {
      variant: row.title, n: row.parties.length, lost: figure(row.lost_a_deal), like: row.played_like_words,
    }) }),
    document.importNode(picture, true),
    h("details", {}, h("summary", { text: t("history.phases_figures") }), h("div", { className: "history-scroll" }, table)));
}

/**
 * The progress by phase: a plot a variant, and how many parties are still being reviewed (the page asks again
 * until none is). The offline site reviews nothing in the background: there, the section stays hidden.
 * @param {Phases | undefined} phases
 * @param {number} parties
 */
function showPhases(phases, parties) {
  $("phases").hidden = !phases || parties === 0;
  if (!phases) return;
  $("phases-plots").replaceChildren(...phases.variants.map(phasePlot));
  const said = [];
  if (phases.waiting) said.push(plural(phases.waiting, "history.phases_waiting_one", "history.phases_waiting_many"));
  if (phases.failed) said.push(plural(phases.failed, "history.phases_failed_one", "history.phases_failed_many"));
  $("phases-status").textContent = said.join(" ");
  document.body.dataset.phasesWaiting = String(phases.waiting);
}

/**
 * While parties are being reviewed, ask the server again and draw what is ready.
 * @param {{table: string, token: string}[]} seats
 */
async function askAgain(seats) {
  const answer = await fetch("/api/history", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ seats, lang }),
  }).catch(() => null);
  if (!answer || !answer.ok) return;  // the next visit draws them
  const data = await answer.json();
  showPhases(data.phases, data.parties.length);
  if (data.phases && data.phases.waiting) setTimeout(() => askAgain(seats), ASK_AGAIN * 1000);
}

/** @param {string} text */
function fail(text) {
  const box = $("history-error");
  box.textContent = text;
  box.hidden = false;
}

async function start() {
  const seats = heldSeats();
  /** @type {Party[]} */
  let parties = [];
  /** @type {{groups: Group[], svg: string}} */
  let progress = { groups: [], svg: "" };
  /** @type {Phases | undefined} */
  let phases;
  if (seats.length && offline) {
    // The offline site: the worker reads the tables this browser keeps, as the server reads its store.
    const data = await historyOf({ seats: seats.map(({ table, token }) => ({ table, token })), lang });
    if (data.detail) fail(t("history.refused", { why: data.detail }));
    else {
      parties = data.parties;
      progress = data.progress;
    }
  } else if (seats.length) {
    const answer = await fetch("/api/history", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ seats, lang }),
    }).catch(() => null);
    if (!answer || !answer.ok) {
      const detail = answer ? (await answer.json().catch(() => ({}))).detail : null;
      fail(detail ? t("history.refused", { why: detail }) : t("history.unreachable"));
    } else {
      const data = await answer.json();
      parties = data.parties;
      progress = data.progress;
      phases = data.phases;
    }
  }
  $("history-rows").replaceChildren(...parties.map(row));
  $("history").hidden = parties.length === 0;
  $("history-empty").hidden = parties.length > 0 || !$("history-error").hidden;
  showProgress(progress);
  showPhases(phases, parties.length);
  document.body.dataset.count = String(parties.length);
  document.body.dataset.ready = "1";
  if (phases && phases.waiting) setTimeout(() => askAgain(seats), ASK_AGAIN * 1000);
}

start();
