"""Sparse matmul vectors: S4D3_MM (0x07 MATMUL_SPARSE), the layout of the wiki's PE matmul page §9
(opcode-research.md §A.2.11; PROJ-CONV-SP1). Added to tests/vectors/validate.tsv by make_validate_vectors.py.

Every expected failing set is derived by hand from the predicate bodies docs/conventions.md gives for
is_valid_s4d3_mm (PROJ-CONV-SP3, SP4) and MATMUL's rules (real-programs.md §9.2), never from running the library.
Ids start with "sp-". One accepting and one rejecting word per predicate per generation (CAYMAN, MARIANA,
MAVERICK).
"""

import struct

from vectorlib import CMV, ENGINES, HDR, MV, PLACE, T4D, C, header, vec

CAYMAN, MARIANA, MAVERICK = "cayman", "mariana", "maverick"
BF16, FP16, FP32, U8, FP8E4 = 0x06, 0x07, 0x0A, 0x03, 0x0E

# ---- predicate names ----
RES = "s4d3_mm_reserved_zero"
IN = "has_valid_mm_in_dtype"
OUT = "has_valid_mm_out_dtype"
FP32M = "s4d3_mm_valid_fp32_mode"
PERF = "s4d3_mm_perf_opt_dtype"
FMAPS = "s4d3_mm_valid_num_fmaps"
ACC = "s4d3_mm_valid_accumulate_flags"
ZERO = "s4d3_mm_valid_zero_region"
ROWS = "s4d3_mm_valid_num_active_rows"
COLS = "s4d3_mm_valid_num_active_cols"
RGRP = "s4d3_mm_valid_row_group"
CGRP = "s4d3_mm_full_col_group"
RMODE = "s4d3_mm_valid_active_row_mode"
DST = "s4d3_mm_valid_dst"
COUNT = "s4d3_mm_num_elements"
SQ = "valid_mm_sbuf_quadrant"
PQ = "valid_mm_psum_quadrant"

# dst 0x2000000: PSUM partition 0 on CAYMAN and MARIANA; SBUF partition 32 on MAVERICK, which has no PSUM
# (memory-and-numerics.md §2: 1 MiB partitions), where 96 columns end at partition 127.
DST0 = 0x2000000


def sb_part(gen, p):
    """Start of SBUF partition p (256 KiB stride, 1 MiB on MAVERICK)."""
    return p * (0x100000 if gen == MAVERICK else 0x40000)


def dst_part1(gen):
    """The destination one partition on: PSUM partition 1 (32 KiB stride); MAVERICK's SBUF partition 33."""
    return DST0 + (0x100000 if gen == MAVERICK else 0x8000)


def mm(src=0x0, src_num=(64, 1, 1, 4), in_dt=BF16, fp32_mode=0, out_dt=0, perf=0, rows=128, cols=96, acc=3,
       row_grp=0x0F, col_grp=0x0F, row_mode=0, zero=0, dst=DST0, dst_num=(64, 1, 1), pokes=(), hdr=None):
    """MATMUL_SPARSE: 4 BF16 fmaps of 64 elements from SBUF 0x0 (fmap k at element 64k), 128 rows, 96 columns,
    SINGLE, into 64 FP32 elements at DST0."""
    w = bytearray(64)
    header(w, 0x07, **(hdr or {}))
    struct.pack_into("<I4h4H", w, 12, src, 1, 0, 0, 64, *src_num)
    struct.pack_into("<BBBB", w, 32, in_dt, fp32_mode, out_dt, perf)
    w[38], w[39], w[43], w[44], w[45], w[46], w[47] = rows, cols, acc, row_grp, col_grp, row_mode, zero
    struct.pack_into("<I3h3H", w, 48, dst, 1, 0, 0, *dst_num)
    for off, val in pokes:
        w[off] = val
    return w


