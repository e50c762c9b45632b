"""Public-layout vectors: COPY_PREDICATED_SCALAR 0xE8 on S3D3_CP_PRED_SCALAR (copypredicatedscalar.md §4, §6, §8-§10),
SB2SB_COLLECTIVE 0xBF on S3D3_COLLECTIVE (sb2sb-remote-copy.md §2), REG_STORE 0x4B on D4_MR (real-programs.md §12;
PROJ-CONV-PU4) and MAX_POOL_SELECT 0x58 on S4D4_PL (avg-max-pool.md §3, §7).

Added to tests/vectors/validate.tsv by tests/vectors/make_validate_vectors.py. Every expected failing set is
derived by hand from the wiki's predicate bodies, never from running the library (see vectorlib.py).
"""

import struct

from vectorlib import *  # noqa: F401,F403  (the generations, enum values, predicate names and vec())

EVT = "has_valid_neuron_events"
T3D = "tensor3d_valid"
CPS_RES = "s3d3_cp_pred_scalar_reserved_zero"
IMMS = "has_valid_immediates"
SAME3 = "same_element_count_t3d"
SAME_M = "s3d3_cp_pred_scalar_src_dst_elements_same"
INT_DT = "is_valid_int_dtype_datapath"
SAME_IO = "has_same_inout_dtype"
REVP = "has_valid_reversed_pred"
CHR_TILE = "has_valid_active_channel_range_with_tile"
NEG_INF = 0xFF800000
LNC = "has_valid_LncSizefmt"
PORTS = "check_active_ports"
COLL_RES = "s3d3_collective_reserved_zero"
SIZE = "size_check_src"
DT_EQ = "dtype_equality_check"
MR_RES = "d4_mr_reserved_zero"
SER = "d4_mr_zero_serialization"
MR_CNT = "d4_mr_dst_element_count"
PL_RES = "s4d4_pl_reserved_zero"
PTYPE = "has_valid_pooltype"
SUBDIM = "is_valid_subdim"
PL_DT = "s4d4_pl_dtype_check"
SCALE = "s4d4_pool_scale_valid"
PSUM0 = 0x2000000  # PSUM partition 0 on SUNDA, CAYMAN and MARIANA (common-formats.md §4)


def stride(g):
    return 0x100000 if g == MAVERICK else 0x40000


def cps(pred=0x0, pred_num=(4, 1, 1), pred_dt=U32, rev=0, nac=2, res0=0, res1=0, in_dt=FP32, out_dt=FP32,
        imm_src=0, imm=NEG_INF, dst=0x100, dst_num=(4, 1, 1), hdr=None):
    """S3D3_CP_PRED_SCALAR: reserved0 @12, pred T3D @16, pred_dtype @32, reversed_pred @33, channels @34,
    reserved1 @35..40, in/out dtype @41/@42, src0_imm_src @43, src0_imm @44, dst T3D @48 (steps 1,0,0).
    Baseline: two channels' four FP32 elements at SB p0+0x100 filled with -inf where the UINT32 predicate at
    SB p0+0x000 is zero."""
    w = bytearray(64)
    header(w, 0xE8, **(hdr or {}))
    w[12] = res0
    struct.pack_into("<I3h3H", w, 16, pred, 1, 0, 0, *pred_num)
    struct.pack_into("<BBB", w, 32, pred_dt, rev, nac)
    w[35] = res1
    struct.pack_into("<BBBI", w, 41, in_dt, out_dt, imm_src, imm)
    struct.pack_into("<I3h3H", w, 48, dst, 1, 0, 0, *dst_num)
    return w


def coll(src=0x0, src_num=(64, 1, 1), in_dt=FP32, out_dt=FP32, res0=0, lnc=0, nac=4, res1=0, dst=0x1000,
         dst_num=(64, 1, 1), hdr=None):
    """S3D3_COLLECTIVE: in/out dtype @12/@13, reserved0 @14, src T3D @16, lnc_size_fmt @32, channels @33,
    reserved1 @34..47, dst T3D @48. Baseline: 64 FP32 elements from SB p0+0x0 to SB p0+0x1000, LNC1, four channels."""
    w = bytearray(64)
    header(w, 0xBF, **(hdr or {}))
    struct.pack_into("<BBB", w, 12, in_dt, out_dt, res0)
    struct.pack_into("<I3h3H", w, 16, src, 1, 0, 0, *src_num)
    struct.pack_into("<BBB", w, 32, lnc, nac, res1)
    struct.pack_into("<I3h3H", w, 48, dst, 1, 0, 0, *dst_num)
    return w


