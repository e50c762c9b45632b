#!/usr/bin/env python3
"""Generates validate.tsv: per-generation validator verdicts for the numbered cases of spec/edge-cases.md."""
#
# Usage: python3 tests/vectors/make_validate_vectors.py [OUT]   (default: validate.tsv next to this file)
#
# Python 3 standard library only; the output is deterministic (no clocks, no randomness, no dict-order
# dependence beyond insertion order). Every expected value below is derived by hand from the predicate
# bodies of the spec (mem2d.md §5, s2bn.md §3, s4d4-tsm.md §3, common-formats.md §10) -- never from running
# the library. Where edge-cases.md says "REJECT (p, q)" (= at least p and q) the full failing set is worked
# out here; where it says "only", the set is exactly that.
#
# Reporting rule assumed (PROJ-CONV-C10 and the library's reporting of compositions): the failing set
# names the validator's conjuncts, so a composite conjunct is named by its outer name
# (mem2d_shared_constraints, not mem2d_num_elem_check / mem2d_dtype_check; tensor_scalar_ptr_multi_valid_ops,
# not is_general_arith_op). Two conjunct instances with one name (PtrMulti: is_valid_dtype for in/out,
# start_addr_active_channels and tensor4d_valid for src/dst) appear once in the set.
#
# DECISIONS on ambiguous cases are marked "DECISION:" next to the case below.

import os
import struct
import sys

SUNDA, CAYMAN, MARIANA, MAVERICK = "sunda", "cayman", "mariana", "maverick"
ALL = (SUNDA, CAYMAN, MARIANA, MAVERICK)
S, C, M, V = (SUNDA,), (CAYMAN,), (MARIANA,), (MAVERICK,)
CMV = (CAYMAN, MARIANA, MAVERICK)
SC = (SUNDA, CAYMAN)
MV = (MARIANA, MAVERICK)
SCM = (SUNDA, CAYMAN, MARIANA)

# ---- enum values (enums.md) ----
INVALID, U64, I8, U8, I16, U16, BF16, FP16, I32, U32, FP32, FP32R, I64 = range(13)
FP8E3, FP8E4, FP8E5, FP4E2, FP8E2, INT4, SFP8E8 = 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x12, 0x13
CPTC1 = 0x19
ADD, DIVIDE, MAX, BITWISE_AND, LOGICAL_AND, LSL, POW, MOD, CRC32, RSQRT = (
    0x04, 0x07, 0x08, 0x0A, 0x0D, 0x10, 0x1A, 0x1B, 0x1C, 0x1D)
BYPASS, ABS_MAX, ABS_MIN, RE_LU, SQUARE, SYMMETRIC_CLAMP = 0x00, 0x20, 0x21, 0x22, 0x23, 0x24
ADD_INT, MAX_INT, AMAX_INT = 0xC4, 0xCF, 0xDE
XYZ = 0x04
F1 = 0x3F800000  # 1.0f

