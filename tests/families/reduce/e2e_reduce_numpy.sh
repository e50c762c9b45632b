#!/usr/bin/env bash
# The reduce family end to end: a small program of TensorReduce (fp32 ADD over XY, negated MAX to fp16, bit-vector
# XOR), TransposeTensorReduce MAX, TensorCumulative ADD to fp16 and Reciprocal runs with `tpbisa run` (one DVE stream,
# CAYMAN) on random inputs, and every output element equals, bit for bit, an independent NumPy model written here
# from alu-ops.md §3.2-§3.5: sequential fp32 folds in flat order (PROJ-CONV-K6), the 32 x 32 transpose (K7),
# inclusive scans (K9), the correctly rounded 1/x (K17), fp32 -> fp16 round to nearest even (N12).
set -u
tool=${1:?usage: reduce_numpy.sh TPBISA_BINARY SOURCE_DIR}
py=/usr/bin/python3
if ! "$py" -c 'import numpy' 2>/dev/null; then
  echo "SKIP: NumPy is not installed for $py"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$py" - "$tool" "$tmp" <<'EOF'
import json, subprocess, sys
import numpy as np

tool, tmp = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(38)
C = 32                     # channels (partitions 0..31)
X, Y = 8, 4                # a reduction over X and Y: 32 elements per channel, one output
a = (rng.standard_normal((C, X * Y)) * 100).astype(np.float32)      # SB 0x0000, fp32
b = rng.integers(0, 2**32, size=(C, 16), dtype=np.uint64).astype(np.uint32)  # SB 0x1000, u32
t = (rng.standard_normal((C, 32)) * 10).astype(np.float32)          # SB 0x2000, fp32 (transposed)
r = (rng.standard_normal((C, 16)) * 4).astype(np.float32)           # SB 0x3000, fp32 (reciprocal)
r[0, :4] = [0.0, -0.0, np.inf, 1e-40]

state = {"memory": []}
for name, arr, off, dt in (("a", a, 0x0, "fp32"), ("b", b, 0x1000, "u32"), ("t", t, 0x2000, "fp32"),
                           ("r", r, 0x3000, "fp32")):
    for p in range(C):
        bits = arr[p].view(np.uint32)
        state["memory"].append({"at": f"sbuf[p{p}]+{off:#x}", "dtype": dt, "bits": [f"{v:#x}" for v in bits]})
json.dump(state, open(f"{tmp}/state.json", "w"))

def t4(name, at, step, num):
    return (f"{name}.start_addr=sbuf[p0]+{at:#x} {name}.step_elem={{{','.join(map(str, step))}}} "
            f"{name}.num_elem={{{','.join(map(str, num))}}}")

lines = [
    # fp32 ADD over X and Y (op_dim XY): one sum per channel.
    f"TensorReduceArithOp {t4('src', 0x0, (1, X, 0, 0), (X, Y, 1, 1))} in_dtype=fp32 out_dtype=fp32 "
    f"num_active_channels={C} op=ADD op_dim=XY {t4('dst', 0x4000, (1, 1, 1, 1), (1, 1, 1, 1))}",
    # negated MAX over X: Y = 4 outputs per channel, written as fp16.
    f"TensorReduceArithOp {t4('src', 0x0, (1, X, 0, 0), (X, Y, 1, 1))} in_dtype=fp32 out_dtype=fp16 "
    f"num_active_channels={C} negated=1 op=MAX op_dim=X {t4('dst', 0x4100, (1, 1, 1, 1), (Y, 1, 1, 1))}",
    # XOR of raw u32 bits over groups of 4.
    f"TensorReduceBitvecOp {t4('src', 0x1000, (1, 4, 0, 0), (4, 4, 1, 1))} in_dtype=u32 out_dtype=u32 "
    f"num_active_channels={C} op=BITWISE_XOR op_dim=X {t4('dst', 0x4200, (1, 1, 1, 1), (4, 1, 1, 1))}",
    # MAX of the transposed rows.
    f"TransposeTensorReduceArithOp {t4('src', 0x2000, (1, 1, 1, 1), (32, 1, 1, 1))} in_dtype=fp32 out_dtype=fp32 "
    f"num_active_channels={C} op=MAX op_dim=X {t4('dst', 0x4300, (1, 1, 1, 1), (1, 1, 1, 1))}",
    # Inclusive fp32 ADD scans over groups of X, written as fp16.
    f"TensorCumulativeArithOp {t4('src', 0x0, (1, X, 0, 0), (X, Y, 1, 1))} in_dtype=fp32 out_dtype=fp16 "
    f"num_active_channels={C} op=ADD op_dim=X {t4('dst', 0x4400, (1, 1, 1, 1), (X * Y, 1, 1, 1))}",
    # 1/x in fp32.
    f"Reciprocal {t4('src', 0x3000, (1, 1, 1, 1), (16, 1, 1, 1))} in_dtype=fp32 out_dtype=fp32 "
    f"num_active_channels={C} op=BYPASS op_dim=UNUSED {t4('dst', 0x4600, (1, 1, 1, 1), (16, 1, 1, 1))}",
]
open(f"{tmp}/prog.tasm", "w").write("\n".join(lines) + "\n")

