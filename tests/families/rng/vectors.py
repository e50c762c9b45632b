"""RNG family vectors: S3D3_DROPOUT (0x7F DROPOUT), opcode-research.md §A.2.8.

Added to tests/vectors/validate.tsv by tests/vectors/make_validate_vectors.py. Every expected failing set is
derived by hand from the header's predicate bodies as the public wiki quotes them, never from running the library
(see vectorlib.py). Ids start with "rng-".
"""

import struct

from vectorlib import *  # noqa: F401,F403  (the generations, enum values, predicate names and vec())

HALF = 0x3F000000  # 0.5f

# ---- predicate names ----
RES = "s3d3_dropout_reserved_zero"
SAME = "s3d3_dropout_same_src_dst_type"
COUNT = "s3d3_dropout_src_dst_count_check"
TTYPE = "s3d3_dropout_threshold_type_check"
TDT = "s3d3_dropout_threshold_dtype_check"
THR = "s3d3_dropout_threshold_check"
CHR_TILE = "has_valid_active_channel_range_with_tile"
T3D = "tensor3d_valid"


def sb(p, off, gen):
    """SBUF partition p, byte `off`: 256 KiB stride, 1 MiB on MAVERICK (memory-and-numerics.md §2)."""
    return p * (0x100000 if gen == MAVERICK else 0x40000) + off


def dropout(src=0x0, src_num=(64, 1, 1), in_dt=FP32, out_dt=None, nac=128, thr_src=0, thr_dt=0, thr_type=0,
            thr=HALF, dst=0x1000, dst_num=None, pokes=(), hdr=None):
    """S3D3_DROPOUT: src sbuf p0+0x0 and dst p0+0x1000, 64 elements, 128 channels, DROP_RATE 0.5 inline."""
    w = bytearray(64)
    header(w, 0x7F, **(hdr or {}))
    struct.pack_into("<I3h3H", w, 16, src, 1, 0, 0, *src_num)
    struct.pack_into("<BBBBB", w, 32, in_dt, in_dt if out_dt is None else out_dt, nac, thr_src, thr_dt)
    w[43] = thr_type
    struct.pack_into("<I", w, 44, thr)
    struct.pack_into("<I3h3H", w, 48, dst, 1, 0, 0, *(src_num if dst_num is None else dst_num))
    for off, val in pokes:
        w[off] = val
    return w


def add():
    """Adds the family's vectors through vec()."""
    vec("rng-base", ALL, [], dropout())
    vec("rng-keep-rate", ALL, [], dropout(thr_type=1))
    vec("rng-int32", ALL, [], dropout(in_dt=I32))
    vec("rng-u8", ALL, [], dropout(in_dt=U8))
    vec("rng-thr-dt-fp32", ALL, [], dropout(thr_dt=FP32))
    vec("rng-hdr", ALL, [HDR], dropout(hdr={"word_len": 15}))
    vec("rng-events", ALL, ["has_valid_neuron_events"], dropout(hdr={"wait_mode": 0x08}))
    vec("rng-res12", ALL, [RES], dropout(pokes=[(12, 1)]))
    vec("rng-res42", ALL, [RES], dropout(pokes=[(42, 1)]))
    # FP32R is no input dtype; both sides FP32R fail only the input's is_valid_dtype (the output allows it).
    vec("rng-in-fp32r", ALL, [VDT], dropout(in_dt=FP32R))
    vec("rng-out-u64", ALL, [VDT, SAME], dropout(out_dt=U64))
    vec("rng-same-type", ALL, [SAME], dropout(out_dt=BF16))
    vec("rng-count", ALL, [COUNT], dropout(dst_num=(32, 1, 1)))
    vec("rng-thr-type2", ALL, [TTYPE], dropout(thr_type=2))
    # An inline threshold is FP32 (or 0).
    vec("rng-thr-dt-inline-bf16", ALL, [TDT], dropout(thr_dt=BF16))
    vec("rng-thr-src3", ALL, [THR], dropout(thr_src=3))
    vec("rng-thr-reg64", ALL, [THR], dropout(thr_src=2, thr=64))
    vec("rng-thr-reg63", ALL, [], dropout(thr_src=2, thr=63))
    vec("rng-nac0", SCM, [CHR], dropout(nac=0))
    vec("rng-nac0/maverick", V, [CHR_TILE], dropout(nac=0))
    vec("rng-src-misaligned", ALL, [T3D], dropout(src=0x2))
    vec("rng-dst-misaligned", ALL, [T3D], dropout(dst=0x1002))
    # A register shape (marker 0x40) escapes the zero count and the count check from CAYMAN on (PROJ-CONV-C18).
    vec("rng-shape-reg", CMV, [], dropout(src=0x40000000, src_num=(0, 1, 1), dst_num=(64, 1, 1)))
    vec("rng-shape-reg/sunda", S, [COUNT, T3D], dropout(src=0x40000000, src_num=(0, 1, 1), dst_num=(64, 1, 1)))
    for gens, tag in ((SCM, ""), (V, "/maverick")):
        g = gens[0]
        vec("rng-src-p1" + tag, gens, [SACH], dropout(src=sb(1, 0, g)))
        vec("rng-dst-p1" + tag, gens, [SACH], dropout(dst=sb(1, 0x1000, g)))
        # A pointed-to threshold: any float dtype for a float in_dtype, FP32 for an integer one.
        vec("rng-thr-ptr-bf16" + tag, gens, [], dropout(thr_src=1, thr_dt=BF16, thr=sb(0, 0x2000, g)))
        vec("rng-thr-ptr-int-bf16" + tag, gens, [TDT],
            dropout(in_dt=I32, thr_src=1, thr_dt=BF16, thr=sb(0, 0x2000, g)))
        vec("rng-thr-ptr-i32" + tag, gens, [TDT], dropout(thr_src=1, thr_dt=I32, thr=sb(0, 0x2000, g)))
        vec("rng-thr-ptr-misaligned" + tag, gens, [THR], dropout(thr_src=1, thr=sb(0, 0x2002, g)))
        vec("rng-thr-ptr-p1" + tag, gens, [THR], dropout(thr_src=1, thr=sb(1, 0x2000, g)))
    add_rand()


