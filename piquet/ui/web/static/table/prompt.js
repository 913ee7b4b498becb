// @ts-check
// The prompt: what this seat must decide now, as buttons, and the cards chosen in the hand.

import { cardSpan, isCard, prettyText, spokenText } from "../cards.js";
import { keepSelection } from "./dealend.js";
import { promptLink } from "./glossary.js";
import { $, h } from "./dom.js";
import { renderPending } from "./render.js";
import { app, declaresBest, handOrder, names, rulesOf, seats } from "./state.js";
import { send, sendAction } from "./transport.js";
import { t } from "../i18n.js";
import { numberWord } from "./words.js";

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
  if (action.carte_blanche === false) return t("cb.no");
  if (action.will_exchange !== undefined && action.will_exchange !== null) {
    return t("cb.exchange", { n: action.will_exchange });
  }
  return t("cb.yes");
}

/** @param {string} call */
export function bidTitle(call) {
  const m = /^(\d+)([+-])$/.exec(call);
  /** @type {Record<string, string>} */
  const words = { pass: t("bid.pass"), double: t("bid.double"), redouble: t("bid.redouble") };
  if (!m) return words[call] || call;
  return t(m[2] === "+" ? "bid.plus" : "bid.minus", { n: m[1] });
}

/**
 * The tricks a first bid may contract for, from the calls offered: "7 to 12".
 * @param {string[]} calls
 */
