"""The engine: the game itself, with no dependency beyond the standard library.

Cards and sets of cards (:mod:`~piquet.engine.cards`), combinations (:mod:`~piquet.engine.combinations`),
actions (:mod:`~piquet.engine.actions`), the partie as a state machine (:mod:`~piquet.engine.partie`), the
variants and their rule options (:mod:`~piquet.engine.variants`), scoring as an ordered event log
(:mod:`~piquet.engine.scoring`), the log's events (:mod:`~piquet.engine.events`), what each player may see
(:mod:`~piquet.engine.view`), game records (:mod:`~piquet.engine.record`) and the game's words
(:mod:`~piquet.engine.words`). Nothing here imports the computer players (:mod:`piquet.ai`) or the interfaces
(:mod:`piquet.ui`).
"""
