"""tpbisa: the TPB instruction set toolkit for Python -- decode, disassemble, assemble and validate 64-byte
instruction words, inspect NEFF containers and run single streams on the simulator.

Every function is a thin conversion over the C++ library the ``tpbisa`` command uses, so both give the same
results. Reference: docs/python.md.
"""

from __future__ import annotations

from typing import Any

import numpy as _np

from . import catalog
from ._dtypes import numpy_dtype
from ._tpbisa import (
    AsmError,
    Error,
    Failure,
    Field,
    InputError,
    Instruction,
    Neff,
    NeffError,
    UsageError,
    Verdict,
    __version__,
    _Machine,
    asm,
    decode,
    disasm,
    disasm_lite,
    validate,
)

__all__ = [
    "AsmError",
    "Error",
    "Failure",
    "Field",
    "InputError",
    "Instruction",
    "Machine",
    "Neff",
    "NeffError",
    "UsageError",
    "Verdict",
    "asm",
    "catalog",
    "decode",
    "disasm",
    "disasm_lite",
    "numpy_dtype",
    "validate",
]


def _neff_run(self: Neff, *args: Any, **kwargs: Any) -> Any:
    """Runs the whole NEFF on NumPy inputs. Not available yet: whole-NEFF execution is being added to the
    library and is wired here when it lands (docs/python.md, "Not yet available")."""
    raise NotImplementedError(
        "Neff.run: whole-NEFF execution is not available in the Python module yet (docs/python.md)"
    )


Neff.run = _neff_run  # type: ignore[attr-defined]


class Machine(_Machine):
    """One stream of words on one engine of one core: the machine ``tpbisa run`` steps.

    ``Machine(program, gen=None, *, engine="dve", ...)``; ``program`` is bytes-like (64-byte words) or assembly
    text (str), assembled for ``gen`` first.
    """

    def __init__(self, program: Any, gen: str | None = None, **options: Any) -> None:
        if isinstance(program, str):
            program = asm(program, gen)
        super().__init__(program, gen, **options)

    def read(self, location: str, dtype: str, count: int = 1) -> _np.ndarray:
        """``count`` elements of ``dtype`` (a catalog name or short name: fp32, bf16, u8, ...) from
        ``location`` (sbuf[p0]+0x100, psum:1:0, dev:0x1000, ...), as a NumPy array that owns its memory
        (bf16 and fp8 as ml_dtypes types when that package is importable, else as uint16/uint8)."""
        bits, name, _short, _initialized = self._read(location, dtype, count)
        return bits.view(numpy_dtype(name))

    def initialized(self, location: str, dtype: str = "u8", count: int = 1) -> bool:
        """True when every byte of the ``count`` elements at ``location`` has been written."""
        return bool(self._read(location, dtype, count)[3])
