#!/usr/bin/env python3
"""Writes the shared fixtures of the golden command-line tests (tests/golden/_data/).

Usage: make_fixtures.py [DIR]          write every fixture into DIR (default: this script's folder)
       make_fixtures.py --check [DIR]  exit 1 (naming the files) when DIR's fixtures differ from what
                                       this script writes; tests/cli/golden.sh runs this first
       make_fixtures.py --hex NAME     print the words of one binary fixture, 128 hex digits a line

Standard library only and deterministic: the same bytes on every run. Words are little-endian 64-byte
TPB instruction words laid out as in the spec's compile-verified MEM_2D, PSEUDO_MEM_2D, S2_BN and S4D4_TSM
formats (the same layouts as examples/make_stream_bin.py and tests/cli/data/make_words.py).
"""
import json
import os
import struct
import sys

WORD = 64
SBUF_P2 = 2 * 0x40000  # SBUF partition 2 on SUNDA..MARIANA (256 KiB partition stride)
PSUM_P0 = 0x2000000  # PSUM partition 0, bank 0
DEV = 0x10000000  # a device address outside the on-chip region
U32, FP32 = 0x09, 0x0A


def word(opcode, wait=(0, 0, 0), update=(0, 0)):
    """An empty word: header (inst_word_len 16) and EVENTS; wait = (mode, idx, value), update = (mode, idx)."""
    w = bytearray(WORD)
    w[0], w[1] = opcode, 16
    struct.pack_into("<BBBBI", w, 4, wait[0], wait[1], update[0], update[1], wait[2])
    return w


def mem2d(opcode, dtype, n0, n1, addr, steps=(1, 1), regs=(), imm=None, wait=(0, 0, 0), update=(0, 0)):
    """TensorLoad 0xaa / TensorStore 0xab: registers (src_datasrc REGISTER) or immediates (IMMEDIATE)."""
    w = word(opcode, wait, update)
    struct.pack_into("<BBBB", w, 12, dtype, 0 if imm is None else 1, n0, n1)
    struct.pack_into("<Q", w, 16, addr)
    struct.pack_into("<ii", w, 24, *steps)
    if imm is None:
        w[32:32 + len(regs)] = bytes(regs)
    else:
        w[32:32 + len(imm)] = imm
    return bytes(w)


def pseudo(opcode, dtype, n0, n1, var_id, var_offset, regs=(), steps=(1, 1)):
    """PseudoTensorLoad 0xce / PseudoTensorStore 0xcd: var_id and var_offset in place of start_addr."""
    w = word(opcode)
    struct.pack_into("<BBBB", w, 12, dtype, 0, n0, n1)
    struct.pack_into("<II", w, 16, var_id, var_offset)
    struct.pack_into("<ii", w, 24, *steps)
    w[32:32 + len(regs)] = bytes(regs)
    return bytes(w)


def tensor2d(w, at, addr, steps, counts):
    struct.pack_into("<I2h2H", w, at, addr, *steps, *counts)


def tensor4d(w, at, addr, steps, counts):
    struct.pack_into("<I4h4H", w, at, addr, *steps, *counts)


def imm_ld(opcode=0x70, dtype=FP32, channels=4, addr=0x200, count=4, wait=(0, 0, 0)):
    """S2_BN (TensorScalarImmLdArith 0x70 by default): count scalars per channel from sbuf[p0]+addr."""
    w = word(opcode, wait)
    tensor2d(w, 16, addr, (1, count), (count, 1))
    w[32] = dtype
    w[34] = channels
    return bytes(w)


def ptr_multi(opcode=0x4F, op=0x06, src=0x400, dst=PSUM_P0, channels=32, wait=(0, 0, 0), update=(0, 0)):
    """S4D4_TSM (TensorScalarPtrMultiArith 0x4f by default): x op scalar[w], 16 elements x 4 slices."""
    w = word(opcode, wait, update)
    tensor4d(w, 12, src, (1, 16, 16, 16), (16, 1, 1, 4))
    struct.pack_into("<BBBB", w, 32, FP32, FP32, channels, 0)
    struct.pack_into("<BBB", w, 36, op, 0x04, 0)  # op, op_dim XYZ, reverse_operands NONE
    tensor4d(w, 44, dst, (1, 16, 16, 16), (16, 1, 1, 4))
    return bytes(w)


