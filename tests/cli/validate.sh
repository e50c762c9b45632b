#!/usr/bin/env bash
# CLI checks for `tpbisa validate`: verdicts in text, the --gen all matrix, JSON schema, --quiet, switches, errors.
set -u
tool=${1:?usage: validate.sh TPBISA_BINARY SOURCE_DIR}
src=${2:?usage: validate.sh TPBISA_BINARY SOURCE_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
words="$src/tests/cli/data/make_words.py"

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
run() { "$tool" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
expect_rc() { [ "$rc" -eq "$1" ] || { fail "$2: exit $rc, expected $1"; sed 's/^/  stderr: /' "$tmp/err"; }; }
expect_out() { grep -qF -- "$1" "$tmp/out" || { fail "$2: stdout lacks '$1'"; sed 's/^/  stdout: /' "$tmp/out"; }; }
expect_no_out() { ! grep -qF -- "$1" "$tmp/out" || fail "$2: stdout has '$1'"; }
expect_err() { grep -qF -- "$1" "$tmp/err" || { fail "$2: stderr lacks '$1'"; sed 's/^/  stderr: /' "$tmp/err"; }; }
expect_json() {
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' \
    "$tmp/out" "$1" 2>"$tmp/pyerr" || { fail "$2: JSON check failed: $1"; sed 's/^/  /' "$tmp/pyerr"; }
}

python3 "$words" mixed "$tmp/mixed.bin"   # valid, invalid (6 x 6), EngineNop, 0x87, 0xff
python3 "$words" valid "$tmp/valid.bin"   # valid, EngineNop
load=$(python3 "$words" --hex load)
nop=$(python3 "$words" --hex valid | sed -n 2p)

# ---- success paths ----
run validate --hex "$load"
expect_rc 0 "valid TensorLoad"
expect_out "#0 0x0 0xaa TensorLoad  valid" "valid line"
expect_out "1 checked, 1 valid, 0 invalid, 0 header-only" "summary line"

run validate --hex "$nop"
expect_rc 0 "header-only counts as valid for the exit code"
expect_out "#0 0x0 0x9f EngineNop  header-only" "header-only, never plain valid"

run validate "$tmp/valid.bin"
expect_rc 0 "valid file"
expect_out "2 checked, 1 valid, 0 invalid, 1 header-only" "valid file summary"

run validate "$tmp/mixed.bin"
expect_rc 1 "mixed file"
expect_out "#1 0x40 0xaa TensorLoad  invalid (is_valid_tensor_load: 2 failed)" "invalid line"
expect_out "    mem2d_shared_constraints via mem2d_num_elem_check: num_elem = {6, 6}" "via names the nested predicate"
expect_out "    mem2d_32_elem_check: num_elem[0] * num_elem[1] = 36 exceeds 32 elements" "failure message"
expect_out "#3 0xc0 0x87 unknown  invalid" "0x87 is unknown on mariana"
expect_out "    has_valid_neuron_header (convention PROJ-CONV-C11): opcode 0xff" "convention label"
expect_out "5 checked, 1 valid, 3 invalid, 1 header-only" "mixed summary"

# stdin, and several files with headings
run validate - <"$tmp/mixed.bin"
expect_rc 1 "stdin"
expect_out "5 checked, 1 valid, 3 invalid, 1 header-only" "stdin summary"
run validate "$tmp/valid.bin" "$tmp/mixed.bin"
expect_rc 1 "two files"
expect_out "== $tmp/valid.bin ==" "first heading"
expect_out "== $tmp/mixed.bin ==" "second heading"
expect_out "7 checked, 2 valid, 3 invalid, 2 header-only" "two files summary"

# ---- --json, one generation ----
run validate --json "$tmp/mixed.bin"
expect_rc 1 "--json mixed"
expect_json 'list(d) == ["results", "summary"]' "top-level keys"
expect_json 'len(d["results"]) == 5 and [r["index"] for r in d["results"]] == [0, 1, 2, 3, 4]' "one result per word"
expect_json 'list(d["results"][1]) == ["input", "index", "offset", "opcode", "name", "verdicts"]' "result keys"
expect_json 'd["results"][1]["offset"] == 64 and d["results"][1]["opcode"] == "0xaa" and d["results"][1]["name"] == "TensorLoad"' "result header"
expect_json 'list(d["results"][1]["verdicts"]) == ["mariana"]' "default generation mariana"
expect_json 'd["results"][1]["verdicts"]["mariana"]["validator"] == "is_valid_tensor_load"' "validator name"
expect_json '[f["predicate"] for f in d["results"][1]["verdicts"]["mariana"]["failed"]] == ["mem2d_shared_constraints", "mem2d_32_elem_check"]' "failed predicates in order"
expect_json 'd["results"][1]["verdicts"]["mariana"]["failed"][1]["fields"] == [{"name": "num_elem", "bytes": [14, 15], "value": [6, 6]}]' "fields: byte range and bytes"
expect_json 'd["results"][1]["verdicts"]["mariana"]["failed"][0]["via"] == "mem2d_num_elem_check"' "via"
expect_json 'd["results"][4]["verdicts"]["mariana"]["failed"][0]["basis"] == "convention" and d["results"][4]["verdicts"]["mariana"]["failed"][0]["convention"] == "PROJ-CONV-C11"' "convention basis"
expect_json 'd["results"][2]["verdicts"]["mariana"] == {"valid": True, "checked": "header-only", "validator": "header-only", "failed": []}' "header-only verdict"
expect_json '"truncated" not in d["results"][1]["verdicts"]["mariana"]' "truncated only when set"
expect_json 'd["summary"]["checked"] == 5 and d["summary"]["valid"] == 1 and d["summary"]["invalid"] == 3 and d["summary"]["header_only"] == 1' "summary counts"
expect_json 'd["summary"]["generations"] == ["mariana"]' "summary generations"

# ---- --gen all: JSON schema ----
run validate --gen all --json "$tmp/mixed.bin"
expect_rc 1 "--gen all --json"
python3 - "$tmp/out" <<'PY' || fail "--gen all --json schema"
import json, sys
d = json.load(open(sys.argv[1]))
gens = ["sunda", "cayman", "mariana", "maverick"]
assert list(d) == ["results", "summary"], list(d)
assert len(d["results"]) == 5
for r in d["results"]:
    assert list(r) == ["input", "index", "offset", "opcode", "name", "verdicts"], list(r)
    assert r["offset"] == 64 * r["index"]
    assert r["opcode"].startswith("0x") and len(r["opcode"]) == 4
    assert list(r["verdicts"]) == gens, list(r["verdicts"])
    for g, v in r["verdicts"].items():
        assert set(v) <= {"valid", "checked", "validator", "failed", "truncated"}, v
        assert isinstance(v["valid"], bool) and v["checked"] in ("full", "header-only")
        assert isinstance(v["validator"], str)
        assert v["valid"] == (len(v["failed"]) == 0)
        assert len(v["failed"]) <= 16
        for f in v["failed"]:
            assert list(f) == ["predicate", "basis", "convention", "via", "fields", "message"], list(f)
            assert f["basis"] in ("isa", "convention")
            assert (f["convention"] is None) == (f["basis"] == "isa")
            assert f["convention"] is None or f["convention"].startswith("PROJ-CONV-")
            assert f["via"] is None or isinstance(f["via"], str)
            assert isinstance(f["message"], str) and f["message"]
            for fld in f["fields"]:
                assert list(fld) == ["name", "bytes", "value"]
                first, last = fld["bytes"]
                assert 0 <= first <= last <= 63
                assert len(fld["value"]) == last - first + 1
                assert all(0 <= b <= 255 for b in fld["value"])
# Opcode 0x87 exists on sunda only: fully checked there, header-only elsewhere.
v87 = d["results"][3]["verdicts"]
assert v87["sunda"]["checked"] == "full" and v87["cayman"]["checked"] == "header-only", v87
assert d["results"][3]["name"] == "TensorScalarPtrMultiDualArith"
assert d["results"][0]["verdicts"]["maverick"]["valid"] is True
s = d["summary"]
assert s["generations"] == gens and s["checked"] == 5
assert list(s["per_generation"]) == gens
assert s["per_generation"]["cayman"] == {"valid": 1, "invalid": 3, "header_only": 1}
PY

# ---- --gen all: text matrix ----
run validate --gen all "$tmp/mixed.bin"
expect_rc 1 "--gen all text"
head -1 "$tmp/out" | grep -qE '^index +offset +opcode +name +sunda +cayman +mariana +maverick$' || fail "matrix heading"
grep -qE '^#0 +0x0 +0xaa +TensorLoad +ok +ok +ok +ok$' "$tmp/out" || fail "matrix row ok"
grep -qE '^#2 +0x80 +0x9f +EngineNop +hdr +hdr +hdr +hdr$' "$tmp/out" || fail "matrix row hdr"
grep -qE '^#1 +0x40 +0xaa +TensorLoad +FAIL +FAIL +FAIL +FAIL$' "$tmp/out" || fail "matrix row FAIL"
expect_out "failures on sunda:" "failures grouped per generation"
expect_out "failures on maverick:" "maverick group"
expect_out "  #3 0xc0 0x87 TensorScalarPtrMultiDualArith  invalid (is_valid_tensor_scalar_ptr_multi_dual:" "sunda judges 0x87 fully"
expect_out "  #3 0xc0 0x87 unknown  invalid (header-only: 1 failed)" "later generations judge 0x87 header-only"
expect_out "5 checked, 1 valid, 3 invalid, 1 header-only" "matrix summary"

run validate --gen all "$tmp/valid.bin"
expect_rc 0 "--gen all all valid"
expect_no_out "failures on" "no failure groups when all are valid"

# ---- --quiet ----
run validate --quiet "$tmp/mixed.bin"
expect_rc 1 "--quiet"
expect_no_out "#0 " "--quiet hides valid words"
expect_no_out "#2 " "--quiet hides header-only words"
expect_out "#1 0x40 0xaa TensorLoad  invalid" "--quiet shows failing words"
[ "$(tail -1 "$tmp/out")" = "5 checked, 1 valid, 3 invalid, 1 header-only" ] || fail "--quiet ends with the summary"

run validate --quiet "$tmp/valid.bin"
expect_rc 0 "--quiet valid"
[ "$(cat "$tmp/out")" = "2 checked, 1 valid, 0 invalid, 1 header-only" ] || fail "--quiet prints only the summary"

run validate --quiet --json "$tmp/mixed.bin"
expect_json '[r["index"] for r in d["results"]] == [1, 3, 4] and d["summary"]["checked"] == 5' "--quiet --json lists failing words only"

run validate --quiet --gen all "$tmp/mixed.bin"
expect_no_out "#0 " "--quiet matrix hides valid rows"
expect_out "failures on cayman:" "--quiet matrix keeps the failures"

# A long stream through stdin (streamed, constant memory).
python3 "$words" --repeat 40000 mixed - | "$tool" validate --quiet --stats - >"$tmp/out" 2>"$tmp/err"
rc=$?
expect_rc 1 "long stream"
[ "$(tail -1 "$tmp/out")" = "200000 checked, 40000 valid, 120000 invalid, 40000 header-only" ] || fail "long stream summary"
expect_err "200000 instructions checked" "--stats count"
expect_err "instructions/s" "--stats rate"

# ---- switches that change a verdict ----
window=$(python3 "$words" --hex window)
run validate --hex "$window"
expect_rc 0 "window rule off by default (PROJ-CONV-M3)"
run validate --strict-window --hex "$window"
expect_rc 1 "--strict-window"
expect_out "mem2d_single_16mb_window (convention PROJ-CONV-M3)" "--strict-window predicate"

# PtrMultiArith from the example stream with op SYMMETRIC_CLAMP (0x24): general-arith on MAVERICK unless switched off.
clamp=$(python3 -c 'import sys; w = bytearray(open(sys.argv[1], "rb").read()[192:256]); w[36] = 0x24; print(w.hex())' "$src/examples/stream.bin")
run validate --gen maverick --hex "$clamp"
expect_rc 0 "SYMMETRIC_CLAMP accepted on maverick (PROJ-CONV-T11)"
run validate --gen maverick --no-symmetric-clamp-arith --hex "$clamp"
expect_rc 1 "--no-symmetric-clamp-arith"
expect_out "convention PROJ-CONV-T11" "--no-symmetric-clamp-arith names the convention"

# The same word with out_dtype 0x1f (CPTC7): a DTYPE enum member on maverick, above the runtime's 0xF.
cptc=$(python3 -c 'import sys; w = bytearray(open(sys.argv[1], "rb").read()[192:256]); w[33] = 0x1f; print(w.hex())' "$src/examples/stream.bin")
run validate --gen maverick --hex "$cptc"
expect_rc 0 "header reading of is_valid_dtype (PROJ-CONV-C13)"
run validate --gen maverick --dtype-enum header --hex "$cptc"
expect_rc 0 "--dtype-enum header"
run validate --gen maverick --dtype-enum runtime --hex "$cptc"
expect_rc 1 "--dtype-enum runtime"
expect_out "is_valid_dtype: out_dtype CPTC7" "--dtype-enum runtime failure"

# ---- input errors: exit 3 ----
run validate --hex "${load:1}"
expect_rc 3 "127 hex digits"
expect_err "tpbisa: error: --hex #1: expected 128 hex digits, got 127 (instruction 0, offset 0)" "short hex message"
run validate --hex "$load" --hex "${load:0:5}g${load:6}"
expect_rc 3 "bad hex digit"
expect_err "--hex #2: 'g' at column 6 is not a hex digit (instruction 1, offset 64)" "bad digit message"
expect_out "#0 0x0 0xaa TensorLoad  valid" "words before the bad one are reported"
python3 -c 'import sys; open(sys.argv[1], "wb").write(open(sys.argv[2], "rb").read() + bytes(10))' "$tmp/trail.bin" "$tmp/mixed.bin"
run validate "$tmp/trail.bin"
expect_rc 3 "trailing bytes"
expect_err "$tmp/trail.bin: 10 trailing bytes at offset 320 do not form a 64-byte instruction (instruction 5)" "trailing message"
run validate --json "$tmp/trail.bin"
expect_rc 3 "trailing bytes --json"
expect_json 'len(d["results"]) == 5 and d["error"]["index"] == 5 and d["error"]["offset"] == 320 and d["summary"]["checked"] == 5' "JSON stays well-formed with an error"
run validate --gen all "$tmp/trail.bin"
expect_rc 3 "trailing bytes --gen all"
expect_out "failures on sunda:" "matrix failures before an input error are printed"
run validate "$tmp/missing.bin"
expect_rc 3 "missing file"
expect_err "tpbisa: error: $tmp/missing.bin: cannot open: No such file or directory" "missing file message"

# ---- the progress line: on a terminal only, not with --quiet, with the total, percentage and time left ----
python3 -c 'import sys; sys.stdout.buffer.write(open(sys.argv[1], "rb").read() * 50000)' "$tmp/valid.bin" >"$tmp/big.bin"
run validate "$tmp/big.bin"
[ -s "$tmp/err" ] && fail "a progress line on a stderr that is not a terminal: $(head -c 200 "$tmp/err")"
# stderr is a terminal (a pty); stdout is a pipe read only after 1.5 s, so the run (blocked on its writes meanwhile)
# goes on past its first second with words left, and then shows where it is.
progress() {
  python3 - "$tool" "$@" <<'PY'
import os, pty, subprocess, sys, time
master, slave = os.openpty()
p = subprocess.Popen([sys.argv[1], "validate", *sys.argv[2:]], stdout=subprocess.PIPE, stderr=slave)
os.close(slave)
time.sleep(1.5)
out = p.stdout.read()
rc = p.wait()
err = b""
while True:
    try:
        piece = os.read(master, 65536)
    except OSError:
        break
    if not piece:
        break
    err += piece
lines = out.count(b"\n")
sys.stdout.write(f"rc {rc} lines {lines}\n" + err.decode(errors="replace").replace("\r", "\n"))
PY
}
progress "$tmp/big.bin" >"$tmp/pty" 2>&1
grep -q '^rc 0 lines 100001$' "$tmp/pty" || fail "validate on a terminal: $(head -c 300 "$tmp/pty")"
grep -Eq '^[0-9]+ of 100000 words \([0-9]+%\), [0-9.]+ s, about [0-9]+ s left *$' "$tmp/pty" ||
  fail "no progress line on a terminal: $(head -c 300 "$tmp/pty")"
progress --quiet "$tmp/big.bin" >"$tmp/pty" 2>&1
grep -q ' words' "$tmp/pty" && fail "--quiet shows a progress line: $(head -c 300 "$tmp/pty")"

# ---- usage errors: exit 2 ----
run validate --gen bogus --hex "$load"
expect_rc 2 "unknown generation"
expect_err "unknown generation 'bogus' (expected sunda, cayman, mariana, maverick, v2..v5 or all)" "generation message"
run validate
expect_rc 2 "no input"
expect_err "validate: no input" "no input message"
run validate --hex "$load" "$tmp/mixed.bin"
expect_rc 2 "--hex and FILE"
run validate --dtype-enum sometimes --hex "$load"
expect_rc 2 "bad --dtype-enum"
expect_err "unknown reading 'sometimes' (expected header or runtime)" "--dtype-enum message"
run validate --bogus --hex "$load"
expect_rc 2 "unknown option"

[ "$failures" -eq 0 ] || { echo "$failures validate check(s) failed"; exit 1; }
echo "validate: all checks passed"
