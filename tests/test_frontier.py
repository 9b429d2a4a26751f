"""The frontier bench (experiments/bench_frontier.py) on the small sizes of each of its rows: every
answer, ours and the peers', must prove the value in the repository's OEIS terms
(tests/data/sequences.json) or the closed form, itself checked against the OEIS terms here. The
attempts run through the bench's own `ours` and `measure`, with a budget no small size needs (the
whole file: 11 s on 2 quiet cores)."""

import pytest
from queens.experiments.bench_frontier import (
    PIECES,
    ROWS,
    Attempt,
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
    table,
    two_per_line,
    why_slower,
)

SMALL = [domination(6), colouring(5, None), peaceable(5, None), cube(4, None), two_per_line(4, None),
         *(independence(piece, 5) for piece in PIECES)]
SEQUENCE = {"γ(Q_n), proved": "A075458", "χ(queen n_n)": "A088202", "peaceable queens": "A250000",
            "most queens on n × n × n": "A068940", "two rooks per row and column": "A001499"}


def size(instance: Instance) -> int:
    n = instance.peer[1][-1]  # the peers' last argument is n
    assert isinstance(n, int | str), instance.peer
    return int(n)


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
    for name, sizes in rows():
        assert name in ROWS
        for instance in sizes:
            if instance.row in SEQUENCE:
                assert instance.published == reference.term(SEQUENCE[instance.row], size(instance))
    assert [domination(n).published for n in range(1, 26)] == [reference.term("A075458", n) for n in range(1, 26)]


def test_a_limit_is_shown_as_reached_never_as_a_success():
    instance = peaceable(8, 30.0)
    attempt = ours(instance, "cpsat", 1.0)
    assert not attempt.proved
    slow: list[tuple[Attempt, Attempt]] = []
    shown = line(instance, 1.0, [attempt], slow)
    assert "(limit)" in shown and "✗ (≤ 30 s)" in shown and "none answered" in shown
    assert slow == []


def test_a_row_above_the_goal_is_explained_by_the_solvers_own_time():
    """Our best against the best peer: a real call's solver time is shown, a row slower than half
    the peer's time is kept, and the note splits our time into the solver's and the rest."""
    instance = domination(5)
    mine = ours(instance, "mip", 30.0)
    assert mine.proved and mine.solver is not None and 0 <= mine.solver <= mine.seconds
    assert f"solver {mine.solver:.2f} s" in mine.shown(instance.published)
    peer = Attempt("a peer", instance.published, instance.published, seconds=mine.seconds / 4)
    slow: list[tuple[Attempt, Attempt]] = []
    line(instance, 30.0, [mine, peer], slow)
    assert slow == [(mine, peer)]
    note = why_slower([(Attempt("x", 1, 1, seconds=1.0, solver=0.1), Attempt("p", 1, 1, seconds=0.4)),
                       (Attempt("y", 1, 1, seconds=2.0, solver=1.5), Attempt("q", 1, 1, seconds=1.0))])
    assert "2 rows above 0.5×" in note and "median 0.700 s" in note and "on 1 of them" in note


def test_who_gave_up_at_a_smaller_size_is_skipped_but_the_first_backend():
    instance = domination(4)
    given_up = {backend: "gave up" for backend in instance.backends}
    attempts = {a.who: a for a in measure(instance, 30.0, given_up)}
    assert attempts[instance.backends[0]].proved
    assert all(attempts[b].skipped == "gave up" for b in instance.backends[1:])


def test_rows_runs_only_the_rows_named(capsys):
    """`--rows` picks rows by name: the two-rooks row alone, capped, no γ(Q_n) sweep."""
    table(1.0, print, ["two-per-line"])
    shown = [row for row in capsys.readouterr().out.splitlines() if row.startswith("| two rooks")]
    assert [row.split(" | ")[1] for row in shown] == ["n = 7", "n = 8"]
