#!/usr/bin/env bash
# COMPACT_CONTROL_INST end to end: a word packed by hand at the wiki's offsets, disassembled and assembled back,
# validated, and refused by `tpbisa run` (its semantics are not public, PROJ-CONV-CC3) with the memory left as it was.
set -u
tool=${1:?usage: e2e_cci_refused.sh TPBISA_BINARY SOURCE_DIR}
# opcode 0xB6; inst0 MOV_IMM_LO r3 = 0x1234 at 4-7; inst1 ADD r5 = r3 + r4 at 8-11; NOPs after.
word=$(/usr/bin/python3 -c '
import struct
w = bytearray(64)
struct.pack_into("<BB", w, 0, 0xB6, 16)
struct.pack_into("<BBH", w, 4, 0x02, 3, 0x1234)
struct.pack_into("<BBBB", w, 8, 0x10, 3, 4, 5)
print(w.hex())')
gen=maverick gens="maverick" who="CompactControlInst (0xb6)" at=sbuf:0:0x0 short=cci_refused
. "$(dirname "$0")/../../e2e/refused_word.sh"