# ---- predicate names (the validators' conjuncts) ----
HDR = "has_valid_neuron_header"
SHARED = "mem2d_shared_constraints"
DS_ZERO = "mem2d_datasrc_zero"
DS_VALID = "mem2d_datasrc_valid"
E32 = "mem2d_32_elem_check"
STORE_CNT = "mem2d_store_num_elem_check"
U64REG = "mem2d_u64_register_check"
START = "valid_start_addr"
WINDOW = "mem2d_single_16mb_window"
PSEUDO_DT = "pseudo_mem2d_dtype_check"
IL_CNT = "has_tsm_immediates_load_src_element_cnt"
ZERO_IMM = "has_s2_bn_zero_immediates"
IL_DT = "tsm_immld_dtypes"
VDT = "is_valid_dtype"
CH = "check_active_channels"
T2D = "tensor2d_valid"
RES2 = "s2_bn_reserved_zero"
MVL_CNT = "has_match_value_load_src_element_cnt"
BN_CNT = "has_bn_param_load_src_element_cnt"
BN_IMM0 = "has_valid_bn_param_load_imm0"
IMMSRC = "is_valid_enum(ImmSrc)"
BN_DT = "s2_bn_dtype"
SLICES = "has_valid_src_slices_tsm_singular"
SLICES_DUAL = "has_valid_src_slices_tsm_dual"
DUAL_OP = "has_tensor_scalar_ptr_multi_dual_opcode"
OPS = "tensor_scalar_ptr_multi_valid_ops"
TYPES = "tensor_scalar_ptr_multi_valid_types"
REV = "tensor_scalar_ptr_multi_reverse_chk"
RES4 = "s4d4_tsm_reserved_zero"
ALUOP = "is_valid_aluop"
SUBDIM = "is_valid_tsm_subdim"
CHR = "has_valid_active_channel_range"
CHR_TILE = "has_valid_active_channel_range_with_tile"
SACH = "start_addr_active_channels"
T4D = "tensor4d_valid"
SAME = "same_element_count_t4d"
NOTIF = "ctrl_no_valid_notification"
CTRL_RES = "ctrl_no_reserved_zero"


# ---- word builders (little-endian, PROJ-CONV-C1; all reserved bytes zero, events zero) ----

def header(w, opcode, word_len=16, debug_cmd=0, debug_hint=0, wait_mode=0, wait_idx=0, update_mode=0,
           update_idx=0, sem_value=0):
    struct.pack_into("<BBBBBBBBI", w, 0, opcode, word_len, debug_cmd, debug_hint, wait_mode, wait_idx,
                     update_mode, update_idx, sem_value)


def regs(*values):
    """A 32-slot MEM2D_DATA register list (unlisted slots 0)."""
    out = list(values) + [0] * (32 - len(values))
    assert len(out) == 32
    return out


def mem2d(opcode=0xAA, dtype=U32, datasrc=0, num=(4, 1), start=0x1000, step=(1, 0), data=None,
          pseudo=False, var_id=1, var_offset=0, hdr=None, pokes=()):
    """MEM_2D (mem2d.md §3) or PSEUDO_MEM_2D (§4). `start` is the raw 8-byte ADDR8."""
    w = bytearray(64)
    header(w, opcode, **(hdr or {}))
    struct.pack_into("<BBBB", w, 12, dtype, datasrc, num[0], num[1])
    if pseudo:
        struct.pack_into("<II", w, 16, var_id, var_offset)
    else:
        struct.pack_into("<Q", w, 16, start)
    struct.pack_into("<ii", w, 24, step[0], step[1])
    w[32:64] = bytes(regs(0, 1, 2, 3) if data is None else data)
    for off, val in pokes:
        w[off] = val
    return w


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


def s4d4(opcode=0x4F, src=0x0, src_step=(1, 8, 8, 8), src_num=(8, 1, 1, 4), dst=0x1000, dst_step=(1, 8, 8, 8),
         dst_num=None, in_dt=FP32, out_dt=FP32, nac=128, op=ADD, op_dim=XYZ, rev=0, hdr=None, pokes=()):
    """S4D4_TSM (s4d4-tsm.md §2.1); src/dst are raw ADDR4 start addresses of the TENSOR4D patterns."""
    w = bytearray(64)
    header(w, opcode, **(hdr or {}))
    struct.pack_into("<I4h4H", w, 12, src, *src_step, *src_num)
    struct.pack_into("<BBBBBBB", w, 32, in_dt, out_dt, nac, 0, op, op_dim, rev)
    struct.pack_into("<I4h4H", w, 44, dst, *dst_step, *(src_num if dst_num is None else dst_num))
    for off, val in pokes:
        w[off] = val
    return w


def ctrl_no(opcode=0xA4, notification=0, drain_count=0, hdr=None, pokes=()):
    """CTRL_NO (sequencer.md §3.1): header, events, reserved 12..38, notification @39, drain_count @40,
    reserved 41..63."""
    w = bytearray(64)
    header(w, opcode, **(hdr or {}))
    w[39] = notification
    w[40] = drain_count
    for off, val in pokes:
        w[off] = val
    return w