def add():
    """Adds the family's vectors through vec()."""
    vec("sp-base", CMV, [], mm())
    vec("sp-2-fmaps", CMV, [], mm(src_num=(64, 1, 1, 2)))
    vec("sp-3-fmaps", CMV, [], mm(src_num=(64, 1, 1, 3)))
    vec("sp-fp32", CMV, [], mm(in_dt=FP32, fp32_mode=1))
    vec("sp-fp8-perf", CMV, [], mm(in_dt=FP8E4, perf=1))
    vec("sp-row-mode-1", CMV, [], mm(row_mode=1))
    vec("sp-rows-64", CMV, [], mm(rows=64, row_grp=0x03))
    vec("sp-multi-mid", CMV, [], mm(acc=0))
    vec("sp-src-register", CMV, [], mm(src=0x80000005))
    vec("sp-hdr", CMV, [HDR], mm(hdr={"word_len": 15}))
    vec("sp-events", CMV, ["has_valid_neuron_events"], mm(hdr={"wait_mode": 0x08}))
    vec("sp-res36", CMV, [RES], mm(pokes=[(36, 1)]))
    vec("sp-res42", CMV, [RES], mm(pokes=[(42, 0x80)]))
    vec("sp-in-u8", CMV, [IN], mm(in_dt=U8))
    # out_dtype: 0 everywhere; FP32 and BF16 from MARIANA on; FP16 nowhere.
    vec("sp-out-fp32", MV, [], mm(out_dt=FP32))
    vec("sp-out-bf16", MV, [], mm(out_dt=BF16))
    vec("sp-out-fp32/cayman", C, [OUT], mm(out_dt=FP32))
    vec("sp-out-fp16", CMV, [OUT], mm(out_dt=FP16))
    vec("sp-fp32-mode-bf16", CMV, [FP32M], mm(fp32_mode=1))
    vec("sp-fp32-mode-none", CMV, [FP32M], mm(in_dt=FP32))
    vec("sp-perf-bf16", CMV, [PERF], mm(perf=1))
    vec("sp-fmaps-1", CMV, [FMAPS], mm(src_num=(64, 1, 1, 1)))
    vec("sp-fmaps-5", CMV, [FMAPS], mm(src_num=(64, 1, 1, 5)))
    vec("sp-acc-4", CMV, [ACC], mm(acc=4))
    vec("sp-zero-1", MV, [], mm(zero=1))
    vec("sp-zero-3", MV, [], mm(zero=3))
    vec("sp-zero-1/cayman", C, [ZERO], mm(zero=1))
    vec("sp-zero-4", CMV, [ZERO], mm(zero=4))
    vec("sp-rows-0", CMV, [ROWS], mm(rows=0))
    # 129 rows: past 128, and more than row_grp 0x0f's four quadrants cover.
    vec("sp-rows-129", CMV, [ROWS, RGRP], mm(rows=129))
    for gen in CMV:
        # Partition 32 + 128 rows runs past partition 127 (the quadrant rule holds: 32 is one).
        vec(f"sp-rows-past-127/{gen}", (gen,), [ROWS], mm(src=sb_part(gen, 32)))
        vec(f"sp-sbuf-quadrant/{gen}", (gen,), [SQ], mm(src=sb_part(gen, 1), rows=127))
        vec(f"sp-psum-quadrant/{gen}", (gen,), [PQ], mm(dst=dst_part1(gen), cols=95))
        # An immediate destination outside its region: SBUF 0x8000 is right only on MAVERICK.
        vec(f"sp-dst-sbuf/{gen}", (gen,), [] if gen == MAVERICK else [DST], mm(dst=0x8000))
    vec("sp-cols-0", CMV, [COLS], mm(cols=0))
    vec("sp-cols-129", CMV, [COLS, DST], mm(cols=129))
    vec("sp-row-grp-5", CMV, [RGRP], mm(row_grp=0x05))
    vec("sp-row-grp-short", CMV, [RGRP], mm(row_grp=0x01))
    vec("sp-col-grp-3", CMV, [CGRP], mm(col_grp=0x03))
    vec("sp-row-mode-2", CMV, [RMODE], mm(row_mode=2))
    vec("sp-src-odd", CMV, [T4D], mm(src=0x1))
    # A zero count in a fmap's dimensions leaves src empty and one fmap with 0 elements, not dst's 64.
    vec("sp-src-zero-count", CMV, [T4D, COUNT], mm(src_num=(0, 1, 1, 4)))
    vec("sp-dst-odd", CMV, [DST], mm(dst=DST0 + 2))
    vec("sp-dst-register", CMV, [], mm(dst=0x80000006))
    # CAYMAN, MARIANA: bytes 0x7c0..0x8bf of PSUM partition 0 cross from bank 0 into bank 1.
    vec("sp-dst-two-banks", (CAYMAN, MARIANA), [DST], mm(dst=DST0 + 0x7C0))
    vec("sp-dst-two-banks/maverick", (MAVERICK,), [], mm(dst=DST0 + 0x7C0))
    vec("sp-count", CMV, [COUNT], mm(dst_num=(32, 1, 1)))
    vec("sp-count-all-fmaps", CMV, [COUNT], mm(dst_num=(256, 1, 1)))
    # Engine placement (PROJ-CONV-F1): MATMUL_SPARSE only on PE.
    for gen in CMV:
        for engine in ENGINES:
            vec(f"sp-on-{engine.lower()}/{gen}", (gen,), [] if engine == "PE" else [PLACE], mm(), f"engine={engine}")
