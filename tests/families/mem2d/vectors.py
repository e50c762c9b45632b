"""MEM_2D vectors: TensorLoad 0xaa, TensorStore 0xab and the pseudo pair 0xce / 0xcd (edge-cases.md §0-§3, mem2d.md §5),
and the header / events corners of the common predicates on MEM_2D words.

Added to tests/vectors/validate.tsv by tests/vectors/make_validate_vectors.py. Every expected failing set is
derived by hand from the spec's predicate bodies, never from running the library (see vectorlib.py).
"""

import struct

from vectorlib import *  # noqa: F401,F403  (the generations, enum values, predicate names and vec())

# ---- predicate names (the validators' conjuncts) ----
SHARED = "mem2d_shared_constraints"
DS_ZERO = "mem2d_datasrc_zero"
DS_VALID = "mem2d_datasrc_valid"
E32 = "mem2d_32_elem_check"
STORE_CNT = "mem2d_store_num_elem_check"
U64REG = "mem2d_u64_register_check"
START = "valid_start_addr"
WINDOW = "mem2d_single_16mb_window"
PSEUDO_DT = "pseudo_mem2d_dtype_check"


def mem2d(opcode=0xAA, dtype=U32, datasrc=0, num=(4, 1), start=0x1000, step=(1, 0), data=None,
          pseudo=False, var_id=1, var_offset=0, hdr=None, pokes=()):
    """MEM_2D (mem2d.md §3) or PSEUDO_MEM_2D (§4). `start` is the raw 8-byte ADDR8."""
    w = bytearray(64)
    header(w, opcode, **(hdr or {}))
    struct.pack_into("<BBBB", w, 12, dtype, datasrc, num[0], num[1])
    if pseudo:
        struct.pack_into("<II", w, 16, var_id, var_offset)
    else:
        struct.pack_into("<Q", w, 16, start)
    struct.pack_into("<ii", w, 24, step[0], step[1])
    w[32:64] = bytes(regs(0, 1, 2, 3) if data is None else data)
    for off, val in pokes:
        w[off] = val
    return w


# Named baselines of edge-cases.md §0.
def TL(**kw):
    return mem2d(opcode=0xAA, **kw)


def TS(**kw):
    return mem2d(opcode=0xAB, **kw)


def PTL(**kw):
    return mem2d(opcode=0xCE, pseudo=True, **kw)


def PTS(**kw):
    return mem2d(opcode=0xCD, pseudo=True, **kw)


def addr8_reg(reg_lo, reg_hi, marker=0x80):
    """ADDR8 register-pair form {reg_lo, reg_hi, reserved0[5] = 0, marker}."""
    return reg_lo | (reg_hi << 8) | (marker << 56)


