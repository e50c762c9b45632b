#!/usr/bin/env python3
"""End-to-end check of the pool family: a four-word program (SORT, POOL, CROSS_LANE_REDUCE, INDIRECT_COPY) on random
data, run with `tpbisa run --json`, compared bit for bit with an independent NumPy model of the header semantics and
AWS's local_gather (PROJ-CONV-G77..G80).

Usage: e2e_run.py TPBISA_BINARY [SOURCE_DIR]   (exit 0: equal; 1: a difference, printed; 77: NumPy missing)
The words are packed here from the public layouts (opcode-research.md §A.2.6), not by the library.
"""

import json
import struct
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:  # the check needs NumPy
    sys.exit(77)

F32 = np.float32
NAC = 16
SORT_N, SORT_OFF = 12, 1000
SORT_SRC, SORT_DST = 0x1000, 0x1100
FMAP, POOLED = 0x1200, 0x1300  # 4x4 fp32 per channel -> 2x2 averages
CR_SRC, CR_DST = 0x1400, 0x1500  # 8 fp32 per channel, summed across the channels
IDX, DATA, GATHERED = 0x1600, 0x1700, 0x1800  # 8 uint16 indices (partition first), 64-element buffer, 2 per index
N_IDX, PER, BUF = 8, 2, 64


def header(opcode):
    return struct.pack("<BBBB8x", opcode, 16, 0, 0)


def t4(start, steps, nums):
    return struct.pack("<I4h4H", start, *steps, *nums)


def sort_word():
    """S1D2_SORT: nac @12, IMM_SRC @13, DTYPE_PAIR @14, comparison @15, src TENSOR1D @16, dst TENSOR2D @24,
    index_offset @36, stable @40."""
    w = header(0x96) + struct.pack("<BBBB", NAC, 0, 0xAA, 0x13)  # FP32, IS_GT: descending
    w += struct.pack("<IhH", SORT_SRC, 1, SORT_N) + struct.pack("<I2h2H", SORT_DST, 1, 2, 2, SORT_N)
    w += struct.pack("<IB", SORT_OFF, 1)
    return w + bytes(64 - len(w))


def pool_word():
    """S4D4_PL: src T4D @12, in/out/nac @32..34, pool_func @36, pool_dim @37, pool_scale @40, dst T4D @44."""
    return (header(0x45) + t4(FMAP, (1, 4, 2, 8), (2, 2, 2, 2)) + struct.pack("<BBBxBB2xf", 0x0A, 0x0A, NAC, 2, 3, 0.25)
            + t4(POOLED, (1, 2, 1, 1), (2, 2, 1, 1)))


def cross_lane_word():
    """S4D4_CR: reduce_op @35 (ADD 0), reduce_axis @36 (PARTITIONS 1), scale @40."""
    return (header(0x7C) + t4(CR_SRC, (1, 0, 0, 0), (8, 1, 1, 1)) + struct.pack("<BBBBB3xf", 0x0A, 0x0A, NAC, 0, 1, 0.0)
            + t4(CR_DST, (1, 0, 0, 0), (8, 1, 1, 1)))


def indirect_copy_word():
    """S4D4_IC: INDIRECT {index_addr, data_addr, num_elem} @12, in/out/nac @32..34, per-index @35, src_buffer_size
    @38, dst T4D @44."""
    src = struct.pack("<IIH10x", IDX, DATA, N_IDX * PER)
    return (header(0xE7) + src + struct.pack("<BBBBBxHH2x", 0x0A, 0x0A, NAC, PER, 0, BUF, 0)
            + t4(GATHERED, (1, 0, 0, 0), (N_IDX * PER, 1, 1, 1)))


WORDS = [sort_word(), pool_word(), cross_lane_word(), indirect_copy_word()]
assert all(len(w) == 64 for w in WORDS)


def bits(a):
    return [int(v) for v in np.asarray(a, dtype=F32).view(np.uint32)]


