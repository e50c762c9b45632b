#!/usr/bin/env bash
# CLI checks for `tpbisa lower`: the rewrite, validation after lowering, no partial output, VARS.json errors.
set -u
tool=${1:?usage: lower.sh TPBISA_BINARY SOURCE_DIR}
src=${2:?usage: lower.sh TPBISA_BINARY SOURCE_DIR}
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
# no_temp_files: lowering leaves nothing behind in the output directory but what it was asked to write.
no_temp_files() { ! ls -a "$tmp/o" | grep -q 'tpbisa-' || fail "$1: a temporary file was left behind"; }

mkdir -p "$tmp/o"
python3 "$words" pseudo "$tmp/pseudo.bin"  # 0xcd var 7 + 0x10, 0xce var 7 + 0x10, a real TensorStore
python3 "$words" pseudo_unaligned "$tmp/unaligned.bin"
python3 "$words" pseudo_var9 "$tmp/var9.bin"
python3 "$words" pseudo_offset_0x100 "$tmp/far.bin"
# base as a hex string and a number, size as a number and a hex string.
echo '{"vars": {"7": {"base": "0x80100", "size": 64}, "8": {"base": 268435456, "size": "0x100"}}}' >"$tmp/vars.json"

# ---- success ----
run lower --vars "$tmp/vars.json" "$tmp/pseudo.bin" "$tmp/o/out.bin"
expect_rc 0 "lower pseudo.bin"
expect_out "#0 0x0 0xcd -> 0xab TensorStore  var 7 + 0x10 = 0x80110  valid" "store lowered"
expect_out "#1 0x40 0xce -> 0xaa TensorLoad  var 7 + 0x10 = 0x80110  valid" "load lowered"
expect_out "3 words: 2 lowered, 1 copied; 0 lowered words invalid on mariana" "lower summary"
python3 - "$tmp/pseudo.bin" "$tmp/o/out.bin" <<'PY' || fail "lowered bytes"
import struct, sys
a, b = (open(p, "rb").read() for p in sys.argv[1:])
assert len(a) == len(b) == 192
for k, op in ((0, 0xAB), (1, 0xAA)):
    x, y = a[64 * k:64 * k + 64], b[64 * k:64 * k + 64]
    assert y[0] == op, hex(y[0])
    assert struct.unpack_from("<Q", y, 16)[0] == 0x80100 + 0x10  # start_addr = base + var_offset, marker 0x00
    assert x[1:16] == y[1:16] and x[24:] == y[24:]  # every other byte copied
assert a[128:] == b[128:]  # the real word copied unchanged
PY
no_temp_files "success"
[ "$(stat -c %a "$tmp/o/out.bin")" != "600" ] || fail "OUT keeps the temporary file's 0600 mode"

run lower --json --vars "$tmp/vars.json" "$tmp/pseudo.bin" "$tmp/o/out2.bin"
expect_rc 0 "lower --json"
expect_json 'list(d) == ["input", "output", "generation", "lowered", "summary"]' "JSON keys"
expect_json 'd["summary"] == {"words": 3, "lowered": 2, "copied": 1, "invalid": 0}' "JSON summary"
expect_json '[(x["index"], x["pseudo_opcode"], x["opcode"], x["var_id"], x["var_offset"], x["start_addr"]) for x in d["lowered"]] == [(0, "0xcd", "0xab", 7, 16, "0x80110"), (1, "0xce", "0xaa", 7, 16, "0x80110")]' "JSON lowered words"
expect_json 'all(x["verdict"]["valid"] for x in d["lowered"])' "JSON verdicts"
cmp -s "$tmp/o/out.bin" "$tmp/o/out2.bin" || fail "--json writes the same words"

# OUT '-' writes the words on stdout and the report on stderr; IN '-' reads stdin.
"$tool" lower --vars "$tmp/vars.json" - - <"$tmp/pseudo.bin" >"$tmp/stdout.bin" 2>"$tmp/err"
rc=$?
expect_rc 0 "stdin to stdout"
cmp -s "$tmp/o/out.bin" "$tmp/stdout.bin" || fail "stdout gets the lowered words"
expect_err "3 words: 2 lowered, 1 copied" "report on stderr when OUT is stdout"

