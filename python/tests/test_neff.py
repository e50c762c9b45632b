"""tpbisa.Neff on matmul_small.neff (skipped when the shared data are absent) and on broken containers."""

from __future__ import annotations

import json
import os
import pathlib
import sys
from typing import Any

import numpy as np
import pytest

import tpbisa
from conftest import SOURCE_DIR, cli_json, run_cli


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
    # Worded as the command line words a missing input: no check named (`tpbisa neff info missing.neff`).
    assert str(info.value) == f"{missing}: cannot open: No such file or directory"
    r = run_cli("neff", "info", str(missing))
    assert r.returncode == 3 and r.stderr.decode() == f"tpbisa: error: {info.value}\n"
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


# ---- issue 36: what the module does with containers that declare too much or hold names that are not UTF-8 ----

def _fixtures() -> Any:
    """tests/neff/make_fixtures.py, which builds synthetic members and containers (standard library only)."""
    sys.path.insert(0, str(SOURCE_DIR / "tests" / "neff"))
    try:
        import make_fixtures
    finally:
        sys.path.pop(0)
    return make_fixtures


def test_names_that_are_not_utf8_are_escaped(tmp_path: pathlib.Path) -> None:
    f = _fixtures()
    odd = b"odd\xff\xfe.bin".decode("utf-8", "surrogateescape")
    path = tmp_path / "odd.neff"
    path.write_bytes(f.container(f.program() + [(odd, b"x")], name=b"name\xff\xfe"))
    n = tpbisa.Neff(str(path))  # used to raise UnicodeDecodeError
    assert n.info["header"]["name"] == "name\\xff\\xfe"
    assert n.info == cli_json("neff", "info", "--json", str(path))
    members = cli_json("neff", "ls", "--json", str(path))["members"]
    assert "odd\\xff\\xfe.bin" in [m["name"] for m in members]


def test_json_members_with_duplicate_keys_or_a_nul_are_refused(tmp_path: pathlib.Path) -> None:
    f = _fixtures()
    g = f.program()
    for text, message in ((b'{"tool_version": "1", "tool_version": "2"}', 'duplicate key "tool_version"'),
                          (b'{"tool_version": "1"}\0junk', "a NUL byte at byte 21")):
        path = tmp_path / "j.neff"
        path.write_bytes(f.container(f.replace(g, "info.json", text)))
        with pytest.raises(tpbisa.NeffError, match=message) as info:
            tpbisa.Neff(str(path))
        assert info.value.check == "json" and info.value.member == "info.json"


def test_a_huge_window_is_refused_from_the_header(tmp_path: pathlib.Path) -> None:
    # 100 GiB never written: the header's data_size is checked before anything else is read.
    f = _fixtures()
    path = tmp_path / "window.neff"
    path.write_bytes(f.header(2, (100 << 30) - 1024, bytes(16)))
    os.truncate(path, 100 << 30)
    with pytest.raises(tpbisa.NeffError, match="data_size 107374181376 exceeds the inflated-size limit") as info:
        tpbisa.Neff(str(path))
    assert info.value.check == "limit"


def test_a_run_counts_its_variables_before_allocating(tmp_path: pathlib.Path) -> None:
    # A 4 GiB virtual variable: a clear error naming it, not MemoryError.
    f = _fixtures()
    members = []
    for name, data in f.program():
        if name == "sg00/def.json":
            d = json.loads(data)
            d["var"]["spill"] = {"type": "virtual", "var_id": 9, "size": 4 << 30, "backing_variable_off": 0}
            data = f.dumps(d)
        members.append((name, data))
    path = tmp_path / "spill.neff"
    path.write_bytes(f.container(members))
    prog = tpbisa.Neff(str(path))
    with pytest.raises(tpbisa.Error, match=r"variable spill \(virtual, 4294967296 bytes\) brings the run"):
        prog.run(x=np.zeros((16, 16), dtype=np.float16))
