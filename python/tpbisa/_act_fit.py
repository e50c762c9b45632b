"""tpbisa's own activation tables: piecewise-cubic fits in the NEFF table format of act-index-ops.md §3
(docs/activation.md).

Each set holds one fitted function (exp, gelu in its erf form, silu) and the exactly-representable one-point
functions (identity, copy, relu, abs, square, memset_zero). A fitted function covers, per side of zero, the exponent
octaves between its small-signal and large-signal thresholds; each octave is cut into 2^k equal segments (k the
CONTROL word's `extract_size`, the fewest meeting the function's goal), each segment one BUCKET record whose
`x0` is the segment's first point (so `t = x - x0` is exact in binary32). The cubic of a segment is a weighted
least-squares fit in float64 on 48 Chebyshev points, its coefficients rounded to binary32; k is chosen by evaluating
the segment with the §3.6 arithmetic (binary32 `t` and `d0 + d1 t`, binary64 `t^2`, `t^3` terms, one rounding)
on 257 points and comparing with float64 NumPy. Beyond the octaves the saturation slots give exact limits
(exp -> +Inf or +0, gelu and silu -> x or +0) and near zero a Taylor cubic. Everything is float64 NumPy
arithmetic without BLAS, so the same NumPy gives the same bytes.

The stated bounds (ERROR_BOUNDS) are measured by the tests against float64 NumPy with the table evaluator.
"""

from __future__ import annotations

import functools
import json
import math
import struct
from typing import Any, Callable

import numpy as np

F32, F64 = np.float32, np.float64

# |f_table(x) - f(x)| <= rel * |f(x)| + abs for every fp32 x (float64 f); measured in python/tests/test_act_fit.py.
ERROR_BOUNDS = {"exp": (3.0e-6, 2.0 ** -126), "gelu": (3.0e-6, 1.0e-9), "silu": (3.0e-6, 1.0e-9),
                "reciprocal_sqrt": (3.0e-6, 0.0)}  # reciprocal_sqrt: on [2^-32, 2^32) only
GOAL = 2.0e-6  # the fit's per-segment goal for err / (|f| + abs), below the stated bound


def _erf(x: np.ndarray) -> np.ndarray:
    return np.vectorize(math.erf, otypes=[F64])(x)


def gelu_f64(x: np.ndarray) -> np.ndarray:
    """GELU, erf form: x * Phi(x) = x/2 * (1 + erf(x / sqrt 2)), written with erfc for negative x (no cancellation)."""
    x = np.asarray(x, dtype=F64)
    erfc = np.vectorize(math.erfc, otypes=[F64])
    return np.where(x >= 0, 0.5 * x * (1 + _erf(x / math.sqrt(2))), 0.5 * x * erfc(-x / math.sqrt(2)))


def silu_f64(x: np.ndarray) -> np.ndarray:
    """SiLU: x * sigmoid(x) = x / (1 + exp(-x))."""
    x = np.asarray(x, dtype=F64)
    with np.errstate(over="ignore"):
        return x / (1 + np.exp(-x))