def rs(hdr=None, count=8, dtype=U32, nac=4, serial=0, value=0, dst=0x2000, dst_num=(8, 1, 1, 1), res1=0):
    """D4_MR for REG_STORE: count @28, dtype @32, reserved1 @33, channels @34, serialization @36, set_value @40,
    dst TENSOR4D @44. Baseline: eight UINT32 on four channels to SB p0+0x2000."""
    w = bytearray(64)
    header(w, 0x4B, **(hdr or {}))
    struct.pack_into("<I", w, 28, count)
    w[32], w[33], w[34], w[36] = dtype, res1, nac, serial
    struct.pack_into("<I", w, 40, value)
    struct.pack_into("<I4h4H", w, 44, dst, 1, 0, 0, 0, *dst_num)
    return w


def mps(hdr=None, src=0x0, src_num=(4, 3, 1, 1), in_dt=FP32, out_dt=U32, nac=2, res0=0, func=0, dim=2, res1=0,
        scale=F1, dst=0x100, dst_num=(3, 1, 1, 1)):
    """S4D4_PL for MAX_POOL_SELECT: src T4D @12, in/out dtype @32/@33, channels @34, reserved0 @35, pool_func @36,
    pool_dim @37, reserved1 @38, pool_scale @40, dst T4D @44. Baseline: three windows of four FP32 (pool_dim X),
    two channels, UINT32 positions to SB p0+0x100."""
    w = bytearray(64)
    header(w, 0x58, **(hdr or {}))
    struct.pack_into("<I4h4H", w, 12, src, 1, 4, 0, 0, *src_num)
    struct.pack_into("<BBBBBBBB", w, 32, in_dt, out_dt, nac, res0, func, dim, res1, 0)
    struct.pack_into("<I", w, 40, scale)
    struct.pack_into("<I4h4H", w, 44, dst, 1, 0, 0, 0, *dst_num)
    return w


