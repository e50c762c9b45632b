"""Read-indices vectors: DVE_READ_INDICES 0xE9 on D4_MR (dve-read-state.md §4.2, §6; our names PROJ-CONV-A32).

Added to tests/vectors/validate.tsv by tests/vectors/make_validate_vectors.py. Every expected failing set is
derived by hand from the wiki's predicate bodies, never from running the library (see vectorlib.py). The opcode is
CAYMAN and later, so every vector holds on CAYMAN, MARIANA and MAVERICK only.
"""

import struct

from vectorlib import *  # noqa: F401,F403  (the generations, enum values, predicate names and vec())

EVT = "has_valid_neuron_events"
T4D = "tensor4d_valid"
RES = "d4_mr_reserved_zero"
SER = "d4_mr_zero_serialization"
DT = "is_valid_dtype_dve_read_indices"
CNT = "dve_read_indices_elem_count_8"
PAT = "dve_read_indices_dst_pattern_count"
VAL = "d4_mr_zero_set_value"
SHAPE_REG = 0x40000000  # ADDR4 marker bit 0x40: the shape comes from a register (CAYMAN+)


def sb(p, off, maverick=False):
    return p * (0x100000 if maverick else 0x40000) + off


def ri(count=8, dtype=U32, nac=4, serial=0, value=0, dst=0x2000, dst_num=(8, 1, 1, 1), hdr=None, pokes=()):
    """D4_MR: count @28, dtype @32, channels @34, serialization @36, set_value @40, dst TENSOR4D @44 (steps 1,0,0,0).
    Baseline: four channels' eight UINT32 indices at SB p0+0x2000."""
    w = bytearray(64)
    header(w, 0xE9, **(hdr or {}))
    struct.pack_into("<I", w, 28, count)
    w[32], w[34], w[36] = dtype, nac, serial
    struct.pack_into("<I", w, 40, value)
    struct.pack_into("<I4h4H", w, 44, dst, 1, 0, 0, 0, *dst_num)
    for off, val in pokes:
        w[off] = val
    return w


def add():
    """Adds the family's vectors through vec()."""
    vec("ri-base", CMV, [], ri())
    vec("ri-u16", CMV, [], ri(dtype=U16))
    vec("ri-word-len", CMV, [HDR], ri(hdr={"word_len": 15}))
    vec("ri-wait-0x08", CMV, [EVT], ri(hdr={"wait_mode": 0x08}))
    for b in [12, 27, 33, 35, 37, 39]:
        vec(f"ri-reserved-b{b}", CMV, [RES], ri(pokes=[(b, 0x01)]))
    vec("ri-serial", CMV, [SER], ri(serial=1))
    vec("ri-fp32", CMV, [DT], ri(dtype=FP32))
    vec("ri-u8", CMV, [DT], ri(dtype=U8))
    vec("ri-i32", CMV, [DT], ri(dtype=I32))
    vec("ri-nac-0", CMV, [CHR], ri(nac=0))
    vec("ri-nac-128", CMV, [], ri(nac=128))
    vec("ri-nac-129", CMV, [CHR, SACH], ri(nac=129))
    vec("ri-dst-p1", (CAYMAN, MARIANA), [SACH], ri(nac=128, dst=sb(1, 0x2000)))
    vec("ri-dst-p1/maverick", V, [SACH], ri(nac=128, dst=sb(1, 0x2000, True)))
    vec("ri-dst-unaligned", CMV, [T4D], ri(dst=0x2002))
    vec("ri-dst-u16-2-aligned", CMV, [], ri(dtype=U16, dst=0x2002))
    vec("ri-count-7", CMV, [CNT], ri(count=7))
    vec("ri-pattern-4x2", CMV, [], ri(dst_num=(4, 2, 1, 1)))
    vec("ri-pattern-9", CMV, [PAT], ri(dst_num=(9, 1, 1, 1)))
    vec("ri-count-9-pattern-9", CMV, [CNT, PAT], ri(count=9, dst_num=(9, 1, 1, 1)))
    vec("ri-set-value", CMV, [VAL], ri(value=1))
    # A register-shaped destination passes the pattern's count (PROJ-CONV-A32); dst_element_count is still 8.
    vec("ri-shape-reg", CMV, [], ri(dst=SHAPE_REG | 0x2000, dst_num=(0, 0, 0, 0)))
