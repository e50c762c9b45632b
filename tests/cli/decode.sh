#!/usr/bin/env bash
# CLI checks for `tpbisa decode`: --hex words, files, stdin, text and JSON output, unknown opcodes.
set -u
tool=${1:?usage: decode.sh TPBISA_BINARY SOURCE_DIR}
src=${2:?usage: decode.sh TPBISA_BINARY SOURCE_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
run() { "$tool" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
expect_rc() { [ "$rc" -eq "$1" ] || { fail "$2: exit $rc, expected $1"; sed 's/^/  stderr: /' "$tmp/err"; }; }
expect_out() { grep -qF -- "$1" "$tmp/out" || fail "$2: stdout lacks '$1'"; }
# expect_json EXPR WHAT: EXPR is a Python expression over d, the JSON document on stdout.
expect_json() {
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' \
    "$tmp/out" "$1" 2>"$tmp/pyerr" || { fail "$2: JSON check failed: $1"; sed 's/^/  /' "$tmp/pyerr"; }
}
# A word from hex: OPCODE, then the rest of the 64 bytes as given (zero-filled).
word() { python3 -c 'import sys; b = bytes.fromhex(sys.argv[1]); print((b + bytes(64 - len(b))).hex())' "$1"; }

# A TensorLoad: waits $S[11]>0, $S[22]++ at completion, u32 2x2 from sbuf[p2]+0x100 into r1..r4.
load=$(word "aa100000040b131600000000090002020001080000000000010000000200000001020304")

run decode --json --hex "$load"
expect_rc 0 "TensorLoad --json"
expect_json 'd["instructions"][0]["opcode"] == "0xaa" and d["instructions"][0]["name"] == "TensorLoad"' "opcode and name"
expect_json 'd["generation"] == "mariana"' "default generation"
expect_json 'd["instructions"][0]["format"] == "MEM_2D" and d["instructions"][0]["status"] == "modeled"' "format"
expect_json 'd["instructions"][0]["events"]["text"] == "$S[11]>0 $S[22]++@complete"' "events text"
expect_json '[f["name"] for f in d["instructions"][0]["fields"]][:5] == ["header.opcode", "header.inst_word_len", "header.debug_cmd", "header.debug_hint", "events.wait_mode"]' "field order"
expect_json 'any(f["name"] == "step_elem[1]" and f["offset"] == 28 and f["value"] == 2 for f in d["instructions"][0]["fields"])' "step_elem[1]"
expect_json 'any(f["name"] == "data" and f["kind"] == "bytes" and f["size"] == 32 for f in d["instructions"][0]["fields"])' "data bytes"
expect_json 'sum(f["size"] for f in d["instructions"][0]["fields"]) == 64' "fields cover the word"
expect_json '"error" not in d' "no error on success"

run decode --gen cayman --hex "$load"
expect_rc 0 "TensorLoad text"
expect_out "0xaa TensorLoad  MEM_2D" "title line"
expect_out 'events: $S[11]>0 $S[22]++@complete' "events line"
expect_out "sbuf[p2]+0x100" "start_addr meaning"
expect_out "registers r1 r2 r3 r4" "data meaning"

# Whitespace and 0x prefixes are tolerated; repeated --hex gives consecutive words.
spaced="0x${load:0:64} ${load:64}"
run decode --json --hex "$spaced" --hex "$load"
expect_rc 0 "spaced hex"
expect_json 'len(d["instructions"]) == 2 and d["instructions"][1]["offset"] == 64 and d["instructions"][1]["index"] == 1' "two words"

# Unknown opcodes decode as unknown and are not an error.
run decode --hex "$(word 0010)"
expect_rc 0 "opcode 0x00"
expect_out "0x00 unknown" "0x00 is unknown"
run decode --gen cayman --json --hex "$(word 8710)"
expect_rc 0 "0x87 on cayman"
expect_json 'd["instructions"][0]["status"] == "unknown" and d["instructions"][0]["name"] == "unknown"' "0x87 unknown on cayman"
expect_json '"exists on sunda" in d["instructions"][0]["note"]' "0x87 names its generation"
run decode --gen sunda --json --hex "$(word 8710)"
expect_json 'd["instructions"][0]["name"] == "TensorScalarPtrMultiDualArith"' "0x87 known on sunda"

# A known opcode without a modeled format keeps its operand bytes raw.
run decode --json --hex "$(word 9f10)"
expect_json 'd["instructions"][0]["status"] == "not-modeled" and d["instructions"][0]["fields"][-1]["name"] == "operands"' "not modeled"

# Files and stdin give the same words.
run decode --gen cayman --json "$src/examples/stream.bin"
expect_rc 0 "stream.bin"
expect_json 'len(d["instructions"]) == 6' "the stream has six words"
expect_json '[i["opcode"] for i in d["instructions"]] == ["0xab", "0xaa", "0x70", "0x4f", "0x9f", "0x87"]' "stream opcodes"
expect_json '[i["status"] for i in d["instructions"]][-2:] == ["not-modeled", "unknown"]' "stream statuses"
cp "$tmp/out" "$tmp/from_file.json"
"$tool" decode --gen cayman --json - <"$src/examples/stream.bin" >"$tmp/out" 2>"$tmp/err"
rc=$?
expect_rc 0 "stdin"
python3 -c 'import json, sys
a, b = (json.load(open(p))["instructions"] for p in sys.argv[1:])
sys.exit(0 if [x["word"] for x in a] == [x["word"] for x in b] else 1)' "$tmp/from_file.json" "$tmp/out" ||
  fail "stdin decodes like the file"

# Several files: one heading per input in text.
run decode --gen cayman "$src/examples/stream.bin" "$src/examples/stream.bin"
expect_rc 0 "two files"
[ "$(grep -c '^== ' "$tmp/out")" -eq 2 ] || fail "two files give two headings"

# The bundled example is what its generator writes.
python3 "$src/examples/make_stream_bin.py" "$tmp/stream.bin" && cmp -s "$tmp/stream.bin" "$src/examples/stream.bin" ||
  fail "examples/stream.bin differs from make_stream_bin.py output"

[ "$failures" -eq 0 ] && echo "decode: all checks passed"
exit $((failures > 0))
