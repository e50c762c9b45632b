"""NEFF signature dtypes: the catalog's one mapping (float8_e4m3fn is FP8_EXP4; the IEEE-like float8_e4m3 is no ISA
dtype), read alike by Neff.run and by `tpbisa run --expect` (docs/conventions.md, whole-NEFF run)."""

from __future__ import annotations

import json
import math
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import tpbisa
from tpbisa import catalog
from conftest import CLI, SOURCE_DIR, run_cli

# NumPy / ml_dtypes names whose bits mean what the catalog dtype's bits mean (memory-and-numerics.md §8.1).
EXPECTED = {
    "float16": "FP16", "bfloat16": "BFLOAT16", "float32": "FP32", "float8_e3m4": "FP8_EXP3",
    "float8_e4m3fn": "FP8_EXP4", "float8_e5m2": "FP8_EXP5", "int8": "INT8", "uint8": "UINT8", "int16": "INT16",
    "uint16": "UINT16", "int32": "INT32", "uint32": "UINT32", "int64": "INT64", "uint64": "UINT64",
}


def e4m3fn(b: int) -> float:
    """E4M3 without infinities: bias 7, NaN only at S.1111.111, largest 448."""
    sign = -1.0 if b & 0x80 else 1.0
    e, m = (b >> 3) & 0xF, b & 7
    if e == 15 and m == 7:
        return math.nan
    return sign * (m / 8 * 2.0**-6 if e == 0 else (1 + m / 8) * 2.0 ** (e - 7))


def test_the_mapping() -> None:
    assert catalog.signature_dtypes() == EXPECTED
    assert "float8_e4m3" not in catalog.signature_dtypes()
    for signature, name in EXPECTED.items():
        row = next(d for d in catalog.dtypes() if d["name"] == name)
        assert row["bits"] % 8 == 0, signature


@pytest.fixture(scope="module")
def fp8_neffs(tmp_path_factory: pytest.TempPathFactory) -> tuple[pathlib.Path, dict[str, np.ndarray]]:
    """A small matmul NEFF re-signed with output0 as 128 x 1024 one-byte elements: fn.neff (float8_e4m3fn) and
    ieee.neff (float8_e4m3)."""
    folder = tmp_path_factory.mktemp("fp8")
    r = subprocess.run([sys.executable, str(SOURCE_DIR / "examples" / "gen_matmul_neff.py"), "--tpbisa", CLI,
                        "--k", "128", "--n", "512", "--out", str(folder / "m.neff"), "--write-inputs",
                        str(folder / "in")], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    assert run_cli("neff", "extract", str(folder / "m.neff"), str(folder / "members")).returncode == 0
    graph = folder / "members" / "neff.json"
    g = json.loads(graph.read_text())
    for name, dtype in (("fn", "float8_e4m3fn"), ("ieee", "float8_e4m3")):
        g["metadata"]["signatures"]["default"]["outputs"] = {"output0": {"id": 2, "dtype": dtype, "shape": [128, 1024]}}
        graph.write_text(json.dumps(g))
        assert run_cli("neff", "pack", str(folder / "members"), str(folder / f"{name}.neff")).returncode == 0
    inputs = {n: np.load(folder / "in" / f"{n}.npy") for n in ("x", "y")}
    return folder, inputs


def test_run_and_cli_read_outputs_alike(fp8_neffs: tuple[pathlib.Path, dict[str, np.ndarray]]) -> None:
    folder, inputs = fp8_neffs
    fn = tpbisa.Neff(str(folder / "fn.neff"))
    assert fn.outputs["output0"][0] == "float8_e4m3fn"
    out = fn.run(**inputs)["output0"]
    assert out.dtype == tpbisa.numpy_dtype(catalog.signature_dtypes()["float8_e4m3fn"])  # FP8_EXP4's type
    raw = out.view(np.uint8)
    # The CLI reads the same bytes as FP8_EXP4: a reference of their E4M3-without-infinities values matches.
    ref = np.array([e4m3fn(b) for b in range(256)], dtype=np.float32)[raw]
    np.save(folder / "ref_fp8.npy", ref)
    argv = ["run", str(folder / "fn.neff"), "--expect", f"output0={folder / 'ref_fp8.npy'}"]
    for name in inputs:
        argv += ["--input", f"{name}={folder / 'in' / (name + '.npy')}"]
    r = run_cli(*argv)
    label = argv[3].replace("=", " (", 1)  # "output0 (REF.npy)": the line names its reference
    assert f"expect {label}): 0 of {raw.size} elements differ" in r.stdout.decode(), r.stdout.decode()

    # float8_e4m3 (IEEE-like, with infinities) is no ISA dtype: Python hands over the bytes, the CLI compares them.
    ieee = tpbisa.Neff(str(folder / "ieee.neff"))
    raw_ieee = ieee.run(**inputs)["output0"]
    assert raw_ieee.dtype == np.uint8
    assert np.array_equal(raw_ieee, raw)
    np.save(folder / "ref_bytes.npy", raw.astype(np.float32))
    argv[1] = str(folder / "ieee.neff")
    argv[3] = f"output0={folder / 'ref_bytes.npy'}"
    r = run_cli(*argv)
    label = argv[3].replace("=", " (", 1)  # "output0 (REF.npy)": the line names its reference
    assert f"expect {label}): 0 of {raw.size} elements differ" in r.stdout.decode(), r.stdout.decode()
