"""Activation family vectors: ACTIVATE 0x21, ACTIVATE_QUANTIZE 0x22, ACTIVATION_TABLE_LOAD 0x23,
ACTIVATION_READ_ACCUMULATOR 0x24, ACTIVATE2 0x25 and PSEUDO_LOAD_ACT_FUNC_SET 0xC6 (act-index-ops.md §4-§8).
Baselines are the spec's synthetic words X1, X2, X4, X5, X6, X7a/b and X8; every expected failing set is derived by
hand from the spec's predicate bodies, never from running the library. Ids start "ac-".
"""

import struct

from vectorlib import *  # noqa: F401,F403  (the generations, enum values, predicate names and vec())

X1 = "21100000000000000000000000000301 00100000010000000000040001000100 aa0a02070000803f0000000000000000 00200000010000000000040001000100"
X2 = "21100000000000000000000000000000 00100000010000000000040001000100 aa060202000000400030000000000000 00200000010000000000040001000100"
X4 = "22100000000000000000000000002041 00100000010000000000040001000100 aa0301010000003f0030000000004040 00200000010000000000040001000100"
X5 = "24100000000000000000000000000000 00000000000000000000000001000000 0a000200000000000000000000400000 01000100000000000000000000000000"
X6 = "25100000000000000000000000100000 0100000004000100000003000a060408 0a0a0102000000400000003f00000000 00200000010000000400010000000000"
X7A = "23100000" + "0" * 120
X7B = "23100000000000000000000000000000 00000000000000000000000000000000 00000002000000000000000000000000 00000000000000000000000000000000"
X8 = "c610000000000000000000006578705f 616e645f6f7468657273000000000000 00000000000000000000000000000000 00000000000000000000000000000000"

T1D, T2D, T3D_ = "tensor1d_valid", "tensor2d_valid", "tensor3d_valid"
SEC = "same_element_count_t3d"


def word(x, u8=(), u16=(), u32=()):
    """The spec word x with bytes, u16 and u32 (little-endian) poked at their offsets."""
    w = bytearray(bytes.fromhex(x.replace(" ", "")))
    for off, v in u8:
        w[off] = v
    for off, v in u16:
        struct.pack_into("<H", w, off, v)
    for off, v in u32:
        struct.pack_into("<I", w, off, v)
    return w


def p1(gen):
    """The start of SBUF partition 1 (256 KiB partition stride, 1 MiB on MAVERICK)."""
    return 0x100000 if gen == MAVERICK else 0x40000


def p127(gen):
    return 127 * p1(gen) + 0x1000


def per_gen(vid, gens, failing, make):
    """One vector per generation (the word depends on the generation's partition stride)."""
    for g in gens:
        vec(f"{vid}-{g}", (g,), failing, make(g))


