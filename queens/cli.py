"""The `queens` command: solve, count and draw puzzles of the N-Queens family.

The conventions every command keeps live here and in `queens.commands.common`, not in the
commands, so a new command has them by being registered (docs/cli.md):

- `--version`, and the version in `queens info` and in every `--json` answer;
- two examples at least at the end of each command's help (`QueensCommand`), and FAMILY|FILE in
  the usage line with the families listed below the options;
- "did you mean" for a mistyped command, option (click's), family, backend or method (difflib);
- shell completion, click's: `eval "$(_QUEENS_COMPLETE=bash_source queens)"`;
- the exit codes: 0 ok (a proved "no solution" is an answer), 1 an error (bad input: a board
  that cannot be, a file that cannot be read; a time limit), 2 usage (the command line itself:
  an unknown command, option, family or backend, a missing or malformed value, an option that
  does not apply to the puzzle or that no strategy takes, a missing extra or C extension:
  nothing was attempted), 3 a count that disagrees with the native ground truth, 130
  interrupted (Ctrl-C or SIGTERM; the console script, queens/console.py, installs the handlers
  before this module is imported). Errors are one line on stderr, never a traceback (set
  QUEENS_DEBUG=1 to see one).
"""

from __future__ import annotations

import os
import sys
from importlib import import_module

import click

from queens.commands.common import QueensGroup, echo, err
from queens.models import NativeMissing, QueensError
from queens.models.errors import BadOption, OutputError
from queens.models.output import STANDARD_OUTPUT, stdout_closed
from queens.solvers import BACKENDS
from queens.solvers.result import suite_version

COMMANDS = {
    "bench": ("queens.experiments.command", "bench_command"),
    "count": ("queens.commands.count", "count_command"),
    "explain": ("queens.commands.explain", "explain_command"),
    "export": ("queens.commands.export", "export_command"),
    "generate": ("queens.commands.placements", "generate_command"),
    "info": ("queens.commands.info", "info_command"),
    "run": ("queens.commands.run", "run_command"),
    "search": ("queens.commands.search", "search_command"),
    "serve": ("queens.commands.serve", "serve_command"),
    "show": ("queens.commands.solve", "show_command"),
    "solve": ("queens.commands.solve", "solve_command"),
    "trace": ("queens.commands.trace", "trace_command"),
    "verify": ("queens.commands.placements", "verify_command"),
    "why": ("queens.commands.why", "why_command"),
}
"""Each command's module and name, imported only when the command runs (or a help lists them):
a `queens count` loaded all fourteen, the explorer's web server and the experiment runner
included (what that cost: experiments/results/start-up.md)."""

EXIT_CODES = {0: "ok", 1: "error", 2: "usage", 3: "disagreement", 130: "interrupted"}
"""The documented exit codes (docs/cli.md); tests/test_cli_conventions.py walks them over every command."""


class QueensCLI(QueensGroup):
    """The top group: its commands loaded when named (`COMMANDS`); its help names the backends as
    the registry holds them (a count written once, there), and ends with examples, the exit codes
    and where the rest is documented."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, name = COMMANDS[cmd_name]
        found: click.Command = getattr(import_module(module), name)
        return found

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        """click's, with "did you mean" drawn from `COMMANDS` (click's own reads the loaded ones)."""
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand as missing:
            raise click.exceptions.NoSuchCommand(args[0], possibilities=list(COMMANDS), ctx=ctx) from missing

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(f"Solve, count, draw and explain puzzles of the N-Queens family: {len(BACKENDS)} "
                                 f"backends ({', '.join(BACKENDS)}), chosen for you by structure and checked "
                                 "against the native counter.")

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_epilog(ctx, formatter)
        with formatter.section("Exit codes"):
            formatter.write_text(", ".join(f"{code} {meaning}" for code, meaning in EXIT_CODES.items()) + ".")
        formatter.write_paragraph()
        formatter.write_text("`queens COMMAND --help` for a command's options and examples; docs/cli.md for the "
                             "conventions and shell completion.")


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        echo(f"queens {suite_version()}")
        ctx.exit()


@click.group(cls=QueensCLI, context_settings={"help_option_names": ["-h", "--help"]}, examples=(
    "queens count nqueens -n 12          # 14,200, by the native counter",
    "queens solve peaceable -n 6         # 5 white and 5 black queens, proved optimal",
    "queens count nqueens -n 8 -b all    # every backend side by side, checked",
))
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Print the version and exit.")
def cli() -> None:
    """Solve, count, draw and explain puzzles of the N-Queens family (the help shown is
    QueensCLI.format_help_text's, which names the registry's backends)."""


def main(argv: list[str] | None = None) -> None:
    """Run the CLI and turn every failure into a message and an exit code."""
    try:
        if stdout_closed():  # refused before any work: every answer goes there
            raise OutputError("cannot write to stdout: it is closed (redirect it to a file, or to /dev/null)")
        code = cli.main(args=argv, prog_name="queens", standalone_mode=False)
        STANDARD_OUTPUT.flush()  # a full disk or a closed pipe said here, not lost at exit
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
