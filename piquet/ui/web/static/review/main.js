// @ts-check
// The review page: a finished deal, decision by decision (docs/review.md, "In the browser"). It asks the
// server for the review (POST /api/tables/{id}/reviews), shows its progress while a worker makes it, then
// the hands at each decision, the choice, the best, the loss, the explanation, the breakdown by part, the
// open-hands value of each card a player could play, a graph of the expected score through the deal, and the
// deal's luck once the partie is over (./luck.js). With no table, the page opens a record file instead (./records.js):
// the server reads and reviews it (POST /api/records/reviews), or on the offline site the worker does, in the browser.

import { cardElement, ensureSprite, prettyText } from "../cards.js";
import "../display.js"; // the cards and colours this browser chose (applied at once)
import { lang, plural, sentence, t } from "../i18n.js";
import { offline, tableHref } from "../site/mode.js";
import { reviewRecord, reviewTable } from "../site/worker-socket.js";
import { $, h } from "../table/dom.js";
import { readCredentials } from "../table/state.js";
import { signed, size } from "./format.js";
import { renderLuck } from "./luck.js";
import { acceptDrops, keepShown, openOnReviewPage, readFile, refusalText, shownRecord, takePending } from "./records.js";

/** @typedef {Record<string, number>} Parts */
/**
 * One decision of the deal as the server sends it (piquet/ui/web/reviews.py, review_data).
 * @typedef {object} Decision
 * @property {number} deal
 * @property {number} action
 * @property {0 | 1} seat
 * @property {string} text
 * @property {string[][]} hands
 * @property {string[]} trick
 * @property {number} leader
 * @property {number[]} points
 * @property {Record<string, number>} [open]
 * @property {number} [expected]
 * @property {number} [hidden]
 * @property {string} [decision] "concession": the player's playing on where he might have conceded, no action of the record, just before the action (elder's first card)
 */
/**
 * A decision's review, whatever its kind (the JSON of `piquet analyse --json`).
 * @typedef {object} Graded
 * @property {number} deal
 * @property {number} action
 * @property {string} player
 * @property {string} [kind] a concession's: "concession" (conceding, or playing on where the player might have) or "answer to a concession"
 * @property {boolean} forced
 * @property {string} [card]
 * @property {string | string[] | string[][]} [best]
 * @property {string | string[]} [discard]
 * @property {string} [call]
 * @property {string[][]} [declared]
 * @property {number} loss
 * @property {string} mark
 * @property {string} [text]
 * @property {string} [explanation]
 * @property {Record<string, number> | {discard?: string[], call?: string, declare?: string[][], option?: string, value: number, parts?: Parts}[]} [values]
 * @property {string} [choice] a concession's ("concede", "play on", "accept", "decline") or a carte blanche's choice, in words
 * @property {Record<string, Parts>} [parts]
 * @property {number[]} [utility] the player's worth of a point of his and of one of the opponent's: [1, -1] in points of the deal
 */
/**
 * @typedef {object} ReviewJson
 * @property {string[]} players
 * @property {string} lens
 * @property {Graded[]} plays
 * @property {Graded[]} declarations
 * @property {Graded[]} exchanges
 * @property {Graded[]} calls
 * @property {Graded[]} [concessions]
 * @property {Graded[]} [carte_blanche]
 * @property {import("./luck.js").DealLuck[]} [luck] each deal's luck (empty while the partie goes on)
 * @property {import("./luck.js").Summary} [summary] each player's summary, with his ``luck`` where the luck was sent
 */
/** @typedef {{review: ReviewJson, decisions: Decision[], scores: Record<string, number[]>}} ReviewResult */
/**
 * @typedef {object} Progress
 * @property {string} id
 * @property {"queued" | "running" | "done" | "failed"} status
 * @property {number} done
 * @property {number} total
 * @property {string} [error]
 * @property {0 | 1 | null} [seat]
 * @property {ReviewResult} [result]
 * @property {string[]} [players] a record's players (its review's first answer)
 * @property {number} [deals] a record's deals ended (its review's first answer)
 */