# Named baselines of edge-cases.md §0.
def TL(**kw):
    return mem2d(opcode=0xAA, **kw)


def TS(**kw):
    return mem2d(opcode=0xAB, **kw)


def PTL(**kw):
    return mem2d(opcode=0xCE, pseudo=True, **kw)


def PTS(**kw):
    return mem2d(opcode=0xCD, pseudo=True, **kw)


def IL(**kw):
    return s2bn(**{"opcode": 0x70, **kw})


def MVL(**kw):
    return s2bn(**{"opcode": 0x6D, "num": (8, 1), **kw})


def BNPL(**kw):
    return s2bn(**{"opcode": 0x64, "num": (3, 1), "imm1": F1, "imm0_ptr": 0x100, "imm0_src": 1, **kw})


def PM(**kw):
    return s4d4(**{"opcode": 0x4F, **kw})


def PMB(**kw):
    return s4d4(**{"opcode": 0x5F, "in_dt": U32, "out_dt": U32, "op": BITWISE_AND, **kw})


def addr8_reg(reg_lo, reg_hi, marker=0x80):
    """ADDR8 register-pair form {reg_lo, reg_hi, reserved0[5] = 0, marker}."""
    return reg_lo | (reg_hi << 8) | (marker << 56)


# ---- the vector list ----

VECTORS = []


def vec(vid, gens, failing, word, options="-"):
    """`failing` lists the exact failing predicate names (empty = the word is valid)."""
    assert len(word) == 64
    assert all(v[0] != vid for v in VECTORS), f"duplicate id {vid}"
    VECTORS.append((vid, tuple(gens), tuple(dict.fromkeys(failing)), bytes(word), options))


def letters(n):
    return "abcdefghijklmnopqrstuvwxyz"[:n]


# Baselines themselves (edge-cases.md §0); #1, #2, #71, #103, #117 restate some of them as cases.
vec("base-PTL", ALL, [], PTL())
vec("base-PTS", ALL, [], PTS())
vec("base-MVL", ALL, [], MVL())
vec("base-PMB", ALL, [], PMB())

# §1 TensorLoad / TensorStore validation
vec("1", ALL, [], TL())
vec("2", ALL, [], TS())
vec("3", ALL, [HDR], TL(hdr={"word_len": 15}))
vec("4", ALL, [DS_ZERO], TL(datasrc=1))
vec("5", ALL, [], TS(datasrc=1, dtype=U32, num=(8, 1)))
# #6: store count still holds (UINT32, n = 4 <= 8), so datasrc_valid is the only failure.
vec("6", ALL, [DS_VALID], TS(datasrc=2))
vec("7", ALL, [SHARED], TL(num=(0, 1)))
vec("8", ALL, [SHARED, E32], TL(num=(33, 1)))
for sfx, num in zip(letters(3), [(32, 1), (1, 32), (4, 8)]):
    vec("9" + sfx, ALL, [], TL(num=num))
for sfx, num in zip(letters(2), [(5, 7), (6, 6)]):
    vec("10" + sfx, ALL, [SHARED, E32], TL(num=num))
vec("11", ALL, [], TL(dtype=U16, num=(32, 1)))
vec("12", ALL, [], TS(datasrc=0, dtype=U16, num=(32, 1)))
# #13: n is laid out as num = {n, 1}; both dtypes at both counts.
vec("13a", ALL, [], TS(datasrc=1, dtype=U16, num=(16, 1)))
vec("13b", ALL, [], TS(datasrc=1, dtype=I16, num=(16, 1)))
vec("13c", ALL, [STORE_CNT], TS(datasrc=1, dtype=U16, num=(17, 1)))
vec("13d", ALL, [STORE_CNT], TS(datasrc=1, dtype=I16, num=(17, 1)))
vec("14a", ALL, [], TS(datasrc=1, dtype=U8, num=(32, 1)))
vec("14b", ALL, [], TS(datasrc=1, dtype=I8, num=(32, 1)))
for sfx, dt in zip("ace", [U32, I32, FP32]):
    vec("15" + sfx, ALL, [], TS(datasrc=1, dtype=dt, num=(8, 1)))
