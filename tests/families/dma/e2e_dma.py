"""Runs a three-word DMA program with `tpbisa run` -- DMAMEMCPY with a cast, DMA_INDIRECT gather and DMA_TRANSPOSE --
and compares the memory it leaves bit for bit with an independent NumPy model of PROJ-CONV-DM3, DM8 and DM9.
Usage: python3 e2e_dma.py path/to/tpbisa [source dir]"""

import json
import struct
import subprocess
import sys
import tempfile

import numpy as np

P = 0x40000  # SBUF partition stride on CAYMAN (memory-and-numerics.md §2)
FP32, BF16 = 0x0A, 0x06


def header(op):
    return struct.pack("<BBBB", op, 16, 0, 0) + bytes(8)


def memcpy_cast():
    # 8 FP32 at p0 +0x100 -> 8 BF16 at p1 +0x100, one chunk each side; semaphore 5 += 1.
    w = header(0xB8) + struct.pack("<BBBB", 0, 5, 1, 0)
    w += struct.pack("<QiiHHHBB", 0x100, 0, 0, 1, 1, 32, 0, 0)
    w += struct.pack("<QiiHHHBB", P + 0x100, 0, 0, 1, 1, 16, FP32, BF16)
    return w


def gather():
    # 4 rows of 8 bytes gathered from a table at p2 +0x0 by the indices at p0 +0x300 into p2 +0x100.
    w = header(0xBB) + struct.pack("<BBBB", 6, 1, 128, 0)
    w += struct.pack("<QiHH", 2 * P, 8, 4, 8) + struct.pack("<QiHH", 2 * P + 0x100, 8, 4, 8)
    w += struct.pack("<IIBBBBBBBB", 0x300, 0, FP32, FP32, 0, 0, 0, 0, 0, 0)
    return w


def transpose():
    # 16 rows (partitions 16..31, +0x0) of 8 BF16 columns -> 8 partitions (32..39) of 16 BF16 at +0x200.
    w = header(0xBD) + struct.pack("<BBBB", 0, 0, BF16, BF16)
    w += struct.pack("<QiiHHi", 16 * P, 2, P, 8, 16, P)
    w += struct.pack("<QiiHHBBBB", 32 * P + 0x200, P, 32, 8, 1, 16, 8, 7, 0)
    return w


def run(tool, words, init, dumps):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(init, f)
    args = [tool, "run", "--gen", "cayman", "--init", f.name, "--json"]
    for w in words:
        assert len(w) == 64
        args += ["--hex", w.hex()]
    for d in dumps:
        args += ["--dump", d]
    out = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    return [np.array([int(b, 16) for b in d["bits"]], dtype=np.uint32) for d in out["dumps"]]


def bf16_bits(x):
    # Round to nearest even of the high half (the values below are exact in BF16 or halfway-free).
    u = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint32)


def main(tool):
    ok = True

    def check(name, got, want):
        nonlocal ok
        if not np.array_equal(got, np.asarray(want, dtype=np.uint32)):
            ok = False
            print(f"{name}: got {got}, want {want}")

    rng = np.random.default_rng(40)
    src = (rng.integers(-64, 64, 8) / 4).astype(np.float32)  # exact in BF16
    table = (np.arange(8).repeat(2) * 10 + np.tile([0, 1], 8)).astype(np.float32)
    idx = np.array([6, 1, 1, 4], dtype=np.uint32)
    tsrc = rng.integers(0, 0x7F7F, (16, 8)).astype(np.uint32)
    init = {"memory": [{"at": "sbuf:0:0x100", "dtype": "fp32", "values": src.tolist()},
                       {"at": "sbuf:2:0x0", "dtype": "fp32", "values": table.tolist()},
                       {"at": "sbuf:0:0x300", "dtype": "u32", "values": idx.tolist()}]
            + [{"at": f"sbuf:{16 + r}:0x0", "dtype": "u16", "values": tsrc[r].tolist()} for r in range(16)]}
    dumps = ["sbuf:1:0x100:bf16:8", "sbuf:2:0x100:fp32:8"] + [f"sbuf:{32 + c}:0x200:bf16:16" for c in range(8)]
    got = run(tool, [memcpy_cast(), gather(), transpose()], init, dumps)
    check("memcpy cast", got[0], bf16_bits(src))
    check("gather", got[1], table.reshape(8, 2)[idx].ravel().view(np.uint32))
    for c in range(8):
        check(f"transpose row {c}", got[2 + c], tsrc[:, c])
    print("ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
