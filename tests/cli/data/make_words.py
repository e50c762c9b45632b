#!/usr/bin/env python3
"""Writes the small instruction streams the CLI tests of validate, lower and run use.

Usage: make_words.py NAME OUT.bin   (NAME from PROGRAMS below; OUT '-' writes stdout)
       make_words.py --hex NAME      (one 128-digit hex line per word)
       make_words.py --repeat N NAME OUT.bin  (the stream repeated N times)

Offsets follow the spec's compile-verified MEM_2D / PSEUDO_MEM_2D layouts; every word is little-endian.

Committed beside this script for the README tour (the CLI tests check they match the generator):
  pseudo.bin      = make_words.py pseudo pseudo.bin
  store_load.bin  = make_words.py store_load store_load.bin
  vars.json, state.json (written by hand) go with them.
"""
import struct
import sys

WORD = 64
SBUF_P2 = 2 * 0x40000  # SBUF partition 2 on SUNDA..MARIANA (256 KiB stride)
PSUM = 0x2000000  # PSUM partition 0
U32, FP32, U8 = 0x09, 0x0A, 0x03


def mem2d(opcode, dtype, n0, n1, addr, steps=(1, 1), regs=(), imm=None, datasrc=0, update=(0, 0), wait=(0, 0, 0)):
    """A MEM_2D word (TensorLoad 0xaa / TensorStore 0xab); update = (mode, semaphore), wait = (mode, idx, value)."""
    w = bytearray(WORD)
    w[0], w[1] = opcode, 16
    struct.pack_into("<BBBBI", w, 4, wait[0], wait[1], update[0], update[1], wait[2])
    struct.pack_into("<BBBB", w, 12, dtype, datasrc, n0, n1)
    struct.pack_into("<Q", w, 16, addr)
    struct.pack_into("<ii", w, 24, *steps)
    if imm is not None:
        w[32:32 + len(imm)] = imm
    else:
        w[32:32 + len(regs)] = bytes(regs)
    return bytes(w)


def pseudo(opcode, dtype, n0, n1, var_id, var_offset, regs=(), steps=(1, 1)):
    """A PSEUDO_MEM_2D word (PseudoTensorLoad 0xce / PseudoTensorStore 0xcd)."""
    w = bytearray(WORD)
    w[0], w[1] = opcode, 16
    struct.pack_into("<BBBB", w, 12, dtype, 0, n0, n1)
    struct.pack_into("<II", w, 16, var_id, var_offset)
    struct.pack_into("<ii", w, 24, *steps)
    w[32:32 + len(regs)] = bytes(regs)
    return bytes(w)


def raw(opcode):
    w = bytearray(WORD)
    w[0], w[1] = opcode, 16
    return bytes(w)


# TensorLoad u32 2 x 2 from sbuf[p2]+0x100 into r1..r4 (the README's decode example, without EVENTS).
LOAD = mem2d(0xAA, U32, 2, 2, SBUF_P2 + 0x100, steps=(1, 2), regs=(1, 2, 3, 4))
# The same load with 6 x 6 elements: fails mem2d_32_elem_check (and the shared count check).
LOAD_6X6 = mem2d(0xAA, U32, 6, 6, SBUF_P2 + 0x100, steps=(1, 6), regs=range(1, 33))
# TensorLoad u32 at an address that is not 4-byte aligned: fails the alignment check.
LOAD_UNALIGNED = mem2d(0xAA, U32, 1, 1, SBUF_P2 + 0x102, regs=(1,))

PROGRAMS = {
    "load": [LOAD],
    # valid, invalid, header-only (EngineNop), SUNDA-only Dual 0x87, the INVALID opcode 0xff.
    "mixed": [LOAD, LOAD_6X6, raw(0x9F), raw(0x87), raw(0xFF)],
    "valid": [LOAD, raw(0x9F)],
    # r1..r4 -> sbuf:2:0x100 (u32, $S[3]++@complete), back into r11..r14, then fp32 immediates to flat memory.
    "store_load": [
        mem2d(0xAB, U32, 4, 1, SBUF_P2 + 0x100, regs=(1, 2, 3, 4), update=(0x13, 3)),
        mem2d(0xAA, U32, 4, 1, SBUF_P2 + 0x100, regs=(11, 12, 13, 14)),
        mem2d(0xAB, FP32, 4, 1, 0x10000000, imm=struct.pack("<4f", 1.0, 0.5, -2.0, 3.25), datasrc=1),
    ],
    # A store that retires, then a load from PSUM partition 0 + 0x4000 (past its 16 KiB backed bytes).
    "fault": [
        mem2d(0xAB, U32, 1, 1, SBUF_P2, regs=(1,), update=(0x13, 5)),
        mem2d(0xAA, U32, 1, 1, PSUM + 0x4000, regs=(9,)),
    ],
    # An invalid word: the run faults with InvalidInstruction at once.
    "invalid_run": [LOAD_6X6],
    # Waits $S[7] >= 2: a deadlock unless the initial state sets the semaphore.
    "wait": [mem2d(0xAA, U32, 1, 1, SBUF_P2, regs=(1,), wait=(0x05, 7, 2))],
    # PseudoTensorStore r1,r2 -> var 7 + 0x10, PseudoTensorLoad var 7 + 0x10 -> r5,r6, then a real TensorStore
    # (the u32 immediate 42 to dev:0x10000000) that lowering copies as it is.
    "pseudo": [
        pseudo(0xCD, U32, 2, 1, 7, 0x10, regs=(1, 2)),
        pseudo(0xCE, U32, 2, 1, 7, 0x10, regs=(5, 6)),
        mem2d(0xAB, U32, 1, 1, 0x10000000, imm=struct.pack("<I", 42), datasrc=1),
    ],
    # A pseudo load whose lowered address (base + 0x2) is not 4-byte aligned: invalid only after lowering.
    "pseudo_unaligned": [pseudo(0xCE, U32, 1, 1, 7, 0x2, regs=(1,))],
    "pseudo_var9": [pseudo(0xCE, U32, 1, 1, 9, 0, regs=(1,))],
    "pseudo_offset_0x100": [pseudo(0xCE, U32, 1, 1, 7, 0x100, regs=(1,))],
    # Two u32 elements at 0x10fffffc: the second crosses into the next 16 MiB window (PROJ-CONV-M3).
    "window": [mem2d(0xAA, U32, 2, 1, 0x10FFFFFC, regs=(1, 2))],
    # The same load twice: --max-steps 1 stops before the second.
    "two_loads": [LOAD, LOAD],
}


def main(argv):
    repeat = 1
    if len(argv) >= 2 and argv[0] == "--repeat":
        repeat = int(argv[1])
        argv = argv[2:]
    if len(argv) == 2 and argv[0] == "--hex":
        for w in PROGRAMS[argv[1]]:
            print(w.hex())
        return 0
    if len(argv) != 2 or argv[0] not in PROGRAMS:
        print(__doc__, file=sys.stderr)
        return 2
    data = b"".join(PROGRAMS[argv[0]]) * repeat
    if argv[1] == "-":
        sys.stdout.buffer.write(data)
    else:
        with open(argv[1], "wb") as f:
            f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
