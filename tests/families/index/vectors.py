"""Index family vectors: IOTA 0x7E, TENSOR_SCALAR_AFFINE_SELECT 0x92, RANGE_SELECT 0xBC, GET_SEQUENCE_BOUNDS 0xBE and
NONZERO_WITH_COUNT 0xF2 (act-index-ops.md §9-§13). Baselines are the spec's synthetic words X9-X13; every expected
failing set is derived by hand from the spec's predicate bodies, never from running the library. Ids start "ix-".
"""

import struct

from vectorlib import *  # noqa: F401,F403  (the generations, enum values, predicate names and vec())

X9 = "7e100000000000000000000005000000 01000a00000000000300020001000100 00080200640000000000000000100000 01000000000000000600010001000100"
X10 = "92100000000000000000000004aa0105 00000000ffff00000000000004000100 01000100001000000100000004000100 00200000010000000400010001000000"
X11 = "bc100000000000000000000001aa0308 00000000ffff7fff0010000001000000 0800010014160000000000400000a040 00200000010000000800010000000000"
X12 = "be100000000000000000000001000808 00100000010000000000090001000100 00200000010000000900090001000200 00000000000000000000000000000000"
X13 = "f21000000000000000000000110a0800 00100000010000000000080001000100 1000000000000000ffffffff00200000 01000000000009000100010000000000"

T2D, T3D_ = "tensor2d_valid", "tensor3d_valid"
IMM = "has_valid_immediates"
FPD = "is_valid_fp_dtype_datapath"


def word(x, u8=(), u16=(), u32=()):
    """The spec word x with bytes, u16 and u32 (little-endian) poked at their offsets."""
    w = bytearray(bytes.fromhex(x.replace(" ", "")))
    for off, v in u8:
        w[off] = v
    for off, v in u16:
        struct.pack_into("<H", w, off, v)
    for off, v in u32:
        struct.pack_into("<I", w, off, v)
    return w


def p127(gen):
    """A start in SBUF partition 127 (256 KiB partition stride, 1 MiB on MAVERICK)."""
    return 127 * (0x100000 if gen == MAVERICK else 0x40000) + 0x1000


def per_gen(vid, gens, failing, make):
    """One vector per generation (the word depends on the generation's partition stride)."""
    for g in gens:
        vec(f"{vid}-{g}", (g,), failing, make(g))


