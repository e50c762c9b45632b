"""Datapath vectors: COPY 0x46 / CAST 0x47 (S4D4_TR), TENSOR_TENSOR_ARITH_OP 0x41 (S3S3D3_TT) and MEMSET 0x49
(D4_MR) -- real-programs.md §10-§12, and their engine placement (PROJ-CONV-F1).

Added to tests/vectors/validate.tsv by tests/vectors/make_validate_vectors.py. Every expected failing set is
derived by hand from the spec's predicate bodies, never from running the library (see vectorlib.py).
"""

import struct

from vectorlib import *  # noqa: F401,F403  (the generations, enum values, predicate names and vec())


def add():
    """Adds the family's vectors through vec()."""
    # ---- Datapath family: COPY / CAST (S4D4_TR, real-programs.md §10.2), TENSOR_TENSOR_ARITH_OP (S3S3D3_TT, §11.2)
    # and MEMSET (D4_MR, §12.2, PROJ-CONV-F21). Expected sets from those predicate bodies, the shared bodies of
    # common-formats.md §10, the geometry of memory-and-numerics.md §2-§4 and the datapath decisions of
    # docs/conventions.md (indirect arm: decision 3). Ids start with "dp-". ----
    TR_RES = "s4d4_tr_reserved_zero"
    MASK = "mask_enable_zero"
    ALU_ENUM = "is_valid_enum(AluOp)"
    ZSUB = "is_zero_subdim"
    TR_CNT = "s4d4_tr_same_src_dst_count"
    BYP = "s4d4_tr_op_bypass"
    TR_TYPE = "s4d4_tr_same_src_dst_type"
    NEG = "has_zero_negated_field"
    DT64 = "is_valid_dtype_64"
    TT_OP = "s3s3d3_tt_valid_op"
    SIGN = "s3s3d3_tt_valid_int_signness"
    T3D = "tensor3d_valid"
    TT_CNT0 = "s3s3d3_tt_same_src0_dst_count"
    TT_CNT1 = "s3s3d3_tt_same_src1_dst_count"
    TTP = "tt_valid_partitions"
    MR_RES = "d4_mr_reserved_zero"
    MSVT = "memset_set_value_type"
    SER = "d4_mr_zero_serialization"
    MR_CNT = "d4_mr_dst_element_count"
    EVT = "has_valid_neuron_events"
    FP4E2_, FP8E2_, INT4_ = FP4E2, FP8E2, INT4
    MOD_, MAX_INT_, AMAX_INT_, RE_LU_, SYMMETRIC_CLAMP_ = MOD, MAX_INT, AMAX_INT, RE_LU, SYMMETRIC_CLAMP
    FP16_1_0 = 0x3C00  # 1.0 in FP16 (§12.3)

    # Partition p of SBUF: 0x40000 stride on SUNDA..MARIANA, 1 MiB on MAVERICK (memory-and-numerics.md §2).
    def sb(p, off=0, maverick=False):
        return p * (0x100000 if maverick else 0x40000) + off

    PSUM0 = 0x2000000  # PSUM partition 0 byte 0 on SUNDA..MARIANA; SBUF partition 32 on MAVERICK (no PSUM there)

    def pattern(w, at, dims, start, step=None, num=None):
        """TENSOR3D / TENSOR4D at `at`: ADDR4 @0, int16 step[dims] @4, u16 num[dims] @4 + 2*dims."""
        step = step or (1,) * dims
        num = num or (64,) + (1,) * (dims - 1)
        struct.pack_into(f"<I{dims}h{dims}H", w, at, start, *step, *num)

    def indirect(w, at, index, data, count):
        """The MEM_PATTERN `i` arm (common-formats.md §6.2): index ADDR4 @0 (marker 0x20), data ADDR4 @4, u16
        number of indices @8; the rest of the slot zero (PROJ-CONV-C9)."""
        struct.pack_into("<IIH", w, at, 0x20000000 | index, data, count)

    def tr(opcode=0x46, src=0x1000, src_num=None, in_dt=FP32, out_dt=FP32, nac=128, negated=0, op=BYPASS, op_dim=0,
           mask=0, dst=0x4200, dst_num=None, hdr=None, pokes=(), src_i=None, dst_i=None):
        """S4D4_TR (§10.1): src @12, dtypes @32/33, channels @34, negated @35, op @36, op_dim @37, mask @38,
        reserved1 @39..43, dst @44. Baseline: FP32 SB p0+0x1000 -> SB p0+0x4200, 64 elements, 128 channels."""
        w = bytearray(64)
        header(w, opcode, **(hdr or {}))
        pattern(w, 12, 4, src, num=src_num)
        struct.pack_into("<BBBBBBB", w, 32, in_dt, out_dt, nac, negated, op, op_dim, mask)
        pattern(w, 44, 4, dst, num=dst_num)
        if src_i:
            w[12:32] = bytes(20)
            indirect(w, 12, *src_i)
        if dst_i:
            w[44:64] = bytes(20)
            indirect(w, 44, *dst_i)
        for off, val in pokes:
            w[off] = val
        return w

    def tt(pair=0xAA, out_dt=FP32, op=ADD, nac=128, src0=0x1000, src1=0x2000, dst=0x3000, src0_num=None,
           src1_num=None, hdr=None, src0_i=None):
        """S3S3D3_TT (§11.1, PROJ-CONV-F20): pair @12, out @13, op @14, channels @15, src0 @16, src1 @32, dst @48.
        Baseline: FP32 ADD of SB p0+0x1000 and SB p0+0x2000 into SB p0+0x3000, 64 elements, 128 channels."""
        w = bytearray(64)
        header(w, 0x41, **(hdr or {}))
        struct.pack_into("<BBBB", w, 12, pair, out_dt, op, nac)
        pattern(w, 16, 3, src0, num=src0_num)
        pattern(w, 32, 3, src1, num=src1_num)
        pattern(w, 48, 3, dst)
        if src0_i:
            w[16:32] = bytes(16)
            indirect(w, 16, *src0_i)
        return w

    def mr(count=64, dtype=FP32, nac=128, serial=0, value=0x3F800000, dst=0x4600, dst_num=None, hdr=None, pokes=()):
        """D4_MR (§12.1): count @28, dtype @32, channels @34, serialization @36, set_value @40, dst TENSOR4D @44.
        Baseline: §12.4's 64 FP32 ones at SB p0+0x4600 on 128 channels."""
        w = bytearray(64)
        header(w, 0x49, **(hdr or {}))
        struct.pack_into("<I", w, 28, count)
        w[32], w[34], w[36] = dtype, nac, serial
        struct.pack_into("<I", w, 40, value)
        pattern(w, 44, 4, dst, num=dst_num)
        for off, val in pokes:
            w[off] = val
        return w

    def spec_hex(text):
        return bytearray.fromhex(text.replace(" ", ""))

    # The real words of matmul_small.neff (§10.4) and the synthetic words (§10.5, §11.4, §12.4). On MAVERICK
    # 0x2000000.. is SBUF partition 32, so a PSUM operand of these CAYMAN words overflows 128 channels there.
    ACT03 = spec_hex("46100000050513040200000000080002 01000100010001008000010001000100 "
                     "08088000000000000000000000400000 01000100010001008000010001000100")
    ACT04 = spec_hex("46100000050513040400000000000002 01000100010001004000010001000100 "
                     "0a0a8000000000000000000000420000 01000100010001004000010001000100")
    CAST_SYN = spec_hex("47100000000000000000000000420000 01000100010001004000010001000100 "
                        "0a078000000000000000000000440000 01000100010001004000010001000100")
    TT_SYN = spec_hex("411000000000000000000000aa0a0480 00100000010000000000400001000100 "
                      "00200000010000000000400001000100 00000002010000000000400001000100")
    MR_SYN = spec_hex("49100000000000000000000000000000 00000000000000000000000040000000 "
                      "0a008000000000000000803f00460000 01000100010001004000010001000100")
    vec("dp-real-act03", SCM, [], ACT03)
    vec("dp-real-act03/maverick", V, [SACH], ACT03)
    vec("dp-real-act04", SCM, [], ACT04)
    vec("dp-real-act04/maverick", V, [SACH], ACT04)
    vec("dp-syn-cast", ALL, [], CAST_SYN)
    vec("dp-syn-tt", SCM, [], TT_SYN)
    vec("dp-syn-tt/maverick", V, [SACH], TT_SYN)
    vec("dp-syn-memset", ALL, [], MR_SYN)

    # ---- COPY and CAST: the shared conjuncts, once per opcode ----
    for name, op in (("copy", 0x46), ("cast", 0x47)):
        T = lambda **kw: tr(opcode=op, **kw)
        vec(f"dp-{name}-base", ALL, [], T())
        vec(f"dp-{name}-word-len", ALL, [HDR], T(hdr={"word_len": 15}))
        vec(f"dp-{name}-wait-0x08", ALL, [EVT], T(hdr={"wait_mode": 0x08}))
        vec(f"dp-{name}-wait-evt-set", SCM, [], T(hdr={"wait_mode": 0x06, "wait_idx": 3}))
        vec(f"dp-{name}-wait-evt-set/maverick", V, [EVT], T(hdr={"wait_mode": 0x06, "wait_idx": 3}))
        for b in range(39, 44):
            vec(f"dp-{name}-reserved1-b{b}", ALL, [TR_RES], T(pokes=[(b, 0x01)]))
        vec(f"dp-{name}-mask", ALL, [MASK], T(mask=1))
        # COPY keeps in == out so that s4d4_tr_same_src_dst_type holds; FP32R is refused as an input only.
        vec(f"dp-{name}-in-fp32r", ALL, [VDT], T(in_dt=FP32R, out_dt=FP32R if op == 0x46 else FP32))
        # 0x4200 and 0x1000 are 8-aligned, so tensor4d_valid holds for the 8-byte dtypes.
        vec(f"dp-{name}-u64", ALL, [VDT], T(in_dt=U64, out_dt=U64))
        vec(f"dp-{name}-out-i64", ALL, [VDT] + ([TR_TYPE] if op == 0x46 else []), T(out_dt=I64))
        # Generation-dependent dtypes (enums.md §4, common-formats.md §10.4): FP4_EXP2 is a MARIANA/MAVERICK code
        # that MAVERICK's dtype_4bit_illegal_check refuses; FP8_EXP2 exists on MAVERICK only. Sub-byte and 1-byte
        # codes are byte-aligned (PROJ-CONV-C14).
        vec(f"dp-{name}-fp4e2", M, [], T(in_dt=FP4E2_, out_dt=FP4E2_))
        vec(f"dp-{name}-fp4e2/scv", (SUNDA, CAYMAN, MAVERICK), [VDT], T(in_dt=FP4E2_, out_dt=FP4E2_))
        vec(f"dp-{name}-fp8e2", V, [], T(in_dt=FP8E2_, out_dt=FP8E2_))
        vec(f"dp-{name}-fp8e2/scm", SCM, [VDT], T(in_dt=FP8E2_, out_dt=FP8E2_))
        # 0x1E is in no generation's ALU_OP enum (enums.md §5); it is not BYPASS either.
        vec(f"dp-{name}-op-0x1e", ALL, [ALU_ENUM, BYP], T(op=0x1E))
        vec(f"dp-{name}-op-add", ALL, [BYP], T(op=ADD))
        vec(f"dp-{name}-op-dim-x", ALL, [], T(op_dim=0x02))
        vec(f"dp-{name}-op-dim-xy", ALL, [ZSUB], T(op_dim=0x03))
        vec(f"dp-{name}-op-dim-xyz", ALL, [ZSUB], T(op_dim=XYZ))
        vec(f"dp-{name}-nac-0", ALL, [CHR], T(nac=0))
        vec(f"dp-{name}-nac-129", ALL, [CHR, SACH], T(nac=129))
        # start_addr_active_channels (PROJ-CONV-C15): partition + 128 channels <= 128 only from partition 0.
        vec(f"dp-{name}-src-p1", SCM, [SACH], T(src=sb(1, 0x1000)))
        vec(f"dp-{name}-src-0x41000/maverick", V, [], T(src=sb(1, 0x1000)))  # partition 0, byte 0x41000 there
        vec(f"dp-{name}-src-p1/maverick", V, [SACH], T(src=sb(1, 0x1000, True)))
        vec(f"dp-{name}-dst-p1", SCM, [SACH], T(dst=sb(1, 0x4200)))
        vec(f"dp-{name}-dst-p1/maverick", V, [SACH], T(dst=sb(1, 0x4200, True)))
        vec(f"dp-{name}-src-unaligned", ALL, [T4D], T(src=0x1002))
        vec(f"dp-{name}-dst-unaligned", ALL, [T4D], T(dst=0x4202))
        vec(f"dp-{name}-zero-counts", ALL, [T4D], T(src_num=(0, 1, 1, 1), dst_num=(0, 1, 1, 1)))
        # SHAPE_REG start (0x40, immediate address 0x1000) with zero counts: the escape holds from CAYMAN on and
        # skips the count comparison; SUNDA has no escape (PROJ-CONV-C18), so 0 != 64 elements as well.
        vec(f"dp-{name}-src-shape-reg", CMV, [], T(src=0x40001000, src_num=(0, 0, 0, 0)))
        vec(f"dp-{name}-src-shape-reg/sunda", S, [T4D, TR_CNT], T(src=0x40001000, src_num=(0, 0, 0, 0)))
        vec(f"dp-{name}-src-register", ALL, [], T(src=0x80000005))
        vec(f"dp-{name}-count", ALL, [TR_CNT], T(dst_num=(63, 1, 1, 1)))
        vec(f"dp-{name}-negated", ALL, [NEG], T(negated=1))
        # Reading PSUM in a 4-byte type (§10.4's real words) and writing it in FP32.
        vec(f"dp-{name}-dst-psum", SCM, [], T(dst=PSUM0))
        vec(f"dp-{name}-dst-psum/maverick", V, [SACH], T(dst=PSUM0))
        vec(f"dp-{name}-dst-past-psum", SCM, [SACH, T4D], T(dst=0x2400000))
        vec(f"dp-{name}-dst-0x2400000/maverick", V, [SACH], T(dst=0x2400000))
        # The MARIANA+ MEM_PATTERN4D indirect arm (§10.6, common-formats.md §6.2; decision 3). SUNDA/CAYMAN read
        # the bytes as TENSOR4D: marker 0x20 takes the immediate path, and the counts are zero.
        vec(f"dp-{name}-src-indirect-sbuf", MV, [], T(src_i=(0x1000, 0x2000, 64)))
        vec(f"dp-{name}-src-indirect-sbuf/sc", SC, [T4D, TR_CNT], T(src_i=(0x1000, 0x2000, 64)))
        vec(f"dp-{name}-src-indirect-psum", M, [], T(src_i=(0x1000, PSUM0, 64)))
        vec(f"dp-{name}-src-indirect-psum/maverick", V, [T4D], T(src_i=(0x1000, PSUM0, 64)))  # data: SBUF p32
        vec(f"dp-{name}-src-indirect-psum/sc", SC, [T4D, TR_CNT], T(src_i=(0x1000, PSUM0, 64)))
        # Index in partition 0, data in partition 32 (MARIANA) / 8 (MAVERICK): not one quadrant-base partition.
        vec(f"dp-{name}-src-indirect-far", MV, [T4D], T(src_i=(0x1000, 0x802000, 64)))
        vec(f"dp-{name}-dst-indirect", MV, [], T(dst_i=(0x4200, 0x4400, 64)))
        vec(f"dp-{name}-dst-indirect/sc", SC, [T4D, TR_CNT], T(dst_i=(0x4200, 0x4400, 64)))

    # COPY only: in_dtype == out_dtype. CAST converts, so the same word is valid there.
    vec("dp-copy-types", ALL, [TR_TYPE], tr(opcode=0x46, out_dt=I32))
    vec("dp-cast-types", ALL, [], tr(opcode=0x47, out_dt=I32))
    vec("dp-cast-out-fp32r", ALL, [], tr(opcode=0x47, out_dt=FP32R))
    vec("dp-cast-out-fp16-psum", SCM, [T4D], tr(opcode=0x47, out_dt=FP16, dst=PSUM0))  # PSUM written in 4-byte types
    vec("dp-cast-out-fp16-0x2000000/maverick", V, [SACH], tr(opcode=0x47, out_dt=FP16, dst=PSUM0))

    # ---- TENSOR_TENSOR_ARITH_OP ----
    vec("dp-tt-base", ALL, [], tt())
    vec("dp-tt-word-len", ALL, [HDR], tt(hdr={"word_len": 15}))
    vec("dp-tt-wait-0x08", ALL, [EVT], tt(hdr={"wait_mode": 0x08}))
    vec("dp-tt-wait-evt-set", SCM, [], tt(hdr={"wait_mode": 0x06, "wait_idx": 3}))
    vec("dp-tt-wait-evt-set/maverick", V, [EVT], tt(hdr={"wait_mode": 0x06, "wait_idx": 3}))
    vec("dp-tt-out-int4", ALL, [DT64], tt(out_dt=INT4_))  # MAVERICK-only code, refused there as a 4-bit type
    vec("dp-tt-out-u64", ALL, [], tt(out_dt=U64))  # 0x3000 is 8-aligned
    vec("dp-tt-out-fp32r", ALL, [], tt(out_dt=FP32R))
    vec("dp-tt-out-fp4e2", M, [], tt(out_dt=FP4E2_))
    vec("dp-tt-out-fp4e2/scv", (SUNDA, CAYMAN, MAVERICK), [DT64], tt(out_dt=FP4E2_))
    vec("dp-tt-lo-fp32r", ALL, [DT64], tt(pair=0xAB))
    vec("dp-tt-hi-fp32r", ALL, [DT64], tt(pair=0xBA))
    vec("dp-tt-lo-u64", ALL, [], tt(pair=0xA1))
    vec("dp-tt-op-0x1e", ALL, [ALU_ENUM, TT_OP], tt(op=0x1E))
    vec("dp-tt-op-divide", ALL, [TT_OP], tt(op=DIVIDE))  # arith, not general arith, not int
    vec("dp-tt-op-pow", ALL, [], tt(op=POW))
    vec("dp-tt-op-relu", MV, [], tt(op=RE_LU_))
    vec("dp-tt-op-relu/sc", SC, [ALU_ENUM, TT_OP], tt(op=RE_LU_))
    # SYMMETRIC_CLAMP: general arith on MAVERICK by PROJ-CONV-T11; no ALU op before.
    vec("dp-tt-op-symmetric-clamp", V, [], tt(op=SYMMETRIC_CLAMP_))
    vec("dp-tt-op-symmetric-clamp/scm", SCM, [ALU_ENUM, TT_OP], tt(op=SYMMETRIC_CLAMP_))
    # AMAX_INT is in no class s3s3d3_tt_valid_op accepts (enums.md §5); SUNDA lacks it.
    vec("dp-tt-op-amax-int", CMV, [TT_OP], tt(op=AMAX_INT_, pair=0x88, out_dt=I32))
    vec("dp-tt-op-amax-int/sunda", S, [ALU_ENUM, TT_OP], tt(op=AMAX_INT_, pair=0x88, out_dt=I32))
    # Integer ops and signedness (docs/conventions.md datapath decision 5).
    vec("dp-tt-mod-fp32", ALL, [SIGN], tt(op=MOD_))
    vec("dp-tt-mod-i32", ALL, [], tt(op=MOD_, pair=0x88, out_dt=I32))
    vec("dp-tt-mod-u32", ALL, [], tt(op=MOD_, pair=0x99, out_dt=U32))
    vec("dp-tt-add-int-mixed", ALL, [SIGN], tt(op=ADD_INT, pair=0x98, out_dt=I32))
    vec("dp-tt-max-int-i32", CMV, [], tt(op=MAX_INT_, pair=0x88, out_dt=I32))
    vec("dp-tt-max-int-u32", CMV, [SIGN], tt(op=MAX_INT_, pair=0x99, out_dt=U32))  # a signed-only op
    vec("dp-tt-max-int/sunda", S, [ALU_ENUM, TT_OP], tt(op=MAX_INT_, pair=0x88, out_dt=I32))
    vec("dp-tt-nac-0", ALL, [CH], tt(nac=0))
    # src0 and src1 both in quadrant-base partition 64 with 65 channels: both overflow, the pairing holds.
    vec("dp-tt-src-p64-65ch", SCM, [SACH], tt(nac=65, src0=sb(64, 0x1000), src1=sb(64, 0x2000)))
    vec("dp-tt-src-p64-65ch/maverick", V, [SACH], tt(nac=65, src0=sb(64, 0x1000, True), src1=sb(64, 0x2000, True)))
    vec("dp-tt-src-p64-64ch", SCM, [], tt(nac=64, src0=sb(64, 0x1000), src1=sb(64, 0x2000)))
    # src0 alone in partition 1: its channels overflow and it no longer pairs with src1 in partition 0.
    vec("dp-tt-src0-p1", SCM, [SACH, TTP], tt(src0=sb(1, 0x1000)))
    vec("dp-tt-src0-p1/maverick", V, [SACH, TTP], tt(src0=sb(1, 0x1000, True)))
    vec("dp-tt-dst-p1", SCM, [SACH], tt(dst=sb(1, 0x3000)))
    vec("dp-tt-dst-p1/maverick", V, [SACH], tt(dst=sb(1, 0x3000, True)))
    vec("dp-tt-src0-unaligned", ALL, [T3D], tt(src0=0x1002))
    vec("dp-tt-src1-unaligned", ALL, [T3D], tt(src1=0x2002))
    vec("dp-tt-dst-unaligned", ALL, [T3D], tt(dst=0x3002))
    vec("dp-tt-dst-psum-fp16", SCM, [T3D], tt(out_dt=FP16, dst=PSUM0))
    vec("dp-tt-dst-0x2000000-fp16/maverick", V, [SACH], tt(out_dt=FP16, dst=PSUM0))
    # The larger programs' accumulate (§1): src0 a PSUM bank, src1 = dst an SBUF accumulator.
    vec("dp-tt-accumulate", SCM, [], tt(src0=PSUM0, src1=0x3000, dst=0x3000))
    vec("dp-tt-accumulate/maverick", V, [SACH, TTP], tt(src0=PSUM0, src1=0x3000, dst=0x3000))
    vec("dp-tt-two-psum", SCM, [TTP], tt(src0=PSUM0, src1=PSUM0 + 0x1000))
    vec("dp-tt-two-0x2000000/maverick", V, [SACH], tt(src0=PSUM0, src1=PSUM0 + 0x1000))  # both SBUF p32 there
    vec("dp-tt-src0-register", ALL, [], tt(src0=0x80000001))
    vec("dp-tt-src0-count", ALL, [TT_CNT0], tt(src0_num=(63, 1, 1)))
    vec("dp-tt-src1-count", ALL, [TT_CNT1], tt(src1_num=(63, 1, 1)))
    vec("dp-tt-src0-shape-reg", CMV, [], tt(src0=0x40001000, src0_num=(0, 0, 0)))
    vec("dp-tt-src0-shape-reg/sunda", S, [T3D, TT_CNT0], tt(src0=0x40001000, src0_num=(0, 0, 0)))
    # MEM_PATTERN3D indirect src0 (MARIANA+): data in PSUM passes on MARIANA; on MAVERICK 0x2000000 is SBUF p32.
    vec("dp-tt-src0-indirect", M, [], tt(src0_i=(0x1000, PSUM0, 64)))
    vec("dp-tt-src0-indirect/maverick", V, [T3D], tt(src0_i=(0x1000, PSUM0, 64)))
    vec("dp-tt-src0-indirect/sc", SC, [T3D, TT_CNT0], tt(src0_i=(0x1000, PSUM0, 64)))
    vec("dp-tt-src0-indirect-sbuf", MV, [], tt(src0_i=(0x1000, 0x4000, 64)))

    # ---- MEMSET ----
    vec("dp-memset-base", ALL, [], mr())
    vec("dp-memset-word-len", ALL, [HDR], mr(hdr={"word_len": 15}))
    vec("dp-memset-wait-0x08", ALL, [EVT], mr(hdr={"wait_mode": 0x08}))
    vec("dp-memset-wait-evt-set", SCM, [], mr(hdr={"wait_mode": 0x06, "wait_idx": 3}))
    vec("dp-memset-wait-evt-set/maverick", V, [EVT], mr(hdr={"wait_mode": 0x06, "wait_idx": 3}))
    for b in [12, 20, 27, 33, 35, 37, 38, 39]:
        vec(f"dp-memset-reserved-b{b}", ALL, [MR_RES], mr(pokes=[(b, 0x01)]))
    vec("dp-memset-u64", ALL, [VDT, MSVT], mr(dtype=U64))  # 0x4600 is 8-aligned
    vec("dp-memset-fp32r", ALL, [MSVT], mr(dtype=FP32R))
    vec("dp-memset-fp16-one", ALL, [], mr(dtype=FP16, value=FP16_1_0))
    vec("dp-memset-fp16-fp32-bits", ALL, [MSVT], mr(dtype=FP16))
    vec("dp-memset-u8-ff", ALL, [], mr(dtype=U8, value=0xFF))
    vec("dp-memset-u8-0x100", ALL, [MSVT], mr(dtype=U8, value=0x100))
    vec("dp-memset-i32-all-ones", ALL, [], mr(dtype=I32, value=0xFFFFFFFF))
    vec("dp-memset-fp8e4", ALL, [], mr(dtype=FP8E4, value=0x38))
    vec("dp-memset-fp8e2/maverick", V, [MSVT], mr(dtype=FP8E2_, value=0x3F))  # not one of the listed 8-bit types
    vec("dp-memset-fp8e2/scm", SCM, [VDT, MSVT], mr(dtype=FP8E2_, value=0x3F))
    vec("dp-memset-serial", ALL, [SER], mr(serial=1))
    vec("dp-memset-nac-0", ALL, [CHR], mr(nac=0))
    vec("dp-memset-nac-129", ALL, [CHR, SACH], mr(nac=129))
    vec("dp-memset-dst-p1", SCM, [SACH], mr(dst=sb(1, 0x4600)))
    vec("dp-memset-dst-0x44600/maverick", V, [], mr(dst=sb(1, 0x4600)))
    vec("dp-memset-dst-p1/maverick", V, [SACH], mr(dst=sb(1, 0x4600, True)))
    vec("dp-memset-dst-unaligned", ALL, [T4D], mr(dst=0x4602))
    vec("dp-memset-dst-psum", SCM, [], mr(dst=PSUM0))
    vec("dp-memset-dst-0x2000000/maverick", V, [SACH], mr(dst=PSUM0))
    vec("dp-memset-dst-psum-fp16", SCM, [T4D], mr(dtype=FP16, value=FP16_1_0, dst=PSUM0))
    vec("dp-memset-count", ALL, [MR_CNT], mr(count=63))
    vec("dp-memset-shape-reg", CMV, [], mr(dst=0x40004600, dst_num=(0, 0, 0, 0)))
    vec("dp-memset-shape-reg/sunda", S, [T4D, MR_CNT], mr(dst=0x40004600, dst_num=(0, 0, 0, 0)))
    # D4_MR's dst is a plain TENSOR4D on every generation (§12.1): marker 0x20 is no indirect arm there; the
    # masked bits 0x4600 are the address.
    vec("dp-memset-dst-marker-0x20", ALL, [], mr(dst=0x20004600))

    # ---- Engine placement, PROJ-CONV-F1 (real-programs.md §1, §15): the datapath opcodes are accepted on ACT, DVE
    # and POOL and refused on PE and SP -- only when the word's engine is known (option engine=...); with no engine
    # every vector above is judged without it (the predicate is not applied). ----
    PLACE = "engine_placement"
    for name, word in (("copy", tr(opcode=0x46)), ("cast", tr(opcode=0x47)), ("tt", tt()), ("memset", mr())):
        for engine in ("ACT", "DVE", "POOL"):
            vec(f"dp-{name}-on-{engine.lower()}", ALL, [], word, f"engine={engine}")
        for engine in ("PE", "SP"):
            vec(f"dp-{name}-on-{engine.lower()}", ALL, [PLACE], word, f"engine={engine}")
    # A word that fails on its own bytes keeps those failures; the engine adds its own.
    vec("dp-copy-types-on-pe", ALL, [TR_TYPE, PLACE], tr(opcode=0x46, out_dt=I32), "engine=PE")
    # The real COPY of matmul_small is in the Activation stream (§10.4): valid there on CAYMAN.
    vec("dp-real-act03-on-act", SCM, [], ACT03, "engine=ACT")
