"""Runs the index family's spec words X9-X13 with `tpbisa run` and compares the memory bit for bit with an
independent NumPy model of act-index-ops.md §9.3-§13.3. Usage: python3 run_examples.py path/to/tpbisa"""

import json
import subprocess
import sys
import tempfile

import numpy as np

X = {
    "X9": "7e100000000000000000000005000000 01000a00000000000300020001000100 00080200640000000000000000100000 01000000000000000600010001000100",
    "X10": "92100000000000000000000004aa0105 00000000ffff00000000000004000100 01000100001000000100000004000100 00200000010000000400010001000000",
    "X11": "bc100000000000000000000001aa0308 00000000ffff7fff0010000001000000 0800010014160000000000400000a040 00200000010000000800010000000000",
    "X12": "be100000000000000000000001000808 00100000010000000000090001000100 00200000010000000900090001000200 00000000000000000000000000000000",
    "X13": "f21000000000000000000000110a0800 00100000010000000000080001000100 1000000000000000ffffffff00200000 01000000000009000100010000000000",
}


def run(tool, word, init, dumps):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(init, f)
    args = [tool, "run", "--gen", "cayman", "--hex", word, "--init", f.name, "--json"]
    for d in dumps:
        args += ["--dump", d]
    out = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    return [np.array([int(b, 16) for b in d["bits"]], dtype=np.uint32) for d in out["dumps"]]


def bits(a):
    return np.asarray(a).astype(np.int64).astype(np.uint32) if np.asarray(a).dtype.kind in "iu" else \
        np.asarray(a, dtype=np.float32).view(np.uint32)


def main(tool):
    ok = True

    def check(name, got, want):
        nonlocal ok
        if not np.array_equal(got, want):
            ok = False
            print(f"{name}: got {got}, want {want}")

    # IOTA: base 5, steps (1, 10), nums (3, 2), channel_multiplier 100, INT32.
    got = run(tool, X["X9"], {}, ["sbuf:0:0x1000:i32:6", "sbuf:1:0x1000:i32:6"])
    y, x = np.meshgrid(np.arange(2), np.arange(3), indexing="ij")
    for c in range(2):
        check(f"iota p{c}", got[c], bits((5 + 100 * c + x + 10 * y).ravel()))

    # AFFINE_SELECT: mask c - x >= 0 keeps, else R5 = -inf.
    src = np.arange(1, 17, dtype=np.float32).reshape(4, 4)
    init = {"regs": {"r5": "0xff800000"},
            "memory": [{"at": f"sbuf:{p}:0x1000", "dtype": "fp32", "values": src[p].tolist()} for p in range(4)]}
    got = run(tool, X["X10"], init, [f"sbuf:{p}:0x2000:fp32:4" for p in range(4)])
    want = np.where(np.arange(4)[:, None] - np.arange(4)[None, :] >= 0, src, np.float32(-np.inf))
    for p in range(4):
        check(f"affine_select p{p}", got[p], bits(want[p]))

    # RANGE_SELECT: keep 2 <= k < 5, else -FLT_MAX.
    src = np.arange(10, 18, dtype=np.float32)
    got = run(tool, X["X11"], {"memory": [{"at": "sbuf:0:0x1000", "dtype": "fp32", "values": src.tolist()}]},
              ["sbuf:0:0x2000:fp32:8"])
    k = np.arange(8)
    check("range_select", got[0], bits(np.where((k >= 2) & (k < 5), src, -np.finfo(np.float32).max)))

    # GET_SEQUENCE_BOUNDS: per element the start and exclusive end of its run; padding n / -1.
    ids = np.array([0, 1, 1, 2, 2, 2, 0, 3, 3])
    got = run(tool, X["X12"], {"memory": [{"at": "sbuf:0:0x1000", "dtype": "i32", "values": ids.tolist()}]},
              ["sbuf:0:0x2000:i32:18"])
    n = len(ids)
    starts, ends = np.empty(n, np.int64), np.empty(n, np.int64)
    for i in range(n):
        a = i
        while a > 0 and ids[a - 1] == ids[i]:
            a -= 1
        b = i
        while b + 1 < n and ids[b + 1] == ids[i]:
            b += 1
        starts[i], ends[i] = (n, -1) if ids[i] == 0 else (a, b + 1)
    check("sequence_bounds", got[0], bits(np.concatenate([starts, ends])))

    # NONZERO_WITH_COUNT: partitions 0 and 16 processed; offset 16, padding -1.
    p0 = np.array([0, 1, 1, 0, 0, 1, 0, 0], np.float32)
    p16 = np.array([5, 0, 0, 0, 0, 0, 0, -1], np.float32)
    init = {"memory": [{"at": "sbuf:0:0x1000", "dtype": "fp32", "values": p0.tolist()},
                       {"at": "sbuf:16:0x1000", "dtype": "fp32", "values": p16.tolist()},
                       {"at": "sbuf:1:0x2000", "dtype": "i32", "values": [7] * 9}]}
    got = run(tool, X["X13"], init, ["sbuf:0:0x2000:i32:9", "sbuf:16:0x2000:i32:9", "sbuf:1:0x2000:i32:9"])
    for name, v, g in (("p0", p0, got[0]), ("p16", p16, got[1])):
        nz = np.nonzero(v)[0] + 16
        check(f"nonzero {name}", g, bits(np.concatenate([nz, np.full(8 - len(nz), -1), [len(nz)]]).astype(np.int64)))
    check("nonzero p1 untouched", got[2], bits(np.full(9, 7)))

    print("ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
