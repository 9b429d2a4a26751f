"""Where Debian's Chromium and its driver are, the skip of the package's modules when they are
not, and the explorer's time limit in these tests."""

from __future__ import annotations

import shutil

import pytest

CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER),
    reason="chromium/chromedriver not found and could not be installed: "
           "run `make test-browser` (apt-get install chromium chromium-driver)",
)
"""Each module's skip: the modules import it (a conftest's marks apply to nothing)."""
TIME_LIMIT = 120.0
"""The test server's time limit: long enough that a count the test cancels is still running
when it is cancelled, however loaded the machine."""
