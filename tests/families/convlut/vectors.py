"""Conversion-LUT vectors: S2_CONVLUT (0xE4 CONV_LUT_LOAD), the layout the wiki quotes from the header (convlutload.md
§4; PROJ-CONV-CL1, CL2). Added to tests/vectors/validate.tsv by make_validate_vectors.py.

Every expected failing set is derived by hand from the header predicates the wiki quotes (s2_convlut_is_cptc,
s2_convlut_valid_nc, s2_convlut_check_dtype, ...), never from running the library. Ids start with "cl-". CAYMAN,
MARIANA and MAVERICK; CAYMAN names the start rule start_addr_active_channels, MARIANA and MAVERICK
check_m2d_active_channels.
"""

import struct

from vectorlib import CMV, HDR, MV, CAYMAN, MARIANA, MAVERICK, FP32, U16, U32, header, vec

NC = "s2_convlut_valid_nc"
RES = "s2_convlut_reserved_zero"
LZ = "s2_convlut_legacy_reserved_zero"
DT = "s2_convlut_check_dtype"
CNT = "has_conv_lut_load_src_element_cnt"
FULL = "s2_convlut_legacy_full_array"
T2D = "tensor2d_valid"
START = "<start>"
CPTC1 = 0x19


def names(gen, failing):
    start = "start_addr_active_channels" if gen == CAYMAN else "check_m2d_active_channels"
    return [start if f == START else f for f in failing]


def cl(src=0x0, src_num=(4, 1), in_dt=U32, rows=128, cols=128, mconst=(0, 0), row_grp=0x0F, col_grp=0x0F, block=0,
       lut=CPTC1, pokes=(), hdr=None):
    """CONV_LUT_LOAD, CPTC leg: a 4-unit UINT32 block from SBUF 0x0 on 128 rows, lut_dtype CPTC1."""
    w = bytearray(64)
    header(w, 0xE4, **(hdr or {}))
    struct.pack_into("<I2h2H", w, 16, src, 1, 0, *src_num)
    w[32], w[38], w[39] = in_dt, rows, cols
    struct.pack_into("<2HBBBB", w, 40, *mconst, row_grp, col_grp, block, lut)
    for off, val in pokes:
        w[off] = val
    return w


def legacy(**kw):
    """The legacy leg: the 16-entry UINT16 table, lut_dtype INVALID."""
    args = dict(src_num=(16, 1), in_dt=U16, lut=0)
    args.update(kw)
    return cl(**args)


def add():
    """Adds the family's vectors through vec()."""

    def v(vid, failing, word, gens=CMV):
        for gen in gens:
            vec(f"{vid}/{gen}", (gen,), names(gen, failing), word)

    v("cl-base", [], cl())
    v("cl-cptc-transposed", [], cl(src_num=(1, 4)))
    v("cl-cptc-params", [], cl(mconst=(0x3C00, 7), block=32, rows=64, row_grp=0x3))
    v("cl-hdr", [HDR], cl(hdr={"word_len": 15}))
    v("cl-events", ["has_valid_neuron_events"], cl(hdr={"wait_mode": 0x08}))
    # The legacy leg (lut_dtype INVALID or FP32): MARIANA's header alone admits it (`nc == V4`).
    vec("cl-legacy/mariana", (MARIANA,), [], legacy())
    vec("cl-legacy-fp32/mariana", (MARIANA,), [], legacy(lut=FP32))
    vec("cl-legacy-transposed/mariana", (MARIANA,), [], legacy(src_num=(1, 16)))
    vec("cl-legacy/cayman", (CAYMAN,), [NC], legacy())
    vec("cl-legacy/maverick", (MAVERICK,), [NC], legacy())
    v("cl-res12", [RES], cl(pokes=[(12, 1)]))
    v("cl-res30", [RES], cl(pokes=[(30, 1)]))
    v("cl-res35", [RES], cl(pokes=[(35, 1)]))
    v("cl-res60", [RES], cl(pokes=[(60, 1)]))
    vec("cl-legacy-mconst/mariana", (MARIANA,), [LZ], legacy(mconst=(1, 0)))
    vec("cl-legacy-block/mariana", (MARIANA,), [LZ], legacy(block=8))
    vec("cl-legacy-u32/mariana", (MARIANA,), [DT], legacy(in_dt=U32))
    v("cl-cptc-u16", [DT], cl(in_dt=U16))
    v("cl-cptc-count", [CNT], cl(src_num=(16, 1)))
    v("cl-cptc-count-2d", [CNT], cl(src_num=(4, 2)))
    vec("cl-legacy-count/mariana", (MARIANA,), [CNT], legacy(src_num=(4, 1)))
    vec("cl-legacy-rows/mariana", (MARIANA,), [FULL], legacy(rows=64))
    for gen in (CAYMAN, MAVERICK):
        vec(f"cl-legacy-block/{gen}", (gen,), [NC, LZ], legacy(block=8))
        vec(f"cl-legacy-rows/{gen}", (gen,), [NC, FULL], legacy(rows=64))
    vec("cl-legacy-cols/mariana", (MARIANA,), [FULL], legacy(cols=127))
    vec("cl-legacy-grp/mariana", (MARIANA,), [FULL], legacy(row_grp=0x3))
    # The CPTC leg does not fix the array shape.
    v("cl-cptc-rows-32", [], cl(rows=32, col_grp=0x1))
    # 128 rows from partition 1 run past partition 127.
    for gen in CMV:
        p1 = 0x100000 if gen == MAVERICK else 0x40000
        vec(f"cl-src-p1/{gen}", (gen,), names(gen, [START]), cl(src=p1))
    v("cl-src-odd", [T2D], cl(src=0x2))
    v("cl-src-zero", [T2D, CNT], cl(src_num=(0, 1)))
    # PSUM is never a source: 0x2000000 is PSUM partition 0 on CAYMAN and MARIANA (MAVERICK: SBUF partition 32, where
    # 128 rows no longer fit).
    for gen in (CAYMAN, MARIANA):
        vec(f"cl-src-psum/{gen}", (gen,), [T2D], cl(src=0x2000000))
