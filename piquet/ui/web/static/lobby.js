// @ts-check
// The lobby: create a table against the computer or a room for two
// (GET /api/setup, POST /api/tables; see docs/protocol.md).

import { cardElement, ensureSprite } from "./cards.js";
import { store } from "./storage.js";

/** @param {string} id @returns {HTMLElement} the page's element (the lobby's HTML holds every id asked for) */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const selectEl = (/** @type {string} */ id) => /** @type {HTMLSelectElement} */ ($(id));
const inputEl = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id));

/**
 * A rule option as the form offers it.
 * @typedef {{name: string, default: boolean | number, description: string, minimum: number | null,
 *   maximum: number | null, type: string, label: string, source: string}} Option
 */
/** @typedef {{name: string, title: string, description?: string, options: Option[]}} Variant */
/** @typedef {{value: number, label: string, description?: string}} Level */
/** @typedef {{variants: Variant[], levels: Level[], defaultLevel: number, defaultVariant?: string}} Setup */
/** A table this browser played or watched, as the lobby lists it. */
/** @typedef {{id: string, title?: string, kind?: string, level?: number | null, watching?: boolean, at?: number}} Recent */


/** @type {Variant[]} */
const FALLBACK_VARIANTS = [
  { name: "rubicon", title: "Rubicon Piquet", options: [] },
  { name: "auction", title: "Auction Piquet", options: [] },
  { name: "au-cent", title: "Piquet au Cent", options: [] },
];

/** @type {Setup} */
let setup = { variants: FALLBACK_VARIANTS, levels: [1, 2, 3, 4, 5].map((n) => ({ value: n, label: `Level ${n}` })), defaultLevel: 3 };

// ------------------------------------------------------------------ reading /api/setup

/** @param {unknown} name */
function humanise(name) {
  const s = String(name).replace(/_/g, " ");
  return s[0].toUpperCase() + s.slice(1);
}

/**
 * /api/setup's option, read loosely.
 * @param {any} o
 * @param {string} key
 * @returns {Option}
 */
function normaliseOption(o, key) {
  if (o === null || typeof o !== "object") {
    return /** @type {Option} */ (/** @type {unknown} */ ({ name: key, default: o, description: "" }));
  }
  const name = o.name ?? key;
  const def = o.default ?? o.value ?? (o.type === "bool" || o.type === "boolean" ? false : 0);
  return {
    name,
    default: def,
    description: o.description ?? o.help ?? "",
    minimum: o.minimum ?? o.min ?? null,
    maximum: o.maximum ?? o.max ?? null,
    type: o.type ?? (typeof def === "boolean" ? "boolean" : "integer"),
    label: o.label ?? o.title ?? humanise(name),
    source: o.source ?? "",
  };
}

/**
 * @param {any} list
 * @param {Record<string, any> | null} globalDefs
 * @returns {Option[]}
 */
function normaliseOptions(list, globalDefs) {
  if (!list) return [];
  if (Array.isArray(list)) {
    return list.map((/** @type {any} */ o) => {
      if (typeof o === "string") return normaliseOption(globalDefs && globalDefs[o] ? { ...globalDefs[o], name: o } : { name: o, default: false }, o);
      return normaliseOption(o, o && o.name);
    });
  }
  return Object.entries(list).map(([k, o]) => normaliseOption(o, k));
}

/**
 * /api/setup's answer, read loosely (older servers sent other shapes).
 * @param {any} data
 * @returns {Setup}
 */
function normaliseSetup(data) {
  if (!data || typeof data !== "object") return setup;
  const globalDefs = data.options && !Array.isArray(data.options) ? data.options : null;
  let variants = data.variants;
  if (variants && !Array.isArray(variants)) {
    variants = Object.entries(variants).map(([k, /** @type {any} */ v]) => (typeof v === "string" ? { name: k, title: v } : { name: k, ...v }));
  }
  variants = (variants || []).map((/** @type {any} */ v) => {
    if (typeof v === "string") return { name: v, title: v, options: [] };
    const name = v.name ?? v.id ?? v.variant;
    return {
      name,
      title: v.title ?? v.label ?? name,
      description: v.description ?? "",
      options: normaliseOptions(v.options ?? v.rule_options, globalDefs),
    };
  }).filter((/** @type {Variant} */ v) => v.name);
  if (!variants.length) variants = FALLBACK_VARIANTS;
  let levels = data.levels ?? data.computer_levels;
  if (levels && !Array.isArray(levels)) {
    levels = Object.entries(levels).map(([k, /** @type {any} */ v]) => ({ value: Number(k), description: typeof v === "string" ? v : v.description ?? "", label: (v && v.label) || `Level ${k}` }));
  }
  levels = (levels || [1, 2, 3, 4, 5]).map((/** @type {any} */ l) => {
    if (typeof l === "number" || typeof l === "string") return { value: Number(l), label: `Level ${l}`, description: "" };
    const value = Number(l.level ?? l.value ?? l.number);
    return { value, label: l.label ?? l.title ?? `Level ${value}`, description: l.description ?? l.name ?? "" };
  }).filter((/** @type {Level} */ l) => Number.isFinite(l.value));
  const defaultLevel = Number(data.default_level ?? data.defaultLevel ?? (levels.some((/** @type {Level} */ l) => l.value === 3) ? 3 : levels[0]?.value ?? 3));
  return { variants, levels, defaultLevel, defaultVariant: data.default_variant ?? data.defaultVariant ?? variants[0].name };
}

