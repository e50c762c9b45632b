"""Predicated vectors: TENSOR_TENSOR_BITVEC_OP 0x51, COPY_PREDICATED 0x72 and CAST_PREDICATED 0x99 (S3S3D3_TT) --
alu-ops.md §4.2, §4.3 and the edge cases of its §8 (#15-#19).

Added to tests/vectors/validate.tsv by tests/vectors/make_validate_vectors.py. Every expected failing set is derived
by hand from the spec's conjunctions (PROJ-CONV-K24 for 0x51), never from running the library.
"""

import struct

from vectorlib import *  # noqa: F401,F403  (the generations, enum values, predicate names and vec())


def add():
    """Adds the family's vectors through vec(). Ids start with "pr-"."""
    DT64 = "is_valid_dtype_64"
    ALU_ENUM = "is_valid_enum(AluOp)"
    OPV = "s3s3d3_tt_valid_op"
    TTD = "s3s3d3_tt_dtype"
    SDD = "s3s3d3_tt_src_dst_dtype"
    SIGN = "s3s3d3_tt_valid_int_signness"
    T3D = "tensor3d_valid"
    SCNT = "s3s3d3_tt_src_element_cnt_check"
    DCNT = "s3s3d3_tt_dst_element_cnt_check"
    TTP = "tt_valid_partitions"
    PRED = "s3s3d3_copy_pred_src0_dtype"
    DATA = "s3s3d3_copy_cast_pred_src1_dst_dtype"
    ZOP = "s3s3d3_tt_is_zero_op"
    EVT = "has_valid_neuron_events"
    BF16_, INT4_, MOD_ = BF16, INT4, MOD
    BITWISE_NOT, ASR, LSR, CRC = 0x01, 0x03, 0x11, CRC32

    def sb(p, off=0, maverick=False):
        return p * (0x100000 if maverick else 0x40000) + off

    PSUM0 = 0x2000000  # PSUM partition 0 on SUNDA..MARIANA; SBUF partition 32 on MAVERICK

    def tt(opcode=0x51, pair=0x99, out_dt=U32, op=BITWISE_AND, nac=2, src0=0x0, src1=0x100, dst=0x200,
           src0_num=(4, 1, 1), src1_num=(4, 1, 1), dst_num=(4, 1, 1), hdr=None):
        """S3S3D3_TT (real-programs.md §11.1): pair @12, out @13, op @14, channels @15, src0 @16, src1 @32, dst @48,
        each TENSOR3D with step (1,0,0). Baseline: §4.2's UINT32 BITWISE_AND on 2 channels."""
        w = bytearray(64)
        header(w, opcode, **(hdr or {}))
        struct.pack_into("<BBBB", w, 12, pair, out_dt, op, nac)
        for at, start, num in ((16, src0, src0_num), (32, src1, src1_num), (48, dst, dst_num)):
            struct.pack_into("<I3h3H", w, at, start, 1, 0, 0, *num)
        return w

    def spec_hex(text):
        return bytearray.fromhex(text.replace(" ", ""))

    # ---- TENSOR_TENSOR_BITVEC_OP (§4.2, PROJ-CONV-K24) ----
    TT_SYN = spec_hex("51100000000000000000000099090a02 00000000010000000000040001000100 "
                      "00010000010000000000040001000100 00020000010000000000040001000100")
    vec("pr-tt-syn", ALL, [], TT_SYN)
    vec("pr-tt-base", ALL, [], tt())
    vec("pr-tt-word-len", ALL, [HDR], tt(hdr={"word_len": 15}))
    vec("pr-tt-wait-0x08", ALL, [EVT], tt(hdr={"wait_mode": 0x08}))
    vec("pr-tt-out-int4", ALL, [DT64, TTD, SDD], tt(out_dt=INT4_))
    vec("pr-tt-lo-fp32r", ALL, [DT64, SDD], tt(pair=0x9B))
    vec("pr-tt-hi-fp32r", ALL, [DT64, SDD], tt(pair=0xB9))
    vec("pr-tt-op-0x1e", ALL, [ALU_ENUM, OPV], tt(op=0x1E))
    # Edge case #15: CRC32 and ADD are not general bit-vector ops.
    vec("pr-tt-op-crc32", ALL, [OPV], tt(op=CRC))
    vec("pr-tt-op-add", ALL, [OPV], tt(op=ADD))
    vec("pr-tt-op-not", ALL, [], tt(op=BITWISE_NOT))
    vec("pr-tt-op-asr-i16", ALL, [], tt(pair=0x44, out_dt=I16, op=ASR))
    # Edge case #16: out FP32.
    vec("pr-tt-out-fp32", ALL, [TTD, SDD], tt(out_dt=FP32))
    vec("pr-tt-all-fp32", ALL, [TTD], tt(pair=0xAA, out_dt=FP32))
    vec("pr-tt-out-i32", ALL, [SDD], tt(out_dt=I32))
    # Edge case #17: the 64-bit shift form (UINT64 by UINT32) and the same pair with BITWISE_AND.
    vec("pr-tt-u64-lsl", ALL, [], tt(pair=0x91, out_dt=U64, op=LSL, dst=0x200))
    vec("pr-tt-u64-and", ALL, [SDD], tt(pair=0x91, out_dt=U64, op=BITWISE_AND))
    vec("pr-tt-i64-lsr", ALL, [], tt(pair=0x9C, out_dt=I64, op=LSR))
    vec("pr-tt-u64-all", ALL, [], tt(pair=0x11, out_dt=U64, op=BITWISE_AND))
    # An integer-band op: never a bit-vector op; on float dtypes it fails the signedness rule too.
    vec("pr-tt-mod-fp32", ALL, [OPV, TTD, SIGN], tt(pair=0xAA, out_dt=FP32, op=MOD_))
    vec("pr-tt-mod-u32", ALL, [OPV], tt(op=MOD_))
    vec("pr-tt-src0-p127", SCM, [SACH, TTP], tt(src0=sb(127)))
    vec("pr-tt-src0-p127/maverick", V, [SACH, TTP], tt(src0=sb(127, 0, True)))
    vec("pr-tt-src1-p127", SCM, [SACH, TTP], tt(src1=sb(127, 0x100)))
    vec("pr-tt-dst-p127", SCM, [SACH], tt(dst=sb(127, 0x200)))
    vec("pr-tt-dst-p127/maverick", V, [SACH], tt(dst=sb(127, 0x200, True)))
    vec("pr-tt-src0-unaligned", ALL, [T3D], tt(src0=0x2))
    vec("pr-tt-src1-unaligned", ALL, [T3D], tt(src1=0x102))
    vec("pr-tt-dst-unaligned", ALL, [T3D], tt(dst=0x202))
    vec("pr-tt-src-count", ALL, [SCNT], tt(src1_num=(3, 1, 1)))
    vec("pr-tt-dst-count", ALL, [DCNT], tt(dst_num=(3, 1, 1)))
    vec("pr-tt-nac-0", ALL, [CH], tt(nac=0))
    # Edge case #18: src1 in partition 1 / at 0x2000000 (PSUM on CAYMAN, SBUF partition 32 on MAVERICK).
    vec("pr-tt-src1-p1", SCM, [TTP], tt(src1=sb(1, 0x100)))
    vec("pr-tt-src1-p1/maverick", V, [TTP], tt(src1=sb(1, 0x100, True)))
    vec("pr-tt-src1-psum", SCM, [], tt(src1=PSUM0))
    vec("pr-tt-src1-0x2000000/maverick", V, [TTP], tt(src1=PSUM0))
    vec("pr-tt-both-psum", SCM, [TTP], tt(src0=PSUM0, src1=PSUM0 + 0x100))
    vec("pr-tt-src-p32-p32", SCM, [], tt(src0=sb(32), src1=sb(32, 0x100)))
    vec("pr-tt-src-p33-p33", SCM, [TTP], tt(src0=sb(33), src1=sb(33, 0x100)))
    vec("pr-tt-src0-register", ALL, [], tt(src0=0x80000003))

    # ---- COPY_PREDICATED / CAST_PREDICATED (§4.3) ----
    CP_SYN = spec_hex("721000000000000000000000a30a0002 00000000010000000000040001000100 "
                      "00010000010000000000040001000100 00020000010000000000040001000100")
    CAST_SYN = spec_hex("991000000000000000000000a3060002 00000000010000000000040001000100 "
                        "00010000010000000000040001000100 00020000010000000000040001000100")
    vec("pr-cp-syn", ALL, [], CP_SYN)
    vec("pr-cast-syn", ALL, [], CAST_SYN)
    for name, opc in (("cp", 0x72), ("cast", 0x99)):
        P = lambda **kw: tt(**{"opcode": opc, "pair": 0xA3, "out_dt": FP32, "op": BYPASS, **kw})  # noqa: E731
        copy = opc == 0x72
        vec(f"pr-{name}-base", ALL, [], P())
        vec(f"pr-{name}-word-len", ALL, [HDR], P(hdr={"word_len": 15}))
        vec(f"pr-{name}-wait-0x08", ALL, [EVT], P(hdr={"wait_mode": 0x08}))
        # Edge case #19: out FP32R fails is_valid_dtype (and COPY's data == out); a float predicate; out BF16; ADD.
        vec(f"pr-{name}-out-fp32r", ALL, [VDT] + ([DATA] if copy else []), P(out_dt=FP32R))
        vec(f"pr-{name}-pred-fp32r", ALL, [VDT, PRED], P(pair=0xAB))
        vec(f"pr-{name}-data-fp32r", ALL, [VDT] + ([DATA] if copy else []), P(pair=0xB3))
        vec(f"pr-{name}-pred-fp32", ALL, [PRED], P(pair=0xAA))
        vec(f"pr-{name}-pred-u64", ALL, [VDT, PRED], P(pair=0xA1))
        vec(f"pr-{name}-pred-i32", ALL, [], P(pair=0xA8))
        vec(f"pr-{name}-out-bf16", ALL, [DATA] if copy else [], P(out_dt=BF16_))
        vec(f"pr-{name}-op-add", ALL, [ZOP], P(op=ADD))
        vec(f"pr-{name}-nac-0", ALL, [CH], P(nac=0))
        vec(f"pr-{name}-src0-p127", SCM, [SACH, TTP], P(src0=sb(127)))
        vec(f"pr-{name}-src0-p127/maverick", V, [SACH, TTP], P(src0=sb(127, 0, True)))
        vec(f"pr-{name}-src1-p127", SCM, [SACH, TTP], P(src1=sb(127, 0x100)))
        vec(f"pr-{name}-dst-p127", SCM, [SACH], P(dst=sb(127, 0x200)))
        vec(f"pr-{name}-pred-u16-unaligned", ALL, [T3D], P(pair=0xA5, src0=0x1))
        vec(f"pr-{name}-src1-unaligned", ALL, [T3D], P(src1=0x102))
        vec(f"pr-{name}-dst-unaligned", ALL, [T3D], P(dst=0x202))
        vec(f"pr-{name}-src-count", ALL, [SCNT], P(src1_num=(3, 1, 1)))
        vec(f"pr-{name}-dst-count", ALL, [DCNT], P(dst_num=(3, 1, 1)))
        vec(f"pr-{name}-src1-p1", SCM, [TTP], P(src1=sb(1, 0x100)))
        vec(f"pr-{name}-src1-p1/maverick", V, [TTP], P(src1=sb(1, 0x100, True)))
    # Edge case #57's word: CAST_PREDICATED INT32 -> UINT8 (a conversion COPY_PREDICATED cannot do).
    vec("pr-cast-i32-u8", ALL, [], tt(opcode=0x99, pair=0x83, out_dt=U8, op=BYPASS))
    vec("pr-cp-i32-u8", ALL, [DATA], tt(opcode=0x72, pair=0x83, out_dt=U8, op=BYPASS))
