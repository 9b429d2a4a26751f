#!/bin/sh
# Build the libFuzzer targets (clang, ASan + UBSan, edge coverage) against the venv's Python.
# Without trace-cmp: comparison tracing tripled the cost of an input in the search loops, and the
# targets decode structured arguments, so there are few magic values for it to find.
# usage: fuzz/build.sh PYTHON OUTDIR
set -eu
python=$1 out=$2
include=$("$python" -c "import sysconfig; print(sysconfig.get_paths()['include'])")
libdir=$("$python" -c "import sysconfig; print(sysconfig.get_config_var('LIBDIR'))")
version=$("$python" -c "import sys; print(f'{sys.version_info[0]}.{sys.version_info[1]}')")
mkdir -p "$out"
for target in simple completion localsearch lines; do
  clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-coverage=trace-cmp \
    -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
    -I"$include" "$(dirname "$0")/fuzz_$target.c" -L"$libdir" -lpython"$version" -Wl,-rpath,"$libdir" \
    -o "$out/$target"
done
