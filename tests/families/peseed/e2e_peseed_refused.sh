#!/usr/bin/env bash
# PE_MANAGE_SEED end to end: a word packed by hand at the wiki's offsets, disassembled and assembled back to the same word,
# validated on the generations that have it, and refused by `tpbisa run` (its semantics are not public, PROJ-CONV-PS3) with
# the memory it would touch left as it was.
set -u
tool=${1:?usage: e2e_peseed_refused.sh TPBISA_BINARY SOURCE_DIR}
tool=$(realpath "$tool")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# opcode 0x08; src TENSOR2D at 12 (128 seeds at SBUF 0x1000); identity TENSOR1D at 24 (16 BF16 at 0x2000); BF16, LOAD_SEED, 16 rows, 128 columns at 32-35.
word=$(/usr/bin/python3 -c '
import struct
w = bytearray(64)
struct.pack_into("<BB", w, 0, 0x08, 16)
struct.pack_into("<I2h2H", w, 12, 0x1000, 1, 0, 128, 1)
struct.pack_into("<IhH", w, 24, 0x2000, 1, 16)
w[32], w[33], w[34], w[35] = 0x06, 1, 16, 128
print(w.hex())')
text=$("$tool" disasm --gen mariana --hex "$word") || { echo "FAIL: disasm"; exit 1; }
case "$text" in PeManageSeed\ *) ;; *) echo "FAIL: disasm gave: $text"; fail=1 ;; esac
printf '%s\n' "$text" >"$tmp/prog.tasm"
back=$("$tool" asm --gen mariana --hex "$tmp/prog.tasm") || { echo "FAIL: asm of: $text"; exit 1; }
[ "$back" = "$word" ] || { echo "FAIL: asm gave $back, want $word"; fail=1; }
for gen in mariana maverick; do
  "$tool" validate --gen "$gen" --hex "$word" >"$tmp/v.txt" 2>&1 || { echo "FAIL: validate on $gen:"; cat "$tmp/v.txt"; fail=1; }
done
printf '{"memory": [{"at": "sbuf:0:0x1000", "dtype": "u32", "bits": ["0x12345678"]}]}\n' >"$tmp/init.json"  # dumped as 305419896
"$tool" run --gen mariana --init "$tmp/init.json" --hex "$word" --dump sbuf:0:0x1000:u32:1 >"$tmp/run.txt" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then echo "FAIL: run of PeManageSeed exited 0"; fail=1; fi
grep -q "PeManageSeed (0x08)" "$tmp/run.txt" && grep -q "semantics are not public" "$tmp/run.txt" ||
  { echo "FAIL: run output does not say the semantics are not public:"; cat "$tmp/run.txt"; fail=1; }
grep -q "\[0\] 305419896" "$tmp/run.txt" || { echo "FAIL: the memory changed or was not dumped:"; cat "$tmp/run.txt"; fail=1; }
echo "peseed_refused: $([ $fail -eq 0 ] && echo ok || echo failures)"
exit $fail
