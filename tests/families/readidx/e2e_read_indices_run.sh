#!/usr/bin/env bash
# DVE_READ_INDICES end to end with `tpbisa run` (one DVE stream) on 128 partitions: MAX8, MATCH_VALUE_LOAD and
# FIND_INDEX8 leave each partition's matched indices MI, DVE_READ_INDICES writes them as UINT16; compared with an
# independent NumPy model (the positions of the eight largest of distinct values, largest first).
. "$(dirname "$0")/../../e2e/numpy_run.sh" "${1:?usage: e2e_read_indices_run.sh TPBISA_BINARY SOURCE_DIR}"
e2e_python <<'EOF'
C, N = 128, 40
rng = np.random.default_rng(40)
x = np.stack([rng.permutation(N) for _ in range(C)]).astype(np.float32) - 7.5  # distinct values per partition
memory = [{"at": f"sbuf:{p}:0x1000", "dtype": "fp32", "bits": hexbits(x[p].view(np.uint32))} for p in range(C)]
write_init(memory)

def t4(addr, n):
    return struct.pack("<I4h4H", addr, 1, 0, 0, 0, n, 1, 1, 1)

def t2(addr, step, n):
    return struct.pack("<I2h2H", addr, step, 0, n, 1)

def s4d2_bn(opcode, out_dt, dst):  # act-index-ops.md §14.1: src T4D @12, dtypes @32/33, nac @34, dst T2D @48
    w = struct.pack("<BBBB8x", opcode, 16, 0, 0) + t4(0x1000, N) + struct.pack("<BBB5x8x", 0x0A, out_dt, C)
    return (w + t2(dst, 1, 8) + bytes(4)).hex()

# MATCH_VALUE_LOAD (S2_BN): the eight values at 0x2000 read backwards from 0x201c, fp32, on every channel.
mvl = (struct.pack("<BBBB8x4x", 0x6D, 16, 0, 0) + t2(0x201C, -1, 8) + bytes(4)
       + struct.pack("<BBB", 0x0A, 0, C) + bytes(29)).hex()
# DVE_READ_INDICES (D4_MR): count 8 @28, UINT16 @32, nac @34, dst T4D @44.
ri = (struct.pack("<BBBB8x16xI", 0xE9, 16, 0, 0, 8) + struct.pack("<BBB9x", 0x05, 0, C) + t4(0x5000, 8)).hex()
words = [s4d2_bn(0x6C, 0x0A, 0x2000), mvl, s4d2_bn(0x6E, 0x09, 0x3000), ri]
assert all(len(w) == 128 for w in words)
out = run(words, ["sbuf:%d:0x5000:u16:8" % p for p in range(C)])
if out.returncode != 0:
    print("FAIL: tpbisa run exited", out.returncode, out.stderr)
    sys.exit(1)
doc = json.loads(out.stdout)
want = np.argsort(-x, axis=1, kind="stable")[:, :8]
failures = 0
for p, d in enumerate(doc["dumps"]):
    have = [int(b, 16) for b in d["bits"]]
    if have != [int(v) for v in want[p]]:
        failures += 1
        print(f"FAIL: partition {p}: got {have}, expected {list(want[p])}")
print("read_indices_run:", "ok" if failures == 0 else f"{failures} failures")
sys.exit(1 if failures else 0)
EOF
