#!/usr/bin/env python3
"""End-to-end checks of the kernel NEFFs `tpbisa gen` writes (docs/kernels.md): for each shape, the program
validates clean, runs under four schedules with the same outputs, `--check-races` finds nothing, and the outputs equal
an independent NumPy model of the same steps bit for bit (every step of these kernels is an IEEE fp32 operation in a
fixed order, RSQRT correctly rounded, a bf16 or fp16 output rounded to nearest even -- the model computes RSQRT
exactly with fractions; softmax's exp is the activation tables evaluated by the independent §3.6 model of
tests/families/act/e2e_exp_accumulate.py, and softmax is also held within a stated bound of float64 NumPy); the
negative controls bite: a dropped wait is a race `--check-races` reports, a variable one row short fails the program
checks of `validate`.

Usage: e2e_kernels.py TPBISA_BINARY SOURCE_DIR KERNEL   (the package tpbisa importable: PYTHONPATH=<build>/python)
Exit 0: every check passed; 1: a failure, printed; 77: softmax skipped (../shared/data/matmul_small.neff, the NEFF
whose activation tables it carries, is absent).
"""

import json
import os
import subprocess
import sys
import tempfile
from fractions import Fraction

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "families", "act"))
from e2e_exp_accumulate import load_set, neff_members, pwp_eval  # noqa: E402  (the independent §3.6 model)

F32 = np.float32
SCHEDULES = ["default", "reverse", "random:1", "random:7"]


def f32(a):
    return np.asarray(a, dtype=F32)


def bf16_to_f32(bits):
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(F32)


def f32_to_bf16(a):
    """Round to nearest even (finite values): the bf16 word."""
    u = f32(a).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def seq_sum(cols):
    """fp32 sum of the columns of `cols` [rows, n], left to right (the order the engines fold in)."""
    s = np.zeros(cols.shape[0], dtype=F32)
    for j in range(cols.shape[1]):
        s = f32(s + cols[:, j])
    return s


def rsqrt_exact(a):
    """The fp32 nearest to 1/sqrt(a) for positive finite fp32 a: a float64 guess, then its neighbours decided
    exactly (t > m  <=>  m^2 * a < 1, t = 1/sqrt(a)), so no double rounding can creep in."""
    out = np.empty_like(a)
    for i, v in enumerate(a):
        c = F32(1 / np.sqrt(np.float64(v)))
        av = Fraction(float(v))
        for _ in range(4):
            up, down = np.nextafter(c, F32(np.inf)), np.nextafter(c, F32(0))
            if (Fraction((float(c) + float(up)) / 2) ** 2) * av < 1:  # t lies above the upper midpoint
                c = up
            elif (Fraction((float(c) + float(down)) / 2) ** 2) * av > 1:  # below the lower midpoint
                c = down
            else:
                break
        out[i] = c
    return out


def moments(v):
    """BN_STATS2's statistics of one parity class: mean = sum * (1/n), M2 = sum of squared deviations."""
    n = v.shape[1]
    mean = f32(seq_sum(v) * F32(F32(1) / F32(n)))
    d = f32(v - mean[:, None])
    return F32(n), mean, seq_sum(f32(d * d))


def narrow(y, dt):
    """The output in its dtype: bf16 words or fp16, each rounded to nearest even from fp32."""
    return f32_to_bf16(y) if dt == "bf16" else y.astype(np.float16) if dt == "fp16" else y


def model_layernorm(x, gamma, beta, eps, dt):
    groups = []
    for c0 in range(0, x.shape[1], 512):
        chunk = x[:, c0:c0 + 512]
        groups += [moments(chunk[:, 0::2]), moments(chunk[:, 1::2])]
    rows = x.shape[0]
    total, weighted = np.zeros(rows, F32), np.zeros(rows, F32)
    for cnt, mean, _ in groups:
        total = f32(total + cnt)
        weighted = f32(weighted + f32(cnt * mean))
    mean = f32(weighted / total)
    m2 = np.zeros(rows, F32)
    for cnt, m, s2 in groups:
        d = f32(m - mean)
        m2 = f32(m2 + f32(s2 + f32(cnt * f32(d * d))))
    var = f32(m2 / total)
    rstd = rsqrt_exact(f32(var + F32(eps)))
    t = f32(f32(x - mean[:, None]) * gamma[None, :])
    y = f32(f32(t * rstd[:, None]) + beta[None, :])
    return {"output0": narrow(y, dt)}


