"""The record format's JSON Schema (``piquet/data/record.schema.json``) for the tests that check records against it:
read once, and its validator made once. ``jsonschema.validate`` would check the schema itself against its
meta-schema at every call (some 50 ms each); ``tests/test_schema_variants.py`` checks it once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

RECORD_SCHEMA: dict[str, Any] = json.loads(
    (Path(__file__).parent.parent / "piquet" / "data" / "record.schema.json").read_text())
RECORD_VALIDATOR = jsonschema.Draft202012Validator(RECORD_SCHEMA)


def validate_record(data: object) -> None:
    """Raise the :class:`jsonschema.ValidationError` ``jsonschema.validate`` would (the errors' best match) unless
    ``data`` is a valid record."""
    error = jsonschema.exceptions.best_match(RECORD_VALIDATOR.iter_errors(data))
    if error is not None:
        raise error
