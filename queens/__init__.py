"""The `queens` command line: a thin layer over `models` and `solvers`.

python-sat installs example scripts into the environment's bin/ directory, one of them named
`models.py`. A console script runs with its own directory first on sys.path, so that file
would shadow our `models` package; we drop that directory from the path before anything
imports `models`.
"""

import os
import sys

_script_dir = os.path.dirname(os.path.abspath(sys.argv[0])) if sys.argv and sys.argv[0] else ""
if _script_dir and os.path.isfile(os.path.join(_script_dir, "models.py")):
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _script_dir]
