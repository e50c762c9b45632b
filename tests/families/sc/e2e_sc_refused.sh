#!/usr/bin/env bash
# SPARSITY_COMPRESS end to end: a word packed by hand at the wiki's offsets, disassembled and assembled back to the same word,
# validated on the generations that have it, and refused by `tpbisa run` (its semantics are not public, PROJ-CONV-SC3) with
# the memory it would touch left as it was.
set -u
tool=${1:?usage: e2e_sc_refused.sh TPBISA_BINARY SOURCE_DIR}
tool=$(realpath "$tool")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# opcode 0xE0; FP32 in at 12; src TENSOR3D at 16 (2 groups of 16); BF16 data in UINT32 at 32-33, 64 channels, MAX at 36, X at 37; dst TENSOR3D at 48 (8 elements at SBUF 0x1000).
word=$(/usr/bin/python3 -c '
import struct
w = bytearray(64)
struct.pack_into("<BB", w, 0, 0xE0, 16)
w[12] = 0x0A
struct.pack_into("<I3h3H", w, 16, 0x0, 1, 16, 0, 16, 2, 1)
w[32], w[33], w[34], w[36], w[37] = 0x06, 0x09, 64, 0x09, 0x02
struct.pack_into("<I3h3H", w, 48, 0x1000, 1, 0, 0, 8, 1, 1)
print(w.hex())')
text=$("$tool" disasm --gen mariana --hex "$word") || { echo "FAIL: disasm"; exit 1; }
case "$text" in SparsityCompress\ *) ;; *) echo "FAIL: disasm gave: $text"; fail=1 ;; esac
printf '%s\n' "$text" >"$tmp/prog.tasm"
back=$("$tool" asm --gen mariana --hex "$tmp/prog.tasm") || { echo "FAIL: asm of: $text"; exit 1; }
[ "$back" = "$word" ] || { echo "FAIL: asm gave $back, want $word"; fail=1; }
for gen in mariana maverick; do
  "$tool" validate --gen "$gen" --hex "$word" >"$tmp/v.txt" 2>&1 || { echo "FAIL: validate on $gen:"; cat "$tmp/v.txt"; fail=1; }
done
printf '{"memory": [{"at": "sbuf:0:0x1000", "dtype": "u32", "bits": ["0x12345678"]}]}\n' >"$tmp/init.json"  # dumped as 305419896
"$tool" run --gen mariana --init "$tmp/init.json" --hex "$word" --dump sbuf:0:0x1000:u32:1 >"$tmp/run.txt" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then echo "FAIL: run of SparsityCompress exited 0"; fail=1; fi
grep -q "SparsityCompress (0xe0)" "$tmp/run.txt" && grep -q "semantics are not public" "$tmp/run.txt" ||
  { echo "FAIL: run output does not say the semantics are not public:"; cat "$tmp/run.txt"; fail=1; }
grep -q "\[0\] 305419896" "$tmp/run.txt" || { echo "FAIL: the memory changed or was not dumped:"; cat "$tmp/run.txt"; fail=1; }
echo "sc_refused: $([ $fail -eq 0 ] && echo ok || echo failures)"
exit $fail
