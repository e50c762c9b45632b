#!/usr/bin/env bash
# Runs one libFuzzer target for a fixed time on a scratch copy of its committed seed corpus. A corpus of folders
# (tests/fuzz/corpus/formats, one folder per operand format) is one run over all of them: libFuzzer reads a corpus
# folder recursively.
set -euo pipefail
target=$1
seeds=$2
seconds=${3:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus"
if [ -d "$seeds" ]; then cp -r "$seeds"/. "$work/corpus/" 2>/dev/null || true; fi
cd "$work"
"$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=3072 -max_len=4096 -print_final_stats=1 corpus 2>fuzz.log || {
  tail -n 60 fuzz.log
  exit 1
}
grep -E 'stat::number_of_executed_units|stat::average_exec_per_sec' fuzz.log || true
