#!/usr/bin/env bash
# Installs the library of a build tree into a scratch prefix, then configures, builds and runs this folder's project
# against it: find_package(tpbisa) and tpbisa::tpbisa work for a project outside the tree (ctest entry `consumer`).
# Usage: run.sh CMAKE BUILD_DIR SOURCE_DIR CXX_COMPILER GENERATOR [COMPILER_LAUNCHER]
set -euo pipefail
cmake=${1:?usage: run.sh CMAKE BUILD_DIR SOURCE_DIR CXX_COMPILER GENERATOR [COMPILER_LAUNCHER]}
build=$2 src=$3 cxx=$4 generator=$5 launcher=${6:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cmake" --install "$build" --prefix "$tmp/prefix" --component library >"$tmp/install.log" || {
  cat "$tmp/install.log"
  exit 1
}
"$cmake" -S "$src/tests/consumer" -B "$tmp/build" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" -DCMAKE_PREFIX_PATH="$tmp/prefix" >"$tmp/configure.log" || {
  cat "$tmp/configure.log"
  exit 1
}
"$cmake" --build "$tmp/build" >"$tmp/build.log" || {
  cat "$tmp/build.log"
  exit 1
}
out=$("$tmp/build/consumer")
echo "consumer: $out"
[ "$out" = "Nop: valid" ]