def add():
    """Adds the family's vectors through vec()."""
    # Baselines themselves (edge-cases.md §0); #1, #2, #71, #103, #117 restate some of them as cases.
    vec("base-PTL", ALL, [], PTL())
    vec("base-PTS", ALL, [], PTS())

    # §1 TensorLoad / TensorStore validation
    vec("1", ALL, [], TL())
    vec("2", ALL, [], TS())
    vec("3", ALL, [HDR], TL(hdr={"word_len": 15}))
    vec("4", ALL, [DS_ZERO], TL(datasrc=1))
    vec("5", ALL, [], TS(datasrc=1, dtype=U32, num=(8, 1)))
    # #6: store count still holds (UINT32, n = 4 <= 8), so datasrc_valid is the only failure.
    vec("6", ALL, [DS_VALID], TS(datasrc=2))
    vec("7", ALL, [SHARED], TL(num=(0, 1)))
    vec("8", ALL, [SHARED, E32], TL(num=(33, 1)))
    for sfx, num in zip(letters(3), [(32, 1), (1, 32), (4, 8)]):
        vec("9" + sfx, ALL, [], TL(num=num))
    for sfx, num in zip(letters(2), [(5, 7), (6, 6)]):
        vec("10" + sfx, ALL, [SHARED, E32], TL(num=num))
    vec("11", ALL, [], TL(dtype=U16, num=(32, 1)))
    vec("12", ALL, [], TS(datasrc=0, dtype=U16, num=(32, 1)))
    # #13: n is laid out as num = {n, 1}; both dtypes at both counts.
    vec("13a", ALL, [], TS(datasrc=1, dtype=U16, num=(16, 1)))
    vec("13b", ALL, [], TS(datasrc=1, dtype=I16, num=(16, 1)))
    vec("13c", ALL, [STORE_CNT], TS(datasrc=1, dtype=U16, num=(17, 1)))
    vec("13d", ALL, [STORE_CNT], TS(datasrc=1, dtype=I16, num=(17, 1)))
    vec("14a", ALL, [], TS(datasrc=1, dtype=U8, num=(32, 1)))
    vec("14b", ALL, [], TS(datasrc=1, dtype=I8, num=(32, 1)))
    for sfx, dt in zip("ace", [U32, I32, FP32]):
        vec("15" + sfx, ALL, [], TS(datasrc=1, dtype=dt, num=(8, 1)))
    for sfx, dt in zip("bdf", [U32, I32, FP32]):
        vec("15" + sfx, ALL, [STORE_CNT], TS(datasrc=1, dtype=dt, num=(9, 1)))
    # #16: immediate UINT64 -- the even-register rule does not apply (datasrc = 1); 0x1000 is 8-aligned.
    vec("16a", ALL, [], TS(datasrc=1, dtype=U64, num=(4, 1)))
    vec("16b", ALL, [STORE_CNT], TS(datasrc=1, dtype=U64, num=(5, 1)))
    # #17-#19: TL and TS (register source) with each non-MEM_2D dtype. Alignment of 0x1000 holds for every
    # size, and the store count (register, n = 4) holds, so only the shared constraints fail.
    # INT64 (#19) is not UINT64, so mem2d_u64_register_check does not look at the odd registers of TL's data.
    sub = iter(letters(26))
    for dt in [BF16, FP16, FP8E3, FP8E4, FP8E5]:
        for make in (TL, TS):
            vec("17" + next(sub), ALL, [SHARED], make(dtype=dt))
    vec("18a", ALL, [SHARED], TL(dtype=FP32R))
    vec("18b", ALL, [SHARED], TS(dtype=FP32R))
    vec("19a", ALL, [SHARED], TL(dtype=I64))
    vec("19b", ALL, [SHARED], TS(dtype=I64))
    vec("20", ALL, [], TL(dtype=U64, data=regs(0, 2, 4, 6), num=(4, 1), start=0x1000))
    # DECISION (#21): "data[0] = 3" is applied to #20's even list, giving data = [3, 2, 4, 6, 0...]
    # (TL's own data already holds odd registers 1 and 3).
    vec("21", ALL, [U64REG], TL(dtype=U64, data=regs(3, 2, 4, 6)))
    vec("22", ALL, [U64REG], TL(dtype=U64, num=(1, 1), data=regs(*([0] * 31 + [1]))))
    # DECISION (#23): "any odd slot" -- TS's baseline data [0, 1, 2, 3] (odd slots 1 and 3), num {4,1}.
    vec("23", ALL, [U64REG], TS(datasrc=0, dtype=U64))
    vec("24", ALL, [], TS(datasrc=1, dtype=U64, num=(4, 1), data=regs(1, 3, 5, 7, 9, 11, 13, 15)))
    vec("25", ALL, [], TL(data=regs(7, 1, 2, 3)))
    vec("26", ALL, [START], TL(start=0x1002))
    vec("27", ALL, [START], TL(dtype=U64, data=regs(0, 2, 4, 6), start=0x1004))
    vec("28", ALL, [], TL(dtype=U8, start=0x1003))
    # DECISION (#29): the register pair is reg_lo = 4, reg_hi = 5 (their run-time contents, 0x1002, are not
    # part of the word); reserved0[0..4] = 0.
    vec("29", ALL, [], TL(start=addr8_reg(4, 5)))
    vec("29a-1", ALL, [], TL(start=addr8_reg(64, 5)))
    vec("29a-2", ALL, [], TL(start=addr8_reg(4, 200)))
    vec("30", ALL, [START], TL(start=(0x40 << 56) | 0x1002))
    # #31: accepted by default (PROJ-CONV-M3). DECISION: with the optional strict_window switch the only
    # failure is the project predicate mem2d_single_16mb_window (first byte 0xFFFFFC, last byte 0x1000003).
    vec("31", ALL, [], TL(start=0xFFFFFC, num=(2, 1), step=(1, 0)))
    vec("31/strict_window", ALL, [WINDOW], TL(start=0xFFFFFC, num=(2, 1), step=(1, 0)), "strict_window")
    vec("32", ALL, [], TL(step=(-1, 0)))
    # DECISION: #32 and the TL baseline stay inside one 16 MiB window, so strict_window accepts them too.
    vec("32/strict_window", ALL, [], TL(step=(-1, 0)), "strict_window")
    vec("1/strict_window", ALL, [], TL(), "strict_window")
    # DECISION (#32a, a RESULT case): both words validate -- no MEM_2D predicate checks the address range
    # (mem2d.md §5.3 notes). TS stores to Neuron address 0x20_0000_1000, TL reads 0x1000.
    vec("32a-1", ALL, [], TS(start=0x2000001000))
    vec("32a-2", ALL, [], TL(start=0x1000))
    vec("33a", ALL, [], TL(data=regs(64, 1, 2, 3)))
    vec("33b", ALL, [], TL(data=regs(200, 1, 2, 3)))
    vec("34", ALL, [], TL(dtype=U64, num=(1, 1), data=regs(62)))
    vec("35", ALL, [], TL(hdr={"update_mode": 0x87}))

    # §3 Pseudo pair 0xce / 0xcd (flat conjunctions, PROJ-CONV-M11 / M5)
    vec("55", ALL, [PSEUDO_DT], PTL(dtype=U64))
    # #56: only the "ACCEPT as a pseudo" part has a validator verdict; the post-lowering REJECT is a lowering case.
    vec("56", ALL, [], PTL(var_offset=2, dtype=U32))
    # DECISION (#57): "an odd data register" = data[0] = 5 (PTL's data already holds 1 and 3 as well).
    vec("57", ALL, [], PTL(dtype=U32, data=regs(5, 1, 2, 3)))

    # ---- Derived boundaries (not numbered in edge-cases.md): generation-dependent corners of the common
    # predicates (common-formats.md §10, memory-and-numerics.md §2-§4). Ids start with "d-". ----
    # Header and events: INVALID (PROJ-CONV-C11), an unassigned opcode, another pseudo opcode (PROJ-CONV-C12),
    # and the MAVERICK changes to WAIT_MODE / UPDATE_MODE (enums.md §9-§10).
    vec("d-opcode-invalid", ALL, [HDR], mem2d(opcode=0xFF))
    vec("d-opcode-unassigned", ALL, [HDR], mem2d(opcode=0x00))
    vec("d-opcode-pseudo-d5", ALL, [], mem2d(opcode=0xD5))  # an unmodeled pseudo opcode: header-only
    vec("d-wait-evt-set", SCM, [], TL(hdr={"wait_mode": 0x06}))
    vec("d-wait-evt-set/maverick", V, ["has_valid_neuron_events"], TL(hdr={"wait_mode": 0x06}))
    vec("d-wait-reg-offset", V, [], TL(hdr={"wait_mode": 0x91}))
    vec("d-wait-reg-offset/scm", SCM, ["has_valid_neuron_events"], TL(hdr={"wait_mode": 0x91}))
    vec("d-update-evt-complete", SCM, [], TL(hdr={"update_mode": 0x11}))
    vec("d-update-evt-complete/maverick", V, ["has_valid_neuron_events"], TL(hdr={"update_mode": 0x11}))
    # MEM_2D table-form ADDR8 (marker 0x20) is not an immediate: no alignment check (PROJ-CONV-M2/M6).
    vec("d-mem2d-table-marker", ALL, [], TL(start=(0x20 << 56) | 0x1002))
