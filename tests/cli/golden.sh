#!/usr/bin/env bash
# Golden command-line tests: every folder tests/golden/<subcommand>-<case>/ holds one case,
#   cmd     the command line (one line, run by bash in the case folder, the tool invoked as `tpbisa`)
#   stdin   optional: fed to the command (otherwise stdin is empty)
#   stdout, stderr, exit   the expected output streams and exit code
# plus any input files the command names by relative path (shared fixtures are in ../_data/, written by
# ../_data/make_fixtures.py; ../../cli/data/ is reachable too). Each run copies tests/golden (and
# tests/cli/data) to a scratch folder and runs every case there, so nothing is written into the source tree.
#
# Usage: golden.sh TPBISA_BINARY SOURCE_DIR [CASE_GLOB]           compare (ctest runs this)
#        golden.sh --regen TPBISA_BINARY SOURCE_DIR [CASE_GLOB]   rewrite stdout/stderr/exit (scripts/regen_golden.sh)
# Prints a unified diff for each mismatch and ends with `N passed, M failed`; exits 1 on any failure.
set -u
mode=check
if [ "${1:-}" = "--regen" ]; then
  mode=regen
  shift
fi
usage="usage: golden.sh [--regen] TPBISA_BINARY SOURCE_DIR [CASE_GLOB]"
tool=${1:?$usage}
src=${2:?$usage}
pattern=${3:-*}

case "$tool" in /*) ;; *) tool="$PWD/$tool" ;; esac
if [ ! -f "$tool" ] || [ ! -x "$tool" ]; then
  echo "golden.sh: '$tool' is not an executable file" >&2
  exit 2
fi
src=$(cd "$src" && pwd) || exit 2
golden="$src/tests/golden"
[ -d "$golden" ] || { echo "golden.sh: no folder $golden" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tpbisa-golden.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/tests/cli" "$tmp/results"
ln -s "$tool" "$tmp/bin/tpbisa"
cp -R "$golden" "$tmp/tests/golden"
[ -d "$src/tests/cli/data" ] && cp -R "$src/tests/cli/data" "$tmp/tests/cli/data"
scratch="$tmp/tests/golden"

# A fixed environment: messages (strerror) in the C locale, no user shell start-up files.
export PATH="$tmp/bin:$PATH" LC_ALL=C LANG=C TZ=UTC
unset BASH_ENV ENV CDPATH

passed=0
failed=0
changed=0
fail() {
  echo "FAIL: $*"
  failed=$((failed + 1))
}

# The committed fixtures must be exactly what their generator writes.
if [ "$mode" = regen ]; then
  python3 "$golden/_data/make_fixtures.py" "$golden/_data" || exit 2
elif python3 "$golden/_data/make_fixtures.py" --check "$golden/_data"; then
  passed=$((passed + 1))
else
  fail "_data: fixtures differ from make_fixtures.py"
fi

# Expected files hold no machine-specific paths: a scratch or source path in the output is a broken case.
leaks_path() {
  grep -qF -e "$tmp" -e "$src" "$1" 2>/dev/null
}

shopt -s nullglob
cases=0
for dir in "$scratch"/$pattern/; do
  name=$(basename "$dir")
  case "$name" in _*) continue ;; esac
  cases=$((cases + 1))
  expected="$golden/$name"
  if [ ! -f "$dir/cmd" ]; then
    fail "$name: no cmd file"
    continue
  fi
  if [ "$(wc -l <"$dir/cmd")" -gt 1 ]; then
    fail "$name: cmd must be one line"
    continue
  fi
  cmd=$(cat "$dir/cmd")
  input=/dev/null
  [ -f "$dir/stdin" ] && input="$dir/stdin"
  out="$tmp/results/$name"
  mkdir -p "$out"
  (cd "$dir" && exec timeout 20 bash --norc --noprofile -c "$cmd") <"$input" >"$out/stdout" 2>"$out/stderr"
  echo "$?" >"$out/exit"

  if leaks_path "$out/stdout" || leaks_path "$out/stderr"; then
    fail "$name: the output names a machine-specific path (use relative paths in cmd)"
    continue
  fi
  if [ "$mode" = regen ]; then
    for f in stdout stderr exit; do
      cmp -s "$out/$f" "$expected/$f" || { changed=$((changed + 1)); break; }
    done
    cp "$out/stdout" "$out/stderr" "$out/exit" "$expected/"
    passed=$((passed + 1))
    continue
  fi
  ok=1
  for f in stdout stderr exit; do
    if [ ! -f "$expected/$f" ]; then
      echo "--- $name/$f: no expected file (run scripts/regen_golden.sh)"
      ok=0
    elif ! cmp -s "$expected/$f" "$out/$f"; then
      diff -u --label "$name/$f (expected)" --label "$name/$f (actual)" "$expected/$f" "$out/$f"
      ok=0
    fi
  done
  if [ "$ok" -eq 1 ]; then
    passed=$((passed + 1))
  else
    fail "$name: $cmd"
  fi
done

[ "$cases" -gt 0 ] || fail "no case matches '$pattern' in $golden"
if [ "$mode" = regen ]; then
  echo "$cases cases run, $changed with changed output (review with git diff -- tests/golden); $failed failed"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
