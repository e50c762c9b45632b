"""Regression suites (docs/suites.md): programs x inputs x schedules from a TOML or JSON file, run in parallel on a
local pool (a Dask LocalCluster when dask.distributed imports, else plain processes) or on a Dask cluster, with JSON
Lines, JUnit XML and a summary table as reports, and the difference between two runs.

    python -m tpbisa.suite run SUITE [--jobs N] [--scheduler ADDR] [--tags TAG ...] [--out DIR]
    python -m tpbisa.suite diff OLD.jsonl NEW.jsonl [--threshold FRACTION]
    python -m tpbisa.suite list SUITE [--tags TAG ...]

The same as library calls: ``load``, ``run``, ``diff``.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import hashlib
import multiprocessing
import os
import pathlib
import shlex
import shutil
import subprocess
import sys
import time
from typing import Any, Callable, TextIO

from . import _suite_report as report
from ._suite_case import VOLATILE, base_record, run_case
from ._suite_file import SuiteError, expand, parse_size, select

__all__ = ["Suite", "SuiteError", "SuiteRun", "VOLATILE", "diff", "load", "main", "run", "run_case"]

# A NEFF up to this size travels with its cases to a cluster's workers, which then need not see the file.
_SHIP_BYTES = 16 << 20
_GENERATOR_TIMEOUT = 600


class Suite:
    """A suite file read and expanded: ``name``, ``file`` and ``cases`` (dicts; ``id``, ``program``, ``inputs``,
    ``expect``, ``options``, ``tags``)."""

    def __init__(self, path: str | os.PathLike[str], tags: list[str] | None = None) -> None:
        head, cases = expand(path)
        self.name: str = head["name"]
        self.file: str = head["file"]
        self.cases: list[dict[str, Any]] = select(cases, tags)

    def __len__(self) -> int:
        return len(self.cases)

    def __repr__(self) -> str:
        return f"<Suite {self.name}: {len(self.cases)} cases>"


def load(path: str | os.PathLike[str], tags: list[str] | None = None) -> Suite:
    """Reads a suite file (SuiteError names what is wrong) and keeps the cases with any of ``tags``."""
    return Suite(path, tags)


class SuiteRun:
    """What ``run`` returns: ``records`` (one dict per case, in suite order), ``backend`` (the pool that ran them),
    ``out`` (the folder of the reports), ``wall`` (seconds) and ``ok`` (every case passed or was skipped)."""

    def __init__(self, records: list[dict[str, Any]], backend: str, out: pathlib.Path, wall: float) -> None:
        self.records, self.backend, self.out, self.wall = records, backend, out, wall

    @property
    def ok(self) -> bool:
        return all(r["verdict"] in report.PASSING for r in self.records)

    def by_id(self) -> dict[str, dict[str, Any]]:
        return {r["id"]: r for r in self.records}


# ---- programs ----


def _tool() -> str | None:
    """The tpbisa command a generator should use: $TPBISA, the build's (TPBISA_CLI), else tpbisa on PATH."""
    for candidate in (os.environ.get("TPBISA"), os.environ.get("TPBISA_CLI"), shutil.which("tpbisa")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def generator_argv(command: str, folder: str, out: str) -> list[str]:
    """The argument vector of a generator command: `{out}` is the NEFF to write (else `--out FILE` is appended);
    `tpbisa ...` runs the tool, `SCRIPT.py ...` runs with this interpreter, relative to the suite's folder."""
    argv = shlex.split(command)
    if any("{out}" in a for a in argv):
        argv = [a.replace("{out}", out) for a in argv]
    else:
        argv += ["--out", out]
    if argv[0] == "tpbisa" and _tool():
        argv[0] = str(_tool())
    elif argv[0].endswith(".py"):
        script = pathlib.Path(folder) / argv[0]
        argv = [sys.executable, str(script if script.exists() else argv[0]), *argv[1:]]
    return argv


def _generate(command: str, folder: str, out: pathlib.Path) -> str | None:
    """Runs one generator; None when it wrote the NEFF, else why not."""
    argv = generator_argv(command, folder, str(out))
    env = dict(os.environ)
    if _tool():
        env["TPBISA"] = str(_tool())
    try:
        r = subprocess.run(argv, cwd=folder, env=env, capture_output=True, text=True, timeout=_GENERATOR_TIMEOUT,
                           check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"generator {command!r}: {e}"
    if r.returncode != 0 or not out.exists():
        tail = (r.stderr.strip().splitlines() or ["no message"])[-1]
        return f"generator {command!r} exited with {r.returncode}: {tail}"
    return None


def prepare(cases: list[dict[str, Any]], out: pathlib.Path, jobs: int, ship: bool,
            programs: pathlib.Path | None = None) -> list[dict[str, Any]]:
    """Makes each case's NEFF: generator commands run once each (on `jobs` threads) into OUT/programs, made anew;
    or into `programs`, where a NEFF made by an earlier run of the same command is used again. A missing file is an
    error, or a skipped case with skip_if_absent. Returns the cases with `neff`, `program_sha256` (and `neff_bytes`
    when `ship`, for workers that do not see the file) or `prepare_error`."""
    folder = (programs if programs is not None else out / "programs").resolve()
    folder.mkdir(parents=True, exist_ok=True)
    commands = sorted({(c["program"], c["suite_dir"]) for c in cases if c["command"]})
    paths: dict[tuple[str, str], pathlib.Path] = {}
    for command, where in commands:
        digest = hashlib.sha256(f"{where}\0{command}".encode()).hexdigest()[:12]
        stem = "".join(ch if ch.isalnum() else "-" for ch in pathlib.Path(shlex.split(command)[0]).stem)
        paths[(command, where)] = folder / f"{stem}-{digest}.neff"
    if programs is None:
        for p in paths.values():
            p.unlink(missing_ok=True)
    todo = [k for k in paths if not paths[k].exists()]
    with cf.ThreadPoolExecutor(max(1, jobs)) as pool:
        errors = dict.fromkeys(paths) | dict(zip(todo, pool.map(lambda k: _generate(k[0], k[1], paths[k]), todo)))
    hashes: dict[str, str] = {}
    ready = []
    for case in cases:
        case = dict(case)
        path = paths[(case["program"], case["suite_dir"])] if case["command"] else pathlib.Path(case["program"])
        case["neff"] = str(path)
        if case["command"] and errors[(case["program"], case["suite_dir"])]:
            case["prepare_error"] = errors[(case["program"], case["suite_dir"])]
        elif not path.is_file():
            case["prepare_error"] = f"program {path}: no such file"
            case["skip"] = case["skip_if_absent"]
        else:
            if str(path) not in hashes:
                hashes[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
            case["program_sha256"] = hashes[str(path)]
            if ship and path.stat().st_size <= _SHIP_BYTES:
                case["neff_bytes"] = path.read_bytes()
        ready.append(case)
    return ready


# ---- pools ----


def _plural(n: int, what: str, suffix: str = "s") -> str:
    return f"{n} {what}{suffix if n != 1 else ''}"


def _limit_memory(limit: int | None) -> None:
    """A plain worker process's address space bound (--memory-limit), set when the process starts."""
    if limit:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


class _Processes:
    """concurrent.futures processes. A worker that dies breaks the pool: the pool is made again, the cases that were
    not running are sent again, and each case that was running is run once more alone; one that kills its worker
    again is reported as `crash`."""

    def __init__(self, jobs: int, memory_limit: int | None, why: str) -> None:
        self.jobs, self.memory_limit = jobs, memory_limit
        self.describe = f"plain processes (concurrent.futures, {_plural(jobs, 'worker')}; {why})"
        self.slots = jobs
        self.pool = self._pool(jobs)

    def _pool(self, n: int) -> cf.ProcessPoolExecutor:
        return cf.ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("spawn"), initializer=_limit_memory,
                                      initargs=(self.memory_limit,))

    def submit(self, case: dict[str, Any]) -> Any:
        return self.pool.submit(run_case, case)

    def wait(self, pending: set[Any], timeout: float) -> tuple[set[Any], set[Any]]:
        done, rest = cf.wait(pending, timeout=timeout, return_when=cf.FIRST_COMPLETED)
        return set(done), set(rest)

    def running(self, pending: set[Any]) -> int:
        return min(sum(f.running() for f in pending), self.slots)

    def outcome(self, future: Any, case: dict[str, Any]) -> dict[str, Any] | None:
        """The case's record, or None when its worker died (the caller recovers)."""
        try:
            return future.result()
        except cf.process.BrokenProcessPool:
            return None
        except Exception as e:  # noqa: BLE001 -- the case's record could not come back: reported, never dropped
            rec = base_record(case)
            rec["reason"] = f"{type(e).__name__}: {e}"
            return rec

    def recover(self, lost: list[tuple[dict[str, Any], bool]]) -> list[dict[str, Any]]:
        """After a worker died: runs each case that was running alone (its record, or `crash`), and returns the
        cases to send again."""
        self.pool.shutdown(wait=True, cancel_futures=True)
        again, records = [], []
        for case, was_running in lost:
            if not was_running:
                again.append(case)
                continue
            alone = self._pool(1)
            try:
                rec = alone.submit(run_case, case).result()
                rec["attempts"] = 2
            except cf.process.BrokenProcessPool:
                rec = base_record(case)
                rec["verdict"] = "crash"
                rec["reason"] = "the worker process died running the case (twice, the second time alone)"
                rec["attempts"] = 2
            finally:
                alone.shutdown(wait=True)
            records.append(rec)
        self.pool = self._pool(self.jobs)
        self.recovered = records
        return again

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


class _Dask:
    """A Dask cluster: a LocalCluster of `jobs` single-thread worker processes with `memory_limit` each, or the
    scheduler at `address`. A worker that dies has its cases sent to another by the scheduler; a case that kills
    workers `distributed.scheduler.allowed-failures` times is reported as `crash`."""

    def __init__(self, jobs: int, address: str | None, memory_limit: int | str | None) -> None:
        import logging

        from distributed import Client, LocalCluster

        self.cluster = None
        if address:
            self.client = Client(address, timeout=30)
            info = self.client.scheduler_info()
            self.slots = max(1, sum(w["nthreads"] for w in info["workers"].values()))
            self.describe = (f"Dask cluster at {address} ({_plural(len(info['workers']), 'worker')}, "
                             f"{_plural(self.slots, 'thread')})")
        else:
            self.cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                        memory_limit=memory_limit if memory_limit else "auto",
                                        dashboard_address=None, silence_logs=logging.ERROR)
            self.client = Client(self.cluster)
            self.slots = jobs
            limits = [w.get("memory_limit") for w in self.client.scheduler_info()["workers"].values()]
            limit = limits[0] if limits else None
            shown = f", memory limit {limit / 2**20:.0f} MiB each" if limit else ""
            self.describe = f"Dask LocalCluster ({_plural(jobs, 'worker process', 'es')}, 1 thread each{shown})"

    def submit(self, case: dict[str, Any]) -> Any:
        return self.client.submit(run_case, case, pure=False, key=f"tpbisa-suite-{case['id']}-{os.urandom(4).hex()}")

    def wait(self, pending: set[Any], timeout: float) -> tuple[set[Any], set[Any]]:
        from distributed import wait

        try:
            done, rest = wait(list(pending), timeout=timeout, return_when="FIRST_COMPLETED")
        except Exception:  # noqa: BLE001 -- distributed's TimeoutError: nothing finished yet
            return set(), pending
        return set(done), set(rest)

    def running(self, pending: set[Any]) -> int:
        return min(len(pending), self.slots)

    def outcome(self, future: Any, case: dict[str, Any]) -> dict[str, Any] | None:
        from distributed import KilledWorker

        try:
            return future.result()
        except KilledWorker as e:
            rec = base_record(case)
            rec["verdict"], rec["reason"] = "crash", f"the case killed its workers: {e}"
            return rec
        except Exception as e:  # noqa: BLE001 -- a lost case is reported, never dropped
            rec = base_record(case)
            rec["verdict"], rec["reason"] = "crash", f"{type(e).__name__}: {e}"
            return rec

    def recover(self, lost: list[tuple[dict[str, Any], bool]]) -> list[dict[str, Any]]:
        return [case for case, _ in lost]

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def _backend(jobs: int, scheduler: str | None, backend: str, memory_limit: int | None) -> Any:
    if scheduler or backend == "dask":
        return _Dask(jobs, scheduler, memory_limit)
    if backend == "processes":
        return _Processes(jobs, memory_limit, "asked for")
    import importlib.util

    try:
        found = importlib.util.find_spec("distributed") is not None
    except (ImportError, ValueError) as e:
        return _Processes(jobs, memory_limit, f"dask.distributed is not importable: {e}")
    if not found:
        return _Processes(jobs, memory_limit, "dask.distributed is not installed")
    try:
        __import__("distributed")
    except ImportError as e:
        return _Processes(jobs, memory_limit, f"dask.distributed is not importable: {e}")
    return _Dask(jobs, None, memory_limit)


def default_jobs() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


class _Progress:
    """done/failed/running and an ETA on one line of stderr: redrawn on a terminal, a line every 10 s otherwise."""

    def __init__(self, total: int, stream: TextIO | None) -> None:
        self.total, self.stream, self.start = total, stream, time.monotonic()
        self.tty = bool(stream) and stream.isatty()
        self.last = 0.0

    def clear(self) -> None:
        """Takes the progress line off the terminal, before a case's line is printed."""
        if self.tty and self.last:
            self.stream.write("\r\033[K")
            self.stream.flush()

    def show(self, done: int, failed: int, running: int, final: bool = False) -> None:
        if self.stream is None:
            return
        now = time.monotonic()
        if not final and now - self.last < (0.2 if self.tty else 10.0):
            return
        self.last = now
        elapsed = now - self.start
        eta = f"ETA {elapsed / done * (self.total - done):.0f} s" if done and done < self.total else ""
        line = f"[{done}/{self.total}] {done - failed} passed, {failed} failed, {running} running, " \
               f"{elapsed:.0f} s {eta}".rstrip()
        if self.tty:
            self.stream.write("\r\033[K" + line + ("\n" if final else ""))
        elif not final:
            self.stream.write(line + "\n")
        self.stream.flush()


def run(suite: Suite | str | os.PathLike[str], *, jobs: int | None = None, scheduler: str | None = None,
        out: str | os.PathLike[str] | None = None, tags: list[str] | None = None, backend: str = "auto",
        max_memory: int | str | None = None, memory_limit: int | str | None = None, timeout: float | None = None,
        programs: str | os.PathLike[str] | None = None, stream: TextIO | None | Any = ...,
        progress: TextIO | None | Any = ...,
        on_result: Callable[[dict[str, Any]], None] | None = None) -> SuiteRun:
    """Runs every case of ``suite`` (a ``Suite`` or a file) and writes OUT/results.jsonl, OUT/junit.xml and
    OUT/summary.txt. ``jobs`` local workers (default: the CPUs); ``scheduler`` a Dask scheduler address instead;
    ``backend`` "auto" (Dask LocalCluster when dask.distributed imports, else processes), "dask" or "processes";
    ``max_memory`` and ``timeout`` bound each case's run when its options do not; ``memory_limit`` bounds each
    local worker (Dask's memory_limit; the address space of a plain process). Generated NEFFs go to OUT/programs,
    or are kept in ``programs`` and used again by later runs of the same command. Each record is passed to
    ``on_result`` as it arrives. A case that crashes or times out is reported, and the suite goes on."""
    stream = sys.stdout if stream is ... else stream  # the streams of the call, not of the import
    progress = sys.stderr if progress is ... else progress
    if not isinstance(suite, Suite):
        suite = load(suite, tags)
    elif tags:
        suite.cases = select(suite.cases, tags)
    jobs = jobs or default_jobs()
    out_dir = pathlib.Path(out) if out is not None else pathlib.Path(f"{suite.name}-results")
    out_dir.mkdir(parents=True, exist_ok=True)
    say = (lambda text: (stream.write(text + "\n"), stream.flush())) if stream else (lambda text: None)
    start = time.monotonic()
    bar = _Progress(len(suite.cases), progress)
    limit = parse_size(memory_limit, "memory_limit") if memory_limit is not None else None
    cases = []
    for case in suite.cases:
        case = {**case, "options": dict(case["options"])}
        if max_memory is not None:
            case["options"].setdefault("max_memory", parse_size(max_memory, "max_memory"))
        if timeout is not None:
            case["options"].setdefault("timeout", timeout)
        cases.append(case)
    cases = prepare(cases, out_dir, jobs, ship=bool(scheduler),
                    programs=pathlib.Path(programs) if programs is not None else None)
    order = {c["id"]: k for k, c in enumerate(cases)}
    records: dict[str, dict[str, Any]] = {}
    stream_file = open(out_dir / "results.jsonl", "w", encoding="utf-8")  # noqa: SIM115 -- rewritten at the end

    def finish(rec: dict[str, Any]) -> None:
        bar.clear()
        records[rec["id"]] = rec
        stream_file.write(report.record_line(rec) + "\n")
        stream_file.flush()
        why = f": {rec['reason']}" if rec["verdict"] not in report.PASSING and rec.get("reason") else ""
        say(f"{rec['verdict'].upper():8} {rec['id']} ({rec['time']:.2f} s){why}")
        if on_result:
            on_result(rec)

    runnable = []
    for case in cases:
        if case.get("prepare_error"):  # no program to run: reported here
            rec = base_record(case)
            rec["verdict"], rec["reason"] = "skipped" if case.get("skip") else "error", case["prepare_error"]
            finish(rec)
        else:
            runnable.append(case)
    pool = _backend(jobs, scheduler, backend, limit) if runnable else None
    say(f"suite {suite.name}: {len(cases)} cases on {pool.describe if pool else 'no pool (nothing to run)'}")
    try:
        pending = {pool.submit(c): c for c in runnable} if pool else {}
        while pending:
            running = {f for f in pending if getattr(f, "running", lambda: False)()}
            done, _ = pool.wait(set(pending), 0.5)
            lost = []
            for f in done:
                case = pending.pop(f)
                rec = pool.outcome(f, case)
                if rec is None:
                    lost.append((case, f in running))
                else:
                    finish(rec)
            if lost:  # a plain worker died: every case still pending was lost with the pool
                lost += [(c, f in running) for f, c in pending.items()]
                pending.clear()
                again = pool.recover(lost)
                for rec in getattr(pool, "recovered", []):
                    finish(rec)
                pool.recovered = []
                pending = {pool.submit(c): c for c in again}
            failed = sum(r["verdict"] not in report.PASSING for r in records.values())
            bar.show(len(records), failed, pool.running(set(pending)))
    finally:
        stream_file.close()
        if pool:
            pool.close()
    wall = time.monotonic() - start
    ordered = sorted(records.values(), key=lambda r: order[r["id"]])
    report.write_jsonl(out_dir / "results.jsonl", ordered)
    report._atomic_write(out_dir / "junit.xml", report.junit_xml(suite.name, ordered))
    table = report.summary_table(ordered, wall)
    report._atomic_write(out_dir / "summary.txt", table)
    bar.show(len(records), sum(r["verdict"] not in report.PASSING for r in ordered), 0, final=True)
    say(table.rstrip("\n"))
    say(f"reports: {out_dir / 'results.jsonl'}, {out_dir / 'junit.xml'}")
    return SuiteRun(ordered, pool.describe if pool else "none", out_dir, wall)


def diff(old: str | os.PathLike[str] | list[dict[str, Any]], new: str | os.PathLike[str] | list[dict[str, Any]],
         threshold: float = 0.25, min_time: float = 0.05) -> dict[str, list[dict[str, Any]]]:
    """What changed between two runs (results.jsonl files or record lists): ``new_failures``, ``fixed``,
    ``changed``, ``added``, ``removed``, ``slower`` and ``faster`` (time changes beyond ``threshold``, a fraction)."""
    def records(x: Any) -> list[dict[str, Any]]:
        return x if isinstance(x, list) else report.read_jsonl(x)

    return report.diff(records(old), records(new), threshold, min_time)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tpbisa.suite", description="Regression suites of NEFF runs "
                                     "(docs/suites.md).")
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run a suite")
    r.add_argument("suite")
    r.add_argument("--jobs", "-j", type=int, help="local workers (default: the CPUs)")
    r.add_argument("--scheduler", help="a Dask scheduler address, tcp://HOST:PORT (default: a local pool)")
    r.add_argument("--backend", choices=("auto", "dask", "processes"), default="auto",
                   help="the local pool: a Dask LocalCluster (auto, when dask.distributed imports) or processes")
    r.add_argument("--tags", nargs="+", action="extend", help="run the cases with any of these tags (!TAG: without)")
    r.add_argument("--out", help="the reports' folder (default: NAME-results)")
    r.add_argument("--max-memory", help="the run's memory bound of cases that give none (default 1G)")
    r.add_argument("--memory-limit", help="each local worker's memory (Dask's memory_limit)")
    r.add_argument("--timeout", type=float, help="seconds per run, for cases that give none")
    r.add_argument("--programs", help="keep generated NEFFs here and use them again (default: OUT/programs, anew)")
    r.add_argument("--quiet", "-q", action="store_true", help="no line per case, no progress line")
    d = sub.add_parser("diff", help="what changed between two results.jsonl files")
    d.add_argument("old")
    d.add_argument("new")
    d.add_argument("--threshold", type=float, default=0.25, help="time change to report, a fraction (0.25)")
    d.add_argument("--min-time", type=float, default=0.05, help="ignore time changes of cases faster than this (s)")
    ls = sub.add_parser("list", help="list the cases of a suite")
    ls.add_argument("suite")
    ls.add_argument("--tags", nargs="+", action="extend")
    args = parser.parse_args(argv)
    try:
        if args.command == "diff":
            changes = diff(args.old, args.new, args.threshold, args.min_time)
            sys.stdout.write(report.diff_text(changes))
            return 1 if changes["new_failures"] else 0
        if args.command == "list":
            for case in load(args.suite, args.tags).cases:
                print(f"{case['id']}\t{case['program']}\t{','.join(case['tags'])}")
            return 0
        result = run(args.suite, jobs=args.jobs, scheduler=args.scheduler, out=args.out, tags=args.tags,
                     backend=args.backend, max_memory=args.max_memory, memory_limit=args.memory_limit,
                     timeout=args.timeout, programs=args.programs, stream=None if args.quiet else sys.stdout,
                     progress=None if args.quiet else sys.stderr)
    except (SuiteError, OSError, ValueError) as e:
        print(f"tpbisa.suite: error: {e}", file=sys.stderr)
        return 2
    if args.quiet:
        sys.stdout.write(report.summary_table(result.records, result.wall))
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
