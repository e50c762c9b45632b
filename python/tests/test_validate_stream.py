"""validate_stream against `tpbisa validate --json`: the same document for a file, a NEFF and bytes, for every
thread count, with failing words only or every word; errors raise."""

from __future__ import annotations

import json
import pathlib
import random

import pytest

import tpbisa
from conftest import run_cli


def cli_document(*args: str) -> dict:
    r = run_cli("validate", "--json", *args)
    assert r.stdout, r.stderr.decode()
    return json.loads(r.stdout)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory, demo_words: bytes) -> pathlib.Path:
    """About 70,000 words (more than one block of the threaded path): the demo's words and random ones."""
    rng = random.Random(35)
    words = bytearray()
    for _ in range(10000):
        words += demo_words
        words += bytes(rng.getrandbits(8) for _ in range(64)) if rng.random() < 0.05 else b""
    path = tmp_path_factory.mktemp("vs") / "mixed.bin"
    path.write_bytes(words)
    return path


@pytest.mark.parametrize("gen", ["mariana", "all"])
def test_the_command_lines_document_for_every_thread_count(mixed: pathlib.Path, gen: str) -> None:
    want = cli_document("--quiet", "--gen", gen, str(mixed))
    # The command line's result names the input by its path; validate_stream too.
    assert want["summary"]["invalid"] > 0 and want["summary"]["valid"] > 60000
    for jobs in (1, 2, 4):
        assert tpbisa.validate_stream(str(mixed), gen, jobs=jobs) == want
    assert tpbisa.validate_stream(mixed, gen, jobs=3) == want  # a path-like object


def test_every_word_and_bytes(mixed: pathlib.Path, demo_words: bytes) -> None:
    want = cli_document("--gen", "cayman", str(mixed))
    assert tpbisa.validate_stream(str(mixed), "cayman", failing_only=False) == want
    doc = tpbisa.validate_stream(demo_words, "cayman", failing_only=False)
    assert [r["input"] for r in doc["results"]] == ["data"] * 7
    assert doc["summary"]["checked"] == 7 and doc["summary"]["generations"] == ["cayman"]


def test_a_neff_with_its_filters(matmul_neff: pathlib.Path) -> None:
    want = cli_document("--engine", "pe", "--subgraph", "sg00", str(matmul_neff))
    assert tpbisa.validate_stream(str(matmul_neff), failing_only=False, engine="pe", subgraph="sg00") == want
    assert tpbisa.validate_stream(str(matmul_neff))["summary"] == cli_document(str(matmul_neff))["summary"]


def test_errors(tmp_path: pathlib.Path) -> None:
    (tmp_path / "partial.bin").write_bytes(bytes(70))
    with pytest.raises(tpbisa.InputError, match="6 trailing bytes"):
        tpbisa.validate_stream(str(tmp_path / "partial.bin"))
    with pytest.raises(tpbisa.InputError):
        tpbisa.validate_stream(str(tmp_path / "missing.bin"))
    with pytest.raises(tpbisa.UsageError, match=r"jobs 17 is out of range 1\.\.16"):
        tpbisa.validate_stream(bytes(64), jobs=17)
    with pytest.raises(tpbisa.UsageError, match="subgraph"):
        tpbisa.validate_stream(bytes(64), subgraph="sg00")
