"""`queens info`: what is installed here: the version, the optional extras, and which kernel of
the classes counter runs on this machine, and why. The first thing to paste into a bug report."""

from __future__ import annotations

import platform

from queens.commands.answer import payload, print_payload
from queens.commands.common import command, json_option, out
from queens.solvers.result import suite_version
from queens.solvers.runtime.extras import EXTRAS, install_command, missing


@command("info", examples=(
    "queens info",
    "QUEENS_KERNEL=scalar queens info --json  # force the portable kernel",
))
@json_option
def info_command(as_json: bool) -> int:
    """The version, the extras installed, and the classes counter's kernel: the CPU features seen,
    and whether QUEENS_KERNEL forced it."""
    from queens.solvers.native.kernels import ENVIRONMENT, NAMES, choose_kernel

    choice = choose_kernel()
    extras = {name: not missing(name) for name in EXTRAS}
    if as_json:  # docs/json.md's shape: what the classes counter would run goes under `details`
        data = payload("info", None, None, verified=False, kernel=choice.name, chosen_by=choice.chosen_by,
                       reason=choice.reason, machine=platform.machine(), cpu_features=list(choice.features),
                       compiled=list(choice.compiled), supported=list(choice.supported),
                       scalar_build=choice.scalar_build, python=platform.python_version(), extras=extras)
        print_payload({**data, "backend": "native", "method": "classes", "why": choice.reason})
        return 0
    rows = [("version", f"queens {suite_version()}, Python {platform.python_version()}"),
            *((f"extra {name}", "installed" if present else f"not installed: {install_command(name)}")
              for name, present in extras.items()),
            ("kernel", choice.name), ("why", choice.reason), ("machine", platform.machine()),
            ("CPU features seen", " ".join(choice.features) or "(none asked on this architecture)"),
            ("kernels in this build", " ".join(choice.compiled)),
            ("kernels this CPU runs", " ".join(choice.supported)),
            ("scalar kernel's build", choice.scalar_build),
            ("force one with", f"{ENVIRONMENT}={'|'.join(NAMES)}")]
    for label, value in rows:
        out.print(f"{label + ':':<23}{value}", markup=False)
    return 0
