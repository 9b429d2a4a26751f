#!/bin/sh
# `make fuzz`: the C extensions under ASan+UBSan, in a scratch directory.
#   1. libFuzzer on the cores of _simple, _completion, _localsearch and _lines: RUNS inputs each;
#   2. the Python driver (fuzz_extensions.py) on all four built extensions, _classes included:
#      CALLS calls each, with arguments of every Python type.
# A crash stops it with the report; a crashing libFuzzer input is kept as ./fuzz-crash-*.
# usage: fuzz/run.sh PYTHON RUNS CALLS
set -eu
python=$1 runs=$2 calls=$3
repo=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$repo/fuzz/build.sh" "$python" "$scratch/bin"
for target in simple completion localsearch lines; do
  mkdir "$scratch/corpus-$target"
  if ! ASAN_OPTIONS=detect_leaks=0 "$scratch/bin/$target" -runs="$runs" -print_final_stats=1 \
       -artifact_prefix="$repo/fuzz-crash-$target-" "$scratch/corpus-$target" 2>"$scratch/$target.log"; then
    tail -40 "$scratch/$target.log"
    exit 1
  fi
  done_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch/$target.log")
  seconds=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$scratch/$target.log")
  echo "libFuzzer _$target: $done_runs inputs, 0 crashes ($seconds s)"
done
mkdir "$scratch/main"
cp -r "$repo/models" "$repo/solvers" "$repo/queens" "$repo/experiments" "$repo/fuzz" "$repo/setup.py" \
  "$repo/pyproject.toml" "$scratch/main/"
"$repo/fuzz/build_asan.sh" "$python" "$scratch/main"
cd "$scratch/main"
PYTHONPATH="$scratch/main" LD_PRELOAD="$(gcc -print-file-name=libasan.so)" ASAN_OPTIONS=detect_leaks=0 \
  UBSAN_OPTIONS=print_stacktrace=1 "$python" fuzz/fuzz_extensions.py "$calls"
