"""The computer players, above the engine: they see a partie only through a player's view and the
legal actions.

The agent protocol and the drivers that play parties (:mod:`~piquet.ai.agent`), the books' heuristics
(:mod:`~piquet.ai.books`), the one registry of levels (:mod:`~piquet.ai.levels`), inference of the hidden
hands (:mod:`~piquet.ai.inference`), the exact play solver (:mod:`~piquet.ai.solver`), the exchange
(:mod:`~piquet.ai.exchange`), Auction bidding (:mod:`~piquet.ai.bidding`), declarations for the
settlement (:mod:`~piquet.ai.declaring`). The review and the coaching that stand on them are a floor above
(:mod:`piquet.coach`), and the arena that measures them stands apart (:mod:`piquet.measure`). Nothing here
imports the coaching, the interfaces (:mod:`piquet.ui`) or the measurement.
"""