def model(sort_src, fmap, cr, idx, data):
    out = {}
    for c in range(NAC):
        x = sort_src[c]
        order = sorted(range(SORT_N), key=lambda k: (-float(x[k]), k))  # descending, ties in source order
        pairs = []
        for k in order:
            pairs += [bits([x[k]])[0], k + SORT_OFF]
        out[("sort", c)] = pairs
        f = fmap[c].reshape(4, 4)
        pooled = []
        for wy in range(2):
            for wx in range(2):
                s = F32(0)
                for e, v in enumerate([f[2 * wy, 2 * wx], f[2 * wy, 2 * wx + 1], f[2 * wy + 1, 2 * wx],
                                       f[2 * wy + 1, 2 * wx + 1]]):
                    s = v if e == 0 else F32(s + v)
                pooled.append(F32(s * F32(0.25)))
        out[("pool", c)] = bits(pooled)
        core_indices = [int(idx[i % 16][i // 16]) for i in range(N_IDX)]  # partition dimension first
        out[("gather", c)] = bits([data[c][i + e] for i in core_indices for e in range(PER)])
    sums = []
    for k in range(8):
        s = F32(0)
        for c in range(NAC):
            s = cr[c][k] if c == 0 else F32(s + cr[c][k])
        sums.append(s)
    out[("cross", 0)] = bits(sums)
    return out


def main():
    tool = sys.argv[1]
    rng = np.random.default_rng(40)
    sort_src = (rng.integers(-6, 7, size=(NAC, SORT_N)) / 2).astype(F32)  # duplicates likely
    fmap = (rng.integers(-16, 17, size=(NAC, 16)) / 4).astype(F32)
    cr = (rng.integers(-20, 21, size=(NAC, 8)) / 2).astype(F32)
    idx = np.zeros((16, 1), dtype=np.uint16)
    idx[:N_IDX, 0] = rng.integers(0, BUF - PER + 1, size=N_IDX)
    data = (rng.integers(-100, 101, size=(NAC, BUF)) / 8).astype(F32)
    memory = []
    for c in range(NAC):
        for at, values in ((SORT_SRC, sort_src[c]), (FMAP, fmap[c]), (CR_SRC, cr[c]), (DATA, data[c])):
            memory.append({"at": f"sbuf[p{c}]+{at:#x}", "dtype": "fp32", "values": [float(v) for v in values]})
        memory.append({"at": f"sbuf[p{c}]+{IDX:#x}", "dtype": "u16", "values": [int(v) for v in idx[c]]})
    with tempfile.TemporaryDirectory() as tmp:
        with open(f"{tmp}/init.json", "w") as f:
            json.dump({"memory": memory}, f)
        dumps = []
        for c in range(NAC):
            dumps += ["--dump", f"sbuf[p{c}]+{SORT_DST:#x}:u32:{2 * SORT_N}", "--dump", f"sbuf[p{c}]+{POOLED:#x}:fp32:4",
                      "--dump", f"sbuf[p{c}]+{GATHERED:#x}:fp32:{N_IDX * PER}"]
        dumps += ["--dump", f"sbuf[p0]+{CR_DST:#x}:fp32:8"]
        r = subprocess.run([tool, "run", "--gen", "cayman", "--hex", *[w.hex() for w in WORDS], "--init",
                            f"{tmp}/init.json", *dumps, "--json"], capture_output=True, text=True, check=False)
    if r.returncode != 0:
        print(r.stdout, r.stderr)
        return 1
    out = json.loads(r.stdout)
    assert out["retired"] == len(WORDS), out["retired"]
    want = model(sort_src, fmap, cr, idx, data)
    got = iter(out["dumps"])
    failures = 0
    keys = [(name, c) for c in range(NAC) for name in ("sort", "pool", "gather")] + [("cross", 0)]
    for key in keys:
        values = [int(b, 16) for b in next(got)["bits"]]
        if values != want[key]:
            print(f"{key}: tpbisa {values}, NumPy {want[key]}")
            failures += 1
    print(f"{len(keys)} dumps, {failures} differences")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
