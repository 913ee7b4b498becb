// @ts-check
// Drawing the table from the state: the header, the status, the seats and hands, the centre (talon,
// trick, result, waiting room), the toolbar; errors, hints and the tutor's warning. The page redraws it all from
// each state. Drawing reads the page's state (state.js) and changes nothing of it but its own memo (app.keys);
// what the player does here goes out as an intent (intents.js).

import { backElement, cardElement, cardName, prettyText, spokenText, syncBacks, syncCards } from "../cards.js";
import { guideHref, offline } from "../site/mode.js";
import { store } from "../storage.js";
import { $, absolute, copyLink, h } from "./dom.js";
import { intend } from "./intents.js";
import { renderPrompt, updateExchangeControls } from "./prompt.js";
import { app, canUndo, declaresBest, names, pair, playedCards, playsGames, seats, shownCards } from "./state.js";
import { move, reduced, snapshot } from "./motion.js";
import { openTricks, renderLog, renderSheet, reviewLink } from "./record.js";
import { capital, lang, plural, t } from "../i18n.js";
import { PHASES, thinkingTime } from "./words.js";

/** @typedef {import("./protocol.js").Card} Card */
/** @typedef {import("./protocol.js").Prompt} Prompt */
/** @typedef {import("./protocol.js").Seat} Seat */
/** @typedef {import("./protocol.js").StateMessage} StateMessage */
/** @typedef {import("./protocol.js").TableInfo} TableInfo */
/** @typedef {import("./protocol.js").View} View */
/** A state's view, or nothing of it before the partie starts. */
/** @typedef {Partial<View>} ViewSoFar */
/** @typedef {Partial<TableInfo>} TableSoFar */

/** @param {string} text */
export function showError(text) {
  $("error-text").textContent = text;
  $("error").hidden = false;
}

export function clearError() {
  $("error").hidden = true;
  $("error-text").textContent = "";
}

/**
 * Points of the deal as the review gives them: to a tenth, whole where they are.
 * @param {number} x
 */
export function points(x) {
  const text = x.toFixed(1).replace(/\.0$/, "");
  return t(text === "1" ? "points.one" : "points.many", { n: text });
}

/** Draw the hint the page shows (app.advice.hint), or hide the box if it shows none. */
export function drawHint() {
  const hint = app.advice.hint;
  if (!hint) {
    $("hint-box").hidden = true;
    $("hint-text").textContent = "";
    $("hint-why").replaceChildren();
    $("hint-discards").replaceChildren();
    return;
  }
  const text = $("hint-text");
  text.replaceChildren(h("strong", { text: t("hint.label") }), prettyText(hint.text));
  text.setAttribute("aria-label", t("hint.label") + spokenText(hint.text));
  $("hint-follow").hidden = !hint.action || !app.state || !app.state.prompt;
  // Why, and by how much it beats the next best (the review's); at the exchange, the next discards.
  const why = $("hint-why");
  why.replaceChildren();
  if (hint.reason) why.append(prettyText(hint.reason));
  if (hint.next && typeof hint.margin === "number") {
    why.append(h("span", { className: "hint-next" }, [
      h("strong", { text: t("hint.next_best") }), prettyText(hint.next.text),
      t("hint.behind", { points: points(hint.margin) })]));
  }
  why.hidden = !hint.reason;
  const discards = $("hint-discards");
  discards.replaceChildren(...(hint.discards || []).slice(1).map((d) => h("li", {}, [prettyText(d.says)])));
  discards.hidden = !(hint.discards && hint.discards.length > 1);
  const box = $("hint-box");
  box.hidden = false;
  // Asked for, the hint is shown where the player sees it: the box sits under the decision's panel, below the
  // screen's edge where the table is taller than the screen (a laptop's 1280x800), so the page brings it up.
  box.scrollIntoView({ block: "nearest", behavior: reduced() ? "auto" : "smooth" });
}

/**
 * The tutor's warning (app.advice.tutor): the choice was not applied; the player thinks again or plays it anyway.
 * No warning: the box is hidden.
 */
export function drawTutor() {
  const warning = app.advice.tutor;
  if (!warning) {
    $("tutor-box").hidden = true;
    $("tutor-text").textContent = "";
    return;
  }
  $("tutor-text").replaceChildren(t("tutor.loses", { points: points(warning.loss) }), prettyText(warning.reason));
  $("tutor-better").replaceChildren(h("strong", { text: t("tutor.better") }), prettyText(warning.better.text));
  $("tutor-box").hidden = false;
  /** @type {HTMLButtonElement} */ ($("tutor-again")).focus();
}

