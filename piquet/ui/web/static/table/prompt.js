// @ts-check
// The prompt: what this seat must decide now, as buttons, and the cards chosen in the hand. Each kind of prompt
// has its builder (BUILDERS); what the player chooses goes out as an intent (intents.js).

import { cardSpan, prettyText, spokenText } from "../cards.js";
import { promptLink } from "./glossary.js";
import { $, h } from "./dom.js";
import { intend } from "./intents.js";
import { app, handOrder, names, rulesOf, seats } from "./state.js";
import { plural, t } from "../i18n.js";
import { numberWord } from "./words.js";

/** @typedef {import("./protocol.js").Action} Action */
/** @typedef {import("./protocol.js").Card} Card */
/** @typedef {import("./protocol.js").CarteBlancheAction} CarteBlancheAction */
/** @typedef {import("./protocol.js").BidPrompt} BidPrompt */
/** @typedef {import("./protocol.js").CarteBlanchePrompt} CarteBlanchePrompt */
/** @typedef {import("./protocol.js").ChooseDealerPrompt} ChooseDealerPrompt */
/** @typedef {import("./protocol.js").ConcessionPrompt} ConcessionPrompt */
/** @typedef {import("./protocol.js").DeclarePrompt} DeclarePrompt */
/** @typedef {import("./protocol.js").ExchangePrompt} ExchangePrompt */
/** @typedef {import("./protocol.js").PacketsPrompt} PacketsPrompt */
/** @typedef {import("./protocol.js").PlayPrompt} PlayPrompt */
/** @typedef {import("./protocol.js").Prompt} Prompt */
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
  btn.addEventListener("click", () => intend({ type: "action", action }));
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
 * What a prompt's builder draws into: the title, the choices, the notes and extras below them; the players' names,
 * this page's seats; and the next choice button (numbered for the keys 1-9 in the order they are made).
 * @typedef {object} PromptParts
 * @property {HTMLElement} title
 * @property {HTMLElement} choices
 * @property {HTMLElement} extra
 * @property {string[]} n
 * @property {0 | 1} me
 * @property {0 | 1} opp
 * @property {(label: string, action: Action, options?: Parameters<typeof choiceButton>[3]) => HTMLButtonElement} button
 */
/**
 * A prompt's builder.
 * @template {Prompt} P
 * @typedef {(p: P, st: StateMessage, parts: PromptParts) => void} Builder
 */

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
  el.replaceChildren();
  el.dataset.kind = p ? p.kind : "";
  el.classList.toggle("active", !!p);
  if (!p) {
    el.append(h("p", { className: "prompt-idle", text: idleText(st) }));
    // The last deal: a player who cannot save his rubicon may concede before the first card, in turn or not.
    if (st.can_concede) el.append(concedeButton(rulesOf(st)));
    return;
  }
  let i = 0;
  /** @type {PromptParts} */
  const parts = {
    title: h("p", { className: "prompt-title" }),
    choices: h("div", { className: "choices" }),
    extra: h("div", { className: "prompt-extra" }),
    n: names(st),
    ...seats(st),
    button: (label, action, options) => choiceButton(label, action, i++, options),
  };
  const build = /** @type {Builder<Prompt> | undefined} */ (BUILDERS[p.kind]);
  (build || unknownPrompt)(p, st, parts);
  const { title, choices, extra } = parts;
  const help = promptLink(p, st.table && st.table.variant);
  if (help) title.append(" ", help);
  el.append(title);
  if (choices.childElementCount) el.append(choices);
  if (extra.childElementCount) el.append(extra);
}

/** @type {Builder<ChooseDealerPrompt>} */
function chooseDealer(p, _st, { title, choices, extra, n, me, button }) {
  title.textContent = t("dealer.title");
  for (const o of p.options || []) {
    choices.append(button(o === me ? t("dealer.me") : t("dealer.other", { name: n[o] }), { choose_dealer: o }, { value: o }));
  }
  extra.append(h("p", { className: "prompt-note", text: t("dealer.advice") }));
}

