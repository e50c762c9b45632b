"""Validation vectors of the sequencer control block (sequencer.md §4-§8), added to validate.tsv by
make_validate_vectors.py.

Expected verdicts are derived by hand from the predicate bodies of sequencer.md (§5.2 MOVE, PROJ-CONV-Q6 WRITE,
Q9 ALU_OP, Q11 COMPARE_BRANCH) and from tpbisa's conventions for the words the spec gives no predicate
(PROJ-CONV-SQ1-SQ6, docs/conventions.md) -- never from running the library. For every predicate, on every
generation where it applies: the baseline word passes it, and the mutated word fails exactly it.
"""

import struct

from vectorlib import ALL, ENGINES, MAVERICK, vec

HDR = "has_valid_neuron_header"
EVT = "has_valid_neuron_events"
U64, I8, U8, I16, U16, FP16, I32, U32, FP32 = 0x01, 0x02, 0x03, 0x04, 0x05, 0x07, 0x08, 0x09, 0x0A
ADD, DIVIDE, MIN = 0x04, 0x07, 0x09


def word(opcode, pokes=(), **fields):
    """A 64-byte word: header {opcode, 16, 0, 0}, events zero, then (offset, struct format, value) pokes."""
    w = bytearray(64)
    w[0], w[1] = opcode, 16
    for off, fmt, val in pokes:
        struct.pack_into("<" + fmt, w, off, val)
    return w


def poke(w, *changes):
    """A copy of w with (offset, struct format, value) changes."""
    w = bytearray(w)
    for off, fmt, val in changes:
        struct.pack_into("<" + fmt, w, off, val)
    return w


# ---- baselines (the same words as tests/support/seq_words.hpp) ----
WRITE = word(0xA5, [(12, "B", 4), (16, "Q", 0x1000), (24, "I", 0xDEADBEEF)])
MOVE = word(0xA7, [(12, "B", 2), (13, "B", I32), (14, "B", 0), (16, "B", 1), (17, "B", 2), (24, "B", 3),
                   (25, "B", 4)])
# sequencer.md §10.2 (synthetic words of the loop example)
MOVE_SPEC = bytes.fromhex("a7100000000000000000000001090100" + "00" * 48)
BR_GUARD = bytes.fromhex("a910000000000000000000000d080300" + "00" * 16 + "00010000000000000000000000000000"
                         "00010000000000000000000000000000")
ALU = bytes.fromhex("a8100000000000000000000004080100" "00000000000000000100000000000000" + "00" * 32)
BR_BACK = bytes.fromhex("a9100000000000000000000009080300" + "00" * 16 + "00010000000000000000000000000000"
                        "80ffffff000000000000000000000000")
NOP_BODY = bytes.fromhex("a4100000000013280000000000000000" + "00" * 48)
HALT = bytes.fromhex("a1100000" + "00" * 60)
CLEAR = word(0xB0, [(12, "B", 1), (13, "B", 8), (14, "B", 23)])
POLL = word(0xB3, [(12, "B", 1), (13, "B", 5), (14, "B", MIN), (16, "Q", 0x1000)])
HINT = word(0xB5, [(48, "Q", 0x100)])
PHINT = word(0xDD, [(48, "Q", 0x100)])
BEGIN = word(0xD1)
RETURN = word(0xD2)
CALL = bytearray(word(0xD3, [(48, "I", 3)]))
CALL[12:19] = b"main_fn"
EXIT = word(0xDF, [(12, "B", 1)])


