// @ts-check
// The public rooms (GET /api/lobby, POST /api/tables/{id}/join; docs/protocol.md): the rooms a club's players
// listed, for anyone to join or watch, shown where the server lists them (its setup's `public_rooms`). The list is
// asked for again every few seconds while the page is seen; the server answers 304 when it has not changed (the
// browser sends the page's ETag back), and the rows are drawn again only when it has.

import { lang, t } from "../i18n.js";
import { tableHref } from "../site/mode.js";
import { store } from "../storage.js";
import { $, h } from "../table/dom.js";
import { keepSeat, serverReason, showError } from "./create.js";
import { inputEl } from "./form.js";
import { remember } from "./recent.js";
import { setup, variantNamed } from "./setup.js";

/** @typedef {import("../table/protocol.js").PublicRoom} PublicRoom */
/** @typedef {import("../table/protocol.js").LobbyPage} LobbyPage */
/** @typedef {import("../table/protocol.js").CreatedTable} CreatedTable */

/** Milliseconds between two askings of the list, while the page is seen. */
const POLL_MS = 3000;

const state = {
  page: 0,
  pages: 1,
  /** The ETag of the list drawn (the same again: nothing to draw). */
  etag: "",
  /** @type {number | undefined} */
  timer: undefined,
};

/**
 * A room's rule options changed from its variant's, in words ("Four deal partie", "Points to win: 150").
 * @param {PublicRoom} room
 */
function optionsText(room) {
  const variant = variantNamed(room.variant);
  return Object.entries(room.options).map(([name, value]) => {
    const option = variant && variant.name === room.variant ? variant.options.find((o) => o.name === name) : undefined;
    const label = option ? option.label : name;
    return typeof value === "boolean" ? (value ? label : t("lobby.room_option_off", { option: label })) : `${label}: ${value}`;
  }).join(", ");
}

/** @param {PublicRoom} room */
function title(room) {
  const variant = variantNamed(room.variant);
  return variant && variant.name === room.variant ? variant.title : room.variant;
}

/**
 * Take a public room's free seat under the form's name, keep the seat's secret, and go to the table.
 * @param {PublicRoom} room
 */
async function join(room) {
  showError("");
  const name = inputEl("name").value.trim();
  if (!name) {
    $("name").focus();
    showError(t("create.name"));
    return;
  }
  const res = await fetch(`/api/tables/${encodeURIComponent(room.id)}/join?lang=${encodeURIComponent(lang)}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ name }),
  });
  /** @type {unknown} */
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok || !data) {
    if (res.status === 409) showError(t("lobby.room_full"));
    else if (res.status === 410 || res.status === 404) showError(t("lobby.room_gone"));
    else showError(serverReason(data, res.status));
    refresh();
    return;
  }
  const joined = /** @type {CreatedTable} */ (data);
  keepSeat(joined);
  remember({ id: joined.id, title: title(room), kind: "room", at: Date.now() });
  location.assign(joined.links.play);
}

/**
 * Whether this browser holds a seat at the room (its creator's, or one joined before): it is opened, not joined.
 * @param {PublicRoom} room
 */
function seated(room) {
  try {
    return Boolean(JSON.parse(store.get(`piquet.table.${room.id}`) || "{}").token);
  } catch {
    return false;
  }
}

/** @param {PublicRoom} room */
function row(room) {
  const [creator, guest] = room.players;
  const waiting = room.status === "waiting";
  const mine = seated(room);
  const options = optionsText(room);
  return h("li", { className: "public-room", "data-testid": "public-room", "data-room": room.id },
    h("span", { className: "recent-what" },
      h("strong", { text: title(room) }),
      options ? h("span", { className: "muted", text: options }) : null,
      h("span", { text: guest ? t("lobby.room_players", { creator: creator || "?", guest }) : t("lobby.seat_free", { creator: creator || "?" }) }),
      h("span", { className: `recent-standing status-${room.status}`, "data-testid": "public-room-status",
        text: t(waiting ? "lobby.room_waiting" : "lobby.room_playing") })),
    h("span", { className: "public-room-actions" },
      mine ? h("a", { href: tableHref(room.id), className: "button primary", "data-testid": "open-room",
        text: t("lobby.your_seat") }) : null,
      waiting && !mine ? h("button", { type: "button", className: "primary", "data-testid": "join-room",
        text: t("lobby.join"), onclick: () => join(room) }) : null,
      mine ? null : h("a", { href: room.watch, className: "button", "data-testid": "watch-room", text: t("lobby.watch") })));
}

/** @param {LobbyPage} page */
function draw(page) {
  state.pages = page.pages;
  $("public-rooms").replaceChildren(...page.rooms.map(row));
  $("public-empty").hidden = page.rooms.length > 0;
  $("public-pages").hidden = page.pages <= 1;
  $("public-page").textContent = t("lobby.page_of", { n: page.page + 1, of: page.pages });
  /** @type {HTMLButtonElement} */ ($("public-prev")).disabled = page.page <= 0;
  /** @type {HTMLButtonElement} */ ($("public-next")).disabled = page.page + 1 >= page.pages;
}

/** Ask for the list's page now (and again in a few seconds while the page is seen). */
async function refresh() {
  window.clearTimeout(state.timer);
  try {
    const res = await fetch(`/api/lobby?page=${state.page}`, { cache: "no-cache", headers: { Accept: "application/json" } });
    const etag = res.headers.get("ETag") || "";
    if (res.ok && etag !== state.etag) {
      const page = /** @type {LobbyPage} */ (await res.json());
      if (page.page === state.page) {
        state.etag = etag;
        draw(page);
      }
    }
    $("public-rooms-panel").dataset.loaded = "1";
  } catch {
    // The server is away a moment: the list stays as it was, and is asked for again.
  }
  if (!document.hidden) state.timer = window.setTimeout(refresh, POLL_MS);
}

/** @param {number} step */
function turn(step) {
  state.page = Math.max(0, Math.min(state.pages - 1, state.page + step));
  state.etag = "";
  refresh();
}

/** Show the public rooms, and the form's choice to list a room, where the server lists them. */
export function showPublicRooms() {
  if (!setup.answer || !setup.answer.public_rooms) return;
  $("public-field").hidden = false;
  $("public-rooms-panel").hidden = false;
  $("public-prev").addEventListener("click", () => turn(-1));
  $("public-next").addEventListener("click", () => turn(1));
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refresh();
  });
  refresh();
}
