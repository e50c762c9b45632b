#!/usr/bin/env bash
# CLI checks of examples/gen_matmul_neff.py: generated NEFFs of several small shapes validate word for word, read
# back with the expected inputs, outputs and variables, have a raiser for every semaphore wait, and carry the
# program shape (K-split groups, bank reuse, both EventSemaphore lanes, spills, multi-queue DMA); the negative
# controls deadlock or race in the generator's own replay; the docs/generator.md examples run as written. When
# `tpbisa run` executes a NEFF (it refuses one until the executor lands), each program's output must equal NumPy's,
# the dropped increment must deadlock and the dropped wait must be reported by --check-races.
set -u
tool=${1:?usage: gen_neff.sh TPBISA_BINARY SOURCE_DIR}
src=${2:?usage: gen_neff.sh TPBISA_BINARY SOURCE_DIR}
tool=$(cd "$(dirname "$tool")" && pwd)/$(basename "$tool")  # the docs examples run in a scratch folder
py=/usr/bin/python3
gen="$src/examples/gen_matmul_neff.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
export TPBISA="$tool"

# gen NAME ARGS...: writes $tmp/NAME.neff and $tmp/NAME/{x,y,ref}.npy; fails the test if the generator does.
gen() {
  local name=$1
  shift
  if ! "$py" "$gen" --out "$tmp/$name.neff" --write-inputs "$tmp/$name" "$@" >"$tmp/$name.gen" 2>&1; then
    fail "$name: the generator failed: $(cat "$tmp/$name.gen")"
    return 1
  fi
}

# info_checks NAME K N LNC: neff info --json shows the signature, the subgraphs and the variables.
info_checks() {
  local name=$1 k=$2 n=$3 lnc=$4
  "$tool" neff info --json "$tmp/$name.neff" >"$tmp/$name.info.json" 2>"$tmp/$name.info.err" ||
    { fail "$name: neff info: $(cat "$tmp/$name.info.err")"; return; }
  [ -s "$tmp/$name.info.err" ] && fail "$name: neff info warns: $(cat "$tmp/$name.info.err")"
  "$py" - "$tmp/$name.info.json" "$k" "$n" "$lnc" <<'EOF' || fail "$name: neff info does not show the program"
import json, sys
info = json.load(open(sys.argv[1]))
k, n, lnc = map(int, sys.argv[2:5])
problems = []
def want(cond, what):
    if not cond:
        problems.append(what)
ins = {i["name"]: (i["dtype"], i["shape"]) for i in info["inputs"]}
outs = {o["name"]: (o["dtype"], o["shape"]) for o in info["outputs"]}
want(ins == {"x": ("float16", [128, k]), "y": ("float16", [k, n])}, f"inputs {ins}")
want(outs == {"output0": ("float16", [128, n])}, f"outputs {outs}")
want(info["target"] == "cayman" and info["generation"] == "cayman", "target cayman")
want(info["header"]["lnc_size"] == lnc, f"lnc_size {info['header']['lnc_size']}")
want([s["name"] for s in info["subgraphs"]] == [f"sg{c:02d}" for c in range(lnc)], "one subgraph per core")
for sg in info["subgraphs"]:
    engines = {e["engine"]: e for e in sg["engines"]}
    want(sorted(engines) == sorted(["PE", "ACT", "POOL", "DVE", "SP"]), f"{sg['name']}: five engines")
    pe = engines["PE"]["opcodes"]
    kt, nt = k // 128, n // lnc // 512
    want(pe.get("Ldweights") == kt + kt * nt and pe.get("Matmul") == kt + kt * nt,
         f"{sg['name']}: PE LDWEIGHTS/MATMUL counts {pe}")
    dve = engines["DVE"]["opcodes"]
    want(dve.get("Cast") == nt and dve.get("Memset") == nt and dve.get("TensorTensorArithOp", 0) >= nt,
         f"{sg['name']}: DVE counts {dve}")
    want(engines["ACT"]["opcodes"].get("Copy") == kt, f"{sg['name']}: Activation copies")
    for e in engines.values():
        want(e["opcodes"].get("SetOrderingMode") == 1 and e["opcodes"].get("PseudoBranchLabel") == 1,
             f"{e['label']}: one 0xb1 and one 0xcc")
    dma = sum(e["opcodes"].get("PseudoDmaDirect2d", 0) for e in engines.values())
    want(dma == 1 + kt + kt + 2 * kt * nt + nt, f"{sg['name']}: {dma} DMA words")
    types = {}
    for v in sg["variables"]:
        types.setdefault(v["type"], []).append(v)
    want(len(types.get("virtual", [])) >= 1, f"{sg['name']}: spill variables")
    want(sorted(q["name"] for q in sg["queue_sets"]) == ["qActDynamicHW", "qPoolDynamic", "qSPDynamicHW"],
         f"{sg['name']}: three queue sets")
if problems:
    print("\n".join(problems))
    sys.exit(1)
EOF
}

