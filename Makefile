# queens: every set-up step a fresh machine needs. `make help` lists the targets.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
UV_VERSION := 0.13.9
UV     := VIRTUAL_ENV=$(VENV) $(BIN)/uv
REBUILD := --reinstall-package queens --refresh-package queens
# Every Python a recipe starts writes the bytecode it compiles, whatever the caller's setting (our CI
# machine sets PYTHONDONTWRITEBYTECODE): each module is compiled once, the first time anything
# imports it, and pytest keeps its rewritten test modules (each worker rewrote all of them). So the
# install compiles only the package, not site-packages' 7,482 modules, most of which nothing
# imports (most of uv's install time: experiments/results/suite-time.md).
unexport PYTHONDONTWRITEBYTECODE
# numpy's BLAS gets one thread in every program a recipe starts (the main job, the benches, the test
# workers and whatever they start), as the console script gives it (one_blas_thread in
# solvers/runtime/cores.py says why); a number the caller set is kept.
OPENBLAS_NUM_THREADS ?= 1
export OPENBLAS_NUM_THREADS
# A test worker per core and one more: a worker often waits (on a console script it started, a
# browser, a server, a Dask cluster), and one per core left a core idle meanwhile; two per core
# took no less time, and each test then shared its core with more (the figures: docs/how-it-works.md).
TEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))

.PHONY: help install run test test-slow bench certified lint clean browser test-browser test-asan fuzz fuzz-cli fuzz-http build-native cross-tools \
        test-cross minizinc fuzz-tools

