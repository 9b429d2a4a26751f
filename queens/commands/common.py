"""Options and output shared by the commands: the family, the backend, --json; and the conventions
every command keeps (`QueensCommand`: examples in its help; "did you mean" for a mistyped choice).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from queens.commands.number_options import Count, Seconds, Size
from queens.models import Cell, Puzzle, numbers
from queens.models.errors import InvalidNumber
from queens.models.expression import LARGEST as PARAMETER_BOUND
from queens.models.families import FAMILIES, FamilyOptions, build, reason_for_none
from queens.models.output import STANDARD_OUTPUT
from queens.models.puzzle_file import PUBLISHED, read
from queens.solvers import BACKENDS
from queens.solvers.backend import Task
from queens.solvers.formats.minizinc import VALUE_CHOICES, VARIABLE_CHOICES
from queens.solvers.options import RENAMED, Options
from queens.solvers.routing.strategies import registered

out = Console(file=STANDARD_OUTPUT, highlight=False, soft_wrap=True)
"""Results go to stdout, through the one writer (`queens.models.output`: a closed or full stdout
is an error, never an answer lost)..."""
err = Console(stderr=True, highlight=False, soft_wrap=True)
"""...progress, logs and errors to stderr."""


def echo(text: str) -> None:
    """A line of text on stdout as it is (no markup, no wrapping): JSON, an export, a placement."""
    STANDARD_OUTPUT.write(text + "\n")
    STANDARD_OUTPUT.flush()


def _cell(text: str) -> Cell:
    try:
        return numbers.cell(text, "a cell")
    except InvalidNumber:
        raise click.BadParameter(f"{text!r} is not a cell 'row,col'") from None


def _remember(ctx: click.Context, param: click.Parameter, value: object) -> object:
    """Keep a family option in the context for `make_puzzle`, noting whether it was given."""
    if value is not None and value is not False and value != ():  # 0 is a value (--pieces 0), not "not given"
        ctx.meta.setdefault("family options", {})[param.name] = value
    return value


def _remember_cells(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> None:
    _remember(ctx, param, tuple(_cell(text) for text in value))


Command = Callable[..., Any]
Decorator = Callable[[Command], Command]


def _flag(*decls: str, remember: Callable[..., object] = _remember, **attrs: Any) -> Decorator:
    return click.option(*decls, callback=remember, expose_value=False, **attrs)


_FAMILY_FLAGS = [
    _flag("--queens", help="completion: pre-placed queens, a FILE of 'row col' lines or 'r,c r,c' (0-indexed)."),
    _flag("--vector", help="completion: Grigoryan's vector Q(i)=j, 1-indexed, 0 = empty row (text or FILE)."),
    _flag("--pawns", type=Count(0), help="ninequeens: number of pawns the solver places."),
    _flag("--pawn", multiple=True, remember=_remember_cells, help="ninequeens: a fixed pawn at r,c (repeatable)."),
    _flag("--independent", is_flag=True, help="domination: the queens may not attack each other."),
    _flag("--pieces", type=Count(0), help="knights, ninequeens: how many pieces."),
]


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """" Did you mean 'x'?" for the closest of `choices` (difflib's ratio, as click's own
    suggestion for a mistyped option or command), or "" when none is close.

    >>> did_you_mean("nqueen", ["nqueens", "rooks"]), did_you_mean("zzz", ["nqueens"])
    (" Did you mean 'nqueens'?", '')
    """
    close = difflib.get_close_matches(word, list(choices), n=3, cutoff=0.6)
    return f" Did you mean {' or '.join(repr(choice) for choice in close)}?" if close else ""


class SuggestingChoice(click.Choice):  # type: ignore[type-arg]  # click's Choice is generic in its own stubs only
    """A choice whose refusal names the closest choices: `--backend cpsta` says "Did you mean 'cpsat'?"."""

    def get_invalid_choice_message(self, value: Any, ctx: click.Context | None) -> str:
        return super().get_invalid_choice_message(value, ctx) + did_you_mean(str(value), map(str, self.choices))


class MethodChoice(SuggestingChoice):
    """--method's choices; a method renamed since it shipped (`RENAMED`) is refused with its new name."""

    def get_invalid_choice_message(self, value: Any, ctx: click.Context | None) -> str:
        if value in RENAMED:
            return f"{value!r} is now called {RENAMED[value]!r}."
        return super().get_invalid_choice_message(value, ctx)


