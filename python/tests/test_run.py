"""Neff.run against the command line (`tpbisa run PROG.neff`): outputs byte for byte, the report, deadlocks and
races as objects, inputs read in place, the GIL released, and the error paths."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import threading
import time
from typing import Any

import numpy as np
import pytest

import tpbisa
from conftest import CLI, SOURCE_DIR, run_cli

sys.path.insert(0, str(SOURCE_DIR / "tests" / "neff"))
import make_fixtures as fixtures  # noqa: E402  (tests/neff: the synthetic NEFF containers of the tests)

GEN = SOURCE_DIR / "examples" / "gen_matmul_neff.py"
# Fields of the report that measure the host, not the run.
TIMING = {"seconds", "macs_per_second"}


def generate(folder: pathlib.Path, name: str, *args: str) -> pathlib.Path:
    """A NEFF from examples/gen_matmul_neff.py (with x.npy, y.npy and ref.npy in folder/name)."""
    out = folder / f"{name}.neff"
    r = subprocess.run([sys.executable, str(GEN), "--tpbisa", CLI, "--out", str(out), "--write-inputs",
                        str(folder / name), *args], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    return out


def cli_run(neff: pathlib.Path, inputs: dict[str, np.ndarray], folder: pathlib.Path, *args: str) -> tuple[Any, int]:
    """`tpbisa run NEFF --input ... --out folder/out --json`: the report and the exit code."""
    argv = ["run", str(neff), "--out", str(folder / "out"), "--json", *args]
    for name, array in inputs.items():
        path = folder / f"in_{name}.npy"
        np.save(path, array)
        argv += ["--input", f"{name}={path}"]
    r = run_cli(*argv)
    assert r.stdout, r.stderr.decode()
    return json.loads(r.stdout), r.returncode


def synthetic(folder: pathlib.Path, name: str, sp_word: bytes) -> pathlib.Path:
    """The fixtures' one-core NEFF (input x: float16 (16, 16), output out) whose only stream, SP, is `sp_word`."""
    streams = {f"sg00/{e}.bin" for e in fixtures.ENGINE_FILES.values()}
    members = [(n, (sp_word if n == "sg00/SP.bin" else b"") if n in streams else d) for n, d in fixtures.program()]
    path = folder / f"{name}.neff"
    path.write_bytes(fixtures.container(members))
    return path


# CompareBranch (0xa9) with target_mode 3 (byte 14) and offset 0: a word that jumps to itself forever.
LOOP = fixtures.word(0xA9, extra=((14, 3),))


def comparable(report: dict[str, Any]) -> dict[str, Any]:
    """The report without timings and without the files the command wrote (the module writes none)."""
    return {k: v for k, v in report.items() if k not in TIMING | {"outputs", "program"}}