# sems_checks NAME: every waited semaphore is raised, by at least as much as its highest wait, and neff sems marks
# no DMA (each uses a semaphore of a queue set its engine owns, with the set's increment).
sems_checks() {
  local name=$1
  "$tool" neff sems --json "$tmp/$name.neff" >"$tmp/$name.sems.json" || { fail "$name: neff sems"; return; }
  "$py" - "$tmp/$name.sems.json" <<'EOF' || fail "$name: the static semaphore picture"
import json, re, sys
doc = json.load(open(sys.argv[1]))
bad = []
def amount(u):  # $S[i]++@complete adds 1; $S[i]+=V@... adds V
    m = re.search(r"\+=(\d+)@", u["text"])
    return int(m.group(1)) if m else (1 if "++" in u["text"] else 0)
for sg in doc["subgraphs"]:
    for s in sg["semaphores"]:
        where = f"{sg['subgraph']} S[{s['semaphore']}]"
        top = max((w["value"] for w in s["waits"]), default=0)
        raised = sum(amount(u) for u in s["increments"])
        if s["waits"] and not s["increments"]:
            bad.append(f"{where}: waited for, never raised")
        elif raised < top:
            bad.append(f"{where}: raised to {raised}, waited for {top}")
        for u in s["waits"] + s["increments"]:
            if "note" in u:
                bad.append(f"{where} {u['stream']}#{u['word']}: {u['note']}")
if bad:
    print("\n".join(bad[:10]))
    sys.exit(1)
EOF
  "$tool" neff sems "$tmp/$name.neff" >"$tmp/$name.sems.txt" || fail "$name: neff sems (text)"
  grep -q "waited by" "$tmp/$name.sems.txt" || fail "$name: neff sems lists no waits"
}

# validate_checks NAME: every word of every stream is valid.
validate_checks() {
  local name=$1
  "$tool" validate "$tmp/$name.neff" >"$tmp/$name.validate" 2>&1 || fail "$name: validate exits non-zero"
  local summary
  summary=$(tail -1 "$tmp/$name.validate")
  echo "$summary" | grep -qE '^([0-9]+) checked, \1 valid, 0 invalid, 0 header-only$' ||
    fail "$name: validate: $summary"
}

# disasm_checks NAME [PATTERN...]: the disassembly reads like matmul_small's (the shape of a compiled kernel): the
# words every program has, and the extra PATTERNs of its shape.
disasm_checks() {
  local name=$1
  shift
  "$tool" disasm "$tmp/$name.neff" >"$tmp/$name.tasm" || { fail "$name: disasm"; return; }
  grep -q 'INVALID' "$tmp/$name.tasm" && fail "$name: disasm marks an invalid word"
  for pattern in 'Ldweights \$S\[24\]>=16 .*step_elem=\{-1,0,-32\} .*transpose_mode=1' \
    'Matmul \$S\[8\]>=16 \$S\[5\]\+\+@complete .*transpose_mode=1 .*psum_accumulate_flags=3 .*bank7' \
    'Copy \$S\[5\]>=1 \$S\[4\]\+\+@complete src.start_addr=psum.* in_dtype=i32 out_dtype=i32' \
    'PseudoDmaDirect2d semaphore=40 sem_increment=16 src.offset=[0-9]+ src.id=0x0 src.mode=0x10' \
    'Memset dst_element_count=512 dtype=fp32' 'TensorTensorArithOp \$S\[6\]>=[0-9]+ \$S\[7\]\+\+@complete .*op=ADD .*src0.start_addr=psum' \
    'Cast .*in_dtype=fp32 out_dtype=fp16' 'PseudoDmaDirect2d .*semaphore=25 .*src.id=0x1 src.mode=0x20' \
    'PseudoDmaDirect2d .*semaphore=26 .*src.id=0x1 src.mode=0x20' 'PseudoDmaDirect2d \$S\[56\]>=1 semaphore=27 .*dst.id=0x2 dst.mode=0x20' \
    'Nop \$S\[27\]>=[0-9]+$' "$@"; do
    grep -qE "$pattern" "$tmp/$name.tasm" || fail "$name: no word matches /$pattern/"
  done
}

