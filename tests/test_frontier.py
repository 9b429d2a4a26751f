"""The frontier bench (experiments/bench_frontier.py) on the small sizes of each of its rows: every
answer, ours and the peers', must prove the value in the repository's OEIS terms
(tests/data/sequences.json) or the closed form, itself checked against the OEIS terms here. The
attempts run through the bench's own `ours` and `measure`, with a budget no small size needs (the
whole file: 11 s on 2 quiet cores)."""

import pytest
from queens.experiments.bench_frontier import (
    PIECES,
    Instance,
    closed_form,
    colouring,
    cube,
    domination,
    independence,
    line,
    measure,
    ours,
    peaceable,
    rows,
    two_per_line,
)

SMALL = [domination(6), colouring(5, None), peaceable(5, None), cube(4, None), two_per_line(4, None),
         *(independence(piece, 5) for piece in PIECES)]
SEQUENCE = {"γ(Q_n), proved": "A075458", "χ(queen n_n)": "A088202", "peaceable queens": "A250000",
            "most queens on n × n × n": "A068940", "two rooks per row and column": "A001499"}


def size(instance: Instance) -> int:
    return int(instance.peer[1][-1])  # type: ignore[call-overload]  # the peers' last argument is n


@pytest.mark.parametrize("instance", SMALL, ids=lambda i: f"{i.row} {i.label}")
def test_our_backends_prove_the_published_value_on_a_small_size(instance, reference):
    if instance.row in SEQUENCE:
        assert instance.published == reference.term(SEQUENCE[instance.row], size(instance))
    for backend in instance.backends:
        attempt = ours(instance, backend, 30.0)
        assert attempt.proved and attempt.value == instance.published, attempt


@pytest.mark.parametrize("instance", SMALL, ids=lambda i: f"{i.row} {i.label}")
def test_every_answer_on_a_small_size_is_the_published_one(instance):
    attempts = measure(instance, 30.0, {})
    answered = [a for a in attempts if not a.skipped]
    assert any(a.who in instance.backends for a in answered), attempts
    for attempt in answered:
        assert attempt.proved and attempt.value == instance.published, attempt
    for attempt in attempts:  # a peer may lack a model (MIP does not count) or be missing, never fail
        assert attempt.skipped is None or attempt.skipped.startswith(("no model", "not installed")), attempt


def test_the_closed_forms_are_the_oeis_terms(reference):
    for n in range(3, 21):
        assert closed_form("knight", n) == reference.term("A030978", n)
    for n in range(1, 21):
        assert closed_form("king", n) == reference.term("A008794", n + 1)


def test_every_published_value_of_the_issue_rows_is_in_the_reference(reference):
    for sizes in rows():
        for instance in sizes:
            if instance.row in SEQUENCE:
                assert instance.published == reference.term(SEQUENCE[instance.row], size(instance))
    assert [domination(n).published for n in range(1, 26)] == [reference.term("A075458", n) for n in range(1, 26)]


def test_a_limit_is_shown_as_reached_never_as_a_success():
    instance = peaceable(8, 30.0)
    attempt = ours(instance, "cpsat", 1.0)
    assert not attempt.proved
    shown = line(instance, 1.0, [attempt])
    assert "(limit)" in shown and "✗ (≤ 30 s)" in shown and "none answered" in shown


def test_who_gave_up_at_a_smaller_size_is_skipped_but_the_first_backend():
    instance = domination(4)
    given_up = {backend: "gave up" for backend in instance.backends}
    attempts = {a.who: a for a in measure(instance, 30.0, given_up)}
    assert attempts[instance.backends[0]].proved
    assert all(attempts[b].skipped == "gave up" for b in instance.backends[1:])
