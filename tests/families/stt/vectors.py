"""stt vectors: SCALAR_TENSOR_TENSOR 0x9D / 0x9E, TENSOR_TENSOR_SCAN_ARITH 0xE5, SELECT_REDUCE 0xEA (S2S2D2_STT) and
TENSOR_SCALAR_SELECT 0x98 (S3D3_TS_SELECT) -- alu-ops.md §6 and its edge cases #34-#39.

Added to tests/vectors/validate.tsv by tests/vectors/make_validate_vectors.py. Every expected failing set is
derived by hand from the spec's predicate bodies, never from running the library (see vectorlib.py). Ids start
with "stt-".
"""

import struct

from vectorlib import *  # noqa: F401,F403  (the generations, enum values, predicate names and vec())

# ---- predicate names ----
T2D = "tensor2d_valid"
T3D = "tensor3d_valid"
ALU_ENUM = "is_valid_enum(AluOp)"
REV_ENUM = "is_valid_enum(TensScalarRevOps)"
SRC_ENUM = "is_valid_enum(ImmSrc)"
STT_DT = "has_valid_scalar_tensor_tensor_dtypes"
STT_SD = "s2s2d2_stt_src_dst_dtype"
IMM_DT = "s2s2d2_stt_imm0_dtype"
STT_OP = "has_valid_scalar_tensor_tensor_op"
SCAN_OP = "has_valid_tensor_tensor_scan_op"
SR_OP = "has_valid_select_reduce_op"
SR_DT = "has_valid_select_reduce_dtypes"
IMM = "has_valid_s2s2d2_stt_immediate"
SRC_CNT = "s2s2d2_stt_src_element_cnt_check"
DST_CNT = "s2s2d2_stt_dst_element_cnt_check"
TTP = "tt_valid_partitions"
STT_ACC = "has_valid_s2s2d2_stt_accum_cmd"
SCAN_ACC = "has_zero_accum_cmd"
SR_ACC = "has_valid_s2s2d2_cpr_accum_cmd"
RES = "has_s2s2d2_stt_reserved_zero"
QUAD = "s2s2d2_stt_quadrant_check"
SR_REV = "has_valid_select_reduce_rev_ops"
SEL_RES = "s3d3_ts_select_reserved_zero"
INT_DT = "is_valid_int_dtype_datapath"
WIDTH = "has_same_imm_dtype_width"
REVP = "has_valid_reversed_pred"
IMMS = "has_valid_immediates"
PRED_V = "has_valid_pred_inst_imm_value"
CHR_TILE = "has_valid_active_channel_range_with_tile"
SAME3 = "same_element_count_t3d"

MULT, SUBTRACT, MIN, BITWISE_XOR = 0x06, 0x05, 0x09, 0x0C
FP32_2 = 0x40000000  # 2.0f
M1 = 0xBF800000  # -1.0f


def stride(g):
    """The SBUF partition stride (memory-and-numerics.md §2): 1 MiB on MAVERICK, 256 KiB elsewhere."""
    return 0x100000 if g == MAVERICK else 0x40000


def stt(opcode=0x9D, src0=0x0, src0_num=(4, 1), src1=0x100, src1_num=(4, 1), op0=MULT, op1=ADD, rev=0, imm_src=0,
        pair=0xAA, out=FP32, nac=2, imm_dt=FP32, acc=0, res=0, dst=0x200, dst_num=(4, 1), imm=FP32_2):
    """S2S2D2_STT (alu-ops.md §6.1); the defaults are the §6.2 example word."""
    w = bytearray(64)
    header(w, opcode)
    struct.pack_into("<I2h2H", w, 12, src0, 1, 0, *src0_num)
    struct.pack_into("<I2h2H", w, 24, src1, 1, 0, *src1_num)
    struct.pack_into("<BBBBBBBBB", w, 36, op0, op1, rev, imm_src, pair, out, nac, imm_dt, acc)
    w[45] = res
    struct.pack_into("<I2h2HI", w, 48, dst, 1, 0, *dst_num, imm)
    return w


def scan(**kw):
    return stt(**{"opcode": 0xE5, "imm": 0, **kw})


def sr(**kw):
    return stt(**{"opcode": 0xEA, "op0": BYPASS, "op1": MAX, "pair": 0xA3, "acc": 3, "imm": M1, **kw})


def sel(src0=0x0, src0_num=(4, 1, 1), rev=0, nac=2, dt=FP32, pred_dt=U32, res0=0, res1=0, src1_src=0, pred_src=0,
        src1_imm=0, pred_imm=1, dst=0x100, dst_num=(4, 1, 1)):
    """S3D3_TS_SELECT (alu-ops.md §6.5); the defaults are its example word."""
    w = bytearray(64)
    header(w, 0x98)
    w[12] = res0
    struct.pack_into("<I3h3H", w, 16, src0, 1, 0, 0, *src0_num)
    struct.pack_into("<BBBB", w, 32, rev, nac, dt, pred_dt)
    w[36] = res1
    struct.pack_into("<BBII", w, 38, src1_src, pred_src, src1_imm, pred_imm)
    struct.pack_into("<I3h3H", w, 48, dst, 1, 0, 0, *dst_num)
    return w


