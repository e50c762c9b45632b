#!/usr/bin/env bash
# CLI checks on the compiler's matmul_small.neff (skipped when the shared data is absent): validate needs no --gen
# and no extraction; decode/validate/disasm of the NEFF give the words of the extracted streams; disasm -o DIR and
# asm reproduce every stream byte for byte.
set -u
tool=${1:?usage: neff_input.sh TPBISA_BINARY SOURCE_DIR}
src=${2:?usage: neff_input.sh TPBISA_BINARY SOURCE_DIR}
# Exit 77: ctest reports the script as skipped (SKIP_RETURN_CODE, tests/CMakeLists.txt).
neff="${TPBISA_SHARED_DATA_DIR:-$src/../shared/data}/matmul_small.neff"
if [ ! -f "$neff" ]; then
  echo "skipped: $neff is absent (shared data not available)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$tool" validate "$neff" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" -eq 0 ] || fail "validate on the NEFF: exit $rc"
grep -qF "generation cayman: the target of" "$tmp/out" || fail "validate says the generation came from the target"
grep -qF "58 checked, " "$tmp/out" || fail "validate checks the 58 words of the ten streams"
grep -qF "sg01/Pool#6 0x180 " "$tmp/out" || fail "validate labels words with their stream and offset"

"$tool" neff extract "$neff" "$tmp/x" >/dev/null || fail "extract"
"$tool" disasm "$neff" -o "$tmp/d" >"$tmp/list" || fail "disasm -o DIR"
streams=0
for sg in sg00 sg01; do
  for e in PE Activation Pool DVE SP; do
    streams=$((streams + 1))
    # The NEFF's words, a stream at a time, against the extracted member, for each command.
    "$tool" decode --json --subgraph $sg --engine $e "$neff" | python3 -c 'import json, sys
print("".join(i["word"] for i in json.load(sys.stdin)["instructions"]))' >"$tmp/a"
    "$tool" decode --json --gen cayman "$tmp/x/$sg/$e.bin" | python3 -c 'import json, sys
print("".join(i["word"] for i in json.load(sys.stdin)["instructions"]))' >"$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || fail "decode $sg/$e: the NEFF's words differ from the extracted stream's"
    "$tool" validate --subgraph $sg --engine $e "$neff" | sed "1d; s|^$sg/$e#|#|" >"$tmp/a"
    "$tool" validate --gen cayman "$tmp/x/$sg/$e.bin" >"$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || fail "validate $sg/$e: verdicts differ from the extracted stream's"
    "$tool" disasm --subgraph $sg --engine $e "$neff" | grep -v '^;' >"$tmp/a"
    "$tool" disasm --gen cayman "$tmp/x/$sg/$e.bin" >"$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || fail "disasm $sg/$e: text differs from the extracted stream's"
    "$tool" asm --gen cayman "$tmp/d/$sg/$e.tasm" -o "$tmp/d/$sg/$e.bin" >/dev/null || fail "asm $sg/$e.tasm"
    cmp -s "$tmp/d/$sg/$e.bin" "$tmp/x/$sg/$e.bin" || fail "asm of disasm -o DIR: $sg/$e differs from the stream"
  done
done
[ "$(wc -l <"$tmp/list")" -eq "$streams" ] || fail "disasm -o DIR names one file per stream"

[ "$failures" -eq 0 ] && echo "neff_input: all checks passed" || exit 1
