#!/usr/bin/env python3
"""End-to-end checks of the mlp and attention NEFFs of `tpbisa gen`, and of the kernels on other generations
(docs/kernels.md), with the harness of tests/kernels/e2e_kernels.py: each program validates clean, runs under four
schedules with the same outputs, `--check-races` finds nothing, and the outputs equal an independent NumPy model of the
same steps bit for bit -- PE products and sums in fp32 in the PROJ-CONV-F17 order, transposes bit-exact, the
activation the NEFF's own table blobs evaluated by the independent §3.6 model of tests/families/act -- and lie within a
stated bound of float64 NumPy doing the textbook math; a dropped wait is a race `--check-races` reports, a variable
one row short fails `validate`.

Usage: kernels_e2e.py TPBISA_BINARY SOURCE_DIR KERNEL   (KERNEL: mlp, attention or generations -- layernorm,
softmax, mlp and attention on MARIANA, attention on SUNDA, softmax with the own tables; the package tpbisa
importable). Exit 0: every check passed; 1: a failure, printed.
"""

import math
import os
import sys
import tempfile

import numpy as np

SRC = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(SRC, "tests", "kernels"))
sys.path.insert(0, os.path.join(SRC, "tests", "families", "act"))
from e2e_exp_accumulate import load_set, neff_members, pwp_eval  # noqa: E402  (the independent §3.6 model)
from e2e_kernels import (F32, Checker, bf16_to_f32, check_softmax_bound, f32, load, model_layernorm,  # noqa: E402
                         model_softmax, narrow, seq_sum)

# Against float64 NumPy (inputs as given, textbook math): max |out - ref| <= BOUND * max |ref|.
MLP_BOUND = {"fp32": 5e-6, "fp16": 2e-3, "bf16": 1e-2}
ATTENTION_BOUND = {"fp32": 5e-6, "fp16": 1e-3, "bf16": 1e-2}


def table_of(path, prefix):
    """The profile named `prefix` of the first set the NEFF's sg00 lists, with that set's BUCKET and CONTROL."""
    profiles, buckets, control = load_set(neff_members(path))
    return next(p for p in profiles.values() if p["func_name"].rsplit("_", 1)[0] == prefix), buckets, control


def act_eval(table, a):
    """f(RN32(RN32(a * 1.0) + 0.0)) elementwise (ACTIVATE with scale 1, bias 0), by the §3.6 model."""
    profile, buckets, control = table
    y = f32(f32(a * F32(1.0)) + F32(0.0))
    cache = {}
    out = np.empty(y.shape, dtype=np.uint32)
    for idx, b in np.ndenumerate(y.view(np.uint32)):
        b = int(b)
        if b not in cache:
            cache[b] = pwp_eval(profile, buckets, control, b)
        out[idx] = cache[b]
    return out.view(F32)


def pe_product(w, x):
    """out[m, n] = sum over 128-row tiles of (fp32 running sum over k ascending of W[k, m] * X[k, n]), the tiles'
    sums added into the PSUM value one by one (PROJ-CONV-F17: fp32 products, fp32 sums, round to nearest even)."""
    psum = None
    for k0 in range(0, w.shape[0], 128):
        acc = np.zeros((w.shape[1], x.shape[1]), dtype=F32)
        for k in range(k0, min(k0 + 128, w.shape[0])):
            acc = f32(acc + f32(w[k][:, None] * x[k][None, :]))
        psum = acc if psum is None else f32(psum + acc)
    return psum


def widen(a, dt):
    return bf16_to_f32(a) if dt == "bf16" else f32(a)


def round_to(a, dt):
    """fp32 -> dt (nearest even) -> fp32, as a value the next step reads."""
    return widen(narrow(a, dt), dt) if dt != "fp32" else a


def model_mlp(a, table, dt):
    x, w1, w2 = (load(a, n, dt) for n in ("x", "w1", "w2"))
    out = []
    for t0 in range(0, x.shape[0], 128):
        hT = pe_product(w1, x[t0:t0 + 128].T)  # [f, tokens]
        h = round_to(act_eval(table, hT), dt)
        out.append(pe_product(h, w2))  # [tokens, d]
    return {"output0": narrow(np.concatenate(out), dt)}


