"""tpbisa.suite (docs/suites.md): a 20-case suite of generated matmuls on plain processes, on a Dask LocalCluster and
on a Dask cluster started here (scheduler and two workers on 127.0.0.1) with the same records; a worker killed
mid-suite; crashed and timed-out cases; the JUnit file; `suite diff`; the suite file's checks and schema."""

from __future__ import annotations

import contextlib
import copy
import json
import os
import pathlib
import signal
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from typing import Any, Iterator

import pytest

from conftest import SOURCE_DIR
from tpbisa import suite

GEN = SOURCE_DIR / "examples" / "gen_matmul_neff.py"
SCHEMA = SOURCE_DIR / "docs" / "schemas" / "suite.schema.json"

REFS = '''
import os, time
import numpy as np

def matmul(x, y):
    return (x.astype(np.float32) @ y.astype(np.float32)).astype(np.float16)

def off_by_one(x, y):
    want = matmul(x, y)
    want[3, 5] += 1          # one element wrong on purpose
    return want

def slow_matmul(x, y):
    time.sleep(0.4)
    return matmul(x, y)

def crash(x, y):
    os._exit(3)              # the worker process dies
'''

# 8 sweep points x 2 schedules + 2 + 1 + 1 = 20 cases; only wrong-reference fails.
TWENTY = f'''
[suite]
name = "twenty"

[defaults]
inputs."*" = {{ random = "integers", low = -2, high = 3, seed = 100 }}
expect = {{ reference = "refs.matmul" }}
options = {{ schedules = ["default", "reverse"] }}
tags = ["matmul"]

[[case]]
name = "mm-k{{k}}-s{{seed}}"
program = "{GEN} --k {{k}} --n 512"
inputs.x = {{ random = "integers", low = -2, high = 3, seed = "{{seed}}" }}
sweep = {{ k = [128, 256], seed = [1, 2, 3, 4] }}

[[case]]
name = "mm-lnc2"
program = "{GEN} --k 128 --n 1024 --lnc 2"
options = {{ schedules = ["default", "random:7"], check_races = true }}
tags = ["matmul", "races"]

[[case]]
name = "mm-races"
program = "{GEN} --k 256 --n 512"
options = {{ schedules = "random:3", check_races = true, max_steps = 100000 }}
tags = ["matmul", "races"]

[[case]]
name = "wrong-reference"
program = "{GEN} --k 128 --n 512"
expect = {{ reference = "refs.off_by_one" }}
options = {{ schedules = "default" }}
tags = ["matmul", "negative"]
'''


