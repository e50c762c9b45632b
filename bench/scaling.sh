#!/usr/bin/env bash
# How cost grows (docs/performance.md, "How cost grows"): whole-command times of `tpbisa run` against NumPy's product
# as the MACs grow (10^8 .. 10^11, default options), of `tpbisa validate` and `tpbisa run` against `cat` as the words
# grow (10^4 .. 10^7), and of `tpbisa run` against NumPy as the threads grow (-j 1, 2, the default: every CPU the
# process may use). Every point is a ratio to its own baseline measured in the same run, by the scripts that measure
# each target alone (bench/run_neff_vs_numpy.sh, bench/big_neff.sh); the table is printed as Markdown.
#
# usage: bench/scaling.sh TPBISA [DIR]
#   DIR keeps the generated programs and inputs (about 2.5 GiB; reused on a second run), default a temporary folder.
#   The word series needs matmul_small.neff (bench/big_neff.sh skips without it).
set -euo pipefail
tool=${1:?usage: scaling.sh TPBISA [DIR]}
dir=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "$dir" ]; then
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"

echo "load: $(cut -d' ' -f1-3 /proc/loadavg); CPUs: $(nproc)"
echo
echo "| Series | Point | tpbisa | Baseline | Ratio (wall) | Ratio (CPU) |"
echo "|---|---|---:|---:|---:|---:|"
# x fp16 [128, K] . y fp16 [K, N] over two cores: 128*K*N MACs.
for shape in "512 1024" "2048 4096" "8192 8192" "32768 32768"; do
  read -r k n <<<"$shape"
  out=$("$here/run_neff_vs_numpy.sh" "$tool" "$k" "$n" 2 "" "$dir/mm_${k}_$n")
  wall=$(grep '^tpbisa run:' <<<"$out" | sed 's/tpbisa run: \([0-9.]*\) s wall.*/\1/')
  np=$(grep '^numpy f32 products:' <<<"$out" | sed 's/numpy f32 products: \([0-9.]*\) s.*/\1/')
  kernel=$(grep "^numpy's OpenBLAS kernel:" <<<"$out" | sed "s/numpy's OpenBLAS kernel: //")
  ratio=$(grep '^ratio tpbisa' <<<"$out" | sed 's/.*: //')
  cpu=$(grep '^the same in CPU time' <<<"$out" | sed 's/.*ratio \([0-9.]*\);.*/\1/')
  same=$(grep -c 'output equals NumPy: yes' <<<"$out" || true)
  [ "$same" = 1 ] || { echo "$out"; echo "scaling.sh: the output of $k x $n differs from NumPy's" >&2; exit 1; }
  echo "| MACs (default options, LNC 2) | $(grep '^shape:' <<<"$out" | sed 's/.*, \([0-9.e+]*\) MACs/\1/') MACs (K $k, N $n) | ${wall} s | NumPy ${np} s ($kernel) | ${ratio} | ${cpu} |"
done
for words in 10000 100000 1000000 10000000; do
  out=$("$here/big_neff.sh" "$tool" "$words" 3 "$dir/words")
  if grep -q '^SKIP' <<<"$out"; then
    echo "| words | skipped: matmul_small.neff is absent | | | | |"
    break
  fi
  cat_s=$(grep '^cat FILE' <<<"$out" | sed 's/.*best of [0-9]* \([0-9.]*\) s wall, \([0-9.]*\) s CPU.*/\1/')
  cat_cpu=$(grep '^cat FILE' <<<"$out" | sed 's/.*best of [0-9]* \([0-9.]*\) s wall, \([0-9.]*\) s CPU.*/\2/')
  val=$(grep '^tpbisa validate' <<<"$out")
  val_s=$(sed 's/.*best of [0-9]* \([0-9.]*\) s wall, \([0-9.]*\) s CPU.*/\1/' <<<"$val")
  val_w=$(sed "s/.*cat's \([0-9.]*\)x (wall), \([0-9.]*\)x (CPU).*/\1/" <<<"$val")
  val_c=$(sed "s/.*cat's \([0-9.]*\)x (wall), \([0-9.]*\)x (CPU).*/\2/" <<<"$val")
  nh=$(grep 'with --no-hash-check' <<<"$out")
  nh_s=$(sed 's/.*best of [0-9]* \([0-9.]*\) s wall.*/\1/' <<<"$nh")
  nh_w=$(sed "s/.*cat's \([0-9.]*\)x (wall), \([0-9.]*\)x (CPU).*/\1/" <<<"$nh")
  nh_c=$(sed "s/.*cat's \([0-9.]*\)x (wall), \([0-9.]*\)x (CPU).*/\2/" <<<"$nh")
  run=$(grep '^tpbisa run' <<<"$out")
  run_s=$(sed 's/.*: *\([0-9.]*\) s wall.*/\1/' <<<"$run")
  rss=$(sed 's/.*peak RSS \([0-9]*\) MiB.*/\1/' <<<"$run")
  echo "| words (\`validate\`, throughput against \`cat\`) | $words + 58 | ${val_s} s | cat ${cat_s} s (${cat_cpu} s CPU) | ${val_w}× | ${val_c}× |"
  echo "| words (\`validate --no-hash-check\`) | $words + 58 | ${nh_s} s | cat ${cat_s} s | ${nh_w}× | ${nh_c}× |"
  echo "| words (\`run\`: seconds, peak RSS) | $words + 58 | ${run_s} s, ${rss} MiB | | | |"
done
for threads in 1 2 ""; do
  out=$("$here/run_neff_vs_numpy.sh" "$tool" 8192 8192 2 "$threads" "$dir/mm_8192_8192")
  wall=$(grep '^tpbisa run:' <<<"$out" | sed 's/tpbisa run: \([0-9.]*\) s wall.*/\1/')
  np=$(grep '^numpy f32 products:' <<<"$out" | sed 's/numpy f32 products: \([0-9.]*\) s.*/\1/')
  ratio=$(grep '^ratio tpbisa' <<<"$out" | sed 's/.*: //')
  cpu=$(grep '^the same in CPU time' <<<"$out" | sed 's/.*ratio \([0-9.]*\);.*/\1/')
  echo "| threads (K 8192, N 8192, LNC 2) | ${threads:-default (every CPU: $(nproc))} | ${wall} s | NumPy ${np} s | ${ratio} | ${cpu} |"
done