for sfx, dt in zip("bdf", [U32, I32, FP32]):
    vec("15" + sfx, ALL, [STORE_CNT], TS(datasrc=1, dtype=dt, num=(9, 1)))
# #16: immediate UINT64 -- the even-register rule does not apply (datasrc = 1); 0x1000 is 8-aligned.
vec("16a", ALL, [], TS(datasrc=1, dtype=U64, num=(4, 1)))
vec("16b", ALL, [STORE_CNT], TS(datasrc=1, dtype=U64, num=(5, 1)))
# #17-#19: TL and TS (register source) with each non-MEM_2D dtype. Alignment of 0x1000 holds for every
# size, and the store count (register, n = 4) holds, so only the shared constraints fail.
# INT64 (#19) is not UINT64, so mem2d_u64_register_check does not look at the odd registers of TL's data.
sub = iter(letters(26))
for dt in [BF16, FP16, FP8E3, FP8E4, FP8E5]:
    for make in (TL, TS):
        vec("17" + next(sub), ALL, [SHARED], make(dtype=dt))
vec("18a", ALL, [SHARED], TL(dtype=FP32R))
vec("18b", ALL, [SHARED], TS(dtype=FP32R))
vec("19a", ALL, [SHARED], TL(dtype=I64))
vec("19b", ALL, [SHARED], TS(dtype=I64))
vec("20", ALL, [], TL(dtype=U64, data=regs(0, 2, 4, 6), num=(4, 1), start=0x1000))
# DECISION (#21): "data[0] = 3" is applied to #20's even list, giving data = [3, 2, 4, 6, 0...]
# (TL's own data already holds odd registers 1 and 3).
vec("21", ALL, [U64REG], TL(dtype=U64, data=regs(3, 2, 4, 6)))
vec("22", ALL, [U64REG], TL(dtype=U64, num=(1, 1), data=regs(*([0] * 31 + [1]))))
# DECISION (#23): "any odd slot" -- TS's baseline data [0, 1, 2, 3] (odd slots 1 and 3), num {4,1}.
vec("23", ALL, [U64REG], TS(datasrc=0, dtype=U64))
vec("24", ALL, [], TS(datasrc=1, dtype=U64, num=(4, 1), data=regs(1, 3, 5, 7, 9, 11, 13, 15)))
vec("25", ALL, [], TL(data=regs(7, 1, 2, 3)))
vec("26", ALL, [START], TL(start=0x1002))
vec("27", ALL, [START], TL(dtype=U64, data=regs(0, 2, 4, 6), start=0x1004))
vec("28", ALL, [], TL(dtype=U8, start=0x1003))
# DECISION (#29): the register pair is reg_lo = 4, reg_hi = 5 (their run-time contents, 0x1002, are not
# part of the word); reserved0[0..4] = 0.
vec("29", ALL, [], TL(start=addr8_reg(4, 5)))
vec("29a-1", ALL, [], TL(start=addr8_reg(64, 5)))
vec("29a-2", ALL, [], TL(start=addr8_reg(4, 200)))
vec("30", ALL, [START], TL(start=(0x40 << 56) | 0x1002))
# #31: accepted by default (PROJ-CONV-M3). DECISION: with the optional strict_window switch the only
# failure is the project predicate mem2d_single_16mb_window (first byte 0xFFFFFC, last byte 0x1000003).
vec("31", ALL, [], TL(start=0xFFFFFC, num=(2, 1), step=(1, 0)))
vec("31/strict_window", ALL, [WINDOW], TL(start=0xFFFFFC, num=(2, 1), step=(1, 0)), "strict_window")
vec("32", ALL, [], TL(step=(-1, 0)))
# DECISION: #32 and the TL baseline stay inside one 16 MiB window, so strict_window accepts them too.
vec("32/strict_window", ALL, [], TL(step=(-1, 0)), "strict_window")
vec("1/strict_window", ALL, [], TL(), "strict_window")
# DECISION (#32a, a RESULT case): both words validate -- no MEM_2D predicate checks the address range
# (mem2d.md §5.3 notes). TS stores to Neuron address 0x20_0000_1000, TL reads 0x1000.
vec("32a-1", ALL, [], TS(start=0x2000001000))
vec("32a-2", ALL, [], TL(start=0x1000))
vec("33a", ALL, [], TL(data=regs(64, 1, 2, 3)))
vec("33b", ALL, [], TL(data=regs(200, 1, 2, 3)))
vec("34", ALL, [], TL(dtype=U64, num=(1, 1), data=regs(62)))
vec("35", ALL, [], TL(hdr={"update_mode": 0x87}))