def random_inputs(prog: tpbisa.Neff, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {name: rng.integers(-2, 3, size=shape).astype(dtype) for name, (dtype, shape) in prog.inputs.items()}


def test_outputs_of_earlier_runs_keep_their_values(matmul_neff: pathlib.Path) -> None:
    # Each run's outputs are the run's own buffers, handed over: a later run must not write into those still held,
    # and those let go serve later runs.
    prog = tpbisa.Neff(str(matmul_neff))
    held = []
    for seed in range(4):
        inputs = random_inputs(prog, seed)
        got = prog.run(inputs).outputs["output0"]
        want = (inputs["x"].astype(np.float32) @ inputs["y"].astype(np.float32)).astype(np.float16)
        held.append((got, want))
        prog.run(random_inputs(prog, 100 + seed))  # its outputs are let go at once
    for got, want in held:
        np.testing.assert_array_equal(got, want)
    got[0, 0] = 7  # writable: the caller's to change
    assert got[0, 0] == 7


def test_matmul_small_equals_numpy_and_cli(matmul_neff: pathlib.Path, tmp_path: pathlib.Path) -> None:
    prog = tpbisa.Neff(str(matmul_neff))
    inputs = random_inputs(prog, 1)
    x, y = inputs["x"], inputs["y"]
    out = prog.run(x=x, y=y)
    assert out.ok and out.status == "ok" and out.deadlock is None and out.races is None
    got = out.outputs["output0"]
    dtype, shape = prog.outputs["output0"]
    assert got.dtype == np.dtype(dtype) and got.shape == tuple(shape)
    # Its own memory: writable, contiguous, no view of an input.
    assert got.flags.writeable and got.flags.c_contiguous
    assert not np.shares_memory(got, x) and not np.shares_memory(got, y)
    np.testing.assert_array_equal(got, (x.astype(np.float32) @ y.astype(np.float32)).astype(np.float16))
    assert out["output0"] is got and "output0" in out
    report, code = cli_run(matmul_neff, inputs, tmp_path)
    assert code == 0
    cli_out = np.load(tmp_path / "out" / "output0.npy")
    assert cli_out.dtype == got.dtype and cli_out.tobytes() == got.tobytes()
    assert comparable(out.report) == comparable(report)
    assert out.report["program"] == str(matmul_neff) and out.report["outputs"] == []


def test_schedules_and_threads_agree(matmul_neff: pathlib.Path) -> None:
    prog = tpbisa.Neff(str(matmul_neff))
    inputs = random_inputs(prog, 2)
    first = prog.run(**inputs)["output0"]
    for options in ({"schedule": "reverse"}, {"schedule": "random:7"}, {"threads": 2}, {"check_races": True}):
        out = prog.run(**inputs, **options)
        assert out.ok, options
        assert out["output0"].tobytes() == first.tobytes(), options
    assert prog.run(**inputs, check_races=True).races.count == 0


def test_generated_neff_equals_reference_and_cli(tmp_path: pathlib.Path) -> None:
    neff = generate(tmp_path, "mm", "--k", "256", "--n", "512", "--seed", "3")
    prog = tpbisa.Neff(str(neff))
    x, y = np.load(tmp_path / "mm" / "x.npy"), np.load(tmp_path / "mm" / "y.npy")
    out = prog.run(x=x, y=y)
    assert out.ok
    ref = np.load(tmp_path / "mm" / "ref.npy")
    np.testing.assert_array_equal(out["output0"], ref)
    report, code = cli_run(neff, {"x": x, "y": y}, tmp_path)
    assert code == 0
    assert np.load(tmp_path / "out" / "output0.npy").tobytes() == out["output0"].tobytes()
    assert comparable(out.report) == comparable(report)


def test_deadlock_report(tmp_path: pathlib.Path) -> None:
    neff = generate(tmp_path, "dead", "--drop-increment", "24")
    prog = tpbisa.Neff(str(neff))
    inputs = {n: np.load(tmp_path / "dead" / f"{n}.npy") for n in ("x", "y")}
    out = prog.run(**inputs)
    assert out.status == "deadlock" and not out.ok and out.races is None
    assert isinstance(out.deadlock, tpbisa.Deadlock) and len(out.deadlock) >= 1
    wait = out.deadlock.waits[0]
    assert isinstance(wait, tpbisa.BlockedWait)
    assert wait.stream.startswith("sg00/") and "S[24]" in wait.condition.replace("$", "") and wait.could_raise
    # The root wait comes first; its raisers are structures with their state.
    assert wait.root and wait.semaphore == 24 and wait.engine in {"PE", "ACT", "POOL", "DVE", "SP"}
    assert {r["state"] for r in wait.could_raise} <= {"retired", "blocked", "next", "not-reached", "not-found"}
    assert all(r["text"].startswith(f"{r['stream']}#{r['index']} ") for r in wait.could_raise)
    report, code = cli_run(neff, inputs, tmp_path)
    assert code == 1
    assert comparable(out.report) == comparable(report)
    assert [w.could_raise for w in out.deadlock] == [w["could_raise"] for w in report["deadlock"]]


def test_race_report(tmp_path: pathlib.Path) -> None:
    neff = generate(tmp_path, "race", "--k", "512", "--group", "2", "--banks", "2", "--drop-wait")
    prog = tpbisa.Neff(str(neff))
    inputs = {n: np.load(tmp_path / "race" / f"{n}.npy") for n in ("x", "y")}
    assert prog.run(**inputs).races is None  # only with check_races
    out = prog.run(**inputs, check_races=True)
    assert out.status == "ok" and not out.ok
    assert isinstance(out.races, tpbisa.Races) and out.races.count >= 1 and len(out.races) == out.races.count
    assert out.races.cells == out.races.count and 1 <= out.races.pairs <= out.races.cells
    assert out.races.pairs >= len(out.races.reported) and out.races.incomplete is None
    race = out.races.reported[0]
    assert isinstance(race, tpbisa.Race) and isinstance(race.location, tpbisa.RaceLocation)
    assert isinstance(race.earlier, tpbisa.RaceAccess) and race.earlier.text != race.later.text
    # The dropped wait is DVE's add on PE's PSUM accumulation group: PE writes it, DVE reads it.
    assert any({r.earlier.engine, r.later.engine} == {"PE", "DVE"} for r in out.races)
    for r in out.races:
        assert r.earlier.engine != r.later.engine and "write" in (r.earlier.access, r.later.access)
        assert r.earlier.text.endswith(f"({r.earlier.access})") and r.earlier.name and r.earlier.opcode
        assert r.location.memory == "psum" and r.location.partition is not None and r.location.variable is None
        assert r.location.bytes >= 2 and r.location.text.startswith(f"psum[p{r.location.partition}].bank")
    report, code = cli_run(neff, inputs, tmp_path, "--check-races")
    assert code == 1
    assert comparable(out.report) == comparable(report)


def test_inputs_are_read_in_place(tmp_path: pathlib.Path) -> None:
    neff = generate(tmp_path, "mm", "--k", "256", "--n", "512")
    prog = tpbisa.Neff(str(neff))
    x, y = np.load(tmp_path / "mm" / "x.npy"), np.load(tmp_path / "mm" / "y.npy")
    out = prog.run(x=x, y=y)
    assert out._input_addresses == {"x": x.ctypes.data, "y": y.ctypes.data}
    # A view into a larger buffer (C-contiguous rows) is read where it lies too.
    big = np.zeros((2 * x.shape[0], x.shape[1]), dtype=x.dtype)
    big[: x.shape[0]] = x
    view = big[: x.shape[0]]
    out2 = prog.run(x=view, y=y)
    assert out2._input_addresses["x"] == big.ctypes.data
    assert out2["output0"].tobytes() == out["output0"].tobytes()


def test_run_releases_the_gil(tmp_path: pathlib.Path) -> None:
    neff = generate(tmp_path, "mm", "--k", "512", "--n", "1024")
    prog = tpbisa.Neff(str(neff))
    inputs = {n: np.load(tmp_path / "mm" / f"{n}.npy") for n in ("x", "y")}
    ticks = 0
    stop = False

    def spin() -> None:
        nonlocal ticks
        while not stop:
            ticks += 1
            time.sleep(0.0005)

    t = threading.Thread(target=spin)
    t.start()
    time.sleep(0.05)
    runs, elapsed, during = 0, 0.0, 0
    try:
        # Runs until 0.3 s were spent inside run() (a fast build needs several), counting the other thread's
        # ticks inside the calls only.
        while elapsed < 0.3 and runs < 100:
            start_ticks = ticks
            start = time.perf_counter()
            out = prog.run(**inputs)
            elapsed += time.perf_counter() - start
            during += ticks - start_ticks
            runs += 1
            assert out.ok
    finally:
        stop = True
        t.join()
    # Holding the GIL for a whole call would leave the other thread at most a tick per call.
    assert elapsed >= 0.3, "the calls are too short to tell"
    assert during >= max(20, 3 * runs), (during, runs, elapsed)


def test_error_paths(matmul_neff: pathlib.Path, tmp_path: pathlib.Path) -> None:
    prog = tpbisa.Neff(str(matmul_neff))
    inputs = random_inputs(prog, 4)
    x, y = inputs["x"], inputs["y"]
    dtype, shape = prog.inputs["x"]
    with pytest.raises(ValueError, match=rf"input x expects {dtype} \({shape[0]}, {shape[1]}\)") as e:
        prog.run(x=x.astype(np.float32), y=y)
    assert isinstance(e.value, tpbisa.UsageError) and "'<f4'" in str(e.value)
    with pytest.raises(ValueError, match=r"input y expects .* the file has '<f2' \(3,\)"):
        prog.run(x=x, y=np.zeros(3, dtype=y.dtype))
    with pytest.raises(tpbisa.UsageError, match=r"input y .* is not given"):
        prog.run(x=x)
    with pytest.raises(tpbisa.UsageError, match=r"no input of that name \(its inputs: "):
        prog.run(x=x, y=y, z=x)
    with pytest.raises(tpbisa.UsageError, match="schedule 'sideways' is not default, reverse or random:SEED"):
        prog.run(x=x, y=y, schedule="sideways")
    with pytest.raises(tpbisa.UsageError, match="threads > 1 runs without trace and check_races"):
        prog.run(x=x, y=y, threads=2, check_races=True)
    with pytest.raises(tpbisa.UsageError, match="threads must be"):
        prog.run(x=x, y=y, threads=0)
    with pytest.raises(tpbisa.UsageError, match=r"input x expects .* the file has '\|O'"):
        prog.run(x=object(), y=y)  # a 0-d object array, as np.asarray makes it
    # A Fortran-ordered array is made C-contiguous (a copy), then judged like any other.
    out = prog.run(x=np.asfortranarray(x), y=y)
    assert out.ok and out["output0"].tobytes() == prog.run(x=x, y=y)["output0"].tobytes()
    stopped = prog.run(x=x, y=y, max_steps=3)
    assert stopped.status == "step-limit" and stopped.report["retired"] == 3 and not stopped.ok
    with pytest.raises(tpbisa.InputError):
        prog.run(x=x, y=y, trace=str(tmp_path / "no-such-dir" / "t.txt"))


def test_a_loop_stops_at_the_default_bound(tmp_path: pathlib.Path) -> None:
    # Issue 36, D08: a NEFF run without max_steps ran a loop forever.
    neff = synthetic(tmp_path, "loop", LOOP)
    x = np.zeros((16, 16), np.float16)
    out = tpbisa.Neff(str(neff)).run(x=x)
    assert out.status == "step-limit" and out.report["retired"] == 1_000_000
    text = "CompareBranch cmp_op=0 target_mode=3 br_immediate=0x0"
    assert out.report["step_limit"] == {
        "max_steps": 1_000_000, "default": True,
        "engines": [{"core": 0, "stream": "sg00/SP", "index": 0, "instruction": text, "blocked": None,
                     "loop": {"index": 0, "instruction": text, "target": 0, "jumps": 1_000_000}}]}
    report, code = cli_run(neff, {"x": x}, tmp_path)
    assert code == 1 and comparable(out.report) == comparable(report)
    assert tpbisa.Neff(str(neff)).run(x=x, max_steps=9).report["step_limit"]["default"] is False


def test_the_trace_is_never_the_neff(tmp_path: pathlib.Path) -> None:
    # Issue 36, D02: Neff.run(trace=<the NEFF's path>) replaced the NEFF by its trace.
    neff = synthetic(tmp_path, "one", fixtures.word(fixtures.NOP))
    before = neff.read_bytes()
    prog = tpbisa.Neff(str(neff))
    x = np.zeros((16, 16), np.float16)
    with pytest.raises(tpbisa.InputError, match=r"one.neff: is also an input \(.*one.neff\); refusing to overwrite it"):
        prog.run(x=x, trace=str(neff))
    link = tmp_path / "link.neff"
    link.symlink_to(neff)
    with pytest.raises(tpbisa.InputError, match="is also an input"):
        prog.run(x=x, trace=str(link))
    assert neff.read_bytes() == before
    assert prog.run(x=x, trace=tmp_path / "t.jsonl").ok  # an os.PathLike is a file name
    assert len((tmp_path / "t.jsonl").read_text().splitlines()) == 1


def test_run_arguments_are_usage_errors(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 36, D20: max_steps of another type or range raised RuntimeError; trace=5 wrote a file named 5.
    prog = tpbisa.Neff(str(synthetic(tmp_path, "one", fixtures.word(fixtures.NOP))))
    x = np.zeros((16, 16), np.float16)
    for steps in (2**70, "10", 1.5, -1, True):
        with pytest.raises(tpbisa.UsageError, match="max_steps must be an int from 0 to 18446744073709551615"):
            prog.run(x=x, max_steps=steps)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(tpbisa.UsageError, match="trace must be a file name"):
        prog.run(x=x, trace=5)  # type: ignore[arg-type]
    assert not (tmp_path / "5").exists()


def test_trace_file(matmul_neff: pathlib.Path, tmp_path: pathlib.Path) -> None:
    prog = tpbisa.Neff(str(matmul_neff))
    inputs = random_inputs(prog, 5)
    path = tmp_path / "trace.txt"
    out = prog.run(**inputs, trace=str(path))
    lines = path.read_text().splitlines()
    assert out.ok and len(lines) == out.report["retired"]
    paths = []
    for name, array in inputs.items():
        np.save(tmp_path / f"{name}.npy", array)
        paths += ["--input", f"{name}={tmp_path / name}.npy"]
    r = run_cli("run", str(matmul_neff), *paths, "--trace", str(tmp_path / "cli.txt"), "--quiet")
    assert r.returncode == 0, r.stderr.decode()
    assert (tmp_path / "cli.txt").read_text() == path.read_text()
    # The compact lines (docs/trace.md, "Compact records"): the command line's, one per step.
    compact = tmp_path / "trace.compact"
    assert prog.run(**inputs, trace=compact, trace_format="compact").ok
    r = run_cli("run", str(matmul_neff), *paths, "--trace", str(tmp_path / "cli.compact"), "--trace-format",
                "compact", "--quiet")
    assert r.returncode == 0, r.stderr.decode()
    assert (tmp_path / "cli.compact").read_text() == compact.read_text()
    assert len(compact.read_text().splitlines()) == len(lines)
    assert all(json.loads(line)["v"] == 1 for line in compact.read_text().splitlines())
    with pytest.raises(tpbisa.UsageError, match="trace_format 'yaml' is not json or compact"):
        prog.run(**inputs, trace=compact, trace_format="yaml")


def test_readme_example(matmul_neff: pathlib.Path, tmp_path: pathlib.Path) -> None:
    # The example as the README gives it: it exits 0, writes nothing to stderr, and prints the PE words of
    # sg00 and nothing else.
    import os
    import re

    blocks = re.findall(r"^```python\n(.*?)^```", (SOURCE_DIR / "README.md").read_text(), re.S | re.M)
    (code,) = [b for b in blocks if "prog.run(x=x, y=y)" in b]
    assert code in (SOURCE_DIR / "docs" / "python.md").read_text()  # the same example on both pages
    (tmp_path / "matmul_small.neff").symlink_to(matmul_neff)
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=False,
                       env=os.environ.copy())
    assert r.returncode == 0 and r.stderr == "", r.stderr
    prog = tpbisa.Neff(str(matmul_neff))
    want = [f"{i.label} {i.mnemonic} {i.text}" for i in prog.disasm(subgraph="sg00", engine="PE")]
    assert want and r.stdout.splitlines() == want
    listing = run_cli("disasm", "--subgraph", "sg00", "--engine", "pe", str(matmul_neff)).stdout.decode()
    for line in want:
        assert line.split(" ", 2)[2] in listing


def test_result_is_a_mapping_and_inputs_come_as_one(matmul_neff: pathlib.Path) -> None:
    import collections.abc

    prog = tpbisa.Neff(str(matmul_neff))
    rng = np.random.default_rng(3)
    x = rng.integers(-2, 3, size=prog.inputs["x"][1]).astype(np.float16)
    y = rng.integers(-2, 3, size=prog.inputs["y"][1]).astype(np.float16)
    out = prog.run({"x": x, "y": y})
    assert isinstance(out, collections.abc.Mapping)
    assert list(out) == ["output0"] and len(out) == 1 and list(out.keys()) == ["output0"]
    assert [k for k, _ in out.items()] == ["output0"] and out.get("nothing") is None and "output0" in out
    by_keyword = prog.run(x=x, y=y)
    assert by_keyword["output0"].tobytes() == out["output0"].tobytes()
    mixed = prog.run({"x": x}, y=y)
    assert mixed["output0"].tobytes() == out["output0"].tobytes()
    with pytest.raises(tpbisa.UsageError, match="input x is given twice"):
        prog.run({"x": x, "y": y}, x=x)
    with pytest.raises(tpbisa.UsageError, match="must be a mapping"):
        prog.run([x, y])


def test_on_step_hook(tmp_path: pathlib.Path) -> None:
    # Every retired word once, in the order of the run, as the trace record the trace file holds (plus stream and
    # instruction); False stops the run; an exception stops it and is raised.
    neff = generate(tmp_path, "mm", "--k", "256", "--n", "512")
    prog = tpbisa.Neff(str(neff))
    inputs = {n: np.load(tmp_path / "mm" / f"{n}.npy") for n in ("x", "y")}
    seen: list[dict[str, Any]] = []
    out = prog.run(inputs, on_step=seen.append, trace=str(tmp_path / "t.jsonl"))
    assert out.ok and len(seen) == out.report["retired"]
    traced = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()]
    assert [{k: v for k, v in s.items() if k not in ("stream", "instruction")} for s in seen] == traced
    for s in seen:
        assert s["stream"].startswith(f"sg{s['core']:02d}/")
        assert s["instruction"].startswith(s["name"])
    # The DMA that stores the result names its DRAM side: output0, written, the whole output in all.
    written = [d for s in seen for d in s.get("dram", []) if d["variable"] == "output0"]
    assert written and all(d["access"] == "write" for d in written)
    assert sum(d["size"] for d in written) == out["output0"].nbytes
    stopped = prog.run(inputs, on_step=lambda record: record["index"] < 2 or record["engine"] != "PE")
    assert stopped.status == "interrupted" and stopped.report["retired"] < out.report["retired"]

    def fail(record: dict[str, Any]) -> None:
        raise RuntimeError(f"stop at {record['stream']}#{record['index']}")

    with pytest.raises(RuntimeError, match="stop at sg00/"):
        prog.run(inputs, on_step=fail)
    with pytest.raises(tpbisa.UsageError, match="threads > 1 runs without on_step"):
        prog.run(inputs, on_step=print, threads=2)


