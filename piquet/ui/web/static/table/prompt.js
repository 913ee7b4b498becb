// @ts-check
// The prompt: what this seat must decide now, as buttons, and the cards chosen in the hand.

import { cardSpan, isCard, prettyText, spokenText } from "../cards.js";
import { keepSelection } from "./dealend.js";
import { promptLink } from "./glossary.js";
import { $, h } from "./dom.js";
import { renderPending } from "./render.js";
import { store } from "../storage.js";
import { app, handOrder, names, rulesOf, seats } from "./state.js";
import { send, sendAction } from "./transport.js";
import { CATEGORY_WORDS, capitalize, numberWord } from "./words.js";

/** @typedef {import("./protocol.js").Action} Action */
/** @typedef {import("./protocol.js").Card} Card */
/** @typedef {import("./protocol.js").CarteBlancheAction} CarteBlancheAction */
/** @typedef {import("./protocol.js").ExchangePrompt} ExchangePrompt */
/** @typedef {import("./protocol.js").Rules} Rules */
/** @typedef {import("./protocol.js").StateMessage} StateMessage */
/** @typedef {import("./protocol.js").TableInfo} TableInfo */
/** @typedef {import("./protocol.js").View} View */

// ------------------------------------------------------------------ the prompt

/**
 * A button that sends its action; keys 1-9 choose the first nine.
 * @param {string} label
 * @param {Action} action
 * @param {number} index
 * @param {{value?: string | number | null, title?: string | null, className?: string, pretty?: boolean}} [options]
 */
export function choiceButton(label, action, index, { value = null, title = null, className = "", pretty = false } = {}) {
  const btn = h("button", {
    type: "button",
    className: "choice " + className,
    "data-testid": "choice",
    "data-value": value === null ? null : String(value),
    title,
  });
  // The key that chooses it, drawn by CSS (data-key), so the button's text is its label alone.
  if (index < 9) btn.dataset.key = String(index + 1);
  const text = h("span", { className: "choice-label" });
  text.append(pretty ? prettyText(label) : label);
  btn.append(text);
  if (pretty) btn.setAttribute("aria-label", spokenText(label));
  btn.addEventListener("click", () => sendAction(action));
  return btn;
}

/** @param {CarteBlancheAction} action */
export function carteBlancheLabel(action) {
  if (!action || typeof action !== "object") return String(action);
  if (action.carte_blanche === false) return "Do not announce it";
  if (action.will_exchange !== undefined && action.will_exchange !== null) {
    return `Announce it, and exchange ${action.will_exchange}`;
  }
  return "Announce it";
}

/** @param {string} call */
export function bidTitle(call) {
  const m = /^(\d+)([+-])$/.exec(call);
  /** @type {Record<string, string>} */
  const words = { pass: "Pass", double: "Double the last bid", redouble: "Redouble" };
  if (!m) return words[call] || call;
  return `Bid ${m[1]} ${m[2] === "+" ? "plus: to win" : "minus: to lose"} ${m[1]} tricks`;
}

/**
 * The tricks a first bid may contract for, from the calls offered: "7 to 12".
 * @param {string[]} calls
 */
export function callRange(calls) {
  const tricks = calls.filter((c) => /^\d+[+-]$/.test(c)).map((c) => parseInt(c, 10));
  return tricks.length ? `${Math.min(...tricks)} to ${Math.max(...tricks)}` : "";
}

/**
 * The opponent's last words, when the prompt answers them.
 * @param {StateMessage} st
 */
export function lastSpeech(st) {
  const log = (st.view && st.view.log) || [];
  const { seat } = seats(st);
  for (let i = log.length - 1; i >= 0; i -= 1) {
    const e = log[i];
    if (e.kind === "say") return e.speaker !== seat ? e : null;
    if (e.kind === "play") return null;
  }
  return null;
}

/**
 * Draw the prompt (rebuilt only when the state's version, the prompt or the table's status changes).
 * @param {StateMessage} st
 */
