"""Shared fixtures of the Python tests: the command line tool, the repository, the shared vectors and the NEFF."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
from typing import Any

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("TPBISA_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
CLI = os.environ.get("TPBISA_CLI", str(SOURCE_DIR / "build" / "tpbisa"))
SHARED_DATA = pathlib.Path(os.environ.get("TPBISA_SHARED_DATA_DIR", SOURCE_DIR.parent / "shared" / "data"))
MATMUL_NEFF = SHARED_DATA / "matmul_small.neff"


def run_cli(*args: str, input: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """Runs the tpbisa command; the caller checks the exit code."""
    return subprocess.run([CLI, *args], input=input, capture_output=True, check=False)


def cli_json(*args: str) -> Any:
    r = run_cli(*args)
    assert r.stdout, r.stderr.decode()
    return json.loads(r.stdout)


def read_vectors() -> list[dict[str, Any]]:
    """tests/vectors/validate.tsv: id, generations, expect, failing, options, hex128."""
    rows = []
    for line in (SOURCE_DIR / "tests" / "vectors" / "validate.tsv").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        vid, gens, expect, failing, options, word = line.split("\t")
        rows.append(
            {
                "id": vid,
                "gens": gens.split(","),
                "expect": expect,
                "failing": set() if failing == "-" else set(failing.split(",")),
                "options": [] if options == "-" else options.split(","),
                "word": bytes.fromhex(word),
            }
        )
    assert len(rows) > 300, "validate.tsv was not read"
    return rows


@pytest.fixture(scope="session")
def vectors() -> list[dict[str, Any]]:
    return read_vectors()


@pytest.fixture(scope="session")
def matmul_neff() -> pathlib.Path:
    if not MATMUL_NEFF.exists():
        pytest.skip(f"{MATMUL_NEFF.name} is not in the shared data folder")
    return MATMUL_NEFF


@pytest.fixture(scope="session")
def demo_words() -> bytes:
    r = run_cli("asm", "--gen", "cayman", str(SOURCE_DIR / "examples" / "demo.tasm"), "-o", "-")
    assert r.returncode == 0, r.stderr.decode()
    return r.stdout
