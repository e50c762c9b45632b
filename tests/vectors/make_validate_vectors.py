#!/usr/bin/env python3
"""Generates validate.tsv: per-generation validator verdicts for the numbered cases of spec/edge-cases.md, and
for the CTRL_NO and datapath families one accepting and one rejecting word per predicate per generation."""
#
# Usage: python3 tests/vectors/make_validate_vectors.py [OUT]   (default: validate.tsv next to this file)
#
# Python 3 standard library only; the output is deterministic (no clocks, no randomness, no dict-order
# dependence beyond insertion order). Every expected value below is derived by hand from the predicate
# bodies of the spec (mem2d.md §5, s2bn.md §3, s4d4-tsm.md §3, common-formats.md §10, sequencer.md §3,
# real-programs.md §4, §10-§12) -- never from running
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
vec("d-opcode-pseudo-d5", ALL, [], mem2d(opcode=0xD5))  # an unmodeled pseudo opcode: header-only
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
vec("ctrl_no-wait-0x08", ALL, ["has_valid_neuron_events"], ctrl_no(0xA4, hdr={"wait_mode": 0x08}))  # no WAIT_MODE 0x08
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

# ---- Per-family vector sources (tests/vectors/<family>_vectors.py), each adding its cases through vec() ----
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sync_vectors  # noqa: E402

sync_vectors.add(globals())


# ---- Per-family vector sources (tests/vectors/vectors_<family>.py), each adding its vectors through vec() ----
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vectors_matmul  # noqa: E402  (PE matmul: LDWEIGHTS / MATMUL)

vectors_matmul.add(vec)

# The sequencer control block's vectors live in their own module (one file per family).
import seq_vectors  # noqa: E402

seq_vectors.add(vec, ALL, MAVERICK)

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
# Other families have no placement rule: a known engine changes nothing.
vec("ctrl_no-nop-on-pe", ALL, [], ctrl_no(0xA4), "engine=PE")
# The same table (one predicate, engine_placement) judges the PE matmul, sync and seq words: LDWEIGHTS and MATMUL
# only on PE; the synchronisation and sequencer words on any engine (a DMA's queue-set owner is a NEFF program
# check, docs/neff.md).
ENGINES = ("PE", "ACT", "POOL", "DVE", "SP")
for gen in ALL:
    for name, word in (("lw", vectors_matmul.lw(gen)), ("mm", vectors_matmul.mm(gen))):
        for engine in ENGINES:
            vec(f"pe-{name}-on-{engine.lower()}/{gen}", (gen,), [] if engine == "PE" else [PLACE], word,
                f"engine={engine}")
SYNC_WORDS = (("es", "a0100000" + "00" * 60), ("som", "b1100000" + "00" * 60), ("label", "cc100000" + "00" * 60),
              ("dma", "d4100000000000000000000000081000" "00000000040000100001000001000000"
                      "8000010000010000007b030000000010" "00000400010000008000010000010707"))
for name, hexword in SYNC_WORDS:
    for engine in ENGINES:
        vec(f"sync-{name}-on-{engine.lower()}", ALL, [], bytearray.fromhex(hexword), f"engine={engine}")
for name, word in (("write", seq_vectors.WRITE), ("move", seq_vectors.MOVE), ("branch", seq_vectors.BR_GUARD)):
    for engine in ENGINES:
        vec(f"seq-{name}-on-{engine.lower()}", ALL, [], word, f"engine={engine}")


HEADER = """\
# validate.tsv -- validator verdict vectors, generated by make_validate_vectors.py (do not edit by hand).
# One vector per line, tab-separated:
#   id          edge-cases.md case number (sub-parts 9a, 9b...; "-N" parts of a lettered case; "/x" variants)
#   generations comma list of sunda, cayman, mariana, maverick the verdict holds on
#   expect      valid | invalid
#   failing     the exact set of failing predicate names, comma-separated ("-" when valid); a name that two
#               conjuncts share (src/dst, in/out) appears once
#   options     "-" or comma list of ValidateOptions switches set to true (strict_window, dtype_enum_runtime), and
#               engine=PE|ACT|POOL|DVE|SP: the stream engine the word is validated for (unknown when absent)
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