export function renderPrompt(st) {
  const el = $("prompt");
  const p = st.prompt;
  const key = JSON.stringify([st.version, p, st.table && st.table.status]);
  if (app.keys.prompt === key) return;
  app.keys.prompt = key;
  app.highlight = new Set();
  el.replaceChildren();
  el.dataset.kind = p ? p.kind : "";
  el.classList.toggle("active", !!p);
  if (!p) {
    el.append(h("p", { className: "prompt-idle", text: idleText(st) }));
    // The last deal: a player who cannot save his rubicon may concede before the first card, in turn or not.
    if (st.can_concede) el.append(concedeButton(rulesOf(st)));
    return;
  }
  const n = names(st);
  const { me, opp } = seats(st);
  const title = h("p", { className: "prompt-title" });
  const choices = h("div", { className: "choices" });
  const extra = h("div", { className: "prompt-extra" });
  let i = 0;
  switch (p.kind) {
    case "choose_dealer":
      title.textContent = "You cut the higher card: choose who deals first.";
      for (const o of p.options || []) {
        choices.append(choiceButton(o === me ? "I deal first" : `${n[o]} deals first`, { choose_dealer: o }, i++, { value: o }));
      }
      extra.append(h("p", { className: "prompt-note", text: "Cavendish advises dealing first." }));
      break;
    case "packets":
      title.textContent = `You deal: in packets of ${(p.options || []).map(numberWord).join(" or of ")} (the same in all your deals).`;
      for (const o of p.options || []) {
        choices.append(choiceButton(`Packets of ${o}`, { packets: o }, i++, { value: o }));
      }
      break;
    case "bid": {
      const bids = (st.view && st.view.bids) || [];
      title.textContent = bids.length
        ? "The auction so far: " + bids.map((b) => `${n[b.player]} ${b.call}`).join(", ") + ". Your call:"
        : `You bid first: the tricks you contract to win (+) or to lose (−), ${callRange(p.options || [])}.`;
      const options = p.options || [];
      const special = options.filter((c) => !/^\d+[+-]$/.test(c));
      const plus = options.filter((c) => /^\d+\+$/.test(c));
      const minus = options.filter((c) => /^\d+-$/.test(c));
      const row = (/** @type {string[]} */ list, /** @type {string} */ cls) => {
        if (!list.length) return;
        const r = h("div", { className: "choice-row " + cls });
        for (const c of list) {
          const label = /^\d/.test(c) ? c.replace("-", "−") : capitalize(c);
          r.append(choiceButton(label, { bid: c }, i++, { value: c, title: bidTitle(c), className: "bid" }));
        }
        choices.append(r);
      };
      row(plus, "plus");
      row(minus, "minus");
      row(special, "special");
      break;
    }
    case "carte_blanche":
      title.textContent = `You hold no king, queen or knave: carte blanche, worth ${rulesOf(st).carte_blanche_points}.`;
      for (const o of p.options || []) {
        const action = o && "action" in o && o.action ? o.action : /** @type {CarteBlancheAction} */ (o);
        const label = o && "label" in o && o.label ? o.label : carteBlancheLabel(action);
        const value = action.carte_blanche === false ? "no" : action.will_exchange ?? "yes";
        choices.append(choiceButton(label, action, i++, { value }));
      }
      break;
    case "exchange":
      buildExchange(p, title, choices, extra);
      break;
    case "declare": {
      const said = lastSpeech(st);
      const cat = CATEGORY_WORDS[p.category] || p.category;
      if (said && !p.elder) {
        title.append(h("span", { className: "quote" }, `${n[said.speaker]}: “`, prettyText(said.text), "” "));
      }
      title.append(p.elder ? `Declare your ${cat}:` : `Your answer, ${cat}:`);
      (p.options || []).forEach((o, idx) => {
        const btn = choiceButton(o.label, o.action, i++, { value: idx, pretty: true, className: "declare" });
        const cards = new Set(((o.action && o.action.combinations) || []).flat());
        const on = () => setHighlight(cards);
        const off = () => setHighlight(new Set());
        btn.addEventListener("mouseenter", on);
        btn.addEventListener("focus", on);
        btn.addEventListener("mouseleave", off);
        btn.addEventListener("blur", off);
        choices.append(btn);
      });
      if (p.in_full_only) extra.append(h("p", { className: "prompt-note", text: "In a minus contract nothing may be sunk: you declare your best and show every other." }));
      extra.append(h("button", {
        type: "button",
        className: "secondary",
        "data-testid": "declare-for-me",
        text: "Declare for me",
        title: "Declare as the strongest computer player would",
        onclick: () => {
          if (app.pending || !app.state || !app.state.prompt) return;
          if (send({ type: "hint" })) {
            app.autoHintVersion = app.state.version;
            app.hintWaiting = true;
          }
        },
      }));
      break;
    }
    case "play": {
      const trick = (st.view && st.view.trick) || [];
      const cards = p.cards || [];
      if (trick.length) {
        title.append(`${n[opp]} led `, cardSpan(trick[0]), ": ");
      } else {
        title.append("Your lead: ");
      }
      title.append(cards.length === 1 ? "your only card is " : "click a card to play it", cards.length === 1 ? cardSpan(cards[0]) : "");
      if (cards.length === 1 && !p.concede && /** @type {HTMLInputElement} */ ($("auto-play")).checked) title.append(" (playing it…)");
      if (p.concede) extra.append(concedeButton(rulesOf(st)));
      break;
    }
    case "concession": {
      const rules = rulesOf(st);
      title.textContent = `${n[opp]} concedes: you may count ${rules.conceded_play} for the play and ${rules.cards_points} for the cards, or decline and play on for a capot.`;
      for (const o of p.options || []) {
        const label = o.accept_concession ? `Accept: count ${rules.conceded_play} and ${rules.cards_points}` : "Decline: play on";
        choices.append(choiceButton(label, o, i++, { value: o.accept_concession ? "accept" : "decline" }));
      }
      break;
    }
    default: {
      // A prompt of a kind this page does not know: its options as they come.
      const q = /** @type {{kind: string, options?: any[]}} */ (/** @type {unknown} */ (p));
      title.textContent = `The server asks for a decision this page does not know (${q.kind}).`;
      for (const o of q.options || []) {
        const action = o && o.action ? o.action : o;
        choices.append(choiceButton(o && o.label ? o.label : JSON.stringify(action), action, i++));
      }
    }
  }
  const help = promptLink(p, st.table && st.table.variant);
  if (help) title.append(" ", help);
  el.append(title);
  if (choices.childElementCount) el.append(choices);
  if (extra.childElementCount) el.append(extra);
}

