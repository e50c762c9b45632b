"""decode, disasm, disasm_lite and asm against the command line, their round trips and their errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

import tpbisa
from conftest import SOURCE_DIR, cli_json, run_cli


def test_decode_matches_cli_json(demo_words: bytes) -> None:
    doc = cli_json("decode", "--gen", "cayman", "--json", "--hex", demo_words.hex())
    assert len(doc["instructions"]) == len(demo_words) // 64
    for k, expected in enumerate(doc["instructions"]):
        ins = tpbisa.decode(demo_words[64 * k : 64 * (k + 1)], gen="cayman")
        assert ins.opcode == int(expected["opcode"], 16)
        assert ins.name == expected["name"]
        assert ins.format == expected["format"]
        assert ins.status == expected["status"]
        assert ins.word.hex() == expected["word"]
        assert ins.generation == "cayman"
        header = dict(expected["header"], opcode=int(expected["header"]["opcode"], 16))
        assert ins.header == header
        ev = expected["events"]
        got = ins.events_fields
        for key in ("wait_idx", "update_idx", "semaphore_value", "text", "text_exact", "wait_mode_name",
                    "update_mode_name"):
            assert got[key] == ev[key], key
        assert got["wait_mode"] == int(ev["wait_mode"], 16)
        assert got["update_mode"] == int(ev["update_mode"], 16)
        assert len(ins.fields) == len(expected["fields"])
        for f, e in zip(ins.fields, expected["fields"]):
            assert (f.name, f.offset, f.size, f.kind, f.hex, f.meaning) == (
                e["name"], e["offset"], e["size"], e["kind"], e["hex"], e["meaning"])
            if f.kind == "bytes":
                assert f.display == e["value"] and f.value.hex() == e["value"]
            else:
                assert f.value == e["value"]


def test_a_word_without_events_has_none() -> None:
    # COMPACT_CONTROL_INST: bytes 4-11 are its first two compact instructions (MOV_IMM_LO, ADD), not EVENTS.
    word = bytes([0xB6, 16, 0, 0, 0x02, 3, 0x34, 0x12, 0x10, 3, 4, 5]) + bytes(52)
    ins = tpbisa.decode(word, gen="maverick")
    assert ins.format == "CTRL_CCI"
    assert ins.events_fields is None
    assert ins.events == ""
    doc = cli_json("decode", "--gen", "maverick", "--json", "--hex", word.hex())
    assert doc["instructions"][0]["events"] is None


def test_decode_events_text() -> None:
    words = tpbisa.asm("TensorLoad $S[1]>=1 dtype=u32 num_elem={4,1} start_addr=sbuf[p0]+0x0 step_elem={1,0} "
                       "data={r0,r1,r2,r3}", gen="cayman")
    ins = tpbisa.decode(words, gen="cayman")
    assert ins.events == "$S[1]>=1"
    assert ins.name == "TensorLoad" and ins.mnemonic == "TensorLoad"


def test_decode_unknown_opcode_never_fails() -> None:
    ins = tpbisa.decode(bytes([0xEE]) + bytes(63))
    assert ins.status == "unknown" and ins.name == "unknown"
    assert ins.note  # why it is unknown, as tpbisa decode says
    assert ins.text.startswith(".raw ")


def test_disasm_matches_cli(demo_words: bytes) -> None:
    r = run_cli("disasm", "--gen", "cayman", "--hex", demo_words.hex())
    assert r.returncode == 0
    lines = r.stdout.decode().splitlines()
    items = list(tpbisa.disasm(demo_words, gen="cayman"))
    assert [i.text for i in items] == lines
    assert [i.offset for i in items] == [64 * k for k in range(len(items))]
    assert [i.label for i in items] == [f"#{k}" for k in range(len(items))]
    lite = list(tpbisa.disasm_lite(demo_words, gen="cayman"))
    assert lite == [(i.offset, i.mnemonic, i.text) for i in items]


def test_disasm_offset_is_added() -> None:
    words = tpbisa.asm("Nop\nNop", gen="cayman")
    assert [o for o, _, _ in tpbisa.disasm_lite(words, gen="cayman", offset=0x1000)] == [0x1000, 0x1040]


def test_disasm_verdict_comments_and_switch(vectors: list) -> None:
    bad = next(v for v in vectors if v["expect"] == "invalid" and not v["options"] and "cayman" in v["gens"])
    with_verdict = next(tpbisa.disasm(bad["word"], gen="cayman")).text
    assert "; INVALID on cayman:" in with_verdict
    without = next(tpbisa.disasm(bad["word"], gen="cayman", verdicts=False)).text
    assert "INVALID" not in without
    r = run_cli("disasm", "--gen", "cayman", "--no-verdicts", "--hex", bad["word"].hex())
    assert r.stdout.decode().strip() == without


def test_asm_matches_cli_and_round_trips() -> None:
    source = (SOURCE_DIR / "examples" / "demo.tasm").read_text()
    words = tpbisa.asm(source, gen="cayman")
    r = run_cli("asm", "--gen", "cayman", str(SOURCE_DIR / "examples" / "demo.tasm"), "-o", "-")
    assert words == r.stdout
    text = "\n".join(i.text for i in tpbisa.disasm(words, gen="cayman"))
    assert tpbisa.asm(text, gen="cayman") == words
    assert tpbisa.asm(source.encode(), gen="cayman") == words


def test_every_vector_round_trips(vectors: list) -> None:
    for v in vectors:
        for gen in v["gens"]:
            text = next(tpbisa.disasm(v["word"], gen=gen, verdicts=False)).text
            assert tpbisa.asm(text, gen=gen) == v["word"], (v["id"], gen, text)


def test_asm_error_carries_line_and_column() -> None:
    with pytest.raises(tpbisa.AsmError) as info:
        tpbisa.asm("Nop\nNop bogus=1\n", gen="cayman", filename="x.tasm")
    e = info.value
    assert e.line == 2 and e.column >= 1
    assert e.error_count == 1 and e.errors[0]["line"] == 2
    assert "x.tasm:2:" in str(e)
    assert isinstance(e, tpbisa.InputError) and isinstance(e, tpbisa.Error)
    # The same diagnostic as the command line prints.
    r = run_cli("asm", "--gen", "cayman", "-", "-o", "-", input=b"Nop\nNop bogus=1\n")
    assert r.returncode == 3
    assert e.errors[0]["message"] in r.stderr.decode()


def test_partial_word_is_an_input_error() -> None:
    data = bytes(64 * 2 + 3)
    it = tpbisa.disasm(data)
    assert len([next(it), next(it)]) == 2
    with pytest.raises(tpbisa.InputError, match="3 trailing bytes at offset 128"):
        next(it)
    with pytest.raises(tpbisa.InputError, match="trailing bytes"):
        tpbisa.validate(data)
    with pytest.raises(tpbisa.UsageError, match="one 64-byte word"):
        tpbisa.decode(bytes(65))


def test_usage_errors() -> None:
    with pytest.raises(tpbisa.UsageError, match="not a generation"):
        tpbisa.decode(bytes(64), gen="nosuch")
    with pytest.raises(ValueError):
        tpbisa.validate(bytes(64), gen="nosuch")
    with pytest.raises(tpbisa.UsageError, match="bytes-like"):
        tpbisa.disasm("not bytes")  # type: ignore[arg-type]
    with pytest.raises(tpbisa.UsageError, match="C-contiguous"):
        tpbisa.validate(np.zeros((4, 64), dtype=np.uint8)[:, ::2])
    with pytest.raises(tpbisa.UsageError, match="engine"):
        tpbisa.validate(bytes(64), engine="gpu")
    with pytest.raises(tpbisa.UsageError, match="dtype_enum"):
        tpbisa.validate(bytes(64), dtype_enum="sometimes")


def test_argument_errors_are_usage_errors() -> None:
    # Issue 36, D20: these used to raise RuntimeError "Unable to cast Python instance" or a TypeError.
    with pytest.raises(tpbisa.UsageError, match="text cannot be read as UTF-8"):
        tpbisa.asm("Nop\ud800\n")
    for offset in (-1, 2**64, 1.5, "0", True):
        with pytest.raises(tpbisa.UsageError, match="offset must be an int from 0 to 18446744073709551615"):
            tpbisa.disasm(bytes(64), offset=offset)  # type: ignore[arg-type]
    with pytest.raises(tpbisa.UsageError, match=r"dtype 'float128' is not a catalog dtype"):
        tpbisa.numpy_dtype("float128")
    assert issubclass(tpbisa.UsageError, ValueError)  # what numpy_dtype raised before


def test_disasm_offsets_never_wrap() -> None:
    # Issue 36, D24: offsets past 2**64 used to wrap to 0 silently.
    words = bytes(128)
    last = 2**64 - 64
    assert [o for o, _, _ in tpbisa.disasm_lite(words, offset=last - 64)] == [last - 64, last]
    assert [i.offset for i in tpbisa.disasm(words, offset=last - 64)] == [last - 64, last]
    for form in (tpbisa.disasm, tpbisa.disasm_lite):
        with pytest.raises(tpbisa.UsageError, match=r"offset 18446744073709551552 \+ the data's 128 bytes pass 2\*\*64"):
            form(words, offset=last)


def test_asm_keeps_the_statement_bound_of_a_source_file() -> None:
    # Issue 36, D21: the command line refuses more than 1,048,576 statements; asm() assembled them all (GBs).
    with pytest.raises(tpbisa.InputError, match="<string>: 1048577 statements; at most 1048576 are accepted"):
        tpbisa.asm("Nop\n" * 1_048_577, gen="cayman")
    assert len(tpbisa.asm("; a comment\n" * 1_048_577 + "Nop\n", gen="cayman")) == 64


def test_hostile_inputs_never_crash() -> None:
    rng = np.random.default_rng(7)
    blob = rng.integers(0, 256, size=64 * 2000, dtype=np.uint8)
    for gen in ("sunda", "cayman", "mariana", "maverick"):
        assert len(list(tpbisa.disasm_lite(blob, gen=gen))) == 2000
        for ins in tpbisa.disasm(blob[: 64 * 50], gen=gen):
            ins.fields, ins.text, ins.events_fields  # noqa: B018
        assert len(tpbisa.validate(blob, gen=gen)) == 2000
    for text in ["", "\x00", "Nop " * 2000, "{" * 5000, "lbl:\nlbl:\n", "\ufffd\n" * 10]:
        try:
            tpbisa.asm(text)
        except tpbisa.AsmError:
            pass


def test_buffer_kinds_are_read_alike(demo_words: bytes) -> None:
    expected = [t for _, _, t in tpbisa.disasm_lite(demo_words, gen="cayman")]
    for data in (bytearray(demo_words), memoryview(demo_words), np.frombuffer(demo_words, dtype=np.uint8),
                 np.frombuffer(demo_words, dtype=np.uint32).reshape(-1, 16)):
        assert [t for _, _, t in tpbisa.disasm_lite(data, gen="cayman")] == expected


def test_inputs_are_read_in_place() -> None:
    # The iterator reads the caller's buffer: a change made after it was created is what it decodes.
    data = bytearray(tpbisa.asm("Nop\nNop", gen="cayman"))
    it = tpbisa.disasm_lite(data, gen="cayman")
    assert next(it)[1] == "Nop"
    data[64] = 0xA1  # Halt
    assert next(it)[1] == "Halt"
    arr = np.frombuffer(bytes(data), dtype=np.uint8).copy()
    it = tpbisa.disasm(arr, gen="cayman")
    arr[0] = 0xA1
    assert next(it).name == "Halt"


def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def test_large_input_is_not_copied() -> None:
    big = np.zeros(64 << 20, dtype=np.uint8)  # 64 MiB = 1 Mi words
    big[::64] = 0xA4  # Nop
    before = _rss_bytes()
    it = tpbisa.disasm_lite(big, gen="cayman")
    assert next(it)[1] == "Nop"
    v = tpbisa.validate(big[: 64 * 10], gen="cayman")
    assert len(v) == 10
    assert _rss_bytes() - before < (16 << 20)


def test_op_str_and_neff_refused_by_machine(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import tpbisa

    word = tpbisa.asm("TensorLoad $S[1]>=1 dtype=u32 num_elem={2,2} start_addr=sbuf[p2]+0x100 data={r1,r2,r3,r4}",
                      gen="cayman")
    ins = next(iter(tpbisa.disasm(word, gen="cayman")))
    assert ins.op_str == ins.text[len("TensorLoad "):] and ins.op_str.startswith("$S[1]>=1 dtype=u32")
    nop = next(iter(tpbisa.disasm(tpbisa.asm("Nop", gen="cayman"), gen="cayman")))
    assert nop.text == "Nop" and nop.op_str == ""
    neff = (SOURCE_DIR / "tests" / "golden" / "validate-neff" / "in.neff").read_bytes()
    with pytest.raises(tpbisa.UsageError, match="NEFF container"):
        tpbisa.Machine(neff, gen="cayman")
    prog = tpbisa.Neff(str(SOURCE_DIR / "tests" / "golden" / "validate-neff" / "in.neff"))
    assert repr(prog).startswith("<Neff ") and "cayman" in repr(prog) and "words" in repr(prog)
