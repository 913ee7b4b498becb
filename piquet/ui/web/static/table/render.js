// @ts-check

import { backElement, cardElement, cardName, cardSpan, isCard, prettyText, spokenText, syncBacks, syncCards } from "../cards.js";
import { store } from "../storage.js";
import { $, absolute, copyLink, h } from "./dom.js";
import { renderPrompt, scheduleForcedPlay, updateExchangeControls } from "./prompt.js";
import { app, names, pair, playedCards, playsGames, seats, selectionKey, shownCards } from "./state.js";
import { send } from "./transport.js";
import { CATEGORY_WORDS, PHASES, numberWord, reckoning } from "./words.js";

export function showError(text) {
  $("error-text").textContent = text;
  $("error").hidden = false;
}

export function clearError() {
  $("error").hidden = true;
  $("error-text").textContent = "";
}

export function showHint(hint) {
  app.hint = hint;
  const text = $("hint-text");
  text.replaceChildren(h("strong", { text: "Hint: " }), prettyText(hint.text));
  text.setAttribute("aria-label", "Hint: " + spokenText(hint.text));
  $("hint-follow").hidden = !hint.action || !app.state || !app.state.prompt;
  $("hint-box").hidden = false;
}

export function hideHint() {
  app.hint = null;
  $("hint-box").hidden = true;
  $("hint-text").textContent = "";
}

// ------------------------------------------------------------------ render

export function render() {
  const st = app.state;
  if (!st) return;
  const v = st.view || {};
  const table = st.table || {};
  renderHeader(st, table);
  renderStatus(st, v, table);
  renderSeats(st, v);
  renderCentre(st, v, table);
  renderPrompt(st);
  renderToolbar(st, table);
  renderLog(st, v);
  renderSheet(st, v);
  renderShare(table);
  scheduleForcedPlay();
  const b = document.body.dataset;
  b.phase = v.phase || "";
  b.toAct = v.to_act === 0 || v.to_act === 1 ? String(v.to_act) : "";
  b.seat = st.seat === 0 || st.seat === 1 ? String(st.seat) : "";
  b.version = st.version === undefined || st.version === null ? "" : String(st.version);
  b.status = table.status || "";
  renderPending();
}

/** The parts that depend on whether an action is on its way. */
export function renderPending() {
  const st = app.state;
  const b = document.body.dataset;
  // Busy: an action on its way, a forced card about to be played, or no connection.
  const busy = app.pending || app.autoPlaying || !app.connected;
  b.connected = app.connected ? "true" : "false";
  b.pending = app.pending || app.autoPlaying ? "1" : "";
  b.prompt = st && st.prompt && !busy ? st.prompt.kind || "" : "";
  const prompt = $("prompt");
  const blocked = app.pending || !app.connected;
  prompt.classList.toggle("pending", blocked);
  for (const btn of prompt.querySelectorAll("button, input")) {
    if (blocked) {
      if (!btn.disabled) btn.dataset.pendingDisabled = "1";
      btn.disabled = true;
    } else if (btn.dataset.pendingDisabled) {
      delete btn.dataset.pendingDisabled;
      btn.disabled = false;
    }
  }
  if (!blocked) updateExchangeControls();
  $("hint-button").disabled = !(st && st.prompt) || blocked;
  $("undo-button").disabled = blocked;
  const join = $("join-submit");
  if (join) join.disabled = !app.connected;
}

export function renderHeader(st, table) {
  const title = table.title || "Piquet";
  $("title").textContent = title;
  const n = names(st);
  document.title = `${title}: ${n[0]} v ${n[1]} · Piquet`;
  if (table.variant) $("rules-link").href = `/rules/${encodeURIComponent(table.variant)}`;
}

export function promptSummary(p, st) {
  const v = st.view || {};
  switch (p.kind) {
    case "choose_dealer":
      return "choose who deals first";
    case "packets":
      return "deal in packets of 2 or 3";
    case "bid":
      return "your call in the auction";
    case "carte_blanche":
      return "announce your carte blanche, or not";
    case "exchange":
      return p.min === p.max ? `discard ${p.min}` : `discard ${p.min} to ${p.max} cards`;
    case "declare":
      return `${p.elder ? "declare" : "answer for"} your ${CATEGORY_WORDS[p.category] || p.category}`;
    case "play":
      return v.trick && v.trick.length ? "play a card" : "lead a card";
    default:
      return p.kind;
  }
}

