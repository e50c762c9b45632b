#!/usr/bin/env bash
# Rebuilds the expected files of the assembler goldens (NAME.hex, NAME.canon.tasm) from each NAME.tasm, for review.
# Usage: tests/asm/regenerate.sh [TPBISA_BINARY]   (default: build/tpbisa); then read `git diff tests/asm`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tool=${1:-$here/../../build/tpbisa}
[ -x "$tool" ] || { echo "regenerate.sh: no tpbisa binary at $tool (build first, or pass its path)" >&2; exit 2; }
for src in "$here"/*.tasm; do
  case "$src" in *.canon.tasm) continue ;; esac
  name=${src%.tasm}
  # The generation is named on a "; gen: NAME" comment line (default mariana).
  gen=$(sed -n 's/^; gen: *\([a-z0-9]*\).*/\1/p' "$src" | head -n 1)
  gen=${gen:-mariana}
  "$tool" asm --gen "$gen" --hex "$src" >"$name.hex"
  args=()
  while read -r word; do args+=(--hex "$word"); done <"$name.hex"
  "$tool" disasm --gen "$gen" "${args[@]}" >"$name.canon.tasm"
  echo "$(basename "$name"): $(wc -l <"$name.hex") words ($gen)"
done
