"""tpbisa.catalog against `tpbisa catalog --json`, and its enums."""

from __future__ import annotations

import pytest

import tpbisa
from tpbisa import catalog
from conftest import cli_json


@pytest.mark.parametrize("gen", [None, "sunda", "cayman", "mariana", "maverick"])
def test_tables_equal_cli(gen: str | None) -> None:
    g = ["--gen", gen] if gen else []
    assert catalog.opcodes(gen) == cli_json("catalog", "opcodes", "--json", *g)["entries"]
    assert catalog.dtypes(gen) == cli_json("catalog", "dtypes", "--json", *g)["entries"]
    assert catalog.alu_ops(gen) == cli_json("catalog", "aluops", "--json", *g)["entries"]
    modes = cli_json("catalog", "modes", "--json", *g)["enums"]
    assert catalog.modes(gen) == {t["name"]: t["entries"] for t in modes}


def test_enums() -> None:
    assert catalog.Opcode.TensorLoad == 0xAA
    assert catalog.Dtype.FP16 == 0x07
    assert catalog.AluOp.BYPASS == 0x00
    assert len(catalog.Opcode) == len(catalog.opcodes())
    assert tpbisa.decode(bytes([catalog.Opcode.Halt]) + bytes([16]) + bytes(62), gen="cayman").name == "Halt"
    assert catalog.WaitMode.__members__ and catalog.UpdateMode.__members__


def test_version_names_and_errors() -> None:
    assert catalog.opcodes("v3") == catalog.opcodes("cayman")
    with pytest.raises(tpbisa.UsageError):
        catalog.dtypes("nosuch")


def test_numpy_dtypes() -> None:
    import numpy as np

    assert tpbisa.numpy_dtype("FP16") == np.float16
    assert tpbisa.numpy_dtype("fp32") == np.float32
    assert tpbisa.numpy_dtype("INT8") == np.int8
    bf16 = tpbisa.numpy_dtype("bf16")
    fp8 = tpbisa.numpy_dtype("FP8_EXP4")
    try:
        import ml_dtypes  # noqa: F401
    except ImportError:
        assert bf16 == np.uint16 and fp8 == np.uint8  # the documented fallback
    else:
        assert bf16.itemsize == 2 and fp8.itemsize == 1
    with pytest.raises(ValueError):
        tpbisa.numpy_dtype("FP4_EXP2")


def test_stubs_cover_the_package() -> None:
    # Editors complete from the .pyi stubs: every public name, and every public member of the classes, is in them.
    import ast
    import pathlib

    package = pathlib.Path(tpbisa.__file__).parent
    assert (package / "py.typed").exists()
    tree = ast.parse((package / "__init__.pyi").read_text())
    stubbed = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    stubbed |= {n.names[0].asname or n.names[0].name for n in tree.body if isinstance(n, ast.ImportFrom)}
    assert set(tpbisa.__all__) <= stubbed, set(tpbisa.__all__) - stubbed
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    for name in ("Instruction", "Verdict", "Field", "Neff", "Machine"):
        members = {m.name for m in classes[name].body if isinstance(m, ast.FunctionDef)}
        members |= {m.target.id for m in classes[name].body if isinstance(m, ast.AnnAssign)}
        public = {a for a in dir(getattr(tpbisa, name)) if not a.startswith("_")}
        assert public <= members, (name, public - members)
    cat = ast.parse((package / "catalog.pyi").read_text())
    names = {n.name for n in cat.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    assert {"opcodes", "dtypes", "alu_ops", "modes", "Opcode", "Dtype", "AluOp"} <= names