def add():
    """Adds the vectors through vectorlib.vec."""
    all_gens, maverick = ALL, MAVERICK
    not_maverick = tuple(g for g in all_gens if g != maverick)
    from_cayman = all_gens[1:]  # the generations after SUNDA (Generation order)
    bases = [("write", WRITE), ("move", MOVE), ("alu", ALU), ("branch", BR_GUARD), ("clear", CLEAR),
             ("poll", POLL), ("hint", HINT), ("phint", PHINT), ("begin", BEGIN), ("return", RETURN),
             ("call", CALL), ("exit", EXIT)]
    for name, w in bases:
        vec(f"seq-{name}", all_gens, [], w)
        # every validator starts with the header and events conjuncts
        vec(f"seq-{name}-hdr", all_gens, [HDR], poke(w, (1, "B", 15)))
        vec(f"seq-{name}-evt", all_gens, [EVT], poke(w, (4, "B", 0x08)))
    # the spec's synthetic loop words (§10.2) pass on every generation
    for name, w in [("spec-move", MOVE_SPEC), ("spec-guard", BR_GUARD), ("spec-alu", ALU), ("spec-back", BR_BACK)]:
        vec(f"seq-{name}", all_gens, [], w)

    # WRITE (PROJ-CONV-Q6)
    vec("seq-write-size", all_gens, ["ctrl_wr_valid_size"], poke(WRITE, (12, "B", 8)))
    vec("seq-write-align", all_gens, ["ctrl_wr_aligned_address"], poke(WRITE, (16, "Q", 0x1002)))
    vec("seq-write-reserved", all_gens, ["ctrl_wr_reserved_zero"], poke(WRITE, (40, "B", 1)))

    # MOVE (§5.2): the tile check exists on MAVERICK only
    vec("seq-move-tile", (maverick,), ["has_tile_idx_zero"], poke(MOVE, (3, "B", 1)))
    vec("seq-move-tile/other", not_maverick, [], poke(MOVE, (3, "B", 1)))
    vec("seq-move-num0", all_gens, ["ctrl_mv_valid_num", "ctrl_mv_valid_register"], poke(MOVE, (12, "B", 0)))
    vec("seq-move-num9", all_gens, ["ctrl_mv_valid_num"], poke(MOVE, (12, "B", 9)))
    vec("seq-move-reserved", all_gens, ["ctrl_mv_reserved_zero"], poke(MOVE, (15, "B", 1)))
    vec("seq-move-dtype", all_gens, ["ctrl_mv_has_valid_dtype"], poke(MOVE, (13, "B", FP16)))
    vec("seq-move-source", all_gens, ["is_valid_enum(DataSrc)"], poke(MOVE, (14, "B", 2)))
    vec("seq-move-src-bad", all_gens, ["ctrl_mv_valid_register"], poke(MOVE, (16, "B", 70)))
    vec("seq-move-src-pc", all_gens, [], poke(MOVE, (16, "B", 128)))
    vec("seq-move-dst-pc", all_gens, [], poke(MOVE, (24, "B", 129)))  # PROJ-CONV-Q7: accepted, ignored
    vec("seq-move-dst-bad", all_gens, ["ctrl_mv_valid_register"], poke(MOVE, (25, "B", 130)))
    vec("seq-move-unused-src", all_gens, ["ctrl_mv_valid_register"], poke(MOVE, (23, "B", 1)))
    vec("seq-move-unused-dst", all_gens, [], poke(MOVE, (31, "B", 200)))  # unused slot: only its source is read
    # immediate mode: used slots' sources are still read-checked (0 passes, 64 fails)
    vec("seq-move-imm-src", all_gens, ["ctrl_mv_valid_register"], poke(MOVE_SPEC, (16, "B", 64)))

    # ALU_OP (PROJ-CONV-Q9, Q10)
    vec("seq-alu-op", all_gens, ["is_valid_aluop"], poke(ALU, (12, "B", 0x1E)))
    vec("seq-alu-dtype", all_gens, ["ctrl_al_valid_dtype"], poke(ALU, (13, "B", FP16)))
    vec("seq-alu-source", all_gens, ["is_valid_enum(DataSrc)"], poke(ALU, (14, "B", 2)))
    vec("seq-alu-dst-dtype", all_gens, ["ctrl_al_valid_dst_dtype"], poke(ALU, (15, "B", U32)))
    vec("seq-alu-dst-dtype-same", all_gens, [], poke(ALU, (15, "B", I32)))
    vec("seq-alu-src0", all_gens, ["ctrl_al_valid_registers"], poke(ALU, (16, "B", 64)))
    vec("seq-alu-src1-imm", all_gens, [], poke(ALU, (18, "B", 200)))  # src1 from the immediate: not read
    vec("seq-alu-src1-reg", all_gens, ["ctrl_al_valid_registers"], poke(ALU, (14, "B", 0), (18, "B", 200)))
    vec("seq-alu-hi-32", all_gens, [], poke(ALU, (17, "B", 200)))  # 32-bit dtype: the high half is not read
    vec("seq-alu-hi-64", all_gens, ["ctrl_al_valid_registers"],
        poke(ALU, (12, "B", 0x0A), (13, "B", U64), (17, "B", 200)))
    vec("seq-alu-divide-int", all_gens, ["alu_dtype_legal"], poke(ALU, (12, "B", DIVIDE)))
    vec("seq-alu-divide-fp32", all_gens, [], poke(ALU, (12, "B", DIVIDE), (13, "B", FP32)))
    vec("seq-alu-add-u64", all_gens, ["alu_dtype_legal"], poke(ALU, (13, "B", U64)))
    vec("seq-alu-and-u64", all_gens, [], poke(ALU, (12, "B", 0x0A), (13, "B", U64)))
    # enums.md §5.2, a row each: bitwise ops need integers; MOD no 64-bit; CRC32 16/32-bit only; the integer band
    # takes ints of the op's signedness (MAX_UINT 0xD5, from CAYMAN) and no float (ADD_INT 0xC4).
    vec("seq-alu-xor-fp32", all_gens, ["alu_dtype_legal"], poke(ALU, (12, "B", 0x0C), (13, "B", FP32)))
    vec("seq-alu-mod-u64", all_gens, ["alu_dtype_legal"], poke(ALU, (12, "B", 0x1B), (13, "B", U64)))
    vec("seq-alu-mod-u32", all_gens, [], poke(ALU, (12, "B", 0x1B), (13, "B", U32)))
    vec("seq-alu-crc32-u8", all_gens, ["alu_dtype_legal"], poke(ALU, (12, "B", 0x1C), (13, "B", U8)))
    vec("seq-alu-crc32-u16", all_gens, [], poke(ALU, (12, "B", 0x1C), (13, "B", U16)))
    vec("seq-alu-max-uint-i32", from_cayman, ["alu_dtype_legal"], poke(ALU, (12, "B", 0xD5)))
    vec("seq-alu-max-uint-u32", from_cayman, [], poke(ALU, (12, "B", 0xD5), (13, "B", U32)))
    vec("seq-alu-add-int-fp32", all_gens, ["alu_dtype_legal"], poke(ALU, (12, "B", 0xC4), (13, "B", FP32)))
    vec("seq-alu-reserved", all_gens, ["ctrl_al_reserved_zero"], poke(ALU, (22, "B", 1)))

    # COMPARE_BRANCH (PROJ-CONV-Q11)
    vec("seq-br-cmp7", all_gens, ["ctrl_br_valid_cmp_op"], poke(BR_GUARD, (12, "B", 7)))
    vec("seq-br-dtype", all_gens, ["ctrl_br_valid_dtype"], poke(BR_GUARD, (13, "B", FP16)))
    vec("seq-br-always-dtype", all_gens, [], poke(BR_GUARD, (12, "B", 0), (13, "B", FP16), (32, "B", 99)))
    vec("seq-br-mode2", all_gens, ["ctrl_br_valid_target_mode"], poke(BR_GUARD, (14, "B", 2)))
    vec("seq-br-mode0", all_gens, ["ctrl_br_valid_target_mode"], poke(BR_GUARD, (14, "B", 0)))
    vec("seq-br-reg1", all_gens, ["ctrl_br_valid_cmp_registers"], poke(BR_GUARD, (33, "B", 64)))
    vec("seq-br-imm-reg1", all_gens, [], poke(BR_GUARD, (12, "B", 5), (33, "B", 64)))  # IMM family: reg1 unread
    vec("seq-br-target-regs", all_gens, ["ctrl_br_valid_target_registers"],
        poke(BR_GUARD, (14, "B", 4), (34, "B", 64)))
    vec("seq-br-reserved", all_gens, ["ctrl_br_reserved_zero"], poke(BR_GUARD, (60, "B", 1)))

    # EVENT_SEMAPHORE_RANGE_CLEAR (PROJ-CONV-SQ1)
    vec("seq-clear-mode", all_gens, ["ctrl_er_valid_mode"], poke(CLEAR, (12, "B", 3)))
    vec("seq-clear-range", all_gens, ["ctrl_er_valid_range"], poke(CLEAR, (13, "B", 30)))
    vec("seq-clear-mask-in-range", all_gens, ["ctrl_er_unused_operand_zero"], poke(CLEAR, (32, "I", 1)))
    vec("seq-clear-mask", all_gens, [], poke(CLEAR, (12, "B", 2), (13, "B", 0), (14, "B", 0), (32, "I", 0xFF00)))
    vec("seq-clear-range-in-mask", all_gens, ["ctrl_er_unused_operand_zero"], poke(CLEAR, (12, "B", 2)))
    vec("seq-clear-reserved", all_gens, ["ctrl_er_reserved_zero"], poke(CLEAR, (20, "B", 1)))

    # POLL_SEM (PROJ-CONV-SQ3)
    vec("seq-poll-count0", all_gens, ["poll_sem_valid_count"], poke(POLL, (12, "B", 0)))
    vec("seq-poll-count17", all_gens, ["poll_sem_valid_count"], poke(POLL, (12, "B", 17)))
    vec("seq-poll-reg", all_gens, ["poll_sem_valid_register"], poke(POLL, (13, "B", 64)))
    vec("seq-poll-op", all_gens, ["poll_sem_valid_combine_op"], poke(POLL, (14, "B", 0x1E)))
    vec("seq-poll-align", all_gens, ["poll_sem_aligned_addresses"], poke(POLL, (24, "Q", 0x2002)))
    vec("seq-poll-reserved", all_gens, ["poll_sem_reserved_zero"], poke(POLL, (40, "B", 1)))

    # hints (PROJ-CONV-SQ2): the payload is opaque, the target zero-extended from 32 bits
    vec("seq-hint-target", all_gens, ["branch_prefetch_hint_target_range"], poke(HINT, (52, "B", 1)))
    vec("seq-hint-payload", all_gens, [], poke(HINT, (12, "B", 0x5A), (60, "B", 1)))
    vec("seq-phint-target", all_gens, ["branch_prefetch_hint_target_range"], poke(PHINT, (55, "B", 0x80)))

    # pseudo function words (PROJ-CONV-SQ4) and PSEUDO_INST (SQ5)
    vec("seq-begin-payload", all_gens, [], poke(BEGIN, (12, "I", 0xFFFFFFFF)))
    vec("seq-call-empty", all_gens, ["pseudo_function_call_valid_callee"], poke(CALL, (12, "B", 0)))
    vec("seq-call-unterminated", all_gens, ["pseudo_function_call_valid_callee"],
        bytes(CALL[:12]) + b"x" * 36 + bytes(CALL[48:]))
    vec("seq-call-35", all_gens, [], bytes(CALL[:12]) + b"y" * 35 + b"\0" + bytes(CALL[48:]))
    vec("seq-call-trailing", all_gens, ["pseudo_function_call_valid_callee"], poke(CALL, (40, "B", 0x41)))
    vec("seq-call-control", all_gens, ["pseudo_function_call_valid_callee"], poke(CALL, (13, "B", 0x07)))
    vec("seq-exit-kind", all_gens, ["pseudo_inst_valid_kind"], poke(EXIT, (12, "B", 2)))
    vec("seq-exit-payload", all_gens, [], poke(EXIT, (30, "B", 9)))

    # Engine placement (PROJ-CONV-F1): the sequencer words may be issued from any engine.
    for name, w in (("write", WRITE), ("move", MOVE), ("branch", BR_GUARD)):
        for engine in ENGINES:
            vec(f"seq-{name}-on-{engine.lower()}", ALL, [], w, f"engine={engine}")