def stable(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records without what changes from run to run (time, memory, worker, attempts)."""
    out = []
    for r in records:
        r = {k: v for k, v in r.items() if k not in suite.VOLATILE}
        r["program"] = {k: v for k, v in r["program"].items() if k != "path"}
        out.append(r)
    return out


@pytest.fixture(scope="module")
def folder() -> Iterator[pathlib.Path]:
    with tempfile.TemporaryDirectory(prefix="tpbisa-suite.") as d:
        path = pathlib.Path(d)
        (path / "refs.py").write_text(REFS)
        (path / "twenty.toml").write_text(TWENTY)
        yield path


@pytest.fixture(scope="module")
def on_processes(folder: pathlib.Path) -> suite.SuiteRun:
    # The generated NEFFs are kept in one folder the other runs reuse (the same command gives the same bytes).
    return suite.run(folder / "twenty.toml", jobs=2, backend="processes", out=folder / "processes",
                     programs=folder / "programs", stream=None, progress=None)


def check_twenty(result: suite.SuiteRun) -> None:
    verdicts = {r["id"]: r["verdict"] for r in result.records}
    assert len(verdicts) == 20
    assert [k for k, v in verdicts.items() if v != "pass"] == ["wrong-reference"], verdicts
    wrong = result.by_id()["wrong-reference"]
    assert wrong["verdict"] == "fail" and wrong["differing"] == 1 and wrong["max_abs_diff"] == 1.0
    assert wrong["outputs"]["output0"]["first_differing"] == [[3, 5]]
    lnc2 = result.by_id()["mm-lnc2@random:7"]
    assert lnc2["races"] == 0 and lnc2["status"] == "ok" and lnc2["options"]["check_races"] is True
    assert result.by_id()["mm-k128-s1@default"]["races"] is None  # not asked for


def test_twenty_cases_on_processes(on_processes: suite.SuiteRun) -> None:
    assert on_processes.backend.startswith("plain processes (concurrent.futures, 2 workers")
    check_twenty(on_processes)
    r = on_processes.by_id()["mm-k256-s2@reverse"]
    assert r["options"] == {"schedule": "reverse", "check_races": False}
    assert set(r["inputs"]) == {"x", "y"} and r["inputs"]["x"]["source"] == "integers [-2, 3) seed 2"
    assert r["inputs"]["x"]["shape"] == [128, 256] and len(r["inputs"]["x"]["sha256"]) == 64
    assert r["program"]["command"].endswith("--k 256 --n 512") and len(r["program"]["sha256"]) == 64
    assert r["tool"]["version"] and r["peak_memory"] > 0 and r["time"] > 0
    assert r["inputs"]["y"]["source"] == "integers [-2, 3) seed 100+y"  # the "*" recipe, salted by the name
    other = on_processes.by_id()["mm-k256-s1@reverse"]["inputs"]
    assert other["x"]["sha256"] != r["inputs"]["x"]["sha256"] and other["y"]["sha256"] == r["inputs"]["y"]["sha256"]
    # The JSON Lines file holds the records in suite order.
    lines = (on_processes.out / "results.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in lines] == on_processes.records


def test_junit_file(on_processes: suite.SuiteRun) -> None:
    root = ET.parse(on_processes.out / "junit.xml").getroot()
    assert root.tag == "testsuites" and root.get("tests") == "20" and root.get("failures") == "1"
    cases = root.findall("./testsuite/testcase")
    assert len(cases) == 20
    failed = [c.get("name") for c in cases if c.find("failure") is not None]
    assert failed == ["wrong-reference"]
    assert "1 of 65536 elements differ" in root.find(".//failure").get("message")
    assert all(c.find("error") is None and c.find("skipped") is None for c in cases)


def test_twenty_cases_on_a_local_cluster(folder: pathlib.Path, on_processes: suite.SuiteRun) -> None:
    pytest.importorskip("distributed", reason="Dask (python3-distributed) is not installed")
    result = suite.run(folder / "twenty.toml", jobs=2, out=folder / "cluster", programs=folder / "programs",
                       stream=None, progress=None)
    assert result.backend.startswith("Dask LocalCluster (2 worker processes")
    check_twenty(result)
    assert stable(result.records) == stable(on_processes.records)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def dask_cluster(folder: pathlib.Path) -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """`dask scheduler` and two `dask worker` processes on 127.0.0.1, stopped on the way out whatever happens."""
    pytest.importorskip("distributed", reason="Dask (python3-distributed) is not installed")
    address = f"tcp://127.0.0.1:{free_port()}"
    env = dict(os.environ)
    dask = [sys.executable, "-m", "dask"]  # `dask scheduler`, `dask worker` of this interpreter
    procs: list[subprocess.Popen[bytes]] = []
    log = open(folder / "dask.log", "ab")  # noqa: SIM115
    try:
        procs.append(subprocess.Popen([*dask, "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                                       "--no-dashboard"], stdout=log, stderr=log, env=env))
        for _ in range(2):
            procs.append(subprocess.Popen([*dask, "worker", address,
                                           "--host", "127.0.0.1", "--nthreads", "1", "--no-nanny",
                                           "--no-dashboard", "--memory-limit", "1GiB"], stdout=log, stderr=log,
                                          env=env, cwd=folder))
        from distributed import Client

        with Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=60)
        yield address, procs[1:]
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        log.close()


def test_on_a_dask_cluster_and_a_worker_killed(folder: pathlib.Path, on_processes: suite.SuiteRun) -> None:
    with dask_cluster(folder) as (address, workers):
        r = subprocess.run([sys.executable, "-m", "tpbisa.suite", "run", str(folder / "twenty.toml"),
                            "--scheduler", address, "--out", str(folder / "remote"), "--programs",
                            str(folder / "programs")], capture_output=True, text=True, timeout=300, check=False)
        assert r.returncode == 1, r.stderr  # the failing case
        assert f"20 cases on Dask cluster at {address} (2 workers, 2 threads)" in r.stdout
        assert "FAIL     wrong-reference" in r.stdout and "20 cases: 19 pass, 1 fail" in r.stdout
        remote = [json.loads(line) for line in (folder / "remote" / "results.jsonl").read_text().splitlines()]
        assert stable(remote) == stable(on_processes.records)

        # A worker killed while the cases run: its cases go to the other worker, none is lost.
        slow = (folder / "twenty.toml").read_text().replace("refs.matmul", "refs.slow_matmul")
        (folder / "slow.toml").write_text(slow)
        killed: list[int] = []

        def kill_one(rec: dict[str, Any]) -> None:
            if not killed:
                killed.append(workers[0].pid)
                os.kill(workers[0].pid, signal.SIGKILL)

        result = suite.run(folder / "slow.toml", scheduler=address, out=folder / "killed", tags=["races", "negative"],
                           programs=folder / "programs", stream=None, progress=None, on_result=kill_one)
        assert killed and workers[0].wait(timeout=10) == -signal.SIGKILL
        assert [r["id"] for r in result.records] == ["mm-lnc2@default", "mm-lnc2@random:7", "mm-races",
                                                     "wrong-reference"]
        assert [r["verdict"] for r in result.records] == ["pass", "pass", "pass", "fail"]


def test_crash_and_timeout_are_reported(folder: pathlib.Path, on_processes: suite.SuiteRun,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # as without Dask: the default pool is plain processes
    (folder / "bad.toml").write_text(f'''
[defaults]
program = "{GEN} --k 128 --n 512"
inputs."*" = {{ random = "integers" }}
expect = {{ reference = "refs.matmul" }}
[[case]]
name = "fine"
[[case]]
name = "crashes"
expect = {{ reference = "refs.crash" }}
[[case]]
name = "slow"
options = {{ timeout = 1e-6 }}
[[case]]
name = "missing"
program = "nothing-here.neff"
skip_if_absent = true
[[case]]
name = "unreadable"
program = "nothing-here-either.neff"
''')
    result = suite.run(folder / "bad.toml", jobs=2, out=folder / "bad", programs=folder / "programs", stream=None,
                       progress=None)
    assert result.backend == "plain processes (concurrent.futures, 2 workers; dask.distributed is not installed)"
    got = {r["id"]: (r["verdict"], r["reason"]) for r in result.records}
    assert got["fine"] == ("pass", None)
    assert got["crashes"][0] == "crash" and "died" in got["crashes"][1]
    assert got["slow"][0] == "timeout" and got["slow"][1].startswith("the run took longer than its timeout")
    assert got["missing"][0] == "skipped" and got["unreadable"][0] == "error"
    assert "no such file" in got["unreadable"][1]
    assert not result.ok


def test_diff_shows_the_one_change(folder: pathlib.Path, on_processes: suite.SuiteRun) -> None:
    old = copy.deepcopy(on_processes.records)
    new = copy.deepcopy(old)
    for r in old + new:
        r["time"] = 1.0
    new[5]["verdict"], new[5]["reason"] = "fail", "output0: 7 of 131072 elements differ (largest error 2)"
    new[19]["verdict"], new[19]["reason"] = "pass", None
    new[2]["time"] = 1.2  # within the 25 % threshold
    new[3]["time"] = 2.0
    for name, records in (("old", old), ("new", new)):
        (folder / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    r = subprocess.run([sys.executable, "-m", "tpbisa.suite", "diff", str(folder / "old.jsonl"),
                        str(folder / "new.jsonl")], capture_output=True, text=True, check=False)
    assert r.returncode == 1 and r.stderr == ""
    assert r.stdout == (
        "new failures (1):\n"
        f"  {old[5]['id']}: pass -> fail (output0: 7 of 131072 elements differ (largest error 2))\n"
        "fixed (1):\n"
        "  wrong-reference: fail -> pass\n"
        "slower (1):\n"
        f"  {old[3]['id']}: 1.000 s -> 2.000 s (+100%)\n")
    assert suite.diff(old, old) == {k: [] for k in suite.diff(old, new)}
    r = subprocess.run([sys.executable, "-m", "tpbisa.suite", "diff", str(folder / "old.jsonl"),
                        str(folder / "old.jsonl")], capture_output=True, text=True, check=False)
    assert (r.returncode, r.stdout) == (0, "no changes\n")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[case]]\nprogram = "a.neff"\nschedule = "reverse"\n', "unknown key 'schedule'"),
        ('[[case]]\nname = "a"\nprogram = "a.neff"\n[[case]]\nname = "a"\nprogram = "b.neff"\n',
         "case id 'a' appears twice (entries 1 and 2)"),
        ('[[case]]\nprogram = "gen --k {k}"\n', "placeholder 'k' in 'gen --k {k}' is not a sweep parameter"),
        ('[[case]]\nprogram = "a.neff"\ninputs.x = { random = "poisson" }\n', "is not integers, uniform or normal"),
        ('[[case]]\nprogram = "a.neff"\noptions = { max_memory = "lots" }\n', "expected a byte count"),
        ("[suite]\nname = 'x'\n", "no [[case]] entries"),
        ("[[case]\n", "Expected ']]' at the end of an array declaration (at line 1, column 7)"),
    ],
)
def test_suite_file_errors(tmp_path: pathlib.Path, text: str, message: str) -> None:
    (tmp_path / "s.toml").write_text(text)
    with pytest.raises(suite.SuiteError, match=None) as e:
        suite.load(tmp_path / "s.toml")
    assert message in str(e.value) and str(tmp_path / "s.toml") in str(e.value)
    if "schedule" not in text:
        return  # the command line's report of one of them is enough
    r = subprocess.run([sys.executable, "-m", "tpbisa.suite", "run", str(tmp_path / "s.toml")], capture_output=True,
                       text=True, check=False, cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.startswith("tpbisa.suite: error: ") and message in r.stderr


def test_expansion_json_globs_and_tags(tmp_path: pathlib.Path) -> None:
    for name in ("b.neff", "a.neff", "c.bin"):
        (tmp_path / name).write_bytes(b"")
    doc = {"defaults": {"options": {"schedules": ["default", "random:1"]}, "tags": ["all"]},
           "case": [{"name": "file-{stem}", "program": "*.neff", "tags": ["files"]},
                    {"name": "gen-{n}", "program": "tpbisa gen thing --n {n} --out {out}", "sweep": {"n": [1, 2]}}]}
    (tmp_path / "s.json").write_text(json.dumps(doc))
    ids = [c["id"] for c in suite.load(tmp_path / "s.json").cases]
    assert ids == ["file-a@default", "file-a@random:1", "file-b@default", "file-b@random:1", "gen-1@default",
                   "gen-1@random:1", "gen-2@default", "gen-2@random:1"]
    assert [c["id"] for c in suite.load(tmp_path / "s.json", tags=["files"]).cases][:1] == ["file-a@default"]
    assert len(suite.load(tmp_path / "s.json", tags=["!files"]).cases) == 4
    assert suite.generator_argv("tpbisa gen thing --n 1 --out {out}", str(tmp_path), "/o.neff")[-2:] == \
        ["--out", "/o.neff"]
    assert suite.generator_argv("gen.py --n 1", str(tmp_path), "/o.neff")[1:] == ["gen.py", "--n", "1", "--out",
                                                                                   "/o.neff"]


def test_schema_accepts_the_example_suites(folder: pathlib.Path) -> None:
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is not installed")
    import tomllib

    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    files = [folder / "twenty.toml", *sorted((SOURCE_DIR / "examples" / "suites").glob("*.toml"))]
    assert len(files) >= 2
    for f in files:
        jsonschema.validate(tomllib.loads(f.read_text()), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"case": [{"program": "a.neff", "schedule": "x"}]}, schema)


def test_the_docs_example_runs(tmp_path: pathlib.Path) -> None:
    import re
    import shlex
    import shutil

    page = (SOURCE_DIR / "docs" / "suites.md").read_text()
    fences = re.findall(r"^```(\w*)\n(.*?)^```\n", page, re.S | re.M)  # (language, body), in order
    (toml,) = [body for lang, body in fences if lang == "toml"]
    assert toml == (SOURCE_DIR / "examples" / "suites" / "small.toml").read_text()
    (block,) = [body for lang, body in fences if body.startswith("$ python -m tpbisa.suite run")]
    command, *expected = block.rstrip("\n").split("\n")
    shutil.copytree(SOURCE_DIR / "examples", tmp_path / "examples")
    argv = shlex.split(command[2:])
    r = subprocess.run([sys.executable, *argv[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                       check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    actual = r.stdout.rstrip("\n").split("\n")
    assert len(actual) == len(expected), r.stdout
    for want, got in zip(expected, actual):
        assert got.startswith(want[:-1]) if want.endswith("…") else got == want, (want, got)
    assert ET.parse(tmp_path / "small-results" / "junit.xml").getroot().get("tests") == "4"


def test_bfloat16_inputs_round_to_nearest_even() -> None:
    import numpy as np

    from tpbisa._suite_case import _bf16_bits, as_float

    # bfloat16 is the top half of a float32: 1.0 = 0x3F80; 1 + 2**-8 lies halfway between 0x3F80 and 0x3F81 (to the
    # even one, 0x3F80), 1 + 3 * 2**-8 halfway between 0x3F81 and 0x3F82 (to 0x3F82).
    values = np.array([1.0, 1 + 2**-8, 1 + 3 * 2**-8, -2.0, 3.0e38, np.nan], dtype=np.float32)
    assert _bf16_bits(values).tolist() == [0x3F80, 0x3F80, 0x3F82, 0xC000, 0x7F62, 0x7FC0]
    assert as_float(np.array([0x3F80, 0xC000], np.uint16), "bfloat16").tolist() == [1.0, -2.0]


def test_a_worker_that_does_not_see_the_program_uses_the_bytes_it_carries(folder: pathlib.Path,
                                                                         on_processes: suite.SuiteRun) -> None:
    (case,) = suite.prepare(suite.load(folder / "twenty.toml", tags=["negative"]).cases, folder / "ship", 1,
                            ship=True, programs=folder / "programs")
    assert case["neff_bytes"] == pathlib.Path(case["neff"]).read_bytes()
    case["neff"] = str(folder / "elsewhere" / "not-here.neff")
    rec = suite.run_case(case)
    want = on_processes.by_id()["wrong-reference"]
    assert stable([rec]) == stable([want])


def test_compare_counts_equal_infinities_and_unsigned_differences() -> None:
    """An infinity equals itself (the causal mask's -inf fill), and a uint32 output below its reference differs by
    the true amount, not by a wrapped one."""
    import numpy as np
    from tpbisa import _suite_case
    got = np.array([-np.inf, np.inf, 1.0, np.nan], np.float32)
    want = np.array([-np.inf, np.inf, 1.0, np.nan], np.float32)
    assert _suite_case.compare(got, want, 0.0, 0.0)["differing"] == 0
    assert _suite_case.compare(got, np.array([np.inf, np.inf, 1.0, np.nan], np.float32), 0.0, 0.0)["differing"] == 1
    r = _suite_case.compare(np.array([3, 5], np.uint32), np.array([4, 5], np.uint32), 0.0, 0.0)
    assert r["differing"] == 1 and r["max_abs_diff"] == 1.0
    assert _suite_case.compare(np.array([3], np.uint32), np.array([4], np.uint32), 1.0, 0.0)["differing"] == 0