export function renderStatus(st, v, table) {
  const n = names(st);
  const { seat } = seats(st);
  let text;
  if (table.status === "waiting") {
    text = seat === 1 ? "Enter your name to take your seat." : `Waiting for the second player to join.`;
  } else if (table.status === "over" || v.phase === "over") {
    text = (v.result && v.result.text) || "The partie is over.";
  } else if (st.prompt && seat !== null) {
    text = "Your turn: " + promptSummary(st.prompt, st) + ".";
  } else if (v.to_act === 0 || v.to_act === 1) {
    if (st.computer === v.to_act) text = `${n[v.to_act]} is thinking…`;
    else if (seat === null) text = `${n[v.to_act]} to act: ${(PHASES[v.phase] || v.phase || "").toLowerCase()}.`;
    else text = `Waiting for ${n[v.to_act]}…`;
  } else {
    text = PHASES[v.phase] ? PHASES[v.phase] + "…" : "…";
  }
  const el = $("status");
  if (el.textContent !== text) el.textContent = text;
  document.body.classList.toggle("my-turn", !!(st.prompt && seat !== null));
  document.body.classList.toggle("spectator", seat === null);

  // Chips: deal, contract, deal score.
  const chips = [];
  if (v.deal_number) {
    let deal = `Deal ${v.deal_number}`;
    if (playsGames(st)) deal += ` · game ${(v.games || []).length + (table.status === "over" ? 0 : 1)}`;
    chips.push(deal);
  }
  if (v.phase && PHASES[v.phase] && v.phase !== "over") chips.push(PHASES[v.phase]);
  if (v.contract) chips.push(`Contract ${v.contract.text || v.contract.bid} (${n[v.contract.holder] ?? "?"})`);
  const key = JSON.stringify(chips);
  if (app.keys.chips !== key) {
    app.keys.chips = key;
    $("chips").replaceChildren(...chips.map((c) => h("span", { className: "chip", text: c })));
  }
}

export function plate(st, v, s, isMe) {
  const n = names(st);
  const { seat } = seats(st);
  const el = h("div", { className: "plate-inner" + (v.to_act === s ? " acting" : "") });
  const nameLine = h("div", { className: "plate-name" }, h("span", { className: "who", text: n[s] }));
  if (isMe && seat !== null) nameLine.append(h("span", { className: "you", text: "you" }));
  if (st.computer === s) nameLine.append(h("span", { className: "badge computer", text: `computer${st.table && st.table.level ? " · level " + st.table.level : ""}` }));
  if (v.dealer === s) nameLine.append(h("span", { className: "badge", text: "dealer", title: "Deals this hand" }));
  const beforeRoles = ["cut", "choose_dealer", "deal", "bid"].includes(v.phase);
  if (!beforeRoles && (v.elder === 0 || v.elder === 1) && v.phase !== "over") {
    nameLine.append(h("span", { className: "badge role", text: v.elder === s ? "elder" : "younger" }));
  }
  if (pair(v.carte_blanche, s, false)) nameLine.append(h("span", { className: "badge gold", text: "carte blanche" }));
  if (v.to_act === s && st.table && st.table.status !== "over") {
    nameLine.append(h("span", { className: "turn-dot", title: "To act", "aria-label": "to act" }));
  }
  el.append(nameLine);
  const scores = h("div", { className: "plate-scores" });
  if (playsGames(st)) {
    scores.append(
      h("span", { className: "score", title: "Games won (a double game counts two)" }, "games ", h("b", { text: pair(v.games_won, s) })),
      h("span", { className: "score", title: "Score in the game in progress" }, "game ", h("b", { text: pair(v.game_scores, s) })),
    );
  } else {
    scores.append(h("span", { className: "score", title: "Partie total" }, "partie ", h("b", { text: pair(v.totals, s) })));
  }
  scores.append(h("span", { className: "score", title: "This deal so far" }, "deal ", h("b", { "data-testid": `deal-points-${s}`, text: pair(v.deal_points, s) })));
  if (["play", "over"].includes(v.phase) || (v.tricks && v.tricks.length)) {
    const won = pair(v.tricks_won, s);
    scores.append(
      h("button", {
        type: "button",
        className: "small tricks-button",
        "data-testid": "tricks",
        "data-seat": String(s),
        "aria-label": `${n[s]} has won ${won} trick${won === 1 ? "" : "s"}: show them`,
        onclick: () => openTricks(s),
      }, "tricks ", h("b", { text: won })),
    );
  }
  el.append(scores);
  return el;
}

