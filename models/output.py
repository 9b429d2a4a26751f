"""One writer for everything the suite writes: the standard output, and every file a user names
(`--out`, `-o`, `--svg`, `--png`, `--heat-map`, `--tree`, `Board.save`, the placement files).

Why one: each writer of its own met the edges alone, and most did not. A write to /proc/version,
into /sys or through a link to /dev/full ended in "internal error: OSError"; numpy's save wrote
q.txt.npy when asked for q.txt; `--out -` made a file called "-"; a closed standard output
dropped the answer and exited 0. Here:

- every failure is one `OutputError` naming the path (or stdout) and the reason the system gave;
- the file written is the file named, byte for byte the path given (no suffix added);
- "-" is the standard output, for text (binary formats need a file);
- a closed or full standard output is an error, not silence (`STANDARD_OUTPUT`, the stream the
  CLI's results go through).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_file(folder / "q.txt", "# n=1\\n0 0\\n").name
'q.txt'
>>> write_file(folder / "missing" / "q.txt", "x")
Traceback (most recent call last):
...
queens.models.errors.OutputError: cannot write ...q.txt: No such file or directory
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, TextIO, cast

from queens.models.errors import OutputError

STDOUT = "-"
"""The path that means the standard output, as in most command-line tools."""


def is_stdout(path: str | os.PathLike[str] | None) -> bool:
    """Whether `path` names the standard output ("-")."""
    return path is not None and os.fspath(path) == STDOUT


def _reason(error: OSError) -> str:
    return error.strerror or str(error) or type(error).__name__


def _failed(path: str | os.PathLike[str], error: OSError) -> OutputError:
    return OutputError(f"cannot write {os.fspath(path)}: {_reason(error)}")


def check_writable(path: str | os.PathLike[str] | None, option: str) -> None:
    """Refuse, before any work, a path that cannot be a file to write: its folder missing, a
    folder itself, or (for a user without the right) not writable. What only the write can tell
    (a full disk, /proc refusing) is said when it happens, by `opened`."""
    if path is None or is_stdout(path):
        return
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise OutputError(f"{option} {target}: no such folder {folder}")
    if target.is_dir():
        raise OutputError(f"{option} {target}: is a folder; give a file name")
    if not os.access(target if target.exists() else folder, os.W_OK):
        raise OutputError(f"{option} {target}: not writable")


@contextmanager
def opened(path: str | os.PathLike[str], *, binary: bool = False) -> Iterator[IO[Any]]:
    """The file `path` opened for writing (the standard output for "-", text only); any failure
    while opening, writing or closing it is one OutputError naming it. A file this call created
    and could not finish is removed, so a full disk leaves no half-written answer behind."""
    if is_stdout(path):
        if binary:
            raise OutputError("cannot write a binary format to stdout: give a file name")
        yield STANDARD_OUTPUT
        STANDARD_OUTPUT.flush()
        return
    target = Path(path)
    existed = target.exists() or target.is_symlink()
    try:
        stream: IO[Any] = target.open("wb") if binary else target.open("w", encoding="utf-8")
    except OSError as error:
        raise _failed(target, error) from None
    try:
        with stream:
            yield stream
    except OSError as error:
        if not existed and target.is_file():
            target.unlink(missing_ok=True)
        raise _failed(target, error) from None


def write_file(path: str | os.PathLike[str], content: str | bytes) -> Path:
    """Write `content` (text as UTF-8, or bytes) to exactly `path`, and return it."""
    with opened(path, binary=isinstance(content, bytes)) as stream:
        stream.write(content)
    return Path(path)


class _StandardOutput(io.TextIOBase):
    """The standard output as the CLI writes its results: `sys.stdout` looked up at each write (a
    test's capture, a redirected stream), with a closed stream (None: Python started without
    descriptor 1) and every OSError (a full disk, a closed pipe) raised as one OutputError. After
    a failure, descriptor 1 points at /dev/null, so the interpreter's last flush at exit adds no
    second message ("Exception ignored ...") and no exit code of its own."""

    def _stream(self) -> IO[str]:
        stream = _current()
        if stream is None:
            raise OutputError("cannot write to stdout: it is closed")
        return stream

    def write(self, text: str) -> int:
        stream = self._stream()
        try:
            return stream.write(text)
        except OSError as error:
            raise _stdout_failed(error) from None

    def flush(self) -> None:
        stream = _current()
        if stream is None:
            return
        try:
            stream.flush()
        except OSError as error:
            raise _stdout_failed(error) from None

    def isatty(self) -> bool:
        stream = _current()
        return stream is not None and stream.isatty()

    def fileno(self) -> int:
        return self._stream().fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]  # TextIOBase's is a plain attribute
        return getattr(sys.stdout, "encoding", None) or "utf-8"

    def writable(self) -> bool:
        return True


def _current() -> IO[str] | None:
    """`sys.stdout` as the process has it now, or None when closed: under rich's Live, which
    swaps in a proxy that prints through a console (this stream), the stream behind the proxy."""
    stream = getattr(sys.stdout, "rich_proxied_file", sys.stdout)
    return None if stream is None or stream is STANDARD_OUTPUT else cast(IO[str], stream)


def _stdout_failed(error: OSError) -> OutputError:
    """The OutputError for a failed write to stdout, after pointing descriptor 1 at /dev/null."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, AttributeError, ValueError, io.UnsupportedOperation):  # a capture with no descriptor
        pass
    return OutputError(f"cannot write to stdout: {_reason(error)}")


STANDARD_OUTPUT = cast(TextIO, _StandardOutput())
"""The standard output, through the one writer: what the CLI's results are printed to."""


def stdout_closed() -> bool:
    """Whether the process has no standard output at all (started with descriptor 1 closed)."""
    return sys.stdout is None