def stt_common(prefix, make, op_pred, fp_src0):
    """The predicates every S2S2D2_STT validator shares, one rejecting word each (per generation where the address
    depends on it)."""
    vec(prefix + "-dt-hi", ALL, [VDT], make(pair=(make()[40] & 0x0F) | 0x10))
    vec(prefix + "-dt-imm", ALL, [VDT], make(imm_dt=FP32R, imm_src=2, imm=0))
    vec(prefix + "-dt-out", ALL, [VDT], make(out=U64))
    vec(prefix + "-imm-dt", ALL, [IMM_DT], make(imm_dt=BF16))
    vec(prefix + "-op0-enum", ALL, [ALU_ENUM, op_pred], make(op0=0x1E))
    vec(prefix + "-op1-enum", ALL, [ALU_ENUM, op_pred], make(op1=0x1E))
    vec(prefix + "-imm-reg", ALL, [IMM], make(imm_src=2, imm=0x40000000))
    vec(prefix + "-imm-src", ALL, [IMM], make(imm_src=3))
    for g in ALL:
        p = stride(g)
        vec(f"{prefix}-sach0-{g}", (g,), [SACH], make(src0=127 * p, src1=0x80000000))
        vec(f"{prefix}-sach1-{g}", (g,), [SACH], make(src1=127 * p, src0=0x80000000))
        vec(f"{prefix}-sach2-{g}", (g,), [SACH], make(dst=127 * p))
        vec(f"{prefix}-ttp-{g}", (g,), [TTP], make(src1=p + 0x100))
        vec(f"{prefix}-ttp-q-{g}", (g,), [], make(src0=32 * p, src1=32 * p + 0x100, dst=32 * p + 0x200))
    vec(prefix + "-t2d-src1", ALL, [T2D], make(src1=0x102))
    vec(prefix + "-t2d-dst", ALL, [T2D], make(dst=0x202))
    vec(prefix + "-ch", ALL, [CH], make(nac=0))
    vec(prefix + "-cnt-src", ALL, [SRC_CNT], make(src1_num=(3, 1)))
    vec(prefix + "-cnt-dst", ALL, [DST_CNT], make(dst_num=(3, 1)))
    vec(prefix + "-res", ALL, [RES], make(res=1))
    if fp_src0:
        vec(prefix + "-dt-lo", ALL, [VDT], make(pair=(make()[40] & 0xF0) | 0x01))
        vec(prefix + "-t2d-src0", ALL, [T2D], make(src0=0x2))
        vec(prefix + "-rev-enum", ALL, [REV_ENUM], make(rev=4))


def poked(w, *pokes):
    for off, val in pokes:
        w[off] = val
    return w


