#!/usr/bin/env bash
# MAX_POOL_SELECT end to end with `tpbisa run` (one stream) on 128 partitions: the position of the maximum of each 2x2
# window of an 8x8 FP32 map, as UINT16; compared with an independent NumPy model (argmax over each window's four
# elements in window-major order, the first of equal maxima).
. "$(dirname "$0")/../../e2e/numpy_run.sh" "${1:?usage: e2e_max_pool_select_run.sh TPBISA_BINARY SOURCE_DIR}"
e2e_python <<'EOF'
C, H = 128, 8
rng = np.random.default_rng(58)
x = rng.integers(-4, 5, (C, H, H)).astype(np.float32)  # small integers: ties in many windows
memory = [{"at": f"sbuf:{p}:0x1000", "dtype": "fp32", "bits": hexbits(x[p].reshape(-1).view(np.uint32))}
          for p in range(C)]
write_init(memory)
# S4D4_PL: src T4D @12 (x 1, y H, window column 2, window row 2H), fp32 @32, u16 @33, nac @34, pool_func NONE @36,
# pool_dim XY (3) @37, pool_scale 1.0 @40, dst T4D @44 (H/2 x H/2 positions).
w = struct.pack("<BBBB8x", 0x58, 16, 0, 0) + struct.pack("<I4h4H", 0x1000, 1, H, 2, 2 * H, 2, 2, H // 2, H // 2)
w += struct.pack("<BBBBBBBBI", 0x0A, 0x05, C, 0, 0, 3, 0, 0, 0x3F800000)
w += struct.pack("<I4h4H", 0x2000, 1, H // 2, 0, 0, H // 2, H // 2, 1, 1)
assert len(w) == 64
out = run([w.hex()], ["sbuf:%d:0x2000:u16:%d" % (p, (H // 2) ** 2) for p in range(C)])
if out.returncode != 0:
    print("FAIL: tpbisa run exited", out.returncode, out.stderr)
    sys.exit(1)
doc = json.loads(out.stdout)
# Window (i, j) in window-major order: (2i, 2j), (2i, 2j+1), (2i+1, 2j), (2i+1, 2j+1); np.argmax takes the first.
win = x.reshape(C, H // 2, 2, H // 2, 2).transpose(0, 1, 3, 2, 4).reshape(C, H // 2, H // 2, 4)
want = np.argmax(win, axis=3).reshape(C, -1)
failures = 0
for p, d in enumerate(doc["dumps"]):
    have = [int(b, 16) for b in d["bits"]]
    if have != [int(v) for v in want[p]]:
        failures += 1
        print(f"FAIL: partition {p}: got {have}, expected {list(want[p])}")
print("max_pool_select_run:", "ok" if failures == 0 else f"{failures} failures")
sys.exit(1 if failures else 0)
EOF