def raw(opcode, **kw):
    return bytes(word(opcode, **kw))


# TensorLoad u32 2 x 2 from sbuf[p2]+0x100 into r1..r4 (the README's decode example) with its EVENTS.
LOAD_EVENTS = mem2d(0xAA, U32, 2, 2, SBUF_P2 + 0x100, steps=(1, 2), regs=(1, 2, 3, 4), wait=(0x04, 11, 0),
                    update=(0x13, 22))
# The same without EVENTS.
LOAD = mem2d(0xAA, U32, 2, 2, SBUF_P2 + 0x100, steps=(1, 2), regs=(1, 2, 3, 4))
# 6 x 6 elements: fails mem2d_32_elem_check (and the shared count check).
LOAD_6X6 = mem2d(0xAA, U32, 6, 6, SBUF_P2 + 0x100, steps=(1, 6), regs=range(1, 33))
# u32 at an address that is not 4-byte aligned.
LOAD_UNALIGNED = mem2d(0xAA, U32, 1, 1, SBUF_P2 + 0x102, regs=(1,))
ENGINE_NOP = raw(0x9F, wait=(0xFE, 0, 0), update=(0x01, 3))  # not modeled: header-only; unordered, $E[3]=1@read
DUAL = raw(0x87)  # TensorScalarPtrMultiDualArith: an opcode of SUNDA only
INVALID_OPCODE = raw(0xFF)  # no generation has 0xff
# A store whose EVENTS use SEM_*_REG_OFFSET (0x95, MAVERICK only) and EVT_SET: shows the per-generation renderings.
EVENT_MODES = mem2d(0xAB, U32, 1, 1, SBUF_P2, regs=(1,), wait=(0x95, 4, 0x1005), update=(0x01, 3))

BINARIES = {
    # decode
    "load.bin": [LOAD_EVENTS],
    "stream.bin": [
        mem2d(0xAB, FP32, 4, 1, SBUF_P2 + 0x100, steps=(1, 0), imm=struct.pack("<4f", 1.0, 0.5, -2.0, 3.25),
              wait=(0x05, 4, 2), update=(0x13, 22)),
        LOAD_EVENTS,
        imm_ld(wait=(0x06, 3, 0)),
        ptr_multi(wait=(0x85, 4, 5), update=(0x99, 22)),
        ENGINE_NOP,
        DUAL,
    ],
    "unknown.bin": [DUAL, INVALID_OPCODE],
    "events.bin": [EVENT_MODES],
    "empty.bin": [],
    # validate
    "mixed.bin": [LOAD, LOAD_6X6, ENGINE_NOP, DUAL, INVALID_OPCODE],
    "valid.bin": [LOAD, ENGINE_NOP],
    "invalid.bin": [LOAD_6X6],
    "header_only.bin": [ENGINE_NOP],
    "unaligned.bin": [LOAD_UNALIGNED],
    # Two u32 elements at 0x10fffffc: the second crosses into the next 16 MiB window (PROJ-CONV-M3).
    "window.bin": [mem2d(0xAA, U32, 2, 1, 0x10FFFFFC, regs=(1, 2))],
    # FP4_EXP2 (0x10): a MARIANA dtype by the header enum, but not by the runtime's d <= 0xF (PROJ-CONV-C13).
    "dtype_0x10.bin": [imm_ld(dtype=0x10)],
    # TensorScalarPtrMultiArith with op SYMMETRIC_CLAMP (0x24) into SBUF: general-arith on MAVERICK only by
    # PROJ-CONV-T11, so --no-symmetric-clamp-arith makes it invalid.
    "clamp.bin": [ptr_multi(op=0x24, dst=0x1000)],
    # lower / run
    "pseudo.bin": [
        pseudo(0xCD, U32, 2, 1, 7, 0x10, regs=(1, 2)),
        pseudo(0xCE, U32, 2, 1, 7, 0x10, regs=(5, 6)),
        mem2d(0xAB, U32, 1, 1, DEV, imm=struct.pack("<I", 42)),
    ],
    "pseudo_unaligned.bin": [pseudo(0xCE, U32, 1, 1, 7, 0x2, regs=(1,))],
    "pseudo_var9.bin": [LOAD, pseudo(0xCE, U32, 1, 1, 9, 0, regs=(1,))],
    "pseudo_offset.bin": [pseudo(0xCE, U32, 1, 1, 7, 0x100, regs=(1,))],
    # r1..r4 -> sbuf:2:0x100 ($S[3]++@complete), back into r11..r14, then fp32 immediates to DEV.
    "store_load.bin": [
        mem2d(0xAB, U32, 4, 1, SBUF_P2 + 0x100, regs=(1, 2, 3, 4), update=(0x13, 3)),
        mem2d(0xAA, U32, 4, 1, SBUF_P2 + 0x100, regs=(11, 12, 13, 14)),
        mem2d(0xAB, FP32, 4, 1, DEV, imm=struct.pack("<4f", 1.0, 0.5, -2.0, 3.25)),
    ],
    # A store that retires, then a load from PSUM partition 0 + 0x4000 (past its 16 KiB backed bytes).
    "fault.bin": [
        mem2d(0xAB, U32, 1, 1, SBUF_P2, regs=(1,), update=(0x13, 5)),
        mem2d(0xAA, U32, 1, 1, PSUM_P0 + 0x4000, regs=(9,)),
    ],
    "invalid_run.bin": [LOAD_6X6],
    # Waits $S[7] >= 2: a deadlock unless the initial state sets the semaphore.
    "wait.bin": [mem2d(0xAA, U32, 1, 1, SBUF_P2, regs=(1,), wait=(0x05, 7, 2))],
    "two_loads.bin": [LOAD, LOAD],
    # ImmLd (4 fp32 scalars per channel, 4 channels) then PtrMulti (x * scalar): executed, or the firmware stubs.
    "immld.bin": [imm_ld(), ptr_multi(channels=4)],
}

