#!/usr/bin/env bash
# CLI checks of the block loop of validate and decode: invalid words at the edges of a 4096-word block and of an
# 8 MiB mapped window, the same output from a mapped file, a pipe, a redirected stdin and word-at-a-time --hex input,
# --gen all judged in the same pass, and the same output for every --jobs count.
set -u
tool=${1:?usage: blocks.sh TPBISA_BINARY SOURCE_DIR}
src=${2:?usage: blocks.sh TPBISA_BINARY SOURCE_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
words="$src/tests/cli/data/make_words.py"

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

load=$(python3 "$words" --hex load)                      # TensorLoad, valid on every generation
bad=$(python3 "$words" --hex mixed | sed -n 2p)          # TensorLoad 6 x 6: invalid on every generation
# Vector 166: a TensorScalarPtrMultiDualArith (0x87) valid on SUNDA, where alone the opcode exists.
dual=$(awk -F'\t' '$1 == "166" && $3 == "valid" { print $6 }' "$src/tests/vectors/validate.tsv")
nop=$(python3 "$words" --hex valid | sed -n 2p)          # EngineNop: header-only

# make N OUT [TRAILING]: N words, TensorLoad except an invalid one at each block edge (0, 4095, 4096, 8191, 8192,
# 131071, 131072 and the last), 0x87 at 2 and 4094, EngineNop at 3 and 4093; TRAILING extra bytes after them.
make() {
  python3 - "$1" "$2" "${3:-0}" "$load" "$bad" "$dual" "$nop" <<'PY'
import sys
n, out, trailing = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
load, bad, dual, nop = (bytes.fromhex(h) for h in sys.argv[4:8])
ws = [load] * n
for i in (0, 4095, 4096, 8191, 8192, 131071, 131072, n - 1):
    if 0 <= i < n:
        ws[i] = bad
for i in (2, 4094):
    if i < n:
        ws[i] = dual
for i in (3, 4093):
    if i < n:
        ws[i] = nop
with open(out, "wb") as f:
    f.write(b"".join(ws) + b"\x11" * trailing)
PY
}

# same NAME CMD...: the command on FILE, on `cat FILE |` and on `< FILE` give the same stdout, stderr and exit code
# (FILE is the last argument; '-' replaces it for the two stdin forms).
same() {
  local name=$1
  shift
  local file=${*: -1}
  local args=("${@:1:$#-1}")
  "$tool" "${args[@]}" "$file" >"$tmp/f.out" 2>"$tmp/f.err"
  echo $? >"$tmp/f.rc"
  cat "$file" | "$tool" "${args[@]}" - >"$tmp/p.out" 2>"$tmp/p.err"
  echo "${PIPESTATUS[1]}" >"$tmp/p.rc"
  "$tool" "${args[@]}" - <"$file" >"$tmp/r.out" 2>"$tmp/r.err"
  echo $? >"$tmp/r.rc"
  # The stdin forms name the input <stdin>; everything else is the same to the byte.
  sed -i "s|$file|<stdin>|g" "$tmp/f.out" "$tmp/f.err"
  for k in out err rc; do
    cmp -s "$tmp/f.$k" "$tmp/p.$k" || { fail "$name: file and pipe differ ($k)"; diff "$tmp/f.$k" "$tmp/p.$k" | head -5; }
    cmp -s "$tmp/f.$k" "$tmp/r.$k" || { fail "$name: file and < file differ ($k)"; diff "$tmp/f.$k" "$tmp/r.$k" | head -5; }
  done
}

# as_hex FILE: one --hex argument per word, so the words come one at a time.
as_hex() {
  python3 -c 'import sys; b = open(sys.argv[1], "rb").read(); print(" ".join(b[i:i + 64].hex() for i in range(0, len(b), 64)))' "$1"
}

# same_as_hex NAME CMD...: the command on FILE and on its words given one at a time as --hex print the same.
same_as_hex() {
  local name=$1
  shift
  local file=${*: -1}
  local args=("${@:1:$#-1}")
  "$tool" "${args[@]}" "$file" >"$tmp/f.out" 2>"$tmp/f.err"
  local frc=$?
  # shellcheck disable=SC2046
  "$tool" "${args[@]}" $(as_hex "$file" | sed 's/[0-9a-f]\{128\}/--hex &/g') >"$tmp/h.out" 2>"$tmp/h.err"
  local hrc=$?
  [ "$frc" -eq "$hrc" ] || fail "$name: file exit $frc, --hex exit $hrc"
  cmp -s "$tmp/f.out" "$tmp/h.out" || { fail "$name: file and --hex differ"; diff "$tmp/f.out" "$tmp/h.out" | head -5; }
}

expect_lines() {  # NAME FILE EXPECTED: the lines of FILE that start with '#', exactly
  local got
  got=$(grep '^#' "$2" | awk '{ print $1, $2, $3, $4, $5 }')
  [ "$got" = "$3" ] || { fail "$1: the printed words"; diff <(echo "$3") <(echo "$got") | head -10; }
}

for n in 4095 4096 4097; do
  make "$n" "$tmp/w$n.bin"
  same "validate --quiet $n" validate --quiet --gen cayman "$tmp/w$n.bin"
  same "validate $n" validate --gen cayman "$tmp/w$n.bin"
  same "validate --json --quiet $n" validate --json --quiet "$tmp/w$n.bin"
  same "validate --gen all --quiet $n" validate --gen all --quiet "$tmp/w$n.bin"
  same_as_hex "validate --quiet $n" validate --quiet --gen cayman "$tmp/w$n.bin"
  same_as_hex "validate --gen all --quiet $n" validate --gen all --quiet "$tmp/w$n.bin"
done

# Every invalid word is printed, and only those, with its own index and offset across the block edges.
"$tool" validate --quiet --gen cayman "$tmp/w4097.bin" >"$tmp/out"
[ $? -eq 1 ] || fail "validate --quiet 4097: exit code"
expect_lines "validate --quiet 4097" "$tmp/out" "#0 0x0 0xaa TensorLoad invalid
#2 0x80 0x87 unknown invalid
#4094 0x3ff80 0x87 unknown invalid
#4095 0x3ffc0 0xaa TensorLoad invalid
#4096 0x40000 0xaa TensorLoad invalid"
grep -qxF "4097 checked, 4090 valid, 5 invalid, 2 header-only" "$tmp/out" || fail "validate --quiet 4097: summary"

# --gen all: one matrix row per word that fails anywhere, the SUNDA-valid 0x87 as ok on sunda only.
"$tool" validate --gen all --quiet "$tmp/w4097.bin" >"$tmp/out"
grep -q '^#4094 .*0x87 *TensorScalarPtrMultiDualArith  *ok  *FAIL  *FAIL  *FAIL$' "$tmp/out" || { fail "--gen all: the 0x87 row"; grep '^#4094' "$tmp/out"; }
grep -q '^#4096 .*FAIL  *FAIL  *FAIL  *FAIL$' "$tmp/out" || fail "--gen all: the row at the block edge"
grep -qxF "4097 checked, 4090 valid, 5 invalid, 2 header-only" "$tmp/out" || fail "--gen all: summary"
"$tool" validate --gen all --json "$tmp/w4097.bin" >"$tmp/out"
python3 - "$tmp/out" <<'PY' || fail "--gen all --json: per-generation counts"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
assert s["checked"] == 4097 and s["invalid"] == 5, s
assert s["per_generation"]["sunda"] == {"valid": 4092, "invalid": 3, "header_only": 2}, s
assert s["per_generation"]["maverick"] == {"valid": 4090, "invalid": 5, "header_only": 2}, s
assert [r["index"] for r in d["results"]][4094:] == [4094, 4095, 4096]
assert d["results"][4096]["offset"] == 4096 * 64
PY

# Past the 8 MiB window of a mapped file (131072 words) and past a pipe's 1 MiB reads.
make 131073 "$tmp/big.bin"
same "validate --quiet 131073" validate --quiet --gen cayman "$tmp/big.bin"
same "validate --gen all --quiet 131073" validate --gen all --quiet "$tmp/big.bin"
"$tool" validate --quiet --gen cayman "$tmp/big.bin" >"$tmp/out"
expect_lines "validate --quiet 131073" "$tmp/out" "#0 0x0 0xaa TensorLoad invalid
#2 0x80 0x87 unknown invalid
#4094 0x3ff80 0x87 unknown invalid
#4095 0x3ffc0 0xaa TensorLoad invalid
#4096 0x40000 0xaa TensorLoad invalid
#8191 0x7ffc0 0xaa TensorLoad invalid
#8192 0x80000 0xaa TensorLoad invalid
#131071 0x7fffc0 0xaa TensorLoad invalid
#131072 0x800000 0xaa TensorLoad invalid"

# --quiet counts from the batch and gathers only the invalid words; the full listing judges every word: --quiet
# prints exactly the failing words of the full listing, with the same verdicts and the same summary, on one
# generation and on four, in text and in JSON, within a block, across block edges and past a mapped window.
quiet_is_filtered() {  # NAME FILE GEN (a generation or all)
  local name=$1 file=$2
  shift 2
  local gens=()
  for g in "$@"; do gens+=(--gen "$g"); done
  "$tool" validate "${gens[@]}" --json "$file" >"$tmp/full.json"
  "$tool" validate "${gens[@]}" --json --quiet "$file" >"$tmp/quiet.json"
  python3 - "$tmp/full.json" "$tmp/quiet.json" <<'PY' || fail "$name: --json --quiet is not the failing words of --json"
import json, sys
full, quiet = (json.load(open(p)) for p in sys.argv[1:3])
failing = [r for r in full["results"] if any(not v["valid"] for v in r["verdicts"].values())]
assert failing, "the file has failing words"
assert quiet["results"] == failing, (len(quiet["results"]), len(failing))
assert quiet["summary"] == full["summary"], (quiet["summary"], full["summary"])
PY
  "$tool" validate "${gens[@]}" "$file" >"$tmp/full.txt"
  "$tool" validate "${gens[@]}" --quiet "$file" >"$tmp/quiet.txt"
  # Text: one generation marks a failing word "invalid", several a FAIL in its matrix row; the failure lines under
  # a word (indented) and the matrix's failure sections are kept.
  if [ "$1" != all ]; then
    grep -v -E '^#[0-9]+ .* (valid|header-only)$' "$tmp/full.txt" >"$tmp/filtered.txt"
  else
    awk '!/^#[0-9]+ / || / FAIL( |$)/' "$tmp/full.txt" >"$tmp/filtered.txt"
  fi
  cmp -s "$tmp/filtered.txt" "$tmp/quiet.txt" ||
    { fail "$name: --quiet is not the failing lines of the full listing"; diff "$tmp/filtered.txt" "$tmp/quiet.txt" | head -10; }
}
for n in 4095 4097; do
  quiet_is_filtered "quiet = filtered, cayman, $n" "$tmp/w$n.bin" cayman
  quiet_is_filtered "quiet = filtered, sunda, $n" "$tmp/w$n.bin" sunda
  quiet_is_filtered "quiet = filtered, all, $n" "$tmp/w$n.bin" all
done
quiet_is_filtered "quiet = filtered, cayman, 131073" "$tmp/big.bin" cayman
quiet_is_filtered "quiet = filtered, all, 131073" "$tmp/big.bin" all
# Every word of the verdict vectors, valid and invalid, over every format (one block): the same on each generation.
python3 - "$src/tests/vectors/validate.tsv" "$tmp/vectors.bin" <<'PY'
import sys
words = []
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if not line.startswith("#") and len(f) >= 6 and len(f[5]) == 128:
        words.append(bytes.fromhex(f[5]))
open(sys.argv[2], "wb").write(b"".join(words))
PY
for g in sunda cayman mariana maverick; do
  quiet_is_filtered "quiet = filtered, vectors, $g" "$tmp/vectors.bin" "$g"
done
quiet_is_filtered "quiet = filtered, vectors, all" "$tmp/vectors.bin" all

# A partial last word: the words before it are judged, then the same error at the same instruction.
for t in 1 63; do
  make 4097 "$tmp/t$t.bin" "$t"
  same "validate, $t trailing bytes" validate --quiet --gen cayman "$tmp/t$t.bin"
  same "decode, $t trailing bytes" decode "$tmp/t$t.bin"
  "$tool" validate --quiet --gen cayman "$tmp/t$t.bin" >"$tmp/out" 2>"$tmp/err"
  [ $? -eq 3 ] || fail "$t trailing bytes: exit code"
  grep -qF "at offset 262208 do not form a 64-byte instruction (instruction 4097)" "$tmp/err" ||
    { fail "$t trailing bytes: the message"; cat "$tmp/err"; }
  grep -qxF "4097 checked, 4090 valid, 5 invalid, 2 header-only" "$tmp/out" || fail "$t trailing bytes: summary"
done

# --jobs: with --quiet a block of 65536 words is judged as 16 chunks of 4096 on several threads and the chunks'
# invalid words joined in order; every thread count prints the same to the byte, from a file and from a pipe, with
# the same exit code, also when the input ends in a partial word. The file of many chunks has an invalid word every
# 997 words (and the block-edge ones), so every chunk of every block has some.
python3 - "$tmp/many.bin" "$load" "$bad" "$dual" <<'PY'
import sys
out, load, bad, dual = sys.argv[1], *(bytes.fromhex(h) for h in sys.argv[2:5])
n = 3 * 65536 + 4097
ws = [load] * n
for i in range(0, n, 997):
    ws[i] = bad
for i in range(500, n, 1499):
    ws[i] = dual
for i in (4095, 4096, 65535, 65536, 131071, 131072, n - 1):
    ws[i] = bad
open(out, "wb").write(b"".join(ws))
PY
jobs_same() {  # NAME CMD...: --jobs 1 against 2, 3 and 16, from the file and from a pipe (FILE last)
  local name=$1
  shift
  local file=${*: -1}
  local args=("${@:1:$#-1}")
  "$tool" "${args[@]}" --jobs 1 "$file" >"$tmp/j1.out" 2>"$tmp/j1.err"
  local rc1=$?
  for j in 2 3 16; do
    "$tool" "${args[@]}" --jobs "$j" "$file" >"$tmp/jn.out" 2>"$tmp/jn.err"
    local rcn=$?
    [ "$rc1" -eq "$rcn" ] || fail "$name: --jobs 1 exit $rc1, --jobs $j exit $rcn"
    cmp -s "$tmp/j1.out" "$tmp/jn.out" || { fail "$name: --jobs 1 and --jobs $j differ"; diff "$tmp/j1.out" "$tmp/jn.out" | head -5; }
    cmp -s "$tmp/j1.err" "$tmp/jn.err" || fail "$name: --jobs 1 and --jobs $j differ on stderr"
    cat "$file" | "$tool" "${args[@]}" --jobs "$j" - >"$tmp/jp.out" 2>/dev/null
    sed "s|$file|<stdin>|g" "$tmp/j1.out" >"$tmp/j1s.out"
    cmp -s "$tmp/j1s.out" "$tmp/jp.out" || { fail "$name: --jobs $j from a pipe differs"; diff "$tmp/j1s.out" "$tmp/jp.out" | head -5; }
  done
}
jobs_same "jobs, cayman" validate --quiet --gen cayman "$tmp/many.bin"
jobs_same "jobs, sunda" validate --quiet --gen sunda "$tmp/many.bin"
jobs_same "jobs, all" validate --quiet --gen all "$tmp/many.bin"
jobs_same "jobs, json" validate --quiet --json "$tmp/many.bin"
jobs_same "jobs, json all" validate --quiet --json --gen all "$tmp/many.bin"
jobs_same "jobs, 131073" validate --quiet --gen all "$tmp/big.bin"
jobs_same "jobs, 4097" validate --quiet --gen cayman "$tmp/w4097.bin"
jobs_same "jobs, vectors" validate --quiet --gen all "$tmp/vectors.bin"
jobs_same "jobs, trailing bytes" validate --quiet --gen cayman "$tmp/t63.bin"
"$tool" validate --quiet --gen cayman --jobs 2 "$tmp/many.bin" >"$tmp/out"
[ $? -eq 1 ] || fail "jobs: exit code"
# The invalid words: every 997th, the SUNDA-only 0x87 every 1499th from 500, and the block-edge ones.
expected=$(python3 -c '
n = 3 * 65536 + 4097
bad = set(range(0, n, 997)) | set(range(500, n, 1499)) | {4095, 4096, 65535, 65536, 131071, 131072, n - 1}
print(f"{n} checked, {n - len(bad)} valid, {len(bad)} invalid, 0 header-only")')
grep -qxF "$expected" "$tmp/out" || { fail "jobs: summary"; tail -1 "$tmp/out"; echo "expected $expected"; }
[ "$(grep -c '^#' "$tmp/out")" -eq "$(echo "$expected" | awk '{ print $5 }')" ] || fail "jobs: one line per invalid word"
grep -q '^#131072 0x800000 0xaa TensorLoad  invalid' "$tmp/out" || fail "jobs: the word at the third block's start"
# Without --quiet (a line per word) the count changes nothing either; out of range is a usage error.
"$tool" validate --gen cayman --jobs 3 "$tmp/w4097.bin" >"$tmp/j3.txt"
"$tool" validate --gen cayman --jobs 1 "$tmp/w4097.bin" >"$tmp/j1.txt"
cmp -s "$tmp/j1.txt" "$tmp/j3.txt" || fail "jobs: the full listing depends on --jobs"
for j in 0 17 x ""; do
  "$tool" validate --quiet --jobs "$j" "$tmp/w4097.bin" >"$tmp/out" 2>"$tmp/err"
  [ $? -eq 2 ] || fail "--jobs '$j': not a usage error"
  grep -q -- "--jobs" "$tmp/err" || { fail "--jobs '$j': the message does not name the option"; cat "$tmp/err"; }
  [ -s "$tmp/out" ] && fail "--jobs '$j': printed before the usage error"
done
grep -qF -- "--jobs '' is not a number" "$tmp/err" || { fail "--jobs '': the message"; cat "$tmp/err"; }
"$tool" validate --quiet --jobs 17 "$tmp/w4097.bin" 2>&1 >/dev/null | grep -qF -- "--jobs '17' is out of range 1..16" ||
  fail "--jobs 17: the message"

# decode: the same blocks from a file, a pipe and word-at-a-time --hex.
same "decode 4097" decode "$tmp/w4097.bin"
same "decode --json 4097" decode --json "$tmp/w4097.bin"
same_as_hex "decode 4097" decode "$tmp/w4097.bin"
"$tool" decode "$tmp/w4097.bin" >"$tmp/out"
grep -qxF "#4096  offset 0x40000  0xaa TensorLoad  MEM_2D" "$tmp/out" || fail "decode: the word at the block edge"
[ "$(grep -c '^#' "$tmp/out")" -eq 4097 ] || fail "decode: one block per word"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "blocks: all checks passed"