# The generation the lowered words are judged on.
run lower --gen cayman --vars "$tmp/vars.json" "$tmp/pseudo.bin" "$tmp/o/out3.bin"
expect_rc 0 "--gen cayman"
expect_out "invalid on cayman" "--gen names the generation"

# ---- invalid after lowering: written, exit 1 ----
run lower --vars "$tmp/vars.json" "$tmp/unaligned.bin" "$tmp/o/unaligned_out.bin"
expect_rc 1 "invalid after lowering"
expect_out "#0 0x0 0xce -> 0xaa TensorLoad  var 7 + 0x2 = 0x80102  invalid (is_valid_tensor_load: 1 failed)" "invalid line"
expect_out "    valid_start_addr via is_aligned_start_addr8: immediate start_addr 0x80102 is not aligned" "alignment applies after lowering"
[ -f "$tmp/o/unaligned_out.bin" ] || fail "an invalid lowered word is still written"
run validate "$tmp/unaligned.bin"
expect_rc 0 "the pseudo word itself is valid (no alignment check before lowering)"

# ---- lowering failures: exit 3, OUT untouched ----
echo keep >"$tmp/o/keep.bin"
run lower --vars "$tmp/vars.json" "$tmp/var9.bin" "$tmp/o/keep.bin"
expect_rc 3 "unknown var id"
expect_err "tpbisa: error: $tmp/var9.bin: instruction 0 (offset 0): var_id 9 is not in the variable table; nothing written to $tmp/o/keep.bin" "unknown var message"
[ "$(cat "$tmp/o/keep.bin")" = keep ] || fail "an existing OUT survives a failed lowering"
no_temp_files "unknown var"

# The failure is on the second word; the first lowered fine, yet nothing is written.
cat "$tmp/pseudo.bin" "$tmp/far.bin" >"$tmp/late.bin"
run lower --vars "$tmp/vars.json" "$tmp/late.bin" "$tmp/o/late_out.bin"
expect_rc 3 "offset outside the variable"
expect_err "$tmp/late.bin: instruction 3 (offset 192): var_offset 0x100 is outside variable 7 (64 bytes at 0x80100)" "offset message"
[ ! -e "$tmp/o/late_out.bin" ] || fail "no partially lowered output"
no_temp_files "offset outside"

echo '{"vars": {"7": {"base": "0x3fffffffffffffff", "size": 4096}}}' >"$tmp/wide.json"
run lower --vars "$tmp/wide.json" "$tmp/pseudo.bin" "$tmp/o/wide_out.bin"
expect_rc 3 "address too wide"
expect_err "does not fit a 58-bit immediate address" "too wide message"
[ ! -e "$tmp/o/wide_out.bin" ] || fail "no output when the address is too wide"

python3 -c 'import sys; open(sys.argv[1], "wb").write(open(sys.argv[2], "rb").read() + bytes(3))' "$tmp/trail.bin" "$tmp/pseudo.bin"
run lower --vars "$tmp/vars.json" "$tmp/trail.bin" "$tmp/o/trail_out.bin"
expect_rc 3 "trailing bytes"
expect_err "3 trailing bytes at offset 192" "trailing message"
[ ! -e "$tmp/o/trail_out.bin" ] || fail "no output after an input error"

run lower --json --vars "$tmp/vars.json" "$tmp/var9.bin" "$tmp/o/x.bin"
expect_rc 3 "unknown var --json"
expect_json 'd["error"]["index"] == 0 and "var_id 9" in d["error"]["message"]' "JSON error member"

run lower --vars "$tmp/vars.json" "$tmp/missing.bin" "$tmp/o/m.bin"
expect_rc 3 "missing IN"
expect_err "$tmp/missing.bin: cannot open" "missing IN message"
run lower --vars "$tmp/vars.json" "$tmp/pseudo.bin" "$tmp/nodir/out.bin"
expect_rc 3 "OUT directory missing"
expect_err "cannot create a temporary file in $tmp/nodir" "OUT directory message"

