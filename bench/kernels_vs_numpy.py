#!/usr/bin/env python3
"""Kernel NEFFs of `tpbisa gen` at realistic sizes, run end to end by `tpbisa run`, against NumPy doing the same math
in the same run: prints, per kernel, the NumPy time (best of 3), the run's own time ("retired in"), the whole
command's wall time, their ratio, the CPU times of both (NumPy's: the process's, every BLAS thread; the command's: the
whole process, every thread) and their ratio — on a loaded machine wall times mostly measure waiting for a CPU —, and
the same NEFF run in this process through the Python package (`Neff.run`, every core: what a kernel author scripting
tpbisa waits for, with no process start or files; RUNS rounds after a warm-up, each running NumPy's math and then the
program, best of each, NumPy's over all its runs) and its ratio, and the check of
the outputs (norms: largest difference to float64 NumPy; softmax:
largest relative difference to float64 NumPy; mlp (SiLU) and attention: largest difference to float64 NumPy relative
to the largest output; top-k and the causal mask: equal). Softmax carries the activation tables of
../shared/data/matmul_small.neff (relative to the project root) and is left out when it is absent; mlp and attention
carry tpbisa's own. The OpenBLAS kernel NumPy runs on is printed first; when OpenBLAS picked one narrower than the
CPU's flags support (a generic fallback such as Prescott), the script runs itself again with OPENBLAS_CORETYPE naming
the right one (bench/openblas_kernel.py), so that the baseline is not a slow one (the `tpbisa` commands run without it).

usage: bench/kernels_vs_numpy.py TPBISA [--small] [--only KERNEL ...] [--runs N]
  (the package tpbisa importable, e.g. PYTHONPATH=build/python; --small: quarter columns and hidden size, a quick look;
  --runs: `tpbisa run` N times (default 3), its best run time and best wall time reported; as many rounds in process)
"""

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PIN_MARK = "TPBISA_BENCH_OPENBLAS_PINNED"  # set in the environment of the run that pinned the kernel


def pin_openblas():
    """Runs this script again with OPENBLAS_CORETYPE set when NumPy's OpenBLAS runs a narrower kernel than the CPU's
    (decided in a child process: the kernel is chosen when NumPy loads OpenBLAS, so this process must not load it)."""
    if os.environ.get(PIN_MARK):
        return
    pin = subprocess.run([sys.executable, os.path.join(HERE, "openblas_kernel.py"), "--pin"], capture_output=True,
                         text=True, check=True).stdout.strip()
    if pin:
        env = dict(os.environ, OPENBLAS_CORETYPE=pin, **{PIN_MARK: pin})
        os.execve(sys.executable, [sys.executable, *sys.argv], env)


pin_openblas()

import numpy as np  # noqa: E402  (after the kernel is pinned)

sys.path.insert(0, HERE)
import openblas_kernel  # noqa: E402
import tpbisa  # noqa: E402

TABLES = os.path.join(HERE, "..", "..", "shared", "data", "matmul_small.neff")
SIZES = {  # kernel -> generator options at the benchmark size
    "layernorm": ["--rows", "256", "--cols", "8192"],
    "rmsnorm": ["--rows", "256", "--cols", "8192"],
    "softmax": ["--rows", "128", "--cols", "8192"],
    "topk": ["--rows", "256", "--cols", "8192", "--k", "32"],
    "causal_mask": ["--rows", "512", "--cols", "2048"],
    "mlp": ["--rows", "128", "--cols", "4096", "--hidden", "11008", "--act", "silu"],
    "attention": ["--rows", "128", "--cols", "512", "--head-dim", "128"],
}


def attention_math(q, k, v):
    """Causal attention, query row r at position S - R + r of the S keys (tpbisa gen attention)."""
    rows, keys = q.shape[0], k.shape[0]
    s = (q @ k.T) / np.sqrt(q.shape[1]).astype(q.dtype)
    s = np.where(np.arange(keys)[None, :] <= keys - rows + np.arange(rows)[:, None], s, -np.inf)
    p = np.exp(s - s.max(axis=1, keepdims=True))
    return (p / p.sum(axis=1, keepdims=True)) @ v


def children_cpu():
    """User + system CPU seconds of the finished child processes (every thread of each)."""
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


