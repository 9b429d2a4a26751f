#!/bin/sh
# Build the four C extensions with ASan+UBSan, in place, in a copy of the source tree (for
# `make test-asan` and `make fuzz`). Compiled here rather than by `setup.py build_ext`: the
# venv's setuptools refuses pyproject.toml's license field outside pip's isolated build.
# The module table (each module with its C sources) is read from setup.py, so it stays in one
# place. Built portable, as the default build is: the classes counter picks its kernel at run time.
# usage: fuzz/build_asan.sh PYTHON TREE
set -eu
python=$1 tree=$2
cd "$tree"
include=$("$python" -c "import sysconfig; print(sysconfig.get_paths()['include'])")
suffix=$("$python" -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
rm -f solvers/native/*.so
"$python" -c "import ast, re; print(*(' '.join([m, *s]) for m, s in ast.literal_eval(
    re.search(r'EXTENSIONS = (\{.*?\})', open('setup.py').read(), re.S).group(1)).items()), sep='\n')" |
while read -r module sources; do
  # shellcheck disable=SC2086  # one word per source file
  gcc -shared -fPIC -g -O1 -std=gnu11 -fsanitize=address,undefined -fno-sanitize-recover=undefined \
    -fno-omit-frame-pointer -I"$include" $(printf 'solvers/native/%s ' $sources) -o "solvers/native/$module$suffix"
done
