#!/usr/bin/env bash
# COPY_PREDICATED_SCALAR end to end with `tpbisa run` (one stream) on 128 partitions: an attention-style mask fill
# (-inf where a UINT8 predicate is zero) followed by the reversed polarity with a per-partition scalar behind a
# pointer; compared bit for bit with an independent NumPy model of the header's reference loop.
. "$(dirname "$0")/../../e2e/numpy_run.sh" "${1:?usage: e2e_copy_predicated_scalar_run.sh TPBISA_BINARY SOURCE_DIR}"
e2e_python <<'EOF'
C, N = 128, 48
rng = np.random.default_rng(40)
pred = (rng.random((C, N)) < 0.4).astype(np.uint8) * rng.integers(1, 256, (C, N)).astype(np.uint8)
pred2 = (rng.random((C, N)) < 0.5).astype(np.uint8)
dst = rng.standard_normal((C, N)).astype(np.float32)
scal = rng.standard_normal(C).astype(np.float32)
memory = []
for p in range(C):
    memory.append({"at": f"sbuf:{p}:0x1000", "dtype": "u8", "bits": hexbits(pred[p], "0x%02x")})
    memory.append({"at": f"sbuf:{p}:0x1400", "dtype": "u8", "bits": hexbits(pred2[p], "0x%02x")})
    memory.append({"at": f"sbuf:{p}:0x2000", "dtype": "fp32", "bits": hexbits(dst[p].view(np.uint32))})
    memory.append({"at": f"sbuf:{p}:0x3000", "dtype": "fp32", "bits": hexbits(scal[p:p + 1].view(np.uint32))})
write_init(memory)

def cps(pred_at, rev, imm_src, imm):  # S3D3_CP_PRED_SCALAR: pred T3D @16, u8 @32, rev @33, nac @34, fp32 @41/42
    w = struct.pack("<BBBB8x4x", 0xE8, 16, 0, 0) + t3(pred_at, N)
    w += struct.pack("<BBB6xBBBI", 0x03, rev, C, 0x0A, 0x0A, imm_src, imm) + t3(0x2000, N)
    return w.hex()

words = [cps(0x1000, 0, 0, 0xFF800000), cps(0x1400, 1, 1, 0x3000)]
assert all(len(w) == 128 for w in words)
out = run(words, ["sbuf:%d:0x2000:fp32:%d" % (p, N) for p in range(C)])
if out.returncode != 0:
    print("FAIL: tpbisa run exited", out.returncode, out.stderr)
    sys.exit(1)
doc = json.loads(out.stdout)
# The reference loop: out[i] = out[i] if pred[i] else src0 (reversed: src0 if pred[i] else out[i]).
want = dst.copy()
want[pred == 0] = np.float32(-np.inf)
want = np.where(pred2 != 0, scal[:, None], want).astype(np.float32)
failures = 0
for p, d in enumerate(doc["dumps"]):
    have = [int(b, 16) for b in d["bits"]]
    if have != [int(v) for v in want[p].view(np.uint32)]:
        failures += 1
        print(f"FAIL: partition {p}")
print("copy_predicated_scalar_run:", "ok" if failures == 0 else f"{failures} failures")
sys.exit(1 if failures else 0)
EOF
