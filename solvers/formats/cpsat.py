"""CP-SAT: the model the `cpsat` backend builds, in CP-SAT's own protobuf text (a `CpModelProto`),
so a reader sees what OR-Tools is given: its variables and domains, and each constraint as
CP-SAT holds it (`all_diff`, `exactly_one`, `bool_or`, `linear`, ...). OR-Tools reads the text
back (`google.protobuf.text_format.Parse` into a `CpModelProto`) and solves it as is.

The backend builds the model, never this module (formats sit below the backends, tests/layers.py):
the caller hands in a `ProtoBuilder`, the cpsat backend in the viewpoint asked for, and this
module writes what it built under a title in protobuf comments (`#`).
"""

from __future__ import annotations

from typing import Protocol

from queens.models import ConstraintModel, Puzzle, Unsupported
from queens.solvers.formats.board_numbering import decision_model, title


class ProtoBuilder(Protocol):
    """What builds a CP-SAT model of a lowered model: the cpsat backend (`CpSat`)."""

    def supports(self, model: ConstraintModel) -> str | None: ...

    def proto(self, model: ConstraintModel) -> object:
        """The CpModelProto built for `model` (its str() is the protobuf text)."""


def cpsat(puzzle: Puzzle, builder: ProtoBuilder, setting: str, *, size: int | None = None) -> str:
    """The protobuf text of the model `builder` (the cpsat backend in `setting`, its viewpoint)
    builds for `puzzle`; refused, with the backend's reason, where it builds none."""
    model = decision_model(puzzle, size, "cpsat")
    refusal = builder.supports(model)
    if refusal:
        raise Unsupported(refusal)
    lines = [f"# {title(puzzle, model)}",
             f"# the cpsat backend's model in its {setting} viewpoint, as CP-SAT's protobuf text (CpModelProto)"]
    return "\n".join(lines) + "\n" + str(builder.proto(model))
