// @ts-check
// The messages of the server as types: the table's WebSocket and the lobby's JSON API (docs/protocol.md says
// what each field means; the server's own types are the TypedDicts of piquet/ui/web/protocol.py).
// This module holds types only: the other modules import them in JSDoc, and tsc checks the page
// against them.

/** A card as the records write it: rank (A K Q J T 9 8 7) then suit (S H D C), e.g. "QS". */
/** @typedef {string} Card */
/** A seat: 0 or 1. */
/** @typedef {0 | 1} Seat */
/** @typedef {"cut" | "choose_dealer" | "deal" | "bid" | "carte_blanche" | "exchange" | "declare" | "play" | "concession" | "over"} Phase */
/** @typedef {"computer" | "room"} TableKind */
/** @typedef {"waiting" | "playing" | "over"} TableStatus */
/** @typedef {"off" | "fair" | "free"} Takebacks */
/**
 * Why the server would not act on a message.
 * @typedef {"malformed" | "too_large" | "not_your_turn" | "illegal" | "not_allowed" | "stale" | "busy"
 *   | "computer_failed" | "not_saved" | "internal"} ErrorCode
 */

/**
 * A phrase a player in a room says to the table (no free text): the page says it in its own words, `phrase.<id>`.
 * @typedef {"good_luck" | "well_played" | "thank_you" | "one_moment"} Phrase
 */

// ------------------------------------------------------------------ actions (client to server)

/**
 * A decision in the record's action format without `player`.
 * @typedef {{choose_dealer: number}
 *   | {packets: number}
 *   | {bid: string}
 *   | {carte_blanche: boolean, will_exchange?: number | null}
 *   | {exchange: Card[], show_rest: boolean}
 *   | {declare: string, combinations: Card[][]}
 *   | {play: Card}
 *   | {concede: true}
 *   | {accept_concession: boolean}} Action
 */

/**
 * @typedef {{type: "join", name: string}
 *   | {type: "action", action: Action, version: number, confirm?: boolean}
 *   | {type: "hint"}
 *   | {type: "undo", version: number, declare_best?: boolean}
 *   | {type: "move"}
 *   | {type: "say", phrase: Phrase}} ClientMessage
 */

// ------------------------------------------------------------------ the view

/**
 * A line of the deal's dialogue.
 * @typedef {{kind: "say", speaker: Seat, text: string}
 *   | {kind: "play", speaker: Seat, card: Card, text?: string}
 *   | {kind: "note", speaker?: Seat | null, text: string}
 *   | {kind: "score", player: Seat, points: number, category: string, reason: string, total: number}} LogEntry
 */

/** @typedef {{leader: Seat, cards: Card[], winner: Seat}} Trick */

/**
 * A line of a deal's count: a category either player scored in, and each player's points in it.
 * @typedef {{category: string, label: string, points: number[]}} CountLine
 */

/** A feat of a deal and the seat that scored it. @typedef {{feat: "carte_blanche" | "repique" | "pique" | "capot", player: Seat}} Feat */
/** An Auction contract's outcome: `margin` tricks made by (0 or more) or down (negative). @typedef {{holder: Seat, bid: string, doubles: number, margin: number}} Outcome */
/** Piquet au Cent: the game won in a deal. @typedef {{winner: Seat, double: boolean, reached: number[]}} DealGame */

/**
 * A row of the score sheet.
 * @typedef {{deal: number, elder: Seat, points: number[], tricks: number[], annulled: boolean,
 *   contract: string | null, outcome: Outcome | null, feats: Feat[], game: DealGame | null, notes: string,
 *   count: CountLine[]}} SheetRow
 */

/** @typedef {{winner: Seat | null, points: number, rubiconed: boolean, games: number[] | null, text: string}} Result */
/** @typedef {{player: Seat, call: string}} BidCall */
/** An Auction Piquet contract: the holder must win (`minus`: lose) `tricks` tricks. */
/** @typedef {{holder: Seat, bid: string, tricks: number, minus: boolean, doubles: number, text: string}} Contract */
/** A game of Piquet au Cent. */
/** @typedef {{winner: Seat, double: boolean, scores: number[], reached: number[]}} Game */

