"""`queens info`: which kernel of the fast counter runs on this machine, and why."""

from __future__ import annotations

import platform

import click

from queens.commands.answer import payload, print_payload
from queens.commands.common import json_option, out


@click.command("info")
@json_option
def info_command(as_json: bool) -> int:
    """The fast counter's kernel: the CPU features seen, and whether QUEENS_KERNEL forced it."""
    from queens.solvers.native.kernels import ENVIRONMENT, NAMES, choose_kernel

    choice = choose_kernel()
    if as_json:  # docs/json.md's shape: what the fast counter would run goes under `details`
        data = payload("info", None, None, verified=False, kernel=choice.name, chosen_by=choice.chosen_by,
                       reason=choice.reason, machine=platform.machine(), cpu_features=list(choice.features),
                       compiled=list(choice.compiled), supported=list(choice.supported),
                       scalar_build=choice.scalar_build)
        print_payload({**data, "backend": "native", "method": "fast", "why": choice.reason})
        return 0
    rows = [("kernel", choice.name), ("why", choice.reason), ("machine", platform.machine()),
            ("CPU features seen", " ".join(choice.features) or "(none asked on this architecture)"),
            ("kernels in this build", " ".join(choice.compiled)),
            ("kernels this CPU runs", " ".join(choice.supported)),
            ("scalar kernel's build", choice.scalar_build),
            ("force one with", f"{ENVIRONMENT}={'|'.join(NAMES)}")]
    for label, value in rows:
        out.print(f"{label + ':':<23}{value}", markup=False)
    return 0
