#!/usr/bin/env bash
# SPARSITY_COMPRESS end to end: a word packed by hand at the wiki's offsets, disassembled and assembled back, validated, and
# refused by `tpbisa run` (its semantics are not public, PROJ-CONV-SC3) with the memory left as it was.
set -u
tool=${1:?usage: e2e_sc_refused.sh TPBISA_BINARY SOURCE_DIR}
# opcode 0xE0; FP32 in at 12; src TENSOR3D at 16 (2 groups of 16); BF16 data in UINT32 at 32-33, 64 channels, MAX at 36, X at 37; dst TENSOR3D at 48 (8 elements at SBUF 0x1000).
word=$(/usr/bin/python3 -c '
import struct
w = bytearray(64)
struct.pack_into("<BB", w, 0, 0xE0, 16)
w[12] = 0x0A
struct.pack_into("<I3h3H", w, 16, 0x0, 1, 16, 0, 16, 2, 1)
w[32], w[33], w[34], w[36], w[37] = 0x06, 0x09, 64, 0x09, 0x02
struct.pack_into("<I3h3H", w, 48, 0x1000, 1, 0, 0, 8, 1, 1)
print(w.hex())')
gen=mariana gens="mariana maverick" who="SparsityCompress (0xe0)" at=sbuf:0:0x1000 short=sc_refused
. "$(dirname "$0")/../../e2e/refused_word.sh"
