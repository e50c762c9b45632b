#!/usr/bin/env bash
# The tensor-scalar family end to end with `tpbisa run` (one DVE stream): TensorScalar MULT/ADD with per-partition
# pointer scalars, TensorScalarCacheReduce into the accumulators, DveReadAccumulator, compared bit for bit with an
# independent NumPy model (fp32 rounding after every op, the accumulator summed in element order, PROJ-CONV-K12).
. "$(dirname "$0")/../../e2e/numpy_run.sh" "${1:?usage: e2e_tensor_scalar_run.sh TPBISA_BINARY SOURCE_DIR}"
e2e_python <<'EOF'
C, N = 128, 64
rng = np.random.default_rng(38)
x = rng.uniform(-100, 100, size=(C, N)).astype(np.float32)
s0 = rng.uniform(-4, 4, size=C).astype(np.float32)   # per-partition scalars at +0x800
s1 = rng.uniform(-4, 4, size=C).astype(np.float32)   # and +0x804

memory = [{"at": f"sbuf:{p}:0x0", "dtype": "fp32", "bits": hexbits(x[p].view(np.uint32))} for p in range(C)]
memory += [{"at": f"sbuf:{p}:0x800", "dtype": "fp32",
            "bits": hexbits(np.array([s0[p], s1[p]], np.float32).view(np.uint32))} for p in range(C)]
write_init(memory)

def s3d3_ts(opcode, cmd, src, dst, imm0_src, op0, op1, rev, imm1_src, imm0, imm1):
    w = struct.pack("<BBBB8xB3x", opcode, 16, 0, 0, cmd) + t3(src, N)
    w += struct.pack("<8BII", 0x0A, 0x0A, C, imm0_src, op0, op1, rev, imm1_src, imm0, imm1) + t3(dst, N)
    assert len(w) == 64
    return w.hex()

MULT, ADD, SUB, BYPASS = 0x06, 0x04, 0x05, 0x00
f32 = lambda v: struct.unpack("<I", struct.pack("<f", v))[0]
words = [
    # y = s1 - (x * s0): reverse SECOND, both scalars through pointers (IMM_SRC 1)
    s3d3_ts(0x43, 0, 0x0, 0x1000, 1, MULT, SUB, 2, 1, 0x800, 0x804),
    # dst = y + 0.5 elementwise, ACC[c] = sum of them (ZERO_ACCUMULATE, op1 ADD)
    s3d3_ts(0x9A, 3, 0x1000, 0x2000, 0, ADD, ADD, 0, 0, f32(0.5), 0),
    # ACC[c] to sbuf+0x3000, one FP32 per channel
    (struct.pack("<BBBB8x16xIBBB9x", 0x9B, 16, 0, 0, 1, 0x0A, 0, C) + struct.pack("<IhH", 0x3000, 1, 1)
     + bytes(12)).hex(),
]
dumps = ["sbuf:0:0x1000:fp32:%d" % N, "sbuf:127:0x2000:fp32:%d" % N, "acc:5"]
dumps += ["sbuf:%d:0x3000:fp32:1" % p for p in range(C)]
out = run(words, dumps)
if out.returncode != 0:
    print("FAIL: tpbisa run exited", out.returncode, out.stderr)
    sys.exit(1)
doc = json.loads(out.stdout)
got = [[int(b, 16) for b in d["bits"]] if isinstance(d["bits"], list) else [] for d in doc["dumps"]]

# The reference: every op rounded to fp32 (NumPy float32 arithmetic), the sum in element order.
y = (s1[:, None] - (x * s0[:, None]).astype(np.float32)).astype(np.float32)
z = (y + np.float32(0.5)).astype(np.float32)
acc = np.zeros(C, np.float32)
for k in range(N):
    acc = (acc + z[:, k]).astype(np.float32)
failures = 0
def check(name, have, want):
    global failures
    want = [int(v) for v in np.asarray(want, np.float32).view(np.uint32)]
    if have != want:
        failures += 1
        print(f"FAIL: {name}: got {have[:4]}..., expected {want[:4]}...")
check("0x43 channel 0", got[0], y[0])
check("0x9A channel 127", got[1], z[127])
acc_dump = doc["dumps"][2]
if int(acc_dump["bits"], 16) != int(acc[5:6].view(np.uint32)[0]):
    failures += 1
    print("FAIL: acc:5 dump", acc_dump, "expected", hex(int(acc[5:6].view(np.uint32)[0])))
check("0x9B", [g[0] for g in got[3:]], acc)
print("tensor_scalar_run:", "ok" if failures == 0 else f"{failures} failures")
sys.exit(1 if failures else 0)
EOF