export function renderSeats(st, v) {
  const { seat, me, opp } = seats(st);
  const played = playedCards(v);
  // Plates (rebuilt only when what they show changes, so focus on a button survives).
  const plateKey = (s) => JSON.stringify([names(st), s, v.to_act, v.dealer, v.elder, v.phase, v.totals, v.deal_points,
    v.tricks_won, v.carte_blanche, v.games, v.game_scores, st.computer, seat, st.table && st.table.status, (v.tricks || []).length]);
  for (const [s, id, isMe] of [[opp, "plate-opp", false], [me, "plate-me", true]]) {
    const key = plateKey(s);
    if (app.keys[id] !== key) {
      app.keys[id] = key;
      $(id).replaceChildren(plate(st, v, s, isMe));
    }
  }

  // The opponent's hand: backs. A spectator sees both hands as backs.
  syncBacks($("opp-hand"), pair(v.hand_sizes, opp));
  $("opp-hand").setAttribute("aria-label", `${names(st)[opp]}'s hand: ${pair(v.hand_sizes, opp)} cards`);

  // Piles beside each plate: discards, cards shown.
  renderPiles($("piles-opp"), st, v, opp, false, played);
  renderPiles($("piles-me"), st, v, me, seat !== null, played);

  // Own hand.
  const hand = $("hand");
  if (seat === null) {
    // Spectator: no cards of his own; the bottom seat's hand as backs.
    for (const el of [...hand.children]) if (el.dataset.card) el.remove();
    syncBacks(hand, pair(v.hand_sizes, me));
    hand.setAttribute("aria-label", `${names(st)[me]}'s hand: ${pair(v.hand_sizes, me)} cards`);
    return;
  }
  for (const el of [...hand.children]) if (!el.dataset.card) el.remove();
  hand.setAttribute("aria-label", "Your hand");
  const p = st.prompt;
  const legal = new Set(p && p.kind === "play" ? p.cards || [] : []);
  const selKey = selectionKey(st);
  if (app.selectionKey !== selKey) {
    app.selectionKey = selKey;
    app.selection = new Set();
    app.showRest = false;
  }
  const shown = new Set([...pair(v.revealed, me, []), ...pair(v.shown_dealt, me, [])]);
  const cards = v.hand || [];
  const suitStarts = new Set(cards.filter((c, i) => i > 0 && cards[i - 1][1] !== c[1]));
  syncCards(hand, cards, {
    clickable: (c) => !!p && (p.kind === "exchange" || (p.kind === "play" && legal.has(c))),
    decorate: (el, c) => {
      const selected = p && p.kind === "exchange" && app.selection.has(c);
      el.classList.toggle("selected", !!selected);
      el.classList.toggle("dim", !!p && p.kind === "play" && !legal.has(c));
      el.classList.toggle("shown", shown.has(c));
      el.classList.toggle("hl", app.highlight.has(c));
      el.classList.toggle("suit-start", suitStarts.has(c));
      if (p && p.kind === "exchange") {
        el.setAttribute("aria-pressed", selected ? "true" : "false");
        el.setAttribute("aria-label", `${cardName(c)}${shown.has(c) ? ", shown" : ""}`);
      } else {
        el.removeAttribute("aria-pressed");
        let label = cardName(c);
        if (p && p.kind === "play") label = legal.has(c) ? `play the ${label}` : `${label}, cannot be played`;
        if (shown.has(c)) label += ", shown to your opponent";
        el.setAttribute("aria-label", label);
      }
      if (p && p.kind === "play" && !legal.has(c)) el.setAttribute("aria-disabled", "true");
      else el.removeAttribute("aria-disabled");
      // data-legal: may this card be clicked now (play: a legal card; exchange: any card).
      if (p && (p.kind === "play" || p.kind === "exchange")) el.dataset.legal = String(p.kind === "exchange" || legal.has(c));
      else delete el.dataset.legal;
      el.title = shown.has(c) ? "Shown to your opponent" : "";
    },
  });
  hand.classList.toggle("choosing", !!p && (p.kind === "exchange" || p.kind === "play"));
}

