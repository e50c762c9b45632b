#!/usr/bin/env bash
# CLI checks for `tpbisa catalog`: per-generation counts of each table, text and JSON forms.
set -u
tool=${1:?usage: catalog.sh TPBISA_BINARY SOURCE_DIR}
src=${2:?usage: catalog.sh TPBISA_BINARY SOURCE_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
run() { "$tool" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
expect_rc() { [ "$rc" -eq "$1" ] || { fail "$2: exit $rc, expected $1"; sed 's/^/  stderr: /' "$tmp/err"; }; }
# stated STATE: the tests' expectations (every family's catalog.tsv, then tests/catalog/unmodeled.tsv for the rest) as
# a Python list of (value, state) whose state starts with STATE, value as the JSON spells it ("0x0a").
stated() {
  awk -F'\t' -v want="$1" '!/^#/ && NF == 4 && !seen[$1]++ && index($4, want) == 1 {
      printf "%s(\"0x%s\", \"%s\")", n++ ? ", " : "[", tolower(substr($1, 3)), $4 }
    END { printf "%s]", n ? "" : "[" }' "$src"/tests/families/*/catalog.tsv "$src/tests/catalog/unmodeled.tsv"
}
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
grep -qE '^0x87 +TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH .* M +- +- +-$' "$tmp/out" || fail "0x87 presence columns (M: modeled on sunda)"
grep -qE '^0x0a +MATMUL_MX .* - +- +x +x$' "$tmp/out" || fail "0x0a presence columns (x: present, not modeled)"
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

# Coverage: the executor kinds and the modeled mark, per generation (docs/cli.md "Coverage", PROJ-CONV-G6).
run catalog --coverage --json --gen cayman
expect_rc 0 "catalog --coverage --json --gen cayman"
expect_json 'all(e["coverage"]["cayman"]["modeled"] or "semantics_not_public" in e["coverage"]["cayman"] for e in d["entries"] if e["coverage"]["cayman"]["format"])' "every decoded CAYMAN opcode modeled or semantics not public"
expect_json '[e["coverage"]["cayman"]["executor"] for e in d["entries"] if e["value"] in ("0xcd", "0xce")] == ["lowered", "lowered"]' "pseudo TensorLoad/Store lowered"
expect_json '[(e["coverage"]["cayman"]["executor"], e["coverage"]["cayman"]["convention"]) for e in d["entries"] if e["value"] in ("0xd2", "0xd3")] == [("convention", "PROJ-CONV-Q14")] * 2' "function return/call by PROJ-CONV-Q14"
expect_json "d['totals']['cayman']['modeled'] == sum(e['coverage']['cayman']['modeled'] for e in d['entries']) and d['totals']['cayman']['conventions'] == sorted({s.split()[-1] for v, s in $(stated convention) if v in {e['value'] for e in d['entries']}})" "coverage totals: the conventions the families' catalog.tsv state"
run catalog --coverage --gen cayman
grep -qE '^0xd2 +PSEUDO_FUNCTION_RETURN .* yes +convention PROJ-CONV-Q14 +yes$' "$tmp/out" || fail "0xd2 coverage row"
grep -qE '^0x03 +PE_REG_WRITE .* layout not public +- +- +-$' "$tmp/out" || fail "0x03 coverage row: layout not public"
run catalog --coverage --json --gen mariana
expect_json '[e["value"] for e in d["entries"] if e["coverage"]["mariana"].get("invalid_marker")] == ["0xff"]' "INVALID 0xFF is the invalid-opcode marker (PROJ-CONV-C20)"
# The rows tests/catalog/unmodeled.tsv states `layout not public`, those MARIANA has: PE 0x03-0x06, the MX matmul pair,
# RNG 0x4D, the dormant and unquoted POOL/DVE ops, the batch-norm training ops, 0x67, the pseudo band (0xD0 included),
# QUANTIZE_MX 0xE3 and EXTENDED_INST 0xF0, each with the source that would settle it.
lnp="sorted(v for v, s in $(stated 'layout not public') if v in {e['value'] for e in d['entries']})"
expect_json "[e['value'] for e in d['entries'] if 'layout_not_public' in e['coverage']['mariana']] == $lnp" "layout not public on mariana"
expect_json "d['totals']['mariana']['layout_not_public'] == len($lnp) > 40" "layout-not-public total"
expect_json '[e["coverage"]["mariana"]["executor"] for e in d["entries"] if e["value"] == "0xc1"] == ["yes"]' "0xc1 runs (PROJ-CONV-PS4)"
# The plain table marks the modeled opcodes too: a column with --gen, M in the presence columns without.
run catalog --gen cayman
grep -qE '^0xce +PSEUDO_TENSOR_LOAD .* PSEUDO_MEM_2D +yes$' "$tmp/out" || fail "0xce modeled column"
run catalog
grep -qE '^0xd3 +PSEUDO_FUNCTION_CALL .* M +M +M +M$' "$tmp/out" || fail "0xd3 modeled marks"
run catalog --json
expect_json 'any(e["value"] == "0x01" and e["modeled"] == ["sunda", "cayman", "mariana", "maverick"] for e in d["entries"]) and any(e["value"] == "0x03" and e["modeled"] == [] for e in d["entries"])' "opcodes JSON modeled"

[ "$failures" -eq 0 ] && echo "catalog: all checks passed"
exit $((failures > 0))
