"""The audit of new inputs (`tests.audit_inputs`) as a test: a few inputs in `make test`, as many
as QUEENS_FUZZ_EXAMPLES says when it is set (`make fuzz-cli` sets it); 0 wrong answers, 0
tracebacks, 0 hangs, only the documented exit codes."""

from __future__ import annotations

import os

from tests.audit_inputs import audit

INPUTS = int(os.environ.get("QUEENS_FUZZ_EXAMPLES", "12"))


def test_new_inputs_get_right_answers_or_one_line() -> None:
    tally = audit(INPUTS, seed=int(os.environ.get("QUEENS_AUDIT_SEED", "0")))
    assert not tally.failures, "\n".join([tally.line(), *tally.failures])
    assert tally.inputs == INPUTS