export function pileGroup(label, cards, { backs = 0, className = "", testid = null } = {}) {
  const row = h("div", { className: "cards-row small-cards" });
  for (const c of cards) row.append(cardElement(c));
  for (let i = 0; i < backs; i += 1) row.append(backElement());
  const aria = cards.length ? `${label}: ${cards.map(cardName).join(", ")}` : `${label}: ${backs} card${backs === 1 ? "" : "s"} face down`;
  return h("div", { className: "pile " + className, "data-testid": testid, role: "group", "aria-label": aria },
    h("div", { className: "pile-label", text: label }), row);
}

export function renderPiles(container, st, v, s, own, played) {
  const groups = [];
  const exchanged = pair(v.exchanged, s, null);
  if (own && (v.discards || []).length) {
    groups.push(["Your discards", v.discards, 0, "discards", "discards-me"]);
  } else if (exchanged) {
    groups.push(["Discards", [], exchanged, "discards", own ? "discards-me" : "discards-opp"]);
  }
  if (!own) {
    const shown = shownCards(v, s, played);
    if (shown.length) groups.push(["Shown", shown, 0, "shown", "shown-opp"]);
  }
  const key = JSON.stringify(groups);
  const keyName = container.id;
  if (app.keys[keyName] === key) return;
  app.keys[keyName] = key;
  container.replaceChildren(...groups.map(([label, cards, backs, cls, testid]) => pileGroup(label, cards, { backs, className: cls, testid })));
}

