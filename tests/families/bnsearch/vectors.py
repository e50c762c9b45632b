"""Batch-norm statistics and search vectors: BATCH_NORM_STATS/STATS2/AGGREGATE, MAX8, FIND_INDEX8 (S4D2_BN) and
MATCH_REPLACE8 (S4D4_MR), act-index-ops.md §14.2, §15.2 (compositions PROJ-CONV-A29, types PROJ-CONV-A26, register
shapes PROJ-CONV-A18).

Added to tests/vectors/validate.tsv by tests/vectors/make_validate_vectors.py. Every expected failing set is
derived by hand from the spec's predicate bodies, never from running the library (see vectorlib.py).
"""

import struct

from vectorlib import *  # noqa: F401,F403  (the generations, enum values, predicate names and vec())

EVT = "has_valid_neuron_events"
T2D = "tensor2d_valid"
RES_BN = "s4d2_bn_reserved_zero"
RES_MR = "s4d4_mr_reserved_zero"
STATS2_SRC, STATS2_DST = "has_bnstats2_src_element_cnt", "has_bnstats2_dst_element_cnt"
STATS_SRC, STATS_DST = "has_bnstats_src_element_cnt", "has_bnstats_dst_element_cnt"
OUT_TYPE = "s4d2_bn_stats_out_type"
FIN_E, FIN_O = "has_bns_finite_even_count", "has_bns_finite_odd_count"
AGG_SRC, AGG_DST = "has_bnstats_agg_src_element_cnt", "has_bnstats_agg_dst_element_cnt"
AGG_IN, AGG_OUT = "s4d2_bn_agg_in_type", "s4d2_bn_agg_out_type"
ZERO = "s4d2_bn_zero_counts"
MAX8_SRC, MAX8_DST = "has_max8_src_element_cnt", "has_max8_dst_element_cnt"
FIND_SRC, FIND_DST, FIND_TYPE = ("has_find_index8_src_element_cnt", "has_find_index8_dst_element_cnt",
                                 "has_find_index8_dst_type")
MR_TYPES, MR_SRC, SAME = "match_replace_dtypes", "has_match_replace8_src_element_cnt", "same_element_count_t4d"

TCH, TSRC = "transpose_bnstats2_channels_multiple_of_32", "transpose_bnstats2_src_element_cnt_multiple_of_32"

STATS, STATS2, AGG, MAX8, FIND, MR, TSTATS2 = 0x60, 0x61, 0x62, 0x6C, 0x6E, 0x6F, 0x82
F2, F3, F4, F_INF, F_NAN, F_NEG0, F_NEG_INF = 0x40000000, 0x40400000, 0x40800000, 0x7F800000, 0x7FC00000, 0x80000000, 0xFF800000
SHAPE_REG = 0x40000000  # ADDR4 marker bit 0x40: the shape comes from a register (CAYMAN+)


def sb(p, off, maverick=False):
    return p * (0x100000 if maverick else 0x40000) + off


def bn(opcode, src=0x1000, src_num=(5, 1, 1, 1), in_dt=FP32, out_dt=FP32, nac=1, even=0, odd=0, dst=0x2000,
       dst_num=(6, 1), hdr=None, pokes=()):
    """S4D2_BN (§14.1): src TENSOR4D @12 (steps 1,0,0,0), dtypes @32/33, nac @34, counts @40/44, dst TENSOR2D @48."""
    w = bytearray(64)
    header(w, opcode, **(hdr or {}))
    struct.pack_into("<I4h4H", w, 12, src, 1, 0, 0, 0, *src_num)
    struct.pack_into("<BBB", w, 32, in_dt, out_dt, nac)
    struct.pack_into("<II", w, 40, even, odd)
    struct.pack_into("<I2h2H", w, 48, dst, 1, 0, *dst_num)
    for off, val in pokes:
        w[off] = val
    return w


def mr(src=0x1000, src_num=(10, 1, 1, 1), in_dt=FP32, out_dt=FP32, nac=1, imm=F_NEG_INF, dst=0x4000, dst_num=None,
       hdr=None, pokes=()):
    """S4D4_MR (§15.1): src TENSOR4D @12, dtypes @32/33, nac @34, immediate @40, dst TENSOR4D @44."""
    w = bytearray(64)
    header(w, MR, **(hdr or {}))
    struct.pack_into("<I4h4H", w, 12, src, 1, 0, 0, 0, *src_num)
    struct.pack_into("<BBB", w, 32, in_dt, out_dt, nac)
    struct.pack_into("<I", w, 40, imm)
    struct.pack_into("<I4h4H", w, 44, dst, 1, 0, 0, 0, *(src_num if dst_num is None else dst_num))
    for off, val in pokes:
        w[off] = val
    return w