def float64_mlp(a, dt, act):
    x, w1, w2 = (load(a, n, dt).astype(np.float64) for n in ("x", "w1", "w2"))
    h = x @ w1
    if act == "gelu":
        g = h * 0.5 * np.vectorize(math.erfc)(-h / math.sqrt(2))
    else:
        g = h / (1 + np.exp(-h))
    return g @ w2


def check_bound(c, name, got, ref, bound):
    err = float(np.abs(got.astype(np.float64) - ref).max() / np.abs(ref).max())
    if err > bound:
        c.fail(f"{name}: {err:.3g} of max |ref| from float64 NumPy (bound {bound})")
    else:
        print(f"{name}: within {err:.3g} of max |ref| of float64 NumPy (bound {bound})")


def run_mlp(c, tmp):
    for name, opts in [("mlp", ["--rows", "256", "--cols", "256", "--hidden", "640"]),
                       ("mlp_silu_bf16", ["--cols", "640", "--hidden", "256", "--act", "silu", "--dtype", "bf16"]),
                       ("mlp_fp16_lnc2", ["--rows", "256", "--cols", "128", "--hidden", "256", "--dtype", "fp16",
                                          "--lnc", "2"])]:
        dt = opts[opts.index("--dtype") + 1] if "--dtype" in opts else "fp32"
        act = opts[opts.index("--act") + 1] if "--act" in opts else "gelu"
        path = f"{tmp}/{name}.neff"
        c.check_shape(name, "mlp", opts, ["x", "w1", "w2"],
                      lambda a, dt=dt, act=act, path=path: model_mlp(a, table_of(path, act), dt))
        if "output0" in c.outputs:
            arrays = {i: np.load(f"{tmp}/{name}/{i}.npy") for i in ("x", "w1", "w2")}
            check_bound(c, name, widen(c.outputs["output0"], dt), float64_mlp(arrays, dt, act), MLP_BOUND[dt])
    c.negative("mlp", "mlp", ["--cols", "128", "--hidden", "256"], ["x", "w1", "w2"], "act", "w2")


def model_attention(a, table, dt):
    """Per 128 queries: scores by the PE order, times the fp32 scale, masked to -inf above the query's position
    S - R + r, exp(s + (-max)) from the tables with the fp32 row sum in key order, P rounded to dt, P V by the PE
    order, times the correctly rounded 1/sum, rounded to dt."""
    q, k, v = (load(a, n, dt) for n in ("q", "k", "v"))
    rows, keys, dh = q.shape[0], k.shape[0], q.shape[1]
    scale = F32(1 / math.sqrt(dh))
    out = []
    for t0 in range(0, rows, 128):
        sc = f32(pe_product(q[t0:t0 + 128].T, k.T) * scale)
        pos = keys - rows + t0 + np.arange(128)[:, None]
        sc = np.where(np.arange(keys)[None, :] <= pos, sc, F32(-np.inf)).astype(F32)
        negmax = f32(-sc.max(axis=1))
        e = act_eval(table, f32(sc + negmax[:, None]))
        recip = f32(F32(1) / seq_sum(e))
        o = pe_product(round_to(e, dt).T, v)
        out.append(f32(o * recip[:, None]))
    return {"output0": narrow(np.concatenate(out), dt)}


def float64_attention(a, dt):
    q, k, v = (load(a, n, dt).astype(np.float64) for n in ("q", "k", "v"))
    rows, keys = q.shape[0], k.shape[0]
    s = q @ k.T / math.sqrt(q.shape[1])
    s = np.where(np.arange(keys)[None, :] <= keys - rows + np.arange(rows)[:, None], s, -np.inf)
    p = np.exp(s - s.max(axis=1, keepdims=True))
    return (p / p.sum(axis=1, keepdims=True)) @ v


