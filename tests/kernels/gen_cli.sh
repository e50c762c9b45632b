#!/usr/bin/env bash
# `tpbisa gen` as the command's front end of tpbisa.gen: it writes the same bytes as `python -m tpbisa.gen`, twice
# the same; the listings in examples/kernels are what the generator writes today (softmax's with the tables of
# ../shared/data/matmul_small.neff, skipped when it is absent); usage errors are refused with a message; the examples
# of docs/kernels.md run as written.
set -u
tool=${1:?usage: gen_cli.sh TPBISA_BINARY SOURCE_DIR}
src=${2:?usage: gen_cli.sh TPBISA_BINARY SOURCE_DIR}
tool=$(cd "$(dirname "$tool")" && pwd)/$(basename "$tool")
src=$(cd "$src" && pwd)
py=$(sed -n 's/^TPBISA_PYTHON_EXECUTABLE:FILEPATH=//p' "$(dirname "$tool")/CMakeCache.txt" 2>/dev/null)
py=${py:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cd "$tmp" || exit 1

# The front end and the module write the same bytes; the same arguments always do (the header's name is the file's).
mkdir b c
"$tool" gen layernorm --rows 256 --cols 96 --lnc 2 --out a.neff >a.out 2>&1 || fail "tpbisa gen: $(cat a.out)"
"$tool" gen layernorm --rows 256 --cols 96 --lnc 2 --out b/a.neff >/dev/null 2>&1
PYTHONPATH="$(dirname "$tool")/python" TPBISA="$tool" "$py" -m tpbisa.gen layernorm --rows 256 --cols 96 --lnc 2 \
  --out c/a.neff >/dev/null 2>&1 || fail "python -m tpbisa.gen failed"
cmp -s a.neff b/a.neff || fail "two runs of tpbisa gen differ"
cmp -s a.neff c/a.neff || fail "tpbisa gen and python -m tpbisa.gen differ"
summary='^wrote a.neff: layernorm of x fp32 \[256, 96\], gamma fp32 \[96\], beta fp32 \[96\], lnc 2, [0-9]* words$'
grep -q "$summary" a.out ||
  fail "tpbisa gen's summary: $(cat a.out)"
"$tool" neff info a.neff | grep -q '^subgraph sg01' || fail "--lnc 2 writes no second subgraph"

# The listings of examples/kernels are today's programs; `--tables-from F.neff` names the shared data's NEFF.
tables="$src/../shared/data/matmul_small.neff"
for f in "$src"/examples/kernels/*.tasm.txt; do
  cmd=$(sed -n '1s/^; The streams of `tpbisa gen \(.*\) --listing`.*/\1/p' "$f")
  [ -n "$cmd" ] || { fail "$f: no command on its first line"; continue; }
  case "$cmd" in *--tables-from*)
    [ -e "$tables" ] || { echo "$(basename "$f"): skipped ($tables is absent)"; continue; }
    cmd=$(echo "$cmd" | sed "s#--tables-from [^ ]*#--tables-from $tables#") ;;
  esac
  # shellcheck disable=SC2086 # the options are words
  "$tool" gen $cmd --out l.neff --listing | grep -v '^wrote ' >l.txt
  tail -n +2 "$f" | cmp -s - l.txt || fail "$(basename "$f") is not what 'tpbisa gen $cmd --listing' prints"
done

# Refusals: exit 1 with a message, no NEFF; argparse usage errors exit 2.
expect_error() {
  local code=$1 pattern=$2
  shift 2
  rm -f e.neff
  "$tool" gen "$@" --out e.neff >e.out 2>&1
  local rc=$?
  [ "$rc" -eq "$code" ] || fail "tpbisa gen $*: exit $rc, expected $code"
  grep -q -- "$pattern" e.out || fail "tpbisa gen $*: no /$pattern/ in: $(cat e.out)"
  [ -e e.neff ] && fail "tpbisa gen $*: wrote a NEFF"
}
expect_error 1 'must be a positive multiple of 128' layernorm --rows 100
expect_error 1 'must be a positive multiple of 256' rmsnorm --rows 128 --lnc 2
expect_error 1 'a positive multiple of 8, at most --cols' topk --k 12
expect_error 1 'fp32 only' topk --dtype bf16
expect_error 1 'SBUF has' layernorm --cols 16384
"$tool" gen softmax --out own.neff >own.out 2>&1 || fail "softmax with its own tables: $(cat own.out)"
expect_error 1 'no such file' softmax --tables-from absent.neff
expect_error 1 'fp32 only' softmax --dtype bf16 --tables-from absent.neff
expect_error 1 'multiples of 128' mlp --hidden 100
expect_error 1 'head-dim 200: 1 to 128' attention --head-dim 200
expect_error 1 'at least --rows' attention --rows 256 --cols 128
expect_error 2 'invalid choice' softmax --gen maverick
expect_error 1 "unknown kernel 'conv'" conv
expect_error 1 'not a variable of rmsnorm' rmsnorm --undersize beta
expect_error 1 'no instruction of topk has that tag' topk --drop-wait stats
expect_error 2 'invalid choice' layernorm --lnc 3
"$tool" gen --help | grep -q '^usage: tpbisa gen' || fail "tpbisa gen --help"

# The examples of docs/kernels.md: the shell blocks, and the Python blocks in a scratch folder.
mkdir py && (cd py && PYTHONPATH="$(dirname "$tool")/python" TPBISA="$tool" "$py" - "$src/docs/kernels.md" <<'PYEOF'
import re, sys
blocks = re.findall(r"^```python\n(.*?)^```", open(sys.argv[1]).read(), re.S | re.M)
assert blocks, "docs/kernels.md has no Python example"
for b in blocks:
    exec(b, {})
PYEOF
) >py.out 2>&1 || fail "docs/kernels.md Python example: $(cat py.out)"
"$py" "$src/tests/cli/docs_examples.py" "$tool" "$src" docs/kernels.md >docs.out 2>&1 ||
  fail "docs/kernels.md examples: $(cat docs.out)"

[ "$failures" -eq 0 ] && echo "gen_cli: all checks passed" || exit 1
