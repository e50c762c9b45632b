"""Pool family vectors: GATHER 0x68, INDIRECT_COPY 0xE7, SORT 0x96, POOL 0x45 and CROSS_LANE_REDUCE 0x7C/0x7D
(opcode-research.md §A.2.6). Baselines are synthetic words built from the public layouts; every expected failing set
is derived by hand from the predicate bodies the sources quote, never from running the library. Ids start "pl-".
"""

import struct

from vectorlib import *  # noqa: F401,F403  (the generations, enum values, predicate names and vec())

# GT: indices u32 in SB 0x1000 {8,1,1,1}, 2 channels, FP32 out to SB 0x2000 {8,1,1,1}.
GT = "68100000000000000000000000100000010000000000000008000100010001000" \
     "90a020000000000000000000020000001000000000000000800010001000100"
# IC: indices SB 0x1000, data SB 0x2000, 8 elements, FP32, 16 channels, 2 per index, buffer 64, dst SB 0x3000 {8}.
IC = "e7100000000000000000000000100000002000000800000000000000000000000" \
     "a0a100200004000000000000030000001000000000000000800010001000100"
# SO: 1 channel, FP32, IS_LT, src SB 0x1000 x6, dst SB 0x2000 {2,6} steps {1,2}, index_offset 100, stable.
SO = "9610000000000000000000000100aa160010000001000600002000000100020" \
     "00200060064000000010000000000000000000000000000000000000000000000"
# PL: 4x4 -> 2x2 max pool, FP32, 2 channels, XY, scale 1.0, src SB 0x1000, dst SB 0x2000.
PL = "45100000000000000000000000100000010004000200080002000200020002000" \
     "a0a0200010300000000803f0020000001000200010001000200020001000100"
# CR: ADD over ALL of 4 channels x 4 FP32 from SB 0x1000 to one element at SB 0x2000.
CR = "7c100000000000000000000000100000010000000000000004000100010001000" \
     "a0a040000000000000000000020000001000000000000000100010001000100"

OPC = "has_cross_lane_reduce_opcode"


def word(x, u8=(), u16=(), u32=()):
    """The baseline x with bytes, u16 and u32 (little-endian) poked at their offsets."""
    w = bytearray(bytes.fromhex(x))
    assert len(w) == 64
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
    for g in gens:
        vec(f"{vid}-{g}", (g,), failing, make(g))


