#!/usr/bin/env python3
"""End-to-end check of the batch-norm statistics and search opcodes: a six-word DVE program (BATCH_NORM_STATS2,
BATCH_NORM_AGGREGATE, MAX8, MatchValueLoad, FIND_INDEX8, MATCH_REPLACE8) on four channels of random data, run with
`tpbisa run --json`, compared bit for bit with an independent NumPy model of act-index-ops.md §14.3 / §15.3.

Usage: e2e_run.py TPBISA_BINARY   (exit 0: equal; 1: a difference, printed; 77: NumPy missing)
The words are packed here from the spec's layouts (§14.1, §15.1, s2bn.md), not by the library.
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
NAC, N = 4, 12  # channels, source elements per channel
SRC, STATS, AGG, MAX8, FIND, MR = 0x1000, 0x2000, 0x2100, 0x2200, 0x2300, 0x2400


def header(opcode):
    return struct.pack("<BBBB8x", opcode, 16, 0, 0)


def tensor4d(start, n, step=1):
    return struct.pack("<I4h4H", start, step, 0, 0, 0, n, 1, 1, 1)


def s4d2_bn(opcode, src, n, out_dt, even, odd, dst, m):
    """S4D2_BN: header, events, src TENSOR4D, in/out dtype, channels, reserved, counts, dst TENSOR2D, reserved."""
    w = header(opcode) + tensor4d(src, n) + struct.pack("<BBB5xff", 0x0A, out_dt, NAC, even, odd)
    return w + struct.pack("<I2h2H4x", dst, 1, 0, m, 1)


def match_replace8(src, n, imm, dst):
    return header(0x6F) + tensor4d(src, n) + struct.pack("<BBB5xf", 0x0A, 0x0A, NAC, imm) + tensor4d(dst, n)


def match_value_load(src):
    """S2_BN MatchValueLoad: src_mem_pattern @16 (step -1 from the 8th value: MV[s] = the s-th largest)."""
    w = header(0x6D) + bytes(4) + struct.pack("<I2h2H", src + 28, -1, 0, 8, 1)
    w += struct.pack("<IBxB", 0, 0x0A, NAC)
    return w + bytes(64 - len(w))


WORDS = [
    s4d2_bn(0x61, SRC, N, 0x0A, 6.0, 6.0, STATS, 6),
    s4d2_bn(0x62, STATS, 6, 0x0A, 0.0, 0.0, AGG, 2),
    s4d2_bn(0x6C, SRC, N, 0x0A, 0.0, 0.0, MAX8, 8),
    match_value_load(MAX8),
    s4d2_bn(0x6E, SRC, N, 0x09, 0.0, 0.0, FIND, 8),
    match_replace8(SRC, N, float("-inf"), MR),
]
assert all(len(w) == 64 for w in WORDS)


# ---- The NumPy model (fp32 in element order, PROJ-CONV-A24..A28) ----

def moments(x):
    if len(x) == 0:
        return F32(0), F32(0)
    s = F32(0)
    for v in x:
        s = F32(s + v)
    mean = F32(s * F32(F32(1) / F32(len(x))))
    acc = F32(0)
    for v in x:
        d = F32(v - mean)
        acc = F32(acc + F32(d * d))
    return mean, acc


def model(x):
    """Per channel: STATS2, AGGREGATE, MAX8, FIND_INDEX8 (u32), MATCH_REPLACE8, MI, as fp32/u32 bit lists."""
    me, ve = moments(x[0::2])
    mo, vo = moments(x[1::2])
    stats = np.array([6.0, me, ve, 6.0, mo, vo], dtype=F32)
    total, weighted = F32(0), F32(0)
    for t in range(2):
        total = F32(total + stats[3 * t])
        weighted = F32(weighted + F32(stats[3 * t] * stats[3 * t + 1]))
    mean = F32(weighted / total)
    m2 = F32(0)
    for t in range(2):
        d = F32(stats[3 * t + 1] - mean)
        m2 = F32(m2 + F32(stats[3 * t + 2] + F32(stats[3 * t] * F32(d * d))))
    agg = np.array([mean, F32(m2 / total)], dtype=F32)
    order = sorted(range(len(x)), key=lambda k: (-float(x[k]), k))  # descending, ties in source order
    top = np.array([x[k] for k in order[:8]], dtype=F32)
    keys = top  # MatchValueLoad with step -1 from the 8th: MV[s] = top[s]
    matched, index = [False] * 8, [0xFFFFFFFF] * 8
    replaced = x.copy()
    for k, e in enumerate(x):
        for s in range(8):
            if not matched[s] and e == keys[s]:
                matched[s], index[s] = True, k
                replaced[k] = F32(-np.inf)
                break
    bits = lambda a: [int(v) for v in np.asarray(a, dtype=F32).view(np.uint32)]
    return {"stats": bits(stats), "agg": bits(agg), "max8": bits(top), "find": index, "mr": bits(replaced),
            "mi": index}


def main():
    tool = sys.argv[1]
    rng = np.random.default_rng(39)
    # Small integers and halves (duplicates likely, every statistic exact or deterministic in fp32).
    data = (rng.integers(-8, 9, size=(NAC, N)) / 2).astype(F32)
    with tempfile.TemporaryDirectory() as tmp:
        init = {"memory": [{"at": f"sbuf[p{c}]+{SRC:#x}", "dtype": "fp32", "values": [float(v) for v in data[c]]}
                           for c in range(NAC)]}
        with open(f"{tmp}/init.json", "w") as f:
            json.dump(init, f)
        dumps = []
        for c in range(NAC):
            dumps += ["--dump", f"sbuf[p{c}]+{STATS:#x}:fp32:6", "--dump", f"sbuf[p{c}]+{AGG:#x}:fp32:2",
                      "--dump", f"sbuf[p{c}]+{MAX8:#x}:fp32:8", "--dump", f"sbuf[p{c}]+{FIND:#x}:u32:8",
                      "--dump", f"sbuf[p{c}]+{MR:#x}:fp32:{N}", "--dump", f"match:{c}"]
        r = subprocess.run([tool, "run", "--gen", "cayman", "--hex", *[w.hex() for w in WORDS], "--init",
                            f"{tmp}/init.json", *dumps, "--json"], capture_output=True, text=True, check=False)
    if r.returncode != 0:
        print(r.stdout, r.stderr)
        return 1
    out = json.loads(r.stdout)
    assert out["retired"] == len(WORDS), out["retired"]
    got = iter(out["dumps"])
    failures = 0
    for c in range(NAC):
        want = model(data[c])
        for name in ("stats", "agg", "max8", "find", "mr"):
            d = next(got)
            values = [int(b, 16) for b in d["bits"]]
            if values != want[name]:
                print(f"channel {c} {name}: tpbisa {values}, NumPy {want[name]}")
                failures += 1
        mi = [int(e["bits"], 16) for e in next(got)["match_index"]]
        if mi != want["mi"]:
            print(f"channel {c} MI: tpbisa {mi}, NumPy {want['mi']}")
            failures += 1
    print(f"{NAC} channels, {failures} differences")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