def rsqrt_f64(x: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return 1 / np.sqrt(np.asarray(x, dtype=F64))


def exp_f64(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return np.exp(np.asarray(x, dtype=F64))


class Fitted:
    """A fitted function: id, float64 reference, the small-signal exponent and cubic, the large-signal thresholds and
    cubics per side (exponent, mantissa, (d0, d1, d2, d3))."""

    def __init__(self, name: str, func_id: int, f: Callable[[np.ndarray], np.ndarray], small_exp: int,
                 small: tuple[float, ...], large_pos: tuple[int, int, tuple[float, ...]],
                 large_neg: tuple[int, int, tuple[float, ...]], results: tuple[int, int, int]) -> None:
        self.name, self.func_id, self.f, self.small_exp, self.small = name, func_id, f, small_exp, small
        self.large = {"pos": large_pos, "neg": large_neg}
        self.results = results  # +Inf, -Inf, +-0 results (fp32 bits)


INF, NINF, ONE, NAN = 0x7F800000, 0xFF800000, 0x3F800000, 0x7FC00000
FITTED = {
    # exp: Taylor near 0 (|x| < 2^-19); +Inf from x >= 0x42b17218 (just above ln(FLT_MAX)); +0 from x <= -88.
    "exp": Fitted("exp", 7, exp_f64, 108, (1.0, 1.0, 0.5, 1.0 / 6), (133, 0x317218, (math.inf, 0, 0, 0)),
                  (133, 0x300000, (0, 0, 0, 0)), (INF, 0, ONE)),
    # gelu (erf form): x/2 + x^2/sqrt(2 pi) near 0 (|x| < 2^-10); x from 8 up (1 - Phi(8) < 2^-50); +0 from -8 down.
    "gelu": Fitted("gelu", 23, gelu_f64, 117, (0.0, 0.5, 1 / math.sqrt(2 * math.pi), 0.0), (130, 0, (0, 1, 0, 0)),
                   (130, 0, (0, 0, 0, 0)), (INF, 0, 0)),
    # silu: x/2 + x^2/4 near 0; x from 32 up (e^-32 < 2^-46); +0 from -104 down (|silu| < 2^-143).
    "silu": Fitted("silu", 36, silu_f64, 117, (0.0, 0.5, 0.25, 0.0), (132, 0, (0, 1, 0, 0)),
                   (133, 0x500000, (0, 0, 0, 0)), (INF, 0, 0)),
    # reciprocal_sqrt on [2^-32, 2^32) (the engine's documented range is wider; below 2^-32 the cubic's d3 would
    # overflow binary32): below it +Inf, from 2^32 up +0, every negative input NaN (no negative octaves).
    "reciprocal_sqrt": Fitted("reciprocal_sqrt", 29, rsqrt_f64, 95, (math.inf, 0, 0, 0), (159, 0, (0, 0, 0, 0)),
                              (0, 0, (math.nan, 0, 0, 0)), (0, NAN, INF)),
}
# The exactly-representable functions (§3.7): id, symmetric, large-slot cubic per side, +Inf, -Inf, +-0 results.
EXACT = {
    "identity": (1, 0, (0, 1, 0, 0), (0, 1, 0, 0), INF, NINF, 0),
    "relu": (2, 0, (0, 1, 0, 0), (0, 0, 0, 0), INF, 0, 0),
    "square": (30, 1, (0, 0, 1, 0), (0, 0, 1, 0), INF, INF, 0),
    "abs": (33, 1, (0, 1, 0, 0), (0, 1, 0, 0), INF, INF, 0),
    "copy": (128, 0, (0, 1, 0, 0), (0, 1, 0, 0), INF, NINF, 0),
    "memset_zero": (130, 0, (0, 0, 0, 0), (0, 0, 0, 0), 0, 0, 0),
}
SETS = [("exp_and_others", "exp"), ("gelu_and_others", "gelu"), ("silu_and_others", "silu"),
        ("reciprocal_sqrt_and_small", "reciprocal_sqrt")]
NODES = 48  # Chebyshev points per segment fit
PROBES = 257  # points per segment the §3.6 arithmetic is checked on
MAX_K = 10


def _cubic_f32(x: np.ndarray, x0: np.ndarray, d: np.ndarray) -> np.ndarray:
    """§3.6 step 6 (PROJ-CONV-A2) over arrays: x, x0 binary32 [..., n] / [..., 1], d binary32 [..., 4]."""
    with np.errstate(over="ignore", invalid="ignore"):
        t = (x - x0).astype(F32)
        a = ((t * d[..., 1:2]).astype(F32) + d[..., 0:1]).astype(F32)
        td = t.astype(F64)
        t2 = td * td
        r = a.astype(F64) + t2 * d[..., 2:3].astype(F64)
        r = r + (t2 * td) * d[..., 3:4].astype(F64)
        return r.astype(F32)


def _solve4(g: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Gaussian elimination with partial pivoting, batched over the first axis: g [n, 4, 4], b [n, 4]."""
    g, b = g.copy(), b.copy()
    n = g.shape[0]
    rows = np.arange(n)
    for c in range(4):
        p = c + np.argmax(np.abs(g[:, c:, c]), axis=1)
        g[rows, c], g[rows, p] = g[rows, p].copy(), g[rows, c].copy()
        b[rows, c], b[rows, p] = b[rows, p].copy(), b[rows, c].copy()
        for r in range(c + 1, 4):
            f = g[:, r, c] / g[:, c, c]
            g[:, r] -= f[:, None] * g[:, c]
            b[:, r] -= f * b[:, c]
    x = np.zeros_like(b)
    for r in range(3, -1, -1):
        x[:, r] = (b[:, r] - (g[:, r, r + 1:] * x[:, r + 1:]).sum(axis=1)) / g[:, r, r]
    return x


def _fit_octave(fn: Fitted, side: str, e: int, k: int, count: int, end: int) -> tuple[np.ndarray, float]:
    """The first `count` of the 2^k segments of octave e (biased exponent) on `side`, the mantissas of the octave
    ending before `end`: records [count, 5] (d0..d3, x0 as binary32) and the worst err / (|f| + abs) over the
    probes."""
    sign = -1.0 if side == "neg" else 1.0
    width = 2.0 ** (e - 127 - k)
    steps = 2 ** (23 - k)  # mantissas per segment
    span = np.minimum(steps, end - steps * np.arange(count))  # the last segment may end at the threshold
    start = sign * (2.0 ** (e - 127) + width * np.arange(count))  # exact in binary32
    u = (1 - np.cos(np.pi * (np.arange(NODES) + 0.5) / NODES)) / 2  # Chebyshev points of [0, 1]
    tt = sign * (width * span / steps)[:, None] * u[None, :]  # [count, nodes]
    y = fn.f(start[:, None] + tt)
    _, floor = ERROR_BOUNDS[fn.name]
    w = 1 / (np.abs(y) + floor)
    v = np.stack([np.ones_like(u), u, u * u, u * u * u], axis=1)  # in the unit variable, then rescaled
    vw = v[None, :, :] * w[:, :, None]
    g = np.einsum("sni,snj->sij", vw, vw)
    b = np.einsum("sni,sn->si", vw, y * w)
    c = _solve4(g, b) / (sign * (width * span / steps))[:, None] ** np.arange(4)[None, :]
    rec = np.concatenate([c, start[:, None]], axis=1).astype(F32)
    # The probes: binary32 points of each segment, its first and last included.
    lo = start.astype(F32).view(np.uint32).astype(np.int64)
    probe = (lo[:, None] + (np.linspace(0, 1, PROBES)[None, :] * (span[:, None] - 1)).astype(np.int64))
    probe = probe.astype(np.uint32).view(F32)
    got = _cubic_f32(probe, rec[:, 4:5], rec[:, :4]).astype(F64)
    want = fn.f(probe.astype(F64))
    with np.errstate(invalid="ignore"):
        err = np.abs(got - want) / (np.abs(want) + floor)
    return rec, float(np.nanmax(np.where(np.isfinite(want), err, 0)))


def _side(fn: Fitted, side: str) -> tuple[list[int], list[np.ndarray]]:
    """One side's CONTROL words (relative bucket bases) and BUCKET records, octave by octave."""
    le, lm, _ = fn.large[side]
    last = le if lm > 0 else le - 1
    words, recs, base = [], [], 0
    for e in range(fn.small_exp, last + 1):
        for k in range(MAX_K + 1):
            end = 2 ** 23 if e < le else lm
            rec, err = _fit_octave(fn, side, e, k, -(-end // 2 ** (23 - k)), end)
            if err <= GOAL or k == MAX_K:
                break
        words.append(base | ((23 - k) << 11) | (k << 16))
        recs.append(rec)
        base += len(rec)
    return words, recs


def _profile(name: str, func_id: int, **kv: int) -> dict[str, Any]:
    p = {"func_name": name, "func_id": func_id, "symmetry_point": 0, "sym_invert_sign_point": 0,
         "symmetry_opt_en": 0, "symmetry_opt_use_neg_region": 0, "imm_bias": 0, "exp_offset": -127,
         "pwl_control_base_pos": 0, "pwl_control_base_neg": 0,
         "small_pos_signal_exp_threshold": 0, "pos_small_signal_pwl_control": 0,
         "small_neg_signal_exp_threshold": 0, "neg_small_signal_pwl_control": 0,
         "large_pos_signal_exp_threshold": 0, "large_pos_signal_mantissa_threshold": 0,
         "pos_large_signal_pwl_control": 0, "large_neg_signal_exp_threshold": 0,
         "large_neg_signal_mantissa_threshold": 0, "neg_large_signal_pwl_control": 0,
         "fnan_result": NAN, "fpinf_result": INF, "fninf_result": NINF, "fzero_result": 0,
         "fma_const_0": 0, "fma_const_1": 0, "fma_indirection_src_sel": 0, "use_multipass": False,
         "lower_bound": 0xFF7FFFFF, "upper_bound": 0x7F7FFFFF}
    p.update(kv)
    return p


def _slot(d: tuple[float, ...]) -> np.ndarray:
    return np.array([[d[0], d[1], d[2], d[3], 0.0]], dtype=F32)


@functools.lru_cache(maxsize=None)
def build_set(set_name: str) -> dict[str, bytes]:
    """The set's three members: manifest, BUCKET and CONTROL blobs (name -> bytes)."""
    func = dict(SETS)[set_name]
    fn = FITTED[func]
    ctrl: list[int] = []
    bkt: list[np.ndarray] = []
    nb = 0
    profiles, bkt_start, ctl_start = [], {}, {}
    # The fitted function: negative octaves, positive octaves, then its slots (pos_small, neg_small, pos_large,
    # neg_large), as the compiler lays them out.
    bases = {}
    bkt_start[func], ctl_start[func] = 0, 0
    for side in ("neg", "pos"):
        words, recs = _side(fn, side)
        bases[side] = len(ctrl)
        ctrl += [nb + w for w in words]  # the relative bases made absolute
        for r in recs:
            bkt.append(r)
            nb += len(r)
    slots = nb
    for d in (fn.small, fn.small, fn.large["pos"][2], fn.large["neg"][2]):
        bkt.append(_slot(d))
        nb += 1
    pinf, ninf, zero = fn.results
    profiles.append(_profile(
        f"{func}_{slots}p", fn.func_id, exp_offset=fn.small_exp - 127, pwl_control_base_pos=bases["pos"],
        pwl_control_base_neg=bases["neg"], small_pos_signal_exp_threshold=fn.small_exp,
        small_neg_signal_exp_threshold=fn.small_exp, pos_small_signal_pwl_control=slots,
        neg_small_signal_pwl_control=slots + 1, large_pos_signal_exp_threshold=fn.large["pos"][0],
        large_pos_signal_mantissa_threshold=fn.large["pos"][1], pos_large_signal_pwl_control=slots + 2,
        large_neg_signal_exp_threshold=fn.large["neg"][0], large_neg_signal_mantissa_threshold=fn.large["neg"][1],
        neg_large_signal_pwl_control=slots + 3, fpinf_result=pinf, fninf_result=ninf, fzero_result=zero))
    for name, (fid, sym, pos, neg, pi, ni, z) in EXACT.items():
        # One sentinel CONTROL word (never read: the thresholds send every input to a slot), four slots.
        bkt_start[name], ctl_start[name] = nb, len(ctrl)
        ctrl.append(nb)
        for d in ((0, 0, 0, 0), (0, 0, 0, 0), pos, neg):
            bkt.append(_slot(d))
        profiles.append(_profile(
            f"{name}_1p", fid, symmetry_opt_en=sym, pwl_control_base_pos=len(ctrl) - 1,
            pwl_control_base_neg=len(ctrl) - 1, pos_small_signal_pwl_control=nb, neg_small_signal_pwl_control=nb + 1,
            pos_large_signal_pwl_control=nb + 2, neg_large_signal_pwl_control=nb + 3, fpinf_result=pi,
            fninf_result=ni, fzero_result=z, lower_bound=0 if sym else 0xFF7FFFFF))
        nb += 4
    if nb > 2048:  # bkt_base is 11 bits
        raise ValueError(f"{set_name}: {nb} BUCKET records, more than the engine's 2048")
    records = np.concatenate(bkt)
    blob = bytearray()
    for r in records:
        blob += struct.pack("<5f12x", *(float(v) for v in r))
    ctl_blob = b"".join(struct.pack("<I28x", w) for w in ctrl)
    manifest = {"bkt_bin": f"{set_name}_bkt.bin", "ctl_bin": f"{set_name}_ctrl.bin", "profile_meta_data": profiles,
                "bkt_entry_cnt": nb, "ctl_entry_cnt": len(ctrl), "func_to_bkt_start_idx": bkt_start,
                "func_to_ctl_start_idx": ctl_start}
    return {f"{set_name}.json": json.dumps(manifest, indent=1).encode(), f"{set_name}_bkt.bin": bytes(blob),
            f"{set_name}_ctrl.bin": ctl_blob}


def catalog() -> bytes:
    """act_info.json: every own set, in SETS order (the index an ACTIVATION_TABLE_LOAD names)."""
    sets = []
    for name, func in SETS:
        act = {func: 0, **{e: 1 for e in EXACT}}
        sets.append({"name": name, "bkt_bin": f"{name}_bkt.bin", "ctrl_bin": f"{name}_ctrl.bin",
                     "profile_json": f"{name}.json", "act": act})
    doc = {"pwp_file_keys": ["bkt_bin", "ctrl_bin", "profile_json"], "act_func_sets": sets}
    return json.dumps(doc, indent=1).encode()


def own_tables(func: str) -> dict[str, Any]:
    """The activation members a kernel carries for `func` (gen.Kernel.tables): the set holding it, its index in the
    catalog, the function's id and the members (name -> bytes)."""
    index = next((i for i, (_, f) in enumerate(SETS) if f == func), None)
    if index is None:
        raise KeyError(f"no own activation set holds {func} (own: {', '.join(f for _, f in SETS)})")
    name = SETS[index][0]
    members = {"act_info.json": catalog(), **build_set(name)}
    return {"set": name, "index": index, "func_id": FITTED[func].func_id, "act_info": "act_info.json",
            "members": members}