/** The parts of a value, by the review's names of them (piquet/coach/review/grading.py, ``Part``). */
const PARTS = ["lead", "tricks", "last_trick", "cards", "capot", "pique", "contract", "carte_blanche", "point",
  "sequences", "sets", "repique", "play", "carte_rouge"];

/** A part of a value as the breakdown names it. @param {string} part */
function partName(part) {
  return PARTS.includes(part) ? t(`review.part.${part}`) : part;
}

/** The options the review names by identifiers (a call, a concession's choices), in the page's words. */
const OPTIONS = ["pass", "double", "redouble", "concede", "play on", "accept", "decline"];

const page = {
  id: "",
  token: "",
  /** @type {0 | 1} */
  me: 0,
  /** @type {ReviewResult | null} */
  result: null,
  /** @type {Map<string, Graded>} */
  graded: new Map(),
  at: 0,
  /** @type {number | null} */
  timer: null,
  /** Where a review's progress is asked (a table's, or a record's). @type {(review: string) => string} */
  poll: (review) => review,
  /** The record file shown, on the page of a record (none: a table's review). @type {import("./records.js").RecordFile | null} */
  record: null,
  /** Each record tried, counted: a review's answers for one tried before the last are dropped. */
  tries: 0,
};

/** @param {string} text */
function fail(text) {
  $("error-text").textContent = text;
  $("error").hidden = false;
  document.body.dataset.status = "failed";
  document.body.dataset.ready = "1";
}

/** @param {string | string[] | string[][] | undefined} what */
function cardsText(what) {
  if (what === undefined) return "";
  if (typeof what === "string") return OPTIONS.includes(what) ? t(`review.option.${what.replace(" ", "_")}`) : what;
  return what.map((x) => (Array.isArray(x) ? x.join(" ") : x)).join(", ") || t("review.nothing");
}

export function start() {
  ensureSprite();
  const params = new URLSearchParams(location.search);
  const deal = Number(params.get("deal") || "1");
  const lens = params.get("lens") === "open-hands" ? "open-hands" : "fair";
  $("prev").addEventListener("click", () => show(page.at - 1));
  $("next").addEventListener("click", () => show(page.at + 1));
  document.addEventListener("keydown", onKey);
  // The offline site reviews a table of its own named in the address (?id=), and a record file otherwise.
  const found = offline && !params.get("id") ? null : readCredentials();
  if (!found) {
    startRecord(deal, lens);
    return;
  }
  const picker = /** @type {HTMLInputElement} */ ($("record-file"));
  picker.addEventListener("change", () => picker.files && picker.files[0] && pickedElsewhere(picker.files[0]));
  acceptDrops(pickedElsewhere);
  if (!found.cred || (found.cred.kind !== "token" && found.cred.kind !== "spectate")) {
    fail(t("review.no_seat"));
    return;
  }
  page.id = found.id;
  page.token = found.cred.value;
  /** @type {HTMLAnchorElement} */ ($("table-link")).href = tableHref(page.id);
  const here = offline ? `&id=${encodeURIComponent(page.id)}` : ""; // the offline site's page names its table
  const select = /** @type {HTMLSelectElement} */ ($("lens"));
  select.value = lens;
  const deals = /** @type {HTMLSelectElement} */ ($("deal"));
  const most = Math.max(deal, Number(params.get("deals") || "0")); // the deals ended, as the table's link says
  for (let n = 1; n <= most; n++) deals.append(h("option", { value: String(n), text: t("review.deal_n", { n }) }));
  deals.value = String(deal);
  history.replaceState(null, "", `${location.pathname}?deal=${deal}&lens=${lens}&deals=${most}${here}`);
  $("ask").addEventListener("submit", (e) => {
    e.preventDefault();
    location.search = `?deal=${deals.value}&lens=${select.value}&deals=${most}${here}`;
  });
  page.poll = (review) => `/api/tables/${encodeURIComponent(page.id)}/reviews/${encodeURIComponent(review)}?token=${encodeURIComponent(page.token)}`;
  document.body.dataset.ready = "1"; // the page listens; the review follows (data-status says how far it is)
  ask(deal, lens);
}

