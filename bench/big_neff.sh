#!/usr/bin/env bash
# A program of ten million words: matmul_small.neff with WORDS plain Nop words appended over four of its streams
# (sg00's PE, Activation, Pool and DVE; the compiler accepts up to 5*10^6 instructions per NEFF and users have hit
# 8.7*10^6), packed as an uncompressed pkg-1 NEFF. Measured against `cat FILE > /dev/null` in the same run (best of
# RUNS, warm page cache): `tpbisa validate --quiet` (wall time and peak RSS) and the same with `--no-hash-check` (the
# payload's SHA-256 not computed), then one `tpbisa run` of it (wall time,
# peak RSS against the bound: twice the program's word bytes plus the machine state).
#
# usage: bench/big_neff.sh TPBISA [WORDS=10000000] [RUNS=5] [DIR=a temporary folder]
#   NEFF: matmul_small.neff, from $TPBISA_SHARED_DATA_DIR or ../shared/data next to the project (the script skips
#   without it). DIR keeps the generated NEFF (reused when its word count matches).
set -euo pipefail
tool=${1:?usage: big_neff.sh TPBISA [WORDS] [RUNS] [DIR]}
words=${2:-10000000}
runs=${3:-5}
dir=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
src="${TPBISA_SHARED_DATA_DIR:-$here/../../shared/data}/matmul_small.neff"
[ -f "$src" ] || src="${TPBISA_SHARED_DATA_DIR:-$here/../shared/data}/matmul_small.neff"
[ -f "$src" ] || { echo "SKIP: matmul_small.neff is absent"; exit 0; }
py=/usr/bin/python3
if [ -z "$dir" ]; then
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"
neff="$dir/big_$words.neff"

if [ ! -f "$neff" ]; then
  rm -rf "$dir/tree"
  "$tool" neff extract "$src" "$dir/tree" >/dev/null
  printf 'Nop\n' >"$dir/nop.tasm"
  "$tool" asm --gen cayman "$dir/nop.tasm" -o "$dir/nop.bin" >/dev/null
  "$py" - "$dir/tree/sg00" "$dir/nop.bin" "$words" <<'EOF'
import sys
folder, nop_file, words = sys.argv[1], sys.argv[2], int(sys.argv[3])
nop = open(nop_file, "rb").read()
assert len(nop) == 64
streams = ["PE.bin", "Activation.bin", "Pool.bin", "DVE.bin"]
block = nop * 65536
for i, name in enumerate(streams):
    n = words // 4 + (1 if i < words % 4 else 0)
    with open(f"{folder}/{name}", "ab") as f:
        for _ in range(n // 65536):
            f.write(block)
        f.write(nop * (n % 65536))
EOF
  "$tool" neff pack --pkg-version 1 --header-from "$src" "$dir/tree" "$neff" >/dev/null
  rm -rf "$dir/tree"
fi
bytes=$(stat -c %s "$neff")
word_bytes=$(( (words + 58) * 64 ))

# The inputs of matmul_small: x fp16 [128, 256], y fp16 [256, 128].
"$py" -c "import numpy as np; r = np.random.default_rng(0)
np.save('$dir/x.npy', r.integers(-2, 3, (128, 256)).astype(np.float16))
np.save('$dir/y.npy', r.integers(-2, 3, (256, 128)).astype(np.float16))"

# Wall seconds and peak RSS (KiB) of one command, its output discarded: "SECONDS KIB RC".
measure() {
  "$py" - "$@" <<'EOF'
import resource, subprocess, sys, time
t = time.perf_counter()
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
t = time.perf_counter() - t
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{t:.6f} {u.ru_maxrss} {rc} {u.ru_utime + u.ru_stime:.6f}")
EOF
}
best() { sort -g | head -1; }

cat "$neff" >/dev/null
: >"$dir/cat.txt"
: >"$dir/validate.txt"
: >"$dir/nohash.txt"
for _ in $(seq "$runs"); do
  measure cat "$neff" >>"$dir/cat.txt"
  measure "$tool" validate --quiet "$neff" >>"$dir/validate.txt"
  measure "$tool" validate --quiet --no-hash-check "$neff" >>"$dir/nohash.txt"
done
awk '$3 != 0 { print "validate exited " $3; exit 1 }' "$dir/validate.txt" "$dir/nohash.txt"
nohash_s=$(cut -d' ' -f1 <"$dir/nohash.txt" | best)
nohash_cpu=$(cut -d' ' -f4 <"$dir/nohash.txt" | best)
cat_s=$(cut -d' ' -f1 <"$dir/cat.txt" | best)
val_s=$(cut -d' ' -f1 <"$dir/validate.txt" | best)
cat_cpu=$(cut -d' ' -f4 <"$dir/cat.txt" | best)
val_cpu=$(cut -d' ' -f4 <"$dir/validate.txt" | best)
val_rss=$(cut -d' ' -f2 <"$dir/validate.txt" | sort -g | tail -1)
read -r run_s run_rss run_rc run_cpu < <(measure "$tool" run "$neff" --quiet --input x="$dir/x.npy" --input y="$dir/y.npy")
echo "program: $neff: $((words + 58)) words ($word_bytes bytes of words), file $bytes bytes; load: $(cut -d' ' -f1-3 /proc/loadavg)"
"$py" - "$cat_s" "$val_s" "$val_rss" "$run_s" "$run_rss" "$run_rc" "$word_bytes" "$runs" "$cat_cpu" "$val_cpu" "$run_cpu" \
  "$nohash_s" "$nohash_cpu" <<'EOF'
import sys
cat_s, val_s, val_rss, run_s, run_rss = (float(v) for v in sys.argv[1:6])
run_rc, word_bytes, runs = int(sys.argv[6]), int(sys.argv[7]), sys.argv[8]
cat_cpu, val_cpu, run_cpu = (float(v) for v in sys.argv[9:12])
print(f"cat FILE > /dev/null:        best of {runs} {cat_s:.3f} s wall, {cat_cpu:.3f} s CPU")
print(f"tpbisa validate --quiet:     best of {runs} {val_s:.3f} s wall, {val_cpu:.3f} s CPU, peak RSS "
      f"{val_rss / 1024:.0f} MiB; throughput against cat's {cat_s / val_s:.2f}x (wall), {cat_cpu / val_cpu:.2f}x (CPU)")
nohash_s, nohash_cpu = float(sys.argv[12]), float(sys.argv[13])
print(f"  with --no-hash-check:      best of {runs} {nohash_s:.3f} s wall, {nohash_cpu:.3f} s CPU; throughput against "
      f"cat's {cat_s / nohash_s:.2f}x (wall), {cat_cpu / nohash_cpu:.2f}x (CPU)")
bound = 2 * word_bytes / 2**20
print(f"tpbisa run (exit {run_rc}):        {run_s:.2f} s wall, {run_cpu:.2f} s CPU, peak RSS {run_rss / 1024:.0f} MiB "
      f"({run_rss * 1024 / (word_bytes / 64):.0f} bytes per word; twice the word bytes: {bound:.0f} MiB)")
EOF
