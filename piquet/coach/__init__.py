"""The review and the coaching, above the computer players and below the interfaces: what each choice of a
game was worth and why (:mod:`~piquet.coach.review`), each deal's luck (:mod:`~piquet.coach.luck`), where a
player's losses place him among the levels (:mod:`~piquet.coach.ladder`), a review written into its record
(:mod:`~piquet.coach.annotate`), a reviewed record's worst decisions as exercises
(:mod:`~piquet.coach.exercises`), and the review asked before a decision: a hint, the tutor's check
(:mod:`~piquet.coach.hints`).

It stands on the engine and the players (the review values a choice as the strongest level would), and no
player imports it (``tests/test_architecture.py``). Nothing here imports the interfaces (:mod:`piquet.ui`),
the measurement or the research adapters; the command line (``piquet analyse``, ``piquet exercises``), the
terminal and the browser table call it.
"""