def numpy_math(kernel, a, k):
    """The kernel's math in NumPy fp32, the way a NumPy user writes it."""
    if kernel == "mlp":
        h = a["x"] @ a["w1"]
        return {"output0": (h / (1 + np.exp(-h))) @ a["w2"]}
    if kernel == "attention":
        return {"output0": attention_math(a["q"], a["k"], a["v"])}
    x = a["x"]
    if kernel == "layernorm":
        m = x.mean(axis=1, keepdims=True)
        return {"output0": (x - m) / np.sqrt(x.var(axis=1, keepdims=True) + np.float32(1e-5)) * a["gamma"] + a["beta"]}
    if kernel == "rmsnorm":
        return {"output0": x / np.sqrt((x * x).mean(axis=1, keepdims=True) + np.float32(1e-5)) * a["gamma"]}
    if kernel == "softmax":
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return {"output0": e / e.sum(axis=1, keepdims=True)}
    if kernel == "topk":
        part = np.argpartition(-x, k - 1, axis=1)[:, :k]
        vals = np.take_along_axis(x, part, axis=1)
        order = np.argsort(-vals, axis=1, kind="stable")
        return {"values": np.take_along_axis(vals, order, axis=1), "indices": np.take_along_axis(part, order, axis=1)}
    r = np.arange(x.shape[0])[:, None]
    j = np.arange(x.shape[1])[None, :]
    return {"output0": np.where(j <= r, x, np.float32(-np.inf)), "relpos": (j - r).astype(np.int32)}