def add():
    """Adds the family's vectors through vec()."""
    vec("cps-base", ALL, [], cps())
    vec("cps-reversed", ALL, [], cps(rev=1))
    vec("cps-bf16-u16", ALL, [], cps(pred_dt=U16, in_dt=BF16, out_dt=BF16, imm=0xFF80))
    vec("cps-i8-pred", ALL, [], cps(pred_dt=I8, in_dt=I32, out_dt=I32, imm=7))
    vec("cps-ptr", ALL, [], cps(imm_src=1, imm=0x300))
    vec("cps-regptr", ALL, [], cps(imm_src=2, imm=5))
    vec("cps-word-len", ALL, [HDR], cps(hdr={"word_len": 15}))
    vec("cps-wait-0x08", ALL, [EVT], cps(hdr={"wait_mode": 0x08}))
    vec("cps-res0", ALL, [CPS_RES], cps(res0=1))
    vec("cps-res1", ALL, [CPS_RES], cps(res1=1))
    vec("cps-imm-reg-reserved", ALL, [IMMS], cps(imm_src=2, imm=0x100))
    vec("cps-imm-reg-64", ALL, [IMMS], cps(imm_src=2, imm=64))
    vec("cps-imm-src-3", ALL, [IMMS], cps(imm_src=3))
    vec("cps-imm-ptr-align", ALL, [IMMS], cps(imm_src=1, imm=0x302))
    vec("cps-t3d-pred", ALL, [T3D], cps(pred=0x2))
    vec("cps-t3d-dst", ALL, [T3D], cps(dst=0x102))
    vec("cps-t3d-pred-count-0", SC, [T3D, SAME3], cps(pred_num=(0, 1, 1)))
    vec("cps-t3d-pred-count-0/mariana+", MV, [T3D, SAME_M], cps(pred_num=(0, 1, 1)))
    for g in ALL:
        p = stride(g)
        vec(f"cps-sach-pred-{g}", (g,), [SACH], cps(pred=127 * p))
        vec(f"cps-sach-dst-{g}", (g,), [SACH], cps(dst=127 * p))
    vec("cps-count", SC, [SAME3], cps(dst_num=(3, 1, 1)))
    vec("cps-count/mariana+", MV, [SAME_M], cps(dst_num=(3, 1, 1)))
    vec("cps-count-2x2", ALL, [], cps(dst_num=(2, 2, 1)))
    vec("cps-pred-fp32", ALL, [INT_DT], cps(pred_dt=FP32))
    vec("cps-pred-u64", ALL, [INT_DT], cps(pred_dt=U64))
    vec("cps-fp32r", ALL, [VDT, VDT], cps(in_dt=FP32R, out_dt=FP32R))
    vec("cps-in-out-differ", ALL, [SAME_IO], cps(in_dt=FP16))
    vec("cps-rev-2", ALL, [REVP], cps(rev=2))
    vec("cps-nac-0", SCM, [CHR], cps(nac=0))
    vec("cps-nac-0/maverick", V, [CHR_TILE], cps(nac=0))
    vec("cps-nac-128", ALL, [], cps(nac=128))
    vec("cps-nac-129", SCM, [SACH, SACH, CHR], cps(nac=129))
    vec("cps-nac-129/maverick", V, [SACH, SACH, CHR_TILE], cps(nac=129))

    # ---- SB2SB_COLLECTIVE 0xBF (CAYMAN+) ----
    vec("coll-base", CMV, [], coll())
    vec("coll-lnc2", CMV, [], coll(lnc=1))
    vec("coll-256", CMV, [], coll(src_num=(64, 4, 1)))
    vec("coll-bf16", CMV, [], coll(in_dt=BF16, out_dt=BF16))
    vec("coll-word-len", CMV, [HDR], coll(hdr={"word_len": 15}))
    vec("coll-wait-0x08", CMV, [EVT], coll(hdr={"wait_mode": 0x08}))
    vec("coll-lnc4", CMV, [LNC], coll(lnc=2))
    vec("coll-lnc8", CMV, [LNC], coll(lnc=3))
    vec("coll-lnc-4", CMV, [LNC], coll(lnc=4))
    vec("coll-nac-0", CMV, [PORTS], coll(nac=0))
    vec("coll-nac-128", CMV, [], coll(nac=128))
    vec("coll-nac-129", CMV, [PORTS], coll(nac=129))
    vec("coll-res0", CMV, [COLL_RES], coll(res0=1))
    vec("coll-res1", CMV, [COLL_RES], coll(res1=1))
    w = coll()
    w[47] = 1
    vec("coll-res1-b47", CMV, [COLL_RES], w)
    vec("coll-src-unaligned", CMV, [T3D], coll(src=0x2))
    vec("coll-dst-unaligned", CMV, [T3D], coll(dst=0x1002))
    vec("coll-src-psum", (CAYMAN, MARIANA), [T3D], coll(src=PSUM0))
    vec("coll-dst-psum", (CAYMAN, MARIANA), [T3D], coll(dst=PSUM0))
    vec("coll-257", CMV, [SIZE], coll(src_num=(257, 1, 1)))
    vec("coll-dtype-differs", CMV, [DT_EQ], coll(out_dt=U32))

    # ---- REG_STORE 0x4B (PROJ-CONV-PU4) ----
    vec("rs-base", ALL, [], rs())
    vec("rs-word-len", ALL, [HDR], rs(hdr={"word_len": 15}))
    vec("rs-wait-0x08", ALL, [EVT], rs(hdr={"wait_mode": 0x08}))
    vec("rs-set-value", ALL, [], rs(value=0x1234))
    vec("rs-fp32r", ALL, [], rs(dtype=FP32R))
    vec("rs-res1", ALL, [MR_RES], rs(res1=1))
    vec("rs-u64", ALL, [VDT], rs(dtype=U64))
    vec("rs-serial", ALL, [SER], rs(serial=1))
    vec("rs-nac-0", ALL, [CHR], rs(nac=0))
    vec("rs-nac-129", ALL, [CHR, SACH], rs(nac=129))
    vec("rs-dst-unaligned", ALL, [T4D], rs(dst=0x2002))
    vec("rs-count-7", ALL, [MR_CNT], rs(count=7))

    # ---- MAX_POOL_SELECT 0x58 ----
    vec("mps-base", ALL, [], mps())
    vec("mps-word-len", ALL, [HDR], mps(hdr={"word_len": 15}))
    vec("mps-wait-0x08", ALL, [EVT], mps(hdr={"wait_mode": 0x08}))
    vec("mps-xy-u8", ALL, [], mps(src_num=(2, 2, 3, 1), dim=3, out_dt=U8))
    vec("mps-res0", ALL, [PL_RES], mps(res0=1))
    vec("mps-res1", ALL, [PL_RES], mps(res1=1))
    vec("mps-in-fp32r", ALL, [VDT], mps(in_dt=FP32R))
    vec("mps-out-fp32r", ALL, [PL_DT], mps(out_dt=FP32R))
    vec("mps-out-u64", ALL, [VDT, PL_DT], mps(out_dt=U64))
    vec("mps-func-max", ALL, [PTYPE], mps(func=1))
    vec("mps-func-avg", ALL, [PTYPE], mps(func=2))
    vec("mps-dim-1", ALL, [SUBDIM], mps(dim=1))
    vec("mps-dim-0", ALL, [SUBDIM], mps(dim=0))
    vec("mps-nac-0", ALL, [CHR], mps(nac=0))
    vec("mps-out-i32", ALL, [PL_DT], mps(out_dt=I32))
    vec("mps-src-unaligned", ALL, [T4D], mps(src=0x2))
    vec("mps-dst-unaligned", ALL, [T4D], mps(dst=0x102))
    vec("mps-scale-0.25", ALL, [SCALE], mps(scale=0x3E800000))
    for g in ALL:
        p = stride(g)
        vec(f"mps-sach-src-{g}", (g,), [SACH], mps(src=127 * p))
        vec(f"mps-sach-dst-{g}", (g,), [SACH], mps(dst=127 * p))
