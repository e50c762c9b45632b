#!/usr/bin/env bash
# TEST_EVENT_SEM end to end: a word packed by hand at the wiki's offsets, disassembled and assembled back, validated, and
# refused by `tpbisa run` (its semantics are not public, PROJ-CONV-TS3) with the memory left as it was.
set -u
tool=${1:?usage: e2e_testsem_refused.sh TPBISA_BINARY SOURCE_DIR}
# opcode 0xB4; READ_SEM at 12; 2 slots at 15; semaphores 3 and 7 at 16-17 into registers 1 and 2 at 32-33.
word=$(/usr/bin/python3 -c '
import struct
w = bytearray(64)
struct.pack_into("<BB", w, 0, 0xB4, 16)
w[15], w[16], w[17], w[32], w[33] = 2, 3, 7, 1, 2
print(w.hex())')
gen=mariana gens="mariana maverick" who="TestEventSem (0xb4)" at=sbuf:0:0x0 short=testsem_refused
. "$(dirname "$0")/../../e2e/refused_word.sh"