# ---- RAND 0x76 / RAND_GET_STATE 0x77 (D4_RAND), RAND_SET_STATE 0x78 (S1_RAND), RAND2 0xE2 (D3_RAND) ----

LFSR, PCG32, PHILOX, XORWOW = range(4)
SRC_LFSR, SRC_XORWOW, SRC_PHILOX, SRC_CVT_LFSR = range(4)
RAW_U32, UNIFORM, NORMAL = range(3)
SRC_TENSOR, IMM_SINGLE, IMM_LANE = range(3)

D4RES = "d4_rand_reserved_zero"
ALGO = "restrict_rand_algorithm"
PAIR = "has_valid_rand_generator"
POST = "has_valid_rand_post_processing"
STEPS = "has_valid_rand_num_steps"
RDT = "has_valid_rand_dtype"
UNUSED = "rand_get_state_unused_field_zero"
GDT = "rand_get_state_valid_dtype"
GCOMBO = "rand_get_state_legal_combinations"
S1RES = "has_s1_rand_reserved_zero"
SCOMBO = "rand_set_state_legal_combinations"
IMMZ = "rand_set_state_imm_zero"
SIMM = "has_valid_rand_set_state_imm"
T1D = "tensor1d_valid"
D3RES = "d3_rand_reserved_zero"
R2ALGO = "restrict_rand2_algorithm"
R2POST = "has_valid_rand2_post_processing"
R2DT = "has_valid_rand2_dtype"
BOUNDS = "rand2_bounds_check"


def d4(opcode=0x76, algo=PHILOX, steps=0, post=UNIFORM, gen_src=SRC_PHILOX, params=(0, F1, 0, 0), dt=FP32, nac=128,
       dst=0x0, num=(64, 1, 1, 1), pokes=(), hdr=None):
    """D4_RAND: RAND draws a PHILOX UNIFORM_IN_RANGE [0, 1) FP32 tensor of 64 elements into sbuf p0+0x0."""
    w = bytearray(64)
    header(w, opcode, **(hdr or {}))
    struct.pack_into("<BBBB4I", w, 12, algo, steps, post, gen_src, *params)
    w[32], w[34] = dt, nac
    struct.pack_into("<I4h4H", w, 44, dst, 1, 0, 0, 0, *num)
    for off, val in pokes:
        w[off] = val
    return w


def get_state(**kw):
    """RAND_GET_STATE: the DVE LFSR-output state, 4 UINT32 words."""
    return d4(**{"opcode": 0x77, "algo": LFSR, "post": RAW_U32, "gen_src": SRC_CVT_LFSR, "params": (0, 0, 0, 0),
                 "dt": U32, "num": (4, 1, 1, 1), **kw})