// ------------------------------------------------------------------ the form

function currentVariant() {
  const name = selectEl("variant").value;
  return setup.variants.find((v) => v.name === name) || setup.variants[0];
}

function fillVariants() {
  const select = selectEl("variant");
  const remembered = store.get("piquet.engine.variants");
  select.replaceChildren(...setup.variants.map((v) => new Option(v.title, v.name)));
  const wanted = setup.variants.some((v) => v.name === remembered) ? /** @type {string} */ (remembered) : setup.defaultVariant || setup.variants[0].name;
  select.value = wanted;
}

function fillLevels() {
  const select = selectEl("level");
  select.replaceChildren(...setup.levels.map((l) => new Option(l.label + (l.description && l.label.length < 12 ? ` – ${l.description}` : ""), String(l.value))));
  const remembered = Number(store.get("piquet.level"));
  select.value = String(setup.levels.some((l) => l.value === remembered) ? remembered : setup.defaultLevel);
  updateLevelHelp();
}

function updateLevelHelp() {
  const l = setup.levels.find((x) => String(x.value) === selectEl("level").value);
  const first = setup.levels[0];
  const last = setup.levels[setup.levels.length - 1];
  let help = "";
  if (l && l.description && !selectEl("level").selectedOptions[0]?.textContent?.includes(l.description)) help = l.description;
  else if (first && last && first !== last) help = `${first.value} is the gentlest, ${last.value} the strongest.`;
  $("level-help").textContent = help;
}

function fillOptions() {
  const variant = currentVariant();
  const box = $("options");
  box.replaceChildren();
  for (const o of variant.options) {
    const id = `opt-${o.name}`;
    const row = document.createElement("div");
    row.className = "option";
    let input;
    if (o.type === "boolean" || typeof o.default === "boolean") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = !!o.default;
    } else {
      input = document.createElement("input");
      input.type = "number";
      input.inputMode = "numeric";
      input.step = "1";
      if (o.minimum !== null && o.minimum !== undefined) input.min = String(o.minimum);
      if (o.maximum !== null && o.maximum !== undefined && o.maximum > 0) input.max = String(o.maximum);
      input.value = String(o.default);
    }
    input.id = id;
    input.name = o.name;
    input.dataset.option = o.name;
    input.dataset.testid = `option-${o.name}`;
    input.setAttribute("data-testid", `option-${o.name}`);
    const label = document.createElement("label");
    label.htmlFor = id;
    label.className = "option-name";
    label.textContent = o.label;
    row.append(input, label);
    if (o.source) label.title = `Source: ${o.source}`;
    if (o.description) {
      const desc = document.createElement("span");
      desc.className = "option-desc";
      desc.id = `${id}-desc`;
      desc.textContent = o.description;
      input.setAttribute("aria-describedby", desc.id);
      row.append(desc);
    }
    box.append(row);
  }
  $("options-details").hidden = variant.options.length === 0;
  $("options-count").textContent = variant.options.length ? `(${variant.options.length}, defaults of ${variant.title})` : "";
  const link = /** @type {HTMLAnchorElement} */ ($("rules-link"));
  link.href = `/rules/${encodeURIComponent(variant.name)}`;
  link.textContent = `The rules of ${variant.title}`;
}

function chosenOptions() {
  const variant = currentVariant();
  /** @type {Record<string, boolean | number>} */
  const out = {};
  for (const o of variant.options) {
    const input = /** @type {HTMLInputElement | null} */ (document.getElementById(`opt-${o.name}`));
    if (!input) continue;
    let value;
    if (input.type === "checkbox") value = input.checked;
    else {
      value = Number(input.value);
      if (!Number.isInteger(value)) throw new Error(`${o.label}: a whole number, please.`);
      if (input.min !== "" && value < Number(input.min)) throw new Error(`${o.label}: at least ${input.min}.`);
      if (input.max !== "" && value > Number(input.max)) throw new Error(`${o.label}: at most ${input.max}.`);
    }
    if (value !== o.default) out[o.name] = value;
  }
  return out;
}

/** @param {boolean} busy */
function setBusy(busy) {
  for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("#new-game button[type=submit]"))) b.disabled = busy;
}

/** @param {string} text */
function showError(text) {
  const el = $("lobby-error");
  el.textContent = text;
  el.hidden = !text;
}