// ------------------------------------------------------------------ render

export function render() {
  const st = app.state;
  if (!st || app.dealEnd !== null) return; // the finished deal's count is shown until the player goes on
  const v = st.view || /** @type {ViewSoFar} */ ({});
  const table = st.table || /** @type {TableSoFar} */ ({});
  renderHeader(st, table);
  renderStatus(st, v, table);
  const before = snapshot(seats(st).me);
  renderSeats(st, v);
  renderCentre(st, v, table);
  move(before, v);
  renderPrompt(st);
  renderToolbar(st, table);
  renderLog(st, v);
  renderSheet(st, v);
  renderShare(table);
  /** @type {HTMLInputElement} */ ($("declare-best")).checked = declaresBest();
  const b = document.body.dataset;
  b.phase = v.phase || "";
  b.toAct = v.to_act === 0 || v.to_act === 1 ? String(v.to_act) : "";
  b.seat = st.seat === 0 || st.seat === 1 ? String(st.seat) : "";
  b.version = st.version === undefined || st.version === null ? "" : String(st.version);
  b.status = table.status || "";
  renderPending();
  // The page is ready (for a person, and for the tests, which wait on this one signal): its handlers listen
  // (start() set them before connecting) and the table's first state is drawn.
  b.ready = "1";
}

/** The parts that depend on whether an action is on its way. */
export function renderPending() {
  const st = app.state;
  const b = document.body.dataset;
  // Busy: an action on its way, a forced card about to be played, or no connection.
  const busy = app.waiting.action || app.timers.autoPlaying || !app.connection.connected || app.dealEnd !== null;
  b.connected = app.connection.connected ? "true" : "false";
  b.pending = app.waiting.action || app.timers.autoPlaying ? "1" : "";
  b.prompt = st && st.prompt && !busy ? st.prompt.kind || "" : "";
  const prompt = $("prompt");
  const blocked = app.waiting.action || !app.connection.connected;
  prompt.classList.toggle("pending", blocked);
  for (const btn of /** @type {NodeListOf<HTMLButtonElement | HTMLInputElement>} */ (prompt.querySelectorAll("button, input"))) {
    if (blocked) {
      if (!btn.disabled) btn.dataset.pendingDisabled = "1";
      btn.disabled = true;
    } else if (btn.dataset.pendingDisabled) {
      delete btn.dataset.pendingDisabled;
      btn.disabled = false;
    }
  }
  if (!blocked) updateExchangeControls();
  /** @type {HTMLButtonElement} */ ($("hint-button")).disabled = !(st && st.prompt) || blocked;
  /** @type {HTMLButtonElement} */ ($("undo-button")).disabled = blocked;
  const join = /** @type {HTMLButtonElement | null} */ (document.getElementById("join-submit"));
  if (join) join.disabled = !app.connection.connected;
}

/** @param {StateMessage} st @param {TableSoFar} table */
export function renderHeader(st, table) {
  const title = table.title || "Piquet";
  $("title").textContent = title;
  const n = names(st);
  document.title = t("table.document_title", { title, a: capital(n[0]), b: capital(n[1]) });
  if (table.variant) /** @type {HTMLAnchorElement} */ ($("rules-link")).href = guideHref(table.variant, "", lang);
}

/**
 * The prompt in a few words, for the status line.
 * @param {Prompt} p
 * @param {StateMessage} st
 * @returns {string}
 */
export function promptSummary(p, st) {
  const v = st.view || /** @type {ViewSoFar} */ ({});
  switch (p.kind) {
    case "choose_dealer":
      return t("prompt.choose_dealer");
    case "packets":
      return t("prompt.packets", { sizes: (p.options || []).join(t("prompt.or")) });
    case "bid":
      return t("prompt.bid");
    case "carte_blanche":
      return t("prompt.carte_blanche");
    case "exchange":
      return p.min === p.max ? t("prompt.discard", { n: p.min }) : t("prompt.discard_range", { min: p.min, max: p.max });
    case "declare":
      return t(`prompt.${p.elder ? "declare" : "answer"}.${p.category}`);
    case "play":
      return v.trick && v.trick.length ? t("prompt.play") : t("prompt.lead");
    default:
      return /** @type {{kind: string}} */ (p).kind;
  }
}

