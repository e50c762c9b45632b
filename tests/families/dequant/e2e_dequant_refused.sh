#!/usr/bin/env bash
# TENSOR_DEQUANTIZE end to end: a word packed by hand at the wiki's offsets, disassembled and assembled back, validated, and
# refused by `tpbisa run` (its semantics are not public, PROJ-CONV-DQ3) with the memory left as it was.
set -u
tool=${1:?usage: e2e_dequant_refused.sh TPBISA_BINARY SOURCE_DIR}
# opcode 0x7B; src TENSOR3D at 12 (32 UINT32 words at SBUF 0x0); UINT32 in/out at 32-33, 64 channels, E2M1TO_E5M2 at 35; dst TENSOR3D at 44 (64 words at SBUF 0x1000).
word=$(/usr/bin/python3 -c '
import struct
w = bytearray(64)
struct.pack_into("<BB", w, 0, 0x7B, 16)
struct.pack_into("<I3h3H", w, 12, 0x0, 1, 0, 0, 32, 1, 1)
w[32], w[33], w[34], w[35] = 0x09, 0x09, 64, 1
struct.pack_into("<I3h3H", w, 44, 0x1000, 1, 0, 0, 64, 1, 1)
print(w.hex())')
gen=cayman gens="cayman mariana maverick" who="TensorDequantize (0x7b)" at=sbuf:0:0x1000 short=dequant_refused
. "$(dirname "$0")/../../e2e/refused_word.sh"
