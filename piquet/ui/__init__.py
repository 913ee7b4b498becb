"""The interfaces, on top: the ``piquet`` command (:mod:`~piquet.ui.cli`), the terminal game
(:mod:`~piquet.ui.terminal`), what a person is offered at a decision (:mod:`~piquet.ui.menus`) and the
browser table (:mod:`piquet.ui.web`). They are optional extras (``[terminal]``, ``[web]``) and talk to
the engine only through actions and per-player views.
"""
