"""The C extensions: everything else about the package is in pyproject.toml.

setup.py exists only because the compiler flags are chosen at build time. The default build is
portable: no -march flag, so a wheel runs on any CPU of its architecture; the classes counter
carries a kernel per instruction set (classcore.c) and picks one at run time. QUEENS_MARCH_NATIVE=1
(`make build-native`) adds -march=native for people who build for their own machine only.
"""

import os
import tempfile
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CompileError

OPTIONAL_FLAGS = ["-march=native"] if os.environ.get("QUEENS_MARCH_NATIVE") == "1" else []


class BuildExt(build_ext):
    """build_ext that adds each optional flag the compiler accepts (tried on an empty program),
    and compiles the extensions side by side, one per core unless `--parallel` says otherwise
    (one after another they took 13 s of a fresh `make install` on 2 cores)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1

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


# -DNDEBUG: the C cores' asserts are for the sanitiser builds (fuzz/build_asan.sh, fuzz/build.sh),
# which compile without it; the normal build leaves them out, whatever the Python's own CFLAGS say
FLAGS = ["-O3", "-std=gnu11", "-DNDEBUG", "-Wall", "-Wextra", "-Wno-unused-parameter"]
NATIVE = "solvers/native"
HEADERS = [f"{NATIVE}/{header}" for header in ("common.h", "classcore.h", "simplecore.h", "linecore.h", "lanes.h",
                                               "lanes_avx512.h", "interrupt.h", "mitmcore.h", "mitmslice.h", "trimcore.h")]
EXTENSIONS = {  # module in queens.solvers.native: its C sources there (the binding first)
    "_simple": ["simple.c", "simplecore.c"],
    "_completion": ["completion.c"],
    "_localsearch": ["localsearch.c"],
    "_classes": ["classcount.c", "classcore.c"],
    "_lines": ["lines.c", "linecore.c"],
    "_mitm": ["mitmcount.c", "mitmcore.c"],
    "_trim": ["trim.c", "trimcore.c"],
}

setup(
    cmdclass={"build_ext": BuildExt},
    ext_modules=[
        Extension(f"queens.solvers.native.{name}", sources=[f"{NATIVE}/{source}" for source in sources],
                  extra_compile_args=FLAGS, depends=HEADERS)
        for name, sources in EXTENSIONS.items()
    ],
)