class FamilyChoice(SuggestingChoice):
    """The FAMILY argument's choices: the family registry as it is when the command runs, so a
    family registered after import (a plug-in, a test's throw-away family) is a choice too."""

    def __init__(self) -> None:
        super().__init__(tuple(FAMILIES))

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(FAMILIES)

    @choices.setter
    def choices(self, value: object) -> None:
        """Ignored: the registry is the list."""


def _remember_parameters(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> None:
    """-p NAME=VALUE, repeatable: a puzzle file's named parameters (docs/puzzle-files.md), each a
    whole number as large as a puzzle file's expressions take (`PARAMETER_BOUND`), given once."""
    found: dict[str, int] = {}
    for text in value:
        name, _, number = (part.strip() for part in text.partition("="))
        if name in found:
            raise click.BadParameter(f"{name} is given twice (-p {name}={found[name]} and {text!r}): give it once")
        if name == "n":
            raise click.BadParameter("n is the board size: give it as -n N")
        try:
            found[name] = numbers.count(number, f"-p {name}", minimum=-PARAMETER_BOUND, maximum=PARAMETER_BOUND)
        except InvalidNumber as error:
            raise click.BadParameter(f"{text!r} is not NAME=VALUE with a whole number (e.g. -p m=5): {error}") from None
    ctx.meta["parameters"] = found


parameter_option = click.option("-p", "--param", multiple=True, callback=_remember_parameters, expose_value=False,
                                metavar="NAME=VALUE", help="A puzzle file's named parameter, e.g. -p m=5 (repeatable).")


def puzzle_options(command: Command) -> Command:
    """FAMILY -n N [-m M] and the family flags, or FILE [-n N] [-m M] [-p NAME=VALUE ...]: the
    puzzle to work on. A family needs -n; a file needs the parameters its expressions use."""
    for flag in reversed(_FAMILY_FLAGS):
        command = flag(command)
    command = parameter_option(command)
    command = click.option("-m", "m", type=Size(minimum=None), default=None,
                           help="Columns, for rectangular boards (a puzzle file's parameter m).")(command)
    command = click.option("-n", "n", type=Size(minimum=None), default=None,
                           help="Board size (rows): required for a family; a puzzle file's parameter n.")(command)
    return click.argument("family_or_file", type=FamilyOrFile())(command)


class FamilyOrFile(FamilyChoice):
    """A family name, a puzzle file (a path ending in .toml, or any existing file), or a published
    puzzle by its OEIS id (A103330: models/puzzles/published/A103330-*.toml). Usage says
    FAMILY|FILE; the families are listed under the command's help (`QueensCommand`)."""

    name = "FAMILY|FILE"

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str:
        return self.name

    def get_invalid_choice_message(self, value: Any, ctx: click.Context | None) -> str:
        command = f"queens {ctx.info_name} --help" if ctx is not None else "queens count --help"
        return (f"{str(value)!r} is not a family, a puzzle file or an OEIS id.{did_you_mean(str(value), FAMILIES)} "
                f"({command} lists the families)")

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> object:
        text = str(value)
        if is_puzzle_file(text):
            return text
        return published_file(text) or super().convert(value, param, ctx)

    def shell_complete(self, ctx: click.Context, param: click.Parameter,
                       incomplete: str) -> list[click.shell_completion.CompletionItem]:
        """The families that start with what was typed, and the shell's own file completion."""
        from click.shell_completion import CompletionItem

        return [*(CompletionItem(name) for name in FAMILIES if name.startswith(incomplete)),
                CompletionItem(incomplete, type="file")]


def is_puzzle_file(text: str) -> bool:
    return text.endswith(".toml") or Path(text).is_file()


def published_file(text: str) -> str | None:
    """The published puzzle's file for an OEIS id such as A103330, or None."""
    if not (len(text) == 7 and text[0] == "A" and text[1:].isdigit()):
        return None
    found = sorted(PUBLISHED.glob(f"{text}-*.toml"))
    return str(found[0]) if found else None


class BackendChoice(SuggestingChoice):
    """The --backend choices: the backend registry as it is when the command runs (a backend
    registered after import, a test's throw-away one, is a choice too), and `all` where asked."""

    def __init__(self, allow_all: bool) -> None:
        self.allow_all = allow_all
        super().__init__(self.choices)

    @property
    def choices(self) -> tuple[str, ...]:
        return (*BACKENDS, "all") if getattr(self, "allow_all", False) else tuple(BACKENDS)

    @choices.setter
    def choices(self, value: object) -> None:
        """Ignored: the registry is the list."""


def _remember_search(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """--var, --val: kept in the context for `backend_settings`, as the family flags are."""
    if value is not None:
        ctx.meta.setdefault("search options", {})[param.name] = value


def backend_options(*, allow_all: bool) -> Decorator:
    """--backend (default: the router chooses; `all` compares every backend), --time-limit,
    --viewpoint, --encoding, --solver, --var, --val."""

    def decorate(command: Command) -> Command:
        command = click.option("--val", type=click.Choice(VALUE_CHOICES), default=None, callback=_remember_search,
                               expose_value=False, help="minizinc: which value first (MiniZinc's name).")(command)
        command = click.option("--var", type=click.Choice(VARIABLE_CHOICES), default=None, callback=_remember_search,
                               expose_value=False, help="minizinc: which variable next (MiniZinc's name).")(command)
        command = click.option("--solver", default=None,
                               help="sat: the SAT solver (e.g. cadical195, glucose4, minicard); "
                                    "mip: highs|scip.")(command)
        command = click.option("--encoding", default=None,
                               help="sat: CNF encoding (e.g. seqcounter, pairwise, ladder).")(command)
        command = click.option("--viewpoint", default=None,
                               help="cpsat: boolean|alldifferent; csp: rows|boolean.")(command)
        command = click.option("--time-limit", type=Seconds(minimum=0.001), default=None,
                               help="Seconds before giving up.")(command)
        return click.option("--backend", "-b", type=BackendChoice(allow_all), default=None,
                            help="Which solver backend (default: the fastest that can answer)"
                                 + (", or all of them side by side." if allow_all else "."))(command)
    return decorate


def method_option(*tasks: Task) -> Decorator:
    """--method: auto (the router chooses) or one of the strategies' methods for these tasks."""
    methods = sorted({s.method for s in registered() if s.tasks & set(tasks)})
    return click.option("--method", type=MethodChoice(["auto", *methods]), default="auto", show_default=True,
                        help="How to answer: auto picks the fastest strategy that supports the puzzle.")


DISAGREES = 3
"""Exit code when an answer disagrees with the native ground truth (count, bench)."""

json_option = click.option("--json", "as_json", is_flag=True, help="Machine-readable output on stdout.")


def _family_options(n: int | None, m: int | None) -> FamilyOptions:
    """-n, -m and the family flags gathered by puzzle_options, noting which were given."""
    if n is None:
        raise click.UsageError("Missing option '-n': a family needs the board size")
    extra = click.get_current_context().meta.get("family options", {})
    given = frozenset(extra) | ({"m"} if m is not None else frozenset())
    return FamilyOptions(n=n, m=m, given=given, **extra)


def _file_parameters(m: int | None) -> dict[str, int]:
    """A puzzle file's parameters from the command line: -p NAME=VALUE, and -m as the parameter m."""
    meta = click.get_current_context().meta
    if meta.get("family options"):
        raise click.UsageError(f"--{sorted(meta['family options'])[0]} applies to a family; a puzzle file says it all")
    parameters = dict(meta.get("parameters", {}))
    if m is not None:
        if "m" in parameters and parameters["m"] != m:
            raise click.UsageError(f"-m {m} and -p m={parameters['m']} give m twice: give it once")
        parameters["m"] = m
    return parameters


def make_puzzle(family: str, n: int | None, m: int | None) -> Puzzle:
    """The puzzle named on the command line: a family's, or a puzzle file's for these parameters."""
    return made_puzzle(family, n, m)[0]


def made_puzzle(family: str, n: int | None, m: int | None) -> tuple[Puzzle, bool]:
    """`make_puzzle`, and whether it is a puzzle file whose [goal] says `unique = true` (a count
    then counts classes too): the file read once for both."""
    if family in FAMILIES:
        if click.get_current_context().meta.get("parameters"):
            raise click.UsageError(f"-p gives a puzzle file's parameters; the family {family} takes -n, -m "
                                   "and its flags")
        return build(family, _family_options(n, m)), False
    spec = read(family, n, _file_parameters(m))
    return spec.puzzle, spec.unique


def backend_settings(viewpoint: str | None, encoding: str | None, solver: str | None) -> Options:
    """The backend options given on the command line; the router narrows the choice to the
    strategies that take them (a --viewpoint to cpsat and csp, a --solver to sat and mip, --var
    and --val to minizinc), and refuses when none does."""
    settings = Options()
    if solver is not None:
        settings["solver"] = solver
    if viewpoint is not None:
        settings["viewpoint"] = viewpoint
    if encoding is not None:
        settings["encoding"] = encoding
    context = click.get_current_context(silent=True)
    searched = context.meta.get("search options", {}) if context else {}
    if "var" in searched:
        settings["var"] = searched["var"]
    if "val" in searched:
        settings["val"] = searched["val"]
    return settings


def explain_none(family: str, n: int | None, m: int | None) -> str | None:
    """Why the puzzle on the command line has no solution, when its family knows."""
    return reason_for_none(family, _family_options(n, m)) if family in FAMILIES else None


class QueensCommand(click.Command):
    """A command with the CLI's conventions (docs/cli.md): example command lines at the end of its
    help (`examples`, two at least, each run by tests/test_cli_conventions.py) and, when it takes
    FAMILY|FILE, the families as the registry holds them when the help is shown (a family
    registered after import is listed too), instead of a list of names in the usage line.

    Declared with `@command("name", examples=(...))`; a comment after `#` explains a line."""

    def __init__(self, *args: Any, examples: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.examples = tuple(examples)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        write_examples(self.examples, formatter)
        if any(isinstance(param.type, FamilyOrFile) for param in self.params):
            with formatter.section("FAMILY|FILE"):
                formatter.write_text("FAMILY is one of " + ", ".join(FAMILIES) + ".")
                formatter.write_paragraph()
                formatter.write_text("FILE is a puzzle file (docs/puzzle-files.md; the shipped ones are in "
                                     "models/puzzles/) or a published puzzle's OEIS id (A103330).")
        super().format_epilog(ctx, formatter)


class QueensGroup(click.Group):
    """A group of commands (`queens bench`, `queens generate`) with the same conventions as
    `QueensCommand`: its own examples, and its subcommands made as QueensCommands."""

    command_class = QueensCommand

    def __init__(self, *args: Any, examples: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.examples = tuple(examples)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        write_examples(self.examples, formatter)
        super().format_epilog(ctx, formatter)


def write_examples(examples: Sequence[str], formatter: click.HelpFormatter) -> None:
    """The examples as written, one per line (click would rewrap them as a paragraph)."""
    if examples:
        with formatter.section("Examples"):
            for line in examples:
                formatter.write(f"{'':>{formatter.current_indent}}{line}\n")


def command(name: str, *, examples: Sequence[str], **attrs: Any) -> Callable[[Command], QueensCommand]:
    """`click.command` with the CLI's conventions (`QueensCommand`): every command is declared with it."""
    return click.command(name, cls=QueensCommand, examples=examples, **attrs)


def group(name: str, *, examples: Sequence[str], **attrs: Any) -> Callable[[Command], QueensGroup]:
    """`click.group` with the CLI's conventions (`QueensGroup`)."""
    return click.group(name, cls=QueensGroup, examples=examples, **attrs)