export function renderCentre(st, v, table) {
  const n = names(st);
  const { seat, me, opp } = seats(st);
  // Talon.
  const talonLeft = v.talon_left || 0;
  syncBacks($("talon"), Math.min(talonLeft, 8));
  $("talon").dataset.count = String(talonLeft);
  $("talon").setAttribute("aria-label", `Talon: ${talonLeft} card${talonLeft === 1 ? "" : "s"}`);
  $("talon-area").hidden = !talonLeft && !["exchange", "carte_blanche", "bid"].includes(v.phase);
  $("talon-caption").textContent = talonLeft ? `Talon · ${talonLeft}` : "Talon empty";

  // Trick in play, or the last trick seen faintly.
  const trickEl = $("trick");
  const trick = v.trick || [];
  const tricks = v.tricks || [];
  let cards = trick;
  let lastTrick = null;
  if (!trick.length && tricks.length && v.phase === "play") {
    lastTrick = tricks[tricks.length - 1];
    cards = lastTrick.cards || [];
  }
  const leader = lastTrick ? lastTrick.leader : v.leader;
  const els = syncCards(trickEl, cards);
  els.forEach((el, i) => {
    const by = (leader + i) % 2;
    el.classList.toggle("by-me", by === me);
    el.classList.toggle("by-opp", by === opp);
    el.setAttribute("aria-label", `${cardName(el.dataset.card)}, ${i === 0 ? "led" : "played"} by ${n[by]}`);
  });
  trickEl.classList.toggle("last", !!lastTrick);
  let caption = "";
  if (lastTrick) caption = `Last trick: ${n[lastTrick.winner]}`;
  else if (trick.length) caption = `${n[v.leader]} led`;
  else if (v.phase === "play") caption = `${v.leader === me && seat !== null ? "Your" : n[v.leader] + "'s"} lead`;
  $("trick-caption").textContent = caption;
  $("trick-area").hidden = !(v.phase === "play" || trick.length || lastTrick);

  // Info: rest of the talon, peeked cards, auction, contract.
  const info = [];
  if ((v.peeked || []).length) info.push(["You looked at", v.peeked, "peeked"]);
  if ((v.rest || []).length) info.push(["Rest of the talon", v.rest, "rest"]);
  if (v.show_rest === true && !(v.rest || []).length && v.phase !== "play" && v.phase !== "over") {
    info.push(["The rest of the talon will be shown after the lead", [], "note"]);
  }
  if (v.phase === "bid" || ((v.bids || []).length && !v.contract)) {
    const text = (v.bids || []).map((b) => `${n[b.player]} ${b.call}`).join(", ");
    info.push([`Auction: ${text || "no call yet"}`, [], "note"]);
  }
  if (v.contract) {
    const c = v.contract;
    const minus = String(c.bid || "").endsWith("-");
    const tricksN = parseInt(c.bid, 10);
    let t = `Contract ${c.text || c.bid}: ${c.holder === seat ? "you" : n[c.holder]} must ${minus ? "lose" : "win"} ${Number.isFinite(tricksN) ? tricksN : "?"} tricks`;
    if (minus) t += " (both score for tricks lost, and for the other's combinations)";
    info.push([t, [], "note contract"]);
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
  if (over) $("notice").hidden = true;
  document.body.classList.toggle("over", over);
  $("result").textContent = over ? (v.result && v.result.text) || "The partie is over." : "";
  const link = $("record-link");
  if (over && app.cred) {
    // The server reads the spectator's secret from ?token= too.
    link.href = `/api/tables/${encodeURIComponent(app.id)}/record?token=${encodeURIComponent(app.cred.value)}`;
    link.setAttribute("download", `piquet-${app.id}.json`);
    link.hidden = false;
  } else {
    link.hidden = true;
  }
}

export function renderWaiting(st, table) {
  const box = $("waiting");
  const { seat } = seats(st);
  const waiting = table.status === "waiting";
  const key = JSON.stringify([waiting, seat, table.invite, names(st)]);
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
      h("h2", { id: "join-title", text: `${names(st)[0]} invites you to a game of ${table.title || "Piquet"}` }),
      h("label", { for: "join-name", text: "Your name" }),
      h("div", { className: "join-row" }, input, h("button", { type: "submit", id: "join-submit", "data-testid": "join-submit", text: "Take your seat" })),
    );
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (!name) {
        input.focus();
        return;
      }
      store.set("piquet.name", name);
      send({ type: "join", name });
    });
    box.replaceChildren(form);
    setTimeout(() => input.focus(), 0);
  } else if (seat === 0 && table.invite) {
    const url = absolute(table.invite);
    const a = h("a", { id: "invite-link", href: url, "data-testid": "invite-link", className: "link-box", text: url });
    const copy = h("button", { type: "button", className: "small copy", text: "Copy", onclick: (e) => copyLink(a, e.currentTarget) });
    box.replaceChildren(
      h("h2", { text: "Waiting for your opponent" }),
      h("p", { text: "Send this link to the person you want to play. The game starts when they take their seat." }),
      h("div", { className: "share-row" }, a, copy),
    );
  } else {
    box.replaceChildren(h("h2", { text: "Waiting for the second player" }),
      h("p", { text: "The game starts when the second player takes their seat." }));
  }
}

