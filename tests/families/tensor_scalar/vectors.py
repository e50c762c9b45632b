"""Tensor-scalar vectors: S3D3_TS (0x43/0x53 TensorScalar, 0x44/0x54 TensorScalarPtr, 0x93 TransposeTensorScalar,
0x9A/0xE6 the cache forms, 0x30 Exponential) and D1_RD (0x9B DveReadAccumulator) -- alu-ops.md §5 and its edge cases
§8 #20-#41.

Added to tests/vectors/validate.tsv by tests/vectors/make_validate_vectors.py. Every expected failing set is
derived by hand from the spec's predicate bodies, never from running the library (see vectorlib.py). Ids start with
"ts-"; the spec's numbered edge cases keep their number ("ts-e20a").
"""

import struct

from vectorlib import *  # noqa: F401,F403  (the generations, enum values, predicate names and vec())

# ---- ALU ops and values this file needs beyond vectorlib ----
SUBTRACT, MULT, MIN, BITWISE_OR, LSR, ASR = 0x05, 0x06, 0x09, 0x0B, 0x11, 0x03
F2 = 0x40000000  # 2.0f

# ---- predicate names ----
OPS = "tensor_scalar_valid_ops"
TYPES = "tensor_scalar_valid_types"
IMM = "tensor_scalar_immediates_check"
SHIFT = "tensor_scalar_shift_chk"
TCHK = "tensor_scalar_tensor_chk"
REV = "tensor_scalar_reverse_chk"
RES = "s3d3_ts_reserved_zero"
TRANSPOSE = "s3d3_transpose_check"
ALUOP = "is_valid_aluop"
ZCMD = "has_zero_accum_cmd_field"
CHR_TILE = "has_valid_active_channel_range_with_tile"
T3D = "tensor3d_valid"
PTR_SRC = "tensor_scalar_ptr_imm_src"
PTR_IMMS = "tensor_scalar_ptr_immediates"
COPS = "tensor_scalar_cache_reduce_valid_ops"
CTYPES = "tensor_scalar_cache_reduce_valid_types"
CIMM = "tensor_scalar_cache_reduce_immediates_check"
CREV = "tensor_scalar_cache_reduce_reverse_chk"
CCMD = "has_valid_tensor_scalar_cache_reduce_accum_cmd"
GEN = "exponential_gen_check"
ECMD = "has_valid_exponential_accum_cmd"
ENUM = "has_valid_exponential_num_elements"
EOPS = "has_valid_exponential_ops"
EUNUSED = "s3d3_ts_exponential_unused_fields"
RD_RES = "d1_rd_reserved_zero"
RD_TYPE = "dve_read_accumulator_type_check"
T1D = "tensor1d_valid"
RD_SIZE = "read_accumulator_dst_size"
RD_NEG = "d1_rd_has_valid_negated_field"


def sb(p, off, gen):
    """SBUF partition p, byte `off`: 256 KiB stride, 1 MiB on MAVERICK (memory-and-numerics.md §2)."""
    return p * (0x100000 if gen == MAVERICK else 0x40000) + off


def ts(opcode=0x43, cmd=0, src=0x0, src_step=(1, 0, 0), src_num=(64, 1, 1), in_dt=FP32, out_dt=FP32, nac=128,
       imm0_src=0, op0=MULT, op1=ADD, rev=0, imm1_src=0, imm0=F2, imm1=F1, dst=0x1000, dst_step=(1, 0, 0),
       dst_num=None, pokes=(), hdr=None):
    """S3D3_TS (alu-ops.md §5.1)."""
    w = bytearray(64)
    header(w, opcode, **(hdr or {}))
    w[12] = cmd
    struct.pack_into("<I3h3H", w, 16, src, *src_step, *src_num)
    struct.pack_into("<BBBBBBBB", w, 32, in_dt, out_dt, nac, imm0_src, op0, op1, rev, imm1_src)
    struct.pack_into("<II", w, 40, imm0, imm1)
    struct.pack_into("<I3h3H", w, 48, dst, *dst_step, *(src_num if dst_num is None else dst_num))
    for off, val in pokes:
        w[off] = val
    return w


