"""validate against `tpbisa validate --json` on every shared vector, the verdict objects, and the GIL."""

from __future__ import annotations

import json
import threading
import time
from collections import defaultdict

import numpy as np
import pytest

import tpbisa
from conftest import cli_json, run_cli

GENS = ["sunda", "cayman", "mariana", "maverick"]


def _cli_args(options: list[str]) -> list[str]:
    args = []
    for o in options:
        if o == "strict_window":
            args.append("--strict-window")
        elif o == "dtype_enum_runtime":
            args += ["--dtype-enum", "runtime"]
        elif o.startswith("engine="):
            args += ["--engine", o.split("=", 1)[1].lower()]
        else:
            raise AssertionError(f"unknown vector option {o}")
    return args


def _py_kwargs(options: list[str]) -> dict:
    kw: dict = {}
    for o in options:
        if o == "strict_window":
            kw["strict_window"] = True
        elif o == "dtype_enum_runtime":
            kw["dtype_enum"] = "runtime"
        elif o.startswith("engine="):
            kw["engine"] = o.split("=", 1)[1]
    return kw


def _cli_words(data: bytes, *args: str):
    """`tpbisa validate --json` of the words `data`, read from stdin: the vectors outgrow one --hex argument."""
    r = run_cli("validate", *args, "-", input=data)
    assert r.stdout, r.stderr.decode()
    return json.loads(r.stdout)


def _groups(vectors: list) -> dict:
    groups: dict = defaultdict(list)
    for v in vectors:
        groups[tuple(v["options"])].append(v)
    return groups


def _words_file(tmp_path, data: bytes) -> str:
    """The words as a binary file: one --hex argument of every vector is longer than the kernel allows."""
    path = tmp_path / "words.bin"
    path.write_bytes(data)
    return str(path)


def test_gen_all_equals_cli_on_every_vector(vectors: list, tmp_path) -> None:
    checked = 0
    for options, group in _groups(vectors).items():
        data = b"".join(v["word"] for v in group)
        doc = cli_json("validate", "--gen", "all", "--json", *_cli_args(list(options)), _words_file(tmp_path, data))
        py = tpbisa.validate(data, gen="all", **_py_kwargs(list(options)))
        assert len(py) == len(doc["results"]) == len(group)
        for k, (got, want) in enumerate(zip(py, doc["results"])):
            assert list(got) == GENS
            for gen in GENS:
                assert got[gen].to_dict() == want["verdicts"][gen], (group[k]["id"], gen)
                assert got[gen].index == want["index"] and got[gen].offset == want["offset"]
            checked += 1
    assert checked == len(vectors)


def test_one_generation_equals_cli(vectors: list, tmp_path) -> None:
    plain = [v for v in vectors if not v["options"]]
    data = b"".join(v["word"] for v in plain)
    words = tmp_path / "words.bin"
    words.write_bytes(data)
    for gen in GENS:
        doc = cli_json("validate", "--gen", gen, "--json", _words_file(tmp_path, data))
        py = tpbisa.validate(data, gen=gen)
        assert [v.to_dict() for v in py] == [r["verdicts"][gen] for r in doc["results"]]


def test_vector_verdicts(vectors: list) -> None:
    for v in vectors:
        kw = _py_kwargs(v["options"])
        for gen in v["gens"]:
            (verdict,) = tpbisa.validate(v["word"], gen=gen, **kw)
            assert verdict.valid == (v["expect"] == "valid"), (v["id"], gen)
            assert bool(verdict) == verdict.valid
            assert set(verdict.failed) == v["failing"], (v["id"], gen)
            assert {f.predicate for f in verdict.failures} == v["failing"]


def test_failure_objects(vectors: list) -> None:
    bad = next(v for v in vectors if v["expect"] == "invalid" and not v["options"])
    gen = bad["gens"][0]
    (verdict,) = tpbisa.validate(bad["word"], gen=gen)
    doc = verdict.to_dict()
    assert verdict.checked == doc["checked"] and verdict.validator == doc["validator"]
    assert verdict.generation == gen
    for f, j in zip(verdict.failures, doc["failed"]):
        assert f.predicate == j["predicate"] and f.basis == j["basis"] and f.sentence == j["message"]
        assert f.convention == j["convention"] and f.via == j["via"]
        assert [(x["name"], list(x["bytes"]), list(x["value"])) for x in f.fields] == [
            (x["name"], x["bytes"], x["value"]) for x in j["fields"]]
    assert tpbisa.decode(bad["word"], gen=gen).validate().to_dict() == doc


def test_gen_list_and_default() -> None:
    word = bytes.fromhex("aa100000000000000000000009000401001000000000000001000000000000000001020300"
                         + "00" * 27)
    per = tpbisa.validate(word, gen=["cayman", "sunda"])[0]
    assert list(per) == ["cayman", "sunda"]
    (default,) = tpbisa.validate(word)
    assert default.generation == "mariana"
    with pytest.raises(tpbisa.UsageError, match="twice"):
        tpbisa.validate(word, gen=["cayman", "cayman"])


def test_validate_releases_the_gil() -> None:
    words = np.tile(np.frombuffer(bytes.fromhex(
        "aa0f0000000000000000000009000401001000000000000001000000000000000001020300" + "00" * 27),
        dtype=np.uint8), 200000)
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
    try:
        start_ticks = ticks
        start = time.perf_counter()
        result = tpbisa.validate(words, gen="all")
        elapsed = time.perf_counter() - start
        during = ticks - start_ticks
    finally:
        stop = True
        t.join()
    assert len(result) == 200000
    # Holding the GIL for the whole call would leave the other thread no tick, or one at its edges. Only the
    # validation itself runs without the GIL (building the Python verdicts needs it), so the count is small on a
    # loaded machine; 5 still tells the two apart.
    assert elapsed > 0.1, "the call is too short to tell"
    assert during >= 5, (during, elapsed)
