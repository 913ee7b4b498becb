"""The browser table and the server of ``piquet serve`` (the ``web`` extra: FastAPI, uvicorn).

:mod:`piquet.ui.web.protocol` (the messages) and :mod:`piquet.ui.web.store` (the
SQLite store) need only the standard library; :mod:`piquet.ui.web.app` is the
server. The protocol is documented in ``docs/protocol.md``.
"""
