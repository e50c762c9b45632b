"""Validation vectors of the sync family: EventSemaphore 0xa0, SetOrderingMode 0xb1, PseudoBranchLabel 0xcc and
PseudoDmaDirect2d 0xd4 (real-programs.md §3-§7, conventions F2, F6-F8). Added to validate.tsv by make_validate_vectors.py.

Every expected failing set is derived by hand from the predicate bodies of real-programs.md §3.2, §5, §6, §7.2
and common-formats.md §10, never from running the library. Ids start with "sync-". Per predicate and generation
there is an accepting word (the family's baselines, which are real words of matmul_small.neff as tabulated in
real-programs.md §3.4, §5, §6, §7.4) and a word failing only it.
"""

import struct

import vectorlib


def add():
    """Adds the vectors through vectorlib.vec."""
    g = vars(vectorlib)
    vec, ALL = g["vec"], g["ALL"]
    SCM, V = g["SCM"], g["V"]
    HDR, VDT = g["HDR"], g["VDT"]
    EVT = "has_valid_neuron_events"
    ES_EXT, ES_RES = "ctrl_es_valid_extended_events", "ctrl_es_reserved_zero"
    SOM_RES = "set_ordering_mode_reserved_zero"
    UPD, MODE, NUM = "pseudo_dma_update_none", "pseudo_addr8_mode_known", "pseudo_dma_counts_nonzero"
    WHOLE, SAME = "pseudo_dma_whole_elements", "pseudo_dma_same_element_count"
    FP16, FP32, INVALID, U64, FP32R = 0x07, 0x0A, 0x00, 0x01, 0x0B

    def word(hex_groups):
        w = bytearray(bytes.fromhex("".join(hex_groups.split())))
        assert len(w) == 64
        return w

    def poke(w, pokes):
        w = bytearray(w)
        for off, fmt, val in pokes:
            struct.pack_into(fmt, w, off, val)
        return w

    # ---- Real words (real-programs.md §3.4, §5, §6, §7.4; sg00) ----
    PE02 = word("a0100000051800001000000000000000" + "00" * 48)  # wait S[24] >= 16
    PE07 = word("a0100000051900001000000000000000" + "00" * 48)  # wait S[25] >= 16
    SOM = word("b1100000" + "00" * 60)
    LABEL = word("cc100000" + "00" * 60)
    SP02 = word("d4100000000000000000000000081000 00000000040000100001000001000000"
                "8000010000010000007b030000000010 00000400010000008000010000010707")
    POOL02 = word("d4100000000000000000000000181000 00000000000000200002000001000000"
                  "8000010000020000007c030000000010 00000400010000008000010000020707")
    POOL03 = word("d4100000000000000000000000191000 00000000010000200001000001000000"
                  "8000010080000000007f030000000010 00000400010000008000010080000707")
    POOL04 = word("d41000000000000000000000001a1000 00800000010000200001000001000000"
                  "8000010080000000007e030000000010 00000400010000008000010080000707")
    POOL05 = word("d41000000504000002000000001b1000 00420000000000100000040001000000"
                  "80000100000100000000000002000020 00010000010000008000010080000a07")
    for name, w in (("PE02", PE02), ("PE07", PE07), ("SP00", SOM), ("SP01", LABEL), ("SP02", SP02),
                    ("Pool02", POOL02), ("Pool03", POOL03), ("Pool04", POOL04), ("Pool05", POOL05)):
        vec("sync-real-" + name, ALL, [], w)

    # ---- EVENT_SEMAPHORE (PROJ-CONV-F2) ----
    vec("sync-es-header", ALL, [HDR], poke(PE02, [(1, "B", 15)]))
    vec("sync-es-events", ALL, [EVT], poke(PE02, [(4, "B", 0x08)]))  # 0x08 is no WAIT_MODE
    # Both lanes used: wait S[24] >= 16 and S[25] >= 16, extended update S[5] += 1 at completion (0x13).
    BOTH = poke(PE02, [(32, "B", 0x05), (33, "B", 25), (36, "<I", 16), (34, "B", 0x13), (35, "B", 5)])
    vec("sync-es-both-lanes", ALL, [], BOTH)
    vec("sync-es-ext-wait-0x08", ALL, [ES_EXT], poke(PE02, [(32, "B", 0x08)]))
    vec("sync-es-ext-update-0x06", ALL, [ES_EXT], poke(PE02, [(34, "B", 0x06)]))  # 0x06 unused (enums.md §10)
    # MAVERICK removed the event modes (enums.md §9-§10); SEM_*_REG_OFFSET exists on MAVERICK only.
    vec("sync-es-ext-evt-set", SCM, [], poke(PE02, [(32, "B", 0x06)]))
    vec("sync-es-ext-evt-set/maverick", V, [ES_EXT], poke(PE02, [(32, "B", 0x06)]))
    vec("sync-es-ext-evt-update", SCM, [], poke(PE02, [(34, "B", 0x11)]))
    vec("sync-es-ext-evt-update/maverick", V, [ES_EXT], poke(PE02, [(34, "B", 0x11)]))
    vec("sync-es-ext-reg-offset", V, [], poke(PE02, [(32, "B", 0x95)]))
    vec("sync-es-ext-reg-offset/scm", SCM, [ES_EXT], poke(PE02, [(32, "B", 0x95)]))
    for b in (12, 31, 44, 63):
        vec(f"sync-es-reserved-b{b}", ALL, [ES_RES], poke(PE02, [(b, "B", 1)]))
    # The consuming-wait idiom of the runtime (wait SEM_GT_IMM 0 + update SEM_DEC, §3.3) is a valid word.
    vec("sync-es-consume", ALL, [], poke(PE02, [(4, "B", 0x04), (8, "<I", 0), (6, "B", 0x14), (7, "B", 24)]))

    # ---- SET_ORDERING_MODE (PROJ-CONV-F6): byte 12 any value, bytes 13..63 zero ----
    vec("sync-som-header", ALL, [HDR], poke(SOM, [(1, "B", 15)]))
    vec("sync-som-events", ALL, [EVT], poke(SOM, [(4, "B", 0x08)]))
    vec("sync-som-mode-ff", ALL, [], poke(SOM, [(12, "B", 0xFF)]))
    for b in (13, 63):
        vec(f"sync-som-reserved-b{b}", ALL, [SOM_RES], poke(SOM, [(b, "B", 1)]))

    # ---- PSEUDO_BRANCH_LABEL (PROJ-CONV-F7): the payload is not inspected ----
    vec("sync-label-header", ALL, [HDR], poke(LABEL, [(1, "B", 15)]))
    vec("sync-label-events", ALL, [EVT], poke(LABEL, [(6, "B", 0x08)]))  # 0x08 is no UPDATE_MODE
    vec("sync-label-payload", ALL, [], poke(LABEL, [(12, "<I", 7), (40, "B", 0xAB), (63, "B", 0xFF)]))

    # ---- PSEUDO_DMA_DIRECT2D (PROJ-CONV-F8), mutations of SP#02 (FP16, 128 x 1 chunks of 256 bytes) ----
    vec("sync-dma-header", ALL, [HDR], poke(SP02, [(1, "B", 15)]))
    vec("sync-dma-events", ALL, [EVT], poke(SP02, [(4, "B", 0x08)]))
    vec("sync-dma-update", ALL, [UPD], poke(SP02, [(6, "B", 0x13)]))
    vec("sync-dma-src-mode", ALL, [MODE], poke(SP02, [(23, "B", 0x30)]))
    vec("sync-dma-dst-mode", ALL, [MODE], poke(SP02, [(47, "B", 0x00)]))
    # Known modes with the flag bits (0x10, 0x20, 0x28, each + 0x04 / + 0x40).
    for sfx, m in zip("abcdef", (0x14, 0x54, 0x24, 0x64, 0x28, 0x6C)):
        vec("sync-dma-mode-flags-" + sfx, ALL, [], poke(SP02, [(23, "B", m)]))
    # A zero count: the element-count comparison is not made (the count predicate reports it).
    vec("sync-dma-src-num0", ALL, [NUM], poke(SP02, [(34, "<H", 0)]))
    vec("sync-dma-dst-num1", ALL, [NUM], poke(SP02, [(56, "<H", 0)]))
    # INVALID has no size: is_valid_dtype reports it; the byte predicates are not made. UINT64 has a size.
    vec("sync-dma-src-dtype-invalid", ALL, [VDT], poke(SP02, [(62, "B", INVALID)]))
    vec("sync-dma-dst-dtype-invalid", ALL, [VDT], poke(SP02, [(63, "B", INVALID)]))
    vec("sync-dma-src-dtype-u64", ALL, [VDT, SAME], poke(SP02, [(62, "B", U64)]))  # 32768/8 != 32768/2
    vec("sync-dma-fp32r", ALL, [], poke(SP02, [(62, "B", FP32R), (63, "B", FP32R)]))  # FP32R allowed
    # 127 x 257 = 32639 bytes: not whole FP16 elements.
    vec("sync-dma-src-partial", ALL, [WHOLE], poke(SP02, [(32, "<H", 127), (36, "<H", 257)]))
    vec("sync-dma-dst-partial", ALL, [WHOLE], poke(SP02, [(56, "<H", 127), (60, "<H", 257)]))
    vec("sync-dma-count-mismatch", ALL, [SAME], poke(SP02, [(36, "<H", 128)]))
    # esz 0 means 65536 bytes: 1 x 1 x 65536 = 32768 FP16 elements on both sides.
    vec("sync-dma-esz0", ALL, [],
        poke(SP02, [(32, "<H", 1), (36, "<H", 0), (56, "<H", 1), (60, "<H", 0)]))
    # FP32 -> FP16 (Pool#05's conversion): 32768 bytes / 4 == 16384 bytes / 2.
    vec("sync-dma-convert", ALL, [], poke(SP02, [(62, "B", FP32), (36, "<H", 256), (60, "<H", 128)]))
    # F10: the command byte is an execution matter, not validity.
    vec("sync-dma-command-1", ALL, [], poke(SP02, [(15, "B", 1)]))

    # Engine placement (PROJ-CONV-F1): the synchronisation words may be issued from any engine (a DMA's queue-set
    # owner is a NEFF program check, docs/neff.md).
    SYNC_WORDS = (("es", "a0100000" + "00" * 60), ("som", "b1100000" + "00" * 60), ("label", "cc100000" + "00" * 60),
                  ("dma", "d4100000000000000000000000081000" "00000000040000100001000001000000"
                          "8000010000010000007b030000000010" "00000400010000008000010000010707"))
    for name, hexword in SYNC_WORDS:
        for engine in vectorlib.ENGINES:
            vec(f"sync-{name}-on-{engine.lower()}", ALL, [], bytearray.fromhex(hexword), f"engine={engine}")
