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
# Catalog dtypes whose layout an ml_dtypes type has (bits and meaning).
_ML_DTYPES = {"BF16": "bfloat16", "FP8_EXP5": "float8_e5m2", "FP8_EXP4": "float8_e4m3", "FP8_EXP3": "float8_e3m4"}
_RAW = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}

HAVE_ML_DTYPES = _ml is not None


def numpy_dtype(name: str, size: int | None = None) -> np.dtype:
    """The NumPy dtype for catalog dtype ``name`` (INT32, FP16, BF16, ...). Without a native or ml_dtypes
    type, the unsigned integer of the element's size (``size`` bytes, else looked up in the catalog)."""
    key = name.upper()
    if key in _NATIVE:
        return np.dtype(_NATIVE[key])
    if _ml is not None and key in _ML_DTYPES and hasattr(_ml, _ML_DTYPES[key]):
        return np.dtype(getattr(_ml, _ML_DTYPES[key]))
    if size is None:
        from . import catalog

        row = next((d for d in catalog.dtypes() if d["name"] == key), None)
        if row is None or row["bits"] < 8:
            raise ValueError(f"dtype {name!r} has no byte-sized elements")
        size = row["bits"] // 8
    return np.dtype(_RAW[size])