/** A record file chosen on a table's review: opened on the page of a record. @param {File} file */
async function pickedElsewhere(file) {
  try {
    openOnReviewPage(await readFile(file));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

/**
 * The page of a record file: the record chosen elsewhere (the lobby) tried first, else the one this tab shows, else
 * the page waits for one (a file picker, or a file dropped on the page).
 * @param {number} deal @param {string} lens
 */
function startRecord(deal, lens) {
  $("table-link").hidden = true;
  $("ask").hidden = true; // until a record is shown: its deals are known once read
  $("title").textContent = t("record.heading");
  const deals = /** @type {HTMLSelectElement} */ ($("deal"));
  const select = /** @type {HTMLSelectElement} */ ($("lens"));
  select.value = lens;
  $("ask").addEventListener("submit", (e) => {
    e.preventDefault();
    if (page.record) tryRecord(page.record, Number(deals.value) || 1, select.value);
  });
  const picker = /** @type {HTMLInputElement} */ ($("record-file"));
  picker.addEventListener("change", () => picker.files && picker.files[0] && openFile(picker.files[0]));
  acceptDrops(openFile);
  page.poll = (review) => `/api/records/reviews/${encodeURIComponent(review)}`;
  document.body.dataset.ready = "1";
  const pending = takePending();
  const shown = shownRecord();
  if (pending) tryRecord(pending, 1, lens);
  else if (shown) tryRecord(shown, deal, lens);
  else document.body.dataset.status = "empty";
}

/** A record file chosen or dropped on this page. @param {File} file */
async function openFile(file) {
  try {
    const chosen = await readFile(file);
    await tryRecord(chosen, 1, /** @type {HTMLSelectElement} */ ($("lens")).value);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

/**
 * Have a record's deal reviewed: shown once read (it becomes the page's record), or refused with where and why,
 * the page showing what it showed before.
 * @param {import("./records.js").RecordFile} file @param {number} deal @param {string} lens
 */
async function tryRecord(file, deal, lens) {
  page.tries += 1;
  const attempt = page.tries;
  if (page.timer !== null) window.clearTimeout(page.timer);
  document.body.dataset.status = "reading";
  $("progress-box").hidden = false;
  $("progress-text").textContent = t(offline ? "record.starting" : "record.reading");
  const body = { record: file.text, deal, lens, lang };
  /** @param {Progress} progress */
  const moving = (progress) => attempt === page.tries && showProgress(progress);
  const { ok, data } = offline ? await reviewRecord(body, moving) : await postRecord(body);
  if (attempt !== page.tries) return;
  if (!ok) {
    $("progress-box").hidden = true;
    fail(data.where || data.detail ? refusalText(data, file.name) : t("review.unreachable"));
    return;
  }
  $("error").hidden = true;
  $("ask").hidden = false;
  page.record = file;
  keepShown(file);
  const deals = /** @type {HTMLSelectElement} */ ($("deal"));
  const most = Math.max(1, Number(data.deals) || 1);
  deals.replaceChildren();
  for (let n = 1; n <= most; n++) deals.append(h("option", { value: String(n), text: t("review.deal_n", { n }) }));
  deals.value = String(deal);
  history.replaceState(null, "", `${location.pathname}?deal=${deal}&lens=${lens}`);
  $("title").textContent = t("record.title", { name: file.name, n: deal });
  document.title = t("record.doc_title", { name: file.name, n: deal });
  follow(/** @type {Progress} */ (data), attempt);
}

/**
 * A record sent to the server for its review: its first answer, or why it was refused.
 * @param {Record<string, unknown>} body
 * @returns {Promise<{ok: boolean, data: any}>}
 */
async function postRecord(body) {
  const answer = await fetch("/api/records/reviews", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  }).catch(() => null);
  if (!answer) return { ok: false, data: {} };
  const data = await answer.json().catch(() => ({ detail: t("review.refused", { status: answer.status }) }));
  return { ok: answer.ok, data };
}

/** @param {KeyboardEvent} e */
function onKey(e) {
  if (!page.result || e.altKey || e.ctrlKey || e.metaKey) return;
  const target = e.target instanceof HTMLElement ? e.target : null;
  if (target && ["SELECT", "INPUT", "TEXTAREA"].includes(target.tagName)) return;
  const moves = /** @type {Record<string, number>} */ ({ ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity });
  if (!(e.key in moves)) return;
  e.preventDefault();
  const step = moves[e.key];
  show(Number.isFinite(step) ? page.at + step : step < 0 ? 0 : Infinity);
}

/** @param {number} deal @param {string} lens */
async function ask(deal, lens) {
  $("title").textContent = t("review.title", { n: deal });
  document.title = t("review.doc_title", { n: deal });
  if (offline) {
    // The offline site's table is in this browser: its worker reviews the deal, telling how far it has gone.
    $("progress-box").hidden = false;
    $("progress-text").textContent = t("record.starting");
    const body = { table: page.id, token: page.token, deal, lens, lang };
    const { ok, data } = await reviewTable(body, (/** @type {Progress} */ progress) => showProgress(progress));
    if (!ok) return fail(sentence(data.detail || ""));
    return follow(/** @type {Progress} */ (data), page.tries);
  }
  const answer = await fetch(`/api/tables/${encodeURIComponent(page.id)}/reviews?token=${encodeURIComponent(page.token)}`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ deal, lens, lang }),
  }).catch(() => null);
  if (!answer) return fail(t("review.unreachable"));
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) return fail(data.detail ? sentence(data.detail) : t("review.refused", { status: answer.status }));
  follow(/** @type {Progress} */ (data), page.tries);
}