# The worked words of §14.4 / §15.4 as baselines (X14 .. X19).
def X14(**kw):
    return bn(**{"opcode": STATS2, "even": F3, "odd": F2, **kw})


def X15(**kw):
    return bn(**{"opcode": AGG, "src": 0x2000, "src_num": (6, 1, 1, 1), "dst": 0x3000, "dst_num": (2, 1), **kw})


def X16(**kw):
    return bn(**{"opcode": STATS, "src_num": (4, 1, 1, 1), "even": F4, "dst_num": (3, 1), **kw})


def X17(**kw):
    return bn(**{"opcode": MAX8, "src_num": (10, 1, 1, 1), "dst_num": (8, 1), **kw})


def X18(**kw):
    return bn(**{"opcode": FIND, "src_num": (10, 1, 1, 1), "out_dt": U32, "dst": 0x3000, "dst_num": (8, 1), **kw})


# The builders reproduce the spec's worked words byte for byte (act-index-ops.md §14.4, §15.4).
SPEC_WORDS = {
    "X14": "61100000000000000000000000100000 01000000000000000500010001000100 0a0a0100000000000000404000000040 00200000010000000600010000000000",
    "X15": "62100000000000000000000000200000 01000000000000000600010001000100 0a0a0100000000000000000000000000 00300000010000000200010000000000",
    "X16": "60100000000000000000000000100000 01000000000000000400010001000100 0a0a0100000000000000804000000000 00200000010000000300010000000000",
    "X17": "6c100000000000000000000000100000 01000000000000000a00010001000100 0a0a0100000000000000000000000000 00200000010000000800010000000000",
    "X18": "6e100000000000000000000000100000 01000000000000000a00010001000100 0a090100000000000000000000000000 00300000010000000800010000000000",
    "X19": "6f100000000000000000000000100000 01000000000000000a00010001000100 0a0a010000000000000080ff00400000 01000000000000000a00010001000100",
}
assert X14() == bytes.fromhex(SPEC_WORDS["X14"].replace(" ", ""))
assert X15() == bytes.fromhex(SPEC_WORDS["X15"].replace(" ", ""))
assert X16() == bytes.fromhex(SPEC_WORDS["X16"].replace(" ", ""))
assert X17() == bytes.fromhex(SPEC_WORDS["X17"].replace(" ", ""))
assert X18() == bytes.fromhex(SPEC_WORDS["X18"].replace(" ", ""))
assert mr() == bytes.fromhex(SPEC_WORDS["X19"].replace(" ", ""))


def XT(**kw):
    """TRANSPOSE_BATCH_NORM_STATS2 (batchnorm-forward.md §2.3, PROJ-CONV-A31): X14's operands on 32 channels, 32
    source elements."""
    return bn(**{"opcode": TSTATS2, "even": F3, "odd": F2, "nac": 32, "src_num": (32, 1, 1, 1), **kw})


def common(name, make, out_fail):
    """The conjuncts every S4D2_BN validator shares (common_s4d2_bn, §14.2). `out_fail`: the predicates an out_dtype
    of UINT64 fails besides is_valid_dtype."""
    vec(f"bn-{name}", ALL, [], make())
    vec(f"bn-{name}-word-len", ALL, [HDR], make(hdr={"word_len": 15}))
    vec(f"bn-{name}-wait-0x08", ALL, [EVT], make(hdr={"wait_mode": 0x08}))
    vec(f"bn-{name}-reserved-35", ALL, [RES_BN], make(pokes=[(35, 1)]))
    vec(f"bn-{name}-reserved-63", ALL, [RES_BN], make(pokes=[(63, 0x80)]))
    vec(f"bn-{name}-out-u64", ALL, [VDT] + out_fail, make(out_dt=U64))
    vec(f"bn-{name}-nac-0", ALL, [CH], make(nac=0))
    vec(f"bn-{name}-nac-129", ALL, [CH, SACH], make(nac=129))
    vec(f"bn-{name}-nac-128", ALL, [], make(nac=128))
    vec(f"bn-{name}-src-p1", SCM, [SACH], make(nac=128, src=sb(1, 0x1000)))
    vec(f"bn-{name}-src-p1/maverick", V, [SACH], make(nac=128, src=sb(1, 0x1000, True)))
    vec(f"bn-{name}-dst-p1", SCM, [SACH], make(nac=128, dst=sb(1, 0x2000)))
    vec(f"bn-{name}-dst-p1/maverick", V, [SACH], make(nac=128, dst=sb(1, 0x2000, True)))
    vec(f"bn-{name}-src-unaligned", ALL, [T4D], make(src=0x1002))
    vec(f"bn-{name}-dst-unaligned", ALL, [T2D], make(dst=0x2002))
    vec(f"bn-{name}-src-register", ALL, [], make(src=0x80000005))