def test_errors_speak_the_cli_words_and_inputs_never_meet_options(matmul_neff: pathlib.Path,
                                                                    tmp_path: pathlib.Path) -> None:
    # Each message of Neff.run is the command line's, less the `tpbisa: error: PROG: ` that names the file there.
    prog = tpbisa.Neff(str(matmul_neff))
    inputs = random_inputs(prog, 5)
    np.save(tmp_path / "x.npy", inputs["x"])
    np.save(tmp_path / "y.npy", inputs["y"])
    cases = [({"x": inputs["x"]}, ["--input", f"x={tmp_path / 'x.npy'}"]),
             ({**inputs, "z": inputs["x"]},
              ["--input", f"x={tmp_path / 'x.npy'}", "--input", f"y={tmp_path / 'y.npy'}", "--input",
               f"z={tmp_path / 'x.npy'}"])]
    for given, argv in cases:
        with pytest.raises(tpbisa.Error) as e:
            prog.run(given)
        r = run_cli("run", str(matmul_neff), *argv)
        line = r.stderr.decode().strip()
        assert r.returncode == 3 and line == f"tpbisa: error: {matmul_neff}: {e.value}", (line, str(e.value))
    # An input may be named as an option is: in the mapping it is an input (here one the program lacks), never the
    # trace file.
    with pytest.raises(tpbisa.Error, match=r"--input trace: the program has no input of that name"):
        prog.run({**inputs, "trace": inputs["x"]})
    assert not any(tmp_path.glob("trace*"))


def test_reprs_say_what_they_hold(matmul_neff: pathlib.Path) -> None:
    prog = tpbisa.Neff(str(matmul_neff))
    out = prog.run(random_inputs(prog, 6))
    assert repr(out).startswith("<Result ") and "ok" in repr(out) and "output0" in repr(out), repr(out)
    ins = next(iter(prog.disasm(subgraph="sg00", engine="pe")))
    assert repr(ins).startswith("<Instruction ") and ins.label in repr(ins), repr(ins)
    assert ins.label == "sg00/PE#0" and ins.text.startswith(ins.mnemonic)
