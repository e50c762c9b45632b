"""PE seed vectors: S2S1D2_PE_SEED (0x08 PE_MANAGE_SEED), the layout the wiki quotes from the header (pe-matmul.md
§4; PROJ-CONV-PS1, PS2). Added to tests/vectors/validate.tsv by make_validate_vectors.py.

Every expected failing set is derived by hand from the conjuncts docs/conventions.md gives for is_valid_s2s1d2_pe_seed
(PROJ-CONV-PS2), never from running the library. Ids start with "ps-". MARIANA and MAVERICK only.
"""

import struct

from vectorlib import ENGINES, HDR, MV, MARIANA, MAVERICK, PLACE, BF16, FP16, FP32, FP32R, FP8E3, FP8E5, U8, header, vec

RES = "s2s1d2_pe_seed_reserved_zero"
MODE = "has_valid_pe_seed_mode"
IDT = "has_valid_pe_seed_identity_dtype"
ROWS = "pe_seed_num_active_rows_16"
COLS = "pe_seed_num_active_cols_128"
T1D = "tensor1d_valid"
SRC = "pe_seed_valid_src"
DST = "pe_seed_valid_dst"

LOAD, SAVE = 1, 2
# dst 0x2000000: PSUM partition 0 on MARIANA; on MAVERICK (no PSUM) SBUF partition 32.
PSUM0 = 0x2000000


def dst0(gen):
    """The SAVE_SEED destination's partition 0: PSUM on MARIANA, SBUF on MAVERICK (PROJ-CONV-N1)."""
    return PSUM0 if gen == MARIANA else 0x0


def ps(src=0x1000, src_num=(128, 1), ident=0x2000, ident_num=16, ident_dt=BF16, mode=LOAD, rows=16, cols=128,
       dst=PSUM0, dst_num=(16, 1), pokes=(), hdr=None):
    """PE_MANAGE_SEED LOAD_SEED: 128 seeds per partition from SBUF 0x1000, a 16-element BF16 identity at 0x2000."""
    w = bytearray(64)
    header(w, 0x08, **(hdr or {}))
    struct.pack_into("<I2h2H", w, 12, src, 1, 0, *src_num)
    struct.pack_into("<IhH", w, 24, ident, 1, ident_num)
    struct.pack_into("<BBBB", w, 32, ident_dt, mode, rows, cols)
    struct.pack_into("<I2h2H", w, 36, dst, 1, 0, *dst_num)
    for off, val in pokes:
        w[off] = val
    return w


def add():
    """Adds the family's vectors through vec()."""
    vec("ps-base", MV, [], ps())
    vec("ps-none", MV, [], ps(mode=0, src=0x1, dst=0x3))
    vec("ps-fp16", MV, [], ps(ident_dt=FP16))
    vec("ps-fp32r", MV, [], ps(ident_dt=FP32R))
    vec("ps-fp8e3", MV, [], ps(ident_dt=FP8E3))
    vec("ps-fp8e5", MV, [], ps(ident_dt=FP8E5))
    vec("ps-src-register", MV, [], ps(src=0x80000005))
    vec("ps-src-16x8", MV, [], ps(src_num=(16, 8)))
    vec("ps-hdr", MV, [HDR], ps(hdr={"word_len": 15}))
    vec("ps-events", MV, ["has_valid_neuron_events"], ps(hdr={"wait_mode": 0x08}))
    vec("ps-res48", MV, [RES], ps(pokes=[(48, 1)]))
    vec("ps-res63", MV, [RES], ps(pokes=[(63, 0x80)]))
    vec("ps-mode-3", MV, [MODE], ps(mode=3))
    vec("ps-id-fp32", MV, [IDT], ps(ident_dt=FP32))
    vec("ps-id-u8", MV, [IDT], ps(ident_dt=U8))
    vec("ps-rows-32", MV, [ROWS], ps(rows=32))
    vec("ps-cols-64", MV, [COLS], ps(cols=64))
    vec("ps-id-odd", MV, [T1D], ps(ident=0x2001))
    vec("ps-id-zero", MV, [T1D], ps(ident_num=0))
    vec("ps-src-odd", MV, [SRC], ps(src=0x1002))
    vec("ps-src-count", MV, [SRC], ps(src_num=(64, 1)))
    vec("ps-src-zero", MV, [SRC], ps(src_num=(0, 1)))
    for gen in MV:
        # LOAD_SEED from partition 1: the seeds live in partitions 0..15.
        p1 = 0x100000 if gen == MAVERICK else 0x40000
        vec(f"ps-src-p1/{gen}", (gen,), [SRC], ps(src=p1 + 0x1000))
        vec(f"ps-save/{gen}", (gen,), [], ps(mode=SAVE, src=0x3, dst=dst0(gen)))
        vec(f"ps-save-odd/{gen}", (gen,), [DST], ps(mode=SAVE, dst=dst0(gen) + 2))
        vec(f"ps-save-count/{gen}", (gen,), [DST], ps(mode=SAVE, dst=dst0(gen), dst_num=(8, 1)))
    # A SAVE_SEED destination in SBUF partition 0: wrong on MARIANA (PSUM), right on MAVERICK.
    vec("ps-save-sbuf/mariana", (MARIANA,), [DST], ps(mode=SAVE, dst=0x0))
    # A LOAD_SEED word leaves dst unread, a SAVE_SEED word src.
    vec("ps-load-dst-ignored", MV, [], ps(dst=0x3))
    # Engine placement (PROJ-CONV-F1): PE_MANAGE_SEED only on PE.
    for gen in MV:
        for engine in ENGINES:
            vec(f"ps-on-{engine.lower()}/{gen}", (gen,), [] if engine == "PE" else [PLACE], ps(), f"engine={engine}")
