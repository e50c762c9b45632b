"""Public-layout vectors: COPY_PREDICATED_SCALAR 0xE8 on S3D3_CP_PRED_SCALAR (copypredicatedscalar.md §4, §6, §8-§10).

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