def s1(algo=LFSR, nac=128, update=SRC_TENSOR, in_dt=U32, src=0x0, num=4, gen_src=SRC_CVT_LFSR, imm=(0,) * 8, pokes=(),
       hdr=None):
    """S1_RAND: RAND_SET_STATE restoring the DVE LFSR-output state, 4 UINT32 words from sbuf p0+0x0."""
    w = bytearray(64)
    header(w, 0x78, **(hdr or {}))
    struct.pack_into("<BBBBIhH", w, 12, algo, nac, update, in_dt, src, 1, num)
    w[24] = gen_src
    struct.pack_into("<8I", w, 32, *imm)
    for off, val in pokes:
        w[off] = val
    return w


def d3(algo=XORWOW, post=UNIFORM, dt=FP32, nac=128, min_src=0, max_src=0, lo=0, hi=F1, dst=0x0, num=(64, 1, 1),
       pokes=(), hdr=None):
    """D3_RAND: RAND2 draws 64 FP32 elements uniform in [0.0, 1.0) into sbuf p0+0x0."""
    w = bytearray(64)
    header(w, 0xE2, **(hdr or {}))
    w[12], w[14], w[32], w[34], w[38], w[39] = algo, post, dt, nac, min_src, max_src
    struct.pack_into("<II", w, 40, lo, hi)
    struct.pack_into("<I3h3H", w, 48, dst, 1, 0, 0, *num)
    for off, val in pokes:
        w[off] = val
    return w