/** @type {Builder<PacketsPrompt>} */
function packets(p, _st, { title, choices, button }) {
  title.textContent = t("packets.title", { sizes: (p.options || []).map(numberWord).join(t("packets.or_of")) });
  for (const o of p.options || []) choices.append(button(t("packets.choice", { n: o }), { packets: o }, { value: o }));
}

/** @type {Builder<BidPrompt>} */
function bid(p, st, { title, choices, n, button }) {
  const bids = (st.view && st.view.bids) || [];
  title.textContent = bids.length
    ? t("bid.so_far", { calls: bids.map((b) => `${n[b.player]} ${b.call}`).join(", ") })
    : t("bid.first", { range: callRange(p.options || []) });
  const options = p.options || [];
  const row = (/** @type {string[]} */ list, /** @type {string} */ cls) => {
    if (!list.length) return;
    const r = h("div", { className: "choice-row " + cls });
    for (const c of list) {
      const label = /^\d/.test(c) ? c.replace("-", "−") : t(`bid.word.${c}`);
      r.append(button(label, { bid: c }, { value: c, title: bidTitle(c), className: "bid" }));
    }
    choices.append(r);
  };
  row(options.filter((c) => /^\d+\+$/.test(c)), "plus");
  row(options.filter((c) => /^\d+-$/.test(c)), "minus");
  row(options.filter((c) => !/^\d+[+-]$/.test(c)), "special");
}

/** @type {Builder<CarteBlanchePrompt>} */
function carteBlanche(p, st, { title, choices, button }) {
  title.textContent = t("cb.title", { n: rulesOf(st).carte_blanche_points });
  for (const o of p.options || []) {
    const action = o && "action" in o && o.action ? o.action : /** @type {CarteBlancheAction} */ (o);
    const label = o && "label" in o && o.label ? o.label : carteBlancheLabel(action);
    const value = action.carte_blanche === false ? "no" : action.will_exchange ?? "yes";
    choices.append(button(label, action, { value }));
  }
}

/** @type {Builder<DeclarePrompt>} */
function declare(p, st, { title, choices, extra, n, button }) {
  const said = lastSpeech(st);
  if (said && !p.elder) {
    title.append(h("span", { className: "quote" }, `${n[said.speaker]}: “`, prettyText(said.text), "” "));
  }
  title.append(t(`${p.elder ? "declare" : "answer"}.title.${p.category}`));
  (p.options || []).forEach((o, idx) => {
    const btn = button(o.label, o.action, { value: idx, pretty: true, className: "declare" });
    const cards = ((o.action && o.action.combinations) || []).flat();
    const on = () => intend({ type: "highlight", cards });
    const off = () => intend({ type: "highlight", cards: [] });
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
    onclick: () => intend({ type: "declare_for_me" }),
  }));
}

/** @type {Builder<PlayPrompt>} */
function play(p, st, { title, extra, n, opp }) {
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
}

/** @type {Builder<ConcessionPrompt>} */
function concession(p, st, { title, choices, opp, n, button }) {
  const rules = rulesOf(st);
  title.textContent = t("concession.title", { name: n[opp], play: rules.conceded_play, cards: rules.cards_points });
  for (const o of p.options || []) {
    const label = o.accept_concession ? t("concession.accept", { play: rules.conceded_play, cards: rules.cards_points }) : t("concession.decline");
    choices.append(button(label, o, { value: o.accept_concession ? "accept" : "decline" }));
  }
}

/**
 * A prompt of a kind this page does not know: its options as they come.
 * @type {Builder<Prompt>}
 */
function unknownPrompt(p, _st, { title, choices, button }) {
  const q = /** @type {{kind: string, options?: any[]}} */ (/** @type {unknown} */ (p));
  title.textContent = t("prompt.unknown", { kind: q.kind });
  for (const o of q.options || []) {
    const action = o && o.action ? o.action : o;
    choices.append(button(o && o.label ? o.label : JSON.stringify(action), action));
  }
}

/** The builder of each kind of prompt. @type {Record<string, Builder<any>>} */
const BUILDERS = { choose_dealer: chooseDealer, packets, bid, carte_blanche: carteBlanche, exchange: buildExchange,
  declare, play, concession };

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
        if (confirm(t("concede.confirm", { play: rules.conceded_play, cards: rules.cards_points }))) intend({ type: "action", action: { concede: true } });
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

