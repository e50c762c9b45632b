#!/usr/bin/env bash
# Fails when clang-tidy (14, .clang-tidy: the code's naming and a small set of bug checks) reports anything in a
# representative subset of the C++ sources: one source of most library layers, and through them every public header,
# the families' format headers and the isa, machine and neff headers (the tool, the Python module and the tests are
# not in it). The whole tree takes clang-tidy many minutes; each source that includes the whole instruction set costs
# some 20 CPU-seconds, so the subset holds three of those (families, machine, io) and the light sources.
# Usage: check_tidy.sh CLANG_TIDY BUILD_DIR (the build tree provides <build>/include/tpbisa/families)
set -euo pipefail
tool=${1:-clang-tidy-14}
build=$(realpath "${2:?usage: check_tidy.sh CLANG_TIDY BUILD_DIR}")
cd "$(dirname "$0")/.."
files=(
  src/catalog/catalog.cpp
  src/kernels/hwy_loader.cpp
  src/families/registry.cpp
  src/text/asm_lex.cpp
  src/machine/machine.cpp
  src/util/output_file.cpp
  src/io/json.cpp
)
for f in "${files[@]}"; do
  [ -f "$f" ] || { echo "tidy: $f is listed but absent (scripts/check_tidy.sh)"; exit 1; }
done
# The Highway loader is compiled with the path of the library it opens; any name will do here.
flags=(-std=c++20 -Iinclude "-I$build/include" -Isrc -DTPBISA_HWY_LIBRARY=\"libhwy.so\")
printf '%s\n' "${files[@]}" | xargs -P 2 -I{} "$tool" --quiet {} -- "${flags[@]}"
echo "tidy: ${#files[@]} files clean"
