#!/usr/bin/env bash
# CLI checks for failures: exit codes 2 (usage) and 3 (input), and messages naming input, index and offset.
set -u
tool=${1:?usage: errors.sh TPBISA_BINARY SOURCE_DIR}
src=${2:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
run() { "$tool" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
expect_rc() { [ "$rc" -eq "$1" ] || { fail "$2: exit $rc, expected $1"; sed 's/^/  stderr: /' "$tmp/err"; }; }
expect_err() { grep -qF -- "$1" "$tmp/err" || { fail "$2: stderr lacks '$1'"; sed 's/^/  stderr: /' "$tmp/err"; }; }
one_line_err() { [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$1: stderr is not one line"; }

good=$(printf 'aa10%0124d' 0)

# ---- input errors: exit 3 ----
run decode --hex "${good:1}"
expect_rc 3 "127 hex digits"
expect_err "tpbisa: error: --hex #1: expected 128 hex digits, got 127" "127 digits message"
one_line_err "127 digits"

run decode --hex "${good}0"
expect_rc 3 "129 hex digits"
expect_err "--hex #1 word 2: expected 128 hex digits, got 1 (instruction 1, offset 64)" "129 digits message"

run decode --hex "${good:0:5}g${good:6}"
expect_rc 3 "bad hex digit"
expect_err "--hex #1: 'g' at column 6 is not a hex digit" "bad digit names its column"

run decode --hex "$good" --hex "${good:2}"
expect_rc 3 "second --hex short"
expect_err "--hex #2: expected 128 hex digits, got 126 (instruction 1, offset 64)" "second word named"
# Words before the failing one are printed, then the run stops.
grep -q '^#0 ' "$tmp/out" || fail "the word before a bad --hex is printed"

python3 -c 'import sys; open(sys.argv[1], "wb").write(bytes([0xaa, 16]) + bytes(128))' "$tmp/f130.bin"
run decode "$tmp/f130.bin"
expect_rc 3 "130-byte file"
expect_err "$tmp/f130.bin: 2 trailing bytes at offset 128 do not form a 64-byte instruction (instruction 2)" \
  "trailing bytes message"
grep -q '^#1 ' "$tmp/out" || fail "the two whole words before the trailing bytes are printed"

run decode --json "$tmp/f130.bin"
expect_rc 3 "130-byte file --json"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
ok = len(d["instructions"]) == 2 and d["error"]["offset"] == 128 and d["error"]["index"] == 2
sys.exit(0 if ok else 1)' "$tmp/out" || fail "JSON keeps the decoded words and names the error"

run decode "$tmp/missing.bin"
expect_rc 3 "missing file"
expect_err "$tmp/missing.bin: cannot open" "missing file message"

run decode "$tmp"
expect_rc 3 "a directory"
expect_err "$tmp: read error" "directory message"

# ---- usage errors: exit 2 ----
run decode --gen bogus --hex "$good"
expect_rc 2 "--gen bogus"
expect_err "unknown generation 'bogus'" "--gen bogus message"
expect_err "run 'tpbisa --help'" "--gen bogus points at --help"
one_line_err "--gen bogus"

run decode
expect_rc 2 "no input"
expect_err "no input" "no input message"

run decode --no-such-option "$tmp/f130.bin"
expect_rc 2 "unknown option"
expect_err "--no-such-option" "unknown option named"
expect_err "run 'tpbisa --help'" "unknown option points at --help"

run
expect_rc 2 "no subcommand"
run frobnicate
expect_rc 2 "unknown subcommand"
run decode --hex "$good" "$tmp/f130.bin"
expect_rc 2 "--hex and FILE together"
expect_err "decode: '$tmp/f130.bin' after --hex is a file; give either --hex words or FILE arguments, not both" \
  "a file after --hex is named"
run catalog bogus
expect_rc 2 "unknown catalog table"
run catalog --gen v9
expect_rc 2 "catalog --gen v9"

# ---- help and version succeed ----
run --help
expect_rc 0 "--help"
run decode --help
expect_rc 0 "decode --help"
grep -qF "default: mariana" "$tmp/out" || fail "decode --help states the default generation"
run --version
expect_rc 0 "--version"
grep -q '^tpbisa [0-9]' "$tmp/out" || fail "--version prints the version"
# ... and the commit the build was configured from: this checkout's, or "unknown" outside a git checkout.
commit=$(git -C "$src" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
grep -Eq "^tpbisa [0-9.]+ \(commit ([0-9a-f]{12}|unknown)\)$" "$tmp/out" || fail "--version names a commit: $(cat "$tmp/out")"
[ "$commit" = unknown ] || git -C "$src" merge-base --is-ancestor "$(sed -E 's/.*commit ([0-9a-f]+|unknown).*/\1/' "$tmp/out")" HEAD 2>/dev/null ||
  fail "--version names a commit this checkout does not have: $(cat "$tmp/out")"

[ "$failures" -eq 0 ] && echo "errors: all checks passed"
exit $((failures > 0))
