#!/usr/bin/env bash
# One vocabulary across the commands: an engine is accepted by its short name (pe, act, pool, dve, sp) or its NEFF
# stream name (Activation), in any case, by --engine and --trace-filter alike, and printed as PE, ACT, POOL, DVE, SP;
# a stream is sg00/PE and a word sg00/PE#8 everywhere; a DMA completion is written one way; a missing file is
# worded one way by every command; `-` reads a NEFF from stdin in the neff commands as in decode, validate and
# disasm; the neff commands' help lists them all and their exit codes; every convention id the sources name is in
# docs/conventions.md.
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

# ---- labels and semaphores in neff sems as everywhere: sg00/PE#1 (not #01), $S[4] ----
"$tool" neff sems "$synthetic" >sems.txt || fail "neff sems"
grep -Eq '#0[0-9]' sems.txt && fail "neff sems pads word numbers: $(grep -E '#0[0-9]' sems.txt | head -1)"
grep -Eq '^  S\[' sems.txt && fail "neff sems writes a semaphore without its \$: $(grep -E '^  S\[' sems.txt | head -1)"
grep -q '^  \$S\[5\]$' sems.txt && grep -q 'raised by  sg00/PE#1 ' sems.txt || fail "neff sems: \$S[5] raised by sg00/PE#1"

# ---- a DMA completion: one spelling in decode, neff sems (and the run reports, run_neff.sh) ----
"$tool" decode --engine sp "$synthetic" >dma.txt || fail "decode --engine sp"
grep -q '^  events: \$S\[8\]+=16@dma-complete$' dma.txt || fail "decode: the DMA completion $(grep events: dma.txt)"
grep -q 'sg00/SP#0 .*\$S\[8\]+=16@dma-complete' sems.txt || fail "neff sems: the DMA completion"

# ---- JSON: a stream is sg00/PE (its member sg00/PE.bin is `member`), an engine PE, ACT, POOL, DVE or SP ----
"$tool" decode --json "$synthetic" >decode.json
"$tool" validate --json "$synthetic" >validate.json
"$tool" neff info --json "$synthetic" >info.json
"$tool" neff sems --json "$synthetic" >sems.json
python3 - decode.json validate.json info.json sems.json <<'PY' || fail "stream and engine names in JSON"
import json, re, sys
bad = []
def walk(where, v):
    if isinstance(v, dict):
        for k, x in v.items():
            if k == "stream" and not (isinstance(x, str) and re.fullmatch(r"sg\d+/(PE|Activation|Pool|DVE|SP)", x)):
                bad.append(f"{where}: stream {x!r}")
            if k == "engine" and x not in ("PE", "ACT", "POOL", "DVE", "SP"):
                bad.append(f"{where}: engine {x!r}")
            walk(where, x)
    elif isinstance(v, list):
        for x in v:
            walk(where, x)
docs = {f: json.load(open(f)) for f in sys.argv[1:]}
for f, d in docs.items():
    walk(f, d)
engines = [e for sg in docs["info.json"]["subgraphs"] for e in sg["engines"]]
if [e["engine"] for e in engines[:5]] != ["PE", "ACT", "POOL", "DVE", "SP"]:
    bad.append(f"info.json engines {[e['engine'] for e in engines[:5]]}")
if engines[1]["label"] != "sg00/Activation" or engines[1]["member"] != "sg00/Activation.bin":
    bad.append(f"info.json label/member {engines[1]}")
if sum(1 for i in docs["decode.json"]["instructions"] if i["engine"] == "ACT") != 1:
    bad.append("decode.json: no ACT word")
if bad:
    print("\n".join(bad[:10]))
    sys.exit(1)
PY

# ---- a missing input: `tpbisa: error: PATH: cannot open: No such file or directory`, exit 3, whatever the command ----
missing="$tmp/nothing-here"
check_missing() {
  "$tool" "$@" >/dev/null 2>err.txt
  local rc=$?
  [ "$rc" -eq 3 ] && [ "$(cat err.txt)" = "tpbisa: error: $missing: cannot open: No such file or directory" ] ||
    fail "missing input, $1 $2: exit $rc: $(cat err.txt)"
}
check_missing decode "$missing"
check_missing validate "$missing"
check_missing disasm "$missing"
check_missing run "$missing"
check_missing asm "$missing"
check_missing lower --vars "$src/tests/cli/data/vars.json" "$missing" out.bin
check_missing neff info "$missing"
check_missing neff ls "$missing"
check_missing neff sems "$missing"
check_missing neff tables "$missing"
check_missing trace show "$missing"
check_missing run "$src/examples/demo.bin" --init "$missing"

# ---- the neff commands' help: every subcommand listed, and each subcommand's exit codes ----
"$tool" neff --help >help.txt 2>&1 || fail "neff --help: exit $?"
for sub in info ls extract pack sems tables act-eval; do
  grep -qE "^  $sub( |$)" help.txt || fail "neff --help does not list $sub"
  "$tool" neff "$sub" --help >sub.txt 2>&1 || fail "neff $sub --help: exit $?"
  grep -q '^Exit codes:' sub.txt || fail "neff $sub --help has no exit codes"
done

# ---- every PROJ-CONV id the sources name is in docs/conventions.md (by its id, or in a list of ids of its letter) ----
ids=$(grep -rhoE 'PROJ-CONV-[A-Z]+[0-9]+' "$src/src" "$src/tools" "$src/include" "$src/python/src" "$src/python/tpbisa" | sort -u)
[ -n "$ids" ] || fail "no convention ids found in the sources"
for id in $ids; do
  short=${id#PROJ-CONV-}
  grep -qE "(^|[^A-Za-z0-9])$short([^0-9]|$)" "$src/docs/conventions.md" || fail "$id is not in docs/conventions.md"
done
grep -qi 'not built yet' "$src/docs/conventions.md" && fail "docs/conventions.md still calls something not built yet"

if [ "$failures" -ne 0 ]; then
  echo "$failures failed"
  exit 1
fi
echo "vocabulary: all passed"
