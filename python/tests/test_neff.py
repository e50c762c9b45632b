"""tpbisa.Neff on matmul_small.neff (skipped when the shared data are absent) and on broken containers."""

from __future__ import annotations

import pathlib

import pytest

import tpbisa
from conftest import cli_json, run_cli


def test_info_inputs_outputs(matmul_neff: pathlib.Path) -> None:
    n = tpbisa.Neff(str(matmul_neff))
    doc = cli_json("neff", "info", "--json", str(matmul_neff))
    assert n.info == doc
    assert n.inputs == {t["name"]: (t["dtype"], tuple(t["shape"])) for t in doc["inputs"]}
    assert n.outputs == {t["name"]: (t["dtype"], tuple(t["shape"])) for t in doc["outputs"]}
    assert n.generation == doc["generation"] and n.target == doc["target"]
    labels = [e["label"] for sg in doc["subgraphs"] for e in sg["engines"]]
    assert [s["label"] for s in n.streams] == labels
    for s in n.streams:
        assert len(s["data"]) == 64 * s["words"]


def test_sems(matmul_neff: pathlib.Path) -> None:
    n = tpbisa.Neff(str(matmul_neff))
    assert n.sems() == cli_json("neff", "sems", "--json", str(matmul_neff))["subgraphs"]


def test_disasm_equals_cli(matmul_neff: pathlib.Path) -> None:
    n = tpbisa.Neff(str(matmul_neff))
    r = run_cli("disasm", str(matmul_neff))
    assert r.returncode == 0
    lines = [line for line in r.stdout.decode().splitlines() if not line.startswith(";")]
    items = list(n.disasm())
    assert [i.text for i in items] == lines
    assert all(i.label.startswith(i.stream + "#") for i in items)
    pe = list(n.disasm(subgraph="sg00", engine="PE"))
    assert pe and all(i.stream == "sg00/PE" for i in pe)
    for ins in pe:
        assert ins.label and ins.mnemonic and ins.text


def test_validate_equals_cli(matmul_neff: pathlib.Path) -> None:
    n = tpbisa.Neff(str(matmul_neff))
    doc = cli_json("validate", "--json", str(matmul_neff))
    py = n.validate()
    assert len(py) == len(doc["results"])
    gen = n.generation
    for got, want in zip(py, doc["results"]):
        assert got.to_dict() == want["verdicts"][gen]
        assert got.stream == want["stream"] and got.index == want["index"]
    doc_all = cli_json("validate", "--json", "--gen", "all", str(matmul_neff))
    for got, want in zip(n.validate(gen="all"), doc_all["results"]):
        assert {g: v.to_dict() for g, v in got.items()} == want["verdicts"]


def test_filter_errors(matmul_neff: pathlib.Path) -> None:
    n = tpbisa.Neff(str(matmul_neff))
    with pytest.raises(tpbisa.InputError, match="nosuch"):
        list(n.disasm(subgraph="nosuch"))
    with pytest.raises(tpbisa.UsageError):
        n.disasm(engine="gpu")


def test_broken_containers(tmp_path: pathlib.Path) -> None:
    missing = tmp_path / "missing.neff"
    with pytest.raises(tpbisa.NeffError) as info:
        tpbisa.Neff(str(missing))
    assert info.value.check == "io"
    small = tmp_path / "small.neff"
    small.write_bytes(b"\x02" + bytes(100))
    with pytest.raises(tpbisa.NeffError, match="check: too-small"):
        tpbisa.Neff(str(small))
    r = run_cli("neff", "info", str(small))
    assert r.returncode == 3
    with pytest.raises(tpbisa.NeffError) as info:
        tpbisa.Neff(str(small))
    assert str(info.value) in r.stderr.decode()
    assert isinstance(info.value, tpbisa.InputError)