/** @param {StateMessage} st @param {ViewSoFar} v @param {TableSoFar} table */
export function renderStatus(st, v, table) {
  const n = names(st);
  const { seat } = seats(st);
  let text;
  if (table.status === "waiting") {
    text = seat === 1 ? t("status.join") : t("status.waiting_second");
  } else if (table.status === "over" || v.phase === "over") {
    text = (v.result && v.result.text) || t("status.over");
  } else if (st.prompt && seat !== null) {
    text = t("status.your_turn", { what: promptSummary(st.prompt, st) });
  } else if (v.to_act === 0 || v.to_act === 1) {
    if (st.computer === v.to_act) text = t("status.thinking", { name: n[v.to_act] });
    else if (seat === null) text = t("status.to_act", { name: n[v.to_act], phase: (PHASES[v.phase || ""] || v.phase || "").toLowerCase() });
    else text = t("status.waiting_for", { name: n[v.to_act] });
  } else {
    text = PHASES[v.phase || ""] ? PHASES[v.phase || ""] + "…" : "…";
  }
  const el = $("status");
  if (el.textContent !== text) el.textContent = text;
  document.body.classList.toggle("my-turn", !!(st.prompt && seat !== null));
  document.body.classList.toggle("spectator", seat === null);

  // Chips: deal, contract, deal score.
  /** @type {string[]} */
  const chips = [];
  if (v.deal_number) {
    let deal = t("chip.deal", { n: v.deal_number });
    if (playsGames(st)) deal += t("chip.game", { n: (v.games || []).length + (table.status === "over" ? 0 : 1) });
    chips.push(deal);
  }
  if (v.phase && PHASES[v.phase] && v.phase !== "over") chips.push(PHASES[v.phase]);
  if (v.contract) chips.push(t("chip.contract", { contract: v.contract.text || v.contract.bid, name: n[v.contract.holder] ?? "?" }));
  const key = JSON.stringify(chips);
  if (app.keys.chips !== key) {
    app.keys.chips = key;
    $("chips").replaceChildren(...chips.map((c) => h("span", { className: "chip", text: c })));
  }
}

/**
 * A player's plate: name, badges (you, computer, dealer, elder or younger), scores, tricks won.
 * @param {StateMessage} st @param {ViewSoFar} v @param {Seat} s @param {boolean} isMe
 */
export function plate(st, v, s, isMe) {
  const n = names(st);
  const { seat } = seats(st);
  const el = h("div", { className: "plate-inner" + (v.to_act === s ? " acting" : "") });
  const nameLine = h("div", { className: "plate-name" }, h("span", { className: "who", text: capital(n[s]) }));
  if (isMe && seat !== null) nameLine.append(h("span", { className: "you", text: t("plate.you") }));
  if (st.computer === s) nameLine.append(h("span", { className: "badge computer", text: t("plate.computer") + (st.table && st.table.level ? t("plate.level", { n: st.table.level }) : "") }));
  // Levels 1 and 2 answer at once: the thinking time is then the hints' alone (said on the hint button).
  const budget = st.table ? st.table.budget : null;
  if (st.computer === s && typeof budget === "number" && st.table && (st.table.level || 0) >= 3) {
    nameLine.append(h("span", {
      className: "badge computer", "data-testid": "budget", text: thinkingTime(budget),
      title: t("plate.budget_title"),
    }));
  }
  if (v.dealer === s) nameLine.append(h("span", { className: "badge", text: t("plate.dealer"), title: t("plate.dealer_title") }));
  const beforeRoles = ["cut", "choose_dealer", "deal", "bid"].includes(v.phase || "");
  if (!beforeRoles && (v.elder === 0 || v.elder === 1) && v.phase !== "over") {
    nameLine.append(h("span", { className: "badge role", text: v.elder === s ? t("plate.elder") : t("plate.younger") }));
  }
  if (pair(v.carte_blanche, s, false)) nameLine.append(h("span", { className: "badge gold", text: t("plate.carte_blanche") }));
  if (v.to_act === s && st.table && st.table.status !== "over") {
    nameLine.append(h("span", { className: "turn-dot", title: t("plate.to_act"), role: "img", "aria-label": t("plate.to_act_label") }));
  }
  el.append(nameLine);
  const scores = h("div", { className: "plate-scores" });
  if (playsGames(st)) {
    scores.append(
      h("span", { className: "score", title: t("plate.games_title") }, t("plate.games"), h("b", { text: pair(v.games_won, s) })),
      h("span", { className: "score", title: t("plate.game_title") }, t("plate.game"), h("b", { text: pair(v.game_scores, s) })),
    );
  } else {
    scores.append(h("span", { className: "score", title: t("plate.partie_title") }, t("plate.partie"), h("b", { text: pair(v.totals, s) })));
  }
  scores.append(h("span", { className: "score", title: t("plate.deal_title") }, t("plate.deal"), h("b", { "data-testid": `deal-points-${s}`, text: pair(v.deal_points, s) })));
  if (["play", "over"].includes(v.phase || "") || (v.tricks && v.tricks.length)) {
    const won = pair(v.tricks_won, s);
    scores.append(
      h("button", {
        type: "button",
        className: "small tricks-button",
        "data-testid": "tricks",
        "data-seat": String(s),
        onclick: () => openTricks(s),
      }, t("plate.tricks"), h("b", { text: won }), h("span", { className: "visually-hidden", text: t("plate.tricks_won", { name: n[s] }) })),
    );
  }
  el.append(scores);
  return el;
}

