"""The ISA catalog: opcodes, dtypes, ALU ops and the small enums, per generation -- the tables ``tpbisa catalog``
prints, read from the library's one table of each, as lists of dicts and as IntEnum types."""

from __future__ import annotations

import enum
from typing import Any

from ._tpbisa import _catalog

_TABLES: dict[str, Any] = _catalog()

def _filter(rows: list[dict[str, Any]], gen: str | None) -> list[dict[str, Any]]:
    if gen is None:
        return [dict(r) for r in rows]

    name = _generation_name(gen)
    return [dict(r) for r in rows if name in r["generations"]]

_VERSIONS = {"v2": "sunda", "v3": "cayman", "v4": "mariana", "v5": "maverick"}
GENERATIONS = ("sunda", "cayman", "mariana", "maverick")

def _generation_name(gen: str) -> str:
    g = gen.lower()
    g = _VERSIONS.get(g, g)
    if g not in GENERATIONS:
        from ._tpbisa import UsageError

        raise UsageError(f"gen '{gen}' is not a generation (sunda|cayman|mariana|maverick or v2..v5)")
    return g

def opcodes(gen: str | None = None) -> list[dict[str, Any]]:
    """The opcode rows (value, name, mnemonic, engine, maintained, format, struct, modeled, generations)."""
    return _filter(_TABLES["opcodes"], gen)

def dtypes(gen: str | None = None) -> list[dict[str, Any]]:
    """The dtype rows (code, name, short_name, bits, kind, layout, role, generations)."""
    return _filter(_TABLES["dtypes"], gen)

def alu_ops(gen: str | None = None) -> list[dict[str, Any]]:
    """The ALU-op rows (code, name, classes, computes, generations)."""
    return _filter(_TABLES["aluops"], gen)

def signature_dtypes() -> dict[str, str]:
    """The catalog dtype each NEFF signature dtype holds, by signature name ({"float16": "FP16", "float8_e4m3fn":
    "FP8_EXP4", ...}): the library's one mapping, the one ``tpbisa run PROG.neff`` reads outputs with. A signature
    dtype without an entry (float64, bool, float8_e4m3) is not an ISA dtype."""
    return dict(_TABLES["signature_dtypes"])

def modes(gen: str | None = None) -> dict[str, list[dict[str, Any]]]:
    """The small enums by name (WAIT_MODE, UPDATE_MODE, DATA_SRC, ...), each a list of rows."""
    return {name: _filter(rows, gen) for name, rows in _TABLES["modes"].items()}

def _enum(name: str, rows: list[dict[str, Any]], key: str, value: str) -> type[enum.IntEnum]:
    return enum.IntEnum(name, [(r[key], int(r[value], 16)) for r in rows])  # type: ignore[return-value]

#: Opcodes by mnemonic (Opcode.TensorLoad == 0xAA); every generation's.
Opcode = _enum("Opcode", _TABLES["opcodes"], "mnemonic", "value")
#: Dtypes by catalog name (Dtype.FP16 == 0x07).
Dtype = _enum("Dtype", _TABLES["dtypes"], "name", "code")
#: ALU ops by name (AluOp.BYPASS == 0x00).
AluOp = _enum("AluOp", _TABLES["aluops"], "name", "code")
#: EVENTS wait and update modes by name.
WaitMode = _enum("WaitMode", _TABLES["modes"]["WAIT_MODE"], "name", "value")
UpdateMode = _enum("UpdateMode", _TABLES["modes"]["UPDATE_MODE"], "name", "value")
