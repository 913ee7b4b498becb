// @ts-check
// Creating a table (POST /api/tables): the form's body, the server's answer or its reason for refusing, and the
// creator's seat secret kept in this browser before the page goes to the table.

import { lang, sentence, t } from "../i18n.js";
import { NEW_TABLE, offline } from "../site/mode.js";
import { session, store } from "../storage.js";
import { $ } from "../table/dom.js";
import { chosenBudget, chosenOptions, currentVariant, inputEl, selectEl } from "./form.js";
import { remember } from "./recent.js";

/** @typedef {import("../table/protocol.js").CreateTable} CreateTable */
/** @typedef {import("../table/protocol.js").CreatedTable} CreatedTable */

/** @param {boolean} busy */
export function setBusy(busy) {
  for (const b of document.querySelectorAll("#new-game button[type=submit]")) {
    if (b instanceof HTMLButtonElement) b.disabled = busy;
  }
}

/** @param {string} text */
export function showError(text) {
  const el = $("lobby-error");
  el.textContent = text;
  el.hidden = !text;
}

/**
 * The reason in a refusal: `{"detail": "..."}` (docs/protocol.md), or the status.
 * @param {unknown} data @param {number} status
 */
export function serverReason(data, status) {
  const why = data && typeof data === "object" && "detail" in data ? data.detail : null;
  return typeof why === "string" && why ? sentence(why) : t("create.refused", { status });
}

/**
 * The body the form asks for, or an Error saying what to correct.
 * @param {"computer" | "room"} kind
 * @returns {CreateTable}
 */
function body(kind) {
  const name = inputEl("name").value.trim();
  const variant = currentVariant();
  if (!variant) throw new Error(t("create.no_settings"));
  if (!name) {
    $("name").focus();
    throw new Error(t("create.name"));
  }
  let options;
  try {
    options = chosenOptions();
  } catch (err) {
    /** @type {HTMLDetailsElement} */ ($("options-details")).open = true;
    throw err;
  }
  /** @type {CreateTable} */
  const out = { kind, variant: variant.name, options, name };
  if (kind === "room" && !$("public-field").hidden && inputEl("public").checked) out.public = true;
  if (kind === "computer") {
    out.level = Number(selectEl("level").value);
    const takebacks = selectEl("takebacks").value;
    if (takebacks === "off" || takebacks === "fair" || takebacks === "free") out.takebacks = takebacks;
    out.tutor = inputEl("tutor").checked;
    try {
      const budget = chosenBudget();
      if (budget !== undefined) out.budget = budget;
    } catch (err) {
      $("budget").focus();
      throw err;
    }
  }
  return out;
}

/**
 * Keep a seat's secret in this browser (the table page reads it), for a table created or a public room joined.
 * @param {CreatedTable} created
 */
export function keepSeat(created) {
  const key = `piquet.table.${created.id}`;
  /** @type {{token?: string, at?: number}} */
  let saved = {};
  try {
    saved = JSON.parse(store.get(key) || "{}") || {};
  } catch {
    saved = {};
  }
  saved.token = created.token;
  saved.at = Date.now();
  store.set(key, JSON.stringify(saved));
}

/** @param {SubmitEvent} e */
export async function submit(e) {
  e.preventDefault();
  const kind = e.submitter instanceof HTMLButtonElement && e.submitter.value === "room" ? "room" : "computer";
  showError("");
  /** @type {CreateTable} */
  let request;
  try {
    request = body(kind);
  } catch (err) {
    showError(/** @type {Error} */ (err).message);
    return;
  }
  store.set("piquet.name", request.name);
  store.set("piquet.engine.variants", request.variant);
  if (request.takebacks) store.set("piquet.takebacks", request.takebacks);
  if (request.level) store.set("piquet.level", String(request.level));
  if (request.kind === "computer") store.set("piquet.budget", request.budget === undefined ? "" : String(request.budget));
  if (request.kind === "computer") store.set("piquet.tutor", request.tutor ? "1" : "0");
  setBusy(true);
  $("create-note").textContent = t("create.setting");
  if (offline) {
    // The table is made in this browser, by the table page's worker (docs/offline.md): the page takes the request.
    session.set(NEW_TABLE, JSON.stringify(request));
    location.assign("table.html?new=1");
    return;
  }
  try {
    // The page's language: a refusal's reason (a name the server will not take, ...) comes back in it.
    const res = await fetch(`/api/tables?lang=${encodeURIComponent(lang)}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(request),
    });
    /** @type {unknown} */
    let data = null;
    try {
      data = await res.json();
    } catch {
      data = null;
    }
    if (!res.ok || !data) throw new Error(serverReason(data, res.status));
    const created = /** @type {CreatedTable} */ (data);
    keepSeat(created);
    remember({ id: created.id, title: currentVariant()?.title, kind: request.kind, level: request.level, at: Date.now() });
    location.assign(created.links.play);
  } catch (err) {
    showError(/** @type {Error} */ (err).message || "Could not create the table.");
    setBusy(false);
    $("create-note").textContent = "";
  }
}