/**
 * The facts of the table's rules the page shows (the server reckons them, the page only says them):
 * `bidding`, each deal has an auction and a contract; `plays_games`, the partie is played in games.
 * @typedef {{bidding: boolean, plays_games: boolean, games_to_win: number, game_target: number | null,
 *   conceded_play: number, cards_points: number, carte_blanche_points: number}} Rules
 */

/**
 * One player's view of the partie (a spectator's has no hand).
 * @typedef {{
 *   phase: Phase, to_act: Seat | null, deal_number: number, dealer: Seat | null, elder: Seat,
 *   hand: Card[], dealt: Card[], discards: Card[], peeked: Card[], rest: Card[], show_rest: boolean | null,
 *   talon_left: number, hand_sizes: number[], exchanged: (number | null)[], will_exchange: number | null,
 *   carte_blanche: boolean[], shown_dealt: Card[][], revealed: Card[][],
 *   trick: Card[], leader: Seat, tricks: Trick[], tricks_won: number[],
 *   log: LogEntry[], deal_points: number[], sheet: SheetRow[], totals: number[], result: Result | null,
 *   bids: BidCall[], contract: Contract | null, games: Game[], game_scores: number[], games_won: number[],
 *   rules: Rules,
 * }} View
 */

// ------------------------------------------------------------------ prompts

/** @typedef {{kind: "choose_dealer", options: Seat[]}} ChooseDealerPrompt */
/** @typedef {{kind: "packets", options: number[]}} PacketsPrompt */
/** @typedef {{kind: "bid", options: string[]}} BidPrompt */
/**
 * The options are actions; a server may also send them as `{label, action}`.
 * @typedef {{carte_blanche: boolean, will_exchange?: number | null}} CarteBlancheAction
 * @typedef {{kind: "carte_blanche", options: (CarteBlancheAction | {label?: string, action: CarteBlancheAction})[]}} CarteBlanchePrompt
 */
/**
 * @typedef {{kind: "exchange", min: number, max: number, talon_left: number, younger: boolean,
 *   may_show_rest: boolean, advice: Card[] | null}} ExchangePrompt
 */
/** @typedef {{label: string, action: {declare: string, combinations: Card[][]}}} DeclareOption */
/** The category declared now (the point, the sequences, the sets). @typedef {"point" | "sequences" | "sets"} DeclareCategory */
/** @typedef {{kind: "declare", category: DeclareCategory, elder: boolean, in_full_only: boolean, options: DeclareOption[]}} DeclarePrompt */
/** @typedef {{kind: "play", cards: Card[], concede: boolean}} PlayPrompt */
/** @typedef {{kind: "concession", options: {accept_concession: boolean}[]}} ConcessionPrompt */
/**
 * What this seat must decide now.
 * @typedef {ChooseDealerPrompt | PacketsPrompt | BidPrompt | CarteBlanchePrompt | ExchangePrompt | DeclarePrompt
 *   | PlayPrompt | ConcessionPrompt} Prompt
 */

// ------------------------------------------------------------------ server to client

/**
 * The table; its `rules` are there from the start (a room waiting for its guest has no view yet). `budget`: the CPU
 * seconds the computer and its hints think for each decision (0: no limit; null in a room). `tutor`: the tutor's
 * threshold in points of the deal (null: no tutor). `public`: a room listed in the lobby, for anyone to join or watch.
 * @typedef {{id: string, kind: TableKind, variant: string, title: string, options: Record<string, boolean | number>,
 *   level: number | null, budget: number | null, tutor: number | null, status: TableStatus, public: boolean,
 *   takebacks: Takebacks, taken_back: number, invite: string | null, spectate: string, rules: Rules,
 *   rematch: boolean}} TableInfo
 */

/**
 * The whole table as this client may see it; `view` is null until the partie starts.
 * @typedef {{type: "state", table: TableInfo, seat: Seat | null, players: (string | null)[], computer: Seat | null,
 *   can_hint: boolean, can_undo: boolean, can_undo_declare_best: boolean, can_concede: boolean, version: number, view: View | null,
 *   prompt: Prompt | null}} StateMessage
 */
