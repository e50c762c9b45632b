"""Compact-control vectors: CTRL_CCI (0xB6 COMPACT_CONTROL_INST, MAVERICK), the layout the wiki quotes from the
header (dma-transpose-opcode-cluster.md §2, §3g; PROJ-CONV-CC1, CC2). Added to tests/vectors/validate.tsv by
make_validate_vectors.py.

Every expected failing set is derived by hand from the three conjuncts the wiki gives for is_valid_ctrl_cci
(has_valid_neuron_header, has_tile_idx_zero, has_cci_opcode), never from running the library. The word has no EVENTS:
bytes 4-11 are its first two compact instructions, and no value there fails it. Ids start with "cc-". MAVERICK only.
"""

import struct

from vectorlib import HDR, V, vec

TILE = "has_tile_idx_zero"


def cc(insts=((0x02, 3, 0x34, 0x12), (0x10, 3, 4, 5)), word_len=16, debug_cmd=0, debug_hint=0):
    """COMPACT_CONTROL_INST: MOV_IMM_LO r3 = 0x1234, ADD r5 = r3 + r4, then NOPs."""
    w = bytearray(64)
    struct.pack_into("<BBBB", w, 0, 0xB6, word_len, debug_cmd, debug_hint)
    for k, inst in enumerate(insts):
        struct.pack_into("<BBBB", w, 4 + 4 * k, *inst)
    return w


def add():
    """Adds the family's vectors through vec()."""
    vec("cc-base", V, [], cc())
    vec("cc-nops", V, [], cc(insts=()))
    vec("cc-fifteen", V, [], cc(insts=[(0xA0 + k % 12, k, k + 1, k + 2) for k in range(15)]))
    # Read as EVENTS, bytes 4 and 6 would be wait and update modes of no enum: they are compact instructions.
    vec("cc-bytes-4-11-not-events", V, [], cc(insts=((0xEE, 0xFF, 0xEE, 0xFF), (0xFF, 0xFF, 0xFF, 0xFF))))
    vec("cc-unnamed-ops", V, [], cc(insts=((0x18, 1, 2, 3), (0xF7, 0, 0, 0), (0x60, 1, 2, 3))))
    vec("cc-tile-1", V, [TILE], cc(debug_hint=1))
    vec("cc-tile-0x80", V, [TILE], cc(debug_hint=0x80))
    vec("cc-hdr-len-15", V, [HDR], cc(word_len=15))
    vec("cc-hdr-len-0-tile", V, [HDR, TILE], cc(word_len=0, debug_hint=3))
