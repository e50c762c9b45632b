#!/usr/bin/env bash
# The single-stream simulator as a whole process: `tpbisa run FILE > /dev/null` of a file of
# WORDS TensorStore/TensorLoad words (each moving 8 u32 to or from an SBUF partition, as BM_RunTensorLoadStore in
# bench/machine_bench.cpp) against `cat FILE > /dev/null` in the same run: best of RUNS wall times, the instructions
# per second of the whole process, and its peak RSS against the bound of twice the file plus 16 MiB.
#
# usage: bench/run_stream_vs_cat.sh TPBISA [WORDS=1000000] [RUNS=5] [DIR=a temporary folder]
set -euo pipefail
tool=${1:?usage: run_stream_vs_cat.sh TPBISA [WORDS] [RUNS] [DIR]}
words=${2:-1000000}
runs=${3:-5}
dir=${4:-}
py=/usr/bin/python3
if [ -z "$dir" ]; then
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"
file="$dir/mem2d_$words.bin"

# MEM_2D words (the header, EVENTS none, dtype u32, 8 elements of step 1 at an SBUF address): a TensorStore of
# immediates, then a TensorLoad of the same 32 bytes, partition by partition.
[ -f "$file" ] || "$py" - "$file" "$words" <<'EOF'
import struct, sys
path, words = sys.argv[1], int(sys.argv[2])
def word(opcode, address, immediates):
    w = bytearray(64)
    w[0:4] = bytes([opcode, 16, 0, 0])
    w[12] = 0x09                     # u32
    w[13] = 1 if immediates else 0   # src_datasrc: the word's own data
    w[14:16] = bytes([8, 1])         # num_elem
    w[16:24] = struct.pack("<Q", address)
    w[24:32] = struct.pack("<ii", 1, 0)
    w[32:64] = bytes(range(32)) if immediates else bytes(range(8)) + bytes(24)
    return bytes(w)
with open(path, "wb") as f:
    out = []
    for i in range(words):
        pair = i - i % 2
        a = (pair % 128) * 0x40000 + ((pair // 128) % 4096) * 32
        out.append(word(0xAA, a, False) if i % 2 else word(0xAB, a, True))
        if len(out) == 65536:
            f.write(b"".join(out))
            out = []
    f.write(b"".join(out))
EOF
bytes=$(stat -c %s "$file")
"$tool" run --max-words "$words" --max-steps "$words" "$file" >"$dir/report.txt" || { cat "$dir/report.txt"; exit 1; }
grep -q "^status: ok, $words instructions retired" "$dir/report.txt" || { cat "$dir/report.txt"; exit 1; }

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
cat "$file" >/dev/null
: >"$dir/cat.txt"
: >"$dir/run.txt"
for _ in $(seq "$runs"); do
  measure cat "$file" >>"$dir/cat.txt"
  measure "$tool" run --max-words "$words" --max-steps "$words" "$file" >>"$dir/run.txt"
done
"$py" - "$dir/cat.txt" "$dir/run.txt" "$words" "$bytes" "$runs" <<'EOF'
import sys
def rows(p):
    return [tuple(float(x) for x in line.split()) for line in open(p)]
cat, run = rows(sys.argv[1]), rows(sys.argv[2])
words, size, runs = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
c, r = min(x[0] for x in cat), min(x[0] for x in run)
ccpu, rcpu = min(x[3] for x in cat), min(x[3] for x in run)
rss = max(x[1] for x in run) * 1024
bound = 2 * size + 16 * 2**20
print(f"file: {words} words, {size} bytes")
print(f"cat FILE > /dev/null: best of {runs} {c * 1e3:.1f} ms wall, {ccpu * 1e3:.1f} ms CPU")
print(f"tpbisa run FILE:      best of {runs} {r * 1e3:.1f} ms wall, {rcpu * 1e3:.1f} ms CPU = "
      f"{words / r / 1e6:.1f} M instructions/s whole process ({words / rcpu / 1e6:.1f} M/s of CPU time; "
      f"{c / r:.3f}x cat's throughput); peak RSS {rss / 2**20:.1f} MiB (bound 2x file + 16 MiB = {bound / 2**20:.1f} MiB)")
EOF
