"""The C extension: everything else about the package is in pyproject.toml.

setup.py exists only because the compiler flags are chosen at build time: every extension gets
-march=native when the compiler accepts it (the counters live on the CPU's bit instructions).
"""

import tempfile
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CompileError

OPTIONAL_FLAGS = ["-march=native"]


class BuildExt(build_ext):
    """build_ext that adds each optional flag the compiler accepts (tried on an empty program)."""

    def build_extensions(self) -> None:
        accepted = [flag for flag in OPTIONAL_FLAGS if self._accepts(flag)]
        for extension in self.extensions:
            extension.extra_compile_args = [*extension.extra_compile_args, *accepted]
        super().build_extensions()

    def _accepts(self, flag: str) -> bool:
        with tempfile.TemporaryDirectory() as scratch:
            probe = Path(scratch) / "probe.c"
            probe.write_text("int main(void) { return 0; }\n")
            try:
                self.compiler.compile([str(probe)], output_dir=scratch, extra_postargs=[flag])
            except CompileError:
                return False
        return True


FLAGS = ["-O3", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter"]
EXTENSIONS = {  # module in queens.solvers.native: its C source there
    "_kernel": "kernel.c",
    "_completion": "completion.c",
    "_localsearch": "localsearch.c",
    "_fast": "fastcount.c",
}

setup(
    cmdclass={"build_ext": BuildExt},
    ext_modules=[
        Extension(f"queens.solvers.native.{name}", sources=[f"solvers/native/{source}"], extra_compile_args=FLAGS,
                  depends=["solvers/native/common.h"])
        for name, source in EXTENSIONS.items()
    ],
)
