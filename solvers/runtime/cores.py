"""How many cores this process may use: the default for every pool of threads or processes.

>>> default_threads() >= 1
True
"""

from __future__ import annotations

import os


def default_threads() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1