/** @param {Progress} data @param {number} attempt the record tried it is of (a table's: the page's only one) */
async function follow(data, attempt) {
  if (attempt !== page.tries) return;
  if (data.status === "failed") return fail(data.error ? sentence(data.error) : t("review.failed"));
  if (data.status === "done" && data.result) {
    $("progress-box").hidden = true;
    if (data.seat === 0 || data.seat === 1) page.me = data.seat;
    shown(data.result);
    document.body.dataset.status = "done";
    return;
  }
  showProgress(data);
  page.timer = window.setTimeout(async () => {
    const answer = await fetch(page.poll(data.id)).catch(() => null);
    if (!answer) return follow(data, attempt); // the connection failed for a moment: ask again
    const next = await answer.json().catch(() => ({}));
    if (!answer.ok) return fail(next.detail ? sentence(next.detail) : t("review.lost", { status: answer.status }));
    follow(/** @type {Progress} */ (next), attempt);
  }, 400);
}

/** How far a review has gone. @param {Progress} data */
function showProgress(data) {
  document.body.dataset.status = data.status === "done" ? "running" : data.status; // "done" once shown
  $("progress-box").hidden = false;
  const bar = /** @type {HTMLProgressElement} */ ($("progress"));
  bar.max = Math.max(1, data.total);
  bar.value = data.done;
  $("progress-text").textContent = data.status === "queued"
    ? t("review.waiting")
    : t("review.reviewing", { done: data.done, total: data.total });
}

/**
 * Where a decision is in the deal: its action, and for a decision taken before the action that is no action of the
 * record (playing on where the player might have conceded, beside elder's first card), that decision, as the
 * annotated record places it (docs/record-format.md, "Annotations").
 * @param {number} deal @param {number} action @param {string | undefined} decision
 */