/**
 * Concede the partie (the opponent counts the play and the cards, as the rules say).
 * @param {Rules} rules
 */
export function concedeButton(rules) {
  return h("div", { className: "concede" },
    h("button", {
      type: "button",
      className: "danger",
      "data-testid": "concede",
      text: "Concede",
      title: `Concede the partie: your opponent counts ${rules.conceded_play} for play and ${rules.cards_points} for the cards`,
      onclick: () => {
        if (confirm(`Concede the partie? Your opponent scores ${rules.conceded_play} for play and ${rules.cards_points} for the cards.`)) sendAction({ concede: true });
      },
    }),
    h("p", { className: "prompt-note", text: "You cannot save the rubicon: you may concede before the first card is played." }));
}

/** @param {StateMessage} st */
export function idleText(st) {
  const table = st.table || /** @type {Partial<TableInfo>} */ ({});
  const v = st.view || /** @type {Partial<View>} */ ({});
  const { seat } = seats(st);
  if (table.status === "over") return "The partie is over.";
  if (table.status === "waiting") return "";
  if (seat === null) return "You are watching this table.";
  if (v.to_act === 0 || v.to_act === 1) {
    return st.computer === v.to_act ? `${names(st)[v.to_act]} is thinking…` : `${names(st)[v.to_act]} to act…`;
  }
  return "";
}

