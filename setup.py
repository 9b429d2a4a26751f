"""The C extension: everything else about the package is in pyproject.toml.

setup.py exists only because the compiler flags are chosen at build time.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "solvers.native._kernel",
            sources=["solvers/native/kernel.c"],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter"],
        )
    ]
)
