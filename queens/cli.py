"""The `queens` command: solve, count and draw puzzles of the N-Queens family.

Exit codes: 0 ok, 1 error (bad input, a refusal, a time limit), 2 usage (including an option
no backend takes and missing C extensions), 3 a count that disagrees with the native ground
truth, 130 interrupted (Ctrl-C or SIGTERM; the console script, queens/console.py, installs the
handlers before this module is imported). Errors are one line on stderr, never a traceback (set
QUEENS_DEBUG=1 to see one).
"""

from __future__ import annotations

import os
import sys

import click

from queens.commands.bench import bench_command
from queens.commands.common import err
from queens.commands.count import count_command
from queens.commands.explain import explain_command
from queens.commands.export import export_command
from queens.commands.info import info_command
from queens.commands.placements import generate_command, verify_command
from queens.commands.run import run_command
from queens.commands.serve import serve_command
from queens.commands.solve import show_command, solve_command
from queens.commands.trace import trace_command
from queens.commands.why import why_command
from queens.models import NativeMissing, QueensError
from queens.models.errors import BadOption


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Constraint models of the N-Queens family on four backends: native, cpsat, sat, csp."""


cli.add_command(solve_command)
cli.add_command(count_command)
cli.add_command(run_command)
cli.add_command(show_command)
cli.add_command(explain_command)
cli.add_command(trace_command)
cli.add_command(export_command)
cli.add_command(serve_command)
cli.add_command(bench_command)
cli.add_command(generate_command)
cli.add_command(verify_command)
cli.add_command(info_command)
cli.add_command(why_command)


def main(argv: list[str] | None = None) -> None:
    """Run the CLI and turn every failure into a message and an exit code."""
    try:
        code = cli.main(args=argv, prog_name="queens", standalone_mode=False)
    except click.ClickException as error:  # usage errors: exit 2
        error.show()
        code = error.exit_code
    except (KeyboardInterrupt, click.Abort):
        err.print("interrupted")
        code = 130
    except (BadOption, NativeMissing) as error:  # nothing was attempted: as a usage error
        err.print(f"error: {error}", markup=False)
        code = 2
    except QueensError as error:
        err.print(f"error: {error}", markup=False)
        code = getattr(error, "exit_code", 1)
    except Exception as error:  # a bug: still one line, unless asked for the traceback
        if os.environ.get("QUEENS_DEBUG"):
            raise
        err.print(f"internal error: {type(error).__name__}: {error}", markup=False)
        code = 1
    sys.exit(code if isinstance(code, int) else 0)