def add():
    """Adds the family's vectors through vec()."""
    # ---- The shared header and events conjuncts of every validator ----
    for name, base in (("gt", GT), ("ic", IC), ("so", SO), ("pl", PL), ("cr", CR)):
        vec(f"pl-{name}-word-len", ALL, [HDR], word(base, u8=[(1, 15)]))
        vec(f"pl-{name}-wait-0x08", ALL, ["has_valid_neuron_events"], word(base, u8=[(4, 0x08)]))

    # ---- GATHER ----
    vec("pl-gt-base", ALL, [], word(GT))
    for d in (U8, U16):
        vec(f"pl-gt-index-{d}", ALL, [], word(GT, u8=[(32, d)]))
    vec("pl-gt-index-fp32", ALL, ["has_gather_index_dtype"], word(GT, u8=[(32, FP32)]))
    vec("pl-gt-out-u64", ALL, [VDT], word(GT, u8=[(33, U64)]))
    vec("pl-gt-out-fp32r", ALL, [VDT], word(GT, u8=[(33, FP32R)]))
    vec("pl-gt-nac0", ALL, [CHR], word(GT, u8=[(34, 0)]))
    per_gen("pl-gt-src-start", ALL, [SACH], lambda g: word(GT, u32=[(12, p127(g))]))
    per_gen("pl-gt-dst-start", ALL, [SACH], lambda g: word(GT, u32=[(44, p127(g))]))
    vec("pl-gt-src-align", ALL, [T4D], word(GT, u32=[(12, 0x1002)]))
    vec("pl-gt-dst-align", ALL, [T4D], word(GT, u32=[(44, 0x2002)]))
    # PSUM (0x02000000, partition 0 of PSUM below MAVERICK) is allowed on SUNDA..MARIANA; MAVERICK has no PSUM.
    vec("pl-gt-psum", SCM, [], word(GT, u32=[(44, 0x02000000)]))
    vec("pl-gt-count", ALL, ["gather_same_src_dst_count"], word(GT, u16=[(56, 4)]))
    vec("pl-gt-pads", ALL, [], word(GT, u8=[(35, 7), (38, 1), (39, 2)]))  # unnamed bytes are not judged (G71)

    # ---- INDIRECT_COPY ----
    vec("pl-ic-base", ALL, [], word(IC))
    vec("pl-ic-dtype", ALL, ["indirect_copy_same_dtype"], word(IC, u8=[(33, I32)]))
    vec("pl-ic-in-u64", ALL, [VDT], word(IC, u8=[(32, U64), (33, U64)]))
    vec("pl-ic-nac8", ALL, ["indirect_copy_active_channels"], word(IC, u8=[(34, 8)]))
    vec("pl-ic-nac32", ALL, [], word(IC, u8=[(34, 32)]))
    per_gen("pl-ic-part16", ALL, ["indirect_copy_active_channels"],
            lambda g: word(IC, u32=[(44, 16 * (0x100000 if g == MAVERICK else 0x40000) + 0x3000)]))
    per_gen("pl-ic-part32", ALL, [],
            lambda g: word(IC, u32=[(44, 32 * (0x100000 if g == MAVERICK else 0x40000) + 0x3000)]))
    vec("pl-ic-per3", ALL, ["indirect_copy_src_elem_per_idx"], word(IC, u8=[(35, 3)]))
    vec("pl-ic-per32", ALL, [], word(IC, u8=[(35, 32)]))
    vec("pl-ic-per0", ALL, ["indirect_copy_src_elem_per_idx", "indirect_copy_index_count"], word(IC, u8=[(35, 0)]))
    vec("pl-ic-scatter", ALL, ["indirect_copy_gather_only"], word(IC, u8=[(36, 1)]))
    vec("pl-ic-dstbuf", ALL, ["indirect_copy_gather_only"], word(IC, u16=[(40, 4)]))
    vec("pl-ic-buf1", ALL, ["indirect_copy_src_buffer_size"], word(IC, u16=[(38, 1)]))
    vec("pl-ic-many", ALL, ["indirect_copy_index_count"], word(IC, u16=[(20, 8194), (56, 8194)]))
    vec("pl-ic-4096", ALL, [], word(IC, u16=[(20, 8192), (56, 8192)]))
    vec("pl-ic-idx-align", ALL, ["indirect_copy_src_in_sbuf"], word(IC, u32=[(12, 0x1001)]))
    vec("pl-ic-data-psum", SCM, ["indirect_copy_src_in_sbuf"], word(IC, u32=[(16, 0x02000000)]))
    vec("pl-ic-dst-align", ALL, [T4D], word(IC, u32=[(44, 0x3002)]))
    vec("pl-ic-count", ALL, ["indirect_copy_dst_count"], word(IC, u16=[(56, 4)]))
    vec("pl-ic-pads", ALL, [], word(IC, u8=[(37, 1), (42, 5), (22, 9), (31, 3)]))

    # ---- SORT ----
    vec("pl-so-base", ALL, [], word(SO))
    vec("pl-so-res", ALL, ["s1d2_sort_reserved_zero"], word(SO, u8=[(50, 1)]))
    vec("pl-so-bf16", ALL, [], word(SO, u8=[(14, 0x66)]))
    vec("pl-so-i32", ALL, [], word(SO, u8=[(14, 0x88)]))
    vec("pl-so-mixed", ALL, ["sort_dtypes_ok"], word(SO, u8=[(14, 0xA6)]))
    # UINT8 is neither a 16- nor a 32-bit sort dtype, so the size bound of the shapes predicate fails too.
    vec("pl-so-u8", ALL, ["sort_dtypes_ok", "sort_tensor_shapes_ok"], word(SO, u8=[(14, 0x33)]))
    vec("pl-so-immsrc", ALL, ["is_valid_enum(ImmSrc)"], word(SO, u8=[(13, 3)]))
    vec("pl-so-desc", ALL, [], word(SO, u8=[(15, 0x13)]))
    vec("pl-so-alu", ALL, ["sort_valid_aluop"], word(SO, u8=[(15, 0x04)]))
    vec("pl-so-stable", ALL, ["sort_valid_stable"], word(SO, u8=[(40, 2)]))
    vec("pl-so-unstable", ALL, [], word(SO, u8=[(40, 0)]))
    vec("pl-so-x3", ALL, ["sort_tensor_shapes_ok"], word(SO, u16=[(32, 3)]))
    vec("pl-so-topk", ALL, ["sort_tensor_shapes_ok"], word(SO, u16=[(34, 4)]))  # strict predicate (G72)
    # 32-bit: N x channels <= 2048; 16-bit: <= 4096.
    vec("pl-so-2048", ALL, [], word(SO, u8=[(12, 2)], u16=[(22, 1024), (34, 1024)]))
    vec("pl-so-2049", ALL, ["sort_tensor_shapes_ok"], word(SO, u8=[(12, 3)], u16=[(22, 683), (34, 683)]))
    vec("pl-so-4096-16b", ALL, [], word(SO, u8=[(12, 4), (14, 0x77)], u16=[(22, 1024), (34, 1024)]))
    vec("pl-so-psum", SCM, ["sort_tensor_shapes_ok"], word(SO, u32=[(24, 0x02000000)]))

    # ---- POOL ----
    vec("pl-pl-base", ALL, [], word(PL))
    vec("pl-pl-avg", ALL, [], word(PL, u8=[(36, 2)], u32=[(40, 0x3E800000)]))
    vec("pl-pl-res", ALL, ["s4d4_pl_reserved_zero"], word(PL, u8=[(35, 1)]))
    vec("pl-pl-res1", ALL, ["s4d4_pl_reserved_zero"], word(PL, u8=[(39, 1)]))
    vec("pl-pl-in-fp32r", ALL, [VDT], word(PL, u8=[(32, FP32R)]))
    vec("pl-pl-out-fp32r", ALL, [], word(PL, u8=[(33, FP32R)]))
    vec("pl-pl-out-u64", ALL, [VDT], word(PL, u8=[(33, U64)]))
    per_gen("pl-pl-src-start", ALL, [SACH], lambda g: word(PL, u32=[(12, p127(g))]))
    per_gen("pl-pl-dst-start", ALL, [SACH], lambda g: word(PL, u32=[(44, p127(g))]))
    vec("pl-pl-none", ALL, ["has_valid_pooltype"], word(PL, u8=[(36, 0)]))
    vec("pl-pl-func3", ALL, ["has_valid_pooltype"], word(PL, u8=[(36, 3)]))
    vec("pl-pl-dim1", ALL, ["is_valid_subdim"], word(PL, u8=[(37, 1)]))
    vec("pl-pl-dim0", ALL, ["is_valid_subdim"], word(PL, u8=[(37, 0)]))
    vec("pl-pl-dim5", ALL, [], word(PL, u8=[(37, 5)]))
    vec("pl-pl-nac0", ALL, [CHR], word(PL, u8=[(34, 0)]))
    vec("pl-pl-src-align", ALL, [T4D], word(PL, u32=[(12, 0x1002)]))
    vec("pl-pl-dst-align", ALL, [T4D], word(PL, u32=[(44, 0x2002)]))
    vec("pl-pl-psum", SCM, [], word(PL, u32=[(12, 0x02000000)]))
    vec("pl-pl-scale", ALL, ["s4d4_pool_scale_valid"], word(PL, u32=[(40, 0x40000000)]))

    # ---- CROSS_LANE_REDUCE ----
    vec("pl-cr-base", ALL, [], word(CR))
    vec("pl-cr-bitvec", ALL, [], word(CR, u8=[(0, 0x7D), (32, U32), (33, U32), (35, 5)]))
    vec("pl-cr-res", ALL, ["s4d4_cr_reserved_zero"], word(CR, u8=[(37, 1)]))
    vec("pl-cr-in-fp32r", ALL, [VDT], word(CR, u8=[(32, FP32R)]))
    vec("pl-cr-out-fp32r", ALL, [], word(CR, u8=[(33, FP32R)]))
    vec("pl-cr-out-u64", ALL, [VDT], word(CR, u8=[(33, U64)]))
    per_gen("pl-cr-src-start", ALL, [SACH], lambda g: word(CR, u32=[(12, p127(g))]))
    per_gen("pl-cr-dst-p127", ALL, [], lambda g: word(CR, u32=[(44, p127(g))]))  # one channel fits
    vec("pl-cr-dst-outside", ALL, [SACH, T4D], word(CR, u32=[(44, 0x10000000)]))  # neither SBUF nor PSUM
    vec("pl-cr-nac0", ALL, [CH], word(CR, u8=[(34, 0)]))
    vec("pl-cr-src-align", ALL, [T4D], word(CR, u32=[(12, 0x1002)]))
    vec("pl-cr-dst-align", ALL, [T4D], word(CR, u32=[(44, 0x2002)]))
    vec("pl-cr-psum", SCM, [T4D], word(CR, u32=[(44, 0x02000000)]))
    vec("pl-cr-axis2", ALL, ["valid_reduce_axis_enum"], word(CR, u8=[(36, 2)]))
    vec("pl-cr-all-count", ALL, ["valid_axis_dst_element_cnt"], word(CR, u16=[(56, 2)]))
    vec("pl-cr-part", ALL, [], word(CR, u8=[(36, 1)], u16=[(56, 4)]))
    vec("pl-cr-part-count", ALL, ["valid_axis_dst_element_cnt"], word(CR, u8=[(36, 1)]))
    vec("pl-cr-op", ALL, ["cross_lane_reduce_valid_op"], word(CR, u8=[(35, 3)]))
    vec("pl-cr-op-bitvec", ALL, ["cross_lane_reduce_valid_op"], word(CR, u8=[(0, 0x7D)]))
    vec("pl-cr-avg", ALL, [], word(CR, u8=[(35, 1)], u32=[(40, 0x3E800000)]))
