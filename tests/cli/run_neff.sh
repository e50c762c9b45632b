#!/usr/bin/env bash
# CLI checks for `tpbisa run PROG.neff` on the real matmul_small.neff (skipped when ../shared/data is absent):
# the README's NumPy tour, every schedule, --json, --out, input checks, --trace-filter, exit codes.
set -u
# shellcheck source=lib/scaffold.bash
source "$(dirname "${BASH_SOURCE[0]}")/lib/scaffold.bash"
cli_setup run_neff.sh "$@"
[ -f "$neff" ] || cli_skip "the shared data folder is absent"
cli_require_python numpy NumPy
cli_scratch
run() { "$tool" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
expect_rc() { [ "$rc" -eq "$1" ] || { fail "$2: exit $rc, expected $1"; sed 's/^/  stdout: /' "$tmp/out"; sed 's/^/  stderr: /' "$tmp/err"; }; }
expect_out() { grep -qF -- "$1" "$tmp/out" || { fail "$2: stdout lacks '$1'"; sed 's/^/  stdout: /' "$tmp/out"; }; }
expect_err() { grep -qF -- "$1" "$tmp/err" || { fail "$2: stderr lacks '$1'"; sed 's/^/  stderr: /' "$tmp/err"; }; }

# ---- the README tour: random integers in [-2, 2], the reference (x.astype(f32) @ y.astype(f32)).astype(f16) ----
"$py" -c "import numpy as np; r = np.random.default_rng(0)
x = r.integers(-2, 3, (128, 256)).astype(np.float16); y = r.integers(-2, 3, (256, 128)).astype(np.float16)
np.save('x.npy', x); np.save('y.npy', y); np.save('ref.npy', (x.astype(np.float32) @ y.astype(np.float32)).astype(np.float16))"
run run "$neff" --input x=x.npy --input y=y.npy --out results --expect output0=ref.npy
expect_rc 0 "tour"
expect_out "status: ok, 58 words retired" "tour status"
expect_out "wrote results/output0.npy" "tour output"
expect_out "expect output0 (ref.npy): 0 of 16384 elements differ" "tour expect"
expect_out "semaphores: \$S[4]=2 \$S[5]=4 \$S[8]=16 \$S[24]=16 \$S[25]=16 \$S[26]=16 \$S[27]=16" "final semaphores"
expect_out "uninitialized reads: none" "no uninitialised read"
"$py" -c "import numpy as np; a = np.load('results/output0.npy'); b = np.load('ref.npy')
assert a.dtype == np.float16 and a.shape == (128, 128), (a.dtype, a.shape)
assert (a.view(np.uint16) == b.view(np.uint16)).all()" || fail "results/output0.npy equals NumPy's product bit for bit"

for schedule in default reverse random:1 random:99; do
  run run "$neff" --input x=x.npy --input y=y.npy --schedule "$schedule" --expect output0=ref.npy --quiet
  expect_rc 0 "schedule $schedule"
  expect_out "expect output0 (ref.npy): 0 of 16384 elements differ" "schedule $schedule"
done

# ---- --threads: the cores on two threads, the same outputs ----
run run "$neff" --input x=x.npy --input y=y.npy --threads --out threaded --expect output0=ref.npy
expect_rc 0 "threads"
cmp -s threaded/output0.npy results/output0.npy || fail "--threads writes the same output0.npy"
run run "$neff" --input x=x.npy --input y=y.npy --threads --check-races
expect_rc 2 "--threads with --check-races"

# ---- --check-races: the compiled program orders every conflicting access ----
run run "$neff" --input x=x.npy --input y=y.npy --check-races --schedule random:3
expect_rc 0 "check-races"
expect_out "races: 0 unordered conflicting accesses" "race report"
# Without the wait of sg00/Activation#4 (byte 4 of its word) its Copy of PSUM bank 0 is unordered with the two
# Matmuls writing it (PROJ-CONV-P4: PE's $S[4]>=1 is ordered after the first Copy's increment only): the same
# report, 2 x 16384 locations, and exit 1 under every schedule.
"$tool" neff extract "$neff" nowait >/dev/null || fail "extract matmul_small.neff"
"$py" -c "b = bytearray(open('nowait/sg00/Activation.bin', 'rb').read()); assert b[4 * 64 + 4] == 5; b[4 * 64 + 4] = 0
open('nowait/sg00/Activation.bin', 'wb').write(b)" || fail "patch Activation#4"
"$tool" neff pack nowait nowait.neff >/dev/null || fail "pack the patched NEFF"
for schedule in default reverse random:1 random:2; do
  run run nowait.neff --input x=x.npy --input y=y.npy --check-races --schedule "$schedule" --quiet
  expect_rc 1 "check-races without the wait, $schedule"
  expect_out "races: 32768 unordered conflicting accesses" "race count, $schedule"
  sed -n '/^races:/,$p' "$tmp/out" >"races.$schedule"
  cmp -s races.default "races.$schedule" || fail "the race report under $schedule differs from the default's"
done
[ "$(grep -c ': no happens-before order between them' races.default)" -eq 2 ] || fail "two racing pairs"
grep -q '^  sg00/PE#9 Matmul' races.default && grep -q '^  sg00/PE#11 Matmul' races.default || fail "PE#9, PE#11"
expect_out "races: 32768 unordered conflicting accesses (2-byte locations) in 2 pairs of words" "the two counts"
# PSUM spelled by bank, as the words themselves print it (dst.start_addr=psum[p0].bank0+0x0).
[ "$(grep -c '^    at psum\[p0\]\.bank0+0x0 (core 0): no happens-before' races.default)" -eq 2 ] || fail "PSUM by bank"
# The same report as structures: both words, the access kinds and the location (PSUM partition 0; the Copy reads
# 16384 cells of each Matmul's, 128 partitions x 256 bytes, so 256 bytes from the first location).
run run nowait.neff --input x=x.npy --input y=y.npy --check-races --json
expect_rc 1 "check-races --json without the wait"
"$py" - "$tmp/out" <<'PY' || fail "the race report as structures"
import json, sys
r = json.load(open(sys.argv[1]))["races"]
assert r["cells"] == r["count"] == 32768 and r["pairs"] == 2 and len(r["reported"]) == 2, r
for race, pe in zip(r["reported"], (9, 11)):
    e, l, at = race["earlier"], race["later"], race["location"]
    assert (e["core"], e["engine"], e["stream"], e["index"]) == (0, "PE", "sg00/PE", pe), e
    assert (e["name"], e["opcode"], e["access"], e["offset"]) == ("Matmul", "0x02", "write", pe * 64), e
    assert (l["core"], l["engine"], l["stream"], l["index"], l["access"]) == (0, "ACT", "sg00/Activation", 4, "read"), l
    assert e["text"].startswith(f"sg00/PE#{pe} Matmul") and e["text"].endswith("(write)"), e
    assert (at["memory"], at["core"], at["partition"], at["variable"]) == ("psum", 0, 0, None), at
    assert at["bytes"] == 256 and at["text"] == "psum[p0].bank0+0x0 (core 0)", at
PY

# ---- the static check of waits no raise can meet (sem_wait_reachable, PROJ-CONV-G8) ----
# PE waits for $S[25]>=16, raised only by the completion of sg00/Pool#3 (+16): made +15, the wait can never hold,
# which validate says before any run (the run itself deadlocks, docs/cli.md).
run validate "$neff" --quiet
expect_rc 0 "matmul_small.neff passes the program checks"
"$tool" neff extract "$neff" short >/dev/null || fail "extract matmul_small.neff"
"$py" -c "import pathlib
p = pathlib.Path('short/sg00/Pool.bin'); b = bytearray(p.read_bytes()); assert b[3 * 64 + 14] == 16
b[3 * 64 + 14] = 15; p.write_bytes(bytes(b))" || fail "patch Pool#3"
"$tool" neff pack short short.neff >/dev/null || fail "pack the patched NEFF"
run validate short.neff
expect_rc 1 "a wait no raise meets"
expect_out "sem_wait_reachable (program check, convention PROJ-CONV-G8): sg00/PE#" "the check names the waiting word"
expect_out "\$S[25]>=16 can never hold: the raises of \$S[25] reach at most 15 (1 word raises it)" "the reason"
[ "$(grep -c 'sem_wait_reachable' "$tmp/out")" -ge 1 ] || fail "one failure at least"

# ---- a wrong reference: the count, the largest difference, the first indices; exit 1 ----
"$py" -c "import numpy as np; b = np.load('ref.npy'); b[3, 5] += 1; b[100, 7] -= 4; np.save('bad.npy', b)"
run run "$neff" --input x=x.npy --input y=y.npy --expect output0=bad.npy
expect_rc 1 "differing reference"
expect_out "expect output0 (bad.npy): 2 of 16384 elements differ, max abs diff 4, first at [3, 5] [100, 7]" "difference report"
# Within a tolerance: |a - b| <= atol + rtol * |ref|; the line says which reference and which tolerance.
run run "$neff" --input x=x.npy --input y=y.npy --expect output0=bad.npy --atol 1
expect_rc 1 "atol 1 leaves the difference of 4"
expect_out "expect output0 (bad.npy, rtol 0, atol 1): 1 of 16384 elements differ, max abs diff 4, first at [100, 7]" "atol"
run run "$neff" --input x=x.npy --input y=y.npy --expect output0=bad.npy --atol 4
expect_rc 0 "atol 4 covers both"
expect_out "expect output0 (bad.npy, rtol 0, atol 4): 0 of 16384 elements differ" "atol 4"
run run "$neff" --input x=x.npy --input y=y.npy --expect output0=bad.npy --rtol nan
expect_rc 2 "--rtol nan"
expect_err "tpbisa: error: run: --rtol 'nan' is not a number 0 or more" "--rtol nan"

# ---- --json ----
run run "$neff" --input x=x.npy --input y=y.npy --json --expect output0=ref.npy
expect_rc 0 "json"
"$py" -c "import json, sys; d = json.load(open('$tmp/out'))
assert d['status'] == 'ok' and d['retired'] == 58, d['status']
assert [c['subgraph'] for c in d['cores']] == ['sg00', 'sg01']
assert d['cores'][0]['semaphores'] == {'4': 2, '5': 4, '8': 16, '24': 16, '25': 16, '26': 16, '27': 16}
assert d['cores'][1]['engines']['PE']['retired'] == 12
assert d['opcodes']['Matmul'] == 8 and d['opcodes']['PseudoDmaDirect2d'] == 10
assert d['expect'][0]['differing'] == 0
assert d['macs'] == 2 * (2 * 128 ** 3 + 2 * 128 * 128 * 64)" || fail "json document"

# ---- inputs checked against the signature ----
"$py" -c "import numpy as np; np.save('x32.npy', np.zeros((128, 256), np.float32)); np.save('xt.npy', np.zeros((256, 128), np.float16))"
run run "$neff" --input x=x32.npy --input y=y.npy
expect_rc 3 "fp32 input"
expect_err "input x expects float16 (128, 256) ('<f2', C order), the file has '<f4' (128, 256)" "dtype message"
run run "$neff" --input x=xt.npy --input y=y.npy
expect_rc 3 "transposed input"
expect_err "the file has '<f2' (256, 128)" "shape message"
run run "$neff" --input x=x.npy
expect_rc 3 "missing input"
expect_err "input y (float16 (256, 128)) is not given" "missing input message"
run run "$neff" --input z=x.npy --input y=y.npy
expect_rc 3 "unknown input: an input error, as a missing one"
expect_err "matmul_small.neff: --input z: the program has no input of that name (its inputs: x, y)" "unknown input message"
run run "$neff" --input x=x.npy --input y=y.npy --expect zz=x.npy
expect_rc 3 "unknown output"
expect_err "matmul_small.neff: --expect zz: the program has no output of that name (its outputs: output0)" "unknown output"
run run "$neff" --input x=x.npy --input y=y.npy --expect output0=x.npy
expect_rc 3 "a reference of another shape"
expect_err "x.npy: --expect output0: the reference has shape <f2 (128, 256), the output float16 (128, 128)" "shape"
run run "$neff" --input x=nope.npy --input y=y.npy
expect_rc 3 "an input that is not there"
expect_err "nope.npy: cannot open: No such file or directory" "worded as every missing file"
head -c 300 "$neff" >short-header.neff
run run short-header.neff
expect_rc 3 "a truncated NEFF"
expect_err "short-header.neff: 300 bytes is too small for a NEFF: the header alone is 1024 bytes (check: too-small)" "the check named as by neff info"
run neff info
expect_rc 2 "neff info without FILE"
expect_err "tpbisa: error: neff info: FILE is required" "CLI11's wording named by its command"
run run "$neff" --input x=x.npy --input y=y.npy --schedule sideways
expect_rc 2 "bad schedule"

# ---- trace: core and engine on every record, filtered ----
run run "$neff" --input x=x.npy --input y=y.npy --trace t.jsonl --trace-filter engine=pe --trace-filter opcode=Matmul
expect_rc 0 "trace"
"$py" -c "import json; recs = [json.loads(l) for l in open('t.jsonl')]
assert len(recs) == 8, len(recs)
assert all(r['engine'] == 'PE' and r['name'] == 'Matmul' and r['core'] in (0, 1) for r in recs)" || fail "filtered trace"

# ---- the DRAM side of transfers, --trace - (stdout), and tpbisa trace show ----
run run "$neff" --input x=x.npy --input y=y.npy --trace full.jsonl --quiet
expect_rc 0 "full trace"
"$py" - full.jsonl <<'PY' || fail "the DRAM side of the DMAs"
import json, sys
recs = [json.loads(line) for line in open(sys.argv[1])]
dram = [(r["core"], r["engine"], d) for r in recs for d in r.get("dram", [])]
# Each core reads x and y and writes its half of output0 (128 x 128 fp16, 128-byte rows split between the cores).
for core in (0, 1):
    out = [d for c, _, d in dram if c == core and d["variable"] == "output0"]
    assert out and all(d["access"] == "write" and d["size"] == 128 for d in out), out[:3]
    assert sum(d["size"] for d in out) == 128 * 128 * 2 // 2, len(out)
    assert {d["variable"] for c, _, d in dram if c == core and d["access"] == "read"} >= {"x", "y"}
assert all(r["name"] == "PseudoDmaDirect2d" for r in recs if "dram" in r)
PY
"$tool" run "$neff" --input x=x.npy --input y=y.npy --trace - >stdout.jsonl 2>report.txt
[ $? -eq 0 ] || fail "--trace - with a NEFF"
cmp -s stdout.jsonl full.jsonl || fail "--trace - writes the records of --trace FILE"
grep -q '^status: ok' report.txt || fail "--trace -: the report on stderr"
run trace show full.jsonl
expect_rc 0 "trace show"
expect_out "core 0 PE #9 0x02 Matmul: retired" "trace show keeps core and engine"
expect_out "write psum[p0].bank0+0x0" "trace show spells PSUM by bank"
expect_out "dram write output0+0x0 (128 bytes)" "trace show: the DRAM side"
grep -Eq '^    \.\.\. 4088 more memory writes$' "$tmp/out" || fail "trace show bounds each list (8 of x's 4096 writes)"
[ "$(grep -c '^core [01] ' "$tmp/out")" -eq "$(wc -l <full.jsonl)" ] || fail "trace show: a block per record"
"$tool" trace show - <full.jsonl >"$tmp/stdin-show" && cmp -s "$tmp/stdin-show" "$tmp/out" || fail "trace show -"
echo '{"not": "a record"}' >bad.jsonl
run trace show bad.jsonl
expect_rc 3 "trace show of something else"
expect_err "bad.jsonl: line 1: not a trace record" "trace show names the line"

# ---- the progress line: only on a terminal (or with --progress), with the total, percentage and time left ----
run run "$neff" --input x=x.npy --input y=y.npy
[ -s "$tmp/err" ] && fail "a progress line on a stderr that is not a terminal: $(cat "$tmp/err")"
run run "$neff" --input x=x.npy --input y=y.npy --progress
expect_rc 0 "--progress"
tr '\r' '\n' <"$tmp/err" | grep -Eq '^58 of 58 words \(100%\), 12582912 MACs, [0-9.]+ s, about 0 s left *$' ||
  fail "--progress ends with the whole program done: $(tr '\r' '\n' <"$tmp/err")"
run run "$neff" --input x=x.npy --input y=y.npy --progress --quiet
[ -s "$tmp/err" ] && fail "--quiet wins over --progress"

# ---- run - reads the NEFF from stdin; --engine is refused with a NEFF ----
run run "$neff" --input x=x.npy --input y=y.npy --out file-out
"$tool" run - --input x=x.npy --input y=y.npy --out stdin-out <"$neff" >"$tmp/out" 2>"$tmp/err"
rc=$?
expect_rc 0 "run - with a NEFF on stdin"
expect_out "program: <stdin> (2 cores, target cayman, generation cayman)" "run - names stdin"
cmp -s stdin-out/output0.npy file-out/output0.npy || fail "run - gives the file's outputs"
run run "$neff" --engine pe --input x=x.npy --input y=y.npy
expect_rc 2 "--engine with a NEFF"
expect_err "--engine names the engine of a word stream; each stream of a NEFF runs on its own engine" "--engine refused"

# ---- edited copies of the program: a missing increment deadlocks; a DMA from an unwritten output ----
"$tool" neff extract "$neff" ex >/dev/null || fail "neff extract"
cp -r ex ex2
"$py" -c "b = bytearray(open('ex/sg00/Pool.bin', 'rb').read()); assert b[3 * 64] == 0xd4 and b[3 * 64 + 14] == 16
b[3 * 64 + 14] = 15; open('ex/sg00/Pool.bin', 'wb').write(b)"
"$tool" neff pack ex dead.neff >/dev/null || fail "neff pack"
run run dead.neff --input x=x.npy --input y=y.npy
expect_rc 1 "deadlock"
expect_out "status: deadlock after 50 words retired: every engine that has not finished is blocked" "deadlock status"
expect_out "  sg00/PE#7 (root): EventSemaphore \$S[25]>=16" "blocked engine (a root wait) and its instruction"
expect_out "    waits for \$S[25]>=16; semaphore 25 is 15" "wait condition and value"
expect_out "    could be raised by sg00/Pool#3 PseudoDmaDirect2d (\$S[25]+=15@dma-complete): retired" "raiser state"
expect_out "could be raised by sg00/PE#9 Matmul (\$S[5]++@complete): not reached: its engine is at #7" "pending raiser"
run run dead.neff --input x=x.npy --input y=y.npy --json
"$py" -c "import json; d = json.load(open('$tmp/out')); assert d['status'] == 'deadlock'
pe = [b for b in d['deadlock'] if b['stream'] == 'sg00/PE'][0]
assert pe['condition'] == '\$S[25]>=16' and pe['value'] == 15 and pe['index'] == 7, pe
assert any(r['stream'] == 'sg00/Pool' and r['index'] == 3 and r['state'] == 'retired' for r in pe['could_raise']) and pe['root']
assert d['deadlock'][0]['root'] and not d['deadlock'][-1]['root'], d['deadlock']" || fail "json deadlock report"
run run dead.neff --input x=x.npy --input y=y.npy --threads
expect_rc 1 "deadlock with --threads"
expect_out "status: deadlock" "deadlock with --threads"
"$py" -c "b = bytearray(open('ex2/sg00/SP.bin', 'rb').read()); assert b[2 * 64 + 20] == 4
b[2 * 64 + 20] = 3; open('ex2/sg00/SP.bin', 'wb').write(b)"
"$tool" neff pack ex2 uninit.neff >/dev/null || fail "neff pack"
run run uninit.neff --input x=x.npy --input y=y.npy --expect output0=ref.npy
expect_rc 1 "unwritten DRAM read"
expect_out "  sg00/SP: 32768 bytes of output0" "unwritten DRAM bytes reported per stream and variable"

# ---- NEFF-only options on a word stream ----
printf '' >empty.bin
run run empty.bin --input x=x.npy
expect_rc 2 "--input on a word stream"
expect_err "--input apply only to a NEFF program" "neff-only message"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "run_neff: ok"