# run_checks NAME: only when tpbisa run executes NEFFs: the output equals NumPy's reference.
run_available=0
"$py" "$gen" --out "$tmp/probe.neff" >/dev/null 2>&1
if "$tool" run "$tmp/probe.neff" >"$tmp/probe.out" 2>&1 || ! grep -q "not available yet" "$tmp/probe.out"; then
  run_available=1
fi
run_checks() {
  local name=$1
  [ "$run_available" -eq 1 ] || return 0
  # --max-memory: the sparse spill declares 4.25 GiB, counted against it before the run (resident only where written).
  "$tool" run "$tmp/$name.neff" --max-memory 8G --input x="$tmp/$name/x.npy" --input y="$tmp/$name/y.npy" --out "$tmp/$name/res" \
    --expect output0="$tmp/$name/ref.npy" >"$tmp/$name.run" 2>&1 || { fail "$name: run: $(tail -5 "$tmp/$name.run")"; return; }
  "$py" -c 'import numpy as np, sys
a, b = np.load(sys.argv[1]), np.load(sys.argv[2])
sys.exit(0 if a.dtype == b.dtype and a.shape == b.shape and (a.view(np.uint16) == b.view(np.uint16)).all() else 1)' \
    "$tmp/$name/res/output0.npy" "$tmp/$name/ref.npy" || fail "$name: the output differs from NumPy's"
}

# shape NAME K N LNC "GENERATOR OPTIONS" [PATTERN...]: generates the program and runs every check on it.
shape() {
  local name=$1 k=$2 n=$3 lnc=$4 opts=$5
  shift 5
  # shellcheck disable=SC2086 # the options are words
  gen "$name" --k "$k" --n "$n" --lnc "$lnc" $opts || return
  validate_checks "$name"
  info_checks "$name" "$k" "$n" "$lnc"
  sems_checks "$name"
  disasm_checks "$name" "$@"
  run_checks "$name"
  "$py" -c 'import numpy as np, sys
x, y, r = (np.load(f"{sys.argv[1]}/{n}.npy") for n in "x y ref".split())
k, n = int(sys.argv[2]), int(sys.argv[3])
ok = x.dtype == y.dtype == r.dtype == np.float16 and x.shape == (128, k) and y.shape == (k, n) and r.shape == (128, n)
ok = ok and set(np.unique(x)) == {-2, -1, 0, 1, 2} and set(np.unique(y)) == {-2, -1, 0, 1, 2}
ok = ok and (r == (x.astype(np.float32) @ y.astype(np.float32)).astype(np.float16)).all()
sys.exit(0 if ok else 1)' "$tmp/$name" "$k" "$n" || fail "$name: --write-inputs wrote wrong inputs or reference"
}

