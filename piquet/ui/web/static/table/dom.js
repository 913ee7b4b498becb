// @ts-check
// Small helpers on the document: find an element, make one, links.

import { t } from "../i18n.js";

/**
 * The page's element with this id (the page's HTML holds every id the scripts ask for by this).
 * @param {string} id
 * @returns {HTMLElement}
 */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** What h() takes as children: nodes, text, nothing (null, undefined, false), or lists of them. */
/** @typedef {Node | string | number | boolean | null | undefined} Leaf */
/** @typedef {Leaf | Leaf[]} Child */

/**
 * Create an element: h("p", {className: "x", "data-testid": "y"}, "text", child).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "className") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k in el && typeof v !== "string") /** @type {any} */ (el)[k] = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

/** @param {string} url */
export function absolute(url) {
  try {
    return new URL(url, location.origin).href;
  } catch {
    return url;
  }
}

/**
 * Copy a link's address; the button says whether it worked.
 * @param {HTMLAnchorElement} a
 * @param {HTMLElement | null} [button]
 */
export async function copyLink(a, button) {
  const text = a.href || a.textContent || "";
  let ok = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      ok = true;
    }
  } catch {
    ok = false;
  }
  if (!ok) {
    const ta = h("textarea", { className: "offscreen", readOnly: true });
    ta.value = text;
    document.body.append(ta);
    ta.select();
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    ta.remove();
  }
  if (button) {
    const old = button.dataset.label || button.textContent || "";
    button.dataset.label = old;
    button.textContent = ok ? t("copy.done") : t("copy.select");
    setTimeout(() => {
      button.textContent = old;
    }, 1600);
  }
  if (!ok) {
    const range = document.createRange();
    range.selectNodeContents(a);
    const sel = getSelection();
    sel?.removeAllRanges();
    sel?.addRange(range);
  }
}
