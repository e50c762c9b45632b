"""Ctrl-C during a long run: Neff.run (with a trace file) and Machine.run raise KeyboardInterrupt, leave no
temporary file, and the interpreter goes on. Each run is a child interpreter that receives a real SIGINT."""

from __future__ import annotations

import pathlib
import signal
import subprocess
import sys
import time

from conftest import CLI, SOURCE_DIR

CHILD_NEFF = r"""
import sys, numpy as np, tpbisa
neff, folder, trace = sys.argv[1:4]
prog = tpbisa.Neff(neff)
inputs = {n: np.load(f"{folder}/{n}.npy") for n in ("x", "y")}
print("running", flush=True)
try:
    prog.run(**inputs, trace=trace)
except KeyboardInterrupt as e:
    tb = e.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    print("interrupted in", tb.tb_frame.f_code.co_name, flush=True)
else:
    print("finished", flush=True)
# The interpreter and the library go on: a short run of the same program.
print("after", prog.run(**inputs, max_steps=3).status, flush=True)
"""

CHILD_MACHINE = r"""
import tpbisa
# An unconditional branch to itself: the stream never ends.
m = tpbisa.Machine("CompareBranch cmp_op=0 target_mode=3 br_immediate=0x0\n", gen="cayman")
print("running", flush=True)
try:
    m.run(max_steps=10**15)
except KeyboardInterrupt:
    print("interrupted", flush=True)
print("after", m.run(max_steps=5)["status"], flush=True)
"""


def interrupt(code: str, *args: str, ready: object = None) -> str:
    """Runs `code` in a child interpreter, sends SIGINT once it is running (and `ready()` holds), returns its stdout."""
    child = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "running\n"
        deadline = time.monotonic() + 60
        while ready is not None and not ready() and time.monotonic() < deadline:  # type: ignore[operator]
            time.sleep(0.01)
        time.sleep(0.2)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
    finally:
        child.kill()
    assert child.returncode == 0, err
    return out


def test_ctrl_c_stops_a_neff_run_and_leaves_no_trace(tmp_path: pathlib.Path) -> None:
    # A program of few, heavy words (128 x 2048 x 4096 MACs) whose trace is large: seconds of work.
    neff = tmp_path / "big.neff"
    r = subprocess.run([sys.executable, str(SOURCE_DIR / "examples" / "gen_matmul_neff.py"), "--tpbisa", CLI,
                        "--k", "2048", "--n", "4096", "--out", str(neff), "--write-inputs", str(tmp_path / "big")],
                       capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    trace = tmp_path / "trace.jsonl"
    temporaries = lambda: list(tmp_path.glob(".trace.jsonl.tpbisa-*"))  # noqa: E731
    out = interrupt(CHILD_NEFF, str(neff), str(tmp_path / "big"), str(trace), ready=lambda: temporaries())
    assert out.splitlines() == ["interrupted in _neff_run", "after step-limit"], out
    assert not trace.exists()
    assert temporaries() == []


def test_ctrl_c_stops_a_machine_run() -> None:
    out = interrupt(CHILD_MACHINE)
    assert out.splitlines() == ["interrupted", "after step-limit"], out


CHILD_LOOP = r"""
import sys, numpy as np, tpbisa
prog = tpbisa.Neff(sys.argv[1])
print("running", flush=True)
try:
    prog.run(x=np.zeros((16, 16), np.float16), max_steps=10**15, threads=int(sys.argv[2]))
except KeyboardInterrupt:
    print("interrupted", flush=True)
print("after", prog.run(x=np.zeros((16, 16), np.float16), max_steps=5).status, flush=True)
"""


def test_ctrl_c_stops_a_neff_that_loops(tmp_path: pathlib.Path) -> None:
    # Issue 36, D08: a NEFF whose one word jumps to itself, on one thread and on a thread per core.
    from test_run import LOOP, synthetic

    neff = synthetic(tmp_path, "loop", LOOP)
    for threads in ("1", "2"):
        out = interrupt(CHILD_LOOP, str(neff), threads)
        assert out.splitlines() == ["interrupted", "after step-limit"], (threads, out)