start='Matmul .*psum_accumulate_flags=1 ' mid='Matmul .*psum_accumulate_flags=0 ' end='Matmul .*psum_accumulate_flags=2 '
lanes='EventSemaphore \$S\[2[56]\]>=[0-9]+ ext.wait_mode=SEM_GE_IMM ext.wait_idx=7 ext.sem_wait_value=[0-9]+$'
# One group of two K-tiles per N-tile (MULTI_START, MULTI_END), two N-tiles in four banks.
shape small 256 1024 1 "" "$start" "$end"
# Groups of three K-tiles (START, MID, END) and a short last group, rotating through two banks: the START of a
# reused bank waits for the y tile and the DVE add of the group before (both EventSemaphore lanes).
shape groups 640 1536 1 "--group 3 --banks 2" "$start" "$mid" "$end" "$lanes"
# LNC 2: two subgraphs, each computing half of the columns.
shape lnc2 384 2048 2 "--group 2 --banks 3" "$start" "$end" "$lanes"
# The spill variable of 4.25 GiB, every spill and reload walking past byte 2^32.
shape sparse 256 512 1 "--sparse-big" "$start" "$end"
# One K-tile: every group is a single MATMUL (SINGLE), reusing one bank.
shape single 128 1024 1 "--group 1 --banks 1" 'Matmul .*transpose_mode=0 .*psum_accumulate_flags=3 ' "$lanes"
grep -qF '"size": 4563402752' <("$tool" neff info --json "$tmp/sparse.neff") ||
  fail "sparse: the spill variable is not 4.25 GiB (128 rows of 34 MiB)"
grep -qE 'PseudoDmaDirect2d .*dst.offset=0 dst.id=0x6 dst.mode=0x10 dst_step=\{35651584,1\}' "$tmp/sparse.tasm" ||
  fail "sparse: the spill does not walk 34 MiB rows"

# --keep: the unpacked folder is what the NEFF holds, plus each stream's assembly; --print-sems: the replay's final
# semaphore values are the totals of the increments neff sems finds in the words.
"$py" "$gen" --out "$tmp/kept.neff" --k 640 --n 1536 --group 3 --banks 2 --keep "$tmp/kept" --print-sems \
  >"$tmp/kept.gen" 2>&1 || fail "--keep: $(cat "$tmp/kept.gen")"
"$tool" neff extract "$tmp/kept.neff" "$tmp/kept.x" >/dev/null || fail "extract of the kept NEFF"
for e in PE Activation Pool DVE SP; do
  cmp -s "$tmp/kept/sg00/$e.bin" "$tmp/kept.x/sg00/$e.bin" || fail "--keep: sg00/$e.bin differs from the NEFF's"
  "$tool" asm --gen cayman "$tmp/kept/sg00/$e.tasm.txt" -o "$tmp/kept.$e.bin" >/dev/null 2>&1 &&
    cmp -s "$tmp/kept.$e.bin" "$tmp/kept.x/sg00/$e.bin" || fail "--keep: sg00/$e.tasm.txt does not assemble to the stream"
done
[ "$(cd "$tmp/kept" && find . -type f ! -name '*.tasm.txt' | sort)" = "$(cd "$tmp/kept.x" && find . -type f | sort)" ] ||
  fail "--keep: the folder's members differ from the NEFF's"
"$tool" neff sems --json "$tmp/kept.neff" >"$tmp/kept.sems.json"
"$py" - "$tmp/kept.gen" "$tmp/kept.sems.json" <<'EOF' || fail "--print-sems disagrees with the words"
import json, re, sys
printed = dict((int(a), int(b)) for a, b in re.findall(r"S\[(\d+)\]=(\d+)", open(sys.argv[1]).read()))
totals = {}
for s in json.load(open(sys.argv[2]))["subgraphs"][0]["semaphores"]:
    m = [re.search(r"\+=(\d+)@", u["text"]) for u in s["increments"]]
    totals[s["semaphore"]] = sum(int(x.group(1)) if x else 1 for x in m)
if not printed or printed != totals:
    print("printed", printed, "words", totals)
    sys.exit(1)
EOF

# Deterministic: the same arguments give the same bytes.
mkdir "$tmp/again"
"$py" "$gen" --out "$tmp/again/groups.neff" --k 640 --n 1536 --group 3 --banks 2 >/dev/null 2>&1
cmp -s "$tmp/groups.neff" "$tmp/again/groups.neff" || fail "two runs of the generator differ"

# Negative controls: a dropped increment deadlocks, a dropped wait races (the generator's replay says so).
"$py" "$gen" --out "$tmp/dead.neff" --k 256 --n 1024 --drop-increment 24 >"$tmp/dead.gen" 2>&1 ||
  fail "--drop-increment 24: $(cat "$tmp/dead.gen")"