# §3 Pseudo pair 0xce / 0xcd (flat conjunctions, PROJ-CONV-M11 / M5)
vec("55", ALL, [PSEUDO_DT], PTL(dtype=U64))
# #56: only the "ACCEPT as a pseudo" part has a validator verdict; the post-lowering REJECT is a lowering case.
vec("56", ALL, [], PTL(var_offset=2, dtype=U32))
# DECISION (#57): "an odd data register" = data[0] = 5 (PTL's data already holds 1 and 3 as well).
vec("57", ALL, [], PTL(dtype=U32, data=regs(5, 1, 2, 3)))

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

# §8 TensorScalarPtrMulti 0x4F / 0x5F
vec("117", ALL, [], PM())
# DECISION (#118): the dst pattern follows W (dst num = {8,1,1,W}) so that only W is varied; otherwise
# W = 1 and W = 8 could not be ACCEPT (same_element_count_t4d). With W = 0 both patterns have a zero count,
# so tensor4d_valid fails for src and dst as well (same count 0 = 0 holds).
vec("118a", ALL, [SLICES, T4D], PM(src_num=(8, 1, 1, 0)))
vec("118b", ALL, [], PM(src_num=(8, 1, 1, 1)))
vec("118c", ALL, [], PM(src_num=(8, 1, 1, 8)))
vec("118d", ALL, [SLICES], PM(src_num=(8, 1, 1, 9)))
vec("119a", ALL, [REV], PM(rev=1))
vec("119b", ALL, [REV], PM(rev=2))
vec("120", ALL, [], PM(rev=3))
vec("121", ALL, [REV], PM(rev=4))
for sfx, od in zip(letters(4), [0x00, 0x02, 0x03, 0x05]):
    vec("122" + sfx, ALL, [SUBDIM], PM(op_dim=od))
sub = iter(letters(6))
for op in (DIVIDE, POW, MOD):
    vec("123" + next(sub), ALL, [OPS], PM(op=op))
    vec("123" + next(sub), ALL, [OPS], PMB(op=op))
for sfx, op in zip(letters(4), [RSQRT, CRC32, BITWISE_AND, LSL]):
    vec("124" + sfx, ALL, [OPS], PM(op=op))
vec("125a", ALL, [OPS], PM(op=ADD_INT))
# DECISION (#125b/c): "any int-band op, incl. AMAX_INT" on "all" gens -- AMAX_INT (0xDE) is not an ALU_OP
# of SUNDA (present from CAYMAN on), so on SUNDA it also fails is_valid_aluop (valid_ops via is_valid_enum).
vec("125b", CMV, [OPS], PM(op=AMAX_INT))
vec("125c", S, [OPS, ALUOP], PM(op=AMAX_INT))
vec("126", V, [OPS], PM(op=MAX_INT))
vec("127", ALL, [], PMB(op=CRC32))
for sfx, op in zip(letters(3), [ADD, LOGICAL_AND, MAX]):
    vec("128" + sfx, ALL, [OPS], PMB(op=op))