VARS = {"vars": {"7": {"base": "0x80100", "size": 64}}}
STATE = {
    "regs": {"r1": 5, "r2": -1, "r3": "0x3f800000", "r4": 4294967295},
    "semaphores": {"3": 1},
    "events": [2],
    "memory": [
        {"at": "sbuf:2:0x200", "dtype": "bf16", "values": [1.5, -2, "inf", "nan"]},
        {"at": "psum:0:0x10", "dtype": "fp32", "bits": ["0x3f800000", "0x7fc00001"]},
    ],
}
# sbuf:0:0x200 (channel 0's ImmLd source) and sbuf:0:0x400 (its PtrMulti source), for immld.bin.
STATE_IMMLD = {
    "memory": [
        {"at": "sbuf:0:0x200", "dtype": "fp32", "values": [2, 0.5, -1, 10]},
        {"at": "sbuf:0:0x400", "dtype": "fp32", "values": [1, 2, 3, 4, 5, 6, 7, 8]},
    ],
}


def fixtures():
    """Every fixture as {file name: bytes}."""
    out = {name: b"".join(words) for name, words in BINARIES.items()}
    for w in (b for words in BINARIES.values() for b in words):
        assert len(w) == WORD
    out["partial.bin"] = LOAD + LOAD + b"\xaa\x10"  # two words, then 2 trailing bytes at offset 128
    out["vars.json"] = (json.dumps(VARS) + "\n").encode()
    out["state.json"] = (json.dumps(STATE) + "\n").encode()
    out["state_immld.json"] = (json.dumps(STATE_IMMLD) + "\n").encode()
    return out


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    if len(argv) == 2 and argv[0] == "--hex":
        for w in BINARIES[argv[1]]:
            print(w.hex())
        return 0
    check = bool(argv) and argv[0] == "--check"
    if check:
        argv = argv[1:]
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        print(__doc__, file=sys.stderr)
        return 2
    folder = argv[0] if argv else here
    stale = []
    for name, data in sorted(fixtures().items()):
        path = os.path.join(folder, name)
        if check:
            try:
                with open(path, "rb") as f:
                    same = f.read() == data
            except OSError:
                same = False
            if not same:
                stale.append(name)
        else:
            with open(path, "wb") as f:
                f.write(data)
    if stale:
        print("stale golden fixtures (run tests/golden/_data/make_fixtures.py): " + " ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
