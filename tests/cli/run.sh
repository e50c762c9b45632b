#!/usr/bin/env bash
# CLI checks for `tpbisa run`: STATE.json, dumps, text and JSON results, faults, the trace, limits, errors.
set -u
tool=${1:?usage: run.sh TPBISA_BINARY SOURCE_DIR}
src=${2:?usage: run.sh TPBISA_BINARY SOURCE_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
words="$src/tests/cli/data/make_words.py"

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
run() { "$tool" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
expect_rc() { [ "$rc" -eq "$1" ] || { fail "$2: exit $rc, expected $1"; sed 's/^/  stderr: /' "$tmp/err"; }; }
expect_out() { grep -qF -- "$1" "$tmp/out" || { fail "$2: stdout lacks '$1'"; sed 's/^/  stdout: /' "$tmp/out"; }; }
expect_err() { grep -qF -- "$1" "$tmp/err" || { fail "$2: stderr lacks '$1'"; sed 's/^/  stderr: /' "$tmp/err"; }; }
expect_json() {
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' \
    "$tmp/out" "$1" 2>"$tmp/pyerr" || { fail "$2: JSON check failed: $1"; sed 's/^/  /' "$tmp/pyerr"; }
}
# check_trace FILE N: N lines, each a JSON object of schema 1 with the documented keys.
check_trace() {
  python3 - "$1" "$2" <<'PY' || fail "trace $1"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == int(sys.argv[2]), (len(lines), sys.argv[2])
keys = {"schema", "index", "opcode", "name", "status", "regs", "mem", "reads", "dve", "sems", "diagnostics", "fault"}
for line in lines:
    r = json.loads(line)
    assert r["schema"] == 1 and set(r) == keys, r
    assert r["status"] in ("retired", "fault")
    assert (r["fault"] is None) == (r["status"] == "retired")
PY
}

for p in store_load fault invalid_run wait two_loads pseudo window; do python3 "$words" "$p" "$tmp/$p.bin"; done
# The fixtures committed for the README are what the generator writes.
for p in store_load pseudo; do
  cmp -s "$tmp/$p.bin" "$src/tests/cli/data/$p.bin" || fail "tests/cli/data/$p.bin differs from make_words.py $p"
done

# r1..r4 for the TensorStore, semaphore 3 for its $S[3]++, two events, and memory the program does not touch.
cat >"$tmp/state.json" <<'JSON'
{"regs": {"r1": 5, "r2": -1, "r3": "0x3f800000", "r4": 4294967295},
 "semaphores": {"3": 1},
 "events": [2, 7],
 "memory": [{"at": "sbuf:2:0x200", "dtype": "bf16", "values": [1.5, -2, "inf", "nan"]},
            {"at": "dev:0x20000000", "dtype": "u8", "values": [1, 2, 255]},
            {"at": "psum:0:0x10", "dtype": "FP32", "bits": ["0x3f800000", "0x7fc00001"]}]}
JSON
dumps=(--dump sbuf:2:0x100:u32:4 --dump dev:0x10000000:fp32:4 --dump sbuf:2:0x200:bf16:4
       --dump psum:0:0x10:fp32:2 --dump dev:0x20000000:i8:4 --dump dve:0)

# ---- TensorStore -> TensorLoad with --init, --dump and --trace ----
run run "$tmp/store_load.bin" --init "$tmp/state.json" "${dumps[@]}" --json --trace "$tmp/t.jsonl"
expect_rc 0 "store_load --json"
expect_json 'list(d)[:7] == ["status", "retired", "fault", "regs", "semaphores", "events", "dumps"]' "JSON keys"
expect_json 'd["status"] == "ok" and d["retired"] == 3 and d["fault"] is None' "status ok"
expect_json 'len(d["regs"]) == 64 and d["regs"][1:5] == [5, 4294967295, 1065353216, 4294967295]' "initial registers"
expect_json 'd["regs"][11:15] == d["regs"][1:5]' "TensorLoad read back what TensorStore wrote"
expect_json 'd["semaphores"] == {"3": 2}' "semaphore incremented, only non-zero shown"
expect_json 'd["events"] == [2, 7]' "events"
expect_json 'd["dumps"][0] == {"at": "sbuf[p2]+0x100", "address": "0x80100", "dtype": "UINT32", "count": 4, "values": [5, 4294967295, 1065353216, 4294967295], "bits": ["0x00000005", "0xffffffff", "0x3f800000", "0xffffffff"], "initialized": True}' "sbuf dump"
expect_json 'd["dumps"][1]["values"] == [1.0, 0.5, -2.0, 3.25] and d["dumps"][1]["bits"][0] == "0x3f800000"' "fp32 immediates stored to flat memory"
expect_json 'd["dumps"][2]["values"] == [1.5, -2.0, "inf", "nan"] and d["dumps"][2]["bits"] == ["0x3fc0", "0xc000", "0x7f80", "0x7fc0"]' "bf16 values and bits"
expect_json 'd["dumps"][3]["values"] == [1.0, "nan"] and d["dumps"][3]["bits"] == ["0x3f800000", "0x7fc00001"]' "exact bits kept"
expect_json 'd["dumps"][4]["values"] == [1, 2, -1, 0] and d["dumps"][4]["initialized"] is False' "i8 view, uninitialised byte"
expect_json 'd["dumps"][5]["at"] == "dve:0" and len(d["dumps"][5]["imm"]) == 8 and d["dumps"][5]["imm"][0] == {"slot": 0, "bits": "0x00000000", "written": False, "class": "unwritten", "value": None}' "dve imm flops"
expect_json 'len(d["dumps"][5]["match_keys"]) == 8 and d["dumps"][5]["bn"]["written"] is False and list(d["dumps"][5]["bn"])[1:] == ["n", "batch_mean", "a", "b", "c"]' "dve keys and bn params"
check_trace "$tmp/t.jsonl" 3
python3 -c 'import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
assert [x["index"] for x in r] == [0, 1, 2] and [x["name"] for x in r] == ["TensorStore", "TensorLoad", "TensorStore"]
assert r[0]["sems"] == [{"semaphore": 3, "before": 1, "after": 2}], r[0]["sems"]
assert [w["after"] for w in r[1]["regs"]] == ["0x00000005", "0xffffffff", "0x3f800000", "0xffffffff"]' "$tmp/t.jsonl" ||
  fail "trace records the effects"

run run "$tmp/store_load.bin" --init "$tmp/state.json" "${dumps[@]}"
expect_rc 0 "store_load text"
expect_out "status: ok, 3 instructions retired" "text status"
expect_out "  r11  0x00000005  5" "text register"
expect_out '  $S[3] = 2' "text semaphore"
expect_out "events set: 2 7" "text events"
expect_out "sbuf[p2]+0x100 UINT32 x4 (address 0x80100):" "text dump title"
expect_out "  [0] 5 4294967295 1065353216 4294967295" "text dump values"
expect_out "  [0] 1.5 -2 inf nan" "text float values"
expect_out "dve channel 0:" "text dve dump"

# The README's example: the committed program and state.
run run "$src/tests/cli/data/store_load.bin" --init "$src/tests/cli/data/state.json" --dump sbuf:2:0x200:bf16:4 --json
expect_rc 0 "committed fixtures"
expect_json 'd["regs"][11:15] == [5, 4294967295, 1065353216, 4294967295] and d["dumps"][0]["values"] == [1.5, -2.0, "inf", "nan"]' "committed fixtures result"

# ---- a fault: exit 1, fault printed, state as before the faulting instruction ----
echo '{"regs": {"r1": 7, "r9": 99}}' >"$tmp/r1.json"
run run "$tmp/fault.bin" --init "$tmp/r1.json" --json --dump sbuf:2:0:u32:1 --trace "$tmp/f.jsonl"
expect_rc 1 "fault"
expect_json 'd["status"] == "fault" and d["retired"] == 1' "fault status"
expect_json 'd["fault"]["kind"] == "OutOfRange" and d["fault"]["index"] == 1 and d["fault"]["offset"] == 64 and d["fault"]["address"] == "0x2004000"' "fault object"
expect_json 'd["fault"]["name"] == "TensorLoad" and d["fault"]["register"] is None and "PROJ-CONV-N2" in d["fault"]["detail"]' "fault detail"
expect_json 'd["regs"][9] == 99 and d["regs"][1] == 7' "the faulting load changed no register"
expect_json 'd["semaphores"] == {"5": 1} and d["dumps"][0]["values"] == [7]' "effects of the retired store are kept"
check_trace "$tmp/f.jsonl" 2
python3 -c 'import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
assert r[1]["status"] == "fault" and r[1]["fault"]["kind"] == "OutOfRange" and r[1]["regs"] == [] and r[1]["mem"] == []' \
  "$tmp/f.jsonl" || fail "the trace ends with the fault"

run run "$tmp/fault.bin" --init "$tmp/r1.json"
expect_rc 1 "fault text"
expect_out "status: fault after 1 instruction retired; the faulting instruction changed nothing" "text fault status"
expect_out "fault: OutOfRange at #1 offset 0x40 0xaa TensorLoad: element 0 (4 bytes at 0x2004000)" "text fault line"
expect_out "  address: 0x2004000" "text fault address"
expect_out "  r9   0x00000063  99" "text register unchanged"

run run "$tmp/invalid_run.bin" --json
expect_rc 1 "InvalidInstruction"
expect_json 'd["fault"]["kind"] == "InvalidInstruction" and d["fault"]["verdict"]["valid"] is False and d["fault"]["verdict"]["validator"] == "is_valid_tensor_load"' "verdict in the fault"
expect_json '[f["predicate"] for f in d["fault"]["verdict"]["failed"]] == ["mem2d_shared_constraints", "mem2d_32_elem_check"] and d["fault"]["verdict"]["failed"][1]["fields"][0]["bytes"] == [14, 15]' "failure reports in the fault"
expect_json 'list(d["fault"]) == ["kind", "index", "offset", "opcode", "name", "detail", "address", "register", "verdict"]' "one fault shape"
run run "$tmp/invalid_run.bin"
expect_out "fault: InvalidInstruction at #0" "text InvalidInstruction"
expect_out "  failing predicates of is_valid_tensor_load (2):" "text predicates heading"
expect_out "    mem2d_32_elem_check: num_elem[0] * num_elem[1] = 36 exceeds 32 elements" "text predicate line"

# A wait nothing can satisfy is a deadlock (the only engine is blocked); the initial state can satisfy it.
run run "$tmp/wait.bin"
expect_rc 1 "deadlock"
expect_out "  DVE blocked at #0 offset 0x0 0xaa TensorLoad: waits for \$S[7]>=2; semaphore 7 is 0" "deadlock text"
echo '{"semaphores": {"7": 2}}' >"$tmp/s7.json"
run run "$tmp/wait.bin" --init "$tmp/s7.json"
expect_rc 0 "wait satisfied by --init"
expect_out "diagnostics: 1 uninitialized-read" "diagnostics summarised"

# The 16 MiB window is an execution fault whatever --strict-window says.
run run "$tmp/window.bin" --json
expect_rc 1 "WindowViolation"
expect_json 'd["fault"]["kind"] == "WindowViolation" and d["fault"]["address"] == "0x11000000"' "window fault"

# ---- --max-steps ----
run run "$tmp/two_loads.bin" --max-steps 1
expect_rc 1 "step limit"
expect_out "status: step-limit: stopped by --max-steps after 1 instruction, before instruction 1 (offset 0x40) of 2" "step-limit text"
run run "$tmp/two_loads.bin" --max-steps 1 --json
expect_json 'd["status"] == "step-limit" and d["retired"] == 1 and d["fault"] is None and d["pc"] == 1' "step-limit JSON"
run run "$tmp/two_loads.bin" --max-steps 2 --json
expect_rc 0 "exactly enough steps"
expect_json 'd["status"] == "ok" and d["retired"] == 2' "max-steps = length"

# ---- pseudo words: PseudoNotLowered, or lowered on load with --vars ----
echo '{"vars": {"7": {"base": "0x80100", "size": 64}}}' >"$tmp/vars.json"
run run "$tmp/pseudo.bin" --json
expect_rc 1 "unlowered pseudo"
expect_json 'd["fault"]["kind"] == "PseudoNotLowered" and d["fault"]["index"] == 0' "PseudoNotLowered"
run run "$tmp/pseudo.bin" --vars "$tmp/vars.json" --init "$tmp/state.json" --dump dev:0x80110:u32:2 --dump dev:0x10000000:u32:1 --json
expect_rc 0 "lowered on load"
expect_json 'd["dumps"][0]["values"] == [5, 4294967295] and d["regs"][5:7] == [5, 4294967295] and d["dumps"][1]["values"] == [42]' "lowered program ran"
echo '{"vars": {"8": {"base": 0, "size": 64}}}' >"$tmp/vars8.json"
run run "$tmp/pseudo.bin" --vars "$tmp/vars8.json"
expect_rc 3 "unknown var id on load"
expect_err "$tmp/pseudo.bin: instruction 0 (offset 0): var_id 7 is not in the variable table (--vars $tmp/vars8.json)" "unknown var message"

# ---- limits and switches ----
run run "$tmp/store_load.bin" --max-memory 0 --json
expect_rc 1 "--max-memory 0"
expect_json 'd["fault"]["kind"] == "MemoryLimit"' "MemoryLimit"
run run "$tmp/store_load.bin" --init "$tmp/state.json" --max-memory 4K
expect_rc 3 "initial state over --max-memory"
expect_err "more simulated memory than --max-memory allows (4096 bytes)" "max-memory message"
run run "$tmp/store_load.bin" --init "$tmp/state.json" --max-memory 1GiB --max-elements 4194304 --max-steps 1000000 --firmware-stubs
expect_rc 0 "explicit defaults and --firmware-stubs"
run run --gen cayman "$tmp/store_load.bin" --init "$tmp/state.json"
expect_rc 0 "--gen cayman"
expect_out "on cayman" "generation named"

# ---- STATE.json errors: exit 3, naming the key or index ----
bad_state() {  # JSON TEXT, expected stderr fragment, name
  printf '%s' "$1" >"$tmp/bad.json"
  run run "$tmp/store_load.bin" --init "$tmp/bad.json"
  expect_rc 3 "$3"
  expect_err "tpbisa: error: $tmp/bad.json: $2" "$3 message"
  [ ! -s "$tmp/out" ] || fail "$3: nothing runs after a bad state"
}
bad_state '{"regs": {"r1": 5' "malformed JSON: parse error at line 1, column 18" "malformed"
bad_state '{"registers": {}}' 'unknown key "registers" (expected regs, semaphores, events, memory)' "unknown key"
bad_state '[]' "the document must be an object, not array" "not an object"
bad_state '{"regs": {"r1": 1, "r1": 2}}' 'malformed JSON: duplicate key "r1"' "duplicate key"
bad_state '{"regs": {"r64": 1}}' "regs.r64: not a register name (r0..r63)" "register name"
bad_state '{"regs": {"r1": 4294967296}}' "regs.r1: 4294967296 is out of range" "register too large"
bad_state '{"regs": {"r1": -2147483649}}' "regs.r1: -2147483649 is out of range" "register too negative"
bad_state '{"regs": {"r1": true}}' "regs.r1: must be a number or a string, not boolean" "register type"
bad_state '{"regs": []}' "regs: must be an object, not array" "regs type"
bad_state '{"semaphores": {"256": 1}}' 'semaphores."256": a semaphore id must be a decimal number 0..255' "semaphore id"
bad_state '{"semaphores": {"3": -1}}' 'semaphores."3": -1 is out of range (0..4294967295)' "semaphore value"
bad_state '{"events": [256]}' "events[0]: 256 is not an event index 0..255" "event index"
bad_state '{"memory": {}}' "memory: must be an array, not object" "memory type"
bad_state '{"memory": [{"at": "sbuf:2:0", "dtype": "u17", "values": [1]}]}' "memory[0].dtype: unknown dtype 'u17'" "bad dtype"
bad_state '{"memory": [{"at": "sbuf:2:0", "dtype": "fp4e2", "bits": ["0x1"]}]}' "memory[0].dtype: dtype FP4_EXP2 has no byte-sized elements" "sub-byte dtype"
bad_state '{"memory": [{"at": "sbuf:2:0", "dtype": "u8", "values": [1, 256]}]}' "memory[0].values[1]: 256 is out of range for UINT8 (0..255)" "u8 out of range"
bad_state '{"memory": [{"at": "sbuf:2:0", "dtype": "i16", "values": [-32769]}]}' "memory[0].values[0]: -32769 is out of range for INT16 (-32768..32767)" "i16 out of range"
bad_state '{"memory": [{"at": "sbuf:2:0", "dtype": "u32", "values": [1.5]}]}' "memory[0].values[0]: 1.5 is not an integer (UINT32 takes integers)" "float for an integer dtype"
bad_state '{"memory": [{"at": "sbuf:2:0", "dtype": "fp32", "values": [1e39]}]}' "memory[0].values[0]: 1e+39 is out of range for fp32" "fp32 out of range"
bad_state '{"memory": [{"at": "sbuf:2:0", "dtype": "fp32", "values": ["big"]}]}' 'memory[0].values[0]: "big" is not a number' "float string"
bad_state '{"memory": [{"at": "sbuf:2:0", "dtype": "u16", "bits": ["0x10000"]}]}' 'memory[0].bits[0]: "0x10000" does not fit the 16 bits of UINT16' "bits too wide"
bad_state '{"memory": [{"at": "sbuf:2:0", "dtype": "u16", "bits": ["12"]}]}' 'memory[0].bits[0]: "12" is not a 0x hex bit pattern' "bits not hex"
bad_state '{"memory": [{"at": "sbuf:2:0", "dtype": "u8", "values": [1], "bits": ["0x1"]}]}' 'memory[0]: give exactly one of "values" and "bits"' "values and bits"
bad_state '{"memory": [{"at": "sbuf:2:0", "dtype": "u8", "value": [1]}]}' 'memory[0]: unknown key "value"' "unknown memory key"
bad_state '{"memory": [{"dtype": "u8", "values": [1]}]}' 'memory[0]: no "at" location' "no location"
bad_state '{"memory": [{"at": "heap:1", "dtype": "u8", "values": [1]}]}' "memory[0].at: 'heap:1' is not a location" "bad location"
bad_state '{"memory": [{"at": "sbuf:128:0", "dtype": "u8", "values": [1]}]}' "memory[0].at: partition 128 is outside SBUF (partitions 0..127)" "partition outside"
bad_state '{"memory": [{"at": "psum:0:0x4000", "dtype": "u8", "values": [1]}]}' "memory[0].at: offset 0x4000 is outside PSUM partition 0's 0x4000 backed bytes on mariana" "offset outside"
bad_state '{"memory": [{"at": "sbuf:2:0x3fffc", "dtype": "u32", "values": [1, 2]}]}' "memory[0]: 8 bytes at sbuf[p2]+0x3fffc run past SBUF partition 2's 0x40000 backed bytes on mariana" "element outside the partition"
bad_state '{"memory": [{"at": "dev:0x2004000", "dtype": "u32", "values": [1]}]}' "memory[0]: 4 bytes at dev:0x2004000 are in the on-chip SBUF/PSUM region of mariana but not inside one partition's backed bytes" "dev address in unbacked PSUM"
bad_state '{"memory": [{"at": "dev:0xfffffffffffffffe", "dtype": "u32", "values": [1]}]}' "memory[0]: 4 bytes at dev:0xfffffffffffffffe run past the end of the 64-bit address space" "dev address wraps"
run run --gen maverick "$tmp/store_load.bin" --init "$tmp/state.json"
expect_rc 3 "events on maverick"
expect_err "events: maverick has no events" "maverick events message"
printf '{"memory": [{"at": "psum:0:0", "dtype": "u8", "values": [1]}]}' >"$tmp/psum.json"
run run --gen maverick "$tmp/store_load.bin" --init "$tmp/psum.json"
expect_rc 3 "psum on maverick"
expect_err "memory[0].at: maverick has no PSUM" "maverick psum message"
python3 -c 'import json, sys; json.dump({"memory": [{"at": "dev:0x40000000", "dtype": "u8", "values": [0] * ((1 << 22) + 1)}]}, open(sys.argv[1], "w"))' "$tmp/big.json"
run run "$tmp/store_load.bin" --init "$tmp/big.json"
expect_rc 3 "too many elements"
expect_err "memory[0].values: more than 4194304 elements" "element bound message"
run run "$tmp/store_load.bin" --init "$tmp/none.json"
expect_rc 3 "missing STATE.json"
expect_err "$tmp/none.json: cannot open" "missing STATE.json message"

# ---- program errors: exit 3 ----
run run "$tmp/missing.bin"
expect_rc 3 "missing program"
expect_err "tpbisa: error: $tmp/missing.bin: cannot open: No such file or directory" "missing program message"
python3 -c 'import sys; open(sys.argv[1], "wb").write(bytes(100))' "$tmp/short.bin"
run run "$tmp/short.bin"
expect_rc 3 "partial word"
expect_err "36 trailing bytes at offset 64 do not form a 64-byte instruction (instruction 1)" "partial word message"
run run "$tmp/store_load.bin" --trace "$tmp/nodir/t.jsonl"
expect_rc 3 "unwritable trace"
expect_err "t.jsonl: cannot create a temporary file in $tmp/nodir: No such file or directory" "trace message"

# ---- usage errors: exit 2 ----
bad_dump() {  # SPEC, expected stderr fragment
  run run "$tmp/store_load.bin" --dump "$1"
  expect_rc 2 "--dump $1"
  expect_err "run: --dump '$1': $2" "--dump $1 message"
}
bad_dump sbuf:2:0x100:u32 "expected LOCATION:DTYPE:COUNT (LOCATION as sbuf[pP]+OFF, psum[pP].bankB+OFF, dev:ADDR, sbuf:P:OFF or psum:P:OFF) or dve:CHANNEL"
bad_dump heap:1:u8:1 "expected LOCATION:DTYPE:COUNT"
bad_dump sbuf:2:0:u32:0 "COUNT '0' is out of range 1..4194304"
bad_dump sbuf:2:0:u32:99999999999999999999 "COUNT '99999999999999999999' is out of range 1..4194304"
bad_dump sbuf:2:0:u32:x "COUNT 'x' is not a decimal or 0x hex number"
bad_dump sbuf:200:0:u32:1 "partition 200 is outside SBUF (partitions 0..127)"
bad_dump sbuf:2:0x3fffc:u32:2 "8 bytes at sbuf[p2]+0x3fffc run past SBUF partition 2's 0x40000 backed bytes"
bad_dump dev:zz:u8:1 "address 'zz' is not a decimal or 0x hex number"
bad_dump dev:0:u99:1 "unknown dtype 'u99'"
bad_dump dev:0x10000000:fp8e2:1 "dtype FP8_EXP2 has no numeric conversion"
bad_dump dve:128 "channel '128' is out of range 0..127"
bad_dump dve "expected LOCATION:DTYPE:COUNT"
# The bracket spelling decode and disasm print is accepted wherever a location is typed, and dumps print it.
bad_dump 'sbuf[p200]+0:u32:1' "partition 200 is outside SBUF (partitions 0..127)"
bad_dump 'psum[p0].bank9+0:u32:1' "bank 9 is outside PSUM (banks 0..7)"
run run "$tmp/store_load.bin" --init "$tmp/state.json" --dump 'sbuf[p2]+0x100:u32:1' --dump 'psum[p0].bank0+0x10:fp32:1' --json
expect_rc 0 "bracket locations"
expect_json '[x["at"] for x in d["dumps"]] == ["sbuf[p2]+0x100", "psum[p0].bank0+0x10"] and d["dumps"][0]["values"] == [5] and d["dumps"][1]["values"] == [1.0]' "bracket locations read and printed"
run run "$tmp/store_load.bin" --max-steps -1
expect_rc 2 "negative --max-steps"
run run "$tmp/store_load.bin" --max-memory 1X
expect_rc 2 "bad --max-memory"
expect_err "--max-memory '1X' is not a byte count" "--max-memory message"
run run "$tmp/store_load.bin" --max-elements many
expect_rc 2 "bad --max-elements"
# run - reads a word stream from stdin as from a file (the NEFF case is in run_neff.sh).
"$tool" run - --init "$tmp/state.json" <"$tmp/store_load.bin" >"$tmp/stdin-run" 2>&1
rc=$?
expect_rc 0 "run - with words on stdin"
"$tool" run "$tmp/store_load.bin" --init "$tmp/state.json" >"$tmp/file-run" 2>&1
sed -i "s|^program: $tmp/store_load.bin |program: <stdin> |" "$tmp/file-run"
cmp -s "$tmp/stdin-run" "$tmp/file-run" || fail "run - runs the words of stdin as the file's"
# --trace - : the records on stdout (JSON Lines, the same as the file's), the report on stderr.
"$tool" run "$tmp/store_load.bin" --init "$tmp/state.json" --trace - >"$tmp/stdout-trace" 2>"$tmp/stderr-trace"
rc=$?
expect_rc 0 "--trace -"
"$tool" run "$tmp/store_load.bin" --init "$tmp/state.json" --trace "$tmp/file-trace.jsonl" >"$tmp/report" 2>/dev/null
cmp -s "$tmp/stdout-trace" "$tmp/file-trace.jsonl" || fail "--trace - writes the file's records to stdout"
cmp -s "$tmp/stderr-trace" "$tmp/report" || fail "--trace - puts the report on stderr"
run run --gen bogus "$tmp/store_load.bin"
expect_rc 2 "unknown generation"
run run
expect_rc 2 "no program"
run run - --init - </dev/null
expect_rc 2 "two stdin inputs"

[ "$failures" -eq 0 ] || { echo "$failures run check(s) failed"; exit 1; }
echo "run: all checks passed"