def add_rand():
    """The draw and state words' vectors."""
    # The header and events of each word.
    for tag, make, gens in (("rand", d4, ALL), ("get", get_state, ALL), ("set", s1, ALL), ("rand2", d3, MV)):
        vec("rng-%s-hdr" % tag, gens, [HDR], make(hdr={"word_len": 15}))
        vec("rng-%s-events" % tag, gens, ["has_valid_neuron_events"], make(hdr={"wait_mode": 0x08}))
    # ---- is_valid_rand (0x76) ----
    vec("rng-rand-base", ALL, [], d4())
    vec("rng-rand-algo4", ALL, [ALGO, PAIR], d4(algo=4))
    vec("rng-rand-xorwow", CMV, [], d4(algo=XORWOW, gen_src=SRC_XORWOW))
    vec("rng-rand-xorwow/sunda", S, [ALGO], d4(algo=XORWOW, gen_src=SRC_XORWOW))
    vec("rng-rand-pair", ALL, [PAIR], d4(gen_src=SRC_LFSR))
    vec("rng-rand-normal", ALL, [POST], d4(post=NORMAL))
    vec("rng-rand-lfsr-steps0", ALL, [STEPS], d4(algo=LFSR, gen_src=SRC_LFSR))
    vec("rng-rand-lfsr-steps1", ALL, [], d4(algo=LFSR, gen_src=SRC_LFSR, steps=1))
    vec("rng-rand-raw-fp32", ALL, [RDT], d4(post=RAW_U32))
    vec("rng-rand-raw-u32", ALL, [], d4(post=RAW_U32, dt=U32))
    vec("rng-rand-res33", ALL, [D4RES], d4(pokes=[(33, 1)]))
    vec("rng-rand-res40", ALL, [D4RES], d4(pokes=[(40, 1)]))
    vec("rng-rand-nac0", ALL, [CHR], d4(nac=0))
    vec("rng-rand-dst-misaligned", ALL, [T4D], d4(dst=0x2))
    # ---- is_valid_rand_get_state (0x77) ----
    vec("rng-get-base", ALL, [], get_state())
    vec("rng-get-steps", ALL, [UNUSED], get_state(steps=1))
    vec("rng-get-params", ALL, [UNUSED], get_state(params=(1, 0, 0, 0)))
    vec("rng-get-fp32", ALL, [GDT], get_state(dt=FP32))
    vec("rng-get-5-words", ALL, [GCOMBO], get_state(num=(5, 1, 1, 1)))
    vec("rng-get-pool-lfsr", ALL, [], get_state(num=(1, 1, 1, 1)))
    vec("rng-get-philox", ALL, [], get_state(algo=PHILOX, gen_src=SRC_PHILOX, num=(7, 1, 1, 1)))
    vec("rng-get-xorwow-pool", CMV, [], get_state(algo=XORWOW, gen_src=SRC_XORWOW, num=(6, 1, 1, 1)))
    vec("rng-get-xorwow-dve", CMV, [], get_state(algo=XORWOW, gen_src=SRC_XORWOW, num=(24, 1, 1, 1)))
    vec("rng-get-xorwow/sunda", S, [GCOMBO], get_state(algo=XORWOW, gen_src=SRC_XORWOW, num=(6, 1, 1, 1)))
    # The ACT arm (OUTPUT_CVT_LFSR, 2 words) is MARIANA's alone.
    vec("rng-get-act", M, [], get_state(num=(2, 1, 1, 1)))
    vec("rng-get-act/other", (SUNDA, CAYMAN, MAVERICK), [GCOMBO], get_state(num=(2, 1, 1, 1)))
    vec("rng-get-res35", ALL, [D4RES], get_state(pokes=[(35, 1)]))
    vec("rng-get-nac0", ALL, [CHR], get_state(nac=0))
    vec("rng-get-dst-misaligned", ALL, [T4D], get_state(dst=0x2))
    for gens, tag in ((SCM, ""), (V, "/maverick")):
        vec("rng-get-dst-p1" + tag, gens, [SACH], get_state(dst=sb(1, 0, gens[0])))
        vec("rng-rand-dst-p1" + tag, gens, [SACH], d4(dst=sb(1, 0, gens[0])))
        vec("rng-set-src-p1" + tag, gens, [SACH], s1(src=sb(1, 0, gens[0])))
    # ---- is_valid_rand_set_state (0x78) ----
    vec("rng-set-base", ALL, [], s1())
    vec("rng-set-fp32", ALL, [SCOMBO], s1(in_dt=FP32))
    vec("rng-set-5-words", ALL, [SCOMBO], s1(num=5))
    vec("rng-set-imm-nonzero", ALL, [IMMZ], s1(imm=(1,) + (0,) * 7))
    vec("rng-set-philox-inline", ALL, [], s1(algo=PHILOX, gen_src=SRC_PHILOX, update=IMM_SINGLE, src=0, num=0,
                                             imm=(1, 2, 3, 4, 5, 6, 7, 0)))
    vec("rng-set-philox-imm7", ALL, [SIMM], s1(algo=PHILOX, gen_src=SRC_PHILOX, update=IMM_SINGLE, src=0, num=0,
                                               imm=(1, 2, 3, 4, 5, 6, 7, 8)))
    vec("rng-set-lfsr-lane", ALL, [SCOMBO, SIMM], s1(update=IMM_LANE))
    vec("rng-set-res25", ALL, [S1RES], s1(pokes=[(25, 1)]))
    vec("rng-set-nac0", ALL, [CHR], s1(nac=0))
    vec("rng-set-src-misaligned", ALL, [T1D], s1(src=0x2))
    # ---- is_valid_d3_rand (0xE2, MARIANA and MAVERICK) ----
    vec("rng-rand2-base", MV, [], d3())
    vec("rng-rand2-fp32r", MV, [], d3(dt=FP32R))
    vec("rng-rand2-lfsr", MV, [R2ALGO], d3(algo=LFSR))
    vec("rng-rand2-raw", MV, [R2POST], d3(post=RAW_U32))
    vec("rng-rand2-u32", MV, [R2DT], d3(dt=U32))
    vec("rng-rand2-min-src3", MV, [BOUNDS], d3(min_src=3))
    vec("rng-rand2-max-reg64", MV, [BOUNDS], d3(max_src=2, hi=64))
    vec("rng-rand2-max-reg63", MV, [], d3(max_src=2, hi=63))
    vec("rng-rand2-res13", MV, [D3RES], d3(pokes=[(13, 1)]))
    vec("rng-rand2-res36", MV, [D3RES], d3(pokes=[(36, 1)]))
    vec("rng-rand2-nac0", M, [CHR], d3(nac=0))
    vec("rng-rand2-nac0/maverick", V, [CHR_TILE], d3(nac=0))
    vec("rng-rand2-dst-misaligned", MV, [T3D], d3(dst=0x2))
    for gens in (M, V):
        g = gens[0]
        vec("rng-rand2-min-ptr/" + g, gens, [], d3(min_src=1, lo=sb(0, 0x2000, g)))
        vec("rng-rand2-min-ptr-misaligned/" + g, gens, [BOUNDS], d3(min_src=1, lo=sb(0, 0x2002, g)))
        vec("rng-rand2-dst-p1/" + g, gens, [SACH], d3(dst=sb(1, 0, g)))
