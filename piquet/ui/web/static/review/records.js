// @ts-check
// A record file opened in the browser (docs/playing.md, "A record file"): chosen with a file picker, or dropped on
// the lobby or the review page, read here and handed to the review page, which has it read and reviewed (the
// server's POST /api/records/reviews, or the offline site's worker) and shows it as a finished table's review. The
// file is kept in this tab only (sessionStorage) while the page shows it: nothing is stored elsewhere.

import { t } from "../i18n.js";
import { offline, root } from "../site/mode.js";
import { session } from "../storage.js";

/** The largest record read, in bytes (piquet/ui/web/records.py, MAX_RECORD_BYTES). */
export const MAX_BYTES = 512 * 1024;
/** A record chosen on the lobby (or dropped on a table's review), for the review page to try. */
const PENDING = "piquet.record.pending";
/** The record the review page shows, once read: its deals are reviewed from it as they are asked. */
const SHOWN = "piquet.record";

/**
 * A record as this tab keeps it.
 * @typedef {{name: string, text: string}} RecordFile
 */

/** The review page of a record file. */
export function recordPageHref() {
  return offline ? new URL("review.html", root).href : "/review";
}

/**
 * The text of a file, or why it is no record: too large, or not text.
 * @param {File} file
 * @returns {Promise<RecordFile>}
 */
export async function readFile(file) {
  if (file.size > MAX_BYTES) {
    throw new Error(t("record.too_large", { name: file.name, size: file.size, most: MAX_BYTES }));
  }
  try {
    const bytes = await file.arrayBuffer();
    return { name: file.name, text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    throw new Error(t("record.not_text", { name: file.name }));
  }
}

/** @param {string} key @returns {RecordFile | null} */
function kept(key) {
  try {
    const value = JSON.parse(session.get(key) || "null");
    return value && typeof value.text === "string" ? { name: String(value.name || ""), text: value.text } : null;
  } catch {
    return null;
  }
}

/** The record chosen elsewhere for this page to try, taken (it is tried once). */
export function takePending() {
  const found = kept(PENDING);
  session.set(PENDING, null);
  return found;
}

/** The record this page shows. */
export function shownRecord() {
  return kept(SHOWN);
}

/** Keep the record this page shows (once read without fault). @param {RecordFile} file */
export function keepShown(file) {
  session.set(SHOWN, JSON.stringify(file));
}

/**
 * Hand a record to the review page: kept for it to try, and the page opened.
 * @param {RecordFile} file
 */
export function openOnReviewPage(file) {
  session.set(PENDING, JSON.stringify(file));
  location.href = recordPageHref();
}

/**
 * Where a record goes wrong, as the engine says it ("deal 2, action 5", "line 3, column 9", "record", "takebacks,
 * item 0", "deal 1, Ann's hand"), in the page's language: its parts the page knows translated, the rest (the
 * players' names) as they are.
 * @param {string} where
 */
export function whereText(where) {
  return where.split(", ").map((part) => {
    const numbered = part.match(/^(deal|action|line|column|round|item|byte) (\d+)$/);
    if (numbered) return t(`record.where.${numbered[1]}`, { n: numbered[2] });
    const hand = part.match(/^(.+)'s hand$/);
    if (hand) return t("record.where.hand", { name: hand[1] });
    return ["record", "talon", "cut", "takebacks"].includes(part) ? t(`record.where.${part}`) : part;
  }).join(", ");
}

/**
 * A refusal of a record, in the page's language: where and why where the reader said them (why in the engine's
 * words), else the server's reason.
 * @param {{detail?: string, where?: string, why?: string}} refused
 * @param {string} name the file's name
 */
export function refusalText(refused, name) {
  if (refused.where && refused.why) {
    return t("record.refused", { name, where: whereText(refused.where), why: refused.why });
  }
  return t("record.refused_other", { name, why: refused.detail || "" });
}

/**
 * Files dropped anywhere on the page go to ``take``: the page shows it may drop (``data-dropping`` on the body)
 * while a file is dragged over it.
 * @param {(file: File) => void} take
 */
export function acceptDrops(take) {
  const body = document.body;
  /** @param {DragEvent} e */
  const carriesFiles = (e) => Boolean(e.dataTransfer && [...e.dataTransfer.types].includes("Files"));
  body.addEventListener("dragover", (e) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = "copy";
    body.dataset.dropping = "1";
  });
  body.addEventListener("dragleave", (e) => {
    if (e.target === body || !e.relatedTarget) delete body.dataset.dropping;
  });
  body.addEventListener("drop", (e) => {
    delete body.dataset.dropping;
    const file = e.dataTransfer && e.dataTransfer.files.length ? e.dataTransfer.files[0] : null;
    if (!file) return;
    e.preventDefault();
    take(file);
  });
}