# ---- VARS.json errors: exit 3 ----
bad_vars() {  # JSON TEXT, expected stderr fragment, name
  printf '%s' "$1" >"$tmp/bad.json"
  run lower --vars "$tmp/bad.json" "$tmp/pseudo.bin" "$tmp/o/bad_out.bin"
  expect_rc 3 "$3"
  expect_err "$2" "$3 message"
  [ ! -e "$tmp/o/bad_out.bin" ] || fail "$3: no output"
}
bad_vars '{"vars": {"7": {"base": 1, "size": 2}' "bad.json: malformed JSON: parse error at line 1, column 38" "malformed JSON"
bad_vars '{"vars": {}, "extra": 1}' 'unknown key "extra" (expected "vars")' "unknown top-level key"
bad_vars '{"vars": {"x7": {"base": 1, "size": 2}}}' 'vars."x7": a variable id must be a decimal number 0..4294967295' "non-decimal id"
bad_vars '{"vars": {"4294967296": {"base": 1, "size": 2}}}' 'a variable id must be a decimal number' "id too large"
bad_vars '{"vars": {"7": {"base": -1, "size": 2}}}' 'vars."7".base: -1 is negative' "negative base"
bad_vars '{"vars": {"7": {"base": "0xzz", "size": 2}}}' 'vars."7".base: "0xzz" is not a decimal or 0x hex number' "bad hex base"
bad_vars '{"vars": {"7": {"base": 1.5, "size": 2}}}' 'vars."7".base: 1.5 is not an integer' "float base"
bad_vars '{"vars": {"7": {"base": 1}}}' 'vars."7": no "size"' "missing size"
bad_vars '{"vars": {"7": {"base": 1, "size": 2, "align": 4}}}' 'unknown key "align"' "unknown variable key"
bad_vars '{"vars": {"7": {"base": 1, "size": 2}, "7": {"base": 3, "size": 4}}}' 'duplicate key "7"' "duplicate id"
bad_vars '{"vars": []}' '"vars" must be an object, not array' "vars not an object"
python3 -c 'import sys; open(sys.argv[1], "w").write("{\"vars\": {}, \"pad\": \"" + "x" * (17 << 20) + "\"}")' "$tmp/huge.json"
run lower --vars "$tmp/huge.json" "$tmp/pseudo.bin" "$tmp/o/huge_out.bin"
expect_rc 3 "VARS.json over 16 MiB"
expect_err "larger than 16777216 bytes (16 MiB)" "size bound message"
python3 -c 'import json, sys; json.dump({"vars": {str(i): {"base": i, "size": 1} for i in range(65537)}}, open(sys.argv[1], "w"))' "$tmp/many.json"
run lower --vars "$tmp/many.json" "$tmp/pseudo.bin" "$tmp/o/many_out.bin"
expect_rc 3 "too many variables"
expect_err "65537 variables; at most 65536" "variable bound message"
run lower --vars "$tmp/none.json" "$tmp/pseudo.bin" "$tmp/o/none_out.bin"
expect_rc 3 "missing VARS.json"
expect_err "$tmp/none.json: cannot open" "missing VARS.json message"

# ---- usage errors: exit 2 ----
run lower "$tmp/pseudo.bin" "$tmp/o/u.bin"
expect_rc 2 "no --vars"
expect_err "--vars is required" "--vars required message"
run lower --vars "$tmp/vars.json" "$tmp/pseudo.bin"
expect_rc 2 "no OUT"
run lower --gen bogus --vars "$tmp/vars.json" "$tmp/pseudo.bin" "$tmp/o/u.bin"
expect_rc 2 "unknown generation"
run lower --vars - - "$tmp/o/u.bin" </dev/null
expect_rc 2 "IN and --vars both stdin"

[ "$failures" -eq 0 ] || { echo "$failures lower check(s) failed"; exit 1; }
echo "lower: all checks passed"
