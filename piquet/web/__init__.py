"""The browser table and the server of ``piquet serve`` (the ``web`` extra: FastAPI, uvicorn).

:mod:`piquet.web.protocol` (the messages) and :mod:`piquet.web.store` (the
SQLite store) need only the standard library; :mod:`piquet.web.app` is the
server. The protocol is documented in ``docs/protocol.md``.
"""