function placeOf(deal, action, decision) {
  return decision ? `${deal}:${action}:${decision}` : `${deal}:${action}`;
}

/** @param {ReviewResult} result */
function shown(result) {
  page.result = result;
  page.graded.clear();
  const r = result.review;
  for (const list of [r.plays, r.declarations, r.exchanges, r.calls, r.concessions || [], r.carte_blanche || []]) {
    for (const g of list) {
      const playedOn = g.kind === "concession" && g.choice === "play on";
      page.graded.set(placeOf(g.deal, g.action, playedOn ? "concession" : undefined), g);
    }
  }
  $("review").hidden = false;
  renderLuck($("luck"), r);
  if (!result.decisions.length) {
    $("counter").textContent = t("review.none_of_yours");
    return;
  }
  drawGraph();
  show(0);
}

/** @param {number} at */
function show(at) {
  const result = page.result;
  if (!result || !result.decisions.length) return;
  page.at = Math.max(0, Math.min(result.decisions.length - 1, at));
  const d = result.decisions[page.at];
  const names = result.review.players;
  const graded = page.graded.get(placeOf(d.deal, d.action, d.decision)) || null;
  document.body.dataset.decision = String(page.at);
  $("counter").textContent = t("review.counter", { at: page.at + 1, n: result.decisions.length });
  /** @type {HTMLButtonElement} */ ($("prev")).disabled = page.at === 0;
  /** @type {HTMLButtonElement} */ ($("next")).disabled = page.at === result.decisions.length - 1;
  const title = $("decision-title");
  title.replaceChildren(prettyText(d.text));
  if (graded && graded.mark) title.append(" ", h("span", { className: "mark", text: graded.mark, title: t("review.mark_title") }));

  // The hands as they were, the reviewing player's below.
  const hands = $("hands");
  hands.replaceChildren();
  for (const seat of [1 - page.me, page.me]) {
    const row = h("div", { className: "card-row", role: "group", "aria-label": t("review.hand_of", { name: names[seat] }) });
    for (const c of d.hands[seat]) row.append(cardElement(c, { className: graded && graded.card === c ? "chosen" : "" }));
    if (seat !== d.seat && d.hidden) row.append(h("span", { className: "muted", text: plural(d.hidden, "review.hidden_one", "review.hidden_many") }));
    hands.append(h("div", { className: "review-hand" + (seat === d.seat ? " acting" : "") },
      h("p", { className: "pile-label", text: t(seat === d.seat ? "review.pile_deciding" : "review.pile", { name: names[seat], points: d.points[seat] }) }), row));
  }
  const trick = $("on-table");
  trick.replaceChildren();
  if (d.trick.length) {
    trick.append(h("p", { className: "pile-label", text: t("review.on_table") }),
      h("div", { className: "card-row", role: "group", "aria-label": t("review.trick") }, d.trick.map((c) => cardElement(c))));
  }

  renderStrip(d, graded);
  renderVerdict(d, graded, names);
  markGraph();
}

/** Whether a decision's values are weighed by the partie's stakes (a last deal), not points of the deal. @param {Graded | null} g */
function byStakes(g) {
  return Boolean(g && g.utility && (g.utility[0] !== 1 || g.utility[1] !== -1));
}

/** The units of a decision's values: points of the deal, or weighed by the partie's stakes. @param {Graded | null} g */
function units(g) {
  return t(byStakes(g) ? "review.by_stakes" : "review.in_points");
}

