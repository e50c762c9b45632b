"""PE matmul vectors (LDWEIGHTS 0x01, MATMUL 0x02; real-programs.md §8-§9), added to validate.tsv by
make_validate_vectors.py."""
#
# Expected values are derived by hand from the predicate bodies of real-programs.md §8.2 / §9.2 and the
# project's decisions in docs/conventions.md (PE matmul block) -- never from running the library. Layouts:
# SUNDA and CAYMAN share one (PROJ-CONV-F19), MARIANA adds flag bytes at 12/42/47, MAVERICK is re-packed (§9.6).
# Ids start with "pe-". One accepting and one rejecting word per predicate per generation where it applies.

import struct

from vectorlib import ENGINES, PLACE, vec

SUNDA, CAYMAN, MARIANA, MAVERICK = "sunda", "cayman", "mariana", "maverick"
SC = (SUNDA, CAYMAN)
FP16, FP32, I8, U8 = 0x07, 0x0A, 0x02, 0x03


def _t3d(w, at, start, step, num):
    struct.pack_into("<I3h3H", w, at, start, *step, *num)


def lw(gen, pokes=(), src=0x40FE, cols=128, rows=128, num=(32, 1, 4)):
    """LDWEIGHTS of sg00/PE#08 without its wait: FP16 tile walked backwards from 0x40fe, 128 x 128."""
    w = bytearray(64)
    w[0], w[1] = 0x01, 16
    _t3d(w, 16, src, (-1, 0, -32), num)
    w[32] = FP16
    if gen == MAVERICK:
        w[34], w[35] = rows, cols
    else:
        w[38], w[39], w[44], w[45] = rows, cols, 0x0F, 0x0F
    for off, val in pokes:
        w[off] = val
    return w


def mm(gen, pokes=(), src=0x4000, dst=None, rows=128, cols=128, dst_n=64):
    """MATMUL like sg00/PE#09: MULTI_START, FP16 moving tile of 64 elements; PSUM bank 0 (MAVERICK: SBUF 0x8000)."""
    w = bytearray(64)
    w[0], w[1] = 0x02, 16
    _t3d(w, 16, src, (1, 0, 0), (64, 1, 1))
    w[32] = FP16
    if gen == MAVERICK:
        w[35], w[36], w[39] = rows, cols, 1
        _t3d(w, 48, 0x8000 if dst is None else dst, (1, 0, 0), (dst_n, 1, 1))
    else:
        w[38], w[39], w[43], w[44], w[45] = rows, cols, 1, 0x0F, 0x0F
        _t3d(w, 48, 0x2000000 if dst is None else dst, (1, 0, 0), (dst_n, 1, 1))
    for off, val in pokes:
        w[off] = val
    return w


def part1(gen):
    """Start of SBUF partition 1 (1 MiB stride on MAVERICK)."""
    return 0x100000 if gen == MAVERICK else 0x40000


REAL = {
    "pe-real-PE03": "01100000050800001000000000000000fe7c0300ffff0000e0ff2000010004000700010000008080000000000f0f0000" + "00" * 16,
    "pe-real-PE05": "01100000000000000000000000000000fe7d0300ffff0000e0ff2000010004000700010000008080000000000f0f0000" + "00" * 16,
    "pe-real-PE08": "01100000050400000100000000000000fe400000ffff0000e0ff2000010004000700000000008080000000000f0f0000" + "00" * 16,
    "pe-real-PE10": "01100000051a00001000000000000000fe410000ffff0000e0ff2000010004000700000000008080000000000f0f0000" + "00" * 16,
    "pe-real-PE04": "02100000000013050000000000000000007b03000100000000008000010001000700010000008080000000030f0f0000"
                    "00080002010000000000800001000100",
    "pe-real-PE06": "02100000000013050000000000000000007b03000100000000008000010001000700010000008080000000030f0f0000"
                    "00090002010000000000800001000100",
    "pe-real-PE09": "02100000000013050000000000000000007f03000100000000004000010001000700000000008080000000010f0f0000"
                    "00000002010000000000400001000100",
    "pe-real-PE11": "02100000000013050000000000000000007e03000100000000004000010001000700000000008080000000020f0f0000"
                    "00000002010000000000400001000100",
}