/** @typedef {{type: "error", code: ErrorCode, message: string}} ErrorMessage */
/** A choice a hint or the tutor names: in words, and as it is sent. @typedef {{text: string, action: Action}} Advice */
/**
 * One of an exchange's best discards: its value (points of the deal, a mean) and what it keeps or risks.
 * @typedef {{text: string, action: Action, value: number, says: string}} DiscardAdvice
 */
/**
 * The best choice, why, the next best and the margin (null where the review values nothing); at the exchange, the
 * best discards.
 * @typedef {{type: "hint", text: string, action: Action, reason: string | null, next: Advice | null,
 *   margin: number | null, discards: DiscardAdvice[]}} HintMessage
 */
/**
 * The tutor's warning: the choice was not applied; send `action` again with `confirm: true` to play it anyway.
 * @typedef {{type: "tutor", text: string, action: Action, loss: number, better: Advice, reason: string,
 *   version: number}} TutorMessage
 */
/** @typedef {{type: "seat", seat: Seat, token: string}} SeatMessage */
/** @typedef {{type: "move", link: string, expires_in: number}} MoveMessage */
/** A finished deal's talk (0: the cut), which the state no longer carries. */
/** @typedef {{deal: number, log: LogEntry[], tricks: Trick[]}} ArchivedDeal */
/** The finished deals' talk, sent as the page joins (the whole partie's, whichever tab or device played it). */
/** @typedef {{type: "talk", deals: ArchivedDeal[]}} TalkMessage */
/** A phrase a seated player said, heard by everyone at the room (kept in no record). */
/** @typedef {{type: "said", seat: Seat, phrase: Phrase}} SaidMessage */
/**
 * @typedef {StateMessage | ErrorMessage | HintMessage | TutorMessage | SeatMessage | MoveMessage | TalkMessage
 *   | SaidMessage} ServerMessage
 */

// ------------------------------------------------------------------ the lobby's JSON API

/**
 * A rule option a variant offers (`label`: its name in words, in the language asked for; `minimum` and `maximum`:
 * the bounds of a number option, 0 for a yes-or-no one).
 * @typedef {{name: string, label: string, default: boolean | number, description: string, source: string,
 *   minimum: number, maximum: number}} OptionSetup
 */
/** @typedef {{name: string, title: string, options: OptionSetup[]}} VariantSetup */
/** @typedef {{level: number, name: string}} LevelSetup */
/**
 * The computer's thinking time a new table may ask for, in CPU seconds per decision (`maximum` null: no cap, and 0,
 * no limit, is allowed).
 * @typedef {{default: number, minimum: number, maximum: number | null}} BudgetSetup
 */
/** GET /api/setup's answer. */
/**
 * The server's setup; `tutor`: the tutor's threshold, in points of the deal, where a table asks for the tutor;
 * `public_rooms`: whether the server lists rooms in its lobby.
 * @typedef {{variants: VariantSetup[], levels: LevelSetup[], budget: BudgetSetup, tutor: number,
 *   public_rooms: boolean}} SetupAnswer
 */
/** POST /api/tables's body. */
/**
 * @typedef {{kind: TableKind, variant: string, options: Record<string, boolean | number>, name: string,
 *   level?: number, takebacks?: Takebacks, budget?: number, tutor?: boolean | number | null,
 *   public?: boolean}} CreateTable
 */
/** POST /api/tables's answer: the creator's secret link, and the room's invite. */
/** @typedef {{id: string, token: string, links: {play: string, invite: string | null, spectate: string}}} CreatedTable */
/**
 * A room listed in the lobby (GET /api/lobby): never a seat's secret; `players[1]` null while its seat is free.
 * @typedef {{id: string, variant: string, options: Record<string, boolean | number>, players: (string | null)[],
 *   status: "waiting" | "playing", created: number, watch: string}} PublicRoom
 */
/** @typedef {{rooms: PublicRoom[], page: number, pages: number, page_size: number}} LobbyPage */

export {};
