"""The NumPy dtype of each catalog dtype: native where NumPy has it, ml_dtypes for bf16 and fp8 when that
package is importable, otherwise an unsigned integer view of the raw bits (docs/python.md, "Dtypes")."""

from __future__ import annotations

import numpy as np

try:  # optional: only when installed
    import ml_dtypes as _ml  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - depends on the machine
    _ml = None

_NATIVE = {
    "UINT8": np.uint8,
    "INT8": np.int8,
    "UINT16": np.uint16,
    "INT16": np.int16,
    "UINT32": np.uint32,
    "INT32": np.int32,
    "UINT64": np.uint64,
    "INT64": np.int64,
    "FP16": np.float16,
    "FP32": np.float32,
    "FP32R": np.float32,
}
_RAW = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}

HAVE_ML_DTYPES = _ml is not None


def numpy_dtype(name: str) -> np.dtype:
    """The NumPy dtype for a catalog dtype, by name or short name (FP16, fp16, BFLOAT16, bf16, u32, ...): NumPy's
    own where it has one, the ml_dtypes type for bf16 and fp8 when ml_dtypes is importable, else the unsigned
    integer of the element's size holding its bits. A name that is no catalog dtype, and dtypes narrower than a
    byte, raise UsageError (a ValueError)."""
    from . import catalog
    from ._tpbisa import UsageError

    key = name.lower()
    row = next((d for d in catalog.dtypes() if key in (d["name"].lower(), d["short_name"])), None)
    if row is None:
        raise UsageError(f"dtype {name!r} is not a catalog dtype")
    canonical = row["name"]
    if canonical in _NATIVE:
        return np.dtype(_NATIVE[canonical])
    # The ml_dtypes type with the dtype's bits and meaning is the one its NEFF signature names (the catalog's
    # signature column: bfloat16, float8_e5m2, float8_e4m3fn, float8_e3m4).
    ml_name = next((sig for sig, isa in catalog.signature_dtypes().items() if isa == canonical), None)
    if _ml is not None and ml_name is not None and hasattr(_ml, ml_name):
        return np.dtype(getattr(_ml, ml_name))
    if row["bits"] < 8 or row["bits"] % 8 != 0:
        raise UsageError(f"dtype {name!r} has no byte-sized elements")
    return np.dtype(_RAW[row["bits"] // 8])
