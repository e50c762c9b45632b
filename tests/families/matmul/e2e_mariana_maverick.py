#!/usr/bin/env python3
"""End-to-end check of LDWEIGHTS / MATMUL on MARIANA and MAVERICK (real-programs.md §8.3, §9.3, §9.4, §9.6): a
generated PE program per generation — a K-split accumulation group (MULTI_START then MULTI_END) whose two stationary
tiles are loaded in both column orders (the compiler's backward walk with LAST_COL_FIRST, and a forward walk with
LD_WEIGHT_FLAGS load_order FIRST_COL_FIRST), a partial-row SINGLE matmul, and on MARIANA a PE transpose of a tile
holding NaN, Inf and -0 — run with `tpbisa run --json` and compared bit for bit with an independent NumPy model of
PROJ-CONV-F16..F18 (FP32 products, FP32 running sum over k ascending, BEGIN overwrites, MID/END add). Words whose
fields have no public semantics must fault saying so (PROJ-CONV-PE2, PE3).

Usage: e2e_mariana_maverick.py TPBISA_BINARY [SOURCE_DIR]   (exit 0: equal; 1: a difference, printed; 77: no NumPy)
The words are packed here from the spec's byte tables (§8.1, §9.1, §9.6), not by the library.
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

F16, F32 = np.float16, np.float32
FP16, FP32 = 0x07, 0x0A  # DTYPE codes
K, M, N = 128, 96, 48  # contraction rows, PE columns (output partitions), moving elements
KP = 64  # rows of the partial matmul and of the transpose
PSUM = 0x2000000  # MARIANA PSUM partition 0, bank 0 (memory-and-numerics.md §3)
BANK = 0x800


def header(opcode):
    return struct.pack("<BBBB8x", opcode, 16, 0, 0)  # HEADER + EVENTS (no wait, no update)


def tensor3d(start, step, num):
    return struct.pack("<I3h3H", start, *step, *num)


def forward(start, n):
    return tensor3d(start, (1, 0, 0), (n, 1, 1))


def backward(start, n, size=2):
    """The compiler's walk of a stationary row: from its last element backwards (real-programs.md §8.4)."""
    return tensor3d(start + (n - 1) * size, (-1, 0, 0), (n, 1, 1))


# ---- MARIANA layouts (§8.1, §9.1 with §9.6: bg_xpose_mode @12, LD_WEIGHT_FLAGS @47, MATMUL_FLAGS @42) ----

def lw_mariana(src, rows, cols, transpose=0, flags=0):
    w = header(0x01) + bytes(4) + src + struct.pack("<BBBB2xBB4xBBxB", FP16, 0, transpose, 0, rows, cols, 0xF, 0xF,
                                                   flags)
    return w + bytes(64 - len(w))


def mm_mariana(src, rows, cols, acc, dst, transpose=0, matmul_flags=0, out_dtype=0):
    return (header(0x02) + bytes(4) + src +
            struct.pack("<BBBB2xBBBxBBBBBB", FP16, 0, transpose, 0, rows, cols, out_dtype, matmul_flags, acc, 0xF, 0xF,
                        0, 0) + dst)


# ---- MAVERICK layouts (§9.6, re-packed: no transpose, no groups, columns 0 = 256) ----

def lw_maverick(src, rows, cols, flags=0, perf_mode=0):
    w = header(0x01) + bytes(4) + src + struct.pack("<BBBBBBBB", FP16, 0, rows, cols, 0, 0, flags, perf_mode)
    return w + bytes(64 - len(w))


def mm_maverick(src, rows, cols, acc, dst, out_dtype=0, in_dtype=FP16):
    fp32_mode = 3 if in_dtype == FP32 else 0  # Low_High: the multi-pass FP32 product an FP32 tile needs
    return header(0x02) + bytes(4) + src + struct.pack("<BBBBBBBBB7x", in_dtype, fp32_mode, out_dtype, rows, cols, 0,
                                                       0, acc, 0) + dst


# ---- The NumPy model (PROJ-CONV-F17: FP32 products, FP32 running sum over k ascending) ----

def product(w, x):
    """out[m][n] = sum over k of w[k][m] * x[k][n], each step rounded to FP32, k ascending, from +0."""
    acc = np.zeros((w.shape[1], x.shape[1]), dtype=F32)
    for k in range(w.shape[0]):
        acc = (acc + np.outer(w[k].astype(F32), x[k].astype(F32)).astype(F32)).astype(F32)
    return acc


def fp16_tile(rng, rows, cols, specials=False):
    t = (rng.standard_normal((rows, cols)) * 4).astype(F16)
    if specials:  # the bits a PE transpose must pass unchanged (PROJ-CONV-F18)
        t[0, 0], t[1, 1], t[2, 2], t[3, 3] = F16(np.nan), F16(np.inf), F16(-0.0), F16(-np.inf)
    return t


