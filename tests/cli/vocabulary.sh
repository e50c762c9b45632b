#!/usr/bin/env bash
# One vocabulary across the commands: an engine is accepted by its short name (pe, act, pool, dve, sp) or its NEFF
# stream name (Activation), in any case, by --engine and --trace-filter alike; `-` reads a NEFF from stdin in the
# neff commands as in decode, validate and disasm.
set -u
tool=${1:?usage: vocabulary.sh TPBISA_BINARY SOURCE_DIR}
src=${2:?usage: vocabulary.sh TPBISA_BINARY SOURCE_DIR}
tool=$(realpath "$tool")
src=$(realpath "$src")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
synthetic="$src/tests/golden/validate-neff/in.neff"

# ---- engine names: run --engine on a stream ----
"$tool" run --gen cayman --engine act "$src/examples/demo.bin" >act.txt 2>&1 || fail "--engine act: exit $?"
for name in Activation ACTIVATION ACT; do
  "$tool" run --gen cayman --engine "$name" "$src/examples/demo.bin" >other.txt 2>&1 || fail "--engine $name: exit $?"
  cmp -s act.txt other.txt || fail "--engine $name differs from --engine act"
done
"$tool" disasm --engine Activation "$synthetic" >a.txt 2>&1 && "$tool" disasm --engine ACT "$synthetic" >b.txt 2>&1 &&
  cmp -s a.txt b.txt || fail "disasm --engine Activation and ACT differ"

# ---- `-` is stdin for the neff commands ----
for sub in info ls sems; do
  "$tool" neff "$sub" "$synthetic" | sed "s#$synthetic#FILE#g" >file.txt
  "$tool" neff "$sub" - <"$synthetic" | sed 's#<stdin>#FILE#g' >stdin.txt
  cat "$synthetic" | "$tool" neff "$sub" - | sed 's#<stdin>#FILE#g' >pipe.txt
  cmp -s file.txt pipe.txt || fail "neff $sub - (a pipe) differs from neff $sub FILE: $(diff file.txt pipe.txt | head -5)"
  [ -s stdin.txt ] || fail "neff $sub - (a redirected file) printed nothing"
done
"$tool" neff info - </dev/null >/dev/null 2>err.txt
[ $? -eq 3 ] && grep -q '^tpbisa: error: <stdin>: ' err.txt || fail "an empty stdin: $(cat err.txt)"

# ---- --trace-filter engine=Activation on the real NEFF (where the shared data folder has it) ----
neff="${TPBISA_SHARED_DATA_DIR:-$src/../shared/data}/matmul_small.neff"
if [ -f "$neff" ] && /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  /usr/bin/python3 -c "
import numpy as np
np.save('x.npy', np.ones((128, 256), np.float16)); np.save('y.npy', np.ones((256, 128), np.float16))"
  for name in act Activation ACTIVATION; do
    "$tool" run "$neff" --input x=x.npy --input y=y.npy --trace "t-$name.jsonl" --trace-filter "engine=$name" \
      >/dev/null 2>err.txt || fail "--trace-filter engine=$name: $(cat err.txt)"
  done
  [ "$(wc -l <t-act.jsonl)" -eq 10 ] || fail "--trace-filter engine=act kept $(wc -l <t-act.jsonl) records, not 10"
  cmp -s t-act.jsonl t-Activation.jsonl && cmp -s t-act.jsonl t-ACTIVATION.jsonl ||
    fail "--trace-filter engine=Activation differs from engine=act"
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures failed"
  exit 1
fi
echo "vocabulary: all passed"
