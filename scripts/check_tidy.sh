#!/usr/bin/env bash
# Fails when clang-tidy (14, .clang-tidy: the code's naming and a small set of bug checks) reports anything in a
# representative subset of the C++ sources: one source of each library layer, and through them every public header
# and the families' format headers (the tool, the Python module and the tests are not in it). The whole tree takes
# clang-tidy many minutes; this subset keeps the ctest entry `tidy` near half a minute on two cores.
# Usage: check_tidy.sh CLANG_TIDY BUILD_DIR (the build tree provides <build>/include/tpbisa/families)
set -euo pipefail
tool=${1:-clang-tidy-14}
build=$(realpath "${2:?usage: check_tidy.sh CLANG_TIDY BUILD_DIR}")
cd "$(dirname "$0")/.."
files=(
  src/catalog/catalog.cpp
  src/isa/address.cpp
  src/kernels/hwy_loader.cpp
  src/families/registry.cpp
  src/text/asm_lex.cpp
  src/machine/machine.cpp
  src/util/output_file.cpp
  src/neff/npy.cpp
  src/io/json.cpp
)
for f in "${files[@]}"; do
  [ -f "$f" ] || { echo "tidy: $f is listed but absent (scripts/check_tidy.sh)"; exit 1; }
done
# The Highway loader is compiled with the path of the library it opens; any name will do here.
flags=(-std=c++20 -Iinclude "-I$build/include" -Isrc -DTPBISA_HWY_LIBRARY=\"libhwy.so\")
printf '%s\n' "${files[@]}" | xargs -P 2 -I{} "$tool" --quiet {} -- "${flags[@]}"
echo "tidy: ${#files[@]} files clean"