grep -q "the program deadlocks: .*S\[24\]>=" "$tmp/dead.gen" || fail "--drop-increment 24 names the stuck wait"
# The dropped DMA increment (sem_increment 0 on a one-queue DMA) is also what the program check
# dma_sem_increment_num_queues (PROJ-CONV-G2) rejects: validate names it, on that word only.
if "$tool" validate "$tmp/dead.neff" >"$tmp/dead.validate" 2>&1; then fail "dead: validate accepts the dropped increment"; fi
# Two words fail: the transfer whose increment is 0, and the wait on $S[24] that no raise can now meet (PROJ-CONV-G8).
grep -qE '^[0-9]+ checked, [0-9]+ valid, 2 invalid, 0 header-only$' <(tail -1 "$tmp/dead.validate") ||
  fail "dead: validate: $(tail -1 "$tmp/dead.validate")"
grep -q 'dma_sem_increment_num_queues' "$tmp/dead.validate" || fail "dead: validate names dma_sem_increment_num_queues"
grep -q 'sem_wait_reachable (program check, convention PROJ-CONV-G8): .*\$S\[24\]>=[0-9]* can never hold' "$tmp/dead.validate" ||
  fail "dead: validate names the wait no raise meets"
"$tool" neff sems "$tmp/dead.neff" | grep -q 'S\[24\]+=0@dma-complete' || fail "dead: the dropped increment is +0"
"$py" "$gen" --out "$tmp/free.neff" --drop-increment 7 >"$tmp/free.gen" 2>&1 && fail "--drop-increment 7 succeeds"
grep -q "still completes" "$tmp/free.gen" || fail "--drop-increment 7 explains why it cannot deadlock"
[ -e "$tmp/free.neff" ] && fail "--drop-increment 7 wrote a NEFF"
"$py" "$gen" --out "$tmp/race.neff" --k 512 --n 1024 --group 2 --banks 2 --drop-wait >"$tmp/race.gen" 2>&1 ||
  fail "--drop-wait: $(cat "$tmp/race.gen")"
grep -q "unordered accesses: sg00/DVE#3 TensorTensorArithOp and sg00/PE#[0-9]* Matmul on psum bank 0" "$tmp/race.gen" || fail "--drop-wait names the race"
validate_checks race
if [ "$run_available" -eq 1 ]; then
  "$py" "$gen" --out "$tmp/dead.neff" --k 256 --n 1024 --drop-increment 24 --write-inputs "$tmp/dead" >/dev/null
  "$tool" run "$tmp/dead.neff" --input x="$tmp/dead/x.npy" --input y="$tmp/dead/y.npy" >"$tmp/dead.run" 2>&1
  [ $? -eq 1 ] || fail "run of the dropped increment: exit is not 1"
  grep -qi deadlock "$tmp/dead.run" || fail "run of the dropped increment reports no deadlock"
  "$py" "$gen" --out "$tmp/race.neff" --k 512 --n 1024 --group 2 --banks 2 --drop-wait --write-inputs "$tmp/race" \
    >/dev/null
  "$tool" run "$tmp/race.neff" --check-races --input x="$tmp/race/x.npy" --input y="$tmp/race/y.npy" \
    >"$tmp/race.run" 2>&1
  [ $? -eq 1 ] || fail "run --check-races of the dropped wait: exit is not 1"
fi

# Usage errors.
"$py" "$gen" --out "$tmp/bad.neff" --k 100 >/dev/null 2>&1 && fail "--k 100 is accepted"
"$py" "$gen" --out "$tmp/bad.neff" --n 512 --lnc 2 >/dev/null 2>&1 && fail "--n 512 --lnc 2 is accepted"

# The examples of docs/generator.md.
TPBISA="$tool" "$py" "$src/tests/cli/docs_examples.py" "$tool" "$src" docs/generator.md >"$tmp/docs" 2>&1 ||
  fail "docs/generator.md examples: $(cat "$tmp/docs")"

[ "$run_available" -eq 1 ] || echo "note: tpbisa run does not execute NEFFs yet; the run checks were skipped"
[ "$failures" -eq 0 ] && echo "gen_neff: all checks passed" || exit 1
