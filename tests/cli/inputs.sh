#!/usr/bin/env bash
# Every command that reads words (decode, validate, disasm, lower, run) accepts the same inputs the same way:
# a file of words, a .tasm source, '-' for stdin, and --hex with one or more words per argument and per option.
set -u
tool=${1:?usage: inputs.sh TPBISA_BINARY SOURCE_DIR}
src=${2:?usage: inputs.sh TPBISA_BINARY SOURCE_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

load="TensorLoad dtype=u32 src_datasrc=REGISTER num_elem={2,2} start_addr=sbuf[p2]+0x100 step_elem={1,2} data={r1,r2,r3,r4}"
store="TensorStore dtype=u32 src_datasrc=IMMEDIATE num_elem={1,1} start_addr=dev:0x10000000 step_elem={1,1} data={42}"
printf '%s\n%s\n' "$load" "$store" >"$tmp/prog.tasm"
"$tool" asm "$tmp/prog.tasm" -o "$tmp/prog.bin" || fail "asm prog.tasm"
w1=$("$tool" asm --hex "$tmp/prog.tasm" | sed -n 1p)
w2=$("$tool" asm --hex "$tmp/prog.tasm" | sed -n 2p)
echo '{"vars": {}}' >"$tmp/vars.json"

# The words each command sees, in a form that does not depend on how they were given.
words_of() {  # COMMAND INPUT...
  local cmd=$1
  shift
  case "$cmd" in
    decode) "$tool" decode --json "$@" | python3 -c 'import json, sys; print(" ".join(i["word"] for i in json.load(sys.stdin)["instructions"]))' ;;
    validate) "$tool" validate --json "$@" | python3 -c 'import json, sys; print(" ".join(r["opcode"] + "@" + str(r["index"]) for r in json.load(sys.stdin)["results"]))' ;;
    disasm) "$tool" disasm "$@" ;;
    lower) "$tool" lower --vars "$tmp/vars.json" "$@" "$tmp/out.bin" >/dev/null && od -An -tx1 -v "$tmp/out.bin" | tr -d ' \n' ;;
    run) "$tool" run --json "$@" | python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["instructions"], d["retired"], d["regs"][1:5])' ;;
  esac
}

for cmd in decode validate disasm lower run; do
  want=$(words_of "$cmd" "$tmp/prog.bin")
  [ -n "$want" ] || fail "$cmd reads a file of words"
  [ "$(words_of "$cmd" "$tmp/prog.tasm")" = "$want" ] || fail "$cmd assembles a .tasm input first"
  [ "$(words_of "$cmd" - <"$tmp/prog.bin")" = "$want" ] || fail "$cmd reads stdin for '-'"
  [ "$(words_of "$cmd" --hex "$w1" "$w2")" = "$want" ] || fail "$cmd: --hex takes several arguments"
  [ "$(words_of "$cmd" --hex "$w1 $w2")" = "$want" ] || fail "$cmd: one --hex argument holds several words"
  [ "$(words_of "$cmd" --hex "$w1" --hex "$w2")" = "$want" ] || fail "$cmd: --hex is repeatable"
  [ "$(words_of "$cmd" --hex "0x${w1:0:64}_${w1:64} 0x$w2")" = "$want" ] || fail "$cmd: separators and 0x prefixes"
done

# A file after --hex is named as such, whatever the command; and a .tasm with errors is reported as by asm.
printf 'TensorLoad dtype=u9\n' >"$tmp/bad.tasm"
for cmd in decode validate disasm; do
  "$tool" "$cmd" --hex "$w1" "$tmp/prog.bin" >/dev/null 2>"$tmp/err"
  [ $? -eq 2 ] || fail "$cmd --hex W FILE is a usage error"
  grep -qF "'$tmp/prog.bin' after --hex is a file" "$tmp/err" || fail "$cmd names the file after --hex"
  "$tool" "$cmd" "$tmp/bad.tasm" >/dev/null 2>"$tmp/err"
  [ $? -eq 3 ] || fail "$cmd of a bad .tasm exits 3"
  grep -qF "$tmp/bad.tasm:1:18: error: unknown dtype" "$tmp/err" || fail "$cmd shows the assembly diagnostic"
done

# disasm -o writes a file that assembles back to the same bytes.
"$tool" disasm -o "$tmp/listing.tasm" "$tmp/prog.bin" || fail "disasm -o"
"$tool" asm "$tmp/listing.tasm" -o "$tmp/again.bin" && cmp -s "$tmp/prog.bin" "$tmp/again.bin" || fail "disasm -o round trip"

[ "$failures" -eq 0 ] || { echo "$failures input check(s) failed"; exit 1; }
echo "inputs.sh: all checks passed"
