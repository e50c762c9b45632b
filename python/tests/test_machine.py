"""tpbisa.Machine against `tpbisa run --json`: stepping, running, state loading, registers, memory and flops."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import tpbisa
from conftest import SOURCE_DIR, cli_json

DEMO = SOURCE_DIR / "examples" / "demo.tasm"


def test_run_equals_cli(demo_words: bytes) -> None:
    doc = cli_json("run", "--gen", "cayman", "--json", "--dump", "sbuf:0:0x400:fp32:8", "--dump", "dve:1",
                   str(DEMO))
    m = tpbisa.Machine(demo_words, gen="cayman")
    out = m.run()
    assert out["status"] == doc["status"] == "ok"
    assert out["retired"] == doc["retired"]
    assert out["fault"] is None and out["deadlock"] == []
    assert out["diagnostics"] == doc["diagnostics"]
    assert m.registers.dtype == np.uint32 and m.registers.shape == (64,)
    assert m.registers.tolist() == doc["regs"]
    sems = {str(i): int(v) for i, v in enumerate(m.semaphores) if v}
    assert sems == doc["semaphores"]
    assert [i for i, e in enumerate(m.events) if e] == doc["events"]
    dump = doc["dumps"][0]
    values = m.read("sbuf:0:0x400", "fp32", 8)
    assert values.dtype == np.float32 and values.tolist() == dump["values"]
    assert [f"{b:#010x}" for b in values.view(np.uint32)] == dump["bits"]
    assert m.initialized("sbuf:0:0x400", "fp32", 8)
    dve = doc["dumps"][1]
    flops = m.flops
    assert flops["imm"].shape[1] == 8
    assert [f"{b:#010x}" for b in flops["imm"][1]] == [e["bits"] for e in dve["imm"]]
    assert m.finished and m.pc == m.size == len(demo_words) // 64
    assert m.act_set is None  # no table load: no activation-function set (the document has no act_set either)
    assert "act_set" not in doc



def test_accumulators_equal_cli(tmp_path: pathlib.Path) -> None:
    """The DVE accumulator registers (alu-ops.md §2.6, PROJ-CONV-K12) in the state: flops["acc"] equals
    `tpbisa run --json --dump acc:C` and the sums computed here, after a ScalarTensorTensor ZERO_ACCUMULATE."""
    x = np.array([[0.5, 1.0, 1.5, 2.0], [2.5, 3.0, 3.5, 4.0]], dtype=np.float32)
    state = {"memory": [{"at": f"sbuf:{p}:0x0", "dtype": "fp32", "bits": [f"{b:#010x}" for b in x[p].view(np.uint32)]}
                        for p in range(2)]}
    src = ("ScalarTensorTensorArith src0.start_addr=sbuf[p0]+0x0 src0.step_elem={1,0} src0.num_elem={4,1} "
           "src1.start_addr=sbuf[p0]+0x0 src1.step_elem={1,0} src1.num_elem={4,1} op0=MULT op1=ADD "
           "imm0_src=INSTRUCTION_IMMEDIATE in0_in1_dtype=0xaa out_dtype=fp32 num_active_channels=2 imm0_dtype=fp32 "
           "accumulator_cmd=ZERO_ACCUMULATE dst.start_addr=sbuf[p0]+0x100 dst.step_elem={1,0} dst.num_elem={4,1} "
           "imm0=2.0\n")
    (tmp_path / "acc.tasm").write_text(src)
    (tmp_path / "state.json").write_text(json.dumps(state))
    doc = cli_json("run", "--gen", "cayman", "--init", str(tmp_path / "state.json"), "--json", "--dump", "acc:0",
                   "--dump", "acc:1", str(tmp_path / "acc.tasm"))
    m = tpbisa.Machine(src, gen="cayman")
    m.load_state_json(json.dumps(state))
    assert m.run()["status"] == doc["status"] == "ok"
    acc = m.flops["acc"]
    want = [15.0, 39.0]  # each channel's x * 2 + x, summed in order from +0 (exact)
    for c in range(2):
        bits = int(np.asarray(acc[c]).reshape(-1)[0])
        assert f"{bits:#010x}" == doc["dumps"][c]["bits"] == f"{np.float32(want[c]).view(np.uint32):#010x}"

def test_assembly_text_program() -> None:
    m = tpbisa.Machine(DEMO.read_text(), gen="cayman")
    assert m.run()["status"] == "ok"
    assert m.generation == "cayman"


def test_step_effects_match_trace(demo_words: bytes, tmp_path: pathlib.Path) -> None:
    trace = tmp_path / "t.jsonl"
    from conftest import run_cli

    r = run_cli("run", "--gen", "cayman", str(DEMO), "--trace", str(trace))
    assert r.returncode == 0, r.stderr.decode()
    records = [json.loads(line) for line in trace.read_text().splitlines()]
    m = tpbisa.Machine(demo_words, gen="cayman")
    steps = []
    while True:
        s = m.step()
        if s["status"] == "halted":
            break
        if s["status"] == "retired":
            steps.append(s["record"])
    assert steps == records
    assert m.step()["status"] == "halted"


def test_load_state(tmp_path: pathlib.Path) -> None:
    words = tpbisa.asm("Nop", gen="cayman")
    m = tpbisa.Machine(words, gen="cayman")
    m.load_state_json('{"regs": {"r1": 5, "r2": -1}, "semaphores": {"3": 7}, "events": [2],'
                      ' "memory": [{"at": "sbuf[p1]+0x10", "dtype": "fp16", "values": [1.5, -2]}]}')
    assert m.registers[1] == 5 and m.registers[2] == 0xFFFFFFFF
    assert m.semaphores[3] == 7 and m.events[2]
    h = m.read("sbuf[p1]+0x10", "fp16", 2)
    assert h.dtype == np.float16 and h.tolist() == [1.5, -2.0]
    b = m.read("sbuf[p1]+0x10", "u8", 4)
    assert b.dtype == np.uint8 and len(b) == 4
    assert not m.initialized("sbuf[p1]+0x20", "u8", 1)
    state = tmp_path / "state.json"
    state.write_text('{"regs": {"r64": 1}}')
    with pytest.raises(tpbisa.InputError, match="r64: not a register name"):
        m.load_state(str(state))
    with pytest.raises(tpbisa.InputError, match="malformed JSON"):
        m.load_state_json("{")
    with pytest.raises(tpbisa.InputError, match="cannot open"):
        m.load_state(str(tmp_path / "none.json"))


def test_bf16_is_a_documented_view() -> None:
    m = tpbisa.Machine(tpbisa.asm("Nop", gen="cayman"), gen="cayman")
    m.load_state_json('{"memory": [{"at": "sbuf[p0]+0x0", "dtype": "bf16", "values": [1.5]}]}')
    v = m.read("sbuf[p0]+0x0", "bf16", 1)
    assert v.view(np.uint16)[0] == 0x3FC0


def test_fault_and_blocked() -> None:
    m = tpbisa.Machine(tpbisa.asm("Nop $S[3]>=1", gen="cayman"), gen="cayman")
    s = m.step()
    assert s["status"] == "blocked" and s["wait"]["condition"] == "$S[3]>=1"
    out = m.run()
    assert out["status"] == "deadlock" and out["deadlock"][0]["condition"] == "$S[3]>=1"
    bad = tpbisa.Machine(bytes([0xAA, 0x0F]) + bytes(62), gen="cayman")
    s = bad.step()
    assert s["status"] == "faulted" and s["fault"]["kind"] == "InvalidInstruction"
    assert s["record"]["fault"] == s["fault"]
    assert bad.run()["status"] == "fault"


def test_machine_errors() -> None:
    with pytest.raises(tpbisa.InputError, match="trailing"):
        tpbisa.Machine(bytes(65))
    with pytest.raises(tpbisa.UsageError, match="engine"):
        tpbisa.Machine(bytes(64), engine="gpu")
    with pytest.raises(tpbisa.InputError, match="max_words"):
        tpbisa.Machine(bytes(64 * 3), max_words=2)
    m = tpbisa.Machine(bytes(64))
    with pytest.raises(tpbisa.UsageError, match="location"):
        m.read("sbuf:999:0", "u8", 1)
    with pytest.raises(tpbisa.UsageError, match="dtype"):
        m.read("sbuf:0:0", "nosuch", 1)
    with pytest.raises(tpbisa.AsmError):
        tpbisa.Machine("Bogus", gen="cayman")
    # Issue 36, D20: a negative max_steps was a TypeError.
    for steps in (-1, 2**64, "10", 1.5):
        with pytest.raises(tpbisa.UsageError, match="max_steps must be an int from 0 to 18446744073709551615"):
            m.run(max_steps=steps)  # type: ignore[arg-type]


def test_run_releases_the_gil_and_guards_the_machine() -> None:
    import threading
    import time

    words = 3000000  # long enough to watch the other thread: a sole engine retires Nops at tens of M/s
    m = tpbisa.Machine(tpbisa.asm("Nop", gen="cayman") * words, gen="cayman", record_effects=False, max_words=words)
    ticks = refused = 0
    stop = False

    def spin() -> None:
        nonlocal ticks, refused
        while not stop:
            ticks += 1
            try:
                m.pc  # noqa: B018
            except tpbisa.UsageError:
                refused += 1  # the machine is running in the other thread: not touched
            time.sleep(0.0005)

    t = threading.Thread(target=spin)
    t.start()
    time.sleep(0.05)
    try:
        before = ticks
        start = time.perf_counter()
        out = m.run(max_steps=words)
        elapsed = time.perf_counter() - start
        during = ticks - before
    finally:
        stop = True
        t.join()
    assert out["status"] == "ok" and out["retired"] == words
    assert elapsed > 0.01, "the run is too short to tell"
    assert during >= 3 and refused >= 1, (during, refused, elapsed)
    assert m.pc == words
