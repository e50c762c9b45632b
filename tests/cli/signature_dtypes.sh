#!/usr/bin/env bash
# CLI check of the NEFF signature dtypes (docs/conventions.md, whole-NEFF run): an output whose signature is
# float8_e4m3fn is read as the catalog's FP8_EXP4 by `run --expect` (the reference holds each output byte decoded as
# E4M3 without infinities, computed here from the format, not by the tool), while the IEEE-like float8_e4m3 is no ISA
# dtype and its bytes compare as unsigned integers. The same program's bytes, three signatures.
set -u
tool=${1:?usage: signature_dtypes.sh TPBISA_BINARY SOURCE_DIR}
src=${2:?usage: signature_dtypes.sh TPBISA_BINARY SOURCE_DIR}
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# One small matmul NEFF (float16 output 128 x 512) and its inputs.
if ! "$py" "$src/examples/gen_matmul_neff.py" --tpbisa "$tool" --k 128 --n 512 --out "$tmp/m.neff" \
  --write-inputs "$tmp/in" >"$tmp/gen.log" 2>&1; then
  echo "FAIL: the generator failed: $(cat "$tmp/gen.log")"
  exit 1
fi
inputs=(--input "x=$tmp/in/x.npy" --input "y=$tmp/in/y.npy")
"$tool" run "$tmp/m.neff" "${inputs[@]}" --out "$tmp/out16" >"$tmp/run.out" 2>&1 || fail "the float16 run: $(cat "$tmp/run.out")"
"$tool" neff extract "$tmp/m.neff" "$tmp/members" >/dev/null || fail "neff extract"

# signed NAME DTYPE: m.neff with output0's signature DTYPE over the same bytes (128 x 1024 one-byte elements).
signed() {
  "$py" - "$tmp/members/neff.json" "$2" <<'EOF' || fail "$1: neff.json not rewritten"
import json, sys
path, dtype = sys.argv[1], sys.argv[2]
g = json.load(open(path))
g["metadata"]["signatures"]["default"]["outputs"] = {"output0": {"id": 2, "dtype": dtype, "shape": [128, 1024]}}
json.dump(g, open(path, "w"))
EOF
  "$tool" neff pack "$tmp/members" "$tmp/$1.neff" >/dev/null || fail "$1: neff pack"
}

# The references: the float16 output's bytes read as E4M3 without infinities (NaN only at S.1111.111), and as bytes.
"$py" - "$tmp/out16/output0.npy" "$tmp" <<'EOF' || fail "references not written"
import math, sys
import numpy as np
raw = np.load(sys.argv[1]).view(np.uint8).reshape(128, 1024)
def e4m3fn(b):
    sign = -1.0 if b & 0x80 else 1.0
    e, m = (b >> 3) & 0xF, b & 7
    if e == 15 and m == 7:
        return math.nan
    return sign * (m / 8 * 2.0 ** -6 if e == 0 else (1 + m / 8) * 2.0 ** (e - 7))
table = np.array([e4m3fn(b) for b in range(256)], dtype=np.float32)
np.save(f"{sys.argv[2]}/ref_fp8.npy", table[raw])
np.save(f"{sys.argv[2]}/ref_bytes.npy", raw.astype(np.float32))
EOF

check() {  # check NAME REF DIFFERING...: `run --expect output0=REF` on NAME.neff reports that many differing elements
  local name=$1 ref=$2 want=$3
  "$tool" run "$tmp/$name.neff" "${inputs[@]}" --expect "output0=$tmp/$ref" >"$tmp/$name.$ref.out" 2>&1
  grep -qF "expect output0 ($tmp/$ref): $want of 131072 elements differ" "$tmp/$name.$ref.out" ||
    fail "$name against $ref: expected '$want of 131072 elements differ': $(grep expect "$tmp/$name.$ref.out")"
}

signed fn float8_e4m3fn
check fn ref_fp8.npy 0
signed ieee float8_e4m3
check ieee ref_bytes.npy 0
# Read the other way, each differs: the FP8 reading is not the bytes', nor the bytes' the FP8 one.
grep -qE "expect output0 \(.*\): 0 of" <("$tool" run "$tmp/fn.neff" "${inputs[@]}" --expect "output0=$tmp/ref_bytes.npy" 2>&1) &&
  fail "float8_e4m3fn compared as bytes"
grep -qE "expect output0 \(.*\): 0 of" <("$tool" run "$tmp/ieee.neff" "${inputs[@]}" --expect "output0=$tmp/ref_fp8.npy" 2>&1) &&
  fail "float8_e4m3 read as FP8_EXP4"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "signature dtypes: ok"
