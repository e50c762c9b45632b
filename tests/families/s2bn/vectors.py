"""S2_BN vectors: TensorScalarImmLd 0x70 / 0x71, MatchValueLoad 0x6d and BatchNormParamLoad 0x64
(edge-cases.md §0, §4-§7, s2bn.md §3), and the derived corners of their common predicates.

Added to tests/vectors/validate.tsv by tests/vectors/make_validate_vectors.py. Every expected failing set is
derived by hand from the spec's predicate bodies, never from running the library (see vectorlib.py).
"""

import struct

from vectorlib import *  # noqa: F401,F403  (the generations, enum values, predicate names and vec())

# ---- predicate names (the validators' conjuncts) ----
IL_CNT = "has_tsm_immediates_load_src_element_cnt"
ZERO_IMM = "has_s2_bn_zero_immediates"
IL_DT = "tsm_immld_dtypes"
T2D = "tensor2d_valid"
RES2 = "s2_bn_reserved_zero"
MVL_CNT = "has_match_value_load_src_element_cnt"
BN_CNT = "has_bn_param_load_src_element_cnt"
BN_IMM0 = "has_valid_bn_param_load_imm0"
IMMSRC = "is_valid_enum(ImmSrc)"
BN_DT = "s2_bn_dtype"


def s2bn(opcode=0x70, dtype=FP32, start=0x0, step=(1, 0), num=(4, 1), nac=128, imm1=0, imm0_ptr=0, imm0_src=0,
         hdr=None, pokes=()):
    """S2_BN (s2bn.md §2.1); `start` is the raw ADDR4 of the TENSOR2D source."""
    w = bytearray(64)
    header(w, opcode, **(hdr or {}))
    struct.pack_into("<IhhHH", w, 16, start, step[0], step[1], num[0], num[1])
    struct.pack_into("<I", w, 28, imm1)
    w[32] = dtype
    w[34] = nac
    struct.pack_into("<I", w, 44, imm0_ptr)
    w[48] = imm0_src
    for off, val in pokes:
        w[off] = val
    return w


# Named baselines of edge-cases.md §0.
def IL(**kw):
    return s2bn(**{"opcode": 0x70, **kw})


def MVL(**kw):
    return s2bn(**{"opcode": 0x6D, "num": (8, 1), **kw})


def BNPL(**kw):
    return s2bn(**{"opcode": 0x64, "num": (3, 1), "imm1": F1, "imm0_ptr": 0x100, "imm0_src": 1, **kw})


