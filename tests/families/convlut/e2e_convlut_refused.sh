#!/usr/bin/env bash
# CONV_LUT_LOAD end to end: a word packed by hand at the wiki's offsets, disassembled and assembled back, validated, and
# refused by `tpbisa run` (its semantics are not public, PROJ-CONV-CL3) with the memory left as it was.
set -u
tool=${1:?usage: e2e_convlut_refused.sh TPBISA_BINARY SOURCE_DIR}
# opcode 0xE4; src TENSOR2D at 16 (4 UINT32 units at SBUF 0x0); UINT32 at 32; 128 rows and columns at 38-39; groups 0x0f at 44-45; lut_dtype CPTC1 (0x19) at 47.
word=$(/usr/bin/python3 -c '
import struct
w = bytearray(64)
struct.pack_into("<BB", w, 0, 0xE4, 16)
struct.pack_into("<I2h2H", w, 16, 0x0, 1, 0, 4, 1)
w[32], w[38], w[39], w[44], w[45], w[47] = 0x09, 128, 128, 0x0F, 0x0F, 0x19
print(w.hex())')
gen=cayman gens="cayman mariana maverick" who="ConvLutLoad (0xe4)" at=sbuf:0:0x0 short=convlut_refused
. "$(dirname "$0")/../../e2e/refused_word.sh"
