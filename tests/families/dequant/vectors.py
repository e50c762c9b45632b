"""Tensor-dequantize vectors: S3D3_TENS_DEQUANT (0x7B TENSOR_DEQUANTIZE), the layout and validity contract the wiki
quotes from the header (tensor-dequantize.md §2, §2.1, §4.1, §5; PROJ-CONV-DQ1, DQ2). Added to
tests/vectors/validate.tsv by make_validate_vectors.py.

Every expected failing set is derived by hand from the header's predicate bodies as the wiki quotes them, never from
running the library. Ids start with "dq-". SUNDA's enum has the opcode but no header: every SUNDA word adds
has_valid_nc_tens_dequant. MARIANA and MAVERICK name the pattern rules mem3d_valid and check_m3d_active_channels.
"""

import struct

from vectorlib import ALL, CMV, HDR, MV, SUNDA, CAYMAN, MARIANA, MAVERICK, U32, U16, FP32, header, vec

NC = "has_valid_nc_tens_dequant"
CH = "check_active_channels"
FMT = "has_valid_dequant_fmt"
GRP = "has_valid_group_size"
FG = "has_valid_dequant_fmt_group_size"
RES = "s3d3_tens_dequant_reserved_zero"
IN = "has_valid_tens_dequant_in_dtype"
OUT = "has_valid_tens_dequant_out_dtype"
COUNT = "s3d3_tens_dequant_element_count_check_t3d"
# The start and pattern rules, named per generation (PROJ-CONV-DQ2).
START, PAT = "<start>", "<pattern>"


def names(gen, failing):
    start = "check_m3d_active_channels" if gen in MV else "start_addr_active_channels"
    pat = "mem3d_valid" if gen in MV else "tensor3d_valid"
    out = [start if f == START else pat if f == PAT else f for f in failing]
    return out + [NC] if gen == SUNDA else out


def part(gen, p):
    """Start of SBUF partition p (256 KiB stride, 1 MiB on MAVERICK)."""
    return p * (0x100000 if gen == MAVERICK else 0x40000)


def dq(src=0x0, src_num=(32, 1, 1), in_dt=U32, out_dt=U32, nac=64, fmt=1, group=0, dst=0x1000, dst_num=(64, 1, 1),
       pokes=(), hdr=None):
    """TENSOR_DEQUANTIZE: 32 UINT32 words of FP4 codes from SBUF 0x0 into 64 UINT32 words of FP8 at SBUF 0x1000,
    64 channels."""
    w = bytearray(64)
    header(w, 0x7B, **(hdr or {}))
    struct.pack_into("<I3h3H", w, 12, src, 1, 0, 0, *src_num)
    struct.pack_into("<BBBBB", w, 32, in_dt, out_dt, nac, fmt, group)
    struct.pack_into("<I3h3H", w, 44, dst, 1, 0, 0, *dst_num)
    for off, val in pokes:
        w[off] = val
    return w


def add():
    """Adds the family's vectors through vec()."""

    def v(vid, failing, word, gens=ALL):
        for gen in gens:
            vec(f"{vid}/{gen}", (gen,), names(gen, failing), word)

    v("dq-base", [], dq())
    v("dq-int4", [], dq(fmt=2))
    v("dq-nf4", [], dq(fmt=3))
    # FP6: 4 source words per 3 results; 24 words of codes (a multiple of 3) give 32.
    v("dq-fp6", [], dq(fmt=4, src_num=(24, 1, 1), dst_num=(32, 1, 1)))
    # Micro-scaled 4-bit: 8 source words per 5 results; 40 (a multiple of 5) give 64.
    v("dq-mx-fp4", [], dq(group=8, src_num=(40, 1, 1)))
    v("dq-mx-nf4", [], dq(fmt=3, group=8, src_num=(8, 5, 1), dst_num=(16, 4, 1)))
    v("dq-nac-128", [], dq(nac=128))
    v("dq-src-register", [], dq(src=0x80000005))
    v("dq-hdr", [HDR], dq(hdr={"word_len": 15}))
    v("dq-events", ["has_valid_neuron_events"], dq(hdr={"wait_mode": 0x08}))
    v("dq-nac-0", [CH], dq(nac=0))
    v("dq-nac-129", [CH, START, START], dq(nac=129))
    # An invalid format matches no arm of the element count check.
    v("dq-fmt-0", [FMT, COUNT], dq(fmt=0))
    v("dq-fmt-5", [FMT, COUNT], dq(fmt=5))
    # group 4: neither 0 nor 8, so no format takes it and no count arm matches.
    v("dq-group-4", [GRP, FG, COUNT], dq(group=4))
    # FP6 is never micro-scaled (8:5 words hold, but the FP6 arm needs group 0).
    v("dq-fp6-mx", [FG, COUNT], dq(fmt=4, group=8, src_num=(40, 1, 1)))
    v("dq-res28", [RES], dq(pokes=[(28, 1)]))
    v("dq-res43", [RES], dq(pokes=[(43, 0x80)]))
    v("dq-res63", [RES], dq(pokes=[(63, 2)]))
    v("dq-in-fp32", [IN], dq(in_dt=FP32))
    v("dq-out-u16", [OUT], dq(out_dt=U16))
    # A source two bytes in: not aligned for UINT32.
    v("dq-src-odd", [PAT], dq(src=0x2))
    v("dq-dst-odd", [PAT], dq(dst=0x1002))
    v("dq-src-zero-count", [PAT, COUNT], dq(src_num=(0, 1, 1)))
    # Counts out of ratio: 4-bit 2:1, FP6 4:3 (32 words of FP6 give no whole number), MX 8:5.
    v("dq-count-2-1", [COUNT], dq(dst_num=(63, 1, 1)))
    v("dq-count-fp6", [COUNT], dq(fmt=4))
    v("dq-count-mx", [COUNT], dq(group=8))
    for gen in ALL:
        # Partition 100 + 64 channels runs past partition 127.
        vec(f"dq-src-p100/{gen}", (gen,), names(gen, [START]), dq(src=part(gen, 100)))
        vec(f"dq-dst-p100/{gen}", (gen,), names(gen, [START]), dq(dst=part(gen, 100) + 0x1000))
        vec(f"dq-nac-28-p100/{gen}", (gen,), names(gen, []), dq(nac=28, dst=part(gen, 100) + 0x1000))
    # PSUM is never allowed: 0x2000000 is PSUM partition 0 on SUNDA..MARIANA; MAVERICK has no PSUM there (SBUF
    # partition 32, where 64 channels still fit).
    for gen in (SUNDA, CAYMAN, MARIANA):
        vec(f"dq-dst-psum/{gen}", (gen,), names(gen, [PAT]), dq(dst=0x2000000))
    vec("dq-dst-psum/maverick", (MAVERICK,), [], dq(dst=0x2000000))
    # A shape from a register waives the count check (CAYMAN on).
    for gen in CMV:
        vec(f"dq-count-shape-reg/{gen}", (gen,), names(gen, []), dq(src=0x40000000, dst_num=(63, 1, 1)))
