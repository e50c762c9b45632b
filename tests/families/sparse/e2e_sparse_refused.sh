#!/usr/bin/env bash
# MATMUL_SPARSE end to end: assembled from text, disassembled back to the same word, validated on the three
# generations that have it, and refused by `tpbisa run` (its semantics are not public, PROJ-CONV-SP5) with the
# destination left as it was.
set -u
tool=${1:?usage: e2e_sparse_refused.sh TPBISA_BINARY SOURCE_DIR}
tool=$(realpath "$tool")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
text='MatmulSparse src.start_addr=sbuf[p0]+0x0 src.step_elem={1,0,0,64} src.num_elem={64,1,1,4} in_dtype=bf16 num_active_rows=128 num_active_cols=96 psum_accumulate_flags=3 row_grp=0xf col_grp=0xf dst.start_addr=psum[p0].bank0+0x0 dst.step_elem={1,0,0} dst.num_elem={64,1,1}'
printf '%s\n' "$text" >"$tmp/prog.tasm"
word=$("$tool" asm --gen cayman --hex "$tmp/prog.tasm") || { echo "FAIL: asm"; exit 1; }
# The word by hand, packed at the wiki's offsets (PROJ-CONV-SP1): opcode 0x07, 16 words; src TENSOR4D at 12; bf16 at
# 32; 128 rows, 96 columns at 38-39; SINGLE at 43; groups 0x0f at 44-45; dst TENSOR3D at 48 (PSUM partition 0).
want=$(/usr/bin/python3 -c '
import struct
w = bytearray(64)
struct.pack_into("<BB", w, 0, 0x07, 16)
struct.pack_into("<I4h4H", w, 12, 0x0, 1, 0, 0, 64, 64, 1, 1, 4)
w[32], w[38], w[39], w[43], w[44], w[45] = 0x06, 128, 96, 3, 0x0F, 0x0F
struct.pack_into("<I3h3H", w, 48, 0x2000000, 1, 0, 0, 64, 1, 1)
print(w.hex())')
[ "$word" = "$want" ] || { echo "FAIL: asm gave $word, want $want"; fail=1; }
back=$("$tool" disasm --gen cayman --hex "$word")
[ "$back" = "$text" ] || { echo "FAIL: disasm gave: $back"; fail=1; }
for gen in cayman mariana; do
  "$tool" validate --gen "$gen" --hex "$word" >"$tmp/v.txt" 2>&1 || { echo "FAIL: validate on $gen:"; cat "$tmp/v.txt"; fail=1; }
done
printf '{"memory": [{"at": "psum:0:0x0", "dtype": "u32", "bits": ["0x12345678"]}]}\n' >"$tmp/init.json"  # 0x12345678, dumped as 305419896
"$tool" run --gen cayman --init "$tmp/init.json" --hex "$word" --dump psum:0:0x0:u32:1 >"$tmp/run.txt" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then echo "FAIL: run of MATMUL_SPARSE exited 0"; fail=1; fi
grep -q "MatmulSparse (0x07)" "$tmp/run.txt" && grep -q "semantics are not public" "$tmp/run.txt" ||
  { echo "FAIL: run output does not say the semantics are not public:"; cat "$tmp/run.txt"; fail=1; }
grep -q "\[0\] 305419896" "$tmp/run.txt" || { echo "FAIL: the destination changed or was not dumped:"; cat "$tmp/run.txt"; fail=1; }
echo "sparse_refused: $([ $fail -eq 0 ] && echo ok || echo failures)"
exit $fail
