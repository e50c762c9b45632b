"""Neff.run's bounds for a pool's worker: `timeout` stops a run on any thread (a thread has no signals) with
TimeoutError and no trace left, `max_memory` is the command line's --max-memory."""

from __future__ import annotations

import pathlib
import subprocess
import sys
import threading

import numpy as np
import pytest

import tpbisa
from conftest import CLI, SOURCE_DIR, run_cli

GEN = SOURCE_DIR / "examples" / "gen_matmul_neff.py"


@pytest.fixture(scope="module")
def matmul(tmp_path_factory: pytest.TempPathFactory) -> tuple[tpbisa.Neff, dict[str, np.ndarray], pathlib.Path]:
    folder = tmp_path_factory.mktemp("limits")
    out = folder / "mm.neff"
    r = subprocess.run([sys.executable, str(GEN), "--tpbisa", CLI, "--out", str(out), "--k", "256", "--n", "1024",
                        "--write-inputs", str(folder / "mm")], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    inputs = {n: np.load(folder / "mm" / f"{n}.npy") for n in ("x", "y")}
    return tpbisa.Neff(str(out)), inputs, folder


def test_timeout_stops_a_run_in_a_thread(matmul: tuple[tpbisa.Neff, dict[str, np.ndarray], pathlib.Path]) -> None:
    prog, inputs, folder = matmul
    trace = folder / "t.jsonl"
    caught: list[BaseException] = []

    def work() -> None:
        try:
            prog.run(timeout=1e-6, trace=trace, **inputs)
        except BaseException as e:  # noqa: BLE001
            caught.append(e)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join(60)
    assert not thread.is_alive() and len(caught) == 1 and isinstance(caught[0], TimeoutError)
    assert str(caught[0]).startswith("the run took longer than its timeout of 1e-06 s (")
    assert not trace.exists()
    assert prog.run(timeout=600, **inputs).ok


@pytest.mark.parametrize("bad", [0, -1.5, float("nan"), 1e12])
def test_timeout_must_be_positive(matmul: tuple[tpbisa.Neff, dict[str, np.ndarray], pathlib.Path],
                                  bad: float) -> None:
    prog, inputs, _ = matmul
    with pytest.raises(tpbisa.UsageError, match="timeout must be a number of seconds above 0"):
        prog.run(timeout=bad, **inputs)


def test_max_memory_is_the_command_lines(matmul: tuple[tpbisa.Neff, dict[str, np.ndarray],
                                                       pathlib.Path]) -> None:
    prog, inputs, folder = matmul
    with pytest.raises(tpbisa.UsageError) as e:
        prog.run(max_memory=1 << 20, **inputs)
    args = ["run", prog.file, "--max-memory", "1M"]
    for name, array in inputs.items():
        np.save(folder / f"{name}.npy", array)
        args += ["--input", f"{name}={folder / name}.npy"]
    r = run_cli(*args)
    assert r.returncode == 3 and str(e.value) in r.stderr.decode()
    assert "beyond the memory limit of 1048576 bytes" in str(e.value)
    with pytest.raises(tpbisa.UsageError, match="max_memory"):
        prog.run(max_memory=-1, **inputs)
    assert prog.run(max_memory=1 << 30, **inputs).ok