def model_rmsnorm(x, gamma, eps, dt):
    ss = seq_sum(f32(x * x))
    ms = f32(f32(ss * F32(1.0 / x.shape[1])) + F32(eps))
    rstd = rsqrt_exact(ms)
    y = f32(f32(x * rstd[:, None]) * gamma[None, :])
    return {"output0": narrow(y, dt)}


def model_topk(x, k):
    order = np.argsort(-x.astype(np.float64), axis=1, kind="stable")[:, :k]  # ties: the lower index first
    return {"values": np.take_along_axis(x, order, axis=1), "indices": order.astype(np.uint32)}


def model_causal(x):
    r = np.arange(x.shape[0])[:, None]
    j = np.arange(x.shape[1])[None, :]
    return {"output0": np.where(j <= r, x, F32(-np.inf)).astype(F32), "relpos": (j - r).astype(np.int32)}


SOFTMAX_BOUND = 3e-5  # |softmax - float64 softmax| <= SOFTMAX_BOUND * float64 softmax, element by element


def model_softmax(x, table):
    """Row max (negated, exact), exp(1.0 * x + (-max)) from the tables, the fp32 row sum from +0 in element order,
    1/sum correctly rounded, each exp times it."""
    e, total = softmax_exp_and_sums(x, table)
    recip = f32(F32(1) / total)
    return {"output0": f32(e * recip[:, None])}


def softmax_exp_and_sums(x, table):
    """The exps of model_softmax and their fp32 row sums (what ACTIVATE leaves in the ACT accumulators)."""
    profile, buckets, control = table
    negmax = f32(-x.max(axis=1))
    arg = f32(f32(x * F32(1.0)) + negmax[:, None])
    cache = {}
    bits = arg.view(np.uint32)
    e_bits = np.empty_like(bits)
    for idx, b in np.ndenumerate(bits):
        b = int(b)
        if b not in cache:
            cache[b] = pwp_eval(profile, buckets, control, b)
        e_bits[idx] = cache[b]
    e = e_bits.view(F32)
    return e, seq_sum(e)


def check_act_state(c, name, x, table):
    """The report's ACT state: the loaded set, and the ACT accumulators holding the last 128-row tile's row sums."""
    p = c.run(name, ["x"], "--json")
    doc = json.loads(p.stdout) if p.stdout.strip().startswith("{") else {}
    act = doc.get("cores", [{}])[0].get("engines", {}).get("ACT", {})
    if act.get("act_set") != "exp_and_others":
        c.fail(f"{name}: the report's ACT engine names no set exp_and_others: {act.get('act_set')}")
        return
    _, total = softmax_exp_and_sums(x, table)
    last = total[-128:].view(np.uint32)
    want = {str(ch): f"0x{int(b):08x}" for ch, b in enumerate(last) if int(b) != 0}
    got = {ch: v["bits"] for ch, v in act.get("accumulators", {}).items()}
    if got != want:
        c.fail(f"{name}: the report's ACT accumulators are not the last tile's row sums")
    else:
        print(f"{name}: the report's ACT state (set, {len(got)} accumulators) checked")


def check_softmax_bound(c, name, x, got):
    """The tables approximate exp: softmax within SOFTMAX_BOUND (relative) of float64 NumPy."""
    xd = x.astype(np.float64)
    e = np.exp(xd - xd.max(axis=1, keepdims=True))
    ref = e / e.sum(axis=1, keepdims=True)
    rel = float((np.abs(got.astype(np.float64) - ref) / ref).max())
    if rel > SOFTMAX_BOUND:
        c.fail(f"{name}: softmax differs from float64 NumPy by {rel:.3g} relative (bound {SOFTMAX_BOUND})")
    else:
        print(f"{name}: within {rel:.3g} relative of float64 softmax (bound {SOFTMAX_BOUND})")