def add():
    """Adds the family's vectors through vec()."""
    # ---- BATCH_NORM_STATS2 ----
    common("stats2", X14, [OUT_TYPE])
    vec("bn-stats2-in-fp32r", ALL, [VDT], X14(in_dt=FP32R))
    vec("bn-stats2-out-u32", ALL, [OUT_TYPE], X14(out_dt=U32))
    vec("bn-stats2-out-bf16", ALL, [], X14(out_dt=BF16))
    vec("bn-stats2-src-512", ALL, [], X14(src_num=(512, 1, 1, 1)))
    vec("bn-stats2-src-513", ALL, [STATS2_SRC], X14(src_num=(513, 1, 1, 1)))
    vec("bn-stats2-dst-7", ALL, [STATS2_DST], X14(dst_num=(7, 1)))
    vec("bn-stats2-dst-3x2", ALL, [], X14(dst_num=(3, 2)))
    vec("bn-stats2-even-inf", ALL, [FIN_E], X14(even=F_INF))
    vec("bn-stats2-odd-nan", ALL, [FIN_O], X14(odd=F_NAN))
    # PROJ-CONV-A18: a register-shaped source (zero counts) passes both count predicates from CAYMAN on; SUNDA has no
    # escape, so the zero counts fail tensor4d_valid (a count of 0 is <= 512 there).
    vec("bn-stats2-src-shape-reg", CMV, [], X14(src=SHAPE_REG | 0x1000, src_num=(0, 0, 0, 0)))
    vec("bn-stats2-src-shape-reg/sunda", S, [T4D], X14(src=SHAPE_REG | 0x1000, src_num=(0, 0, 0, 0)))
    vec("bn-stats2-dst-shape-reg", CMV, [], X14(dst=SHAPE_REG | 0x2000, dst_num=(0, 0)))
    vec("bn-stats2-dst-shape-reg/sunda", S, [T2D, STATS2_DST], X14(dst=SHAPE_REG | 0x2000, dst_num=(0, 0)))

    # ---- TRANSPOSE_BATCH_NORM_STATS2 (PROJ-CONV-A31: STATS2's conjunction, channels and source a multiple of 32) ----
    vec("bn-tstats2", ALL, [], XT())
    vec("bn-tstats2-word-len", ALL, [HDR], XT(hdr={"word_len": 15}))
    vec("bn-tstats2-wait-0x08", ALL, [EVT], XT(hdr={"wait_mode": 0x08}))
    vec("bn-tstats2-reserved-37", ALL, [RES_BN], XT(pokes=[(37, 4)]))
    vec("bn-tstats2-in-fp32r", ALL, [VDT], XT(in_dt=FP32R))
    vec("bn-tstats2-out-u64", ALL, [VDT, OUT_TYPE], XT(out_dt=U64))
    vec("bn-tstats2-out-u32", ALL, [OUT_TYPE], XT(out_dt=U32))
    vec("bn-tstats2-out-fp16", ALL, [], XT(out_dt=FP16))
    vec("bn-tstats2-nac-0", ALL, [CH], XT(nac=0))  # 0 is a multiple of 32: only the range check fails
    vec("bn-tstats2-nac-16", ALL, [TCH], XT(nac=16))
    vec("bn-tstats2-nac-33", ALL, [TCH], XT(nac=33))
    vec("bn-tstats2-nac-128", ALL, [], XT(nac=128))
    vec("bn-tstats2-nac-160", ALL, [CH, SACH], XT(nac=160))
    vec("bn-tstats2-src-p1", SCM, [SACH], XT(nac=128, src=sb(1, 0x1000)))
    vec("bn-tstats2-src-p1/maverick", V, [SACH], XT(nac=128, src=sb(1, 0x1000, True)))
    vec("bn-tstats2-dst-p1", SCM, [SACH], XT(nac=128, dst=sb(1, 0x2000)))
    vec("bn-tstats2-dst-p1/maverick", V, [SACH], XT(nac=128, dst=sb(1, 0x2000, True)))
    vec("bn-tstats2-src-unaligned", ALL, [T4D], XT(src=0x1002))
    vec("bn-tstats2-dst-unaligned", ALL, [T2D], XT(dst=0x2002))
    vec("bn-tstats2-src-48", ALL, [TSRC], XT(src_num=(48, 1, 1, 1)))
    vec("bn-tstats2-src-16x2", ALL, [], XT(src_num=(16, 2, 1, 1)))
    vec("bn-tstats2-src-512", ALL, [], XT(src_num=(512, 1, 1, 1)))
    vec("bn-tstats2-src-513", ALL, [STATS2_SRC, TSRC], XT(src_num=(513, 1, 1, 1)))
    vec("bn-tstats2-src-544", ALL, [STATS2_SRC], XT(src_num=(544, 1, 1, 1)))
    vec("bn-tstats2-dst-7", ALL, [STATS2_DST], XT(dst_num=(7, 1)))
    vec("bn-tstats2-even-inf", ALL, [FIN_E], XT(even=F_INF))
    vec("bn-tstats2-odd-nan", ALL, [FIN_O], XT(odd=F_NAN))
    # PROJ-CONV-A18: a register-shaped source passes the count predicates, the multiple of 32 included (CAYMAN on).
    vec("bn-tstats2-src-shape-reg", CMV, [], XT(src=SHAPE_REG | 0x1000, src_num=(0, 0, 0, 0)))
    vec("bn-tstats2-src-shape-reg/sunda", S, [T4D], XT(src=SHAPE_REG | 0x1000, src_num=(0, 0, 0, 0)))

    # ---- BATCH_NORM_STATS (PROJ-CONV-A26: STATS2's predicate with the 256 / 3 limits) ----
    common("stats", X16, [OUT_TYPE])
    vec("bn-stats-in-fp32r", ALL, [VDT], X16(in_dt=FP32R))
    vec("bn-stats-out-u32", ALL, [OUT_TYPE], X16(out_dt=U32))
    vec("bn-stats-src-256", ALL, [], X16(src_num=(256, 1, 1, 1)))
    vec("bn-stats-src-257", ALL, [STATS_SRC], X16(src_num=(257, 1, 1, 1)))
    vec("bn-stats-dst-6", ALL, [STATS_DST], X16(dst_num=(6, 1)))
    vec("bn-stats-even-ninf", ALL, [FIN_E], X16(even=F_NEG_INF))
    vec("bn-stats-odd-inf", ALL, [FIN_O], X16(odd=F_INF))
    vec("bn-stats-odd-2", ALL, [], X16(odd=F2))  # unused by STATS, but only required finite

    # ---- BATCH_NORM_AGGREGATE ----
    common("agg", X15, [AGG_OUT])
    vec("bn-agg-in-fp32r", ALL, [VDT, AGG_IN], X15(in_dt=FP32R))
    vec("bn-agg-in-u32", ALL, [AGG_IN], X15(in_dt=U32))
    vec("bn-agg-in-fp16", ALL, [], X15(in_dt=FP16))
    vec("bn-agg-out-i32", ALL, [AGG_OUT], X15(out_dt=I32))
    vec("bn-agg-src-3", ALL, [], X15(src_num=(3, 1, 1, 1)))
    vec("bn-agg-src-7", ALL, [AGG_SRC], X15(src_num=(7, 1, 1, 1)))
    vec("bn-agg-src-0-reg", CMV, [], X15(src=SHAPE_REG | 0x1000, src_num=(0, 0, 0, 0)))
    vec("bn-agg-src-0-reg/sunda", S, [T4D, AGG_SRC], X15(src=SHAPE_REG | 0x1000, src_num=(0, 0, 0, 0)))
    vec("bn-agg-dst-3", ALL, [AGG_DST], X15(dst_num=(3, 1)))
    vec("bn-agg-even-1", ALL, [ZERO], X15(even=0x3F800000))
    vec("bn-agg-odd-neg0", ALL, [], X15(odd=F_NEG0))  # IEEE: -0.0 == 0.0

    # ---- MAX8 ----
    common("max8", X17, [])
    vec("bn-max8-in-fp32r", ALL, [VDT], X17(in_dt=FP32R))
    vec("bn-max8-out-u16", ALL, [], X17(out_dt=U16))
    vec("bn-max8-src-8", ALL, [], X17(src_num=(8, 1, 1, 1)))
    vec("bn-max8-src-7", ALL, [MAX8_SRC], X17(src_num=(7, 1, 1, 1)))
    vec("bn-max8-src-16384", ALL, [], X17(src_num=(128, 128, 1, 1)))
    vec("bn-max8-src-16385", ALL, [MAX8_SRC], X17(src_num=(16385, 1, 1, 1)))
    vec("bn-max8-dst-9", ALL, [MAX8_DST], X17(dst_num=(9, 1)))
    vec("bn-max8-src-shape-reg", CMV, [], X17(src=SHAPE_REG | 0x1000, src_num=(0, 0, 0, 0)))
    vec("bn-max8-src-shape-reg/sunda", S, [T4D, MAX8_SRC], X17(src=SHAPE_REG | 0x1000, src_num=(0, 0, 0, 0)))
    vec("bn-max8-even-1", ALL, [ZERO], X17(even=0x3F800000))

    # ---- FIND_INDEX8 ----
    common("find8", X18, [FIND_TYPE])
    vec("bn-find8-in-fp32r", ALL, [VDT], X18(in_dt=FP32R))
    vec("bn-find8-out-u16", ALL, [], X18(out_dt=U16))
    vec("bn-find8-out-fp32", ALL, [FIND_TYPE], X18(out_dt=FP32))
    vec("bn-find8-src-7", ALL, [FIND_SRC], X18(src_num=(7, 1, 1, 1)))
    vec("bn-find8-src-16385", ALL, [FIND_SRC], X18(src_num=(16385, 1, 1, 1)))
    vec("bn-find8-dst-7", ALL, [FIND_DST], X18(dst_num=(7, 1)))
    vec("bn-find8-odd-1", ALL, [ZERO], X18(odd=0x3F800000))

    # ---- MATCH_REPLACE8 (X19) ----
    vec("mr-x19", ALL, [], mr())
    vec("mr-word-len", ALL, [HDR], mr(hdr={"word_len": 15}))
    vec("mr-wait-0x08", ALL, [EVT], mr(hdr={"wait_mode": 0x08}))
    vec("mr-reserved-39", ALL, [RES_MR], mr(pokes=[(39, 1)]))
    vec("mr-in-fp32r", ALL, [VDT, MR_TYPES], mr(in_dt=FP32R))
    vec("mr-out-u64", ALL, [VDT, MR_TYPES], mr(out_dt=U64))
    vec("mr-in-i8", ALL, [MR_TYPES], mr(in_dt=I8))
    vec("mr-in-u8-out-i32", ALL, [], mr(in_dt=U8, out_dt=I32))
    vec("mr-nac-0", ALL, [CH], mr(nac=0))
    vec("mr-nac-129", ALL, [CH, SACH], mr(nac=129))
    vec("mr-src-p1", SCM, [SACH], mr(nac=128, src=sb(1, 0x1000)))
    vec("mr-src-p1/maverick", V, [SACH], mr(nac=128, src=sb(1, 0x1000, True)))
    vec("mr-dst-p1", SCM, [SACH], mr(nac=128, dst=sb(1, 0x4000)))
    vec("mr-dst-p1/maverick", V, [SACH], mr(nac=128, dst=sb(1, 0x4000, True)))
    vec("mr-src-unaligned", ALL, [T4D], mr(src=0x1002))
    vec("mr-dst-unaligned", ALL, [T4D], mr(dst=0x4002))
    vec("mr-src-16384", ALL, [], mr(src_num=(16384, 1, 1, 1)))
    vec("mr-src-16385", ALL, [MR_SRC], mr(src_num=(16385, 1, 1, 1)))
    vec("mr-dst-9", ALL, [SAME], mr(dst_num=(9, 1, 1, 1)))
    vec("mr-dst-5x2", ALL, [], mr(dst_num=(5, 2, 1, 1)))
    vec("mr-dst-shape-reg", CMV, [], mr(dst=SHAPE_REG | 0x4000, dst_num=(0, 0, 0, 0)))
    vec("mr-dst-shape-reg/sunda", S, [T4D, SAME], mr(dst=SHAPE_REG | 0x4000, dst_num=(0, 0, 0, 0)))