/**
 * A trick's cards in their place: each tilted toward the one who played it, and named with who played it.
 * @param {HTMLElement} container @param {Card[]} cards @param {number} leader @param {number} me
 * @param {string[]} n the players' names
 */
function showTrick(container, cards, leader, me, n) {
  syncCards(container, cards).forEach((el, i) => {
    const by = (leader + i) % 2;
    el.classList.toggle("by-me", by === me);
    el.classList.toggle("by-opp", by !== me);
    el.setAttribute("aria-label", t(i === 0 ? "trick.led_by" : "trick.played_by", { card: cardName(el.dataset.card), name: n[by] }));
  });
}

/** @param {StateMessage} st @param {ViewSoFar} v */
export function renderSeats(st, v) {
  const { seat, me, opp } = seats(st);
  const played = playedCards(v);
  // Plates (rebuilt only when what they show changes, so focus on a button survives).
  const plateKey = (/** @type {Seat} */ s) => JSON.stringify([names(st), s, v.to_act, v.dealer, v.elder, v.phase, v.totals, v.deal_points,
    v.tricks_won, v.carte_blanche, v.games, v.game_scores, st.computer, seat, st.table && st.table.status, (v.tricks || []).length]);
  /** @type {[Seat, string, boolean][]} */
  const plates = [[opp, "plate-opp", false], [me, "plate-me", true]];
  for (const [s, id, isMe] of plates) {
    const key = plateKey(s);
    if (app.keys[id] !== key) {
      app.keys[id] = key;
      $(id).replaceChildren(plate(st, v, s, isMe));
    }
  }

  // The opponent's hand: backs. A spectator sees both hands as backs.
  syncBacks($("opp-hand"), pair(v.hand_sizes, opp));
  $("opp-hand").setAttribute("aria-label", t("hand.of", { name: names(st)[opp], n: pair(v.hand_sizes, opp) }));

  // Piles beside each plate: discards, cards shown.
  renderPiles($("piles-opp"), v, opp, false, played);
  renderPiles($("piles-me"), v, me, seat !== null, played);

  // Own hand.
  const hand = $("hand");
  if (seat === null) {
    // Spectator: no cards of his own; the bottom seat's hand as backs.
    for (const el of /** @type {HTMLElement[]} */ ([...hand.children])) if (el.dataset.card) el.remove();
    syncBacks(hand, pair(v.hand_sizes, me));
    hand.setAttribute("aria-label", t("hand.of", { name: names(st)[me], n: pair(v.hand_sizes, me) }));
    return;
  }
  for (const el of /** @type {HTMLElement[]} */ ([...hand.children])) if (!el.dataset.card) el.remove();
  hand.setAttribute("aria-label", t("hand.yours"));
  const p = st.prompt;
  /** @type {Set<Card>} */
  const legal = new Set(p && p.kind === "play" ? p.cards || [] : []);
  const shown = new Set([...pair(v.revealed, me, /** @type {Card[]} */ ([])), ...pair(v.shown_dealt, me, /** @type {Card[]} */ ([]))]);
  const cards = v.hand || [];
  const suitStarts = new Set(cards.filter((c, i) => i > 0 && cards[i - 1][1] !== c[1]));
  syncCards(hand, cards, {
    clickable: (c) => !!p && (p.kind === "exchange" || (p.kind === "play" && legal.has(c))),
    decorate: (el, c) => {
      const selected = p && p.kind === "exchange" && app.selection.cards.has(c);
      el.classList.toggle("selected", !!selected);
      el.classList.toggle("dim", !!p && p.kind === "play" && !legal.has(c));
      el.classList.toggle("shown", shown.has(c));
      el.classList.toggle("hl", app.selection.highlight.has(c));
      el.classList.toggle("suit-start", suitStarts.has(c));
      if (p && p.kind === "exchange") {
        el.setAttribute("aria-pressed", selected ? "true" : "false");
        el.setAttribute("aria-label", shown.has(c) ? t("hand.shown", { card: cardName(c) }) : cardName(c));
      } else {
        el.removeAttribute("aria-pressed");
        let label = cardName(c);
        if (p && p.kind === "play") label = t(legal.has(c) ? "hand.play_the" : "hand.cannot_play", { card: label });
        if (shown.has(c)) label += t("hand.shown_to_opponent");
        el.setAttribute("aria-label", label);
      }
      if (p && p.kind === "play" && !legal.has(c)) el.setAttribute("aria-disabled", "true");
      else el.removeAttribute("aria-disabled");
      // data-legal: may this card be clicked now (play: a legal card; exchange: any card).
      if (p && (p.kind === "play" || p.kind === "exchange")) el.dataset.legal = String(p.kind === "exchange" || legal.has(c));
      else delete el.dataset.legal;
      el.title = shown.has(c) ? t("hand.shown_title") : "";
    },
  });
  hand.classList.toggle("choosing", !!p && (p.kind === "exchange" || p.kind === "play"));
}