def run_attention(c, tmp):
    for name, opts in [("attention", ["--rows", "256", "--cols", "640", "--head-dim", "64"]),
                       ("attention_bf16", ["--cols", "256", "--head-dim", "128", "--dtype", "bf16"]),
                       ("attention_fp16_lnc2", ["--rows", "256", "--cols", "256", "--head-dim", "32", "--dtype",
                                                "fp16", "--lnc", "2"])]:
        dt = opts[opts.index("--dtype") + 1] if "--dtype" in opts else "fp32"
        path = f"{tmp}/{name}.neff"
        c.check_shape(name, "attention", opts, ["q", "k", "v"],
                      lambda a, dt=dt, path=path: model_attention(a, table_of(path, "exp"), dt))
        if "output0" in c.outputs:
            arrays = {i: np.load(f"{tmp}/{name}/{i}.npy") for i in ("q", "k", "v")}
            check_bound(c, name, widen(c.outputs["output0"], dt), float64_attention(arrays, dt),
                        ATTENTION_BOUND[dt])
    c.negative("attention", "attention", ["--cols", "256"], ["q", "k", "v"], "mask", "v")
    c.negative("attention", "attention", ["--cols", "256"], ["q", "k", "v"], "pv", "output0")


def run_generations(c, tmp):
    """The kernels on MARIANA (layernorm, softmax, mlp, attention) and SUNDA (attention): the same checks and models
    as on CAYMAN; and softmax on CAYMAN with tpbisa's own tables on two cores, also within its bound of float64."""
    path = f"{tmp}/softmax_own.neff"
    c.check_shape("softmax_own", "softmax", ["--rows", "256", "--cols", "300", "--lnc", "2"], ["x"],
                  lambda a: model_softmax(a["x"], table_of(path, "exp")))
    if "output0" in c.outputs:
        check_softmax_bound(c, "softmax_own", np.load(f"{tmp}/softmax_own/x.npy"), c.outputs["output0"])
    for gen in ("mariana",):
        c.check_shape(f"layernorm_{gen}", "layernorm", ["--rows", "256", "--cols", "640", "--gen", gen],
                      ["x", "gamma", "beta"],
                      lambda a: model_layernorm(f32(a["x"]), f32(a["gamma"]), f32(a["beta"]), F32(1e-5), "fp32"))
        path = f"{tmp}/softmax_{gen}.neff"
        c.check_shape(f"softmax_{gen}", "softmax", ["--rows", "256", "--cols", "200", "--gen", gen], ["x"],
                      lambda a, path=path: model_softmax(a["x"], table_of(path, "exp")))
        path = f"{tmp}/mlp_{gen}.neff"
        c.check_shape(f"mlp_{gen}", "mlp", ["--cols", "256", "--hidden", "384", "--dtype", "bf16", "--gen", gen],
                      ["x", "w1", "w2"], lambda a, path=path: model_mlp(a, table_of(path, "gelu"), "bf16"))
        path = f"{tmp}/attention_{gen}.neff"
        c.check_shape(f"attention_{gen}", "attention", ["--cols", "384", "--head-dim", "96", "--gen", gen],
                      ["q", "k", "v"], lambda a, path=path: model_attention(a, table_of(path, "exp"), "fp32"))
    path = f"{tmp}/attention_sunda.neff"
    c.check_shape("attention_sunda", "attention", ["--cols", "256", "--head-dim", "96", "--gen", "sunda"],
                  ["q", "k", "v"], lambda a: model_attention(a, table_of(path, "exp"), "fp32"))
    c.negative("softmax_mariana", "softmax", ["--rows", "256", "--cols", "64", "--gen", "mariana"], ["x"], "exp",
               "output0")


def main():
    tool, _src, kernel = sys.argv[1:4]
    runs = {"mlp": run_mlp, "attention": run_attention, "generations": run_generations}
    if kernel not in runs:
        print(f"unknown kernel {kernel} (known: {', '.join(runs)})")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        checker = Checker(tool, tmp)
        runs[kernel](checker, tmp)
    print(f"{kernel}: {checker.failures} failures")
    return 1 if checker.failures else 0


if __name__ == "__main__":
    sys.exit(main())
