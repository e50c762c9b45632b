"""CTRL_NO vectors: ActivationTableLoad 0x23, Halt 0xa1, Drain 0xa2, InstructionFlush 0xa3, Nop 0xa4 and
Notify 0xa6 (sequencer.md §3, real-programs.md §4; PROJ-CONV-Q3, F4).

Added to tests/vectors/validate.tsv by tests/vectors/make_validate_vectors.py. Every expected failing set is
derived by hand from the spec's predicate bodies, never from running the library (see vectorlib.py).
"""

from vectorlib import *  # noqa: F401,F403  (the generations, enum values, predicate names and vec())

# ---- predicate names (the validators' conjuncts) ----
NOTIF = "ctrl_no_valid_notification"
CTRL_RES = "ctrl_no_reserved_zero"


def ctrl_no(opcode=0xA4, notification=0, drain_count=0, hdr=None, pokes=()):
    """CTRL_NO (sequencer.md §3.1): header, events, reserved 12..38, notification @39, drain_count @40,
    reserved 41..63."""
    w = bytearray(64)
    header(w, opcode, **(hdr or {}))
    w[39] = notification
    w[40] = drain_count
    for off, val in pokes:
        w[off] = val
    return w


def add():
    """Adds the family's vectors through vec()."""
    # ---- CTRL_NO (sequencer.md §3.2 PROJ-CONV-Q3, real-programs.md §4.2 PROJ-CONV-F4); one layout on every
    # generation (PROJ-CONV-Q17), so each verdict holds on all four ----
    CTRL_NO_OPS = (("atl", 0x23), ("halt", 0xA1), ("drain", 0xA2), ("flush", 0xA3), ("nop", 0xA4), ("notify", 0xA6))
    for name, op in CTRL_NO_OPS:
        vec(f"ctrl_no-base-{name}", ALL, [], ctrl_no(op))
    # The real words of matmul_small.neff (real-programs.md §4.4): sg00/Pool#06 waits S[27] >= 16; sg00/Activation#02.
    vec("ctrl_no-real-pool06", ALL, [], ctrl_no(0xA4, hdr={"wait_mode": 0x05, "wait_idx": 0x1B, "sem_value": 0x10}))
    vec("ctrl_no-real-act02", ALL, [], ctrl_no(0x23))
    # has_valid_neuron_header / has_valid_neuron_events, as for every validator.
    vec("ctrl_no-word-len", ALL, [HDR], ctrl_no(0xA4, hdr={"word_len": 15}))
    vec("ctrl_no-event-wait", SCM, [], ctrl_no(0xA4, hdr={"wait_mode": 0x06, "wait_idx": 3}))
    vec("ctrl_no-event-wait/maverick", V, ["has_valid_neuron_events"], ctrl_no(0xA4, hdr={"wait_mode": 0x06, "wait_idx": 3}))
    vec("ctrl_no-wait-0x08", ALL, ["has_valid_neuron_events"], ctrl_no(0xA4, hdr={"wait_mode": 0x08}))  # no WAIT_MODE 0x08
    # ctrl_no_valid_notification: byte 39 in {0, 1}, set only by HALT and NOTIFY.
    vec("ctrl_no-notify-halt", ALL, [], ctrl_no(0xA1, notification=1))
    vec("ctrl_no-notify-notify", ALL, [], ctrl_no(0xA6, notification=1))
    vec("ctrl_no-notify-2-halt", ALL, [NOTIF], ctrl_no(0xA1, notification=2))
    for name, op in CTRL_NO_OPS:
        if op not in (0xA1, 0xA6):
            # ActivationTableLoad is judged by the activation family (act-index-ops.md §8.2, PROJ-CONV-A6): its
            # notification byte is one of the reserved bytes there.
            failing = ["ctrl_no_reserved_zero"] if op == 0x23 else [NOTIF]
            vec(f"ctrl_no-notify-{name}", ALL, failing, ctrl_no(op, notification=1))
    # ctrl_no_reserved_zero: bytes 12..38 and 41..63 zero; drain_count zero unless DRAIN.
    vec("ctrl_no-drain-count", ALL, [], ctrl_no(0xA2, drain_count=1))
    vec("ctrl_no-drain-count-255", ALL, [], ctrl_no(0xA2, drain_count=0xFF))
    vec("ctrl_no-count-on-nop", ALL, [CTRL_RES], ctrl_no(0xA4, drain_count=1))
    vec("ctrl_no-count-on-halt", ALL, [CTRL_RES], ctrl_no(0xA1, drain_count=1))
    vec("ctrl_no-byte12", ALL, [CTRL_RES], ctrl_no(0xA4, pokes=((12, 0x01),)))
    vec("ctrl_no-byte38", ALL, [CTRL_RES], ctrl_no(0xA1, pokes=((38, 0x01),)))
    vec("ctrl_no-byte41", ALL, [CTRL_RES], ctrl_no(0xA2, drain_count=1, pokes=((41, 0x01),)))
    vec("ctrl_no-byte63-atl", ALL, [CTRL_RES], ctrl_no(0x23, pokes=((63, 0x80),)))
    # For Nop and ActivationTableLoad the body must be all zero (PROJ-CONV-F4): both payload bytes fail.
    vec("ctrl_no-nop-payload", ALL, [NOTIF, CTRL_RES], ctrl_no(0xA4, notification=1, drain_count=1))

    # No placement rule for CTRL_NO (PROJ-CONV-F1): a known engine changes nothing.
    vec("ctrl_no-nop-on-pe", ALL, [], ctrl_no(0xA4), "engine=PE")
