"""One case of a suite, run where a worker runs it (docs/suites.md): its inputs made or read, the NEFF run through
Neff.run (which releases the GIL and stops at its timeout), its outputs compared, and its record built."""

from __future__ import annotations

import functools
import hashlib
import importlib
import os
import pathlib
import socket
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from typing import Any

import numpy as np

# Record fields that change from run to run of the same case (the rest must be equal: docs/suites.md).
VOLATILE = ("time", "peak_memory", "worker", "attempts")
_BF16 = "bfloat16"


@functools.lru_cache(maxsize=1)
def tool() -> dict[str, Any]:
    """The version of the package that runs the case, and the commit it was built from: $TPBISA_COMMIT, else the
    git commit of the tree holding the package when it is in one, else None."""
    import tpbisa

    commit = os.environ.get("TPBISA_COMMIT")
    if not commit:
        try:
            here = pathlib.Path(tpbisa.__file__).resolve().parent
            r = subprocess.run(["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True, text=True,
                               timeout=10, check=False)
            commit = r.stdout.strip() if r.returncode == 0 else None
        except (OSError, subprocess.SubprocessError):
            commit = None
    return {"version": tpbisa.__version__, "commit": commit or None}


class PeakMemory:
    """The peak resident memory of this process while a case runs, sampled every 10 ms by a thread (the run releases
    the GIL); the high-water mark of getrusage where /proc is not there."""

    def __init__(self) -> None:
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._page = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

    def _rss(self) -> int:
        try:
            with open("/proc/self/statm", "rb") as f:
                return int(f.read().split()[1]) * self._page
        except OSError:
            import resource

            return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

    def _sample(self) -> None:
        while True:
            self.peak = max(self.peak, self._rss())
            if self._stop.wait(0.01):
                return

    def __enter__(self) -> PeakMemory:
        self.peak = self._rss()
        try:
            self._thread.start()
        except RuntimeError:  # no thread under a tight memory limit: the memory at the start and the end only
            pass
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        if self._thread.ident is not None:
            self._thread.join()
        self.peak = max(self.peak, self._rss())


def _bf16_bits(values: np.ndarray) -> np.ndarray:
    """float32 -> bfloat16 raw bits, rounded to nearest even (NaN stays a quiet NaN)."""
    bits = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return np.where(np.isnan(values), 0x7FC0, rounded).astype(np.uint16)


def _typed(values: np.ndarray, sig: str) -> np.ndarray:
    """Values (float64 or int64) as the signature dtype's array: NumPy's own type, bfloat16 and FP8 as ml_dtypes
    types when installed, bfloat16 as raw bits otherwise."""
    try:
        import ml_dtypes
    except ImportError:
        ml_dtypes = None
    if sig == _BF16 and ml_dtypes is None:
        return _bf16_bits(values.astype(np.float32))
    if sig.startswith("float8") or sig == _BF16:
        if ml_dtypes is None:
            raise ValueError(f"a random {sig} input needs the ml_dtypes package; give a .npy file instead")
        return values.astype(np.float32).astype(getattr(ml_dtypes, sig))
    return values.astype(np.dtype(sig))


def make_input(name: str, recipe: Any, sig: tuple[str, list[int]], folder: str,
               shared: bool = False) -> tuple[np.ndarray, str]:
    """The array of one input and how it was made: a .npy file (memory-mapped: read in place), or a seeded recipe
    over the signature's dtype and shape. The recipe of every input (`shared`, the "*" one) seeds its generator
    with the seed and the input's name, so that two inputs do not get the same numbers."""
    dtype, shape = sig
    if isinstance(recipe, str):
        path = pathlib.Path(folder) / recipe
        return np.load(path, mmap_mode="r", allow_pickle=False), str(path)
    seed = recipe.get("seed", zlib.crc32(name.encode()))
    rng = np.random.default_rng([seed, zlib.crc32(name.encode())] if shared else seed)
    if shared:
        seed = f"{seed}+{name}"
    shape = tuple(shape)
    if "fill" in recipe:
        values = np.full(shape, recipe["fill"], dtype=np.float64)
        how = f"fill {recipe['fill']}"
    elif recipe["random"] == "integers":
        low, high = recipe.get("low", -2), recipe.get("high", 3)
        values = rng.integers(low, high, size=shape)
        how = f"integers [{low}, {high}) seed {seed}"
    elif recipe["random"] == "uniform":
        low, high = recipe.get("low", -1.0), recipe.get("high", 1.0)
        values = rng.uniform(low, high, size=shape)
        how = f"uniform [{low}, {high}) seed {seed}"
    else:
        mean, std = recipe.get("mean", 0.0), recipe.get("std", 1.0)
        values = rng.normal(mean, std, size=shape)
        how = f"normal mean {mean} std {std} seed {seed}"
    return np.ascontiguousarray(_typed(values, dtype)), how


def as_float(array: np.ndarray, sig: str) -> np.ndarray:
    """An output or reference as float64 for comparison (bfloat16 raw bits decoded; FP8 raw bits left as integers,
    compared exactly)."""
    a = np.asarray(array)
    if sig == _BF16 and a.dtype == np.uint16:
        return (a.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return a.astype(np.float64)


def compare(got: np.ndarray, want: np.ndarray, atol: float, rtol: float) -> dict[str, Any]:
    """Element by element, as `tpbisa run --expect` with a tolerance: an element differs unless both are NaN, the two
    are equal (+0 equals -0, an infinity equals itself) or |got - want| <= atol + rtol * |want|; integers are compared
    as float64 differences, so an unsigned difference does not wrap."""
    if got.shape != want.shape:
        return {"elements": int(got.size), "differing": int(got.size), "max_abs_diff": None, "first_differing": [],
                "atol": atol, "rtol": rtol, "error": f"shape {list(want.shape)} expected, the output has "
                                                     f"{list(got.shape)}"}
    with np.errstate(invalid="ignore", over="ignore"):
        wide_got = got.astype(np.float64) if got.dtype.kind in "iub" else got
        wide_want = want.astype(np.float64) if want.dtype.kind in "iub" else want
        diff = np.abs(wide_got - wide_want)
        nan_both = np.isnan(wide_got) & np.isnan(wide_want)
        bad = ~nan_both & ~(got == want) & ~(diff <= atol + rtol * np.abs(wide_want))
    finite = diff[bad & np.isfinite(diff)]
    first = [list(map(int, np.unravel_index(int(i), got.shape))) for i in np.flatnonzero(bad)[:5]]
    return {"elements": int(got.size), "differing": int(bad.sum()),
            "max_abs_diff": float(finite.max()) if finite.size else 0.0, "first_differing": first,
            "atol": atol, "rtol": rtol}


def _resolve(dotted: str, folder: str) -> Any:
    """MODULE.FUNCTION, the module importable or beside the suite file."""
    if folder not in sys.path:
        sys.path.insert(0, folder)
    module, _, attr = dotted.rpartition(".")
    if not module:
        raise ValueError(f"reference {dotted!r} is not MODULE.FUNCTION")
    return getattr(importlib.import_module(module), attr)


def expected_outputs(case: dict[str, Any], inputs: dict[str, np.ndarray],
                     outputs: dict[str, tuple[str, list[int]]]) -> dict[str, tuple[np.ndarray, float, float]]:
    """Output name -> (expected values, atol, rtol) from the case's expect table."""
    expect, folder = case["expect"], case["suite_dir"]
    tol = (float(expect.get("atol", 0.0)), float(expect.get("rtol", 0.0)))

    def call(dotted: str) -> Any:
        return _resolve(dotted, folder)(**inputs)

    def one(got: Any, name: str) -> np.ndarray:
        if isinstance(got, dict):
            if name not in got:
                raise ValueError(f"the reference returned no {name}")
            got = got[name]
        return as_float(np.asarray(got), outputs[name][0])

    if "reference" in expect:
        got = call(expect["reference"])
        names = list(got) if isinstance(got, dict) else list(outputs)[:1]
        return {n: (one(got, n), *tol) for n in names}
    out = {}
    for name, spec in expect.items():
        if name in ("atol", "rtol"):
            continue
        if name not in outputs:
            raise ValueError(f"expect names {name}, which is not an output of the program ({', '.join(outputs)})")
        spec = {"npy": spec} if isinstance(spec, str) else spec
        atol, rtol = float(spec.get("atol", tol[0])), float(spec.get("rtol", tol[1]))
        if "npy" in spec:
            values = np.load(pathlib.Path(folder) / spec["npy"], allow_pickle=False)
            out[name] = (as_float(values, outputs[name][0]), atol, rtol)
        else:
            out[name] = (one(call(spec["reference"]), name), atol, rtol)
    return out


def _neff_path(case: dict[str, Any]) -> str:
    """The NEFF to open: its path, or, on a worker that does not see it, a copy of the bytes the case carries."""
    path = case["neff"]
    if os.path.exists(path) or not case.get("neff_bytes"):
        return path
    cached = pathlib.Path(tempfile.gettempdir()) / f"tpbisa-suite-{case['program_sha256']}.neff"
    if not cached.exists():
        partial = cached.with_suffix(f".{os.getpid()}.part")
        partial.write_bytes(case["neff_bytes"])
        os.replace(partial, cached)
    return str(cached)


def base_record(case: dict[str, Any]) -> dict[str, Any]:
    """The fields of a case's record known before it runs (also those of a case that never ran)."""
    return {
        "id": case["id"],
        "name": case["name"],
        "tags": case["tags"],
        "program": {"path": case.get("neff", case["program"]), "command": case["program"] if case["command"] else None,
                    "sha256": case.get("program_sha256")},
        "inputs": {},
        "options": case["options"],
        "verdict": "error",
        "reason": None,
        "status": None,
        "retired": None,
        "outputs": {},
        "differing": None,
        "max_abs_diff": None,
        "races": None,
        "deadlock": None,
        "time": 0.0,
        "peak_memory": None,
        "worker": None,
        "attempts": 1,
        "tool": case.get("tool"),
    }


def run_case(case: dict[str, Any]) -> dict[str, Any]:
    """Runs one case and returns its record; every failure of the case is a verdict, never an exception."""
    import tpbisa

    rec = base_record(case)
    rec["tool"] = tool()
    rec["worker"] = f"{socket.gethostname()}:{os.getpid()}"
    start = time.perf_counter()
    with PeakMemory() as peak:
        try:
            _run(case, rec, tpbisa)
        except TimeoutError as e:
            rec["verdict"], rec["reason"] = "timeout", str(e)
        except MemoryError as e:
            rec["verdict"], rec["reason"] = "error", f"out of memory: {e}"
        except Exception as e:  # noqa: BLE001 -- a case's failure is its verdict
            rec["verdict"], rec["reason"] = "error", f"{type(e).__name__}: {e}"
    rec["peak_memory"] = peak.peak
    rec["time"] = round(time.perf_counter() - start, 6)
    return rec


def _run(case: dict[str, Any], rec: dict[str, Any], tpbisa: Any) -> None:
    neff = tpbisa.Neff(_neff_path(case))
    given = case["inputs"]
    default = given.get("*")
    inputs: dict[str, np.ndarray] = {}
    for name, sig in neff.inputs.items():
        recipe = given.get(name, default)
        if recipe is None:
            raise ValueError(f"input {name} has neither a .npy file nor a recipe (nor a '*' recipe)")
        array, source = make_input(name, recipe, sig, case["suite_dir"], shared=name not in given)
        inputs[name] = array
        rec["inputs"][name] = {"source": source, "dtype": sig[0], "shape": list(sig[1]),
                               "sha256": hashlib.sha256(memoryview(np.ascontiguousarray(array)).cast("B")).hexdigest()}
    unknown = sorted(set(given) - set(neff.inputs) - {"*"})
    if unknown:
        raise ValueError(f"input {unknown[0]} is not an input of the program ({', '.join(neff.inputs)})")
    opts = case["options"]
    result = neff.run(schedule=opts["schedule"], check_races=opts.get("check_races", False),
                      max_steps=opts.get("max_steps"), max_memory=opts.get("max_memory"), timeout=opts.get("timeout"),
                      **inputs)
    report = result.report
    rec["status"], rec["retired"] = result.status, report.get("retired")
    rec["races"] = result.races.count if result.races is not None else None
    if result.deadlock is not None:
        rec["deadlock"] = [f"{w.stream}#{w.index} {w.instruction} waits {w.condition} (is {w.value})"
                           for w in result.deadlock]
    expected = expected_outputs(case, inputs, neff.outputs)
    for name, (want, atol, rtol) in expected.items():
        got = as_float(result.outputs[name], neff.outputs[name][0])
        rec["outputs"][name] = compare(got, want, atol, rtol)
    if rec["outputs"]:
        rec["differing"] = sum(o["differing"] for o in rec["outputs"].values())
        errors = [o["max_abs_diff"] for o in rec["outputs"].values() if o["max_abs_diff"] is not None]
        rec["max_abs_diff"] = max(errors) if errors else None
    reasons = []
    if result.status != "ok":
        reasons.append(f"status {result.status}")
    if rec["races"]:
        reasons.append(f"{rec['races']} race(s)")
    if report.get("reservation_violations"):
        reasons.append("runtime-reservation violations")
    for name, o in rec["outputs"].items():
        if o.get("error"):
            reasons.append(f"{name}: {o['error']}")
        elif o["differing"]:
            reasons.append(f"{name}: {o['differing']} of {o['elements']} elements differ (largest error "
                           f"{o['max_abs_diff']:g})")
    rec["verdict"] = "fail" if reasons else "pass"
    rec["reason"] = "; ".join(reasons) or None