dumps = [("0x4000", "fp32", 1), ("0x4100", "fp16", Y), ("0x4200", "u32", 4), ("0x4300", "fp32", 1),
         ("0x4400", "fp16", X * Y), ("0x4600", "fp32", 16)]
args = [tool, "run", "--gen", "cayman", f"{tmp}/prog.tasm", "--init", f"{tmp}/state.json", "--json"]
for p in range(C):
    for at, dt, n in dumps:
        args += ["--dump", f"sbuf[p{p}]+{at}:{dt}:{n}"]
out = subprocess.run(args, capture_output=True, text=True)
if out.returncode != 0:
    print("FAIL: tpbisa run:", out.stdout[:2000], out.stderr[:2000])
    sys.exit(1)
doc = json.loads(out.stdout)
got = {}
for d in doc["dumps"]:
    got[d["at"]] = [int(x, 16) for x in d["bits"]]

f32 = np.float32
def fold(seq, op):                      # PROJ-CONV-K6: left = running value, fp32 after every step
    acc = f32(seq[0])
    for x in seq[1:]:
        acc = op(acc, f32(x))
    return f32(acc)
def fmax(p, q):                         # maxNum
    return q if np.isnan(p) else p if np.isnan(q) else max(p, q)
def bits32(v):
    return int(np.array([v], dtype=np.float32).view(np.uint32)[0])
def bits16(v):                          # fp32 -> fp16, round to nearest even (NumPy's cast)
    return int(np.array([v], dtype=np.float32).astype(np.float16).view(np.uint16)[0])

failures = 0
def check(p, at, want):
    global failures
    key = f"sbuf[p{p}]+{at}"
    if got.get(key) != want:
        failures += 1
        if failures < 10:
            print(f"FAIL: {key}: got {got.get(key)}, want {want}")

for p in range(C):
    check(p, "0x4000", [bits32(fold(a[p], lambda s, x: f32(s + x)))])
    check(p, "0x4100", [bits16(f32(fold(a[p, X * y:X * (y + 1)], fmax) * f32(-1))) for y in range(Y)])
    check(p, "0x4200", [int(np.bitwise_xor.reduce(b[p, 4 * g:4 * g + 4])) for g in range(4)])
    column = [t[i, p] for i in range(32)]   # T[p][k] = S[k][p] within the 32 x 32 block
    check(p, "0x4300", [bits32(fold(column, fmax))])
    scans = []
    for y in range(Y):
        acc = None
        for x in a[p, X * y:X * (y + 1)]:
            acc = f32(x) if acc is None else f32(acc + f32(x))
            scans.append(bits16(acc))
    check(p, "0x4400", scans)
    with np.errstate(divide="ignore", over="ignore"):
        check(p, "0x4600", [bits32(f32(1) / f32(x)) for x in r[p]])
if failures:
    print(f"{failures} dump(s) differ")
    sys.exit(1)
print(f"reduce family: {len(lines)} words on {C} channels equal the NumPy model bit for bit")
EOF
