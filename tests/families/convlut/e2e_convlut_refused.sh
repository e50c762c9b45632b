#!/usr/bin/env bash
# CONV_LUT_LOAD end to end: a word packed by hand at the wiki's offsets, disassembled and assembled back to the same word,
# validated on the generations that have it, and refused by `tpbisa run` (its semantics are not public, PROJ-CONV-CL3) with
# the memory it would touch left as it was.
set -u
tool=${1:?usage: e2e_convlut_refused.sh TPBISA_BINARY SOURCE_DIR}
tool=$(realpath "$tool")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# opcode 0xE4; src TENSOR2D at 16 (4 UINT32 units at SBUF 0x0); UINT32 at 32; 128 rows and columns at 38-39; groups 0x0f at 44-45; lut_dtype CPTC1 (0x19) at 47.
word=$(/usr/bin/python3 -c '
import struct
w = bytearray(64)
struct.pack_into("<BB", w, 0, 0xE4, 16)
struct.pack_into("<I2h2H", w, 16, 0x0, 1, 0, 4, 1)
w[32], w[38], w[39], w[44], w[45], w[47] = 0x09, 128, 128, 0x0F, 0x0F, 0x19
print(w.hex())')
text=$("$tool" disasm --gen cayman --hex "$word") || { echo "FAIL: disasm"; exit 1; }
case "$text" in ConvLutLoad\ *) ;; *) echo "FAIL: disasm gave: $text"; fail=1 ;; esac
printf '%s\n' "$text" >"$tmp/prog.tasm"
back=$("$tool" asm --gen cayman --hex "$tmp/prog.tasm") || { echo "FAIL: asm of: $text"; exit 1; }
[ "$back" = "$word" ] || { echo "FAIL: asm gave $back, want $word"; fail=1; }
for gen in cayman mariana maverick; do
  "$tool" validate --gen "$gen" --hex "$word" >"$tmp/v.txt" 2>&1 || { echo "FAIL: validate on $gen:"; cat "$tmp/v.txt"; fail=1; }
done
printf '{"memory": [{"at": "sbuf:0:0x0", "dtype": "u32", "bits": ["0x12345678"]}]}\n' >"$tmp/init.json"  # dumped as 305419896
"$tool" run --gen cayman --init "$tmp/init.json" --hex "$word" --dump sbuf:0:0x0:u32:1 >"$tmp/run.txt" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then echo "FAIL: run of ConvLutLoad exited 0"; fail=1; fi
grep -q "ConvLutLoad (0xe4)" "$tmp/run.txt" && grep -q "semantics are not public" "$tmp/run.txt" ||
  { echo "FAIL: run output does not say the semantics are not public:"; cat "$tmp/run.txt"; fail=1; }
grep -q "\[0\] 305419896" "$tmp/run.txt" || { echo "FAIL: the memory changed or was not dumped:"; cat "$tmp/run.txt"; fail=1; }
echo "convlut_refused: $([ $fail -eq 0 ] && echo ok || echo failures)"
exit $fail
