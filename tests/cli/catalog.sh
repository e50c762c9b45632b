#!/usr/bin/env bash
# CLI checks for `tpbisa catalog`: per-generation counts of each table, text and JSON forms.
set -u
tool=${1:?usage: catalog.sh TPBISA_BINARY SOURCE_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
run() { "$tool" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
expect_rc() { [ "$rc" -eq "$1" ] || { fail "$2: exit $rc, expected $1"; sed 's/^/  stderr: /' "$tmp/err"; }; }
expect_json() {
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' \
    "$tmp/out" "$1" 2>"$tmp/pyerr" || { fail "$2: JSON check failed: $1"; sed 's/^/  /' "$tmp/pyerr"; }
}

# table gen count: the text count line and the JSON count agree with the spec (enums.md §1, §4, §5).
check_count() {
  local table=$1 gen=$2 want=$3
  run catalog --gen "$gen" "$table"
  expect_rc 0 "catalog --gen $gen $table"
  grep -qx "$table: $want on $gen" <(head -1 "$tmp/out") || fail "$table on $gen: '$(head -1 "$tmp/out")', want $want"
  [ "$(($(wc -l <"$tmp/out") - 2))" -eq "$want" ] || fail "$table on $gen: row count is not $want"
  run catalog --json --gen "$gen" "$table"
  expect_json "d['count'] == $want and len(d['entries']) == $want and d['generation'] == '$gen'" "$table $gen JSON"
}

check_count opcodes sunda 145
check_count opcodes cayman 150
check_count opcodes mariana 159
check_count opcodes maverick 165
check_count dtypes sunda 16
check_count dtypes cayman 16
check_count dtypes mariana 24
check_count dtypes maverick 30
check_count aluops sunda 33
check_count aluops maverick 65

# Without --gen: every row, with presence columns and the four counts.
run catalog
expect_rc 0 "catalog (default opcodes)"
head -1 "$tmp/out" | grep -qF "opcodes: 172 values (sunda 145, cayman 150, mariana 159, maverick 165)" ||
  fail "all-generation count line"
grep -qE '^0x87 +TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH .* x +- +- +-$' "$tmp/out" || fail "0x87 presence columns"
run catalog --json
expect_json 'd["generation"] is None and d["count"] == 172 and d["counts"] == {"sunda": 145, "cayman": 150, "mariana": 159, "maverick": 165}' "all-generation JSON"
expect_json 'any(e["value"] == "0xaa" and e["mnemonic"] == "TensorLoad" and e["format"] == "MEM_2D" for e in d["entries"])' "TensorLoad row"

# Generation aliases are case-insensitive.
run catalog --json --gen V3 dtypes
expect_json 'd["generation"] == "cayman" and d["count"] == 16' "--gen V3"

# Modes: every small enum, MAVERICK without the event modes.
run catalog --json --gen maverick modes
expect_rc 0 "catalog modes"
expect_json '[e["name"] for e in d["enums"]] == ["WAIT_MODE", "UPDATE_MODE", "DATA_SRC", "IMM_SRC", "IMM_SRC_N", "TENSOR_SUBDIM", "TENS_SCALAR_REV_OPS"]' "mode enums"
expect_json 'not any(e["name"].startswith("EVT") for e in d["enums"][0]["entries"])' "no event waits on maverick"
expect_json 'any(e["value"] == "0x95" for e in d["enums"][0]["entries"])' "register-offset waits on maverick"
run catalog modes
expect_rc 0 "catalog modes text"
grep -qF "IMM_SRC_N: 3 values" "$tmp/out" || fail "IMM_SRC_N table"

[ "$failures" -eq 0 ] && echo "catalog: all checks passed"
exit $((failures > 0))