vec("129a", ALL, [], PM(op=BYPASS))
vec("129b", ALL, [], PMB(op=BYPASS))
for sfx, op in zip(letters(4), [ABS_MAX, ABS_MIN, RE_LU, SQUARE]):
    vec("130" + sfx, SC, [OPS, ALUOP], PM(op=op))
    vec("131" + sfx, MV, [], PM(op=op))
vec("132", V, [], PM(op=SYMMETRIC_CLAMP))
vec("132/scm", SCM, [OPS, ALUOP], PM(op=SYMMETRIC_CLAMP))
for sfx, op in zip(letters(3), [0x1E, 0x1F, 0x25]):
    vec("133" + sfx, ALL, [OPS, ALUOP], PM(op=op))
vec("134", ALL, [], PMB(in_dt=U8, out_dt=U8))
vec("135", ALL, [TYPES], PMB(in_dt=U8, out_dt=U16))
for sfx, dt in zip(letters(3), [I8, I16, FP32]):
    vec("136" + sfx, ALL, [TYPES], PMB(in_dt=dt, out_dt=dt))
vec("137", ALL, [VDT], PM(in_dt=FP32R))
vec("138", ALL, [], PM(out_dt=FP32R))
# #139: src 0x0 and dst 0x1000 are 8-aligned, so tensor4d_valid holds for the 8-byte dtypes.
vec("139a", ALL, [VDT], PM(in_dt=U64))
vec("139b", ALL, [VDT], PM(in_dt=I64))
vec("139c", ALL, [VDT], PM(out_dt=U64))
vec("139d", ALL, [VDT], PM(out_dt=I64))
vec("140a", ALL, [], PM(out_dt=I16))
vec("140b", ALL, [], PM(out_dt=U16))
# DECISION (#141): every byte of reserved0 (35) and reserved1 (39..43) is covered, not only 35 and 43.
for b in [35, 39, 40, 41, 42, 43]:
    vec(f"141-b{b}", ALL, [RES4], PM(pokes=[(b, 0x01)]))
vec("142", ALL, [], PM(pokes=[(44, 0x04)]))
# #143/#144: register-form ADDR4 = byte 3 0x80, reserved0 = 0, regnum 1 (src) / 2 (dst).
vec("143a", SCM, [CHR], PM(nac=0))
vec("143b", SCM, [CHR, SACH], PM(nac=129))
vec("143c", SCM, [CHR], PM(nac=129, src=0x80000001, dst=0x80000002))
# DECISION (#144): "some inst_flags" = header byte 3 (PROJ-CONV-C2) = 0x01.
vec("144a", V, [CHR_TILE, SACH], PM(nac=129, hdr={"debug_hint": 0x01}))
vec("144b", V, [CHR_TILE], PM(nac=129, src=0x80000001, dst=0x80000002, hdr={"debug_hint": 0x01}))
vec("145", ALL, [SAME], PM(dst_num=(8, 1, 1, 3)))
vec("146", ALL, [], PM(dst_num=(32, 1, 1, 1)))
vec("147", ALL, [], PMB(op=LSL, in_dt=U8, out_dt=U8))
# DECISION (#148): the pair is an ImmLdArith loading 2 scalars (num {2,1}) and the PM baseline with W = 4.
vec("148a", ALL, [], IL(num=(2, 1)))
vec("148b", ALL, [], PM())

# §10 SUNDA Dual 0x87 / 0x88 and opcode-space traps
vec("166", S, [], PM(opcode=0x87, src_num=(8, 1, 1, 4), rev=1))
# DECISION (#167, #168b): as in #118 the dst pattern follows W, so same_element_count_t4d holds.
vec("167", S, [SLICES_DUAL], PM(opcode=0x87, src_num=(8, 1, 1, 5)))
vec("168a", S, [DUAL_OP], PMB(opcode=0x88))
vec("168b", S, [DUAL_OP, SLICES_DUAL], PMB(opcode=0x88, src_num=(8, 1, 1, 5)))
vec("169a", CMV, [HDR], PM(opcode=0x87))
vec("169b", CMV, [HDR], PMB(opcode=0x88))
vec("171", ALL, [], PM(hdr={"update_mode": 0x87}))