export function renderShare(table) {
  const a = $("spectate-link");
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

// ------------------------------------------------------------------ toolbar, log, sheet

export function renderToolbar(st, table) {
  const undo = $("undo-button");
  undo.hidden = !st.can_undo;
  const taken = table.taken_back || 0;
  undo.title = table.takebacks === "free"
    ? `Take back your previous decision (U). Free takebacks are noted on the score sheet and in the record${taken ? `: ${taken} so far` : ""}.`
    : "Take back your previous decision, as long as you have seen nothing new since (U)";
  undo.textContent = table.takebacks === "free" && taken ? `Undo (${taken} so far)` : "Undo";
  $("hint-button").hidden = st.seat !== 0 && st.seat !== 1;
  if (app.hint && st.version !== app.hint.version) hideHint();
  else if (app.hint) $("hint-follow").hidden = !app.hint.action || !st.prompt;
}

export function logItem(e, i, log, tricks, n, seat) {
  if (e.kind === "say") {
    const li = h("li", { className: `say speaker-${e.speaker}${e.speaker === seat ? " mine" : ""}` });
    li.append(h("b", { className: "who", text: n[e.speaker] ?? "?" }), ": ");
    li.append(h("span", { className: "speech" }, "\u201c", prettyText(e.text), "\u201d"));
    return li;
  }
  if (e.kind === "play") {
    let plays = 0;
    for (let k = 0; k <= i; k += 1) if (log[k].kind === "play") plays += 1;
    const lead = plays % 2 === 1;
    const li = h("li", { className: `play speaker-${e.speaker}${e.speaker === seat ? " mine" : ""}` });
    li.append(`${n[e.speaker] ?? "?"} ${lead ? "leads" : "plays"} `, isCard(e.card) ? cardSpan(e.card) : String(e.card || e.text || ""), ".");
    if (!lead) {
      const t = tricks[plays / 2 - 1];
      if (t && (t.winner === 0 || t.winner === 1)) li.append(h("span", { className: "aside", text: ` ${n[t.winner]} wins the trick.` }));
    }
    return li;
  }
  if (e.kind === "score") {
    const li = h("li", { className: `score speaker-${e.player}${e.player === seat ? " mine" : ""}` });
    li.append(h("b", { className: "who", text: n[e.player] ?? "?" }), ": ", h("span", { className: "speech", text: `\u201c${reckoning(e.points, e.total)}\u201d` }));
    const reason = [e.reason, e.points !== undefined ? `${e.points}` : null].filter((x) => x !== null && x !== undefined && x !== "").join(" · ");
    if (reason) li.append(" ", h("span", { className: "aside" }, prettyText(reason)));
    return li;
  }
  const li = h("li", { className: "note" });
  li.append(prettyText(e.text ?? ""));
  return li;
}

export function renderDealLog(log, tricks, n, seat) {
  const ol = h("ol", { className: "log-lines" });
  log.forEach((e, i) => ol.append(logItem(e, i, log, tricks, n, seat)));
  return ol;
}

export function renderLog(st, v) {
  const n = names(st);
  const { seat } = seats(st);
  const key = JSON.stringify([v.deal_number, v.log, v.tricks && v.tricks.length, app.archive.length, n]);
  if (app.keys.log === key) return;
  app.keys.log = key;
  const box = $("log");
  const nearBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 60;
  const parts = [];
  for (const d of app.archive) {
    const det = h("details", { className: "old-deal" }, h("summary", { text: d.deal ? `Deal ${d.deal}` : "The cut" }));
    det.append(renderDealLog(d.log, d.tricks, n, seat));
    parts.push(det);
  }
  if (v.deal_number) parts.push(h("h3", { className: "deal-heading", text: `Deal ${v.deal_number}` }));
  const log = v.log || [];
  if (log.length) parts.push(renderDealLog(log, v.tricks || [], n, seat));
  else parts.push(h("p", { className: "muted", text: "Nothing said yet." }));
  box.replaceChildren(...parts);
  if (nearBottom || !app.keys.logScrolled) {
    box.scrollTop = box.scrollHeight;
    app.keys.logScrolled = true;
  }
}

export function renderSheet(st, v) {
  const n = names(st);
  const table = st.table || {};
  const sheet = v.sheet || [];
  const auction = table.variant === "auction" || sheet.some((r) => r.contract);
  const key = JSON.stringify([sheet, v.totals, v.deal_points, v.result, v.games, v.game_scores, n, v.phase, table.status]);
  if (app.keys.sheet === key) return;
  app.keys.sheet = key;
  const head = h("tr", {}, h("th", { scope: "col", text: "Deal" }));
  if (auction) head.append(h("th", { scope: "col", text: "Contract" }));
  head.append(h("th", { scope: "col", className: "num", text: n[0] }), h("th", { scope: "col", className: "num", text: n[1] }), h("th", { scope: "col", text: "Notes" }));
  const body = h("tbody");
  for (const row of sheet) {
    const tr = h("tr", { className: row.annulled ? "annulled" : "" }, h("th", { scope: "row", text: row.deal ?? "" }));
    if (auction) tr.append(h("td", { text: row.contract || "" }));
    if (row.annulled) {
      tr.append(h("td", { className: "num", text: "–" }), h("td", { className: "num", text: "–" }), h("td", { text: row.notes || "annulled: both passed" }));
    } else {
      tr.append(h("td", { className: "num", text: pair(row.points, 0) }), h("td", { className: "num", text: pair(row.points, 1) }), h("td", { text: row.notes || "" }));
    }
    body.append(tr);
  }
  const playing = table.status !== "over" && v.phase !== "over" && table.status !== "waiting";
  if (playing && v.deal_number && !sheet.some((r) => r.deal === v.deal_number)) {
    const tr = h("tr", { className: "current" }, h("th", { scope: "row", text: `${v.deal_number}…` }));
    if (auction) tr.append(h("td", { text: v.contract ? v.contract.text || v.contract.bid : "" }));
    tr.append(h("td", { className: "num", text: pair(v.deal_points, 0) }), h("td", { className: "num", text: pair(v.deal_points, 1) }), h("td", { className: "muted", text: "in progress" }));
    body.append(tr);
  }
  const foot = h("tfoot");
  if (!playsGames(st)) {
    const tr = h("tr", {}, h("th", { scope: "row", text: "Partie" }));
    if (auction) tr.append(h("td"));
    tr.append(h("td", { className: "num", text: pair(v.totals, 0) }), h("td", { className: "num", text: pair(v.totals, 1) }), h("td"));
    foot.append(tr);
  }
  const tableEl = h("table", { className: "sheet-table" }, h("caption", { className: "visually-hidden", text: "Score sheet" }), h("thead", {}, head), body, foot);
  const parts = [tableEl];
  if (!sheet.length && !(playing && v.deal_number)) parts.splice(0, 1, h("p", { className: "muted", text: "No deal scored yet." }));
  const rules = v.rules;
  if (playsGames(st) && rules) {
    const won = [pair(v.games_won, 0), pair(v.games_won, 1)];
    const games = v.games || [];
    const list = h("ol", { className: "games" });
    games.forEach((g) => list.append(h("li", { text: `${n[g.winner]} wins${g.double ? " a double game" : ""}, ${pair(g.scores, 0)}–${pair(g.scores, 1)}` })));
    parts.push(h("p", { className: "games-line", text: `Games won: ${n[0]} ${won[0]}, ${n[1]} ${won[1]} (a double game counts two; the first to ${numberWord(rules.games_to_win)} wins).` }));
    if (games.length) parts.push(list);
    if (playing) parts.push(h("p", { className: "muted", text: `Game in progress: ${n[0]} ${pair(v.game_scores, 0)}, ${n[1]} ${pair(v.game_scores, 1)} (to ${rules.game_target}).` }));
  }
  if (v.result && v.result.text) parts.push(h("p", { className: "sheet-result", text: v.result.text }));
  $("sheet").replaceChildren(...parts);
}

export function showDealNotice(row, players) {
  const n = [0, 1].map((s) => players[s] || `Player ${s + 1}`);
  const box = $("notice");
  const text = row.annulled
    ? `Deal ${row.deal} annulled: both passed.`
    : `Deal ${row.deal} scored: ${n[0]} ${pair(row.points, 0)}, ${n[1]} ${pair(row.points, 1)}${row.notes ? ` (${row.notes})` : ""}.`;
  box.replaceChildren(h("span", { text }), h("button", {
    type: "button", className: "small", "aria-label": "Dismiss", text: "OK",
    onclick: () => {
      box.hidden = true;
    },
  }));
  box.hidden = false;
  clearTimeout(app.noticeTimer ?? undefined);
  app.noticeTimer = setTimeout(() => {
    box.hidden = true;
  }, 9000);
}

export function openTricks(s) {
  const st = app.state;
  if (!st) return;
  const v = st.view || {};
  const n = names(st);
  const dialog = $("tricks-dialog");
  const list = $("tricks-list");
  const tricks = v.tricks || [];
  const won = tricks.filter((t) => t.winner === s).length;
  $("tricks-title").textContent = `Tricks won by ${n[s]}: ${won} of ${tricks.length}`;
  list.replaceChildren();
  if (!tricks.length) list.append(h("li", { className: "muted", text: "No trick played yet." }));
  tricks.forEach((t, k) => {
    const mine = t.winner === s;
    const li = h("li", { className: "trick-line" + (mine ? " won" : " lost") },
      h("span", { className: "trick-no", text: `Trick ${k + 1}` }));
    (t.cards || []).forEach((c, i) => {
      const by = (t.leader + i) % 2;
      li.append(h("span", { className: "trick-card" }, cardSpan(c), h("small", { text: ` ${i === 0 ? "led by" : "by"} ${n[by]}` })));
    });
    li.append(h("span", { className: "trick-winner", text: `${n[t.winner] ?? "?"} wins` }));
    list.append(li);
  });
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
}
