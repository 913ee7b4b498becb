"""The computer players, above the engine: they see a partie only through a player's view and the
legal actions.

The agent protocol and the drivers that play parties (:mod:`~piquet.ai.agent`), the books' heuristics
(:mod:`~piquet.ai.books`), the one registry of levels (:mod:`~piquet.ai.levels`), inference of the hidden
hands (:mod:`~piquet.ai.inference`), the exact play solver (:mod:`~piquet.ai.solver`), the exchange
(:mod:`~piquet.ai.exchange`), Auction bidding (:mod:`~piquet.ai.bidding`), declarations for the
settlement (:mod:`~piquet.ai.declaring`) and the review of a game, what each choice was worth and why
(:mod:`~piquet.ai.review`). The arena that measures them stands apart (:mod:`piquet.measure`).
Nothing here imports the interfaces (:mod:`piquet.ui`) or the measurement.
"""