export function callRange(calls) {
  const tricks = calls.filter((c) => /^\d+[+-]$/.test(c)).map((c) => parseInt(c, 10));
  return tricks.length ? t("bid.range", { min: Math.min(...tricks), max: Math.max(...tricks) }) : "";
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
      title.textContent = t("dealer.title");
      for (const o of p.options || []) {
        choices.append(choiceButton(o === me ? t("dealer.me") : t("dealer.other", { name: n[o] }), { choose_dealer: o }, i++, { value: o }));
      }
      extra.append(h("p", { className: "prompt-note", text: t("dealer.advice") }));
      break;
    case "packets":
      title.textContent = t("packets.title", { sizes: (p.options || []).map(numberWord).join(t("packets.or_of")) });
      for (const o of p.options || []) {
        choices.append(choiceButton(t("packets.choice", { n: o }), { packets: o }, i++, { value: o }));
      }
      break;
    case "bid": {
      const bids = (st.view && st.view.bids) || [];
      title.textContent = bids.length
        ? t("bid.so_far", { calls: bids.map((b) => `${n[b.player]} ${b.call}`).join(", ") })
        : t("bid.first", { range: callRange(p.options || []) });
      const options = p.options || [];
      const special = options.filter((c) => !/^\d+[+-]$/.test(c));
      const plus = options.filter((c) => /^\d+\+$/.test(c));
      const minus = options.filter((c) => /^\d+-$/.test(c));
      const row = (/** @type {string[]} */ list, /** @type {string} */ cls) => {
        if (!list.length) return;
        const r = h("div", { className: "choice-row " + cls });
        for (const c of list) {
          const label = /^\d/.test(c) ? c.replace("-", "−") : t(`bid.word.${c}`);
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
      title.textContent = t("cb.title", { n: rulesOf(st).carte_blanche_points });
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
      if (said && !p.elder) {
        title.append(h("span", { className: "quote" }, `${n[said.speaker]}: “`, prettyText(said.text), "” "));
      }
      title.append(t(`${p.elder ? "declare" : "answer"}.title.${p.category}`));
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
      if (p.in_full_only) extra.append(h("p", { className: "prompt-note", text: t("declare.in_full") }));
      if (st.can_hint) extra.append(h("button", {
        type: "button",
        className: "secondary",
        "data-testid": "declare-for-me",
        text: t("declare.for_me"),
        title: t("declare.for_me_title"),
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
        title.append(t("play.led", { name: n[opp] }), cardSpan(trick[0]), ": ");
      } else {
        title.append(t("play.your_lead"));
      }
      title.append(cards.length === 1 ? t("play.only") : t("play.click"), cards.length === 1 ? cardSpan(cards[0]) : "");
      if (cards.length === 1 && !p.concede && /** @type {HTMLInputElement} */ ($("auto-play")).checked) title.append(t("play.playing"));
      if (p.concede) extra.append(concedeButton(rulesOf(st)));
      break;
    }
    case "concession": {
      const rules = rulesOf(st);
      title.textContent = t("concession.title", { name: n[opp], play: rules.conceded_play, cards: rules.cards_points });
      for (const o of p.options || []) {
        const label = o.accept_concession ? t("concession.accept", { play: rules.conceded_play, cards: rules.cards_points }) : t("concession.decline");
        choices.append(choiceButton(label, o, i++, { value: o.accept_concession ? "accept" : "decline" }));
      }
      break;
    }
    default: {
      // A prompt of a kind this page does not know: its options as they come.
      const q = /** @type {{kind: string, options?: any[]}} */ (/** @type {unknown} */ (p));
      title.textContent = t("prompt.unknown", { kind: q.kind });
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
      text: t("concede.button"),
      title: t("concede.title", { play: rules.conceded_play, cards: rules.cards_points }),
      onclick: () => {
        if (confirm(t("concede.confirm", { play: rules.conceded_play, cards: rules.cards_points }))) sendAction({ concede: true });
      },
    }),
    h("p", { className: "prompt-note", text: t("concede.note") }));
}

/** @param {StateMessage} st */
export function idleText(st) {
  const table = st.table || /** @type {Partial<TableInfo>} */ ({});
  const v = st.view || /** @type {Partial<View>} */ ({});
  const { seat } = seats(st);
  if (table.status === "over") return t("status.over");
  if (table.status === "waiting") return "";
  if (seat === null) return t("idle.watching");
  if (v.to_act === 0 || v.to_act === 1) {
    return st.computer === v.to_act ? t("status.thinking", { name: names(st)[v.to_act] }) : t("idle.to_act", { name: names(st)[v.to_act] });
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
  const span = lo === hi ? `${lo}` : t("exchange.span", { lo, hi });
  title.textContent = t(`exchange.${p.younger ? "younger" : "elder"}_${hi === 1 ? "one" : "many"}`, { span });
  const counter = h("span", { className: "counter", id: "exchange-count", "data-testid": "exchange-count", "aria-live": "polite" });
  const confirmBtn = h("button", {
    type: "button",
    id: "confirm-exchange",
    className: "primary",
    "data-testid": "confirm-exchange",
    text: t("exchange.button"),
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
    text: t("exchange.suggest"),
    title: t("exchange.suggest_title"),
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
    text: t("exchange.clear"),
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
      h("span", {}, t("exchange.show_rest"), h("span", { className: "left-note", id: "left-note" }))));
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
  if (counter) counter.textContent = t("exchange.selected", { n, range: lo === hi ? lo : `${lo}-${hi}` });
  const btn = /** @type {HTMLButtonElement | null} */ (document.getElementById("confirm-exchange"));
  if (btn) {
    btn.disabled = app.pending || n < lo || n > hi;
    if (n === 0 && lo === 0) {
      btn.textContent = t("exchange.stand_pat");
      btn.setAttribute("aria-label", t("exchange.stand_pat_label"));
    } else {
      btn.textContent = n ? t("exchange.n", { n }) : t("exchange.button");
      btn.setAttribute("aria-label", n ? t(n === 1 ? "exchange.n_one" : "exchange.n_many", { n }) : t("exchange.button"));
    }
  }
  const note = $("left-note");
  if (note) {
    const left = (p.max ?? 0) - n;
    note.textContent = left > 0 ? t(left === 1 ? "exchange.left_one" : "exchange.left_many", { n: left }) : t("exchange.left_none");
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