/**
 * A labelled row of small cards (face up, or so many backs).
 * @param {string} label
 * @param {Card[]} cards
 * @param {{backs?: number, className?: string, testid?: string | null}} [options]
 */
export function pileGroup(label, cards, { backs = 0, className = "", testid = null } = {}) {
  const row = h("div", { className: "cards-row small-cards" });
  for (const c of cards) row.append(cardElement(c));
  for (let i = 0; i < backs; i += 1) row.append(backElement());
  const aria = cards.length ? `${label}: ${cards.map(cardName).join(", ")}` : plural(backs, "pile.face_down_one", "pile.face_down_many", { label });
  return h("div", { className: "pile " + className, "data-testid": testid, role: "group", "aria-label": aria },
    h("div", { className: "pile-label", text: label }), row);
}

/**
 * The piles beside a plate: discards (own face up, the other's as backs), the cards the other has shown.
 * @param {HTMLElement} container @param {ViewSoFar} v @param {Seat} s @param {boolean} own @param {Set<Card>} played
 */
export function renderPiles(container, v, s, own, played) {
  /** @type {[string, Card[], number, string, string][]} */
  const groups = [];
  const exchanged = pair(v.exchanged, s, null);
  if (own && v.discards && v.discards.length) {
    groups.push([t("pile.your_discards"), v.discards, 0, "discards", "discards-me"]);
  } else if (exchanged) {
    groups.push([t("pile.discards"), [], exchanged, "discards", own ? "discards-me" : "discards-opp"]);
  }
  if (!own) {
    const shown = shownCards(v, s, played);
    if (shown.length) groups.push([t("pile.shown"), shown, 0, "shown", "shown-opp"]);
  }
  const key = JSON.stringify(groups);
  const keyName = container.id;
  if (app.keys[keyName] === key) return;
  app.keys[keyName] = key;
  container.replaceChildren(...groups.map(([label, cards, backs, cls, testid]) => pileGroup(label, cards, { backs, className: cls, testid })));
}

