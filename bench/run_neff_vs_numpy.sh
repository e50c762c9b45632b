#!/usr/bin/env bash
# Whole-program speed: a generated matmul NEFF run end to end by `tpbisa run`, against NumPy's own product of the
# same shape measured in the same run; prints both times, their ratio, the MAC rates, peak RSS and the equality.
#
# usage: bench/run_neff_vs_numpy.sh TPBISA K N [LNC] [THREADS] [WORKDIR]
#   K, N: x fp16 [128, K] . y fp16 [K, N] (K a multiple of 128, N of 512 per core); LNC 1 or 2 (default 2);
#   THREADS: `tpbisa run -j THREADS` (default: none, the default options, which run the cores on the CPUs the
#   process may use); WORKDIR keeps the NEFF and inputs (default a temporary folder, removed at the end; an existing
#   WORKDIR with the same shape is reused).
# NumPy's side is x.astype(float32) @ y.astype(float32) in blocks of K rows (fp16 matmul in NumPy has no BLAS
# path and is two orders of magnitude slower; the blocks keep a 4 GiB y from being widened whole). Both the time
# of the products alone and the time including the widening are reported; the ratio uses the products alone.
# The OpenBLAS kernel NumPy ran on is printed; when OpenBLAS picked one narrower than the CPU's flags support (a
# generic fallback such as Prescott), NumPy's command alone runs with OPENBLAS_CORETYPE naming the right one
# (bench/openblas_kernel.py), so that the baseline is not a slow one.
set -euo pipefail
tool=${1:?usage: run_neff_vs_numpy.sh TPBISA K N [LNC] [THREADS] [WORKDIR]}
k=${2:?K}
n=${3:?N}
lnc=${4:-2}
threads=${5:-}
work=${6:-}
py=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
gen="$here/../examples/gen_matmul_neff.py"
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
stamp="$work/shape"
if [ "$(cat "$stamp" 2>/dev/null)" != "$k $n $lnc" ]; then
  TPBISA="$tool" "$py" "$gen" --out "$work/prog.neff" --k "$k" --n "$n" --lnc "$lnc" --write-inputs "$work/in" \
    >"$work/gen.log" 2>&1 || { cat "$work/gen.log"; exit 1; }
  echo "$k $n $lnc" >"$stamp"
fi
rm -rf "$work/res"

# NumPy first (the input pages are then in the page cache for both sides alike).
pin=$("$py" "$here/openblas_kernel.py" --pin)
pin_env=()
[ -n "$pin" ] && pin_env=(env "OPENBLAS_CORETYPE=$pin")
"${pin_env[@]}" "$py" - "$work/in" "$here" >"$work/numpy.txt" <<'EOF'
import sys, time
import numpy as np
d = sys.argv[1]
sys.path.insert(0, sys.argv[2])
import openblas_kernel
x = np.load(f"{d}/x.npy")
y = np.load(f"{d}/y.npy", mmap_mode="r")
k, n = y.shape
rows = max(128, (256 << 20) // (4 * n) // 128 * 128)  # about 256 MiB of widened y per block
x32 = x.astype(np.float32)
acc = np.zeros((x.shape[0], n), dtype=np.float32)
products = 0.0
cpu = 0.0  # CPU time of the products (every thread of the process): on a loaded machine wall time also counts waiting
start = time.perf_counter()
for r0 in range(0, k, rows):
    blk = np.asarray(y[r0:r0 + rows]).astype(np.float32)
    t, c = time.perf_counter(), time.process_time()
    acc += x32[:, r0:r0 + rows] @ blk
    products += time.perf_counter() - t
    cpu += time.process_time() - c
total = time.perf_counter() - start
ref = np.load(f"{d}/ref.npy")
same = bool((acc.astype(np.float16).view(np.uint16) == ref.view(np.uint16)).all())
print(products, total, int(same), openblas_kernel.corename() or "none", cpu)
EOF
read -r np_products np_total np_same np_kernel np_cpu <"$work/numpy.txt"

thread_flag=()
[ -n "$threads" ] && thread_flag=(-j "$threads")
/usr/bin/time -v "$tool" run "$work/prog.neff" --quiet "${thread_flag[@]}" --input x="$work/in/x.npy" \
  --input y="$work/in/y.npy" --out "$work/res" --expect output0="$work/in/ref.npy" >"$work/run.txt" 2>"$work/time.txt" ||
  { cat "$work/run.txt" "$work/time.txt"; exit 1; }
wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time.txt")
rss_kib=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
user=$(sed -n 's/.*User time (seconds): //p' "$work/time.txt")
sys_s=$(sed -n 's/.*System time (seconds): //p' "$work/time.txt")
"$py" - "$k" "$n" "$wall" "$rss_kib" "$np_products" "$np_total" "$np_same" "$work/in" "$work/res" "$np_kernel" "$pin" \
  "$np_cpu" "$user" "$sys_s" <<'EOF'
import os, sys
import numpy as np
k, n = int(sys.argv[1]), int(sys.argv[2])
parts = [float(p) for p in sys.argv[3].split(":")]
wall = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
rss = int(sys.argv[4]) * 1024
np_products, np_total, np_same = float(sys.argv[5]), float(sys.argv[6]), sys.argv[7] == "1"
inputs = sum(os.path.getsize(os.path.join(sys.argv[8], f)) for f in ("x.npy", "y.npy"))
out = np.load(os.path.join(sys.argv[9], "output0.npy"))
ref = np.load(os.path.join(sys.argv[8], "ref.npy"))
equal = out.dtype == ref.dtype and out.shape == ref.shape and bool((out.view(np.uint16) == ref.view(np.uint16)).all())
macs = 128 * k * n
print(f"shape: x fp16 [128, {k}] . y fp16 [{k}, {n}], {macs:.3g} MACs")
print(f"tpbisa run: {wall:.3g} s wall, {macs / wall / 1e9:.2f} GMAC/s, peak RSS {rss / 2**30:.2f} GiB "
      f"(inputs {inputs / 2**30:.2f} GiB mapped), output equals NumPy: {'yes' if equal else 'NO'}")
pinned = f", pinned by OPENBLAS_CORETYPE={sys.argv[11]}: OpenBLAS's own pick was narrower" if sys.argv[11] else ""
print(f"numpy's OpenBLAS kernel: {sys.argv[10]}{pinned}")
print(f"numpy f32 products: {np_products:.3g} s ({macs / np_products / 1e9:.2f} GMAC/s); with the widening "
      f"{np_total:.2f} s; NumPy's result equals the reference: {'yes' if np_same else 'NO'}")
print(f"ratio tpbisa / numpy products: {wall / np_products:.2f}")
np_cpu, cpu = float(sys.argv[12]), float(sys.argv[13]) + float(sys.argv[14])
print(f"the same in CPU time (every thread; a loaded machine makes wall times wait): tpbisa {cpu:.2f} s, numpy "
      f"products {np_cpu:.2f} s, ratio {cpu / np_cpu:.2f}; load {open('/proc/loadavg').read().split()[0]}")
sys.exit(0 if equal and np_same else 1)
EOF