def TS(**kw):
    return ts(**kw)


def TSB(**kw):
    """TENSOR_SCALAR_BITVEC_OP, UINT32, BITWISE_AND 0x0F then BITWISE_OR 0x100 (the spec's §5.2 word shape)."""
    return ts(**{"opcode": 0x53, "in_dt": U32, "out_dt": U32, "op0": BITWISE_AND, "op1": BITWISE_OR, "imm0": 0x0F,
                 "imm1": 0x100, **kw})


def PTR(**kw):
    """TENSOR_SCALAR_PTR_ARITH_OP, pointers to sbuf p0+0x2000 and +0x2004."""
    return ts(**{"opcode": 0x44, "imm0": 0x2000, "imm1": 0x2004, **kw})


def CR(**kw):
    """TENSOR_SCALAR_CACHE_REDUCE, ZERO_ACCUMULATE, MULT 2.0 then ADD, imm1 0."""
    return ts(**{"opcode": 0x9A, "cmd": 3, "imm1": 0, **kw})


def EXP(**kw):
    """EXPONENTIAL, ZERO_ACCUMULATE, BYPASS/BYPASS, max_value 1.0."""
    return ts(**{"opcode": 0x30, "cmd": 3, "op0": BYPASS, "op1": BYPASS, "imm0": F1, "imm1": 0, **kw})


def rd(count=1, dt=FP32, negated=0, nac=128, dst=0x3000, num=1, pokes=(), hdr=None):
    """D1_RD (alu-ops.md §5.7)."""
    w = bytearray(64)
    header(w, 0x9B, **(hdr or {}))
    struct.pack_into("<IBBB", w, 28, count, dt, negated, nac)
    struct.pack_into("<IhH", w, 44, dst, 1, num)
    for off, val in pokes:
        w[off] = val
    return w


def shared(vid, make, only=ALL):
    """The conjuncts every S3D3_TS validator shares (and the header and events), failed one by one, on the
    generations of `only`."""
    out = [
        (vid + "-hdr", ALL, [HDR], make(hdr={"word_len": 15})),
        (vid + "-events", ALL, ["has_valid_neuron_events"], make(hdr={"wait_mode": 0x08})),
        (vid + "-tchk", ALL, [TCHK], make(dst_num=(32, 1, 1))),
        (vid + "-out-u64", ALL, [VDT], make(out_dt=U64)),
        (vid + "-nac0", SCM, [CHR], make(nac=0)),
        (vid + "-nac0/maverick", V, [CHR_TILE], make(nac=0)),
        (vid + "-src-misaligned", ALL, [T3D, TCHK], make(src=0x2)),
        (vid + "-dst-misaligned", ALL, [T3D, TCHK], make(dst=0x1002)),
    ]
    for gens, tag in ((SCM, ""), (V, "/maverick")):
        g = gens[0]
        out.append((vid + "-src-p1" + tag, gens, [SACH], make(src=sb(1, 0, g))))
        out.append((vid + "-dst-p1" + tag, gens, [SACH], make(dst=sb(1, 0x1000, g))))
    for i, gens, failing, word in out:
        kept = tuple(g for g in gens if g in only)
        if kept:
            vec(i, kept, failing, word)


