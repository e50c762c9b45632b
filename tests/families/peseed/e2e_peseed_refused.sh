#!/usr/bin/env bash
# PE_MANAGE_SEED end to end: a word packed by hand at the wiki's offsets, disassembled and assembled back, validated, and
# refused by `tpbisa run` (its semantics are not public, PROJ-CONV-PS3) with the memory left as it was.
set -u
tool=${1:?usage: e2e_peseed_refused.sh TPBISA_BINARY SOURCE_DIR}
# opcode 0x08; src TENSOR2D at 12 (128 seeds at SBUF 0x1000); identity TENSOR1D at 24 (16 BF16 at 0x2000); BF16, LOAD_SEED, 16 rows, 128 columns at 32-35.
word=$(/usr/bin/python3 -c '
import struct
w = bytearray(64)
struct.pack_into("<BB", w, 0, 0x08, 16)
struct.pack_into("<I2h2H", w, 12, 0x1000, 1, 0, 128, 1)
struct.pack_into("<IhH", w, 24, 0x2000, 1, 16)
w[32], w[33], w[34], w[35] = 0x06, 1, 16, 128
print(w.hex())')
gen=mariana gens="mariana maverick" who="PeManageSeed (0x08)" at=sbuf:0:0x1000 short=peseed_refused
. "$(dirname "$0")/../../e2e/refused_word.sh"