/** The open-hands strip: what each card the player could play was worth with every card known. @param {Decision} d @param {Graded | null} g */
function renderStrip(d, g) {
  const strip = $("strip");
  strip.replaceChildren();
  if (!d.open) return;
  const fair = g && g.values && !Array.isArray(g.values) ? g.values : null;
  const best = Math.max(...Object.values(d.open));
  const list = h("ul", { className: "strip-list", "aria-label": t("review.each_value") });
  for (const [card, value] of Object.entries(d.open)) {
    const cls = "strip-card" + (value === best ? " best" : "") + (g && g.card === card ? " chosen" : "");
    const fairText = fair && card in fair && page.result && page.result.review.lens !== "open-hands" ? t("review.fair_value", { v: signed(fair[card]) }) : "";
    list.append(h("li", { className: cls, "data-card": card },
      cardElement(card), h("span", { className: "strip-value", text: t("review.open_value", { v: signed(value) }) }),
      fairText ? h("span", { className: "strip-value fair", text: fairText }) : null));
  }
  strip.append(h("p", { className: "pile-label", text: t("review.strip_label", { units: units(g) }) }), list);
}

/** @param {Decision} d @param {Graded | null} g @param {string[]} names */
function renderVerdict(d, g, names) {
  const facts = $("verdict");
  facts.replaceChildren();
  /** @param {string} term @param {Node | string} value */
  const fact = (term, value) => facts.append(h("dt", { text: term }), h("dd", {}, value));
  const breakdown = $("breakdown");
  breakdown.replaceChildren();
  if (!g) {
    fact(t("review.fact_decision"), t("review.not_reviewed"));
    $("explanation").textContent = "";
    return;
  }
  if (g.forced) {
    fact(t("review.fact_choice"), t("review.only_one"));
    $("explanation").textContent = t("review.no_choice", { name: names[d.seat] });
    return;
  }
  const choice = g.card ?? g.discard ?? g.call ?? g.declared ?? g.text ?? "";
  fact(t("review.fact_choice"), prettyText(cardsText(choice)));
  fact(t("review.fact_best"), prettyText(cardsText(g.best)));
  const loss = Math.round(g.loss * 10) / 10;
  fact(t("review.fact_loss"), plural(loss, "review.loss_one", "review.loss_many", { points: size(loss) })
    + (byStakes(g) ? ` ${units(g)}` : ""));
  fact(t("review.fact_mark"), g.mark || t("review.no_mark"));
  // A card's explanation is its "text"; the other kinds' "text" is the action, their "explanation" the sentence.
  $("explanation").replaceChildren(prettyText(g.explanation ?? g.text ?? ""));
  const parts = partsOf(g);
  if (!parts) return;
  const keys = [...new Set([...Object.keys(parts.choice), ...Object.keys(parts.best)])]
    .filter((k) => Math.abs(parts.choice[k] || 0) >= 0.05 || Math.abs(parts.best[k] || 0) >= 0.05);
  const table = h("table", { className: "sheet-table breakdown" },
    h("caption", { text: t("review.breakdown", { units: units(g) }) }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("review.part") }), h("th", { scope: "col", className: "num", text: t("review.fact_choice") }),
      h("th", { scope: "col", className: "num", text: t("review.fact_best") }))),
    h("tbody", {}, keys.map((k) => h("tr", {}, h("th", { scope: "row", text: partName(k) }),
      h("td", { className: "num", text: signed(parts.choice[k] || 0) }), h("td", { className: "num", text: signed(parts.best[k] || 0) })))));
  breakdown.append(table);
}

/** The breakdown of the choice and of the best, by part. @param {Graded} g @returns {{choice: Parts, best: Parts} | null} */
function partsOf(g) {
  if (g.parts && g.card && typeof g.best === "string") {
    return { choice: g.parts[g.card] || {}, best: g.parts[g.best] || {} };
  }
  if (Array.isArray(g.values)) {
    const same = (/** @type {unknown} */ a, /** @type {unknown} */ b) => JSON.stringify(a) === JSON.stringify(b);
    const key = g.discard !== undefined ? "discard" : g.choice !== undefined ? "option" : "call";
    const chosenKey = key === "option" ? "choice" : key;
    const chosen = g.values.find((v) => same(v[key], g[chosenKey]));
    const best = g.values.find((v) => same(v[key], g.best));
    if (chosen && best && chosen.parts && best.parts) return { choice: chosen.parts, best: best.parts };
  }
  return null;
}