def add():
    """Adds the family's vectors through vec()."""
    # Baselines themselves (edge-cases.md §0); #71 and #103 restate some of them as cases.
    vec("base-MVL", ALL, [], MVL())

    # §4 S2_BN shared-struct traps
    # DECISION (#64): "the BatchNormParamLoad immediates left in place" = BNPL's imm1 = 1.0f, imm0_ptr = 0x100,
    # imm0_src = 1, on a MatchValueLoad (64a) and on a TensorScalarImmLdArith (64b).
    vec("64a", ALL, [ZERO_IMM], MVL(imm1=F1, imm0_ptr=0x100, imm0_src=1))
    vec("64b", ALL, [ZERO_IMM], IL(imm1=F1, imm0_ptr=0x100, imm0_src=1))
    vec("65a", ALL, [RES2], IL(pokes=[(40, 0x01)]))
    vec("65b", ALL, [RES2], MVL(pokes=[(40, 0x01)]))
    vec("65c", ALL, [RES2], BNPL(pokes=[(40, 0x01)]))
    # #66: every listed reserved byte, on each of the three S2_BN validators.
    RESERVED_S2BN = [12, 13, 14, 15, 33] + list(range(35, 44)) + list(range(49, 64))
    for name, make in (("IL", IL), ("MVL", MVL), ("BNPL", BNPL)):
        for b in RESERVED_S2BN:
            vec(f"66-{name}-b{b}", ALL, [RES2], make(pokes=[(b, 0x01)]))

    # §5 TensorScalarImmLd 0x70 / 0x71
    vec("71", ALL, [], IL())
    for sfx, num in zip(letters(5), [(8, 1), (1, 8), (2, 4), (4, 2), (1, 1)]):
        vec("72" + sfx, ALL, [], IL(num=num))
    vec("73a", ALL, [IL_CNT], IL(num=(9, 1)))
    vec("73b", ALL, [IL_CNT], IL(num=(3, 3)))
    # #73c/d: a zero count also fails tensor2d_valid (no shape-from-register marker, so no escape).
    vec("73c", ALL, [IL_CNT, T2D], IL(num=(0, 1)))
    vec("73d", ALL, [IL_CNT, T2D], IL(num=(1, 0)))
    # DECISION (#74/#75): "shape-from-register marker" = ADDR4 byte 3 = 0x40 (SHAPE_REG) with immediate address
    # 0, i.e. start_addr = 0x40000000 (as in #113). The placement part of tensor2d_valid is then an SBUF
    # address 0 and holds.
    vec("74", S, [IL_CNT, T2D], IL(start=0x40000000, num=(0, 0)))
    vec("75", CMV, [], IL(start=0x40000000, num=(0, 0)))
    vec("76", ALL, [ZERO_IMM], IL(imm1=F1))
    vec("77", ALL, [], IL(imm1=0x80000000))
    vec("78a", ALL, [ZERO_IMM], IL(imm1=0x7FC00000))
    vec("78b", ALL, [ZERO_IMM], IL(imm1=0x00000001))
    vec("79a", ALL, [ZERO_IMM], IL(imm0_src=1))
    vec("79b", ALL, [ZERO_IMM], IL(imm0_ptr=0x3F800000))
    vec("79c", ALL, [], IL(imm0_ptr=0x80000000))
    vec("80a", ALL, [], IL(opcode=0x70, dtype=I8))
    vec("80b", ALL, [], IL(opcode=0x70, dtype=I16))
    vec("81a", ALL, [IL_DT], IL(opcode=0x71, dtype=I8))
    vec("81b", ALL, [IL_DT], IL(opcode=0x71, dtype=I16))
    for sfx, dt in zip(letters(4), [U8, U16, U32, I32]):
        vec("82" + sfx, ALL, [], IL(opcode=0x71, dtype=dt))
    for sfx, dt in zip(letters(6), [FP32, FP16, BF16, FP8E3, FP8E4, FP8E5]):
        vec("83" + sfx, ALL, [IL_DT], IL(opcode=0x71, dtype=dt))
    # #84: INVALID additionally fails tensor2d_valid: addr_aligned_dtype(a, INVALID) is false (PROJ-CONV-C14).
    sub = iter(letters(8))
    for op in (0x70, 0x71):
        for dt in (FP32R, U64, I64):
            vec("84" + next(sub), ALL, [IL_DT, VDT], IL(opcode=op, dtype=dt))
        vec("84" + next(sub), ALL, [IL_DT, VDT, T2D], IL(opcode=op, dtype=INVALID))
    vec("85a", ALL, [CH], IL(nac=0))
    vec("85b", ALL, [], IL(nac=128))
    vec("85c", ALL, [CH], IL(nac=129))
    # #89a: regnum 64 is not a register address for tensor_start_addr_valid, so the word takes the immediate
    # path on the masked bits 0x40 (SBUF partition 0, 4-aligned) and is accepted as well.
    vec("89a-1", ALL, [], IL(opcode=0x71, dtype=U32, start=0x80000005))
    vec("89a-2", ALL, [], IL(opcode=0x71, dtype=U32, start=0x80000040))

    # §6 MatchValueLoad 0x6d
    for sfx, num in zip(letters(4), [(8, 1), (1, 8), (2, 4), (4, 2)]):
        vec("93" + sfx, ALL, [], MVL(num=num))
    for sfx, num in zip(letters(4), [(7, 1), (9, 1), (3, 3), (4, 4)]):
        vec("94" + sfx, ALL, [MVL_CNT], MVL(num=num))
    for sfx, dt in zip(letters(3), [I8, U16, FP8E4]):
        vec("95" + sfx, ALL, [], MVL(dtype=dt))
    for sfx, dt in zip(letters(3), [FP32R, U64, I64]):
        vec("96" + sfx, ALL, [VDT], MVL(dtype=dt))
    vec("97a", M, [], MVL(dtype=FP4E2))
    vec("97b", M, [], MVL(dtype=CPTC1))
    vec("98", V, [VDT], MVL(dtype=FP4E2))

    # §7 BatchNormParamLoad 0x64
    vec("103a", ALL, [], BNPL())
    vec("103b", ALL, [], BNPL(num=(1, 3)))
    for sfx, num in zip(letters(4), [(1, 1), (2, 2), (3, 3), (4, 1)]):
        vec("104" + sfx, ALL, [BN_CNT], BNPL(num=num))
    for sfx, dt in zip(letters(3), [I32, U8, FP32R]):
        vec("105" + sfx, ALL, [BN_DT], BNPL(dtype=dt))
    vec("106a", ALL, [], BNPL(dtype=BF16))
    vec("106b", ALL, [], BNPL(dtype=FP16))
    vec("107", ALL, [], BNPL(imm0_src=0, imm0_ptr=0x100))
    vec("108a", ALL, [BN_IMM0], BNPL(imm0_src=0, imm0_ptr=0x102))
    vec("108b", ALL, [BN_IMM0], BNPL(imm0_src=1, imm0_ptr=0x102))
    vec("109", ALL, [], BNPL(imm0_src=2, imm0_ptr=0x00000005))
    vec("110a", ALL, [BN_IMM0], BNPL(imm0_src=2, imm0_ptr=200))
    # DECISION (#110b): "reserved bytes != 0" = regnum 5 with IMM_REG.reserved0[0] = 1 (imm0_ptr = 0x105).
    vec("110b", ALL, [BN_IMM0], BNPL(imm0_src=2, imm0_ptr=0x00000105))
    # #111: imm0_ptr stays BNPL's 0x100; no pointer branch applies (PROJ-CONV-S11), N = 1.0 is finite.
    vec("111", ALL, [IMMSRC], BNPL(imm0_src=3))
    vec("112a", ALL, [BN_IMM0], BNPL(imm1=0x7F800000))
    vec("112b", ALL, [BN_IMM0], BNPL(imm1=0x7FC00000))
    vec("113", CMV, [], BNPL(start=0x40000000, num=(0, 0)))
    vec("113/sunda", S, [BN_CNT, T2D], BNPL(start=0x40000000, num=(0, 0)))

    # DECISION (#148): the pair is an ImmLdArith loading 2 scalars (num {2,1}) and the PM baseline with W = 4.
    vec("148a", ALL, [], IL(num=(2, 1)))

    # ---- Derived boundaries (not numbered in edge-cases.md). Ids start with "d-". ----
    # tensor_start_addr_valid: only the exact marker 0x80 bypasses; 0xC0 takes the immediate path on the
    # masked bits, and addr_aligned_dtype reads the unmasked addr_immediate (0xC0000005 % 4 != 0).
    vec("d-addr4-c0-aligned", ALL, [], IL(start=0xC0000004))
    vec("d-addr4-c0-unaligned", ALL, [T2D], IL(start=0xC0000005))
    # 0x2400000 is past PSUM on SUNDA..MARIANA but SBUF partition 36 on MAVERICK (S2_BN has no start-channel
    # check, PROJ-CONV-S3).
    vec("d-il-src-past-psum", SCM, [T2D], IL(start=0x2400000))
    vec("d-il-src-past-psum/maverick", V, [], IL(start=0x2400000))
    # Reading PSUM with a 2-byte dtype is allowed (the 4-byte rule binds written tensors only).
    vec("d-il-src-psum-fp16", ALL, [], IL(start=0x2000000, dtype=FP16))
    # BatchNormParamLoad mean pointer: bits 31..29 are masked off (PROJ-CONV-C15); partition + channels.
    vec("d-bnpl-ptr-high-bits", ALL, [], BNPL(imm0_ptr=0xE0000100))
    vec("d-bnpl-ptr-0x40000", SCM, [BN_IMM0], BNPL(imm0_ptr=0x40000))
    vec("d-bnpl-ptr-0x40000/maverick", V, [], BNPL(imm0_ptr=0x40000))
    vec("d-bnpl-ptr-0x100000", ALL, [BN_IMM0], BNPL(imm0_ptr=0x100000))
    vec("d-bnpl-129-channels", ALL, [BN_IMM0, CH], BNPL(nac=129))
    # is_valid_dtype enum membership per generation (PROJ-CONV-C13), and its runtime alternative switch.
    vec("d-mvl-fp8e2", SCM, [VDT], MVL(dtype=FP8E2))
    vec("d-mvl-fp8e2/maverick", V, [], MVL(dtype=FP8E2))
    vec("d-mvl-cptc1", SC, [VDT], MVL(dtype=CPTC1))
    vec("d-mvl-cptc1/mv", MV, [], MVL(dtype=CPTC1))
    vec("d-mvl-fp4e2/runtime", M, [VDT], MVL(dtype=FP4E2), "dtype_enum_runtime")
