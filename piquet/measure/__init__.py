"""Measurement, apart from the players: the arena where players meet on mirrored deals
(:mod:`~piquet.measure.arena`: the run; :mod:`~piquet.measure.mirror`: the agents and the games of a mirrored
sample; :mod:`~piquet.measure.results`: the statistics, the results files, their printing), the sequential
test that stops a match once its result is clear (:mod:`~piquet.measure.sprt`), and the arena's Ray backend,
which plays its deals on a cluster (:mod:`~piquet.measure.arena_ray`, the research extra; Ray is imported there
only).

It stands on the engine and the computer players, and measures them from outside: no player imports it
(``tests/test_architecture.py``), so a player cannot depend on how it is measured. Nothing here imports the
interfaces (:mod:`piquet.ui`); the command line (``piquet arena``) and the benchmarks call it.
"""