def add():
    """Adds the family's vectors through vec()."""
    # The opening conjuncts of each validator: inst_word_len 15, WAIT_MODE 0x08 (no such mode).
    for name, make in (("stt", stt), ("scan", scan), ("sr", sr), ("sel", sel)):
        vec(name + "-hdr", ALL, [HDR], poked(make(), (1, 15)))
        vec(name + "-evt", ALL, ["has_valid_neuron_events"], poked(make(), (4, 0x08)))
    # ---- SCALAR_TENSOR_TENSOR 0x9D / 0x9E (§6.2) ----
    vec("stt-9d", ALL, [], stt())
    vec("stt-9e", ALL, [], stt(opcode=0x9E, op0=BITWISE_AND, op1=BITWISE_XOR, pair=0x99, out=U32, imm_dt=U32,
                               imm=0xFF))
    stt_common("stt", stt, STT_OP, True)
    vec("stt-rev3", ALL, [], stt(rev=3))
    vec("stt-acc-zacc", ALL, [], stt(acc=3))
    vec("stt-acc-acc", ALL, [], stt(acc=2))
    vec("stt-dt-9e-fp", ALL, [STT_DT], stt(opcode=0x9E, op0=BITWISE_AND, op1=BITWISE_XOR))
    vec("stt-dt-9e-mixed", ALL, [STT_SD], stt(opcode=0x9E, op0=BITWISE_AND, op1=BITWISE_XOR, pair=0x99, out=U32,
                                              imm_dt=I32))
    vec("stt-9e-crc", ALL, [STT_OP], stt(opcode=0x9E, op0=CRC32, op1=BITWISE_XOR, pair=0x99, out=U32, imm_dt=U32))
    # Edge case #34: inline BF16 scalar / the same from pointer 0x302 / LOAD / DIVIDE; 0x9E ACCUMULATE / out UINT16.
    vec("34a", ALL, [IMM_DT], stt(imm_dt=BF16))
    vec("34b", ALL, [], stt(imm_dt=BF16, imm_src=1, imm=0x302))
    vec("34c", ALL, [STT_ACC], stt(acc=4))
    vec("34d", ALL, [STT_OP], stt(op0=DIVIDE))
    vec("34e", ALL, [STT_ACC], stt(opcode=0x9E, op0=BITWISE_AND, op1=BITWISE_XOR, pair=0x99, out=U32, imm_dt=U32,
                                   acc=2))
    vec("34f", ALL, [STT_SD], stt(opcode=0x9E, op0=BITWISE_AND, op1=BITWISE_XOR, pair=0x99, out=U16, imm_dt=U32))
    vec("stt-9e-load", ALL, [STT_ACC], stt(opcode=0x9E, op0=BITWISE_AND, op1=BITWISE_XOR, pair=0x99, out=U32,
                                           imm_dt=U32, acc=4))
    # Edge case #35 (PROJ-CONV-K14): a pointer scalar in partition 32 with src0 in partition 0 / in partition 30.
    for g in ALL:
        p = stride(g)
        vec(f"35a-{g}", (g,), [QUAD], stt(imm_src=1, imm=32 * p))
        vec(f"35b-{g}", (g,), [], stt(imm_src=1, imm=30 * p))

    # ---- TENSOR_TENSOR_SCAN_ARITH 0xE5 (§6.3) ----
    vec("stt-e5", ALL, [], scan())
    stt_common("scan", scan, SCAN_OP, True)
    vec("36", ALL, [SCAN_ACC], scan(acc=2))
    vec("scan-op", ALL, [SCAN_OP], scan(op1=DIVIDE))
    vec("scan-rev3", ALL, [], scan(rev=3))

    # ---- SELECT_REDUCE 0xEA (§6.4) ----
    vec("stt-ea", ALL, [], sr())
    stt_common("sr", sr, SR_OP, False)
    vec("sr-dt-lo", ALL, [VDT, SR_DT], sr(pair=0xA1))
    vec("sr-t2d-src0", ALL, [T2D], sr(pair=0xA9, src0=0x2))
    vec("sr-rev-enum", ALL, [REV_ENUM, SR_REV], sr(rev=4))
    vec("sr-first", ALL, [], sr(rev=1))
    vec("sr-idle", ALL, [], sr(acc=0))
    # Edge case #37: op1 MIN / reverse Second / data INT32 / cmd LOAD.
    vec("37a", ALL, [SR_OP], sr(op1=MIN))
    vec("37b", ALL, [SR_REV], sr(rev=2))
    vec("37c", ALL, [SR_DT], sr(pair=0x83))
    vec("37d", ALL, [SR_ACC], sr(acc=4))

    # ---- TENSOR_SCALAR_SELECT 0x98 (§6.5) ----
    vec("stt-98", ALL, [], sel())
    vec("stt-98-ptr", ALL, [], sel(pred_src=1, pred_imm=0x300))
    vec("sel-res0", ALL, [SEL_RES], sel(res0=1))
    vec("sel-res1", ALL, [SEL_RES], sel(res1=1))
    vec("sel-dt", ALL, [VDT], sel(dt=FP32R))
    vec("sel-src1-enum", ALL, [SRC_ENUM], sel(src1_src=3))
    vec("sel-pred-enum", ALL, [SRC_ENUM], sel(pred_src=3))
    vec("sel-imm-src1", ALL, [IMMS], sel(src1_src=2, src1_imm=0x100))
    vec("sel-imm-pred", ALL, [IMMS], sel(pred_src=2, pred_imm=0x100))
    vec("sel-imm-ptr-align", ALL, [IMMS], sel(src1_src=1, src1_imm=0x302))
    vec("sel-ch", SCM, [CHR], sel(nac=0))
    for g in ALL:
        p = stride(g)
        vec(f"sel-sach0-{g}", (g,), [SACH], sel(src0=127 * p))
        vec(f"sel-sach1-{g}", (g,), [SACH], sel(dst=127 * p))
    vec("sel-t3d-src", ALL, [T3D], sel(src0=0x2))
    vec("sel-t3d-dst", ALL, [T3D], sel(dst=0x102))
    vec("sel-cnt", ALL, [SAME3], sel(dst_num=(3, 1, 1)))
    # Edge case #38: inline pred_imm 2 / pred_imm_dtype UINT16 / FP32 / reversed_pred 2; #39: 0 channels on MAVERICK.
    vec("38a", ALL, [PRED_V], sel(pred_imm=2))
    vec("38b", ALL, [WIDTH], sel(pred_dt=U16))
    vec("38c", ALL, [INT_DT], sel(pred_dt=FP32))
    vec("38d", ALL, [REVP], sel(rev=2))
    vec("39", V, [CHR_TILE], sel(nac=0))