def memory(at_of, tile):
    """init memory entries writing row k of an fp16 tile at partition k, as exact bit patterns."""
    return [{"at": at_of(k), "dtype": "fp16", "bits": [f"{int(b):#06x}" for b in tile[k].view(np.uint16)]}
            for k in range(tile.shape[0])]


def run(tool, gen, words, init, dumps, tmp):
    with open(f"{tmp}/init.json", "w") as f:
        json.dump(init, f)
    args = [tool, "run", "--gen", gen, "--engine", "pe", "--hex", *[w.hex() for w in words], "--init",
            f"{tmp}/init.json", "--json"]
    for d in dumps:
        args += ["--dump", d]
    r = subprocess.run(args, capture_output=True, text=True, check=False)
    try:
        return json.loads(r.stdout), r
    except json.JSONDecodeError:
        return None, r


def compare(name, got, want, failures):
    """Bit patterns `got` (hex strings) against the uint array `want`."""
    values = [int(b, 16) for b in got]
    if values != [int(v) for v in want]:
        bad = next(i for i, (a, b) in enumerate(zip(values, want)) if a != int(b))
        print(f"{name}: element {bad}: tpbisa {values[bad]:#x}, NumPy {int(want[bad]):#x}")
        failures.append(name)


def check_run(gen, out, r, expected, failures):
    if out is None or out.get("status") != "ok":
        print(f"{gen}: the program did not run: {r.stdout[:2000]} {r.stderr[:2000]}")
        failures.append(gen)
        return
    dumps = iter(out["dumps"])
    for name, want in expected:
        compare(f"{gen} {name}", next(dumps)["bits"], want, failures)


def mariana(tool, rng, tmp, failures):
    a, b = fp16_tile(rng, K, M), fp16_tile(rng, K, M)
    x1, x2 = fp16_tile(rng, K, N), fp16_tile(rng, K, N)
    c = fp16_tile(rng, KP, M, specials=True)
    ident = np.eye(KP, dtype=F16)
    sb = lambda off: lambda p: f"sbuf[p{p}]+{off:#x}"
    init = {"memory": memory(sb(0x1000), a) + memory(sb(0x2000), x1) + memory(sb(0x3000), b) +
            memory(sb(0x4000), x2) + memory(sb(0x5000), c) + memory(sb(0x6000), ident)}
    words = [
        lw_mariana(backward(0x1000, M), K, M),  # LAST_COL_FIRST over a backward walk: W = a
        mm_mariana(forward(0x2000, N), K, M, 1, forward(PSUM, N)),  # MULTI_START: overwrites bank 0
        lw_mariana(forward(0x3000, M), K, M, flags=0x20),  # load_order FIRST_COL_FIRST over a forward walk: W = b
        mm_mariana(forward(0x4000, N), K, M, 2, forward(PSUM, N)),  # MULTI_END: adds into bank 0
        mm_mariana(forward(0x4000, N), KP, M, 3, forward(PSUM + 2 * BANK, N)),  # SINGLE, 64 rows of W = b
        lw_mariana(backward(0x5000, M), KP, M, transpose=1),  # the tile to transpose
        mm_mariana(forward(0x6000, KP), KP, M, 3, forward(PSUM + BANK, KP), transpose=1),  # PE transpose, FP16
    ]
    mm = (product(a, x1) + product(b, x2)).astype(F32)  # PSUM: BEGIN wrote the first sum, END added the second
    partial = product(b[:KP], x2[:KP])
    expected = [(f"bank0 p{m}", mm[m].view(np.uint32)) for m in range(M)]
    expected += [(f"bank2 p{m}", partial[m].view(np.uint32)) for m in range(M)]
    expected += [(f"bank1 p{m} (transpose)", c[:, m].view(np.uint16)) for m in range(M)]
    dumps = [f"psum[p{m}].bank0+0:fp32:{N}" for m in range(M)] + [f"psum[p{m}].bank2+0:fp32:{N}" for m in range(M)]
    dumps += [f"psum[p{m}].bank1+0:fp16:{KP}" for m in range(M)]
    out, r = run(tool, "mariana", words, init, dumps, tmp)
    check_run("mariana", out, r, expected, failures)
    return words


