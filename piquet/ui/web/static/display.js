// @ts-check
// How this browser shows the cards, chosen in the lobby and remembered: a four-colour deck (diamonds blue,
// clubs green: no two suits share a colour) and a high-contrast table. Every page imports this module, which
// applies the choice to the document's root (data-deck, data-contrast) at once; style.css does the rest.
// Without a choice of its own, the high contrast follows the system's "more contrast" setting.

import { t } from "./i18n.js";
import { store } from "./storage.js";

/** The settings, each a yes-or-no kept in this browser. */
export const DISPLAY = {
  deck: { key: "piquet.fourColour", label: t("display.deck"), help: t("display.deck_help") },
  contrast: { key: "piquet.highContrast", label: t("display.contrast"), help: t("display.contrast_help") },
};

/** @param {keyof typeof DISPLAY} name @returns {boolean} */
export function displayOn(name) {
  const kept = store.get(DISPLAY[name].key);
  if (kept !== null) return kept === "1";
  return name === "contrast" && typeof matchMedia === "function" && matchMedia("(prefers-contrast: more)").matches;
}

/** Apply the settings to the document's root. @param {Document} [doc] */
export function applyDisplay(doc = document) {
  const root = doc.documentElement;
  root.dataset.deck = displayOn("deck") ? "four" : "two";
  root.dataset.contrast = displayOn("contrast") ? "high" : "normal";
}

/**
 * The settings as checkboxes, each kept and applied as soon as it changes.
 * @param {HTMLElement} container
 */
export function displayControls(container) {
  for (const name of /** @type {(keyof typeof DISPLAY)[]} */ (Object.keys(DISPLAY))) {
    const { key, label, help } = DISPLAY[name];
    const id = `display-${name}`;
    const row = document.createElement("div");
    row.className = "field";
    const input = document.createElement("input");
    input.type = "checkbox";
    input.id = id;
    input.dataset.testid = id;
    input.checked = displayOn(name);
    input.setAttribute("aria-describedby", `${id}-help`);
    input.addEventListener("change", () => {
      store.set(key, input.checked ? "1" : "0");
      applyDisplay();
    });
    const box = document.createElement("label");
    box.className = "check";
    box.append(input, document.createTextNode(label));
    const note = document.createElement("span");
    note.className = "help";
    note.id = `${id}-help`;
    note.textContent = help;
    row.append(box, note);
    container.append(row);
  }
}

applyDisplay();
// Another tab's choice is this one's too.
addEventListener("storage", () => applyDisplay());
