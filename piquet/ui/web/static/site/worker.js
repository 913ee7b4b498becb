// @ts-check
// The offline table's worker: Pyodide (CPython in WebAssembly, from the site's own pyodide/ directory) running the
// server's table logic (piquet.ui.web.offline), so the engine, the computer and the table's rules are the server's
// own, and the page never waits for the computer. Tables are kept in this browser's IndexedDB, written before a
// change is acknowledged. The page talks to it through worker-socket.js.

const root = new URL("../../", import.meta.url);
/** The worker's scope (typed as the page's by the type check, which knows no worker). @type {any} */
const scope = self;

const DATABASE = "piquet";
const TABLES = "tables";

/** @returns {Promise<IDBDatabase>} */
function openDatabase() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(TABLES);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

const database = openDatabase();

/**
 * A table's saved JSON text, or undefined (Pyodide gives Python None for it).
 * @param {string} id
 * @returns {Promise<string | undefined>}
 */
async function read(id) {
  const db = await database;
  return new Promise((resolve, reject) => {
    const request = db.transaction(TABLES, "readonly").objectStore(TABLES).get(id);
    request.onsuccess = () => resolve(typeof request.result === "string" ? request.result : undefined);
    request.onerror = () => reject(request.error);
  });
}

/**
 * Keep a table's JSON text; resolved once the browser has committed it.
 * @param {string} id @param {string} text
 * @returns {Promise<void>}
 */
async function write(id, text) {
  const db = await database;
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(TABLES, "readwrite");
    transaction.objectStore(TABLES).put(text, id);
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error || new Error("the browser refused to keep the table"));
  });
}

/** @param {number} number @param {string} op @param {string} text */
function post(number, op, text) {
  scope.postMessage({ op, number, text });
}

/** Pyodide, our package on its path, and the host of the page's tables. @returns {Promise<any>} */
async function start() {
  const runtime = new URL("pyodide/", root).href;
  const { loadPyodide } = await import(runtime + "pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: runtime });
  const zip = await fetch(new URL("piquet.zip", root));
  if (!zip.ok) throw new Error(`the game's package could not be read (${zip.status})`);
  pyodide.FS.writeFile("/piquet.zip", new Uint8Array(await zip.arrayBuffer()));
  pyodide.runPython("import sys\nsys.path.insert(0, '/piquet.zip')");
  const offline = pyodide.pyimport("piquet.ui.web.offline");
  return offline.Host(read, write, post);
}

const host = start();
host.catch((/** @type {unknown} */ error) => {
  scope.postMessage({ op: "failed", text: `the game could not start in this browser (${error instanceof Error ? error.message : error})` });
});

/** The page's requests, in order (a message waits for the one before it to be taken). */
let queue = Promise.resolve();

scope.addEventListener("message", (/** @type {MessageEvent} */ ev) => {
  const data = ev.data;
  queue = queue.then(() => serve(data)).catch((error) => {
    console.error("the table's worker:", error);
  });
});

/** @param {any} data */
async function serve(data) {
  const tables = await host;
  if (data.op === "connect") {
    post(data.number, "open", "");
    await tables.connect(data.number, data.id, data.kind, data.secret, data.lang);
  } else if (data.op === "message") {
    // Not awaited: an action's answer comes on the connection; the next message may be read meanwhile.
    tables.receive(data.number, data.text);
  } else if (data.op === "disconnect") {
    tables.disconnect(data.number);
  } else if (data.op === "create") {
    scope.postMessage({ op: "answer", request: data.request, answer: JSON.parse(await tables.create(data.body, data.lang || "en")) });
  } else if (data.op === "review" || data.op === "review_table") {
    /** @param {number} done @param {number} total */
    const progress = (done, total) => scope.postMessage({ op: "progress", request: data.request, done, total });
    const answer = await (data.op === "review" ? tables.review_record(data.body, progress) : tables.review_table(data.body, progress));
    scope.postMessage({ op: "answer", request: data.request, answer: JSON.parse(answer) });
  } else if (data.op === "history") {
    scope.postMessage({ op: "answer", request: data.request, answer: JSON.parse(await tables.history(data.body)) });
  } else if (data.op === "record_file") {
    const text = await tables.record_file(data.body);
    scope.postMessage({ op: "answer", request: data.request, answer: text === undefined || text === null ? null : String(text) });
  } else if (data.op === "record") {
    const text = tables.record(data.number);
    scope.postMessage({ op: "answer", request: data.request, answer: text === undefined || text === null ? null : String(text) });
  }
}
