# queens: every set-up step a fresh machine needs. `make help` lists the targets.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: help install run test test-slow bench lint clean browser test-browser test-asan minizinc

help: ## this list
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml setup.py solvers/native/*.c solvers/native/*.h
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dask,minizinc,peers]'
	touch $(STAMP)

install: $(STAMP) ## create .venv and install the package (compiles the C extension)

run: install ## the main job: every family on every backend, compared with ground truth
	$(BIN)/python -m queens.experiments.main_job

test: install ## the test suite (slow tests excluded); installs MiniZinc first when apt can
	@$(MAKE) --no-print-directory minizinc || echo "minizinc not installed: its tests will be skipped" >&2
	$(BIN)/python -m pytest -q

browser: ## Debian's chromium + chromium-driver for the browser tests (apt-get, only when missing)
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || { \
	  SUDO=$$([ "$$(id -u)" -eq 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium chromium-driver; }

minizinc: ## Debian's minizinc + flatzinc (Gecode) for the minizinc backend and the peers (apt-get, only when missing)
	@command -v minizinc >/dev/null && command -v fzn-gecode >/dev/null || { \
	  SUDO=$$([ "$$(id -u)" -eq 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq minizinc flatzinc; }

test-browser: install browser ## the web explorer clicked through in headless Chromium
	$(BIN)/python -m pytest -q tests/test_browser.py

test-slow: install ## only the slow tests
	$(BIN)/python -m pytest -q -m slow

bench: install ## benchmarks: backends and kernels side by side, and against the peers
	$(BIN)/python -m queens.experiments.bench_encodings
	$(BIN)/python -m queens.experiments.bench_native
	$(BIN)/python -m queens.experiments.bench_backends
	$(BIN)/python -m queens.experiments.bench_peers
	$(BIN)/python -m queens.experiments.bench_large

test-asan: install ## the native tests on C extensions built with ASan+UBSan (in a scratch copy)
	@scratch=$$(mktemp -d) && trap 'rm -rf "$$scratch"' EXIT && mkdir "$$scratch/main" && \
	cp -r models solvers queens experiments tests setup.py pyproject.toml "$$scratch/main/" && \
	cd "$$scratch/main" && rm -f solvers/native/*.so && \
	CFLAGS="-g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
	LDFLAGS="-fsanitize=address,undefined" $(abspath $(BIN))/python setup.py -q build_ext --inplace && \
	PYTHONPATH="$$scratch/main" LD_PRELOAD="$$(gcc -print-file-name=libasan.so)" ASAN_OPTIONS=detect_leaks=0 \
	UBSAN_OPTIONS=print_stacktrace=1 $(abspath $(BIN))/python -m pytest -q -p no:cacheprovider \
	  tests/test_native_fast.py tests/test_kernel_property.py tests/test_resume.py

lint: install ## ruff over the code
	$(BIN)/ruff check models solvers experiments queens tests

clean: ## remove the environment and build products
	rm -rf $(VENV) build *.egg-info solvers/native/*.so
