// @ts-check
// The lobby's form: the variant and its rule options, the computer's level, the takebacks, its thinking time,
// filled from the server's setup and read back into the body of POST /api/tables.

import { lang, t } from "../i18n.js";
import { guideHref, offline } from "../site/mode.js";
import { store } from "../storage.js";
import { $, h } from "../table/dom.js";
import { DEFAULT_LEVEL, humanise, setup, variantNamed } from "./setup.js";

/** @typedef {import("../table/protocol.js").VariantSetup} VariantSetup */
/** @typedef {import("../table/protocol.js").OptionSetup} OptionSetup */

export const selectEl = (/** @type {string} */ id) => /** @type {HTMLSelectElement} */ ($(id));
export const inputEl = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id));

/** The variant chosen, as the server describes it (`null` before the setup is read). */
export function currentVariant() {
  return variantNamed(selectEl("variant").value);
}

export function fillVariants() {
  const variants = setup.answer ? setup.answer.variants : [];
  const select = selectEl("variant");
  const remembered = store.get("piquet.engine.variants");
  select.replaceChildren(...variants.map((v) => new Option(v.title, v.name)));
  const chosen = variants.find((v) => v.name === remembered) || variants[0];
  if (chosen) select.value = chosen.name;
}

export function fillLevels() {
  const levels = setup.answer ? setup.answer.levels : [];
  const select = selectEl("level");
  select.replaceChildren(...levels.map((l) => new Option(t("form.level", { n: l.level, name: l.name }), String(l.level))));
  const remembered = Number(store.get("piquet.level"));
  const chosen = levels.find((l) => l.level === remembered) || levels.find((l) => l.level === DEFAULT_LEVEL) || levels[0];
  if (chosen) select.value = String(chosen.level);
  updateLevelHelp();
}

export function updateLevelHelp() {
  const levels = setup.answer ? setup.answer.levels : [];
  const first = levels[0];
  const last = levels[levels.length - 1];
  $("level-help").textContent = first && last && first !== last ? t("form.levels_help", { first: first.level, last: last.level }) : "";
}

/** A number of seconds as the form says it: 1, 0.5, 2.5. */
const seconds = (/** @type {number} */ n) => String(Math.round(n * 1000) / 1000);

/**
 * The thinking time a table may give the computer, within the server's bounds (GET /api/setup's `budget`), its own
 * default first, or the one this browser chose last if the server still allows it.
 */
export function fillBudget() {
  const bounds = setup.answer ? setup.answer.budget : null;
  const input = inputEl("budget");
  if (!bounds) return;
  input.min = bounds.maximum === null ? "0" : seconds(bounds.minimum);
  input.max = bounds.maximum === null ? "" : seconds(bounds.maximum);
  input.placeholder = seconds(bounds.default);
  const remembered = store.get("piquet.budget");
  let value = bounds.default;
  if (remembered) {
    try {
      value = budgetOf(remembered);
    } catch {
      value = bounds.default;
    }
  }
  input.value = seconds(value);
  const range = bounds.maximum === null
    ? t("form.budget_open", { min: seconds(bounds.minimum) })
    : t("form.budget_range", { min: seconds(bounds.minimum), max: seconds(bounds.maximum) });
  // In the offline site the computer thinks in this browser: its time there is wall time, in a slower Python.
  $("budget-help").textContent = t("form.budget_help", { range, default: seconds(bounds.default) })
    + (offline ? " " + t("form.budget_browser") : "");
  if (setup.answer) {
    $("tutor-help").textContent = t("form.tutor_help", { points: setup.answer.tutor });
  }
}

/**
 * A thinking time in seconds read from the form, within the server's bounds; throws an Error saying what to correct.
 * @param {string} text
 * @returns {number}
 */
export function budgetOf(text) {
  const bounds = setup.answer ? setup.answer.budget : null;
  const value = Number(text.trim());
  if (!text.trim() || !Number.isFinite(value)) throw new Error(t("form.budget_number"));
  if (!bounds) return value;
  if (value === 0 && bounds.maximum === null) return value;
  if (value === 0) throw new Error(t("form.budget_no_unlimited", { max: seconds(bounds.maximum || 0) }));
  if (value < bounds.minimum) throw new Error(t("form.budget_at_least", { min: seconds(bounds.minimum), open: bounds.maximum === null ? t("form.budget_or_zero") : "" }));
  if (bounds.maximum !== null && value > bounds.maximum) throw new Error(t("form.budget_at_most", { max: seconds(bounds.maximum) }));
  return value;
}

/**
 * The thinking time chosen, or `undefined` for the level's own (the default, or the field left empty); throws an
 * Error saying what to correct.
 * @returns {number | undefined}
 */
export function chosenBudget() {
  const bounds = setup.answer ? setup.answer.budget : null;
  const text = inputEl("budget").value;
  if (!text.trim()) return undefined;
  const value = budgetOf(text);
  return bounds && value === bounds.default ? undefined : value;
}

/**
 * One option's row: a checkbox for a yes-or-no option, a whole number within its bounds for the others.
 * @param {OptionSetup} o
 */
function optionRow(o) {
  const id = `opt-${o.name}`;
  const input = h("input", { id, name: o.name, "data-option": o.name, "data-testid": `option-${o.name}` });
  if (typeof o.default === "boolean") {
    input.type = "checkbox";
    input.checked = o.default;
  } else {
    input.type = "number";
    input.inputMode = "numeric";
    input.step = "1";
    if (o.maximum > 0) {
      input.min = String(o.minimum);
      input.max = String(o.maximum);
    }
    input.value = String(o.default);
  }
  const label = h("label", { for: id, className: "option-name", text: o.label || humanise(o.name) });
  if (o.source) label.title = `Source: ${o.source}`;
  const row = h("div", { className: "option" }, input, label);
  if (o.description) {
    const desc = h("span", { className: "option-desc", id: `${id}-desc`, text: o.description });
    input.setAttribute("aria-describedby", desc.id);
    row.append(desc);
  }
  return row;
}

export function fillOptions() {
  const variant = currentVariant();
  const options = variant ? variant.options : [];
  $("options").replaceChildren(...options.map(optionRow));
  $("options-details").hidden = options.length === 0;
  $("options-count").textContent = variant && options.length ? t("form.options_count", { n: options.length, title: variant.title }) : "";
  const link = /** @type {HTMLAnchorElement} */ ($("rules-link"));
  link.hidden = !variant;
  if (variant) {
    link.href = guideHref(variant.name, "", lang);
    link.textContent = t("form.rules_of", { title: variant.title });
  }
}

/**
 * The options chosen that differ from the variant's defaults; throws an Error saying which is out of bounds.
 * @returns {Record<string, boolean | number>}
 */
export function chosenOptions() {
  const variant = currentVariant();
  /** @type {Record<string, boolean | number>} */
  const out = {};
  for (const o of variant ? variant.options : []) {
    const input = /** @type {HTMLInputElement | null} */ (document.getElementById(`opt-${o.name}`));
    if (!input) continue;
    let value;
    if (input.type === "checkbox") value = input.checked;
    else {
      const label = o.label || humanise(o.name);
      value = Number(input.value);
      if (!Number.isInteger(value)) throw new Error(t("form.whole", { label }));
      if (input.min !== "" && value < Number(input.min)) throw new Error(t("form.at_least", { label, n: input.min }));
      if (input.max !== "" && value > Number(input.max)) throw new Error(t("form.at_most", { label, n: input.max }));
    }
    if (value !== o.default) out[o.name] = value;
  }
  return out;
}
