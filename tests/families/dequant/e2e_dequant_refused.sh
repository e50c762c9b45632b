#!/usr/bin/env bash
# TENSOR_DEQUANTIZE end to end: a word packed by hand at the wiki's offsets, disassembled and assembled back to the same word,
# validated on the generations that have it, and refused by `tpbisa run` (its semantics are not public, PROJ-CONV-DQ3) with
# the memory it would touch left as it was.
set -u
tool=${1:?usage: e2e_dequant_refused.sh TPBISA_BINARY SOURCE_DIR}
tool=$(realpath "$tool")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# opcode 0x7B; src TENSOR3D at 12 (32 UINT32 words at SBUF 0x0); UINT32 in/out at 32-33, 64 channels, E2M1TO_E5M2 at 35; dst TENSOR3D at 44 (64 words at SBUF 0x1000).
word=$(/usr/bin/python3 -c '
import struct
w = bytearray(64)
struct.pack_into("<BB", w, 0, 0x7B, 16)
struct.pack_into("<I3h3H", w, 12, 0x0, 1, 0, 0, 32, 1, 1)
w[32], w[33], w[34], w[35] = 0x09, 0x09, 64, 1
struct.pack_into("<I3h3H", w, 44, 0x1000, 1, 0, 0, 64, 1, 1)
print(w.hex())')
text=$("$tool" disasm --gen cayman --hex "$word") || { echo "FAIL: disasm"; exit 1; }
case "$text" in TensorDequantize\ *) ;; *) echo "FAIL: disasm gave: $text"; fail=1 ;; esac
printf '%s\n' "$text" >"$tmp/prog.tasm"
back=$("$tool" asm --gen cayman --hex "$tmp/prog.tasm") || { echo "FAIL: asm of: $text"; exit 1; }
[ "$back" = "$word" ] || { echo "FAIL: asm gave $back, want $word"; fail=1; }
for gen in cayman mariana maverick; do
  "$tool" validate --gen "$gen" --hex "$word" >"$tmp/v.txt" 2>&1 || { echo "FAIL: validate on $gen:"; cat "$tmp/v.txt"; fail=1; }
done
printf '{"memory": [{"at": "sbuf:0:0x1000", "dtype": "u32", "bits": ["0x12345678"]}]}\n' >"$tmp/init.json"  # dumped as 305419896
"$tool" run --gen cayman --init "$tmp/init.json" --hex "$word" --dump sbuf:0:0x1000:u32:1 >"$tmp/run.txt" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then echo "FAIL: run of TensorDequantize exited 0"; fail=1; fi
grep -q "TensorDequantize (0x7b)" "$tmp/run.txt" && grep -q "semantics are not public" "$tmp/run.txt" ||
  { echo "FAIL: run output does not say the semantics are not public:"; cat "$tmp/run.txt"; fail=1; }
grep -q "\[0\] 305419896" "$tmp/run.txt" || { echo "FAIL: the memory changed or was not dumped:"; cat "$tmp/run.txt"; fail=1; }
echo "dequant_refused: $([ $fail -eq 0 ] && echo ok || echo failures)"
exit $fail
