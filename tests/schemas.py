"""The documented JSON schemas (docs/*.schema.json), each compiled once per process.

`jsonschema.validate(instance, schema)` checks the schema itself against its metaschema on
every call before it checks the instance: 0.12 s a call on the output schema, 25 s of the
suite's 213 calls in tests/test_option_matrix.py alone. A validator built once checks only
the instance; the schema is still checked, once, when it is built.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import jsonschema
from jsonschema.protocols import Validator

DOCS = Path(__file__).resolve().parents[1] / "docs"
OUTPUT = "queens-output.schema.json"
"""Every command's --json and the Python API's `to_json()`."""
PUZZLE_FILE = "puzzle-file.schema.json"
"""A puzzle file (TOML), read as the JSON data it holds."""


@cache
def validator(name: str) -> Validator:
    """The validator of docs/`name`, the schema checked against its own metaschema first."""
    schema = json.loads((DOCS / name).read_text())
    kind = jsonschema.validators.validator_for(schema)
    kind.check_schema(schema)
    return kind(schema)


def validate(instance: object, name: str = OUTPUT) -> None:
    """Raise jsonschema's ValidationError unless `instance` fits docs/`name`."""
    validator(name).validate(instance)