class Checker:
    def __init__(self, tool, tmp):
        self.tool, self.tmp, self.failures = tool, tmp, 0
        self.outputs = {}  # the last shape's outputs under the default schedule

    def fail(self, what):
        print(f"FAIL: {what}")
        self.failures += 1

    def gen(self, name, kernel, *opts):
        """Runs the generator (python -m tpbisa.gen); returns its stdout, or None after a failure."""
        env = dict(os.environ, TPBISA=self.tool)
        p = subprocess.run([sys.executable, "-m", "tpbisa.gen", kernel, "--out", f"{self.tmp}/{name}.neff",
                            "--write-inputs", f"{self.tmp}/{name}", *opts], capture_output=True, text=True, env=env,
                           check=False)
        if p.returncode != 0:
            self.fail(f"{name}: the generator failed: {p.stderr.strip()}")
            return None
        return p.stdout

    def run(self, name, inputs, *extra, out=None):
        argv = [self.tool, "run", f"{self.tmp}/{name}.neff", "--quiet"]
        for i in inputs:
            argv += ["--input", f"{i}={self.tmp}/{name}/{i}.npy"]
        if out:
            argv += ["--out", out]
        return subprocess.run(argv + list(extra), capture_output=True, text=True, check=False)

    def validate_clean(self, name):
        p = subprocess.run([self.tool, "validate", f"{self.tmp}/{name}.neff"], capture_output=True, text=True,
                           check=False)
        last = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
        words = last.split(" ")[0]
        if p.returncode != 0 or last != f"{words} checked, {words} valid, 0 invalid, 0 header-only":
            self.fail(f"{name}: validate: {last or p.stderr.strip()}")
            print(p.stdout[-3000:])

    def check_shape(self, name, kernel, opts, inputs, model):
        """Generate, validate, run under every schedule and with --check-races, compare with the model."""
        self.outputs = {}
        if self.gen(name, kernel, *opts) is None:
            return
        self.validate_clean(name)
        results = {}
        for sched in SCHEDULES:
            out = f"{self.tmp}/{name}.{sched.replace(':', '_')}"
            p = self.run(name, inputs, "--schedule", sched, out=out)
            if p.returncode != 0:
                self.fail(f"{name} --schedule {sched}: exit {p.returncode}: {(p.stdout + p.stderr)[-2000:]}")
                return
            results[sched] = {f[:-4]: np.load(f"{out}/{f}") for f in sorted(os.listdir(out))}
        first = results[SCHEDULES[0]]
        for sched in SCHEDULES[1:]:
            for key, arr in first.items():
                if arr.tobytes() != results[sched][key].tobytes():
                    self.fail(f"{name}: {key} under --schedule {sched} differs from the default schedule's")
        p = self.run(name, inputs, "--check-races", "--json")
        if p.returncode != 0:
            self.fail(f"{name} --check-races: exit {p.returncode}: {(p.stdout + p.stderr)[-2000:]}")
        else:
            races = json.loads(p.stdout).get("races", {})
            if races.get("count", 0) != 0:
                self.fail(f"{name}: --check-races reports {races.get('count')} races")
        arrays = {i: np.load(f"{self.tmp}/{name}/{i}.npy") for i in inputs}
        self.outputs = first
        want = model(arrays)
        for key, ref in want.items():
            got = first.get(key)
            if got is None or got.shape != ref.shape or got.tobytes() != np.ascontiguousarray(ref).tobytes():
                bad = "missing" if got is None else f"{int((got != ref).sum())} of {ref.size} elements differ"
                self.fail(f"{name}: {key} differs from the NumPy model ({bad})")
        print(f"{name}: validate, {len(SCHEDULES)} schedules, --check-races, NumPy model: checked")

    def negative(self, name, kernel, opts, inputs, tag, var):
        """A dropped wait is a race --check-races reports; a variable one row short fails validate."""
        out = self.gen(f"{name}_race", kernel, *opts, "--drop-wait", tag)
        if out is not None:
            if "unordered accesses" not in out:
                self.fail(f"{name} --drop-wait {tag}: the generator's replay reports no race: {out}")
            p = self.run(f"{name}_race", inputs, "--check-races", "--json")
            doc = json.loads(p.stdout) if p.stdout.strip().startswith("{") else {}
            if p.returncode != 1 or doc.get("races", {}).get("count", 0) == 0:
                self.fail(f"{name} --drop-wait {tag}: run --check-races does not report the race "
                          f"(exit {p.returncode})")
            else:
                print(f"{name} --drop-wait {tag}: {doc['races']['count']} races reported")
        if self.gen(f"{name}_small", kernel, *opts, "--undersize", var) is not None:
            p = subprocess.run([self.tool, "validate", f"{self.tmp}/{name}_small.neff"], capture_output=True,
                               text=True, check=False)
            if p.returncode == 0 or "_in_variable" not in p.stdout:
                self.fail(f"{name} --undersize {var}: validate does not fail the transfer: {p.stdout[-500:]}")
            else:
                print(f"{name} --undersize {var}: validate fails it")


def load(arrays, name, dt):
    """An input widened to fp32 (exact for bf16 words and fp16)."""
    a = arrays[name]
    return bf16_to_f32(a) if dt == "bf16" else f32(a)


