#!/usr/bin/env bash
# `neff extract` stopped by a real signal mid-write leaves no partial folder: a generated NEFF of 2,000 members is
# extracted, SIGTERM, SIGHUP or SIGINT is sent once the staging folder beside DIR holds files, and then neither DIR nor
# the staging folder may remain (an empty DIR given beforehand stays as it was); the exit status is the signal's.
set -u
tool=${1:?usage: neff_extract_signal.sh TPBISA_BINARY SOURCE_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cd "$tmp" || exit 1

# 4 folders of 500 members each (half in a subfolder): long enough to write that the signal lands while the staging
# tree is filled (the test waits for files in the staging folder, then signals).
python3 - <<'EOF'
import os
os.makedirs("src")
with open("src/kelf-0.json", "w") as f:
    f.write('{"graphs": [], "target": "cayman"}')
for d in range(4):
    os.makedirs(f"src/d{d:02d}/sub")
    for i in range(500):
        path = f"src/d{d:02d}/{'sub/' if i % 2 else ''}m{i:04d}.bin"
        with open(path, "wb") as f:
            f.write(bytes([d, i % 256]) * 512)
EOF
"$tool" neff pack src big.neff >/dev/null || { echo "FAIL: cannot pack the generated NEFF"; exit 1; }
rm -rf src

staging() { compgen -G ".out.partial-*" >/dev/null; }
# Mid-write: the staging tree already holds files two folders deep.
filling() { compgen -G ".out.partial-*/d00/sub/m*.bin" >/dev/null; }

# One extract stopped by SIG$1 ("empty": into an existing empty folder). Prints "caught", "finished" (the extract
# ended before the signal could land; the caller retries) or "failed".
attempt() {
  local sig=$1 pre=$2 rc
  rm -rf out .out.partial-*
  [ "$pre" = empty ] && mkdir out
  # A background job of a script starts with SIGINT ignored (and an ignored signal stays ignored, as for nohup):
  # give the tool the default disposition a terminal's foreground job has.
  python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
    "$tool" neff extract big.neff out >/dev/null 2>err &
  local pid=$!
  for _ in $(seq 4000); do
    filling && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.005
  done
  if ! filling; then
    wait "$pid"
    rc=$?
    if [ "$rc" -eq 0 ]; then echo finished; else echo "extract failed before writing (exit $rc): $(cat err)" >&2; echo failed; fi
    return
  fi
  kill -"$sig" "$pid"
  wait "$pid"
  rc=$?
  if [ "$rc" -eq 0 ]; then
    echo finished
    return
  fi
  local want=$((128 + $(kill -l "$sig")))
  local ok=1
  [ "$rc" -eq "$want" ] || { echo "SIG$sig ($pre): exit $rc, expected $want" >&2; ok=0; }
  staging && { echo "SIG$sig ($pre): the staging folder $(compgen -G '.out.partial-*') remains" >&2; ok=0; }
  if [ "$pre" = empty ]; then
    [ -d out ] && [ -z "$(ls -A out)" ] || { echo "SIG$sig ($pre): the empty DIR was not left as it was" >&2; ok=0; }
  else
    [ -e out ] && { echo "SIG$sig ($pre): DIR exists after the signal" >&2; ok=0; }
  fi
  [ -z "$(ls -A | grep -v -x -e big.neff -e err -e out)" ] || { echo "SIG$sig ($pre): leftovers: $(ls -A)" >&2; ok=0; }
  [ "$ok" -eq 1 ] && echo caught || echo failed
}

for case in TERM:new HUP:new INT:new TERM:empty; do
  sig=${case%%:*} pre=${case#*:}
  result=finished
  for _ in 1 2 3 4 5; do
    result=$(attempt "$sig" "$pre")
    [ "$result" = finished ] || break
  done
  [ "$result" = caught ] || fail "SIG$sig ($pre): $result (the signal never landed mid-extract, or left something)"
done

# The same extract, not stopped, completes: every member is there and no staging folder remains.
rm -rf out .out.partial-*
"$tool" neff extract big.neff out >/dev/null || fail "extract without a signal"
[ "$(find out -type f | wc -l)" -eq 2001 ] || fail "extract without a signal: $(find out -type f | wc -l) files, expected 2001"
staging && fail "extract without a signal left a staging folder"

if [ "$failures" -ne 0 ]; then
  echo "$failures failed"
  exit 1
fi
echo "neff extract signal checks passed"
