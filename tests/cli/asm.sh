#!/usr/bin/env bash
# CLI checks for `tpbisa asm` and `tpbisa disasm`: outputs, goldens, round trips, errors and exit codes.
set -u
tool=${1:?usage: asm.sh TPBISA_BINARY SOURCE_DIR}
src=${2:?usage: asm.sh TPBISA_BINARY SOURCE_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
run() { "$tool" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
expect_rc() { [ "$rc" -eq "$1" ] || { fail "$2: exit $rc, expected $1"; sed 's/^/  stderr: /' "$tmp/err"; }; }
expect_out() { grep -qF -- "$1" "$tmp/out" || fail "$2: stdout lacks '$1'"; }
expect_err() { grep -qF -- "$1" "$tmp/err" || { fail "$2: stderr lacks '$1'"; sed 's/^/  stderr: /' "$tmp/err"; }; }

load="TensorLoad \$S[11]>0 \$S[22]++@complete dtype=u32 src_datasrc=REGISTER num_elem={2,2} start_addr=sbuf[p2]+0x100 step_elem={1,2} data={r1,r2,r3,r4}"
load_hex=aa100000040b131600000000090002020001080000000000010000000200000001020304$(printf '%056d' 0)

# ---- asm: the default output is IN with .tasm replaced by .bin ----
printf '%s\n' "$load" >"$tmp/prog.tasm"
run asm --gen cayman "$tmp/prog.tasm"
expect_rc 0 "asm prog.tasm"
[ -f "$tmp/prog.bin" ] || fail "asm writes prog.bin next to prog.tasm"
[ "$(od -An -tx1 -v "$tmp/prog.bin" | tr -d ' \n')" = "$load_hex" ] || fail "prog.bin holds the word"
run asm "$tmp/prog.tasm" -o "$tmp/other.out"
expect_rc 0 "asm -o"
cmp -s "$tmp/prog.bin" "$tmp/other.out" || fail "-o names the output"
cp "$tmp/prog.tasm" "$tmp/noext"
run asm "$tmp/noext"
[ -f "$tmp/noext.bin" ] || fail "a name without .tasm gets .bin appended"
run asm --hex "$tmp/prog.tasm"
expect_rc 0 "asm --hex"
[ "$(cat "$tmp/out")" = "$load_hex" ] || fail "--hex prints the word"
"$tool" asm -o - - <"$tmp/prog.tasm" >"$tmp/stdout.bin" 2>"$tmp/err" || fail "asm - -o - exits 0"
cmp -s "$tmp/prog.bin" "$tmp/stdout.bin" || fail "stdin to stdout"

# ---- disasm prints the canonical text back ----
run disasm --gen cayman "$tmp/prog.bin"
expect_rc 0 "disasm prog.bin"
[ "$(cat "$tmp/out")" = "$load" ] || fail "disasm prints the canonical line: $(cat "$tmp/out")"
run disasm --gen cayman --hex "$load_hex" --hex "$load_hex"
[ "$(wc -l <"$tmp/out")" -eq 2 ] || fail "two --hex words, two lines"
run disasm --gen cayman "$tmp/prog.bin" "$tmp/other.out"
expect_out "; == $tmp/prog.bin ==" "several files are headed by a comment"
cp "$tmp/out" "$tmp/listing.tasm"
run asm --gen cayman --hex "$tmp/listing.tasm"
[ "$(wc -l <"$tmp/out")" -eq 2 ] || fail "the headed listing still assembles"

# A .tasm input is assembled and printed in canonical form.
printf 'tensorload dtype=UINT32 num_elem={2,2} start_addr=0x80100 step_elem={1,2} data={r1,r2,r3,r4} $S[22]++@complete $S[0xb]>0\n' \
  >"$tmp/loose.tasm"
run disasm --gen cayman "$tmp/loose.tasm"
expect_rc 0 "disasm of a .tasm source"
[ "$(cat "$tmp/out")" = "$load" ] || fail "a .tasm source prints canonically: $(cat "$tmp/out")"
printf 'TensorLoad dtype=u9\n' >"$tmp/broken.tasm"
run disasm "$tmp/broken.tasm"
expect_rc 3 "disasm of a .tasm source with errors"
expect_err "$tmp/broken.tasm:1:18: error: unknown dtype" "its diagnostic"
expect_err "tpbisa: error: $tmp/broken.tasm: 1 error in the assembly source" "its summary"

# Verdicts: by default a failing word names its predicates; --no-verdicts leaves the comment out.
bad=aa0f$(printf '%0124d' 0)
run disasm --hex "$bad"
expect_rc 0 "an invalid word is not an error for disasm"
expect_out "  ; INVALID on mariana: has_valid_neuron_header" "verdict comment"
run disasm --no-verdicts --hex "$bad"
grep -q INVALID "$tmp/out" && fail "--no-verdicts prints no verdict"

# The example stream round-trips on every generation, byte for byte.
for gen in sunda cayman mariana maverick; do
  "$tool" disasm --gen "$gen" "$src/examples/stream.bin" >"$tmp/stream.tasm" || fail "disasm stream.bin on $gen"
  "$tool" asm --gen "$gen" "$tmp/stream.tasm" -o "$tmp/stream.bin" || fail "asm stream.tasm on $gen"
  cmp -s "$tmp/stream.bin" "$src/examples/stream.bin" || fail "stream.bin round trip on $gen"
done

# examples/demo.bin is the demo program, examples/demo.tasm assembled for CAYMAN (as make demo does).
"$tool" asm --gen cayman "$src/examples/demo.tasm" -o "$tmp/demo.bin" || fail "asm examples/demo.tasm"
cmp -s "$tmp/demo.bin" "$src/examples/demo.bin" || fail "examples/demo.bin is not examples/demo.tasm assembled"

# Every golden source gives its bytes and its canonical text through the command too.
for tasm in "$src"/tests/asm/*.tasm; do
  case "$tasm" in *.canon.tasm) continue ;; esac
  name=${tasm%.tasm}
  gen=$(sed -n 's/^; gen: *\([a-z0-9]*\).*/\1/p' "$tasm" | head -n 1)
  "$tool" asm --gen "${gen:-mariana}" --hex "$tasm" >"$tmp/g.hex" || fail "asm $(basename "$tasm")"
  cmp -s "$tmp/g.hex" "$name.hex" || fail "$(basename "$tasm"): bytes differ from $(basename "$name").hex"
  args=()
  while read -r w; do args+=(--hex "$w"); done <"$name.hex"
  "$tool" disasm --gen "${gen:-mariana}" "${args[@]}" >"$tmp/g.canon" || fail "disasm $(basename "$name").hex"
  cmp -s "$tmp/g.canon" "$name.canon.tasm" || fail "$(basename "$tasm"): text differs from $(basename "$name").canon.tasm"
done

# ---- errors ----
printf '; two errors\nTensorLoad dtype=u32 num_elem={300,1}\n%s\nTensorLod\n' "$load" >"$tmp/bad.tasm"
run asm "$tmp/bad.tasm"
expect_rc 3 "assembly errors exit 3"
expect_err "$tmp/bad.tasm:2:32: error: \`num_elem[0]\`: 300 is out of range 0..255" "first error located"
expect_err "$tmp/bad.tasm:4:1: error: unknown mnemonic \`TensorLod\`; did you mean \`TensorLoad\`?" "second error"
expect_err "                               ^~~" "caret line"
expect_err "tpbisa: error: $tmp/bad.tasm: 2 errors; nothing written" "summary line"
[ -e "$tmp/bad.bin" ] && fail "nothing is written on errors"

for i in $(seq 1 30); do echo "Bogus$i"; done >"$tmp/many.tasm"
run asm "$tmp/many.tasm"
expect_rc 3 "many errors"
[ "$(grep -c ': error: unknown mnemonic' "$tmp/err")" -eq 20 ] || fail "at most 20 errors are printed"
expect_err "30 errors (the first 20 shown); nothing written" "the count names them all"

run asm "$tmp/missing.tasm"
expect_rc 3 "missing input"
expect_err "tpbisa: error: $tmp/missing.tasm: cannot open: No such file or directory" "missing input message"
run asm - </dev/null
expect_rc 2 "stdin without -o"
expect_err "asm: reading stdin: name the output with -o OUT.bin (or -o - for stdout)" "stdin usage message"
run asm --hex "$tmp/prog.tasm" -o "$tmp/x.bin"
expect_rc 2 "--hex with -o"
run asm "$tmp/prog.tasm" -o "$tmp/no/such/dir.bin"
expect_rc 3 "unwritable output"
expect_err "cannot create" "unwritable output message"
run asm --gen bogus "$tmp/prog.tasm"
expect_rc 2 "unknown generation"
run disasm
expect_rc 2 "disasm without input"
run disasm --hex aa10
expect_rc 3 "disasm bad hex"
expect_err "tpbisa: error: --hex #1: expected 128 hex digits, got 4 (instruction 0, offset 0)" "disasm hex error"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "asm.sh: all checks passed"
