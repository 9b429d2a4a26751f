"""`queens info`: which kernel of the fast counter runs on this machine, and why."""

from __future__ import annotations

import platform

import click

from queens.commands.common import json_option, out, print_json


@click.command("info")
@json_option
def info_command(as_json: bool) -> int:
    """The fast counter's kernel: the CPU features seen, and whether QUEENS_KERNEL forced it."""
    from queens.solvers.native.kernels import ENVIRONMENT, NAMES, choose_kernel

    choice = choose_kernel()
    if as_json:
        print_json({"command": "info", "status": "ok", "kernel": choice.name, "chosen_by": choice.chosen_by,
                    "reason": choice.reason, "machine": platform.machine(), "cpu_features": list(choice.features),
                    "compiled": list(choice.compiled), "supported": list(choice.supported)})
        return 0
    rows = [("kernel", choice.name), ("why", choice.reason), ("machine", platform.machine()),
            ("CPU features seen", " ".join(choice.features) or "(none asked on this architecture)"),
            ("kernels in this build", " ".join(choice.compiled)),
            ("kernels this CPU runs", " ".join(choice.supported)),
            ("force one with", f"{ENVIRONMENT}={'|'.join(NAMES)}")]
    for label, value in rows:
        out.print(f"{label + ':':<23}{value}", markup=False)
    return 0