def maverick(tool, rng, tmp, failures):
    a, b = fp16_tile(rng, K, M), fp16_tile(rng, K, M)
    x1, x2 = fp16_tile(rng, K, N), fp16_tile(rng, K, N)
    sb = lambda off: lambda p: f"sbuf[p{p}]+{off:#x}"
    init = {"memory": memory(sb(0x1000), a) + memory(sb(0x2000), x1) + memory(sb(0x3000), b) +
            memory(sb(0x4000), x2)}
    out1, out2 = 0x10000, 0x11000  # MAVERICK has no PSUM: the results go to SBUF (PROJ-CONV-N1)
    words = [
        lw_maverick(backward(0x1000, M), K, M),
        mm_maverick(forward(0x2000, N), K, M, 1, forward(out1, N)),
        lw_maverick(forward(0x3000, M), K, M, flags=0x20),
        mm_maverick(forward(0x4000, N), K, M, 2, forward(out1, N)),
        mm_maverick(forward(0x4000, N), KP, M, 3, forward(out2, N)),
    ]
    mm = (product(a, x1) + product(b, x2)).astype(F32)
    partial = product(b[:KP], x2[:KP])
    expected = [(f"p{m}", mm[m].view(np.uint32)) for m in range(M)]
    expected += [(f"partial p{m}", partial[m].view(np.uint32)) for m in range(M)]
    dumps = [f"sbuf[p{m}]+{out1:#x}:fp32:{N}" for m in range(M)] + [f"sbuf[p{m}]+{out2:#x}:fp32:{N}" for m in range(M)]
    out, r = run(tool, "maverick", words, init, dumps, tmp)
    check_run("maverick", out, r, expected, failures)
    return words


def maverick_over_its_moving_rows(tool, rng, tmp, failures):
    """FP32 moving rows in SBUF, written over by the product's own results 64 bytes further on (MAVERICK puts them in
    SBUF): every moving element is read before any result is written, whatever the run's path reads in place."""
    a = fp16_tile(rng, K, M)
    x = (rng.standard_normal((K, N)) * 3).astype(F32)
    sb = lambda off: lambda p: f"sbuf[p{p}]+{off:#x}"
    init = {"memory": memory(sb(0x1000), a) +
            [{"at": sb(0x2000)(k), "dtype": "fp32", "bits": [f"{int(b):#010x}" for b in x[k].view(np.uint32)]}
             for k in range(K)]}
    words = [lw_maverick(backward(0x1000, M), K, M),
             mm_maverick(forward(0x2000, N), K, M, 1, forward(0x2040, N), in_dtype=FP32)]
    mm = product(a, x)
    expected = [(f"over p{m}", mm[m].view(np.uint32)) for m in range(M)]
    out, r = run(tool, "maverick", words, init, [f"sbuf[p{m}]+0x2040:fp32:{N}" for m in range(M)], tmp)
    check_run("maverick", out, r, expected, failures)


def refusals(tool, tmp, failures):
    """Words whose fields no public source defines fault with UnsupportedOpcode, naming the convention."""
    lw_m = lw_mariana(forward(0x1000, M), K, M)
    lw_v = lw_maverick(forward(0x1000, M), K, M)
    cases = [
        ("mariana", [lw_m, mm_mariana(forward(0x2000, N), K, M, 3, forward(PSUM, N), matmul_flags=0x10)], "PE2"),
        ("mariana", [lw_m, mm_mariana(forward(0x2000, N), K, M, 3, forward(PSUM, N), out_dtype=0x06)], "PE2"),
        ("mariana", [lw_mariana(forward(0x1000, M), K, M, flags=0x08)], "PE2"),
        ("maverick", [lw_v, mm_maverick(forward(0x2000, N), K, M, 7, forward(0x10000, N))], "PE2"),
        ("maverick", [lw_maverick(forward(0x1000, M), K, M, perf_mode=1)], "PE2"),
        ("maverick", [lw_maverick(forward(0x1000, 256), K, 0)], "PE3"),
    ]
    for gen, words, conv in cases:
        out, r = run(tool, gen, words, {}, [], tmp)
        fault = (out or {}).get("fault") or {}
        if fault.get("kind") != "UnsupportedOpcode" or f"PROJ-CONV-{conv}" not in fault.get("detail", ""):
            print(f"{gen} {words[-1].hex()}: expected an UnsupportedOpcode fault naming PROJ-CONV-{conv}, got "
                  f"{r.stdout[:600]} {r.stderr[:600]}")
            failures.append(conv)


def main():
    tool = sys.argv[1]
    rng = np.random.default_rng(40)
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for gen, words in (("mariana", mariana(tool, rng, tmp, failures)), ("maverick", maverick(tool, rng, tmp,
                                                                                                 failures))):
            v = subprocess.run([tool, "validate", "--gen", gen, "--engine", "pe", "--hex", *[w.hex() for w in words]],
                               capture_output=True, text=True, check=False)
            if v.returncode != 0:  # the generated words are valid on their generation
                print(f"{gen}: tpbisa validate: {v.stdout[-2000:]} {v.stderr[-600:]}")
                failures.append(f"{gen} validate")
        maverick_over_its_moving_rows(tool, rng, tmp, failures)
        refusals(tool, tmp, failures)
    print(f"MARIANA and MAVERICK PE programs: {len(failures)} differences")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
