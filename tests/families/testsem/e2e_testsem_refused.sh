#!/usr/bin/env bash
# TEST_EVENT_SEM end to end: a word packed by hand at the wiki's offsets, disassembled and assembled back to the same word,
# validated on the generations that have it, and refused by `tpbisa run` (its semantics are not public, PROJ-CONV-TS3) with
# the memory it would touch left as it was.
set -u
tool=${1:?usage: e2e_testsem_refused.sh TPBISA_BINARY SOURCE_DIR}
tool=$(realpath "$tool")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# opcode 0xB4; READ_SEM at 12; 2 slots at 15; semaphores 3 and 7 at 16-17 into registers 1 and 2 at 32-33.
word=$(/usr/bin/python3 -c '
import struct
w = bytearray(64)
struct.pack_into("<BB", w, 0, 0xB4, 16)
w[15], w[16], w[17], w[32], w[33] = 2, 3, 7, 1, 2
print(w.hex())')
text=$("$tool" disasm --gen mariana --hex "$word") || { echo "FAIL: disasm"; exit 1; }
case "$text" in TestEventSem\ *) ;; *) echo "FAIL: disasm gave: $text"; fail=1 ;; esac
printf '%s\n' "$text" >"$tmp/prog.tasm"
back=$("$tool" asm --gen mariana --hex "$tmp/prog.tasm") || { echo "FAIL: asm of: $text"; exit 1; }
[ "$back" = "$word" ] || { echo "FAIL: asm gave $back, want $word"; fail=1; }
for gen in mariana maverick; do
  "$tool" validate --gen "$gen" --hex "$word" >"$tmp/v.txt" 2>&1 || { echo "FAIL: validate on $gen:"; cat "$tmp/v.txt"; fail=1; }
done
printf '{"memory": [{"at": "sbuf:0:0x0", "dtype": "u32", "bits": ["0x12345678"]}]}\n' >"$tmp/init.json"  # dumped as 305419896
"$tool" run --gen mariana --init "$tmp/init.json" --hex "$word" --dump sbuf:0:0x0:u32:1 >"$tmp/run.txt" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then echo "FAIL: run of TestEventSem exited 0"; fail=1; fi
grep -q "TestEventSem (0xb4)" "$tmp/run.txt" && grep -q "semantics are not public" "$tmp/run.txt" ||
  { echo "FAIL: run output does not say the semantics are not public:"; cat "$tmp/run.txt"; fail=1; }
grep -q "\[0\] 305419896" "$tmp/run.txt" || { echo "FAIL: the memory changed or was not dumped:"; cat "$tmp/run.txt"; fail=1; }
echo "testsem_refused: $([ $fail -eq 0 ] && echo ok || echo failures)"
exit $fail
