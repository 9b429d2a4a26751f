"""The processes a test started, found in /proc by a marker in their environment: every process
they start inherits it, whatever it is called and whoever its parent is now."""

from __future__ import annotations

from pathlib import Path

MARKER = "QUEENS_TEST_MARKER"
"""The environment variable a test sets to a value of its own before starting a command."""


def processes_marked(marker: str) -> list[int]:
    """Live processes (not zombies) whose environment holds MARKER=marker: ours and their children."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if f"{MARKER}={marker}".encode() in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except OSError:  # gone meanwhile, or not ours
            continue
    return found
