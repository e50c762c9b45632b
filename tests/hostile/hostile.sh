#!/usr/bin/env bash
# The hostile-environment checks of docs/robustness.md: closed and full stdout/stderr, SIGPIPE, SIGTERM and SIGINT
# mid-write, device/FIFO/symlink outputs, /dev/zero as every input under a time and a memory bound. Every case
# asserts the exit code, the message and that no temporary file is left behind. Device nodes, FIFOs and symlinks
# are made here, in a scratch folder; no real /dev node is ever named as an output.
#
# Usage: hostile.sh TPBISA_BINARY SOURCE_DIR
set -u
tool=${1:?usage: hostile.sh TPBISA_BINARY SOURCE_DIR}
src=${2:?usage: hostile.sh TPBISA_BINARY SOURCE_DIR}
case "$tool" in /*) ;; *) tool="$PWD/$tool" ;; esac
src=$(cd "$src" && pwd) || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2
export LC_ALL=C
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

data="$src/tests/golden/_data"
vars="$data/vars.json"
# Peak RSS allowed for any case, in KiB: 512 MiB (twice that under AddressSanitizer, whose shadow memory counts).
limit_kb=$((512 * 1024))
grep -qa __asan_init "$tool" && limit_kb=$((2 * limit_kb))

# bounded SECONDS CMD...: runs CMD (stdout and stderr to out/err unless redirected inside) with a time bound;
# sets rc (124 when the time ran out) and rss (peak KiB).
bounded() {
  local seconds=$1
  shift
  /usr/bin/time -f '%M' -o rss.txt timeout -s TERM "$seconds" "$@" >out 2>err
  rc=$?
  rss=$(tail -n 1 rss.txt 2>/dev/null)
  case "$rss" in '' | *[!0-9]*) rss=0 ;; esac
}
expect() {  # WHAT RC [STDERR-FRAGMENT]
  [ "$rc" -eq "$2" ] || { fail "$1: exit $rc, expected $2"; sed 's/^/  stderr: /' err | head -5; }
  [ "$rss" -le "$limit_kb" ] || fail "$1: peak RSS $rss KiB over $limit_kb KiB"
  if [ -n "${3:-}" ]; then grep -qF -- "$3" err || { fail "$1: stderr lacks '$3'"; sed 's/^/  stderr: /' err | head -5; }; fi
  return 0
}
no_leftovers() {  # WHAT: no temporary output file anywhere under the scratch folder
  local left
  left=$(find "$tmp" -name '.*.tpbisa-*' | head -3)
  [ -z "$left" ] || { fail "$1: temporary files left behind: $left"; find "$tmp" -name '.*.tpbisa-*' -delete; }
}

# ---- closed and full stdout and stderr ----
for cmd in "decode $data/valid.bin" "validate $data/valid.bin" "disasm $data/valid.bin" "catalog" \
  "run $data/two_loads.bin" "asm --hex $src/tests/asm/tsm.tasm" "lower --vars $vars $data/pseudo.bin low.bin"; do
  name=${cmd%% *}
  # shellcheck disable=SC2086
  { "$tool" $cmd >/dev/full; } 2>err
  rc=$? rss=0
  expect "$name >/dev/full" 3 "<stdout>: write error: No space left on device"
  # shellcheck disable=SC2086
  { "$tool" $cmd >&-; } 2>err
  rc=$? rss=0
  expect "$name >&-" 3 "<stdout>: write error: Bad file descriptor"
  [ -e low.bin ] && fail "$name: lower wrote OUT although its report could not be written"
done
# An unwritable stderr keeps the documented exit code (it used to end in SIGABRT, exit 134).
for redirect in "2>/dev/full" "2>&-"; do
  eval "\"\$tool\" decode \"$tmp/no-such.bin\" $redirect"
  rc=$? rss=0
  expect "decode of a missing file $redirect" 3
  eval "\"\$tool\" run --frobnicate $redirect"
  rc=$? rss=0
  expect "usage error $redirect" 2
done
no_leftovers "closed and full streams"

# ---- SIGPIPE: a closed pipe is a write error, exit 3 (docs/cli.md), and the reading stops ----
# 131072 words: far more output than a pipe holds, so the reader closes it while the tool still writes.
python3 -c 'import sys; w = open(sys.argv[1], "rb").read(); open(sys.argv[2], "wb").write(w * (131072 * 64 // len(w)))' \
  "$data/valid.bin" bigger.bin
for cmd in decode validate disasm; do
  start=$(date +%s)
  "$tool" "$cmd" bigger.bin 2>err | head -c 10 >/dev/null
  rc=${PIPESTATUS[0]} rss=0
  expect "$cmd | head -c 10" 3 "<stdout>: write error: Broken pipe"
done
"$tool" decode /dev/zero 2>err | head -c 100 >/dev/null
rc=${PIPESTATUS[0]} rss=0
expect "decode /dev/zero | head: stops at the closed pipe" 3 "Broken pipe"

# ---- signals mid-write: the temporary output is removed, the old file stays ----
for sig in TERM INT HUP; do
  mkfifo in.fifo
  printf 'old' >out.bin
  # The input never ends: lower holds its temporary output open while it waits for words.
  (exec 3>in.fifo; cat "$data/pseudo.bin" >&3; sleep 30) &
  feeder=$!
  # A background job of a script starts with SIGINT ignored (and an ignored signal stays ignored, as for nohup):
  # give the tool the default disposition a terminal's foreground job has.
  python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
    "$tool" lower --vars "$vars" in.fifo out.bin >/dev/null 2>err &
  pid=$!
  for _ in $(seq 100); do [ -n "$(find . -name '.out.bin.tpbisa-*')" ] && break; sleep 0.1; done
  [ -n "$(find . -name '.out.bin.tpbisa-*')" ] || fail "SIG$sig: lower made no temporary file to test with"
  kill -"$sig" "$pid"
  wait "$pid" 2>/dev/null
  rc=$? rss=0
  kill "$feeder" 2>/dev/null
  wait "$feeder" 2>/dev/null
  want=$((128 + $(kill -l "$sig")))
  expect "lower killed by SIG$sig" "$want"
  [ "$(head -c 3 out.bin)" = old ] && [ "$(wc -c <out.bin)" -eq 3 ] || fail "SIG$sig: the old OUT was replaced"
  no_leftovers "lower killed by SIG$sig"
  rm -f in.fifo
done

# ---- outputs that are devices, FIFOs and symlinks ----
if [ "$(id -u)" = 0 ] && mknod null.dev c 1 3 2>/dev/null; then
  # As root OUT used to be replaced by a regular file even for a device (issue 10, B1).
  for cmd in "lower --vars $vars $data/pseudo.bin null.dev" "asm $src/tests/asm/tsm.tasm -o null.dev" \
    "disasm $data/valid.bin -o null.dev" "run $data/two_loads.bin --trace null.dev"; do
    # shellcheck disable=SC2086
    bounded 10 "$tool" $cmd
    expect "${cmd%% *} to a character device" 0
    [ -c null.dev ] || fail "${cmd%% *}: the character device was replaced"
  done
  no_leftovers "device outputs"
else
  echo "note: not root (or mknod refused): character-device outputs not checked"
fi
mkfifo out.fifo
timeout 20 cat out.fifo >fifo.got &
reader=$!
bounded 10 "$tool" lower --vars "$vars" "$data/pseudo.bin" out.fifo
wait "$reader"
expect "lower to a FIFO" 0
[ -p out.fifo ] || fail "the FIFO was replaced"
[ "$(wc -c <fifo.got)" -eq 192 ] || fail "the FIFO got $(wc -c <fifo.got) bytes, not 192"
printf 'old' >target.bin
chmod 640 target.bin
ln -s target.bin link.bin
bounded 10 "$tool" lower --vars "$vars" "$data/pseudo.bin" link.bin
expect "lower to a symlink" 0
[ -L link.bin ] || fail "the symlink was replaced by a file"
[ "$(wc -c <target.bin)" -eq 192 ] || fail "the symlink's target was not written"
[ "$(stat -c %a target.bin)" = 640 ] || fail "the target's mode changed to $(stat -c %a target.bin)"
ln -s missing/dir/x.bin dangling.bin
bounded 10 "$tool" asm "$src/tests/asm/tsm.tasm" -o dangling.bin
expect "asm to a dangling symlink" 3 "dangling.bin: is a symbolic link to nothing"
cp "$data/two_loads.bin" prog.bin
ln -s prog.bin alias.bin
bounded 10 "$tool" run prog.bin --trace alias.bin
expect "--trace naming the input through a symlink" 3 "alias.bin: is also an input (prog.bin); refusing to overwrite it"
cmp -s prog.bin "$data/two_loads.bin" || fail "the input was overwritten"
no_leftovers "FIFO and symlink outputs"

# ---- /dev/zero as every input: bounded time, bounded memory, a clear error or a clean stop ----
ln -s /dev/zero zero.tasm
ln -s /dev/zero zero.json
bounded 3 "$tool" decode /dev/zero
[ "$rc" -eq 124 ] && rc=0  # a stream of words decodes forever in constant memory: stopped by the time bound
expect "decode /dev/zero (streamed)" 0
bounded 3 "$tool" validate --quiet /dev/zero
[ "$rc" -eq 124 ] && rc=0
expect "validate /dev/zero (streamed)" 0
# Every word invalid, so every chunk's list fills; /dev/zero is read 1 MiB at a time: blocks of 4 chunks.
bounded 2 "$tool" validate --quiet --jobs 16 /dev/zero
[ "$rc" -eq 124 ] && rc=0
expect "validate --jobs 16 /dev/zero (streamed)" 0
bounded 30 "$tool" asm /dev/zero -o zero.bin
expect "asm /dev/zero" 3 "/dev/zero: larger than 67108864 bytes (64 MiB), the most an assembly source may have"
[ -e zero.bin ] && fail "asm /dev/zero left zero.bin"
for cmd in decode validate disasm; do
  bounded 30 "$tool" "$cmd" zero.tasm
  expect "$cmd zero.tasm" 3 "zero.tasm: larger than 67108864 bytes"
done
bounded 30 "$tool" run zero.tasm
expect "run zero.tasm" 3 "zero.tasm: larger than 67108864 bytes"
bounded 30 "$tool" run /dev/zero
expect "run /dev/zero" 3 "/dev/zero: more than 1048576 instructions at offset 67108864 (instruction 1048576)"
bounded 30 "$tool" lower --vars "$vars" /dev/zero zero.bin
expect "lower /dev/zero" 3 "/dev/zero: more than 1048576 words at offset 67108864"
[ -e zero.bin ] && fail "lower /dev/zero left zero.bin"
bounded 30 "$tool" run "$data/two_loads.bin" --init /dev/zero
expect "run --init /dev/zero" 3 "/dev/zero: larger than 16777216 bytes (16 MiB), the most a JSON input may have"
bounded 30 "$tool" run "$data/two_loads.bin" --vars zero.json
expect "run --vars /dev/zero" 3 "zero.json: larger than 16777216 bytes"
bounded 30 "$tool" lower --vars /dev/zero "$data/pseudo.bin" zero.bin
expect "lower --vars /dev/zero" 3 "/dev/zero: larger than 16777216 bytes"
bounded 3 "$tool" disasm /dev/zero -o zero.out
[ "$rc" -eq 124 ] && rc=0
expect "disasm /dev/zero -o FILE (streamed, then stopped by SIGTERM)" 0
[ -e zero.out ] && fail "disasm stopped by SIGTERM left zero.out"
no_leftovers "/dev/zero inputs"
rm -f zero.out

# ---- dumps: bounded in all, streamed each ----
dump="--dump dev:0x10000000:u64:4194304"
# shellcheck disable=SC2086
bounded 30 "$tool" run "$data/two_loads.bin" $dump $dump $dump --json
expect "three 4 Mi-element dumps" 2 "the dumps show more than 4194304 elements in all (--max-dump-elements)"
# shellcheck disable=SC2086
bounded 60 "$tool" run "$data/two_loads.bin" $dump --json
expect "one 4 Mi-element dump, streamed" 0
[ "$(head -c 200 out | cut -c1-10)" = '{"status":' ] || fail "the streamed dump is not the JSON document"
# shellcheck disable=SC2086
bounded 60 "$tool" run "$data/two_loads.bin" $dump
expect "one 4 Mi-element dump as text" 0

[ "$failures" -eq 0 ] || { echo "$failures hostile-environment check(s) failed"; exit 1; }
echo "hostile.sh: all checks passed"
