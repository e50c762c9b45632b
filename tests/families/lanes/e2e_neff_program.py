#!/usr/bin/env python3
"""The lanes and predicated families inside a generated NEFF: a program written with the NEFF writer of `tpbisa gen`
(python/tpbisa/gen.py: its Core streams, semaphores and DMA descriptors) loads two row tiles of NumPy inputs, runs
StreamTranspose (32 x 32 blocks across partitions, alu-ops.md §3.7) and CopyPredicated (§4.3, PROJ-CONV-K25) on DVE,
and stores the result; `tpbisa run` of the NEFF (two schedules, --check-races) must equal an independent NumPy model
of the same steps bit for bit: y[p][j] = T[p][j] where the UINT32 predicate m[p][j] is non-zero, else x[p][j], with
T[32g + j'][32b + i] = x[32g + i][32b + j'].

Usage: e2e_neff_program.py TPBISA_BINARY SOURCE_DIR   (exit 0: equal; 1: a difference; 77: the Python package or
NumPy is not available beside the binary: <build>/python).
"""

import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    sys.exit(77)

tool = os.path.abspath(sys.argv[1])
sys.path.insert(0, os.path.join(os.path.dirname(tool), "python"))
try:
    from tpbisa import gen  # noqa: E402  (the NEFF writer of `tpbisa gen`)
except ImportError:
    print("SKIP: the tpbisa Python package is not built beside the binary")
    sys.exit(77)

ROWS, COLS = 256, 96  # two tiles of 128 partitions; three 32-column blocks per row


def build(core, k, tiles):
    """Per tile: SP loads x and m, DVE transposes x into t and copies t over x where m is set, Pool stores x."""
    n = k.opts["cols"]
    s = core.sbuf
    s.ring("x", 2, n * 4)
    s.ring("m", 2, n * 4)  # UINT32 predicates
    s.ring("t", 2, n * 4)
    done, stores = [], []
    for i, tile in enumerate(tiles):
        x_off, x_key = s.at("x", i)
        m_off, m_key = s.at("m", i)
        t_off, t_key = s.at("t", i)
        x_tok = gen._load_tile(core, k, "x", tile, "x", i, gen._earlier(stores, i))
        m_tok = gen._load_tile(core, k, "m", tile, "m", i, gen._earlier(done, i))
        core.op("DVE", "StreamTranspose",
                f"{gen.pattern('src', x_off, n, 4)} in_dtype=fp32 out_dtype=fp32 num_active_channels=128 op=BYPASS "
                f"op_dim=UNUSED {gen.pattern('dst', t_off, n, 4)}",
                waits=[x_tok], acc=[(x_key, "r"), (t_key, "w")])
        done.append(core.op(
            "DVE", "CopyPredicated",
            f"in0_in1_dtype={{u32,fp32}} out_dtype=fp32 op=BYPASS num_active_channels=128 "
            f"{gen.pattern('src0', m_off, n, 3)} {gen.pattern('src1', t_off, n, 3)} {gen.pattern('dst', x_off, n, 3)}",
            waits=[m_tok], signal="dve_done", acc=[(m_key, "r"), (t_key, "r"), (x_key, "r"), (x_key, "w")]))
        stores.append(gen._store_tile(core, k, "output0", tile, "x", i, [done[-1]]))
    gen._finish(core, stores[-1:])


def model(x, m):
    """The independent model: the 32 x 32 block transpose per group of 32 partitions, then the predicated merge."""
    t = np.empty_like(x)
    for p0 in range(0, ROWS, 32):
        block = x[p0:p0 + 32].reshape(32, COLS // 32, 32)  # [i, b, j] = x[p0 + i][32b + j]
        t[p0:p0 + 32] = block.transpose(2, 1, 0).reshape(32, COLS)  # t[p0 + j][32b + i]
    take = m != 0
    return np.where(take, t.view(np.uint32), x.view(np.uint32)).view(np.float32)


def main():
    gen.BUILDERS["lanes_predicated_test"] = build
    rng = np.random.default_rng(38)
    x = rng.standard_normal((ROWS, COLS)).astype(np.float32)
    m = (rng.integers(0, 2, (ROWS, COLS)) * rng.integers(1, 2**32, (ROWS, COLS))).astype(np.uint32)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        k = gen.Kernel("lanes_predicated_test", {**gen.DEFAULTS, "rows": ROWS, "cols": COLS, "dtype": "fp32"})
        k.inputs.append(("m", "u32", [ROWS, COLS]))
        k.outputs = [("output0", "fp32", [ROWS, COLS])]  # after the inputs in the signature
        k.build(tool)
        neff = os.path.join(tmp, "prog.neff")
        k.write(neff, tool)
        np.save(os.path.join(tmp, "x.npy"), x)
        np.save(os.path.join(tmp, "m.npy"), m)
        want = model(x, m)
        for extra in (["--schedule", "default"], ["--schedule", "random:7", "--check-races"]):
            out = os.path.join(tmp, "out_" + extra[1].replace(":", "_"))
            p = subprocess.run([tool, "run", neff, "--quiet", "--input", f"x={tmp}/x.npy", "--input",
                                f"m={tmp}/m.npy", "--out", out] + extra, capture_output=True, text=True, check=False)
            if p.returncode != 0:
                print(f"FAIL: run {' '.join(extra)}: exit {p.returncode}: {(p.stdout + p.stderr)[-2000:]}")
                failures += 1
                continue
            got = np.load(os.path.join(out, "output0.npy"))
            if got.shape != want.shape or got.tobytes() != want.tobytes():
                bad = np.argwhere(got.view(np.uint32) != want.view(np.uint32))[:4].tolist()
                print(f"FAIL: {' '.join(extra)}: output0 differs from the NumPy model at {bad}")
                failures += 1
        p = subprocess.run([tool, "validate", neff], capture_output=True, text=True, check=False)
        last = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else p.stderr.strip()
        if p.returncode != 0 or " 0 invalid" not in last:
            print(f"FAIL: validate: {last}")
            failures += 1
    print("lanes/predicated NEFF program: " + ("differs" if failures else "equal to the NumPy model, bit for bit"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