/** @param {Set<Card>} cards */
export function setHighlight(cards) {
  app.highlight = cards;
  for (const el of /** @type {NodeListOf<HTMLElement>} */ ($("hand").querySelectorAll("[data-card]"))) el.classList.toggle("hl", cards.has(el.dataset.card || ""));
}

/**
 * The exchange: a counter, the button that sends the cards selected in the hand, advice.
 * @param {ExchangePrompt} p
 * @param {HTMLElement} title
 * @param {HTMLElement} choices
 * @param {HTMLElement} extra
 */
export function buildExchange(p, title, choices, extra) {
  const lo = p.min ?? 0;
  const hi = p.max ?? 0;
  const span = lo === hi ? `${lo}` : `${lo} to ${hi}`;
  title.textContent = `${p.younger ? "You are younger" : "You are elder"}: choose ${span} card${hi === 1 ? "" : "s"} to discard; you draw as many from the talon.`;
  const counter = h("span", { className: "counter", id: "exchange-count", "data-testid": "exchange-count", "aria-live": "polite" });
  const confirmBtn = h("button", {
    type: "button",
    id: "confirm-exchange",
    className: "primary",
    "data-testid": "confirm-exchange",
    text: "Exchange",
    onclick: () => {
      const n = app.selection.size;
      if (n < lo || n > hi) return;
      // Younger may show the rest only if she leaves some of the talon (Law 36).
      const leaves = (p.max ?? 0) - app.selection.size > 0;
      const action = { exchange: [...app.selection].sort(handOrder),
                       show_rest: !!(p.may_show_rest && app.showRest && leaves) };
      sendAction(action);
    },
  });
  const suggest = h("button", {
    type: "button",
    className: "secondary",
    "data-testid": "suggest",
    text: "Suggest",
    title: "Select the cards the computer would discard",
    disabled: !(p.advice && p.advice.length) && !(lo === 0 && p.advice),
    onclick: () => {
      app.selection = new Set(p.advice || []);
      refreshSelection();
    },
  });
  const clear = h("button", {
    type: "button",
    className: "secondary",
    "data-testid": "clear-selection",
    text: "Clear",
    onclick: () => {
      app.selection = new Set();
      refreshSelection();
    },
  });
  // Advice is given at a table against the computer only (two people play on their own).
  const bar = p.advice == null
    ? h("div", { className: "exchange-bar" }, counter, confirmBtn, clear)
    : h("div", { className: "exchange-bar" }, counter, confirmBtn, suggest, clear);
  choices.append(bar);
  if (p.may_show_rest) {
    const box = h("input", { type: "checkbox", id: "show-rest", "data-testid": "show-rest", checked: app.showRest });
    box.addEventListener("change", () => {
      app.showRest = box.checked;
    });
    extra.append(h("label", { className: "check", for: "show-rest" }, box,
      h("span", {}, "Show the rest of the talon to both after elder leads", h("span", { className: "left-note", id: "left-note" }))));
  }
}

export function refreshSelection() {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ ($("hand").querySelectorAll("[data-card]"))) {
    const on = app.selection.has(el.dataset.card || "");
    el.classList.toggle("selected", on);
    if (el.getAttribute("role") === "button") el.setAttribute("aria-pressed", on ? "true" : "false");
  }
  keepSelection();
  updateExchangeControls();
}