def add():
    """Adds the vectors through vectorlib.vec."""
    # The real words of matmul_small.neff (CAYMAN): every one is valid.
    for vid, hexword in REAL.items():
        vec(vid, (CAYMAN,), [], bytearray.fromhex(hexword))

    for gen in (SUNDA, CAYMAN, MARIANA, MAVERICK):
        g = (gen,)
        mv = gen == MAVERICK
        # ---- LDWEIGHTS ----
        vec(f"pe-lw-base/{gen}", g, [], lw(gen))
        # has_valid_neuron_header / has_valid_neuron_events, as for every validator: a word length of 15, and a
        # wait mode no generation's WAIT_MODE enum has (0x08).
        vec(f"pe-lw-word-len/{gen}", g, ["has_valid_neuron_header"], lw(gen, [(1, 15)]))
        vec(f"pe-lw-wait-0x08/{gen}", g, ["has_valid_neuron_events"], lw(gen, [(4, 0x08)]))
        vec(f"pe-lw-reserved/{gen}", g, ["lw_reserved_zero"], lw(gen, [(40, 1)]))
        vec(f"pe-lw-in-dtype/{gen}", g, ["has_valid_mm_in_dtype"], lw(gen, [(32, I8)]))
        # FP32 needs fp32_mode 1..3 (s3d3_mm_valid_fp32_mode); an FP32 word with mode 2 is accepted.
        vec(f"pe-lw-fp32-mode/{gen}", g, ["s3d3_mm_valid_fp32_mode"], lw(gen, [(33, 1)]))
        vec(f"pe-lw-fp32-high/{gen}", g, [], lw(gen, [(32, FP32), (33, 2)], src=0x40FC))
        vec(f"pe-lw-rows-partition/{gen}", g, ["lw_valid_num_rows"], lw(gen, src=part1(gen) + 0x40FE))
        vec(f"pe-lw-cols/{gen}", g, ["lw_valid_num_active_cols"], lw(gen, cols=64))
        vec(f"pe-lw-unaligned/{gen}", g, ["tensor3d_valid"], lw(gen, src=0x40FF))
        if not mv:
            vec(f"pe-lw-transpose/{gen}", g, ["lw_valid_transpose_mode"], lw(gen, [(34, 2)]))
            vec(f"pe-lw-row-grp/{gen}", g, ["lw_valid_row_group"], lw(gen, [(44, 0x05)]))
            vec(f"pe-lw-col-grp/{gen}", g, ["lw_valid_col_group"], lw(gen, [(45, 0x03)]))
        if gen == MARIANA:
            # LD_WEIGHT_FLAGS bit 5 (load_order) is a flag; bit 6 is not; byte 12 is bg_xpose_mode, not reserved.
            vec("pe-lw-flags-load-order/mariana", g, [], lw(gen, [(47, 0x20), (12, 3)]))
            vec("pe-lw-flags-bit6/mariana", g, ["lw_reserved_zero"], lw(gen, [(47, 0x40)]))
        if gen in SC:
            vec(f"pe-lw-byte12/{gen}", g, ["lw_reserved_zero"], lw(gen, [(12, 3)]))
        if mv:
            vec("pe-lw-cols-256/maverick", g, ["lw_valid_num_active_cols"], lw(gen, cols=0))  # 0 = 256 != 128
            # PROJ-CONV-G5: 0 = 256 columns, and a tile of 256 elements (walked back from element 255 at 0x41fe).
            vec("pe-lw-cols-256-elements/maverick", g, [], lw(gen, cols=0, src=0x41FE, num=(32, 1, 8)))
        # A register start (ADDR_REG, R5) is placed at run time: the partition terms hold (PROJ-CONV-F13, G5).
        # Register 64 does not exist, so tensor_start_addr_valid judges the masked bits as an immediate
        # (common-formats.md §10.6): 0x41 is not FP16-aligned.
        vec(f"pe-lw-src-register/{gen}", g, [], lw(gen, src=0x80000005))
        vec(f"pe-lw-src-register-64/{gen}", g, ["tensor3d_valid"], lw(gen, src=0x80000041))

        # ---- MATMUL ----
        vec(f"pe-mm-base/{gen}", g, [], mm(gen))
        vec(f"pe-mm-word-len/{gen}", g, ["has_valid_neuron_header"], mm(gen, [(1, 15)]))
        vec(f"pe-mm-wait-0x08/{gen}", g, ["has_valid_neuron_events"], mm(gen, [(4, 0x08)]))
        vec(f"pe-mm-reserved/{gen}", g, ["d3_mm_reserved_zero"], mm(gen, [(41, 1)]))
        vec(f"pe-mm-in-dtype/{gen}", g, ["has_valid_mm_in_dtype"], mm(gen, [(32, I8)]))
        vec(f"pe-mm-out-dtype/{gen}", g, ["has_valid_mm_out_dtype"], mm(gen, [(34 if mv else 40, FP16)]))
        fp32_out = [] if gen in (MARIANA, MAVERICK) else ["has_valid_mm_out_dtype"]
        vec(f"pe-mm-out-fp32/{gen}", g, fp32_out, mm(gen, [(34 if mv else 40, FP32)]))
        vec(f"pe-mm-fp32-mode/{gen}", g, ["s3d3_mm_valid_fp32_mode"], mm(gen, [(33, 1)]))
        vec(f"pe-mm-accumulate/{gen}", g, ["d3_mm_valid_accumulate_flags"], mm(gen, [(39, 8)] if mv else [(43, 4)]))
        vec(f"pe-mm-rows-zero/{gen}", g, ["d3_mm_valid_num_active_rows"], mm(gen, rows=0))
        vec(f"pe-mm-src-region/{gen}", g, ["d3_mm_valid_src_partition"],
            mm(gen, src=0x9000000 if mv else 0x2004000))
        vec(f"pe-mm-dst-unaligned/{gen}", g, ["d3_mm_valid_dst"], mm(gen, dst=0x8002 if mv else 0x2000002))
        vec(f"pe-mm-counts/{gen}", g, ["d3_mm_num_elements"], mm(gen, dst_n=32))
        vec(f"pe-mm-sbuf-quadrant/{gen}", g, ["valid_mm_sbuf_quadrant"], mm(gen, src=part1(gen) + 0x4000, rows=64))
        if mv:
            vec("pe-mm-psum-quadrant/maverick", g, ["valid_mm_psum_quadrant"], mm(gen, dst=part1(gen) + 0x8000))
            vec("pe-mm-perf/maverick", g, ["d3_mm_perf_opt_dtype"], mm(gen, [(40, 1)]))
            vec("pe-mm-perf-fp8/maverick", g, [], mm(gen, [(40, 1), (32, 0x0E)]))
        else:
            vec(f"pe-mm-psum-quadrant/{gen}", g, ["valid_mm_psum_quadrant"], mm(gen, dst=0x2008000, cols=64))
            vec(f"pe-mm-perf/{gen}", g, ["d3_mm_perf_opt_dtype"], mm(gen, [(35, 1)]))
            vec(f"pe-mm-perf-fp8/{gen}", g, [], mm(gen, [(35, 1), (32, 0x0E)]))
            vec(f"pe-mm-transpose/{gen}", g, ["d3_mm_valid_transpose_mode"], mm(gen, [(34, 2)]))
            vec(f"pe-mm-cols-zero/{gen}", g, ["d3_mm_valid_num_active_cols"], mm(gen, cols=0))
            vec(f"pe-mm-row-grp/{gen}", g, ["d3_mm_valid_row_group"], mm(gen, [(44, 0x05)]))
            vec(f"pe-mm-col-grp/{gen}", g, ["d3_mm_valid_col_group_active_col"], mm(gen, [(45, 0x03)]))
            # 64 FP32 elements from 0x780 end at 0x87f: they leave bank 0 (PROJ-CONV-F15).
            vec(f"pe-mm-dst-bank/{gen}", g, ["d3_mm_valid_dst"], mm(gen, dst=0x2000780))
            # Transpose mode writes at the input width: an FP16 destination 2-aligned is accepted.
            vec(f"pe-mm-transpose-fp16-dst/{gen}", g, [], mm(gen, [(34, 1), (43, 3)], dst=0x2000802))
            zr = 4 if gen == MARIANA else 1
            vec(f"pe-mm-zero-region/{gen}", g, ["d3_mm_valid_zero_region"], mm(gen, [(47, zr)]))
        if gen == MARIANA:
            vec("pe-mm-zero-region-8k/mariana", g, [], mm(gen, [(47, 2)]))
            vec("pe-mm-flags-bit6/mariana", g, ["d3_mm_reserved_zero"], mm(gen, [(42, 0x40)]))
            vec("pe-mm-flags-accumulate/mariana", g, [], mm(gen, [(42, 0x10)]))
        if mv:
            vec("pe-mm-begin-accum/maverick", g, [], mm(gen, [(39, 5)]))
            # PROJ-CONV-G5: num_active_cols 0 = 256 PE columns, within MAVERICK's 256.
            vec("pe-mm-cols-256/maverick", g, [], mm(gen, cols=0))
        # Register starts are placed at run time (src: d3_mm_valid_src_partition's register arm; dst: d3_mm_valid_dst
        # and the quadrant rule hold); register 64 is judged on its masked bits, 0x41 not FP16-aligned.
        vec(f"pe-mm-src-register/{gen}", g, [], mm(gen, src=0x80000005))
        vec(f"pe-mm-src-register-64/{gen}", g, ["d3_mm_valid_src_partition"], mm(gen, src=0x80000041))
        vec(f"pe-mm-dst-register/{gen}", g, [], mm(gen, dst=0x80000006))

    # Engine placement (PROJ-CONV-F1): LDWEIGHTS and MATMUL only on PE.
    for gen in (SUNDA, CAYMAN, MARIANA, MAVERICK):
        for name, word in (("lw", lw(gen)), ("mm", mm(gen))):
            for engine in ENGINES:
                vec(f"pe-{name}-on-{engine.lower()}/{gen}", (gen,), [] if engine == "PE" else [PLACE], word,
                    f"engine={engine}")
