// @ts-check
// The tables this browser played or watched, as the lobby lists them (the table page writes the list).

import { t as say } from "../i18n.js";
import { tableHref } from "../site/mode.js";
import { store } from "../storage.js";
import { $, h } from "../table/dom.js";

/** A table this browser played or watched. */
/** @typedef {{id: string, title?: string, kind?: string, level?: number | null, watching?: boolean, at?: number}} Recent */

/** @returns {Recent[]} */
export function recentTables() {
  try {
    const list = JSON.parse(store.get("piquet.recent") || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** @param {Recent} entry */
export function remember(entry) {
  const list = recentTables().filter((t) => t.id !== entry.id);
  list.unshift(entry);
  store.set("piquet.recent", JSON.stringify(list.slice(0, 8)));
}

/** @param {Recent} t */
function describe(t) {
  const title = t.title || "Piquet";
  if (t.watching) return say("recent.watching", { title });
  if (t.kind === "room") return say("recent.room", { title });
  return t.level ? say("recent.computer", { title, n: t.level }) : title;
}

export function showRecent() {
  const list = recentTables();
  $("recent").replaceChildren(...list.map((t) => h("li", {},
    h("a", { href: tableHref(t.id), text: describe(t) }),
    h("span", {
      className: "muted",
      text: t.at ? new Date(t.at).toLocaleDateString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }) : "",
    }))));
  $("recent-panel").hidden = list.length === 0;
}
