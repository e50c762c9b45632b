"""Validation vectors of the DMA family: DMAMEMCPY 0xB8, DMA_INDIRECT 0xBB, DMA_TRANSPOSE 0xBD,
DMA_GATHER_TRANSPOSE 0xF1 and the pseudo words PSEUDO_DMATRIGGER 0xC1 / PSEUDO_TRIGGER_COLLECTIVE 0xC8
(opcode-research.md §A.2.9, §A.2.10; conventions DM1-DM8, PS1-PS2). Added to validate.tsv by make_validate_vectors.py.

Every expected failing set is worked out by hand from the predicate rules as the public wiki states them (and the
project's conventions where it is silent), never from running the library. Ids start with "dma-". Per predicate
and generation there is an accepting word (the baselines) and a word failing only it (or with the companions
named next to it).
"""

import struct

import vectorlib


def add():
    """Adds the vectors through vectorlib.vec."""
    g = vars(vectorlib)
    vec, ALL, CMV, S = g["vec"], g["ALL"], g["CMV"], g["S"]
    HDR, VDT = g["HDR"], g["VDT"]
    EVT = "has_valid_neuron_events"
    CFG, COP, SHAPE = "is_valid_dma_configs", "has_valid_dge_compute_op", "zero_num_elem_shape_reg_mode"
    SAME, CCE = "dma_memcpy_same_element_count", "is_valid_dma_cce"
    IDX_CH, DIMS, IDX_ADDR = "check_dma_indirect_indices", "has_valid_indirect_dim_by_mode", \
        "has_dma_indirect_idx_addr_in_sbuf_partition0"
    IDX_N, ICCE, IRES = "has_dma_indirect_valid_index_count", "is_valid_dma_indirect_cce", \
        "has_dma_indirect_check_reserved_zero"
    ROWS, COLS, XDT = "has_valid_xpose_tile_rows_temporary", "has_valid_xpose_tile_cols_temporary", \
        "has_valid_xpose_dtypes_temporary"
    XDST, XSTEP = "has_valid_xpose_dst_start_addr", "has_valid_xpose_dst_steps"
    GDT, GEL, GAD = "has_valid_gather_transpose_dtype", "has_valid_gather_transpose_elem_size", \
        "has_valid_gather_transpose_addresses"
    GFL, GSRC, GSTEP = "has_valid_gather_transpose_flags", "has_valid_gather_transpose_src_dimensions", \
        "has_valid_gather_transpose_dst_steps"
    GX, GRES = "has_valid_gather_transpose_cross_field_consistency", "dma_gather_transpose_reserved_zero"
    QNAME = "pseudo_dma_trigger_queue_named"
    CUPD, COPS, CTYPE = "pseudo_collective_update_inc_complete", "pseudo_collective_valid_op", \
        "pseudo_collective_valid_ctype"
    INVALID, I8, BF16, FP16, FP32 = 0x00, 0x02, 0x06, 0x07, 0x0A

    def poke(w, pokes):
        w = bytearray(w)
        for off, fmt, val in pokes:
            struct.pack_into(fmt, w, off, val)
        return w

    # ---- DMAMEMCPY 0xB8: four 16-byte chunks from SBUF partitions 0..3 (+0x100) into partition 0 (+0x200), FP32 ----
    MD = bytearray(64)
    vectorlib.header(MD, 0xB8)
    struct.pack_into("<BBBB", MD, 12, 0, 5, 1, 0)  # dma_configs, semaphore, sem_increment, compute_op
    struct.pack_into("<QiiHHHBB", MD, 16, 0x100, 0x40000, 0, 4, 1, 16, 0, 0)
    struct.pack_into("<QiiHHHBB", MD, 40, 0x200, 16, 0, 4, 1, 16, FP32, FP32)
    vec("dma-md-base", ALL, [], MD)
    vec("dma-md-header", ALL, [HDR], poke(MD, [(1, "B", 15)]))
    vec("dma-md-events", ALL, [EVT], poke(MD, [(4, "B", 0x08)]))
    vec("dma-md-configs-4", ALL, [], poke(MD, [(12, "B", 4)]))
    vec("dma-md-configs-5", ALL, [CFG], poke(MD, [(12, "B", 5)]))
    vec("dma-md-configs-b3", ALL, [CFG], poke(MD, [(12, "B", 0x08)]))
    for op in range(1, 5):  # every reduce op on the aligned baseline
        vec(f"dma-md-compute-{op}", ALL, [], poke(MD, [(15, "B", op)]))
    vec("dma-md-compute-5", ALL, [COP], poke(MD, [(15, "B", 5)]))
    vec("dma-md-dtypes-invalid", ALL, [VDT], poke(MD, [(62, "B", INVALID), (63, "B", INVALID)]))
    # A shape from registers (marker 0x40) keeps its counts zero; the element comparison is then left to run time.
    vec("dma-md-shape-reg", ALL, [], poke(MD, [(23, "B", 0x40), (32, "<H", 0), (34, "<H", 0)]))
    vec("dma-md-shape-reg-counts", ALL, [SHAPE], poke(MD, [(23, "B", 0x40)]))
    vec("dma-md-dst-shape-reg-counts", ALL, [SHAPE], poke(MD, [(47, "B", 0x40)]))
    vec("dma-md-count-mismatch", ALL, [SAME], poke(MD, [(56, "<H", 3)]))
    # FP32 -> BF16: 64 bytes of FP32 = 16 elements = 4 x 8 bytes of BF16 (DM3).
    vec("dma-md-cast", ALL, [], poke(MD, [(63, "B", BF16), (60, "<H", 8)]))
    vec("dma-md-cast-mismatch", ALL, [SAME], poke(MD, [(63, "B", BF16)]))
    # elem_size 0 is 65 536 bytes on both sides: 1 x 1 chunk each.
    vec("dma-md-esz0", ALL, [], poke(MD, [(32, "<H", 1), (36, "<H", 0), (56, "<H", 1), (60, "<H", 0)]))
    # CCE (DM4): 6-byte chunks are not whole FP32 elements; a 2-byte aligned source address; an odd step.
    vec("dma-md-cce-esz", ALL, [CCE], poke(MD, [(15, "B", 1), (36, "<H", 6), (60, "<H", 6)]))
    vec("dma-md-cce-addr", ALL, [CCE], poke(MD, [(15, "B", 1), (16, "<Q", 0x102)]))
    vec("dma-md-cce-step", ALL, [CCE], poke(MD, [(15, "B", 3), (48, "<i", 18)]))
    vec("dma-md-nocce-esz", ALL, [], poke(MD, [(36, "<H", 6), (60, "<H", 6)]))  # a plain copy of 24 bytes
    # A register-pair address (marker 0x80) is placed at run time: no alignment asked.
    vec("dma-md-cce-regpair", ALL, [], poke(MD, [(15, "B", 1), (16, "<Q", 0x8000000000000302)]))

    # ---- DMA_INDIRECT 0xBB: gather 8 rows of 16 bytes by a UINT32 index vector in SBUF partition 0 ----
    IN = bytearray(64)
    vectorlib.header(IN, 0xBB)
    struct.pack_into("<BBBB", IN, 12, 6, 1, 128, 0)  # semaphore, sem_increment, idx channels, flags (SRC, X)
    struct.pack_into("<QiHH", IN, 16, 0x1000, 16, 8, 16)
    struct.pack_into("<QiHH", IN, 32, 0x2000, 16, 8, 16)
    struct.pack_into("<IIBBBBBB", IN, 48, 0x3000, 0, FP32, FP32, 0, 0, 0, 0)
    vec("dma-in-base", ALL, [], IN)
    vec("dma-in-header", ALL, [HDR], poke(IN, [(1, "B", 15)]))
    vec("dma-in-events", ALL, [EVT], poke(IN, [(6, "B", 0x08)]))
    vec("dma-in-channels", ALL, [IDX_CH], poke(IN, [(14, "B", 64)]))
    vec("dma-in-mode-3", ALL, [DIMS], poke(IN, [(15, "B", 0x03)]))
    vec("dma-in-scatter-dim-on-gather", ALL, [DIMS], poke(IN, [(15, "B", 0x40)]))
    vec("dma-in-gather-dim-y", ALL, [DIMS], poke(IN, [(15, "B", 0x10)]))
    # gather_dim Y is allowed when the source shape comes from registers (its count then zero).
    vec("dma-in-gather-dim-y-shape-reg", ALL, [], poke(IN, [(15, "B", 0x10), (23, "B", 0x40), (28, "<H", 0)]))
    vec("dma-in-scatter", ALL, [], poke(IN, [(15, "B", 0x01), (52, "<I", 0x3000)]))
    vec("dma-in-both", ALL, [], poke(IN, [(15, "B", 0x0E), (52, "<I", 0x3100)]))  # SRC_DST + bound error + non-unique
    # 0x103000 is SBUF partition 4 (partition 1 on MAVERICK): not partition 0.
    vec("dma-in-idx-partition", ALL, [IDX_ADDR], poke(IN, [(48, "<I", 0x103000)]))
    vec("dma-in-idx-unused", ALL, [], poke(IN, [(15, "B", 0x01), (48, "<I", 0x103000)]))  # scatter: src index unused
    vec("dma-in-idx-register", ALL, [], poke(IN, [(48, "<I", 0x80000005)]))
    vec("dma-in-dst-idx-partition", ALL, [IDX_ADDR], poke(IN, [(15, "B", 0x01), (52, "<I", 0x103000)]))
    vec("dma-in-count-4096", ALL, [], poke(IN, [(28, "<H", 4096)]))
    vec("dma-in-count-4097", ALL, [IDX_N], poke(IN, [(28, "<H", 4097)]))
    vec("dma-in-dst-count-4097", ALL, [], poke(IN, [(44, "<H", 4097)]))  # the destination is not indexed
    vec("dma-in-shape-reg-counts", ALL, [SHAPE], poke(IN, [(23, "B", 0x40)]))
    vec("dma-in-configs", ALL, [CFG], poke(IN, [(61, "B", 5)]))
    vec("dma-in-compute", ALL, [COP], poke(IN, [(60, "B", 7)]))
    vec("dma-in-scatter-add", ALL, [], poke(IN, [(15, "B", 0x09), (52, "<I", 0x3000), (60, "B", 1)]))
    vec("dma-in-in-dtype", ALL, [VDT], poke(IN, [(56, "B", INVALID)]))
    vec("dma-in-out-dtype", ALL, [VDT], poke(IN, [(57, "B", INVALID)]))
    vec("dma-in-cce", ALL, [ICCE], poke(IN, [(60, "B", 1), (30, "<H", 6)]))
    vec("dma-in-reserved", ALL, [IRES], poke(IN, [(62, "B", 1)]))
    vec("dma-in-reserved-63", ALL, [IRES], poke(IN, [(63, "B", 0x80)]))

    # ---- DMA_TRANSPOSE 0xBD (CAYMAN+): BF16, 16 source rows (partitions) of 4 columns, one tile into
    # 4 destination partitions of 16 elements (PROJ-CONV-DM8) ----
    XP = bytearray(64)
    vectorlib.header(XP, 0xBD)
    struct.pack_into("<BBBB", XP, 12, 0, 0, BF16, BF16)
    struct.pack_into("<QiiHHi", XP, 16, 0x1000, 2, 0x40000, 4, 16, 0x40000)
    struct.pack_into("<QiiHHBBBB", XP, 40, 0x2000, 0x40000, 32, 4, 1, 16, 4, 7, 0)
    vec("dma-xp-base", CMV, [], XP)
    vec("dma-xp-sunda", S, [HDR], XP)  # not an opcode of SUNDA: the header check names it
    vec("dma-xp-header", CMV, [HDR], poke(XP, [(1, "B", 15)]))
    vec("dma-xp-events", CMV, [EVT], poke(XP, [(4, "B", 0x08)]))
    vec("dma-xp-rows", CMV, [ROWS], poke(XP, [(60, "B", 8)]))
    vec("dma-xp-cols-0", CMV, [COLS], poke(XP, [(61, "B", 0)]))
    vec("dma-xp-cols-128", CMV, [], poke(XP, [(61, "B", 128)]))
    vec("dma-xp-cols-129", CMV, [COLS], poke(XP, [(61, "B", 129)]))
    vec("dma-xp-fp32-cols-64", CMV, [], poke(XP, [(14, "B", FP32), (15, "B", FP32), (61, "B", 64)]))
    vec("dma-xp-fp32-cols-65", CMV, [COLS], poke(XP, [(14, "B", FP32), (15, "B", FP32), (61, "B", 65)]))
    vec("dma-xp-cast", CMV, [XDT], poke(XP, [(15, "B", FP16)]))
    vec("dma-xp-int8", CMV, [COLS, XDT], poke(XP, [(14, "B", I8), (15, "B", I8)]))
    vec("dma-xp-invalid", CMV, [COLS, XDT, VDT], poke(XP, [(14, "B", INVALID), (15, "B", INVALID)]))
    vec("dma-xp-dst-unaligned", CMV, [XDST], poke(XP, [(40, "<Q", 0x2010)]))
    vec("dma-xp-dst-dram", CMV, [XDST], poke(XP, [(40, "<Q", 0x100000000)]))
    vec("dma-xp-dst-register", CMV, [], poke(XP, [(40, "<Q", 0x8000000000000302)]))
    vec("dma-xp-dst-step", CMV, [XSTEP], poke(XP, [(48, "<i", 16)]))
    vec("dma-xp-dst-step-count1", CMV, [], poke(XP, [(48, "<i", 16), (56, "<H", 1)]))
    vec("dma-xp-dst-step1-count1", CMV, [], poke(XP, [(52, "<i", 16)]))  # dst_num[1] is 1 in the baseline
    vec("dma-xp-configs", CMV, [CFG], poke(XP, [(63, "B", 0x08)]))

    # ---- DMA_GATHER_TRANSPOSE 0xF1 (CAYMAN+): 16 indexed BF16 rows of 256 bytes, transposed into SBUF ----
    GXW = bytearray(64)
    vectorlib.header(GXW, 0xF1)
    struct.pack_into("<BBBB", GXW, 12, 8, 0, 128, 0)
    struct.pack_into("<QiiHHI", GXW, 16, 0x1000, 2, 256, 128, 16, 0x3000)
    struct.pack_into("<QBBBBiHHHBB", GXW, 40, 0x4000, 0, 0, 0, 0, 0x40000, 16, 128, 256, 0x66, 0x01)
    vec("dma-gx-base", CMV, [], GXW)
    vec("dma-gx-sunda", S, [HDR], GXW)
    vec("dma-gx-header", CMV, [HDR], poke(GXW, [(1, "B", 15)]))
    vec("dma-gx-events", CMV, [EVT], poke(GXW, [(4, "B", 0x08)]))
    vec("dma-gx-channels", CMV, [IDX_CH], poke(GXW, [(14, "B", 1)]))
    vec("dma-gx-fp16", CMV, [], poke(GXW, [(62, "B", 0x77)]))
    vec("dma-gx-cast", CMV, [GDT], poke(GXW, [(62, "B", 0x76)]))
    vec("dma-gx-fp32", CMV, [GDT], poke(GXW, [(62, "B", 0xAA)]))
    vec("dma-gx-elem-3", CMV, [GEL], poke(GXW, [(60, "<H", 3)]))
    vec("dma-gx-elem-258", CMV, [GEL], poke(GXW, [(60, "<H", 258)]))
    vec("dma-gx-elem-2", CMV, [], poke(GXW, [(60, "<H", 2)]))
    vec("dma-gx-src-odd", CMV, [GAD], poke(GXW, [(16, "<Q", 0x1001)]))
    vec("dma-gx-dst-unaligned", CMV, [GAD], poke(GXW, [(40, "<Q", 0x4010)]))
    vec("dma-gx-idx-unaligned", CMV, [GAD], poke(GXW, [(36, "<I", 0x3002)]))
    vec("dma-gx-flags-x", CMV, [GFL], poke(GXW, [(63, "B", 0x00)]))
    vec("dma-gx-flags-reserved", CMV, [GFL], poke(GXW, [(63, "B", 0x05)]))
    vec("dma-gx-src-dims", CMV, [GSRC], poke(GXW, [(34, "<H", 8), (56, "<H", 8)]))
    vec("dma-gx-src-dims-cross", CMV, [GSRC, GX], poke(GXW, [(34, "<H", 15)]))
    vec("dma-gx-dst-step", CMV, [GSTEP], poke(GXW, [(52, "<i", 16)]))
    vec("dma-gx-dst-step-count1", CMV, [], poke(GXW, [(52, "<i", 16), (58, "<H", 1)]))
    vec("dma-gx-cross", CMV, [GX], poke(GXW, [(56, "<H", 32)]))
    vec("dma-gx-reserved", CMV, [GRES], poke(GXW, [(49, "B", 1)]))
    vec("dma-gx-configs", CMV, [CFG], poke(GXW, [(13, "B", 5)]))

    # ---- PSEUDO_DMATRIGGER 0xC1: the two trigger words of the runtime's embedded all-reduce NEFF (waits left out) ----
    TR0 = bytearray(64)
    vectorlib.header(TR0, 0xC1)
    TR0[12:12 + 13] = b"q_gradient_in"
    TR1 = bytearray(64)
    vectorlib.header(TR1, 0xC1)  # the real word waits on $S[22]; the wait is left out so that a run ends
    TR1[12:12 + 14] = b"q_gradient_out"
    vec("dma-tr-real-0", ALL, [], TR0)
    vec("dma-tr-real-1", ALL, [], TR1)
    vec("dma-tr-header", ALL, [HDR], poke(TR0, [(1, "B", 15)]))
    vec("dma-tr-events", ALL, [EVT], poke(TR0, [(4, "B", 0x08)]))
    vec("dma-tr-name-empty", ALL, [QNAME], poke(TR0, [(12, "B", 0)]))  # the name's first byte NUL, "gradient_in" after
    vec("dma-tr-name-tail", ALL, [QNAME], poke(TR0, [(43, "B", 0x41)]))
    vec("dma-tr-name-32", ALL, [], poke(TR0, [(12 + k, "B", 0x61) for k in range(32)]))  # 32 bytes, no NUL
    vec("dma-tr-payload", ALL, [], poke(TR0, [(44, "<I", 7), (63, "B", 0xFF)]))  # not inspected (PS1)

    # ---- PSEUDO_TRIGGER_COLLECTIVE 0xC8: the embedded NEFF's all-reduce word (fp32 ADD, 32 elements) ----
    # (its wait on $S[10] left out, so that a run of the word ends; the update $S[22]++@complete kept)
    CC = bytearray(bytes.fromhex("c8100000 00001316 00000000 040a0000 03000000 04000000 2000000000000000 01"
                                 .replace(" ", "")) + bytes(31))
    vec("dma-cc-real", ALL, [], CC)
    vec("dma-cc-header", ALL, [HDR], poke(CC, [(1, "B", 15)]))
    vec("dma-cc-events", ALL, [EVT], poke(CC, [(4, "B", 0x08)]))
    vec("dma-cc-update-none", ALL, [CUPD], poke(CC, [(6, "B", 0x00)]))
    for name, op in (("mult", 0x06), ("max", 0x08), ("min", 0x09)):
        vec("dma-cc-op-" + name, ALL, [], poke(CC, [(12, "B", op)]))
    vec("dma-cc-op-subtract", ALL, [COPS], poke(CC, [(12, "B", 0x05)]))
    vec("dma-cc-dtype", ALL, [VDT], poke(CC, [(13, "B", INVALID)]))
    vec("dma-cc-ctype-0", ALL, [CTYPE], poke(CC, [(32, "B", 0)]))
    vec("dma-cc-ctype-9", ALL, [], poke(CC, [(32, "B", 9)]))
    vec("dma-cc-ctype-10", ALL, [CTYPE], poke(CC, [(32, "B", 10)]))

    # Engine placement (PROJ-CONV-F1): DMA words and their pseudo forms may be issued from any engine.
    for name, w, gens in (("md", MD, ALL), ("in", IN, ALL), ("xp", XP, CMV), ("gx", GXW, CMV), ("tr", TR0, ALL),
                          ("cc", CC, ALL)):
        for engine in vectorlib.ENGINES:
            vec(f"dma-{name}-on-{engine.lower()}", gens, [], w, f"engine={engine}")
