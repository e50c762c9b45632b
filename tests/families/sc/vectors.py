"""Sparsity-compress vectors: S3D3_SC (0xE0 SPARSITY_COMPRESS) and S2D2D2_SC (0xE1 SPARSITY_COMPRESS_TAG), the
compile-verified layouts the wiki quotes (sparsity-compress-tag.md §3; PROJ-CONV-SC1, SC2). Added to
tests/vectors/validate.tsv by make_validate_vectors.py.

Every expected failing set is derived by hand from the predicates the page names (§4b, §4c) as docs/conventions.md
reads them (PROJ-CONV-SC2), never from running the library. Ids start with "sc-" and "sct-". MARIANA and MAVERICK.
"""

import struct

from vectorlib import CHR, HDR, MV, MAVERICK, SACH, VDT, BF16, FP16, FP32, FP32R, FP8E3, FP8E4, U8, U16, U32, header, vec

RES = "has_s3d3_sc_reserved_zero"
RES2 = "has_s2d2d2_sc_reserved_zero"
DT = "is_valid_sparsity_compress_dtypes"
DT2 = "is_valid_sparsity_compress_tag_dtypes"
OP = "has_valid_compress_op"
DIM3 = "is_valid_subdim_3d"
DIM2 = "is_valid_subdim_2d"
XP = "is_valid_sparsity_compress_transpose_src"
XP2 = "is_valid_sparsity_compress_tag_transpose_src"
SIZE = "reduce_dim_size_check"
CNT = "reduce_dst_num_elements"
TAGS = "sparsity_compress_tag_element_count"
T3D = "tensor3d_valid"
T2D = "tensor2d_valid"
QUAD = "has_valid_sparsity_compress_tag_dst_quadrants"
MAX, MIN, ABS_MIN, ABS_MAX = 0x09, 0x08, 0x20, 0x21
X, XY, XYZ, XYZW = 2, 3, 4, 5


def part(gen, p):
    return p * (0x100000 if gen == MAVERICK else 0x40000)


def sc(in_dt=FP32, xpose=0, src=0x0, src_num=(16, 2, 1), src_step=(1, 16, 0), data=BF16, struct_dt=U32, nac=64,
       op=MAX, op_dim=X, dst=0x1000, dst_num=(8, 1, 1), pokes=(), hdr=None):
    """SPARSITY_COMPRESS: 2 groups of 16 FP32 elements (X), MAX, 8 UINT32 {BF16 data, tag} at SBUF 0x1000."""
    w = bytearray(64)
    header(w, 0xE0, **(hdr or {}))
    w[12], w[13] = in_dt, xpose
    struct.pack_into("<I3h3H", w, 16, src, *src_step, *src_num)
    w[32], w[33], w[34], w[36], w[37] = data, struct_dt, nac, op, op_dim
    struct.pack_into("<I3h3H", w, 48, dst, 1, 0, 0, *dst_num)
    for off, val in pokes:
        w[off] = val
    return w


def sct(in_dt=FP32, xpose=0, packed=0, src=0x0, src_num=(16, 2), data=BF16, tag_dt=U16, nac=64, op=MAX, op_dim=X,
        data_dst=0x1000, data_num=(8, 1), tag_dst=0x2000, tag_num=(8, 1), pokes=(), hdr=None):
    """SPARSITY_COMPRESS_TAG: the same reduction, 8 BF16 data at SBUF 0x1000, 8 UINT16 tags at SBUF 0x2000."""
    w = bytearray(64)
    header(w, 0xE1, **(hdr or {}))
    w[12], w[13], w[14] = in_dt, xpose, packed
    struct.pack_into("<I2h2H", w, 20, src, 1, 16, *src_num)
    w[32], w[33], w[34], w[36], w[37] = data, tag_dt, nac, op, op_dim
    struct.pack_into("<I2h2H", w, 40, data_dst, 1, 0, *data_num)
    struct.pack_into("<I2h2H", w, 52, tag_dst, 1, 0, *tag_num)
    for off, val in pokes:
        w[off] = val
    return w