// ------------------------------------------------------------------ the graph

const SVG = "http://www.w3.org/2000/svg";
const W = 640;
const H = 200;
const PAD = 34;

/** @param {string} tag @param {Record<string, string | number>} attrs */
function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** The points of the graph: [decision index, expected score for the reviewing player]. @returns {[number, number][]} */
function graphPoints() {
  const result = page.result;
  if (!result) return [];
  const sign = page.me === 0 ? 1 : -1;
  /** @type {[number, number][]} */
  const out = [];
  result.decisions.forEach((d, i) => {
    if (typeof d.expected === "number") out.push([i, sign * d.expected]);
  });
  return out;
}

function drawGraph() {
  const result = page.result;
  const box = $("graph");
  box.replaceChildren();
  if (!result) return;
  const points = graphPoints();
  const names = result.review.players;
  const deal = result.decisions[0].deal;
  const scored = result.scores[String(deal)];
  const final = scored ? (page.me === 0 ? scored[0] - scored[1] : scored[1] - scored[0]) : null;
  const n = result.decisions.length;
  const ys = [...points.map((p) => p[1]), ...(final === null ? [] : [final]), 0];
  const lo = Math.min(...ys);
  const hi = Math.max(...ys);
  const span = hi - lo || 1;
  const x = (/** @type {number} */ i) => PAD + (i / Math.max(1, n)) * (W - 2 * PAD);
  const y = (/** @type {number} */ v) => H - PAD / 2 - ((v - lo) / span) * (H - PAD);
  const lens = t(result.review.lens === "open-hands" ? "review.graph_open" : "review.graph_fair");
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "review-graph", role: "img" });
  const label = t("review.graph_label", { name: names[page.me], lens })
    + (points.length ? t("review.graph_from", { a: signed(points[0][1]), b: signed(points[points.length - 1][1]) }) : "")
    + (final === null ? "" : t("review.graph_scored", { x: signed(final) })) + ".";
  chart.setAttribute("aria-label", label);
  const title = svg("title", {});
  title.textContent = label;
  chart.append(title);
  chart.append(svg("line", { x1: PAD, x2: W - PAD, y1: y(0), y2: y(0), class: "axis" }));
  for (const v of [lo, hi]) {
    const tick = svg("text", { x: PAD - 4, y: y(v) + 4, "text-anchor": "end", class: "tick" });
    tick.textContent = signed(v);
    chart.append(tick);
  }
  const line = [...points.map(([i, v]) => `${x(i)},${y(v)}`), ...(final === null ? [] : [`${x(n)},${y(final)}`])];
  if (line.length > 1) chart.append(svg("polyline", { points: line.join(" "), class: "line" }));
  for (const [i, v] of points) {
    const dot = svg("circle", { cx: x(i), cy: y(v), r: 4, class: "dot", "data-at": i });
    dot.addEventListener("click", () => show(i));
    chart.append(dot);
  }
  if (final !== null) {
    chart.append(svg("rect", { x: x(n) - 4, y: y(final) - 4, width: 8, height: 8, class: "final" }));
  }
  chart.append(svg("line", { x1: 0, x2: 0, y1: PAD / 4, y2: H - PAD / 4, class: "cursor", id: "graph-cursor" }));
  box.append(chart);
  $("graph-note").textContent = t(points.length ? "review.graph_note" : "review.graph_empty");
}

function markGraph() {
  const cursor = document.getElementById("graph-cursor");
  if (!cursor || !page.result) return;
  const n = page.result.decisions.length;
  const at = PAD + (page.at / Math.max(1, n)) * (W - 2 * PAD);
  cursor.setAttribute("x1", String(at));
  cursor.setAttribute("x2", String(at));
}

start();
