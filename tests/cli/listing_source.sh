#!/usr/bin/env bash
# `tpbisa disasm --listing -S` and the per-word `source` of `decode --json` on the real matmul_small.neff (skipped
# when ../shared/data is absent): the listing against its golden (tests/cli/data/matmul-listing-source.txt;
# TPBISA_REGEN=1 rewrites it), the debug records' absence said for a NEFF without them and for plain words.
set -u
tool=${1:?usage: listing_source.sh TPBISA_BINARY SOURCE_DIR}
src=${2:?usage: listing_source.sh TPBISA_BINARY SOURCE_DIR}
tool=$(realpath "$tool")
src=$(realpath "$src")
# Exit 77: ctest reports the script as skipped (SKIP_RETURN_CODE, tests/CMakeLists.txt).
neff="${TPBISA_SHARED_DATA_DIR:-$src/../shared/data}/matmul_small.neff"
if [ ! -f "$neff" ]; then
  echo "SKIP: the shared data folder is absent"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
ln -s "$neff" matmul_small.neff
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# ---- the golden: every word once, with its offset, bytes, operands, names and the source line before it ----
golden="$src/tests/cli/data/matmul-listing-source.txt"
"$tool" disasm --listing -S matmul_small.neff >listing.txt 2>err.txt
rc=$?
[ "$rc" -eq 0 ] || fail "disasm --listing -S: exit $rc ($(cat err.txt))"
[ -s err.txt ] && fail "disasm --listing -S wrote to stderr: $(cat err.txt)"
if [ "${TPBISA_REGEN:-0}" = 1 ]; then
  cp listing.txt "$golden"
  echo "rewrote $golden"
fi
diff -u "$golden" listing.txt || fail "disasm --listing -S differs from $golden"
# Each of the 58 words of the two subgraphs is listed once.
words=$(grep -c '^sg0[01]/' listing.txt)
[ "$words" -eq 58 ] || fail "listing has $words word lines, expected 58"
grep -q '^;   .*test_spike_async.py:58  %op0 = dot(%x, %y) \[NKIPy_Op\]  compiler instruction I-72-0$' listing.txt ||
  fail "no source line for the dot of line 58"
grep -q 'PseudoDmaDirect2d .*  ; sbuf\[p0\]+0x4200 -> output0+0x0$' listing.txt || fail "the output DMA is not named"

# ---- decode --json carries the same source per word; words the records leave blank have nulls ----
"$tool" decode --json matmul_small.neff | /usr/bin/python3 -c '
import json, sys
every = json.load(sys.stdin)["instructions"]
assert len(every) == 58 and all("source" in i for i in every)
assert sum(1 for i in every if i["source"]["instruction"]) == 38  # docs/neff.md, "Debug records"
assert sum(1 for i in every if i["source"]["line"]) == 20
words = [i for i in every if i["subgraph"] == "sg00" and i["engine"] == "PE"]
src = {i["index"]: i["source"] for i in words}
assert src[8]["line"] == 58 and src[8]["file"].endswith("test_spike_async.py"), src[8]
assert src[8]["hlo"] == "%op0 = dot(%x, %y)" and src[8]["op_type"] == "NKIPy_Op", src[8]
assert src[8]["instruction"] == "I-72-0", src[8]
assert src[3] == {"file": None, "line": None, "hlo": None, "op_type": None, "instruction": "I-87-0"}, src[3]
assert src[0] == {"file": None, "line": None, "hlo": None, "op_type": None, "instruction": None}, src[0]
' || fail "decode --json source"

# ---- no records: a NEFF without debug members, and plain words, say so ----
"$tool" disasm --listing -S --no-bytes "$src/tests/golden/validate-neff/in.neff" >out.txt 2>&1 || fail "synthetic NEFF: exit $?"
grep -q '^; no debug records for sg00/PE in .*in.neff: source lines unknown$' out.txt || fail "absence not said: $(head -5 out.txt)"
"$tool" decode --json "$src/tests/golden/validate-neff/in.neff" | grep -q '"source"' && fail "decode --json has a source without records"
"$tool" disasm -S --gen cayman "$src/examples/stream.bin" >out.txt 2>&1 || fail "plain words: exit $?"
grep -q "^; .*stream.bin is not a NEFF: no debug records, source lines unknown$" out.txt || fail "plain words: $(head -2 out.txt)"

# ---- usage: --no-bytes needs --listing and excludes --short ----
"$tool" disasm --no-bytes --gen cayman "$src/examples/stream.bin" >/dev/null 2>err.txt
[ $? -eq 2 ] || fail "--no-bytes without --listing is not a usage error"
"$tool" disasm --listing --short --no-bytes --gen cayman "$src/examples/stream.bin" >/dev/null 2>err.txt
[ $? -eq 2 ] || fail "--short with --no-bytes is not a usage error"

if [ "$failures" -ne 0 ]; then
  echo "$failures failed"
  exit 1
fi
echo "listing_source: all passed"
