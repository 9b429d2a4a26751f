"""The import-layer contract (tests/layers.py) holds, and it catches an upward import."""

from __future__ import annotations

from tests import layers


def test_no_import_goes_up_a_layer() -> None:
    wrong, allowed = layers.violations(layers.edges())
    assert wrong == []
    assert set(allowed) == set(layers.DEFERRED), "a listed deferred edge is gone: strike it from DEFERRED"


def test_an_upward_import_is_caught() -> None:
    planted = [layers.Edge("queens.models.puzzle", "queens.solvers.registry", 1, deferred=False),
               layers.Edge("queens.solvers.backends.sat", "queens.solvers.routing.router", 2, deferred=True),
               layers.Edge("queens.web.server", "queens.experiments.report", 3, deferred=False)]
    wrong, _ = layers.violations(planted)
    assert [message.split(" (")[0] for message in wrong] == ["queens.models.puzzle", "queens.solvers.backends.sat",
                                                             "queens.web.server"]


def test_every_module_has_a_part() -> None:
    parts = {layers.part(edge.source) for edge in layers.edges()}
    assert parts <= set(layers.MAY_IMPORT)
    assert {"models", "cli", "experiments", "solvers.backends", "solvers.routing"} <= parts