def add():
    """Adds the family's vectors through vec()."""
    # ---- ACTIVATE (§4.2): X1 = exp on 2 channels, X2 = relu with a pointer bias, BF16 out ----
    vec("ac-act-X1", ALL, [], word(X1))
    vec("ac-act-X2", ALL, [], word(X2))
    vec("ac-act-fp32r-out", ALL, [], word(X1, u8=[(33, FP32R)]))
    vec("ac-act-in", ALL, [VDT], word(X1, u8=[(32, 0xA1)]))
    vec("ac-act-in-fp32r", ALL, [VDT], word(X1, u8=[(32, 0xAB)]))  # FP32R not allowed for the input
    vec("ac-act-out", ALL, [VDT], word(X1, u8=[(33, U64)]))
    vec("ac-act-bias-dt", ALL, [VDT], word(X1, u8=[(32, 0x1A)]))
    vec("ac-act-cmd", ALL, ["is_valid_enum(ACCUM_CMD)"], word(X1, u8=[(14, 5)]))
    vec("ac-act-cmd4", ALL, [], word(X1, u8=[(14, 4)]))
    vec("ac-act-nac0", ALL, [CHR], word(X1, u8=[(34, 0)]))
    vec("ac-act-nac128", ALL, [], word(X1, u8=[(34, 128)]))
    per_gen("ac-act-src-start", ALL, [SACH], lambda g: word(X1, u32=[(16, p127(g))]))
    per_gen("ac-act-dst-start", ALL, [SACH], lambda g: word(X1, u32=[(48, p127(g))]))
    vec("ac-act-src-align", ALL, [T3D_], word(X1, u32=[(16, 0x1002)]))
    vec("ac-act-dst-align", ALL, [T3D_], word(X1, u32=[(48, 0x2002)]))
    vec("ac-act-count", ALL, [SEC], word(X1, u8=[(26, 5)]))
    # PROJ-CONV-A18: a register-shaped dst (marker 0x40) with a zero count waives the count on CAYMAN+ only.
    vec("ac-act-sfr", CMV, [], word(X1, u8=[(58, 0), (51, 0x40)]))
    vec("ac-act-sfr-s", S, [T3D_, SEC], word(X1, u8=[(58, 0), (51, 0x40)]))
    vec("ac-act-scale-src", ALL, ["s3d3_ac_scale_checks"], word(X1, u8=[(13, 3)]))
    vec("ac-act-scale-ptr", ALL, [], word(X1, u8=[(13, 1)], u32=[(36, 0x3000)]))
    vec("ac-act-scale-ptr-align", ALL, ["s3d3_ac_scale_checks"], word(X1, u8=[(13, 1)], u32=[(36, 0x3002)]))
    vec("ac-act-bias-src", ALL, ["s3d3_ac_bias_checks"], word(X1, u8=[(15, 3)]))
    vec("ac-act-bias-reg64", ALL, ["s3d3_ac_bias_checks"], word(X1, u8=[(15, 2)], u32=[(40, 64)]))
    vec("ac-act-bias-reg", ALL, [], word(X1, u8=[(15, 2)], u32=[(40, 5)]))
    # A BF16 pointer bias needs 2-byte alignment only.
    vec("ac-act-bias-bf16", ALL, [], word(X2, u8=[(32, 0x6A)], u32=[(40, 0x3002)]))
    vec("ac-act-bias-fp32-align", ALL, ["s3d3_ac_bias_checks"], word(X2, u32=[(40, 0x3002)]))
    vec("ac-act-imm-src", ALL, ["s3d3_ac_imm_checks"], word(X1, u8=[(12, 3)]))
    vec("ac-act-imm-ptr0", ALL, [], word(X1, u8=[(12, 1)]))  # the compiler's imm_src 1, imm 0 (§4.3 A10)
    vec("ac-act-func", ALL, [], word(X1, u8=[(35, 0xFF)]))  # the activation byte is not validated (§3.9)

    # ---- ACTIVATE_QUANTIZE (§5.2): X4 ----
    vec("ac-aq-X4", ALL, [], word(X4))
    vec("ac-aq-int32", ALL, [], word(X4, u8=[(32, 0xA8)]))
    vec("ac-aq-bias-bf16", ALL, [], word(X4, u8=[(32, 0x6A)]))
    vec("ac-aq-type-out", ALL, ["s3d3_aq_type_check"], word(X4, u8=[(33, FP32)]))
    vec("ac-aq-type-in", ALL, ["s3d3_aq_type_check"], word(X4, u8=[(32, 0xA6)]))
    vec("ac-aq-type-bias", ALL, ["s3d3_aq_type_check"], word(X4, u8=[(32, 0x8A)]))
    vec("ac-aq-scale", ALL, ["s3d3_aq_scale_check"], word(X4, u32=[(12, 0)]))
    vec("ac-aq-dequant-neg0", ALL, ["s3d3_aq_scale_check"], word(X4, u32=[(36, 0x80000000)]))
    vec("ac-aq-scale-nan", ALL, [], word(X4, u32=[(12, 0x7FC00000)]))  # NaN != 0 holds
    vec("ac-aq-nac0", ALL, [CHR], word(X4, u8=[(34, 0)]))
    per_gen("ac-aq-src-start", ALL, [SACH], lambda g: word(X4, u8=[(34, 2)], u32=[(16, p127(g))]))
    per_gen("ac-aq-dst-start", ALL, [SACH], lambda g: word(X4, u8=[(34, 2)], u32=[(48, p127(g))]))
    vec("ac-aq-src-align", ALL, [T3D_], word(X4, u32=[(16, 0x1002)]))
    vec("ac-aq-zero-counts", ALL, [T3D_, T3D_], word(X4, u16=[(26, 0), (58, 0)]))
    vec("ac-aq-dst-psum", SCM, [T3D_], word(X4, u32=[(48, 0x2000000)]))  # UINT8 is not written to PSUM
    vec("ac-aq-count", ALL, [SEC], word(X4, u8=[(26, 5)]))
    vec("ac-aq-bias-align", ALL, ["s3d3_aq_bias_addr_check"], word(X4, u32=[(40, 0x3002)]))
    per_gen("ac-aq-bias-p127", ALL, ["s3d3_aq_bias_addr_check"],
            lambda g: word(X4, u8=[(34, 2)], u32=[(40, 127 * p1(g) + 0x3000)]))

    # ---- ACTIVATION_READ_ACCUMULATOR (§6.2): X5 ----
    vec("ac-rd-X5", ALL, [], word(X5))
    vec("ac-rd-bf16", ALL, [], word(X5, u8=[(32, BF16)]))
    vec("ac-rd-fp32r", ALL, [], word(X5, u8=[(32, FP32R)]))
    vec("ac-rd-res", ALL, ["d1_rd_reserved_zero"], word(X5, u8=[(12, 1)]))
    vec("ac-rd-res2", ALL, ["d1_rd_reserved_zero"], word(X5, u8=[(63, 1)]))
    vec("ac-rd-type", ALL, ["activation_read_accumulator_type_check"], word(X5, u8=[(32, I32)]))
    vec("ac-rd-neg", ALL, ["d1_rd_has_zero_negated_field"], word(X5, u8=[(33, 1)]))
    vec("ac-rd-count", ALL, ["d1_rd_dst_element_count"], word(X5, u8=[(28, 2)]))
    vec("ac-rd-num", ALL, ["d1_rd_dst_element_count"], word(X5, u8=[(50, 2)]))
    vec("ac-rd-nac0", ALL, [CH], word(X5, u8=[(34, 0)]))
    per_gen("ac-rd-start", ALL, [SACH], lambda g: word(X5, u32=[(44, p127(g))]))
    vec("ac-rd-align", ALL, [T1D], word(X5, u32=[(44, 0x4002)]))

    # ---- ACTIVATE2 (§7.2): X6, MARIANA and MAVERICK; the opcode is absent on SUNDA and CAYMAN ----
    vec("ac-a2-X6", MV, [], word(X6))
    vec("ac-a2-X6-sc", SC, [HDR], word(X6))
    vec("ac-a2-res", MV, ["s2d2_ac_reserved_zero"], word(X6, u8=[(63, 1)]))
    vec("ac-a2-in", MV, [VDT], word(X6, u8=[(32, FP32R)]))
    vec("ac-a2-out", MV, [VDT], word(X6, u8=[(33, U64)]))
    vec("ac-a2-immdt", MV, [VDT], word(X6, u8=[(28, FP32R)]))
    vec("ac-a2-ops", MV, ["has_valid_s2d2_ac_ts_ops"], word(X6, u8=[(30, MAX)]))
    vec("ac-a2-ops-sub", MV, [], word(X6, u8=[(29, 0x05), (30, BYPASS)]))  # (SUBTRACT, BYPASS)
    vec("ac-a2-rev-bypass", MV, ["has_valid_s2d2_ac_ts_ops"], word(X6, u8=[(30, BYPASS), (60, 2)]))
    vec("ac-a2-rev", MV, [], word(X6, u8=[(60, 3)]))
    vec("ac-a2-rev4", MV, ["has_valid_s2d2_ac_ts_ops"], word(X6, u8=[(60, 4)]))
    vec("ac-a2-redop", MV, ["has_valid_reduce_op"], word(X6, u8=[(31, 0x05)]))
    vec("ac-a2-redop-absmax", MV, [], word(X6, u8=[(31, ABS_MAX)]))
    vec("ac-a2-redcmd", MV, ["is_valid_enum(REDUCE_CMD)"], word(X6, u8=[(26, 4)]))
    vec("ac-a2-nac0", MV, [CH], word(X6, u8=[(34, 0)]))
    per_gen("ac-a2-src-start", MV, [SACH], lambda g: word(X6, u8=[(34, 2)], u32=[(12, p127(g))]))
    per_gen("ac-a2-dst-start", MV, [SACH], lambda g: word(X6, u8=[(34, 2)], u32=[(48, p127(g))]))
    vec("ac-a2-src-align", MV, [T2D], word(X6, u32=[(12, 0x1002)]))
    vec("ac-a2-dst-align", MV, [T2D], word(X6, u32=[(48, 0x2002)]))
    vec("ac-a2-count", MV, ["same_element_count_t2d"], word(X6, u8=[(20, 5)]))
    vec("ac-a2-imm", MV, ["s2d2_ac_imm_checks"], word(X6, u8=[(25, 3)]))
    vec("ac-a2-relu-reg64", MV, ["s2d2_ac_imm_checks"], word(X6, u8=[(24, 2)], u32=[(44, 64)]))
    # Errata 3071: a pointer immediate outside the SBUF source's quadrant fails; inside it passes.
    per_gen("ac-a2-errata", MV, ["act2_quadrant_restrictions_errata_3071"],
            lambda g: word(X6, u8=[(25, 1)], u32=[(36, 32 * p1(g) + 0x100)]))
    vec("ac-a2-errata-same", MV, [], word(X6, u8=[(25, 1)], u32=[(36, 0x3000)]))

    # ---- ACTIVATION_TABLE_LOAD (§8.2): X7a, X7b ----
    vec("ac-ld-X7a", ALL, [], word(X7A))
    vec("ac-ld-X7b", ALL, [], word(X7B))  # byte 35 (act_tbl_sel) is exempt (PROJ-CONV-A6)
    vec("ac-ld-res12", ALL, ["ctrl_no_reserved_zero"], word(X7A, u8=[(12, 1)]))
    vec("ac-ld-res34", ALL, ["ctrl_no_reserved_zero"], word(X7A, u8=[(34, 1)]))
    vec("ac-ld-res36", ALL, ["ctrl_no_reserved_zero"], word(X7A, u8=[(36, 1)]))
    vec("ac-ld-notify", ALL, ["ctrl_no_reserved_zero"], word(X7A, u8=[(39, 1)]))

    # ---- PSEUDO_LOAD_ACT_FUNC_SET (§8.4): X8 ----
    vec("ac-ps-X8", ALL, [], word(X8))
    vec("ac-ps-empty", ALL, ["pseudo_load_act_func_set_name"], word(X8, u8=[(12, 0)]))
    vec("ac-ps-space", ALL, ["pseudo_load_act_func_set_name"], word(X8, u8=[(14, 0x20)]))
    vec("ac-ps-gap", ALL, ["pseudo_load_act_func_set_name"], word(X8, u8=[(40, 0x41)]))
    vec("ac-ps-full", ALL, [], word(X8, u8=[(12 + i, 0x61) for i in range(32)]))
    vec("ac-ps-res", ALL, ["pseudo_load_act_func_set_reserved_zero"], word(X8, u8=[(50, 1)]))

    # ---- header and events of every validator: inst_word_len 15, wait_mode 0xFF (no WAIT_MODE) ----
    for name, x, gens in (("act", X1, ALL), ("aq", X4, ALL), ("rd", X5, ALL), ("a2", X6, MV), ("ld", X7A, ALL),
                          ("ps", X8, ALL)):
        vec(f"ac-{name}-len", gens, [HDR], word(x, u8=[(1, 15)]))
        vec(f"ac-{name}-wait", gens, ["has_valid_neuron_events"], word(x, u8=[(4, 0xFF)]))