/** @param {StateMessage} st @param {ViewSoFar} v @param {TableSoFar} table */
export function renderCentre(st, v, table) {
  const n = names(st);
  const { seat, me } = seats(st);
  // Talon.
  const talonLeft = v.talon_left || 0;
  syncBacks($("talon"), Math.min(talonLeft, 8));
  $("talon").dataset.count = String(talonLeft);
  $("talon").setAttribute("aria-label", plural(talonLeft, "talon.label_one", "talon.label_many"));
  $("talon-area").hidden = !talonLeft && !["exchange", "carte_blanche", "bid"].includes(v.phase || "");
  $("talon-caption").textContent = talonLeft ? t("talon.caption", { n: talonLeft }) : t("talon.empty");

  // Trick in play, or the last trick seen faintly.
  const trickEl = $("trick");
  const trick = v.trick || [];
  const tricks = v.tricks || [];
  let cards = trick;
  /** @type {import("./protocol.js").Trick | null} */
  let lastTrick = null;
  if (!trick.length && tricks.length && v.phase === "play") {
    lastTrick = tricks[tricks.length - 1];
    cards = lastTrick.cards || [];
  }
  const leader = lastTrick ? lastTrick.leader : v.leader ?? 0;
  showTrick(trickEl, cards, leader, me, n);
  trickEl.classList.toggle("last", !!lastTrick);
  let caption = "";
  if (lastTrick) caption = t("trick.last", { name: n[lastTrick.winner] });
  else if (trick.length) caption = t("trick.led", { name: n[leader] });
  else if (v.phase === "play") caption = v.leader === me && seat !== null ? t("trick.your_lead") : t("trick.lead_of", { name: n[leader] });
  $("trick-caption").textContent = caption;
  $("trick-area").hidden = !(v.phase === "play" || trick.length || lastTrick);
  // A trick just won stays in sight beside the next one's lead until that trick is whole: the computer that
  // wins a trick and leads at once does not take it out of sight before the player has seen it.
  const previous = trick.length === 1 && tricks.length && v.phase === "play" ? tricks[tricks.length - 1] : null;
  $("last-trick").hidden = !previous;
  if (previous) {
    showTrick($("last-trick-cards"), previous.cards || [], previous.leader, me, n);
    $("last-trick-caption").textContent = t("trick.last_won", { name: n[previous.winner] });
  }

  // Info: rest of the talon, peeked cards, auction, contract.
  /** @type {[string, Card[], string][]} */
  const info = [];
  if (v.peeked && v.peeked.length) info.push([t("info.looked"), v.peeked, "peeked"]);
  if (v.rest && v.rest.length) info.push([t("info.rest"), v.rest, "rest"]);
  if (v.show_rest === true && !(v.rest || []).length && v.phase !== "play" && v.phase !== "over") {
    info.push([t("info.rest_later"), [], "note"]);
  }
  if (v.phase === "bid" || ((v.bids || []).length && !v.contract)) {
    const text = (v.bids || []).map((b) => `${n[b.player]} ${b.call}`).join(", ");
    info.push([t("info.auction", { calls: text || t("info.no_call") }), [], "note"]);
  }
  if (v.contract) {
    const c = v.contract;
    let said = t(c.minus ? "info.contract_lose" : "info.contract_win", { contract: c.text, who: c.holder === seat ? t("info.you") : n[c.holder], n: c.tricks });
    if (c.minus) said += t("info.minus");
    info.push([said, [], "note contract"]);
  }
  const infoKey = JSON.stringify(info);
  if (app.keys.info !== infoKey) {
    app.keys.info = infoKey;
    $("info-area").replaceChildren(
      ...info.map(([label, cards, cls]) => (cards.length
        ? pileGroup(label, cards, { className: cls, testid: cls })
        : h("p", { className: "info-note " + cls, text: label }))),
    );
  }

  // Waiting room.
  renderWaiting(st, table);

  // Result.
  const over = table.status === "over" || v.phase === "over";
  $("result-box").hidden = !over;
  document.body.classList.toggle("over", over);
  $("result").textContent = over ? (v.result && v.result.text) || t("status.over") : "";
  const reviewing = /** @type {HTMLAnchorElement} */ ($("review-link"));
  const lastDeal = (v.sheet || []).length;
  const review = over && lastDeal ? reviewLink(lastDeal, true) : null;
  reviewing.hidden = !review;
  if (review) reviewing.href = review;
  const link = /** @type {HTMLAnchorElement} */ ($("record-link"));
  if (over && app.cred) {
    // The server reads the spectator's secret from ?token= too. On the offline site the worker gives it (main.js).
    link.href = offline ? "#record" : `/api/tables/${encodeURIComponent(app.id || "")}/record?token=${encodeURIComponent(app.cred.value)}`;
    link.setAttribute("download", `piquet-${app.id}.json`);
    link.hidden = false;
  } else {
    link.hidden = true;
  }
  // Another partie with the same settings, for a player (not a spectator): in a room, once the other has
  // asked, this one joins it.
  const again = /** @type {HTMLButtonElement} */ ($("rematch"));
  again.hidden = !(over && app.cred && st.seat !== null);
  again.textContent = table.rematch && table.kind === "room" ? t("result.join_rematch") : t("result.rematch");
}