def check(kernel, got, a, k):
    """A line saying how the run's outputs compare with the math."""
    if kernel in ("mlp", "attention"):
        ref = numpy_math(kernel, {n: v.astype(np.float64) for n, v in a.items()}, k)["output0"]
        diff = float(np.abs(got["output0"] - ref).max() / np.abs(ref).max())
        return diff <= 1e-5, f"max |tpbisa - float64 NumPy| / max |ref| = {diff:.3g} (bound 1e-05)"
    x = a["x"].astype(np.float64)
    if kernel in ("layernorm", "rmsnorm"):
        if kernel == "layernorm":
            ref = (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-5) * a["gamma"] + a["beta"]
        else:
            ref = x / np.sqrt((x * x).mean(1, keepdims=True) + 1e-5) * a["gamma"]
        diff = float(np.abs(got["output0"] - ref).max())
        bound = 1e-5 * float(np.abs(ref).max())
        return diff <= bound, f"max |tpbisa - float64 NumPy| = {diff:.3g} (bound {bound:.3g})"
    if kernel == "softmax":
        e = np.exp(x - x.max(1, keepdims=True))
        ref = e / e.sum(1, keepdims=True)
        rel = float((np.abs(got["output0"] - ref) / ref).max())
        return rel <= 3e-5, f"max relative |tpbisa - float64 NumPy| = {rel:.3g} (bound 3e-05)"
    if kernel == "topk":
        order = np.argsort(-x, axis=1, kind="stable")[:, :k]
        values = np.take_along_axis(a["x"], order, 1)
        ok = np.array_equal(got["indices"], order) and np.array_equal(got["values"], values)
        return ok, "values and indices equal a stable descending sort" if ok else "top-k differs"
    want = numpy_math(kernel, a, k)
    ok = all(np.array_equal(got[n], want[n]) for n in want)
    return ok, "output0 and relpos equal NumPy's" if ok else "the mask differs"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tpbisa")
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    tool = os.path.abspath(a.tpbisa)
    env = dict(os.environ, TPBISA=tool)
    pin = env.pop(PIN_MARK, "")
    if pin:  # the pin is NumPy's alone
        env.pop("OPENBLAS_CORETYPE", None)
    best_cpu = openblas_kernel.best_kernel(openblas_kernel.cpu_flags())[0]
    print(f"numpy's OpenBLAS kernel: {openblas_kernel.corename() or 'none (NumPy does not use OpenBLAS)'}"
          f"{' (pinned with OPENBLAS_CORETYPE)' if pin else ''}; the CPU supports {best_cpu}")
    failed = 0
    print(f"{'kernel':12} {'shape':26} {'numpy s':>9} {'run s':>8} {'wall s':>8} {'wall ratio':>10} "
          f"{'numpy cpu':>10} {'run cpu':>8} {'cpu ratio':>10} {'python s':>8} {'py ratio':>8}  check")
    with tempfile.TemporaryDirectory() as tmp:
        for kernel, opts in SIZES.items():
            if a.only and kernel not in a.only:
                continue
            opts = list(opts)
            if a.small:
                for o in ("--cols", "--hidden"):
                    if o in opts:
                        opts[opts.index(o) + 1] = str(int(opts[opts.index(o) + 1]) // 512 * 128)
            if kernel == "softmax":
                if not os.path.exists(TABLES):
                    print(f"softmax: skipped ({TABLES} is absent)")
                    continue
                opts += ["--tables-from", TABLES]
            k = int(opts[opts.index("--k") + 1]) if "--k" in opts else 0
            neff, ind = f"{tmp}/{kernel}.neff", f"{tmp}/{kernel}"
            subprocess.run([sys.executable, "-m", "tpbisa.gen", kernel, *opts, "--out", neff, "--write-inputs", ind],
                           check=True, env=env, stdout=subprocess.DEVNULL)
            arrays = {f[:-4]: np.load(f"{ind}/{f}") for f in sorted(os.listdir(ind))}
            best = best_cpu = float("inf")
            for _ in range(3):
                t, c = time.perf_counter(), time.process_time()
                numpy_math(kernel, arrays, k)
                best = min(best, time.perf_counter() - t)
                best_cpu = min(best_cpu, time.process_time() - c)
            argv = [tool, "run", neff, "--out", f"{ind}/out"] + [f"--input={n}={ind}/{n}.npy" for n in arrays]
            run_s = wall = run_cpu = float("inf")
            for _ in range(a.runs):  # best of RUNS, as NumPy's best of 3: the machine's load varies by several times
                t, c = time.perf_counter(), children_cpu()
                p = subprocess.run(argv, capture_output=True, text=True, check=False, env=env)
                w = time.perf_counter() - t
                run_cpu = min(run_cpu, children_cpu() - c)
                m = re.search(r"retired in ([0-9.]+) s", p.stdout)
                if p.returncode != 0 or not m:
                    break
                run_s, wall = min(run_s, float(m.group(1))), min(wall, w)
            if p.returncode != 0 or not m:
                print(f"{kernel}: run failed: {p.stdout[-500:]}{p.stderr[-500:]}")
                failed += 1
                continue
            got = {f[:-4]: np.load(f"{ind}/out/{f}") for f in os.listdir(f"{ind}/out")}
            ok, what = check(kernel, got, arrays, k)
            # The same program run in this process through the Python package, as a kernel author scripts it: the
            # inputs read in place, no process start, no files; after one warm-up run of each, RUNS rounds that each
            # run NumPy's math and then the program, best of each: the two meet the same spells of a shared machine
            # (which change the times by half and more within seconds). NumPy's best is over all its runs.
            prog = tpbisa.Neff(neff)
            threads = len(os.sched_getaffinity(0))  # every core the process may run on, as the command
            prog.run(arrays, threads=threads)
            inproc = float("inf")
            for _ in range(a.runs):
                t = time.perf_counter()
                numpy_math(kernel, arrays, k)
                best = min(best, time.perf_counter() - t)
                t = time.perf_counter()
                result = prog.run(arrays, threads=threads)
                inproc = min(inproc, time.perf_counter() - t)
            same = all(np.array_equal(np.asarray(result[n]).view(got[n].dtype), got[n]) for n in got)
            if not (result.ok and same):
                ok, what = False, what + "; the in-process run differs from the command's"
            failed += 0 if ok else 1
            first = "x" if "x" in arrays else "q"
            shape = f"{first} " + "x".join(str(s) for s in arrays[first].shape) + (f" k {k}" if k else "")
            if kernel in ("mlp", "attention"):
                shape += " " + " ".join(f"{n} " + "x".join(map(str, arrays[n].shape)) for n in arrays if n != first)
            print(f"{kernel:12} {shape:26} {best:9.4f} {run_s:8.3f} {wall:8.3f} {wall / best:10.1f} "
                  f"{best_cpu:10.4f} {run_cpu:8.3f} {run_cpu / max(best_cpu, 1e-9):10.1f} {inproc:8.4f} "
                  f"{inproc / best:8.1f}  {what}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
