// @ts-check
// The offline table's transport: the same messages as the server's WebSocket (docs/protocol.md), carried to the
// table's worker (worker.js: Pyodide running piquet.ui.web.offline) by postMessage. A WorkerSocket behaves as a
// WebSocket does for transport.js (readyState, send, and "open", "message" and "close" events with the same close
// codes), so the served table and the offline one are one page.

/** @typedef {import("../table/protocol.js").CreateTable} CreateTable */
/** @typedef {import("../table/protocol.js").CreatedTable} CreatedTable */

/** @type {Worker | null} */
let worker = null;
let counter = 0;
/** @type {Map<number, WorkerSocket>} */
const sockets = new Map();
/** @type {Map<number, (answer: any) => void>} */
const answers = new Map();
/** Each review's progress, by its request. @type {Map<number, (progress: any) => void>} */
const progressOf = new Map();
/** Why the worker cannot run the table, once it has said so. @type {string | null} */
let failed = null;

/** The table's worker, started the first time it is needed. */
function tableWorker() {
  if (worker) return worker;
  worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  worker.addEventListener("message", (ev) => route(ev.data));
  worker.addEventListener("error", (ev) => route({ op: "failed", text: ev.message || "the table's worker stopped" }));
  return worker;
}

/** @param {any} data */
function route(data) {
  if (data.op === "failed") {
    failed = String(data.text);
    for (const socket of [...sockets.values()]) socket.closed(4400, failed);
    for (const [request, answer] of answers) {
      answers.delete(request);
      progressOf.delete(request);
      answer({ detail: failed });
    }
    return;
  }
  if (data.op === "progress") {
    const told = progressOf.get(data.request);
    if (told) told({ id: "", status: "running", done: data.done, total: data.total });
    return;
  }
  if (data.op === "answer") {
    const answer = answers.get(data.request);
    answers.delete(data.request);
    progressOf.delete(data.request);
    if (answer) answer(data.answer);
    return;
  }
  const socket = sockets.get(data.number);
  if (!socket) return;
  if (data.op === "open") socket.opened();
  else if (data.op === "message") socket.dispatchEvent(new MessageEvent("message", { data: data.text }));
  else if (data.op === "close") {
    const text = String(data.text);
    const space = text.indexOf(" ");
    socket.closed(Number(text.slice(0, space)), text.slice(space + 1));
  }
}

/**
 * Ask the worker something and wait for its answer (``told`` hears its progress, if it tells any).
 * @param {string} op @param {Record<string, unknown>} fields @param {(progress: any) => void} [told]
 * @returns {Promise<any>}
 */
function ask(op, fields, told) {
  if (failed) return Promise.resolve({ detail: failed });
  counter += 1;
  const request = counter;
  if (told) progressOf.set(request, told);
  return new Promise((resolve) => {
    answers.set(request, resolve);
    tableWorker().postMessage({ op, request, ...fields });
  });
}

/**
 * Create a table in this browser (the body of docs/protocol.md's `POST /api/tables`): the answer, or the reason
 * it was refused (`{detail}`), in the page's language ``lang``.
 * @param {CreateTable} body
 * @param {string} lang
 * @returns {Promise<CreatedTable | {detail: string}>}
 */
export function createTable(body, lang) {
  return ask("create", { body: JSON.stringify(body), lang });
}

/**
 * The record of the table a socket plays at, once its partie is over (`null` before).
 * @param {WorkerSocket} socket
 * @returns {Promise<string | null>}
 */
export function recordOf(socket) {
  return ask("record", { number: socket.number });
}

/**
 * A record's deal reviewed in the worker (piquet.ui.web.offline.Host.review_record, the server's reader and review):
 * ``told`` hears how far it has gone; the answer is its result as the server's progress gives it once done, or why
 * the record was refused (``{detail, where, why}``).
 * @param {{record: string, deal: number, lens: string, lang: string}} body
 * @param {(progress: any) => void} told
 * @returns {Promise<{ok: boolean, data: any}>}
 */
export async function reviewRecord(body, told) {
  const answer = await ask("review", { body: JSON.stringify(body) }, told);
  return { ok: !answer.detail, data: answer };
}

/**
 * A deal of a table kept in this browser reviewed in the worker (piquet.ui.web.offline.Host.review_table, as the
 * server reviews a table's): ``told`` hears how far it has gone; the answer is as for ``reviewRecord``.
 * @param {{table: string, token: string, deal: number, lens: string, lang: string}} body
 * @param {(progress: any) => void} told
 * @returns {Promise<{ok: boolean, data: any}>}
 */
export async function reviewTable(body, told) {
  const answer = await ask("review_table", { body: JSON.stringify(body) }, told);
  return { ok: !answer.detail, data: answer };
}

/**
 * The History of the seats this browser holds, from the tables kept in it (piquet.ui.web.offline.Host.history, as the
 * server answers `POST /api/history`): `{parties, progress}`, or why not (`{detail}`).
 * @param {{seats: {table: string, token: string}[], lang: string}} body
 * @returns {Promise<any>}
 */
export function historyOf(body) {
  return ask("history", { body: JSON.stringify(body) });
}

/**
 * The record of a finished partie kept in this browser, if that secret holds a seat there (`null` otherwise).
 * @param {{table: string, token: string}} seat
 * @returns {Promise<string | null>}
 */
export function recordFile(seat) {
  return ask("record_file", { body: JSON.stringify(seat) });
}

/** A connection to a table in the worker, as a WebSocket is to the server's. */
export class WorkerSocket extends EventTarget {
  /**
   * @param {string} id the table
   * @param {string} kind the link's kind (`token`, `spectate`, `invite`, `move`)
   * @param {string} secret the link's secret
   * @param {string} lang the language of the words the table sends
   */
  constructor(id, kind, secret, lang) {
    super();
    counter += 1;
    this.number = counter;
    /** As a WebSocket's: 0 connecting, 1 open, 3 closed. */
    this.readyState = 0;
    sockets.set(this.number, this);
    if (failed) {
      queueMicrotask(() => this.closed(4400, /** @type {string} */ (failed)));
      return;
    }
    tableWorker().postMessage({ op: "connect", number: this.number, id, kind, secret, lang });
  }

  /** @param {string} text */
  send(text) {
    if (this.readyState !== 1) return;
    tableWorker().postMessage({ op: "message", number: this.number, text });
  }

  close() {
    if (this.readyState === 3) return;
    tableWorker().postMessage({ op: "disconnect", number: this.number });
    this.closed(1000, "");
  }

  opened() {
    this.readyState = 1;
    this.dispatchEvent(new Event("open"));
  }

  /** @param {number} code @param {string} reason */
  closed(code, reason) {
    if (this.readyState === 3) return;
    this.readyState = 3;
    sockets.delete(this.number);
    this.dispatchEvent(new CloseEvent("close", { code, reason }));
  }
}
