#!/usr/bin/env bash
# `tpbisa run --trace-format compact` (docs/trace.md, "Compact records"): every line of a compact trace and of a JSON
# trace validates against its schema (docs/schemas/trace-compact.schema.json, trace.schema.json), the two traces hold
# the same steps and effects (`tpbisa trace show` prints the same blocks from both), the compact one is smaller; on word
# streams (effects of every kind, a fault, capped lists, diagnostics) and, where the shared data folder has it, on
# matmul_small.neff (core, engine and the DRAM side). Needs python3-jsonschema (skipped without it).
set -u
# shellcheck source=lib/scaffold.bash
source "$(dirname "${BASH_SOURCE[0]}")/lib/scaffold.bash"
cli_setup trace_format.sh "$@"
cli_require_python "jsonschema, numpy" "python3-jsonschema or NumPy"
cli_scratch
data="$src/tests/golden/_data"

# same NAME RUN-ARGS...: the run traced in both formats; both validate, show the same, and compact is smaller.
same() {
  local name=$1
  shift
  "$tool" run "$@" --trace "$name.jsonl" >"$name.out" 2>&1
  local rc=$?
  "$tool" run "$@" --trace "$name.compact" --trace-format compact >"$name.compact.out" 2>&1
  [ $? -eq "$rc" ] || fail "$name: the compact run exits differently from the JSON one"
  # The report, but for the seconds a run took.
  sed -i -E 's/[0-9.]+ s\b/T s/g; s/[0-9.e+]+ MAC\/s/R MAC\/s/' "$name.out" "$name.compact.out"
  cmp -s "$name.out" "$name.compact.out" || fail "$name: the run's report depends on the trace format"
  check trace "$name.jsonl" lines
  check trace-compact "$name.compact" lines
  [ "$(wc -l <"$name.jsonl")" -eq "$(wc -l <"$name.compact")" ] || fail "$name: not one compact line per record"
  [ "$(wc -c <"$name.compact")" -lt "$(wc -c <"$name.jsonl")" ] || fail "$name: the compact trace is not smaller"
  "$tool" trace show --limit 0 "$name.jsonl" >"$name.show" || fail "$name: trace show of the JSON trace"
  "$tool" trace show --limit 0 "$name.compact" >"$name.compact.show" || fail "$name: trace show of the compact trace"
  cmp -s "$name.show" "$name.compact.show" || {
    fail "$name: trace show prints the two formats differently"
    diff "$name.show" "$name.compact.show" | head -5
  }
}

same store_load "$data/store_load.bin" --init "$data/state.json"
same fault "$data/fault.bin"
same capped "$data/immld.bin" --init "$data/state_immld.json" --trace-max-effects 2
same immld "$data/immld.bin" --init "$data/state_immld.json"
same unaligned "$data/unaligned.bin"
same demo --gen cayman "$src/examples/demo.bin"
grep -q '"x":{"kind"' fault.compact || fail "the faulting step's compact record has no fault (x)"
grep -q '"z":{' capped.compact || fail "the capped compact records count nothing left out (z)"

# The record of one known step, field by field (docs/trace.md's example).
"$tool" run "$data/store_load.bin" --init "$data/state.json" --trace - --trace-format compact 2>/dev/null | head -n 1 >first.txt
expected='{"v":1,"i":0,"o":"ab","n":"TensorStore","w":[["s2+100",4,"00000000","00000005"]'
case "$(cat first.txt)" in
  "$expected"*) ;;
  *) fail "the first compact record is $(cat first.txt)" ;;
esac

"$tool" run "$data/store_load.bin" --trace t.txt --trace-format yaml >/dev/null 2>err.txt
rc=$?
[ "$rc" -eq 2 ] || fail "--trace-format yaml: exit $rc, not 2"
grep -q "trace-format" err.txt || fail "--trace-format yaml: the error does not name the option ($(cat err.txt))"
"$tool" run "$data/store_load.bin" --trace-format compact >/dev/null 2>err.txt
rc=$?
[ "$rc" -eq 2 ] || fail "--trace-format without --trace: exit $rc, not 2"

if [ -f "$neff" ]; then
  cli_matmul_inputs
  same matmul "$neff" --input x=x.npy --input y=y.npy
  grep -q '"c":0,"e":"PE"' matmul.compact || fail "the NEFF's compact records have no core and engine"
  grep -q '"D":\[\["output0",' matmul.compact || fail "the NEFF's compact records have no DRAM side"
  same matmul_filtered "$neff" --input x=x.npy --input y=y.npy --trace-filter engine=pool
else
  echo "note: the shared data folder is absent; the NEFF checks are skipped"
fi

[ "$failures" -eq 0 ] && echo "PASS: trace_format.sh" || exit 1
