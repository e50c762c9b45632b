#!/usr/bin/env bash
# The end-to-end check of a word whose semantics are not public: packed by hand at its offsets, disassembled and
# assembled back to the same word, valid on the generations that have it, and refused by `tpbisa run` naming the
# opcode, with the memory it would touch left as it was. Sourced by a family's e2e_*.sh after it sets:
#   tool (the tpbisa binary), word (the hex word), gen (the run's generation), gens (the generations it validates on),
#   who ("Mnemonic (0xNN)"), at (a dump address, e.g. sbuf:0:0x1000), short (the name the last line reports).
tool=$(realpath "$tool")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
text=$("$tool" disasm --gen "$gen" --hex "$word") || { echo "FAIL: disasm"; exit 1; }
case "$text" in "${who%% *} "*) ;; *) echo "FAIL: disasm gave: $text"; fail=1 ;; esac
printf '%s\n' "$text" >"$tmp/prog.tasm"
back=$("$tool" asm --gen "$gen" --hex "$tmp/prog.tasm") || { echo "FAIL: asm of: $text"; exit 1; }
[ "$back" = "$word" ] || { echo "FAIL: asm gave $back, want $word"; fail=1; }
for g in $gens; do
  "$tool" validate --gen "$g" --hex "$word" >"$tmp/v.txt" 2>&1 || { echo "FAIL: validate on $g:"; cat "$tmp/v.txt"; fail=1; }
done
printf '{"memory": [{"at": "%s", "dtype": "u32", "bits": ["0x12345678"]}]}\n' "$at" >"$tmp/init.json"  # dumped as 305419896
"$tool" run --gen "$gen" --init "$tmp/init.json" --hex "$word" --dump "$at:u32:1" >"$tmp/run.txt" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then echo "FAIL: run of $who exited 0"; fail=1; fi
grep -qF "$who" "$tmp/run.txt" && grep -q "semantics are not public" "$tmp/run.txt" ||
  { echo "FAIL: run output does not say the semantics are not public:"; cat "$tmp/run.txt"; fail=1; }
grep -q "\[0\] 305419896" "$tmp/run.txt" || { echo "FAIL: the memory changed or was not dumped:"; cat "$tmp/run.txt"; fail=1; }
echo "$short: $([ $fail -eq 0 ] && echo ok || echo failures)"
exit $fail