def add():
    """Adds the family's vectors through vec()."""
    # ---- IOTA (§9.2): X9 = 2 channels, INT32, dst SB 0x1000 {6,1,1,1} ----
    vec("ix-iota-X9", ALL, [], word(X9))
    vec("ix-iota-res", ALL, ["d4_iota_reserved_zero"], word(X9, u8=[(35, 1)]))
    vec("ix-iota-fp32r", ALL, [], word(X9, u8=[(33, FP32R)]))  # FP32R allowed for the output
    vec("ix-iota-dt", ALL, [VDT], word(X9, u8=[(33, U64)]))
    vec("ix-iota-nac0", ALL, [CHR], word(X9, u8=[(34, 0)]))
    vec("ix-iota-nac129", ALL, [CHR, SACH], word(X9, u8=[(34, 129)]))
    per_gen("ix-iota-start", ALL, [SACH], lambda g: word(X9, u32=[(44, p127(g))]))
    vec("ix-iota-align", ALL, [T4D], word(X9, u32=[(44, 0x1002)]))
    vec("ix-iota-count", ALL, ["d4_iota_same_src_dst_count"], word(X9, u8=[(56, 5)]))
    # PROJ-CONV-A18: dst with shape_from_register (marker 0x40) waives the count on CAYMAN+ only; on SUNDA the zero
    # count also fails tensor4d_valid (no escape, PROJ-CONV-C18).
    vec("ix-iota-sfr", CMV, [], word(X9, u8=[(56, 0), (47, 0x40)]))
    vec("ix-iota-sfr-s", S, [T4D, "d4_iota_same_src_dst_count"], word(X9, u8=[(56, 0), (47, 0x40)]))

    # ---- AFFINE_SELECT (§10.2): X10 = 4 channels, FP32 -> FP32, src SB 0x1000, dst SB 0x2000, GE, R5 ----
    vec("ix-as-X10", ALL, [], word(X10))
    vec("ix-as-nac0", ALL, [CHR], word(X10, u8=[(12, 0)]))
    vec("ix-as-src-align", ALL, [T2D], word(X10, u32=[(36, 0x1002)]))
    vec("ix-as-dst-align", ALL, [T2D], word(X10, u32=[(48, 0x2002)]))
    # PSUM (0x02000000 = PSUM partition 0 below MAVERICK, 4-byte FP32) is allowed on SUNDA only.
    vec("ix-as-psum", S, [], word(X10, u32=[(48, 0x02000000)]))
    vec("ix-as-psum-cm", (CAYMAN, MARIANA), [T2D], word(X10, u32=[(48, 0x02000000)]))
    per_gen("ix-as-src-start", ALL, [SACH], lambda g: word(X10, u32=[(36, p127(g))]))
    per_gen("ix-as-dst-start", ALL, [SACH], lambda g: word(X10, u32=[(48, p127(g))]))
    vec("ix-as-count", ALL, ["s2d2_ts_as_valid_elem_count"], word(X10, u8=[(28, 3)]))
    vec("ix-as-dtypes", ALL, ["s2d2_ts_as_valid_dtypes"], word(X10, u8=[(13, 0xAB)]))  # in FP32R
    vec("ix-as-dtypes-out-fp32r", ALL, [], word(X10, u8=[(13, 0xBA)]))
    vec("ix-as-mode", ALL, ["is_valid_enum(AffineSelectCmp)"], word(X10, u8=[(14, 4)]))
    vec("ix-as-mode3", ALL, [], word(X10, u8=[(14, 3)]))
    vec("ix-as-reg", ALL, ["is_valid_register_read"], word(X10, u8=[(15, 64)]))
    vec("ix-as-reg63", ALL, [], word(X10, u8=[(15, 63)]))

    # ---- RANGE_SELECT (§11.2): X11 = 1 channel, FP32/FP32, ZERO_ACCUMULATE MAX, src {8,1}, GE 2.0 / LT 5.0 ----
    vec("ix-rs-X11", CMV, [], word(X11))
    vec("ix-rs-sunda", S, [HDR], word(X11))
    per_gen("ix-rs-src-start", CMV, [SACH], lambda g: word(X11, u8=[(12, 2)], u32=[(24, p127(g))]))
    per_gen("ix-rs-dst-start", CMV, [SACH], lambda g: word(X11, u8=[(12, 2)], u32=[(48, p127(g))]))
    vec("ix-rs-src-align", CMV, [T2D], word(X11, u32=[(24, 0x1002)]))
    vec("ix-rs-dst-align", CMV, [T2D], word(X11, u32=[(48, 0x2002)]))
    vec("ix-rs-count", CMV, ["has_same_elem_count_rs_src_dst"], word(X11, u8=[(56, 7)]))
    vec("ix-rs-base-2p24", CMV, ["has_valid_total_index_range"], word(X11, u32=[(16, 0x4B800000)]))
    vec("ix-rs-base-fits", CMV, [], word(X11, u32=[(16, 0x4B7FFFF8)]))  # 2^24 - 8 + 8 = 2^24
    vec("ix-rs-base-neg", CMV, ["has_valid_total_index_range"], word(X11, u32=[(16, 0xBF800000)]))  # -1.0
    vec("ix-rs-base-nan", CMV, ["has_valid_total_index_range"], word(X11, u32=[(16, 0x7FC00000)]))
    vec("ix-rs-in-int", CMV, [FPD], word(X11, u8=[(13, 0xA8)]))
    vec("ix-rs-out-int", CMV, [FPD], word(X11, u8=[(13, 0x8A)]))
    vec("ix-rs-out-bf16", CMV, [], word(X11, u8=[(13, 0x6A)]))
    vec("ix-rs-fill", CMV, ["is_valid_fill_val"], word(X11, u32=[(20, 0xFF800000)]))
    vec("ix-rs-comp0", CMV, ["is_valid_rs_comp_op"], word(X11, u8=[(36, ADD)]))
    vec("ix-rs-comp1", CMV, ["is_valid_rs_comp_op"], word(X11, u8=[(37, 0x18)]))  # IS_NE is not in the set
    vec("ix-rs-imm0", CMV, [IMM], word(X11, u8=[(38, 3)]))
    vec("ix-rs-imm1-reg", CMV, [IMM], word(X11, u8=[(39, 2)], u32=[(44, 64)]))
    vec("ix-rs-imm1-reg-ok", CMV, [], word(X11, u8=[(39, 2)], u32=[(44, 63)]))
    vec("ix-rs-imm0-ptr-align", CMV, [IMM], word(X11, u8=[(38, 1)], u32=[(40, 0x3002)]))
    vec("ix-rs-imm0-ptr", CMV, [], word(X11, u8=[(38, 1)], u32=[(40, 0x3000)]))
    vec("ix-rs-nac0", CMV, [CH], word(X11, u8=[(12, 0)]))
    vec("ix-rs-cmd", CMV, ["has_valid_range_select_reduce_cmd"], word(X11, u8=[(14, 1)]))
    vec("ix-rs-cmd-load", CMV, ["has_valid_range_select_reduce_cmd"], word(X11, u8=[(14, 4)]))
    vec("ix-rs-cmd-acc", CMV, [], word(X11, u8=[(14, 2)]))
    vec("ix-rs-op", CMV, ["has_valid_range_select_reduce_op"], word(X11, u8=[(15, 0x09)]))

    # ---- GET_SEQUENCE_BOUNDS (§12.2): X12 = 1 channel, INT32 -> INT32, src {9,1,1}, dst {9,1,2} ----
    SB1 = "has_valid_s3d3_seq_bounds_channels"
    SBT = "has_valid_seq_bounds_dtype"
    vec("ix-sb-X12", CMV, [], word(X12))
    vec("ix-sb-sunda", S, [HDR], word(X12))
    vec("ix-sb-nac0", CMV, [CH, SB1], word(X12, u8=[(12, 0)]))
    vec("ix-sb-nac2", CMV, [SB1], word(X12, u8=[(12, 2)]))
    vec("ix-sb-res", CMV, ["s3d3_seq_bounds_reserved_zero"], word(X12, u8=[(13, 1)]))
    vec("ix-sb-in-fp32r", CMV, [VDT, SBT], word(X12, u8=[(14, FP32R)]))
    vec("ix-sb-out-u64", CMV, [VDT, SBT], word(X12, u8=[(15, U64)]))
    vec("ix-sb-in-u32", CMV, [SBT], word(X12, u8=[(14, U32)]))
    vec("ix-sb-fp32", CMV, [], word(X12, u8=[(14, FP32), (15, FP32)]))
    per_gen("ix-sb-src-start", CMV, [SB1, SACH], lambda g: word(X12, u8=[(12, 2)], u32=[(16, p127(g))]))
    per_gen("ix-sb-dst-start", CMV, [SB1, SACH], lambda g: word(X12, u8=[(12, 2)], u32=[(32, p127(g))]))
    vec("ix-sb-src-align", CMV, [T3D_], word(X12, u32=[(16, 0x1002)]))
    vec("ix-sb-dst-align", CMV, [T3D_], word(X12, u32=[(32, 0x2002)]))
    vec("ix-sb-src-psum", (CAYMAN, MARIANA), [T3D_], word(X12, u32=[(16, 0x02000000)]))  # SBUF only
    vec("ix-sb-count", CMV, ["s3d3_seq_bounds_element_count_check_t3d"], word(X12, u16=[(42, 18), (46, 1)]))

    # ---- NONZERO_WITH_COUNT (§13.2): X13 = 17 channels, FP32 -> INT32, offset 16, padding -1, src {8}, dst {9} ----
    NZT = "has_valid_nonzero_with_count_dtype"
    vec("ix-nz-X13", CMV, [], word(X13))
    vec("ix-nz-sunda", S, [HDR], word(X13))
    vec("ix-nz-nac0", CMV, [CH], word(X13, u8=[(12, 0)]))
    vec("ix-nz-res", CMV, ["s3d3_nonzero_with_count_reserved_zero"], word(X13, u8=[(38, 1)]))
    vec("ix-nz-imm0", CMV, [IMM], word(X13, u8=[(15, 3)]))
    vec("ix-nz-imm1-ptr", CMV, [IMM], word(X13, u8=[(36, 1)], u32=[(40, 0x3002)]))
    vec("ix-nz-imm1-ptr-ok", CMV, [], word(X13, u8=[(36, 1)], u32=[(40, 0x3000)]))
    vec("ix-nz-in-fp32r", CMV, [VDT, NZT], word(X13, u8=[(13, FP32R)]))
    vec("ix-nz-out-u64", CMV, [VDT, NZT], word(X13, u8=[(14, U64)]))
    vec("ix-nz-out-fp32", CMV, [NZT], word(X13, u8=[(14, FP32)]))
    vec("ix-nz-in-i32", CMV, [], word(X13, u8=[(13, I32)]))
    per_gen("ix-nz-src-start", CMV, [SACH], lambda g: word(X13, u32=[(16, p127(g))]))
    per_gen("ix-nz-dst-start", CMV, [SACH], lambda g: word(X13, u32=[(44, p127(g))]))
    vec("ix-nz-src-align", CMV, [T3D_], word(X13, u32=[(16, 0x1002)]))
    vec("ix-nz-dst-align", CMV, [T3D_], word(X13, u32=[(44, 0x2002)]))
    vec("ix-nz-count", CMV, ["s3d3_nonzero_with_count_element_count_check_t3d"], word(X13, u8=[(54, 8)]))

    # ---- header and events of every validator: inst_word_len 15, wait_mode 0xFF (no WAIT_MODE) ----
    for name, x, gens in (("iota", X9, ALL), ("as", X10, ALL), ("rs", X11, CMV), ("sb", X12, CMV), ("nz", X13, CMV)):
        vec(f"ix-{name}-len", gens, [HDR], word(x, u8=[(1, 15)]))
        vec(f"ix-{name}-wait", gens, ["has_valid_neuron_events"], word(x, u8=[(4, 0xFF)]))