def main():
    tool, _src, kernel = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        c = Checker(tool, tmp)
        if kernel == "layernorm":
            for name, opts in [("ln", ["--rows", "256", "--cols", "640"]),
                               ("ln_lnc2", ["--rows", "512", "--cols", "96", "--lnc", "2"]),
                               ("ln_bf16", ["--rows", "128", "--cols", "256", "--dtype", "bf16"]),
                               ("ln_fp16", ["--rows", "128", "--cols", "256", "--dtype", "fp16"])]:
                dt = opts[opts.index("--dtype") + 1] if "--dtype" in opts else "fp32"
                c.check_shape(name, "layernorm", opts, ["x", "gamma", "beta"],
                              lambda a, dt=dt: model_layernorm(load(a, "x", dt), load(a, "gamma", dt),
                                                               load(a, "beta", dt), F32(1e-5), dt))
            c.negative("ln", "layernorm", ["--rows", "256", "--cols", "64"], ["x", "gamma", "beta"], "stats", "output0")
        elif kernel == "rmsnorm":
            for name, opts in [("rms", ["--rows", "256", "--cols", "384"]),
                               ("rms_lnc2", ["--rows", "256", "--cols", "64", "--lnc", "2"]),
                               ("rms_bf16", ["--rows", "128", "--cols", "256", "--dtype", "bf16"]),
                               ("rms_fp16", ["--rows", "128", "--cols", "256", "--dtype", "fp16"])]:
                dt = opts[opts.index("--dtype") + 1] if "--dtype" in opts else "fp32"
                c.check_shape(name, "rmsnorm", opts, ["x", "gamma"],
                              lambda a, dt=dt: model_rmsnorm(load(a, "x", dt), load(a, "gamma", dt), F32(1e-5), dt))
            c.negative("rms", "rmsnorm", ["--rows", "256", "--cols", "64"], ["x", "gamma"], "scale", "x")
        elif kernel == "softmax":
            neff = os.path.join(_src, "..", "shared", "data", "matmul_small.neff")
            if not os.path.exists(neff):
                print(f"{neff} is absent: skipped")
                return 77
            tables = ["--tables-from", os.path.abspath(neff)]
            profiles, buckets, control = load_set(neff_members(neff))
            table = (next(p for p in profiles.values() if p["func_name"].startswith("exp")), buckets, control)
            # softmax_wide: a tile of 2^16 elements, whose ACTIVATE evaluates its channels on the threads the core
            # leaves free (the command's default --jobs) where the machine has two CPUs or more.
            for name, opts in [("softmax", ["--rows", "256", "--cols", "200"]),
                               ("softmax_lnc2", ["--rows", "256", "--cols", "64", "--lnc", "2"]),
                               ("softmax_wide", ["--rows", "128", "--cols", "512"])]:
                c.check_shape(name, "softmax", opts + tables, ["x"], lambda a: model_softmax(a["x"], table))
                if "output0" in c.outputs:
                    check_softmax_bound(c, name, np.load(f"{tmp}/{name}/x.npy"), c.outputs["output0"])
                    if name == "softmax":
                        check_act_state(c, name, np.load(f"{tmp}/{name}/x.npy"), table)
            c.negative("softmax", "softmax", ["--rows", "256", "--cols", "64"] + tables, ["x"], "exp", "output0")
            c.negative("softmax", "softmax", ["--rows", "256", "--cols", "64"] + tables, ["x"], "recip", "x")
        elif kernel == "topk":
            for name, opts in [("topk", ["--rows", "256", "--cols", "200", "--k", "16"]),
                               ("topk_lnc2", ["--rows", "256", "--cols", "64", "--k", "8", "--lnc", "2"])]:
                kk = int(opts[opts.index("--k") + 1])
                c.check_shape(name, "topk", opts, ["x"], lambda a, kk=kk: model_topk(a["x"], kk))
            c.negative("topk", "topk", ["--rows", "256", "--cols", "64", "--k", "8"], ["x"], "max8", "indices")
        elif kernel == "causal_mask":
            for name, opts in [("mask", ["--rows", "256", "--cols", "384"]),
                               ("mask_lnc2", ["--rows", "256", "--cols", "128", "--lnc", "2"])]:
                c.check_shape(name, "causal_mask", opts, ["x"], lambda a: model_causal(a["x"]))
            c.negative("mask", "causal_mask", ["--rows", "256", "--cols", "64"], ["x"], "select", "relpos")
        else:
            print(f"unknown kernel {kernel}")
            return 2
        print(f"{kernel}: {c.failures} failures")
        return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