/** Light up the cards a declaration's button is about (app.selection.highlight). */
export function drawHighlight() {
  const cards = app.selection.highlight;
  for (const el of /** @type {NodeListOf<HTMLElement>} */ ($("hand").querySelectorAll("[data-card]"))) el.classList.toggle("hl", cards.has(el.dataset.card || ""));
}

/**
 * The exchange: a counter, the button that sends the cards selected in the hand, advice.
 * @type {Builder<ExchangePrompt>}
 */
function buildExchange(p, _st, { title, choices, extra }) {
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
      const n = app.selection.cards.size;
      if (n < lo || n > hi) return;
      // Younger may show the rest only if she leaves some of the talon (Law 36).
      const leaves = (p.max ?? 0) - app.selection.cards.size > 0;
      const action = { exchange: [...app.selection.cards].sort(handOrder),
                       show_rest: !!(p.may_show_rest && app.selection.showRest && leaves) };
      intend({ type: "action", action });
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
      intend({ type: "select", cards: p.advice || [] });
    },
  });
  const clear = h("button", {
    type: "button",
    className: "secondary",
    "data-testid": "clear-selection",
    text: t("exchange.clear"),
    onclick: () => {
      intend({ type: "select", cards: [] });
    },
  });
  // Advice is given at a table against the computer only (two people play on their own).
  const bar = p.advice == null
    ? h("div", { className: "exchange-bar" }, counter, confirmBtn, clear)
    : h("div", { className: "exchange-bar" }, counter, confirmBtn, suggest, clear);
  choices.append(bar);
  if (p.may_show_rest) {
    const box = h("input", { type: "checkbox", id: "show-rest", "data-testid": "show-rest", checked: app.selection.showRest });
    box.addEventListener("change", () => {
      intend({ type: "show_rest", on: box.checked });
    });
    extra.append(h("label", { className: "check", for: "show-rest" }, box,
      h("span", {}, t("exchange.show_rest"), h("span", { className: "left-note", id: "left-note" }))));
  }
}

/** Draw the cards selected for the exchange (app.selection) in the hand, and the exchange's controls. */
export function drawSelection() {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ ($("hand").querySelectorAll("[data-card]"))) {
    const on = app.selection.cards.has(el.dataset.card || "");
    el.classList.toggle("selected", on);
    if (el.getAttribute("role") === "button") el.setAttribute("aria-pressed", on ? "true" : "false");
  }
  updateExchangeControls();
}

export function updateExchangeControls() {
  const st = app.state;
  const p = st && st.prompt;
  if (!p || p.kind !== "exchange") return;
  const n = app.selection.cards.size;
  const lo = p.min ?? 0;
  const hi = p.max ?? 0;
  const counter = $("exchange-count");
  if (counter) counter.textContent = plural(n, "exchange.selected_one", "exchange.selected_many", { range: lo === hi ? lo : `${lo}-${hi}` });
  const btn = /** @type {HTMLButtonElement | null} */ (document.getElementById("confirm-exchange"));
  if (btn) {
    btn.disabled = app.waiting.action || n < lo || n > hi;
    if (n === 0 && lo === 0) {
      btn.textContent = t("exchange.stand_pat");
      btn.setAttribute("aria-label", t("exchange.stand_pat_label"));
    } else {
      btn.textContent = n ? t("exchange.n", { n }) : t("exchange.button");
      btn.setAttribute("aria-label", n ? plural(n, "exchange.n_one", "exchange.n_many") : t("exchange.button"));
    }
  }
  const note = $("left-note");
  if (note) {
    const left = (p.max ?? 0) - n;
    note.textContent = left > 0 ? plural(left, "exchange.left_one", "exchange.left_many") : t("exchange.left_none");
  }
  const box = /** @type {HTMLInputElement | null} */ (document.getElementById("show-rest"));
  if (box) box.disabled = (p.max ?? 0) - n <= 0;
}