export function updateExchangeControls() {
  const st = app.state;
  const p = st && st.prompt;
  if (!p || p.kind !== "exchange") return;
  const n = app.selection.size;
  const lo = p.min ?? 0;
  const hi = p.max ?? 0;
  const counter = $("exchange-count");
  if (counter) counter.textContent = `${n} selected (${lo === hi ? lo : `${lo}-${hi}`})`;
  const btn = /** @type {HTMLButtonElement | null} */ (document.getElementById("confirm-exchange"));
  if (btn) {
    btn.disabled = app.pending || n < lo || n > hi;
    if (n === 0 && lo === 0) {
      btn.textContent = "Stand pat";
      btn.setAttribute("aria-label", "Exchange no cards (stand pat)");
    } else {
      btn.textContent = n ? `Exchange ${n}` : "Exchange";
      btn.setAttribute("aria-label", n ? `Exchange ${n} card${n === 1 ? "" : "s"}` : "Exchange");
    }
  }
  const note = $("left-note");
  if (note) {
    const left = (p.max ?? 0) - n;
    note.textContent = left > 0 ? ` (${left} card${left === 1 ? "" : "s"} will be left)` : " (none will be left)";
  }
  const box = /** @type {HTMLInputElement | null} */ (document.getElementById("show-rest"));
  if (box) box.disabled = (p.max ?? 0) - n <= 0;
}

/**
 * A card of the hand clicked (or chosen by key): select it for the exchange, or play it.
 * @param {unknown} code
 */
export function activateCard(code) {
  const st = app.state;
  if (!st || app.pending || !app.connected || !isCard(code)) return;
  const p = st.prompt;
  if (!p) return;
  if (p.kind === "exchange") {
    if (app.selection.has(code)) app.selection.delete(code);
    else app.selection.add(code);
    refreshSelection();
  } else if (p.kind === "play" && (p.cards || []).includes(code)) {
    sendAction({ play: code });
  }
}

/**
 * A forced card (the only legal one, no concession) is played by itself after a short
 * pause when the toggle is on. Until then the page counts as busy: body data-prompt is ""
 * and data-pending "1", as after an action sent, so nothing else answers that prompt.
 */
/**
 * Whether this player's declarations are made for him in full ("Declare my best", the table's top bar): his
 * choice, kept in this browser; until he makes it, on against the computer and off in a room.
 */
export function declaresBest() {
  const kept = store.get("piquet.declareBest");
  if (kept !== null) return kept === "1";
  return !!app.state && !!app.state.table && app.state.table.kind === "computer";
}

/**
 * The action the page makes by itself at this prompt, if any: a card that is the only one the law allows
 * ("Play forced cards automatically"), a declaration where the menu holds one choice (nothing held, or a
 * minus contract's declaration in full), and, with "Declare my best", the full declaration (the menu's first).
 * @param {StateMessage["prompt"] | null | undefined} p
 * @returns {Action | null}
 */
function automatic(p) {
  if (!p) return null;
  if (p.kind === "play") {
    const forced = Array.isArray(p.cards) && p.cards.length === 1 && !p.concede;
    return forced && /** @type {HTMLInputElement} */ ($("auto-play")).checked ? { play: p.cards[0] } : null;
  }
  if (p.kind === "declare") {
    const options = p.options || [];
    if (options.length === 1 || (options.length && declaresBest())) return options[0].action;
  }
  return null;
}

/** Make the page's own action at this prompt (above), after a moment in which the player sees it. */
export function scheduleForcedPlay() {
  const st = app.state;
  const p = st && st.prompt;
  const action = automatic(p);
  if (!st || !p || !action) {
    if (app.autoTimer) {
      clearTimeout(app.autoTimer ?? undefined);
      app.autoTimer = null;
    }
    app.autoPlaying = false;
    return;
  }
  if (app.pending || app.autoVersion === st.version) return;
  app.autoVersion = st.version;
  app.autoPlaying = true;
  const version = st.version;
  const kind = p.kind;
  clearTimeout(app.autoTimer ?? undefined);
  app.autoTimer = setTimeout(() => {
    app.autoTimer = null;
    app.autoPlaying = false;
    const now = app.state;
    if (!now || now.version !== version || !now.prompt || now.prompt.kind !== kind || app.pending || !app.connected) {
      renderPending();
      return;
    }
    sendAction(action);
    renderPending();
  }, kind === "declare" ? 500 : 300);
}