def add():
    """Adds the family's vectors through vec()."""
    # ---- SPARSITY_COMPRESS (0xE0) ----
    vec("sc-base", MV, [], sc())
    vec("sc-min-fp8", MV, [], sc(op=MIN, data=FP8E4, struct_dt=U16))
    vec("sc-abs-fp16", MV, [], sc(op=ABS_MAX, data=FP16))
    vec("sc-abs-min", MV, [], sc(op=ABS_MIN, data=FP8E3, struct_dt=U16))
    # XY: one group of 32 per partition keeps 4.
    vec("sc-xy", MV, [], sc(op_dim=XY, dst_num=(4, 1, 1)))
    vec("sc-xyzw", MV, [], sc(op_dim=XYZW, dst_num=(4, 1, 1)))
    vec("sc-transpose", MV, [], sc(xpose=1, src_num=(32, 1, 1), dst_num=(4, 1, 1)))
    vec("sc-hdr", MV, [HDR], sc(hdr={"word_len": 15}))
    vec("sc-events", MV, ["has_valid_neuron_events"], sc(hdr={"wait_mode": 0x08}))
    vec("sc-res14", MV, [RES], sc(pokes=[(14, 1)]))
    vec("sc-res35", MV, [RES], sc(pokes=[(35, 1)]))
    vec("sc-res47", MV, [RES], sc(pokes=[(47, 1)]))
    vec("sc-nac-0", MV, [CHR], sc(nac=0))
    vec("sc-in-fp32r", MV, [VDT], sc(in_dt=FP32R))
    vec("sc-fp8-in-u32", MV, [DT], sc(data=FP8E4))
    vec("sc-bf16-in-u16", MV, [DT], sc(struct_dt=U16))
    vec("sc-data-fp32", MV, [DT], sc(data=FP32))
    vec("sc-op-add", MV, [OP], sc(op=0x04))
    vec("sc-op-alu-abs-max", MV, [OP], sc(op=0x22))
    vec("sc-op-dim-0", MV, [DIM3, SIZE, CNT], sc(op_dim=0))
    vec("sc-xpose-2", MV, [XP], sc(xpose=2))
    vec("sc-xpose-nac", MV, [XP], sc(xpose=1, nac=48, src_num=(32, 1, 1), dst_num=(4, 1, 1)))
    vec("sc-xpose-count", MV, [XP], sc(xpose=1, src_num=(16, 4, 1), dst_num=(16, 1, 1)))
    vec("sc-group-2", MV, [SIZE], sc(src_num=(2, 16, 1), dst_num=(64, 1, 1)))
    vec("sc-count", MV, [CNT], sc(dst_num=(9, 1, 1)))
    for gen in MV:
        vec(f"sc-src-p100/{gen}", (gen,), [SACH], sc(src=part(gen, 100)))
        vec(f"sc-dst-p100/{gen}", (gen,), [SACH], sc(dst=part(gen, 100) + 0x1000))
    vec("sc-src-odd", MV, [T3D], sc(src=0x2))
    vec("sc-dst-odd", MV, [T3D], sc(dst=0x1002))
    vec("sc-shape-reg", MV, [], sc(src=0x40000000, dst_num=(9, 1, 1)))
    # ---- SPARSITY_COMPRESS_TAG (0xE1) ----
    vec("sct-base", MV, [], sct())
    vec("sct-packed", MV, [], sct(packed=1, tag_num=(2, 1)))
    vec("sct-fp32r-data", MV, [], sct(data=FP32R))
    vec("sct-u8-tags", MV, [], sct(tag_dt=U8))
    vec("sct-u32-tags", MV, [], sct(tag_dt=U32))
    vec("sct-xy", MV, [], sct(op_dim=XY, data_num=(4, 1), tag_num=(4, 1)))
    vec("sct-transpose", MV, [], sct(xpose=1, src_num=(32, 1), data_num=(4, 1), tag_num=(4, 1)))
    vec("sct-hdr", MV, [HDR], sct(hdr={"word_len": 15}))
    vec("sct-events", MV, ["has_valid_neuron_events"], sct(hdr={"wait_mode": 0x08}))
    vec("sct-res15", MV, [RES2], sct(pokes=[(15, 1)]))
    vec("sct-res39", MV, [RES2], sct(pokes=[(39, 1)]))
    vec("sct-nac-0", MV, [CHR], sct(nac=0))
    vec("sct-in-fp32r", MV, [VDT], sct(in_dt=FP32R))
    vec("sct-packed-u8", MV, [DT2], sct(packed=1, tag_dt=U8, tag_num=(2, 1)))
    vec("sct-tags-fp32", MV, [DT2], sct(tag_dt=FP32))
    vec("sct-packed-2", MV, [DT2], sct(packed=2))
    vec("sct-op-min-alu", MV, [OP], sct(op=0x0A))
    vec("sct-op-dim-xyz", MV, [DIM2, CNT], sct(op_dim=XYZ))
    vec("sct-xpose-2", MV, [XP2], sct(xpose=2))
    vec("sct-xpose-count", MV, [XP2], sct(xpose=1, src_num=(16, 4), data_num=(16, 1), tag_num=(16, 1)))
    vec("sct-group-2", MV, [SIZE], sct(src_num=(2, 16), data_num=(64, 1), tag_num=(64, 1)))
    vec("sct-count", MV, [CNT], sct(data_num=(12, 1), tag_num=(12, 1)))
    vec("sct-tags-count", MV, [TAGS], sct(tag_num=(4, 1)))
    vec("sct-packed-count", MV, [TAGS], sct(packed=1))
    for gen in MV:
        vec(f"sct-src-p100/{gen}", (gen,), [SACH], sct(src=part(gen, 100)))
        vec(f"sct-data-p100/{gen}", (gen,), [SACH, QUAD], sct(data_dst=part(gen, 100) + 0x1000))
        vec(f"sct-tag-p32/{gen}", (gen,), [QUAD], sct(tag_dst=part(gen, 32) + 0x2000))
        vec(f"sct-both-p32/{gen}", (gen,), [], sct(data_dst=part(gen, 32) + 0x1000, tag_dst=part(gen, 33) + 0x2000))
    vec("sct-src-odd", MV, [T2D], sct(src=0x2))
    vec("sct-data-odd", MV, [T2D], sct(data_dst=0x1001))
    vec("sct-tag-odd", MV, [T2D], sct(tag_dst=0x2001))
