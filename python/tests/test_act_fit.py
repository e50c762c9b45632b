"""tpbisa's own activation tables (tpbisa._act_fit): they pass the reader's load-time checks, the package's evaluator
agrees bit for bit with an independent §3.6 evaluator on the same blobs, the fitted functions stay within their
stated bounds of float64 NumPy, and the exactly-representable functions are exact."""

from __future__ import annotations

import math
import os
import struct
import sys
from typing import Any

import numpy as np
import pytest

from conftest import CLI, SOURCE_DIR, run_cli

tpbisa = pytest.importorskip("tpbisa")
gen = pytest.importorskip("tpbisa.gen")
from tpbisa import _act_fit  # noqa: E402

sys.path.insert(0, str(SOURCE_DIR / "tests" / "families" / "act"))
from e2e_exp_accumulate import pwp_eval  # noqa: E402  (the independent §3.6 evaluator)

# The stated bounds (docs/activation.md): |table(x) - f(x)| <= REL * |f(x)| + ABS for every finite fp32 x whose
# float64 f(x) is below FLT_MAX; gelu is the erf form; reciprocal_sqrt on (2^-32, 2^32) (+Inf below, +0 above, NaN
# for negative inputs).
BOUNDS = {"exp": (3e-6, 2.0**-126), "gelu": (3e-6, 1e-9), "silu": (3e-6, 1e-9), "reciprocal_sqrt": (3e-6, 0.0)}


def reference(func: str, x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):
        xd = x.astype(np.float64)
        if func == "exp":
            return np.exp(xd)
        if func == "silu":
            return xd / (1 + np.exp(-xd))
        if func == "reciprocal_sqrt":
            return np.where(xd < 0, np.nan, np.where(xd <= 2.0**-32, np.inf, np.where(xd >= 2.0**32, 0.0, xd**-0.5)))
    cdf = np.array([0.5 * math.erfc(-v / math.sqrt(2)) for v in xd])  # Phi(x), no cancellation for x < 0
    return xd * cdf


def samples(seed: int) -> np.ndarray:
    """Random bit patterns over every fp32 class, normal values at activation scale, the thresholds' neighbours."""
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2**32, 3000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    near = [88.72283, 88.722839, -88.0, -87.99999, 8.0, -8.0, 7.9999995, -7.9999995, 32.0, 31.999998, -104.0,
            -103.99999, 2.0**-19, -(2.0**-19), 2.0**-10, -(2.0**-10), 1e-30, -1e-30, 1.0, -1.0, 0.5, 3.0, -3.0,
            2.0**-32, 2.0**32, np.nextafter(np.float32(2.0**32), np.float32(0)), 1e-5, 1e5]
    return np.concatenate([bits, (rng.standard_normal(3000) * 4).astype(np.float32),
                           (rng.uniform(-100, 100, 1500)).astype(np.float32),
                           np.exp(rng.uniform(-22, 22, 1500)).astype(np.float32), np.float32(near)])


@pytest.fixture(scope="module")
def neffs(tmp_path_factory: Any) -> dict[str, Any]:
    """One NEFF per own set: a softmax program carrying that set (the tables are what is checked here)."""
    os.environ.setdefault("TPBISA", CLI)
    out = {}
    for set_name, func in _act_fit.SETS:
        k = gen.Kernel("softmax", {**gen.DEFAULTS, "cols": 64})
        k.tables = _act_fit.own_tables(func)
        path = tmp_path_factory.mktemp("act") / f"{set_name}.neff"
        k.write(str(path))
        out[func] = path
    return out


def blobs(func: str) -> tuple[dict[str, Any], list[tuple[int, ...]], list[int]]:
    """The set's profiles by name, BUCKET records and CONTROL words, read from the blobs for the test's evaluator."""
    import json

    set_name = next(s for s, f in _act_fit.SETS if f == func)
    m = _act_fit.build_set(set_name)
    man = json.loads(m[f"{set_name}.json"])
    bkt, ctl = m[man["bkt_bin"]], m[man["ctl_bin"]]
    stride = len(ctl) // man["ctl_entry_cnt"]
    buckets = [struct.unpack_from("<5I", bkt, 32 * i) for i in range(man["bkt_entry_cnt"])]
    control = [struct.unpack_from("<I", ctl, stride * i)[0] for i in range(man["ctl_entry_cnt"])]
    return {p["func_name"].rsplit("_", 1)[0]: p for p in man["profile_meta_data"]}, buckets, control


