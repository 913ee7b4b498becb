// @ts-check
// The tables this browser played or watched, as the lobby lists them (the table page writes the list).

import { t as say } from "../i18n.js";
import { tableHref } from "../site/mode.js";
import { store } from "../storage.js";
import { $, h } from "../table/dom.js";

/**
 * A table this browser played or watched, with its status and score as the table page last saw them (`score`: the
 * points of the partie, or where the rules play games, `games`, the games won; `winner` once it is over, null if drawn).
 * @typedef {{id: string, title?: string, kind?: string, level?: number | null, watching?: boolean, at?: number,
 *   status?: string, players?: string[], score?: number[] | null, games?: boolean, deal?: number,
 *   winner?: number | null}} Recent
 */

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

/**
 * The table's status and score, as last seen: waiting for a guest; in play, at which deal, and the score; over, who
 * won (or drawn) and the final score. Empty for an entry written before the lobby kept them.
 * @param {Recent} t
 */
export function standing(t) {
  if (!t.status) return "";
  if (t.status === "waiting") return say("recent.waiting");
  const players = t.players || [];
  const score = t.score && t.score.length === 2 && players.length === 2
    ? say(t.games ? "recent.games" : "recent.score", { a: players[0], x: t.score[0], b: players[1], y: t.score[1] })
    : "";
  if (t.status === "over") {
    const result = t.winner === 0 || t.winner === 1 ? say("recent.won", { name: players[t.winner] || "?" }) : say("recent.drawn");
    return score ? say("recent.with_score", { status: result, score }) : result;
  }
  const status = t.deal ? say("recent.deal", { n: t.deal }) : say("recent.playing");
  return score ? say("recent.with_score", { status, score }) : status;
}

export function showRecent() {
  const list = recentTables();
  $("recent").replaceChildren(...list.map((t) => {
    const line = standing(t);
    return h("li", { "data-testid": "recent-table" },
      h("span", { className: "recent-what" },
        h("a", { href: tableHref(t.id), text: describe(t) }),
        line ? h("span", { className: `recent-standing status-${t.status || "unknown"}`, "data-testid": "recent-standing", text: line }) : null),
      h("span", {
        className: "muted",
        text: t.at ? new Date(t.at).toLocaleDateString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }) : "",
      }));
  }));
  $("recent-panel").hidden = list.length === 0;
}
