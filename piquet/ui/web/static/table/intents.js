// @ts-check
// What the player asks for, as the drawing modules hear it: one way out of the drawing. A button, a card, a form
// drawn by render.js, prompt.js or dealend.js says what the player wants as an intent, and the page's controller
// (control.js, which main.js connects here) changes the state, sends to the server and draws again. So drawing
// reads the state and never sends or changes it, and the page's modules import one another without a cycle.

/** @typedef {import("./protocol.js").Action} Action */
/** @typedef {import("./protocol.js").Card} Card */

/**
 * What the player asks for.
 * @typedef {{type: "action", action: Action, confirm?: boolean}
 *   | {type: "join", name: string}
 *   | {type: "declare_for_me"}
 *   | {type: "select", cards: Card[]}
 *   | {type: "show_rest", on: boolean}
 *   | {type: "highlight", cards: Card[]}
 *   | {type: "go_on"}} Intent
 */

/** @type {((intent: Intent) => void) | null} */
let handler = null;

/**
 * Where intents go (the controller's, set once when the page starts).
 * @param {(intent: Intent) => void} handle
 */
export function onIntent(handle) {
  handler = handle;
}

/**
 * Say what the player asks for.
 * @param {Intent} intent
 */
export function intend(intent) {
  if (handler) handler(intent);
}
