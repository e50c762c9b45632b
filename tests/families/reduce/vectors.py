"""Reduce family vectors: TENSOR_REDUCE 0x42/0x52, TRANSPOSE_TENSOR_REDUCE 0x83/0x84, TENSOR_CUMULATIVE 0x4E/0x5E and
RECIPROCAL 0x48, all S4D4_TR -- alu-ops.md §3.2-§3.5 and its edge cases §8 #1-#12.

Added to tests/vectors/validate.tsv by tests/vectors/make_validate_vectors.py. Every expected failing set is
derived by hand from the spec's predicate bodies (and PROJ-CONV-K4, K6, K7), never from running the library.
"""

import struct

from vectorlib import *  # noqa: F401,F403  (the generations, enum values, predicate names and vec())


def add():
    """Adds the family's vectors through vec(). Ids start with "rd-"."""
    RES = "s4d4_tr_reserved_zero"
    MASK = "mask_enable_zero"
    DT64 = "is_valid_dtype_64"
    ALU_ENUM = "is_valid_enum(AluOp)"
    SUB = "is_valid_subdim"
    ZSUB = "is_zero_subdim"
    RCNT = "tensor_reduce_dst_element_count"
    ROP = "tensor_reduce_valid_alu_op"
    RDT = "tensor_reduce_valid_dtype"
    RNEG = "has_valid_reduce_negated"
    ENG = "is_valid_tensor_reduce_arith_engine"
    M32 = "has_multiple_32_channels"
    TCNT = "has_transpose_src_element_count_t4d"
    CNT = "s4d4_tr_same_src_dst_count"
    COP = "tensor_cumulative_valid_alu_op"
    CDT = "tensor_cumulative_valid_dtype"
    NEG = "has_zero_negated_field"
    BYP = "s4d4_tr_op_bypass"
    BITWISE_OR, BITWISE_XOR, LSR, ADD_INT_ = 0x0B, 0x0C, 0x11, ADD_INT

    def sb(p, off, maverick=False):
        """SBUF partition p, byte off: 256 KiB stride, 1 MiB on MAVERICK (memory-and-numerics.md §2)."""
        return p * (0x100000 if maverick else 0x40000) + off

    def tr(opcode, src=0x1000, src_num=(64, 1, 1, 1), in_dt=FP32, out_dt=FP32, nac=128, negated=0, op=ADD, op_dim=2,
           mask=0, dst=0x4200, dst_num=(1, 1, 1, 1), hdr=None, pokes=()):
        """S4D4_TR (§3.1): src TENSOR4D @12, dtypes @32/33, channels @34, negated @35, op @36, op_dim @37, mask @38,
        reserved1 @39..43, dst TENSOR4D @44; steps 1. Baseline: a FP32 ADD reduction of 64 elements per channel on
        128 channels, SB p0+0x1000 -> SB p0+0x4200."""
        w = bytearray(64)
        header(w, opcode, **(hdr or {}))
        struct.pack_into("<I4h4H", w, 12, src, 1, 1, 1, 1, *src_num)
        struct.pack_into("<BBBBBBB", w, 32, in_dt, out_dt, nac, negated, op, op_dim, mask)
        struct.pack_into("<I4h4H", w, 44, dst, 1, 1, 1, 1, *dst_num)
        for off, val in pokes:
            w[off] = val
        return w

    def spec_hex(text):
        return bytearray.fromhex(text.replace(" ", ""))

    def shared(name, make, dtype_name, bad_out, chan_extra=()):
        """The conjuncts every validator of the family has, each failed alone on every generation."""
        vec(f"rd-{name}-base", ALL, [], make())
        vec(f"rd-{name}-word-len", ALL, [HDR], make(hdr={"word_len": 15}))
        vec(f"rd-{name}-wait-0x08", ALL, ["has_valid_neuron_events"], make(hdr={"wait_mode": 0x08}))
        for b in range(39, 44):
            vec(f"rd-{name}-reserved1-b{b}", ALL, [RES], make(pokes=[(b, 1)]))
        vec(f"rd-{name}-mask", ALL, [MASK], make(mask=1))
        vec(f"rd-{name}-in-fp32r", ALL, [dtype_name], make(in_dt=FP32R))
        # UINT64 fails is_valid_dtype; the _64 forms take it, and are failed with INT4 (a MAVERICK-only code that
        # MAVERICK refuses as a 4-bit type, dtype_4bit_illegal_check).
        vec(f"rd-{name}-out-bad", ALL, [dtype_name], make(out_dt=bad_out))
        vec(f"rd-{name}-channels-0", ALL, [CHR, *chan_extra], make(nac=0))
        vec(f"rd-{name}-src-p1", SCM, [SACH], make(src=sb(1, 0x1000)))
        vec(f"rd-{name}-src-p1/maverick", V, [SACH], make(src=sb(1, 0x1000, True)))
        vec(f"rd-{name}-dst-p1", SCM, [SACH], make(dst=sb(1, 0x4200)))
        vec(f"rd-{name}-dst-p1/maverick", V, [SACH], make(dst=sb(1, 0x4200, True)))
        vec(f"rd-{name}-src-unaligned", ALL, [T4D], make(src=0x1002))
        vec(f"rd-{name}-dst-unaligned", ALL, [T4D], make(dst=0x4202))

    # ---- TENSOR_REDUCE 0x42 / 0x52 (§3.2, PROJ-CONV-K6) ----
    R = lambda **kw: tr(0x42, **kw)  # noqa: E731
    shared("reduce", R, DT64, INT4)
    vec("rd-reduce-bitvec-base", ALL, [], tr(0x52, op=BITWISE_OR, in_dt=U32, out_dt=U32))
    vec("rd-reduce-op-0x1e", ALL, [ALU_ENUM, ROP], R(op=0x1E))
    vec("rd-reduce-divide", ALL, [ROP], R(op=DIVIDE))
    vec("rd-reduce-bitvec-add", ALL, [ROP], tr(0x52, op=ADD, in_dt=U32, out_dt=U32))
    vec("rd-reduce-dst-2", ALL, [RCNT], R(dst_num=(2, 1, 1, 1)))
    # op_dim XY over (8, 8, 1, 1): groups of 64, one output.
    vec("rd-reduce-xy", ALL, [], R(op_dim=3, src_num=(8, 8, 1, 1)))
    vec("rd-reduce-xyzw", ALL, [], R(op_dim=5, src_num=(4, 4, 2, 2)))
    # A register shape skips the count on CAYMAN+ (C18); SUNDA has no escape, and its zero counts fail tensor4d_valid.
    vec("rd-reduce-shape-reg", CMV, [], R(src=0x40001000, src_num=(0, 0, 0, 0)))
    vec("rd-reduce-shape-reg/sunda", S, [T4D, RCNT], R(src=0x40001000, src_num=(0, 0, 0, 0)))
    vec("rd-reduce-negated", ALL, [], R(negated=1))
    vec("rd-reduce-negated-2", ALL, [RNEG], R(negated=2))
    vec("rd-reduce-bitvec-lsr-int32", ALL, [], tr(0x52, op=LSR, in_dt=I32, out_dt=I32))
    vec("rd-reduce-bitvec-lsr-u32", ALL, [RDT], tr(0x52, op=LSR, in_dt=U32, out_dt=U32))
    vec("rd-reduce-bitvec-u16-u32", ALL, [RDT], tr(0x52, op=BITWISE_OR, in_dt=U16, out_dt=U32))
    # The engine conjunct (only with a known engine, arith opcodes): DVE takes float forms, POOL integer ones.
    vec("rd-reduce-on-dve", ALL, [], R(), "engine=DVE")
    vec("rd-reduce-on-pool", ALL, [ENG], R(), "engine=POOL")  # edge case 5
    vec("rd-reduce-on-act", ALL, [ENG], R(), "engine=ACT")
    vec("rd-reduce-bitvec-on-pool", ALL, [], tr(0x52, op=BITWISE_OR, in_dt=U32, out_dt=U32), "engine=POOL")
    INT_ADD = R(op=ADD_INT_, in_dt=I32, out_dt=I32)
    vec("rd-reduce-add-int-on-pool", ALL, [], INT_ADD, "engine=POOL")  # edge case 4
    vec("rd-reduce-add-int", ALL, [], INT_ADD)
    vec("rd-reduce-add-int-on-dve", ALL, [ENG], INT_ADD, "engine=DVE")
    vec("rd-reduce-add-int-psum-on-pool", SCM, [ENG], R(op=ADD_INT_, in_dt=I32, out_dt=I32, src=0x2000000),
        "engine=POOL")
    vec("rd-reduce-u64", ALL, [], R(in_dt=U64, out_dt=U64))  # edge case 8
    vec("rd-reduce-u64-on-dve", ALL, [ENG], R(in_dt=U64, out_dt=U64), "engine=DVE")
    # Edge case 6: MAX_INT is not a SUNDA ALU op (its integer band is 0xC4..0xC6).
    vec("rd-reduce-max-int", CMV, [], R(op=MAX_INT, in_dt=I32, out_dt=I32))
    vec("rd-reduce-max-int/sunda", S, [ALU_ENUM, ROP], R(op=MAX_INT, in_dt=I32, out_dt=I32))
    vec("rd-reduce-amax-int", CMV, [], R(op=AMAX_INT, in_dt=I32, out_dt=U32))

    # The spec's example words (§3.2), and edge cases #1-#3, #7.
    RED = spec_hex("42100000000000000000000000000000 01000400000000000400020001000100 "
                   "0a0a0200040200000000000000010000 01000000000000000200010001000100")
    RED_BV = spec_hex("52100000000000000000000000000000 01000400000000000400020001000100 "
                      "090902000b0200000000000000010000 01000000000000000200010001000100")
    vec("rd-spec-reduce", ALL, [], RED)
    vec("rd-spec-reduce-bitvec", ALL, [], RED_BV)
    e1 = bytearray(RED)
    e1[37] = 0
    vec("rd-edge-1-op-dim-0", ALL, [SUB], e1)
    e2 = bytearray(RED)
    e2[37] = 3
    vec("rd-edge-2-op-dim-xy", ALL, [RCNT], e2)
    e3 = bytearray(RED_BV)
    e3[35] = 1
    vec("rd-edge-3-bitvec-negated", ALL, [RNEG], e3)
    e7 = bytearray(RED_BV)
    e7[32], e7[33] = I16, I16
    vec("rd-edge-7-bitvec-int16", ALL, [RDT], e7)

    # ---- TRANSPOSE_TENSOR_REDUCE 0x83 / 0x84 (§3.3, PROJ-CONV-K7) ----
    T = lambda **kw: tr(0x83, **{"src_num": (32, 1, 1, 1), **kw})  # noqa: E731
    shared("transpose", T, DT64, INT4, chan_extra=(M32,))
    vec("rd-transpose-op-0x1e", ALL, [ALU_ENUM, ROP], T(op=0x1E))
    vec("rd-transpose-divide", ALL, [ROP], T(op=DIVIDE))
    vec("rd-transpose-dst-2", ALL, [RCNT], T(dst_num=(2, 1, 1, 1)))
    vec("rd-transpose-op-dim-0", ALL, [SUB], T(op_dim=0))
    vec("rd-transpose-channels-2", ALL, [M32], T(nac=2))  # edge case 9
    vec("rd-transpose-channels-96", ALL, [], T(nac=96))
    vec("rd-transpose-src-16", ALL, [TCNT], T(src_num=(16, 1, 1, 1)))
    vec("rd-transpose-negated-2", ALL, [RNEG], T(negated=2))
    vec("rd-transpose-bitvec-base", ALL, [], tr(0x84, src_num=(32, 1, 1, 1), op=BITWISE_OR, in_dt=U32, out_dt=U32))
    vec("rd-transpose-bitvec-i16", ALL, [RDT], tr(0x84, src_num=(32, 1, 1, 1), op=BITWISE_OR, in_dt=I16,
                                                   out_dt=I16))
    vec("rd-transpose-on-pool", ALL, [ENG], T(), "engine=POOL")
    vec("rd-transpose-add-int-on-pool", ALL, [], T(op=ADD_INT_, in_dt=I32, out_dt=I32), "engine=POOL")
    TRN = spec_hex("83100000000000000000000000000000 01000000000000002000010001000100 "
                   "0a0a2000040200000000000000010000 01000000000000000100010001000100")
    TRN_BV = spec_hex("84100000000000000000000000000000 01000000000000002000010001000100 "
                      "090920000b0200000000000000010000 01000000000000000100010001000100")
    vec("rd-spec-transpose", ALL, [], TRN)
    vec("rd-spec-transpose-bitvec", ALL, [], TRN_BV)

    # ---- TENSOR_CUMULATIVE 0x4E / 0x5E (§3.4) ----
    C_ = lambda **kw: tr(0x4E, **{"dst_num": (64, 1, 1, 1), **kw})  # noqa: E731
    shared("cumulative", C_, VDT, U64)
    vec("rd-cumulative-op-0x1e", ALL, [ALU_ENUM, COP], C_(op=0x1E))
    vec("rd-cumulative-op-dim-0", ALL, [SUB], C_(op_dim=0))
    vec("rd-cumulative-count", ALL, [CNT], C_(dst_num=(63, 1, 1, 1)))
    vec("rd-cumulative-negated", ALL, [NEG], C_(negated=1))
    # Edge case 10: DIVIDE refused; RSQRT (is_arith_op) taken; ABS_MAX only where the enum has it.
    vec("rd-cumulative-divide", ALL, [COP], C_(op=DIVIDE))
    vec("rd-cumulative-rsqrt", ALL, [], C_(op=RSQRT))
    vec("rd-cumulative-abs-max", MV, [], C_(op=ABS_MAX))
    vec("rd-cumulative-abs-max/sc", SC, [ALU_ENUM, COP], C_(op=ABS_MAX))
    vec("rd-cumulative-add-int", ALL, [], C_(op=ADD_INT_, in_dt=I32, out_dt=I32))
    vec("rd-cumulative-bitvec-add", ALL, [COP], tr(0x5E, op=ADD, in_dt=U32, out_dt=U32, dst_num=(64, 1, 1, 1)))
    # Edge case 11: LOGICAL_SHIFT_RIGHT only on INT32.
    vec("rd-cumulative-lsr-u32", ALL, [CDT], tr(0x5E, op=LSR, in_dt=U32, out_dt=U32, dst_num=(64, 1, 1, 1)))
    vec("rd-cumulative-lsr-i32", ALL, [], tr(0x5E, op=LSR, in_dt=I32, out_dt=I32, dst_num=(64, 1, 1, 1)))
    vec("rd-cumulative-bitvec-i16", ALL, [CDT], tr(0x5E, op=BITWISE_XOR, in_dt=I16, out_dt=I16,
                                                   dst_num=(64, 1, 1, 1)))
    CUM = spec_hex("4e100000000000000000000000000000 01000400000000000400020001000100 "
                   "0a0a0200040200000000000000010000 01000000000000000800010001000100")
    CUM_BV = spec_hex("5e100000000000000000000000000000 01000400000000000400020001000100 "
                      "090902000c0200000000000000010000 01000000000000000800010001000100")
    vec("rd-spec-cumulative", ALL, [], CUM)
    vec("rd-spec-cumulative-bitvec", ALL, [], CUM_BV)

    # ---- RECIPROCAL 0x48 (§3.5, PROJ-CONV-K4) ----
    P = lambda **kw: tr(0x48, **{"op": BYPASS, "op_dim": 0, "dst_num": (64, 1, 1, 1), **kw})  # noqa: E731
    shared("reciprocal", P, VDT, U64)
    vec("rd-reciprocal-op-0x1e", ALL, [ALU_ENUM, BYP], P(op=0x1E))
    vec("rd-reciprocal-add", ALL, [BYP], P(op=ADD))  # edge case 12
    vec("rd-reciprocal-op-dim-x", ALL, [], P(op_dim=2))
    vec("rd-reciprocal-op-dim-xy", ALL, [ZSUB], P(op_dim=3))
    vec("rd-reciprocal-count", ALL, [CNT], P(dst_num=(63, 1, 1, 1)))
    vec("rd-reciprocal-negated", ALL, [NEG], P(negated=1))
    vec("rd-reciprocal-bf16", ALL, [], P(in_dt=BF16, out_dt=FP16))
    REC = spec_hex("48100000000000000000000000000000 01000000000000000400010001000100 "
                   "0a0a0200000000000000000000010000 01000000000000000400010001000100")
    vec("rd-spec-reciprocal", ALL, [], REC)