def test_tables_validate_and_load(neffs: dict[str, Any]) -> None:
    for func, path in neffs.items():
        r = run_cli("validate", str(path))
        assert r.returncode == 0, r.stdout.decode()[-2000:]
        (sub,) = tpbisa.Neff(str(path)).tables().sets  # the reader's load-time checks passed
        (one,) = sub["sets"]
        exact = {f["name"]: f["exact"] for f in one["functions"]}
        assert exact == {func: False, "identity": True, "relu": True, "square": True, "abs": True, "copy": True,
                         "memset_zero": True}


def test_deterministic() -> None:
    for set_name, _ in _act_fit.SETS:
        assert _act_fit.build_set.__wrapped__(set_name) == _act_fit.build_set(set_name)
        man = _act_fit.build_set(set_name)[f"{set_name}.json"]
        assert b'"bkt_entry_cnt"' in man


@pytest.mark.parametrize("func", ["exp", "gelu", "silu", "reciprocal_sqrt"])
def test_fitted_within_bound(neffs: dict[str, Any], func: str) -> None:
    x = samples(7)
    got = tpbisa.Neff(str(neffs[func])).tables().eval(func, x)
    profiles, buckets, control = blobs(func)
    indep = np.array([pwp_eval(profiles[func], buckets, control, int(b)) for b in x.view(np.uint32)],
                     dtype=np.uint32)
    assert np.array_equal(got.view(np.uint32), indep), "the package's evaluator and the §3.6 model differ"
    want = reference(func, x)
    with np.errstate(invalid="ignore"):
        fin = np.isfinite(x) & ~np.isnan(want)
    if func == "reciprocal_sqrt":  # outside the fitted range: the saturation slots' values exactly
        assert np.array_equal(got[~fin & ~np.isnan(x)].view(np.uint32),
                              want[~fin & ~np.isnan(x)].astype(np.float32).view(np.uint32))
        fin &= np.isfinite(want) & (want > 0)
    rel, ab = BOUNDS[func]
    small = fin & (np.abs(want) <= np.finfo(np.float32).max)
    err = np.abs(got[small].astype(np.float64) - want[small])
    worst = float((err / (rel * np.abs(want[small]) + ab)).max())
    assert worst <= 1.0, f"{func}: {worst:.3g} of the stated bound"
    big = fin & ~small  # overflowing results: +Inf (exp), or x itself (gelu, silu are x from 8 / 32 up)
    assert np.all((got[big] == np.inf) | (got[big] == x[big]))
    assert got[np.isnan(x)].view(np.uint32).tolist() == [0x7FC00000] * int(np.isnan(x).sum())


@pytest.mark.parametrize("func", ["identity", "copy", "relu", "abs", "square", "memset_zero"])
def test_exact_functions(neffs: dict[str, Any], func: str) -> None:
    x = samples(3)
    x = x[np.isfinite(x) & (x != 0)]
    for f, path in neffs.items():
        got = tpbisa.Neff(str(path)).tables().eval(func, x)
        with np.errstate(over="ignore"):
            want = {"identity": x, "copy": x, "relu": np.where(x > 0, x, np.float32(0)), "abs": np.abs(x),
                    "square": x * x, "memset_zero": np.zeros_like(x)}[func]
        assert np.array_equal(got.view(np.uint32), want.astype(np.float32).view(np.uint32)), f"{func} in {f}'s set"
        specials = tpbisa.Neff(str(path)).tables().eval(func, np.float32([0.0, -0.0, np.inf, -np.inf]))
        pinf = 0.0 if func == "memset_zero" else np.inf
        ninf = {"identity": -np.inf, "copy": -np.inf, "relu": 0.0, "memset_zero": 0.0}.get(func, np.inf)
        assert specials.view(np.uint32).tolist() == np.float32([0.0, 0.0, pinf, ninf]).view(np.uint32).tolist()