help: ## this list
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml requirements/lock.txt setup.py solvers/native/*.c solvers/native/*.h
	@# The venv is made without pip (ensurepip was a fifth of the install: suite-time.md): the system's pip puts
	@# uv into it; a pip older than 22.3 (no --python) or none at all, and the venv's own pip does.
	test -x $(BIN)/python || $(PYTHON) -m venv --without-pip $(VENV)
	$(PYTHON) -m pip --python $(BIN)/python install --quiet uv==$(UV_VERSION) 2>/dev/null || \
	  { $(BIN)/python -m ensurepip --default-pip && $(BIN)/python -m pip install --quiet uv==$(UV_VERSION); }
	@# uv installs the locked set in a sixth of pip's time (cached wheels, both: pip resolved, then
	@# unpacked and compiled serially; experiments/results/suite-time.md).
	@# The package itself is always built again (its C sources are not in uv's cache key).
	$(UV) pip install --quiet $(REBUILD) -c requirements/lock.txt \
	  -e '.[test,certify,plots,pictures,dask,minizinc,peers]' setuptools==84.2.1  # the tested versions; setuptools: the build's own pin (setup.py runs in the venv too: make test-asan)
	touch $(STAMP)

install: $(STAMP) ## create .venv and install the package (compiles the C extension and the bytecode)
	@# The package's bytecode, written here once, before test workers and spawned processes race to
	@# write it; then one small count, which checks the install and writes the bytecode of the path
	@# every command takes (a later `queens` run from a shell that sets PYTHONDONTWRITEBYTECODE then
	@# starts in half the time: experiments/results/suite-time.md).
	$(BIN)/python -m compileall -q -j 0 models solvers queens experiments tests
	$(BIN)/queens count nqueens -n 4 > /dev/null

build-native: install ## rebuild the C extensions with -march=native (this CPU only; `make clean install`: portable again)
	QUEENS_MARCH_NATIVE=1 $(UV) pip install --quiet --no-deps $(REBUILD) -e .

run: install ## the main job: every family on every backend, compared with ground truth
	$(BIN)/python -m queens.experiments.main_job

test: install ## the test suite (slow tests excluded; the 20 slowest listed at the end), a worker per core and one more; installs MiniZinc first when apt can
	@$(MAKE) --no-print-directory minizinc || echo "minizinc not installed: its tests will be skipped" >&2
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --durations=20

browser: ## Debian's chromium + chromium-driver for the browser tests (apt-get, only when missing)
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || { \
	  SUDO=$$([ "$$(id -u)" -eq 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium chromium-driver; }

minizinc: ## Debian's minizinc + flatzinc (Gecode) for the minizinc backend and the peers (apt-get, only when missing)
	@command -v minizinc >/dev/null && command -v fzn-gecode >/dev/null || { \
	  SUDO=$$([ "$$(id -u)" -eq 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq minizinc flatzinc; }

test-browser: install browser ## the web explorer clicked through in headless Chromium
	$(BIN)/python -m pytest -q tests/browser

test-slow: install ## only the slow tests
	$(BIN)/python -m pytest -q -m slow

bench: install ## benchmarks: backends and kernels side by side, against the peers, and time limits kept (writes experiments/results/peers.md, deadlines.md, mip-latest.md, published.md, why.md, frontier.md; FRONTIER_SECONDS=S caps the frontier's budgets)
	$(BIN)/python -m queens.experiments.bench_encodings
	$(BIN)/python -m queens.experiments.bench_native
	$(BIN)/python -m queens.experiments.bench_start_up
	$(BIN)/python -m queens.experiments.bench_backends
	$(BIN)/python -m queens.experiments.bench_peers --output experiments/results/peers.md
	$(BIN)/python -m queens.experiments.bench_large
	$(BIN)/python -m queens.experiments.bench_deadlines
	$(BIN)/python -m queens.experiments.bench_mip --defaults --versus > experiments/results/mip-latest.md
	$(BIN)/python -m queens.experiments.bench_published > experiments/results/published.md
	{ echo "# queens why: a smallest set of givens, found and checked (issue 22's 1 s target)"; echo; \
	  for args in "" "--queens 19 --holes 10" "--n 12 --queens 8 --holes 21"; do \
	    $(BIN)/python -m queens.experiments.bench_why $$args; echo; done; } > experiments/results/why.md
	$(BIN)/python -m queens.experiments.bench_frontier $(if $(FRONTIER_SECONDS),--seconds $(FRONTIER_SECONDS)) --output experiments/results/frontier.md

CERTIFIED_SECONDS ?= 600
certified: install ## optima and "no" answers with DRUP proofs checked by drup and dratify (writes experiments/results/certified.md)
	$(BIN)/python -m queens.experiments.certified --seconds $(CERTIFIED_SECONDS)

test-asan: install ## the native tests on C extensions built with ASan+UBSan (in a scratch copy)
	@scratch=$$(mktemp -d) && trap 'rm -rf "$$scratch"' EXIT && mkdir "$$scratch/main" && \
	cp -r models solvers queens experiments tests setup.py pyproject.toml "$$scratch/main/" && \
	sh fuzz/build_asan.sh $(abspath $(BIN))/python "$$scratch/main" && cd "$$scratch/main" && \
	PYTHONPATH="$$scratch/main" LD_PRELOAD="$$(gcc -print-file-name=libasan.so)" ASAN_OPTIONS=detect_leaks=0 \
	UBSAN_OPTIONS=print_stacktrace=1 $(abspath $(BIN))/python -m pytest -q -p no:cacheprovider \
	  tests/test_native_classes.py tests/test_native_property.py tests/test_resume.py tests/test_line_counts.py \
	  tests/test_certificate.py::test_the_c_trimmer_follows_its_python_twin \
	  tests/test_certificate.py::test_the_c_trimmer_follows_its_python_twin_on_a_puzzle_proof

cross-tools: ## Debian's AArch64 cross compiler and qemu-user for test-cross (apt-get, only when missing)
	@command -v aarch64-linux-gnu-gcc >/dev/null && command -v qemu-aarch64 >/dev/null && \
	  test -d /usr/aarch64-linux-gnu/lib || { \
	  SUDO=$$([ "$$(id -u)" -eq 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq \
	    gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user; }

CROSS_CC := aarch64-linux-gnu-gcc -O2 -std=gnu11 -Wall -Wextra -Wno-unused-parameter
test-cross: cross-tools ## the C cores for AArch64 under qemu, n = 1..12: the classes counter's NEON and scalar kernels, the simple search with blocked cells, the meet-in-the-middle counter
	@scratch=$$(mktemp -d) && trap 'rm -rf "$$scratch"' EXIT && \
	$(CROSS_CC) -o "$$scratch/driver" solvers/native/classcore.c solvers/native/tests/driver.c && \
	$(CROSS_CC) -o "$$scratch/simpledriver" solvers/native/simplecore.c solvers/native/tests/simpledriver.c && \
	$(CROSS_CC) -o "$$scratch/mitmdriver" solvers/native/mitmcore.c solvers/native/tests/mitmdriver.c && \
	qemu-aarch64 -L /usr/aarch64-linux-gnu "$$scratch/driver" check 12; classes=$$?; echo && \
	qemu-aarch64 -L /usr/aarch64-linux-gnu "$$scratch/simpledriver" 12; simple=$$?; echo && \
	qemu-aarch64 -L /usr/aarch64-linux-gnu "$$scratch/mitmdriver" check 12; mitm=$$?; echo && \
	if [ $$classes -eq 0 ] && [ $$simple -eq 0 ] && [ $$mitm -eq 0 ]; then echo "test-cross: all three cores all equal"; \
	else echo "test-cross: DIFFERENCES (classes counter exit $$classes, simple search exit $$simple, meet in the middle exit $$mitm)"; exit 1; fi

FUZZ_RUNS  ?= 1000000
FUZZ_CALLS ?= 100000
fuzz-tools: ## Debian's clang and its sanitizer and libFuzzer runtimes for make fuzz (apt-get, only when missing)
	@command -v clang >/dev/null && test -n "$$(clang -print-file-name=libclang_rt.fuzzer-$$(uname -m).a | grep /)" || { \
	  SUDO=$$([ "$$(id -u)" -eq 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq clang libclang-rt-dev; }

fuzz: install fuzz-tools ## the C extensions under ASan+UBSan: libFuzzer on the cores of _simple, _completion, _localsearch and _lines, a Python driver on the extensions
	nice -n 10 sh fuzz/run.sh $(abspath $(BIN))/python $(FUZZ_RUNS) $(FUZZ_CALLS)

fuzz-cli: install ## the CLI's and the API's contracts, and the audit of new inputs against the brute force (QUEENS_FUZZ_EXAMPLES, default 100000)
	QUEENS_FUZZ_EXAMPLES=$${QUEENS_FUZZ_EXAMPLES:-100000} nice -n 10 $(BIN)/python -m pytest -q -p no:cacheprovider \
	  tests/test_contract_fuzz.py tests/test_boundaries.py tests/test_audit.py

fuzz-http: install ## the explorer's contract on many drawn HTTP requests to a real server (QUEENS_FUZZ_EXAMPLES, default 100000)
	QUEENS_FUZZ_EXAMPLES=$${QUEENS_FUZZ_EXAMPLES:-100000} nice -n 10 $(BIN)/python -m pytest -q -p no:cacheprovider \
	  tests/test_http_fuzz.py

lint: install ## ruff (complexity at most 12); the import layers (tests/layers.py); mypy --strict over the whole queens package and tests/
	$(BIN)/ruff check models solvers experiments queens tests
	$(BIN)/python tests/layers.py
	@# mypy knows no package-dir mapping: it reads a tree of links laid out as the wheel is, tests/ beside it;
	@# its cache is kept outside that tree, so that a second run reads only what changed
	@rm -rf build/typecheck && mkdir -p build/typecheck/queens && \
	for f in queens/*; do ln -s "$(CURDIR)/$$f" build/typecheck/queens/; done && \
	for d in models solvers experiments; do ln -s "$(CURDIR)/$$d" build/typecheck/queens/$$d; done && \
	ln -s "$(CURDIR)/tests" build/typecheck/tests
	cd build/typecheck && $(abspath $(BIN))/mypy --config-file $(CURDIR)/pyproject.toml --cache-dir $(CURDIR)/build/mypy-cache \
	  -p queens -p tests
	@# stubtest: the C extensions' stubs (solvers/native/_*.pyi) against the built modules, in a tree of
	@# the stubs alone laid out as the wheel is (empty parents: it reads no other module of the package);
	@# -P: the modules are imported as installed, not from that tree
	@rm -rf build/stubtest && mkdir -p build/stubtest/queens/solvers/native && \
	touch build/stubtest/queens/__init__.pyi build/stubtest/queens/solvers/__init__.pyi build/stubtest/queens/solvers/native/__init__.pyi && \
	for f in solvers/native/_*.pyi; do ln -s "$(CURDIR)/$$f" build/stubtest/queens/solvers/native/; done
	cd build/stubtest && $(abspath $(BIN))/python -P -m mypy.stubtest --mypy-config-file $(CURDIR)/pyproject.toml \
	  $$(cd $(CURDIR)/solvers/native && ls _*.pyi | sed 's/^/queens.solvers.native./; s/[.]pyi$$//')

clean: ## remove the environment and build products
	rm -rf $(VENV) build *.egg-info solvers/native/*.so
	find models solvers queens experiments tests -name __pycache__ -type d -prune -exec rm -rf {} +