/** @param {SubmitEvent} e */
async function submit(e) {
  e.preventDefault();
  const submitter = /** @type {HTMLButtonElement | null} */ (e.submitter);
  const kind = submitter && submitter.value === "room" ? "room" : "computer";
  showError("");
  const name = inputEl("name").value.trim();
  if (!name) {
    showError("Please enter your name.");
    $("name").focus();
    return;
  }
  let options;
  try {
    options = chosenOptions();
  } catch (err) {
    showError(/** @type {Error} */ (err).message);
    /** @type {HTMLDetailsElement} */ ($("options-details")).open = true;
    return;
  }
  /** @type {{kind: string, variant: string, options: Record<string, boolean | number>, name: string, level?: number, takebacks?: string}} */
  const body = { kind, variant: currentVariant().name, options, name };
  if (body.kind === "computer") {
    body.level = Number(selectEl("level").value);
    body.takebacks = selectEl("takebacks").value;
    store.set("piquet.takebacks", body.takebacks);
  }
  store.set("piquet.name", name);
  store.set("piquet.engine.variants", body.variant);
  if (body.level) store.set("piquet.level", String(body.level));
  setBusy(true);
  $("create-note").textContent = "Setting the table…";
  try {
    const res = await fetch("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
    let data = null;
    try {
      data = await res.json();
    } catch {
      data = null;
    }
    if (!res.ok || !data || !data.id) throw new Error(serverReason(data, res.status));
    const links = data.links || {};
    const play = links.play || `/t/${encodeURIComponent(data.id)}#token=${encodeURIComponent(data.token)}`;
    if (data.token) {
      const key = `piquet.table.${data.id}`;
      /** @type {{token?: string, at?: number}} */
      let saved = {};
      try {
        saved = JSON.parse(store.get(key) || "{}") || {};
      } catch {
        saved = {};
      }
      saved.token = data.token;
      saved.at = Date.now();
      store.set(key, JSON.stringify(saved));
    }
    remember({ id: data.id, title: currentVariant().title, kind: body.kind, level: body.level, at: Date.now() });
    location.assign(play);
  } catch (err) {
    showError(/** @type {Error} */ (err).message || "Could not create the table.");
    setBusy(false);
    $("create-note").textContent = "";
  }
}

/** The reason in an error answer: {"detail": "..."} or a list of validation errors. */
/** @param {any} data @param {number} status */
function serverReason(data, status) {
  const why = data && (data.detail ?? data.message ?? data.error);
  if (typeof why === "string") return why;
  if (Array.isArray(why)) {
    const parts = why.map((/** @type {any} */ d) => (d && d.msg ? `${(d.loc || []).filter((/** @type {unknown} */ x) => x !== "body").join(".")}: ${d.msg}` : String(d)));
    if (parts.length) return parts.join("; ");
  }
  return `The server refused (${status}).`;
}

// ------------------------------------------------------------------ recent tables

/** @returns {Recent[]} */
function recentTables() {
  try {
    const list = JSON.parse(store.get("piquet.recent") || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** @param {Recent} entry */
function remember(entry) {
  const list = recentTables().filter((t) => t.id !== entry.id);
  list.unshift(entry);
  store.set("piquet.recent", JSON.stringify(list.slice(0, 8)));
}

function showRecent() {
  const list = recentTables();
  const ul = $("recent");
  ul.replaceChildren();
  for (const t of list) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `/t/${encodeURIComponent(t.id)}`;
    a.textContent = `${t.title || "Piquet"}${t.watching ? " (watching)" : t.kind === "room" ? " (room)" : t.level ? ` v computer, level ${t.level}` : ""}`;
    const when = document.createElement("span");
    when.className = "muted";
    when.textContent = t.at ? new Date(t.at).toLocaleDateString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }) : "";
    li.append(a, when);
    ul.append(li);
  }
  $("recent-panel").hidden = list.length === 0;
}

// ------------------------------------------------------------------ start

async function start() {
  ensureSprite();
  const hero = $("hero-cards");
  for (const c of ["AS", "KH", "QD", "JC"]) hero.append(cardElement(c));
  inputEl("name").value = store.get("piquet.name") || "";
  $("variant").addEventListener("change", fillOptions);
  $("level").addEventListener("change", updateLevelHelp);
  const takebacks = store.get("piquet.takebacks");
  if (takebacks && ["off", "fair", "free"].includes(takebacks)) selectEl("takebacks").value = takebacks;
  $("new-game").addEventListener("submit", (e) => submit(/** @type {SubmitEvent} */ (e)));
  fillVariants();
  fillLevels();
  fillOptions();
  showRecent();
  try {
    const res = await fetch("/api/setup", { headers: { Accept: "application/json" } });
    if (!res.ok) throw new Error(`setup: ${res.status}`);
    setup = normaliseSetup(await res.json());
    fillVariants();
    fillLevels();
    fillOptions();
  } catch {
    showError("Could not read the game's settings from the server; the defaults are shown.");
  }
  // The buttons wait for the script (a click before would submit the bare form).
  setBusy(false);
  document.body.dataset.ready = "1";
}

start();