# §11 Cross-cutting ALU / dtype traps
vec("180", V, [], PM(in_dt=FP8E2))
vec("181", M, [], PM(in_dt=FP4E2))
for sfx, dt in zip(letters(3), [FP4E2, INT4, SFP8E8]):
    vec("182" + sfx, V, [VDT], PM(in_dt=dt))

# ---- Derived boundaries (not numbered in edge-cases.md): generation-dependent corners of the common
# predicates (common-formats.md §10, memory-and-numerics.md §2-§4). Ids start with "d-". ----
# Header and events: INVALID (PROJ-CONV-C11), an unassigned opcode, another pseudo opcode (PROJ-CONV-C12),
# and the MAVERICK changes to WAIT_MODE / UPDATE_MODE (enums.md §9-§10).
vec("d-opcode-invalid", ALL, [HDR], mem2d(opcode=0xFF))
vec("d-opcode-unassigned", ALL, [HDR], mem2d(opcode=0x00))
vec("d-opcode-pseudo-d4", ALL, [], mem2d(opcode=0xD4))
vec("d-wait-evt-set", SCM, [], TL(hdr={"wait_mode": 0x06}))
vec("d-wait-evt-set/maverick", V, ["has_valid_neuron_events"], TL(hdr={"wait_mode": 0x06}))
vec("d-wait-reg-offset", V, [], TL(hdr={"wait_mode": 0x91}))
vec("d-wait-reg-offset/scm", SCM, ["has_valid_neuron_events"], TL(hdr={"wait_mode": 0x91}))
vec("d-update-evt-complete", SCM, [], TL(hdr={"update_mode": 0x11}))
vec("d-update-evt-complete/maverick", V, ["has_valid_neuron_events"], TL(hdr={"update_mode": 0x11}))
# MEM_2D table-form ADDR8 (marker 0x20) is not an immediate: no alignment check (PROJ-CONV-M2/M6).
vec("d-mem2d-table-marker", ALL, [], TL(start=(0x20 << 56) | 0x1002))
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
# PtrMulti dst at 0x2000000: PSUM partition 0 on SUNDA..MARIANA (written, so 4-byte dtypes only); SBUF
# partition 32 on MAVERICK, where 32 + 128 channels overflow (PROJ-CONV-C15).
vec("d-pm-dst-psum-fp32", SCM, [], PM(dst=0x2000000))
vec("d-pm-dst-psum-fp16", SCM, [T4D], PM(dst=0x2000000, out_dt=FP16))
vec("d-pm-dst-0x2000000/maverick", V, [SACH], PM(dst=0x2000000))
vec("d-pm-dst-0x2000000-fp16/maverick", V, [SACH], PM(dst=0x2000000, out_dt=FP16))
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

# ---- CTRL_NO (sequencer.md §3.2 PROJ-CONV-Q3, real-programs.md §4.2 PROJ-CONV-F4); one layout on every
# generation (PROJ-CONV-Q17), so each verdict holds on all four ----
CTRL_NO_OPS = (("atl", 0x23), ("halt", 0xA1), ("drain", 0xA2), ("flush", 0xA3), ("nop", 0xA4), ("notify", 0xA6))
for name, op in CTRL_NO_OPS:
    vec(f"ctrl_no-base-{name}", ALL, [], ctrl_no(op))
