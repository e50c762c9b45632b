#!/usr/bin/env bash
# Whole-command speed of `tpbisa neff info` against `gunzip | tar -t` of the same NEFF's payload (issue figure).
# Usage: bench/neff_info_vs_gunzip.sh TPBISA NEFF [RUNS]. Runs the two commands alternately RUNS times (default 31)
# and prints min/median/max wall time of each and the ratio of the medians.
set -euo pipefail
tool=${1:?usage: neff_info_vs_gunzip.sh TPBISA NEFF [RUNS]}
neff=${2:?usage: neff_info_vs_gunzip.sh TPBISA NEFF [RUNS]}
runs=${3:-31}
payload_offset=1024  # the gzip payload starts at 0x400 (docs/neff.md)

now_ns() { date +%s%N; }
ours=() base=()
for ((i = 0; i < runs; i++)); do
  t0=$(now_ns); "$tool" neff info "$neff" >/dev/null; t1=$(now_ns)
  tail -c +$((payload_offset + 1)) "$neff" | gunzip | tar -t >/dev/null; t2=$(now_ns)
  ours+=($((t1 - t0))) base+=($((t2 - t1)))
done
stats() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {printf "%.3f %.3f %.3f", a[1]/1e6, a[int((NR+1)/2)]/1e6, a[NR]/1e6}'; }
read -r omin omed omax <<<"$(stats "${ours[@]}")"
read -r bmin bmed bmax <<<"$(stats "${base[@]}")"
echo "runs: $runs"
echo "tpbisa neff info:    min $omin ms  median $omed ms  max $omax ms"
echo "gunzip | tar -t:     min $bmin ms  median $bmed ms  max $bmax ms"
awk -v o="$omed" -v b="$bmed" 'BEGIN {printf "ratio (median): %.2fx\n", o / b}'