/**
 * The waiting room: the guest's name form, the host's invitation link, or a note.
 * @param {StateMessage} st @param {TableSoFar} table
 */
export function renderWaiting(st, table) {
  const box = $("waiting");
  const { seat } = seats(st);
  const waiting = table.status === "waiting";
  const key = JSON.stringify([waiting, seat, table.invite, table.public, names(st)]);
  if (app.keys.waiting === key) return;
  app.keys.waiting = key;
  if (!waiting) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.hidden = false;
  if (seat === 1) {
    const input = h("input", {
      id: "join-name", type: "text", name: "name", required: true, maxLength: 40, autocomplete: "nickname",
      "data-testid": "join-name", value: store.get("piquet.name") || "",
    });
    const form = h("form", { className: "join-form", "aria-labelledby": "join-title" },
      h("h2", { id: "join-title", text: t("join.invites", { name: names(st)[0], title: table.title || "Piquet" }) }),
      h("label", { for: "join-name", text: t("join.your_name") }),
      h("div", { className: "join-row" }, input, h("button", { type: "submit", id: "join-submit", "data-testid": "join-submit", text: t("join.take_seat") })),
    );
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (!name) {
        input.focus();
        return;
      }
      intend({ type: "join", name });
    });
    box.replaceChildren(form);
    setTimeout(() => input.focus(), 0);
  } else if (seat === 0 && table.invite) {
    const url = absolute(table.invite);
    const a = h("a", { id: "invite-link", href: url, "data-testid": "invite-link", className: "link-box", text: url });
    const copy = h("button", { type: "button", className: "small copy", text: t("waiting.copy"), onclick: (/** @type {MouseEvent} */ e) => copyLink(a, /** @type {HTMLElement} */ (e.currentTarget)) });
    box.replaceChildren(
      h("h2", { text: t("waiting.opponent") }),
      h("p", { text: t("waiting.send") }),
      h("div", { className: "share-row" }, a, copy),
    );
    if (table.public) box.append(h("p", { "data-testid": "listed-note", text: t("waiting.listed") }));
  } else {
    box.replaceChildren(h("h2", { text: t("waiting.second") }),
      h("p", { text: t("waiting.second_starts") }));
  }
}

/** @param {TableSoFar} table */
export function renderShare(table) {
  if (offline) {
    // The table lives in this browser: no other device can watch it or take its seat.
    $("share").hidden = true;
    return;
  }
  const a = /** @type {HTMLAnchorElement} */ ($("spectate-link"));
  if (table.spectate) {
    const url = absolute(table.spectate);
    if (a.href !== url) {
      a.href = url;
      a.textContent = url;
    }
    $("share").hidden = false;
  } else {
    $("share").hidden = true;
  }
  const seated = !!app.state && (app.state.seat === 0 || app.state.seat === 1) && table.status !== "waiting";
  $("move-seat").hidden = !seated;
}

/** @param {StateMessage} st @param {TableSoFar} table */
export function renderToolbar(st, table) {
  const undo = $("undo-button");
  undo.hidden = !canUndo(st);
  const taken = table.taken_back || 0;
  undo.title = table.takebacks === "free"
    ? t("undo.free_title", { sofar: taken ? t("undo.so_far", { n: taken }) : "" })
    : t("undo.fair_title");
  undo.textContent = table.takebacks === "free" && taken ? t("undo.count", { n: taken }) : t("undo.label");
  $("hint-button").hidden = !st.can_hint; // against the computer only: between two people it gives no hints
  $("hint-button").title = t("hint.title")
    + (typeof table.budget === "number" ? t("hint.title_budget", { time: thinkingTime(table.budget) }) : "");
  if (app.advice.hint && st.version === app.advice.hint.version) $("hint-follow").hidden = !app.advice.hint.action || !st.prompt;
  // The table's phrases: a room's seated players say them to each other (and the spectators hear them).
  $("phrases").hidden = table.kind !== "room" || (st.seat !== 0 && st.seat !== 1);
}