def add():
    """Adds the family's vectors through vec()."""
    # ---- is_valid_tensor_scalar_op (0x43 / 0x53 / 0x93) ----
    vec("ts-base-43", ALL, [], TS())
    vec("ts-base-53", ALL, [], TSB())
    vec("ts-base-93", ALL, [], TS(opcode=0x93, src_num=(32, 1, 1), nac=32))
    shared("ts-43", TS)
    vec("ts-43-ops-divide", ALL, [OPS], TS(op0=DIVIDE))
    vec("ts-53-types", ALL, [TYPES], TSB(out_dt=U16))
    vec("ts-43-imm-src3", ALL, [IMM], TS(imm0_src=3))
    vec("ts-43-rev4", ALL, [REV], TS(rev=4))
    vec("ts-43-res13", ALL, [RES], TS(pokes=[(13, 1)]))
    vec("ts-43-res15", ALL, [RES], TS(pokes=[(15, 1)]))
    vec("ts-43-in-fp32r", ALL, [VDT], TS(in_dt=FP32R))
    vec("ts-43-op0-1e", ALL, [OPS, ALUOP], TS(op0=0x1E))
    vec("ts-43-op1-1e", ALL, [OPS, ALUOP], TS(op1=0x1E))
    # §8 edge cases #20-#28 and #39-#41.
    vec("ts-e20a", ALL, [OPS], TS(op0=BYPASS, op1=ADD))
    vec("ts-e20b", ALL, [OPS], TS(op0=DIVIDE))
    vec("ts-e21a", ALL, [], TS(op0=RSQRT, op1=BYPASS, imm0=0, imm1=0))
    vec("ts-e21b", ALL, [OPS], TS(op0=RSQRT, op1=BYPASS, imm0=F2, imm1=0))
    vec("ts-e22a", SCM, [OPS], TS(op0=ADD_INT, op1=BYPASS))
    vec("ts-e22b", V, [], TS(op0=ADD_INT, op1=BYPASS))
    vec("ts-e22c", V, [OPS], TS(op0=ADD_INT, op1=ADD))
    vec("ts-e23", ALL, [ZCMD], TS(cmd=3))
    vec("ts-e24a", ALL, [], TSB(in_dt=U8, out_dt=U8, imm0=0x0F, imm1=1))
    vec("ts-e24b", ALL, [IMM], TSB(in_dt=U8, out_dt=U8, imm0=0x1FF, imm1=1))
    vec("ts-e25a", ALL, [SHIFT], TSB(in_dt=U16, out_dt=U16, op0=LSL, op1=LSR, imm0=1, imm1=1))
    vec("ts-e25b", ALL, [], TSB(op0=LSL, op1=LSR, imm0=1, imm1=1))
    vec("ts-e25c", ALL, [SHIFT], TSB(in_dt=U8, out_dt=U8, op0=ASR, op1=BYPASS, imm0=1, imm1=0))
    # #25 reverse order (K23 b): a right shift then a left shift is not constrained.
    vec("ts-e25d", ALL, [], TSB(in_dt=U16, out_dt=U16, op0=LSR, op1=LSL, imm0=1, imm1=1))
    for gens, tag in ((SCM, ""), (V, "/maverick")):
        g = gens[0]
        vec("ts-e26a" + tag, gens, [IMM], TS(nac=2, imm0_src=1, imm0=sb(0, 0x202, g)))
        vec("ts-e26b" + tag, gens, [IMM], TS(nac=2, imm0_src=1, imm0=sb(127, 0x10, g)))
        vec("ts-e26c" + tag, gens, [], TS(nac=2, imm0_src=1, imm0=sb(126, 0x10, g)))
    vec("ts-e27a", ALL, [IMM], TS(imm0_src=2, imm0=64))
    vec("ts-e27b", ALL, [], TS(imm0_src=2, imm0=63))
    vec("ts-e27c", ALL, [IMM], TS(imm0_src=3))
    vec("ts-e28", ALL, [TRANSPOSE], TS(opcode=0x93, nac=2))
    vec("ts-e28b", ALL, [TRANSPOSE], TS(opcode=0x93, nac=32, src_num=(48, 1, 1)))
    vec("ts-e39", V, [CHR_TILE], TS(nac=0))
    # #40: a register shape (marker 0x40) escapes the zero count from CAYMAN on (PROJ-CONV-C18).
    vec("ts-e40a", CMV, [], TS(src=0x40000000, src_num=(0, 1, 1), dst_num=(64, 1, 1)))
    vec("ts-e40b", S, [TCHK, T3D], TS(src=0x40000000, src_num=(0, 1, 1), dst_num=(64, 1, 1)))
    vec("ts-e41a", M, [], TS(in_dt=FP4E2))
    vec("ts-e41b", V, [VDT], TS(in_dt=FP4E2))

    # ---- is_valid_tensor_scalar_ptr_op (0x44 / 0x54, PROJ-CONV-K26) ----
    vec("ts-base-44", ALL, [], PTR())
    vec("ts-base-54", ALL, [], PTR(opcode=0x54, in_dt=U32, out_dt=U32, op0=BITWISE_AND, op1=BITWISE_OR))
    shared("ts-44", PTR)
    vec("ts-44-ops", ALL, [OPS], PTR(op0=DIVIDE))
    vec("ts-54-types", ALL, [TYPES],
        PTR(opcode=0x54, in_dt=U32, out_dt=U16, op0=BITWISE_AND, op1=BITWISE_OR))
    vec("ts-54-shift", ALL, [SHIFT], PTR(opcode=0x54, in_dt=U16, out_dt=U16, op0=LSL, op1=LSR))
    vec("ts-44-rev4", ALL, [REV], PTR(rev=4))
    vec("ts-44-res14", ALL, [RES], PTR(pokes=[(14, 1)]))
    vec("ts-44-in-fp32r", ALL, [VDT], PTR(in_dt=FP32R))
    vec("ts-44-op0-1e", ALL, [OPS, ALUOP], PTR(op0=0x1E))
    vec("ts-44-op1-1e", ALL, [OPS, ALUOP], PTR(op1=0x1E))
    vec("ts-44-cmd", ALL, [ZCMD], PTR(cmd=2))
    vec("ts-e29a", ALL, [PTR_SRC], PTR(imm0_src=1))
    vec("ts-e29b", ALL, [PTR_IMMS], PTR(imm0=0x202))
    # A PTR opcode has no transpose check: 2 channels with 0x44 are fine.
    vec("ts-44-nac2", ALL, [], PTR(nac=2))

    # ---- is_valid_tensor_scalar_cache_reduce / _cache_cumulative (0x9A / 0xE6) ----
    for op, name in ((0x9A, "9a"), (0xE6, "e6")):
        def make(op=op, **kw):
            return CR(opcode=op, **kw)
        vid = "ts-" + name
        vec(vid + "-base", ALL, [], make())
        shared(vid, make)
        vec(vid + "-e30a", ALL, [CCMD], make(cmd=0))
        vec(vid + "-e30b", ALL, [COPS], make(op1=BYPASS))
        vec(vid + "-e30c", ALL, [CTYPES], make(in_dt=I32))
        vec(vid + "-e30d", ALL, [CREV], make(rev=1))
        vec(vid + "-e30e", ALL, [CIMM], make(imm1=F1))
        vec(vid + "-e30f", ALL, [], make(cmd=4, imm1=F1))
        vec(vid + "-cmd-zero", ALL, [CCMD], make(cmd=1))
        vec(vid + "-cmd5", ALL, [CCMD], make(cmd=5))
        vec(vid + "-res13", ALL, [RES], make(pokes=[(13, 1)]))
        vec(vid + "-in-fp32r", ALL, [VDT, CTYPES], make(in_dt=FP32R))
        vec(vid + "-in-u16", ALL, [], make(in_dt=U16))
        vec(vid + "-op0-1e", ALL, [COPS, ALUOP], make(op0=0x1E))
        vec(vid + "-op1-1e", ALL, [COPS, ALUOP], make(op1=0x1E))
        vec(vid + "-op0-bitand", ALL, [COPS], make(op0=BITWISE_AND))
        vec(vid + "-op1-min", ALL, [], make(op1=MIN))
        vec(vid + "-load-ptr", ALL, [], make(cmd=4, imm1_src=1, imm1=0x2000))
        vec(vid + "-load-ptr-misaligned", ALL, [CIMM], make(cmd=4, imm1_src=1, imm1=0x2002))

    # ---- is_valid_exponential (0x30): MARIANA and MAVERICK; SUNDA and CAYMAN add exponential_gen_check ----
    def vexp(vid, failing, word):
        vec(vid, MV, failing, word)
        vec(vid + "/sc", SC, failing + [GEN], word)

    vexp("ts-30-base", [], EXP())
    shared("ts-30", EXP, only=MV)
    # The shared conjuncts on SUNDA and CAYMAN, with the gate.
    for i, gens, failing, word in [
        ("ts-30-hdr/sc", SC, [HDR], EXP(hdr={"word_len": 15})),
        ("ts-30-events/sc", SC, ["has_valid_neuron_events"], EXP(hdr={"wait_mode": 0x08})),
        ("ts-30-tchk/sc", SC, [TCHK], EXP(dst_num=(32, 1, 1))),
        ("ts-30-out-u64/sc", SC, [VDT], EXP(out_dt=U64)),
        ("ts-30-nac0/sc", SC, [CHR], EXP(nac=0)),
        ("ts-30-src-misaligned/sc", SC, [T3D, TCHK], EXP(src=0x2)),
        ("ts-30-src-p1/sc", SC, [SACH], EXP(src=sb(1, 0, CAYMAN))),
    ]:
        vec(i, gens, failing + [GEN], word)
    vexp("ts-30-in-fp32r", [VDT], EXP(in_dt=FP32R))
    vexp("ts-30-imm-src3", [IMM], EXP(imm0_src=3))
    vexp("ts-e31a", [ECMD], EXP(cmd=1))
    vexp("ts-e31b", [EOPS], EXP(op0=ADD))
    vexp("ts-e31c", [ENUM], EXP(in_dt=FP16, src_num=(3, 1, 1)))
    vexp("ts-e31d", [], EXP(in_dt=FP16, src_num=(3, 1, 1), cmd=0))
    vexp("ts-e31e", [], EXP(in_dt=FP16, src_step=(2, 6, 0), src_num=(3, 2, 1), dst_num=(6, 1, 1)))
    vexp("ts-30-rev1", [EOPS], EXP(rev=1))
    vexp("ts-30-idle-imm1", [ECMD], EXP(cmd=0, imm1=F1))
    vexp("ts-30-load-imm1", [], EXP(cmd=4, imm1=F1))
    vexp("ts-30-unused", [EUNUSED], EXP(pokes=[(13, 1)]))
    vexp("ts-30-odd-total", [ENUM], EXP(in_dt=FP16, src_step=(2, 6, 0), src_num=(3, 1, 1)))
    vec("ts-e32", SC, [GEN], EXP())

    # ---- is_valid_dve_read_accumulator (0x9B, PROJ-CONV-K16) ----
    vec("ts-9b-base", ALL, [], rd())
    vec("ts-9b-negated", ALL, [], rd(negated=1, dt=BF16))
    vec("ts-e33a", ALL, [RD_SIZE], rd(count=2))
    vec("ts-e33b", ALL, [RD_TYPE], rd(dt=I32))
    vec("ts-e33c", ALL, [RD_NEG], rd(negated=2))
    vec("ts-e33d", ALL, [RD_RES], rd(pokes=[(13, 1)]))
    vec("ts-9b-res40", ALL, [RD_RES], rd(pokes=[(40, 1)]))
    vec("ts-9b-res60", ALL, [RD_RES], rd(pokes=[(60, 1)]))
    vec("ts-9b-num2", ALL, [RD_SIZE], rd(num=2))
    vec("ts-9b-fp32r", ALL, [], rd(dt=FP32R))
    vec("ts-9b-u64", ALL, [RD_TYPE], rd(dt=U64))
    vec("ts-9b-hdr", ALL, [HDR], rd(hdr={"word_len": 15}))
    vec("ts-9b-events", ALL, ["has_valid_neuron_events"], rd(hdr={"wait_mode": 0x08}))
    vec("ts-9b-nac0", ALL, [CHR], rd(nac=0))
    vec("ts-9b-misaligned", ALL, [T1D], rd(dst=0x3002))
    for gens, tag in ((SCM, ""), (V, "/maverick")):
        vec("ts-9b-p1" + tag, gens, [SACH], rd(dst=sb(1, 0x3000, gens[0])))