# The real words of matmul_small.neff (real-programs.md §4.4): sg00/Pool#06 waits S[27] >= 16; sg00/Activation#02.
vec("ctrl_no-real-pool06", ALL, [], ctrl_no(0xA4, hdr={"wait_mode": 0x05, "wait_idx": 0x1B, "sem_value": 0x10}))
vec("ctrl_no-real-act02", ALL, [], ctrl_no(0x23))
# has_valid_neuron_header / has_valid_neuron_events, as for every validator.
vec("ctrl_no-word-len", ALL, [HDR], ctrl_no(0xA4, hdr={"word_len": 15}))
vec("ctrl_no-event-wait", SCM, [], ctrl_no(0xA4, hdr={"wait_mode": 0x06, "wait_idx": 3}))
vec("ctrl_no-event-wait/maverick", V, ["has_valid_neuron_events"], ctrl_no(0xA4, hdr={"wait_mode": 0x06, "wait_idx": 3}))
# ctrl_no_valid_notification: byte 39 in {0, 1}, set only by HALT and NOTIFY.
vec("ctrl_no-notify-halt", ALL, [], ctrl_no(0xA1, notification=1))
vec("ctrl_no-notify-notify", ALL, [], ctrl_no(0xA6, notification=1))
vec("ctrl_no-notify-2-halt", ALL, [NOTIF], ctrl_no(0xA1, notification=2))
for name, op in CTRL_NO_OPS:
    if op not in (0xA1, 0xA6):
        vec(f"ctrl_no-notify-{name}", ALL, [NOTIF], ctrl_no(op, notification=1))
# ctrl_no_reserved_zero: bytes 12..38 and 41..63 zero; drain_count zero unless DRAIN.
vec("ctrl_no-drain-count", ALL, [], ctrl_no(0xA2, drain_count=1))
vec("ctrl_no-drain-count-255", ALL, [], ctrl_no(0xA2, drain_count=0xFF))
vec("ctrl_no-count-on-nop", ALL, [CTRL_RES], ctrl_no(0xA4, drain_count=1))
vec("ctrl_no-count-on-halt", ALL, [CTRL_RES], ctrl_no(0xA1, drain_count=1))
vec("ctrl_no-byte12", ALL, [CTRL_RES], ctrl_no(0xA4, pokes=((12, 0x01),)))
vec("ctrl_no-byte38", ALL, [CTRL_RES], ctrl_no(0xA1, pokes=((38, 0x01),)))
vec("ctrl_no-byte41", ALL, [CTRL_RES], ctrl_no(0xA2, drain_count=1, pokes=((41, 0x01),)))
vec("ctrl_no-byte63-atl", ALL, [CTRL_RES], ctrl_no(0x23, pokes=((63, 0x80),)))
# For Nop and ActivationTableLoad the body must be all zero (PROJ-CONV-F4): both payload bytes fail.
vec("ctrl_no-nop-payload", ALL, [NOTIF, CTRL_RES], ctrl_no(0xA4, notification=1, drain_count=1))


HEADER = """\
# validate.tsv -- validator verdict vectors, generated by make_validate_vectors.py (do not edit by hand).
# One vector per line, tab-separated:
#   id          edge-cases.md case number (sub-parts 9a, 9b...; "-N" parts of a lettered case; "/x" variants)
#   generations comma list of sunda, cayman, mariana, maverick the verdict holds on
#   expect      valid | invalid
#   failing     the exact set of failing predicate names, comma-separated ("-" when valid); a name that two
#               conjuncts share (src/dst, in/out) appears once
#   options     "-" or comma list of ValidateOptions switches set to true (strict_window, dtype_enum_runtime)
#   hex128      the 64-byte instruction word, 128 lower-case hex digits, byte 0 first
# Lines starting with '#' are comments.
"""


def render():
    lines = [HEADER]
    for vid, gens, failing, word, options in VECTORS:
        expect = "invalid" if failing else "valid"
        lines.append("\t".join([vid, ",".join(gens), expect, ",".join(failing) or "-", options, word.hex()]) + "\n")
    return "".join(lines)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                              "validate.tsv")
    text = render()
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print(f"{len(VECTORS)} vectors written to {out}")


if __name__ == "__main__":
    main()
