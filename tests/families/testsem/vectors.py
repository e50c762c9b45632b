"""Test-event-semaphore vectors: CTRL_TEST_ES (0xB4 TEST_EVENT_SEM), the layout the wiki quotes from the header
(dma-transpose-opcode-cluster.md §3f; PROJ-CONV-TS1, TS2). Added to tests/vectors/validate.tsv by
make_validate_vectors.py.

Every expected failing set is derived by hand from the conjuncts docs/conventions.md gives for is_valid_ctrl_test_es
(PROJ-CONV-TS2) and the UPDATE_MODE enum (enums.md §10), never from running the library. Ids start with "te-".
MARIANA and MAVERICK only.
"""

import struct

from vectorlib import HDR, MV, MARIANA, MAVERICK, header, vec

RES = "ctrl_test_es_reserved_zero"
MODE = "has_valid_test_evt_sem_mode"
NUM = "has_valid_test_es_num_evt_sem"
UPD = "has_valid_test_es_update_type"
UNIQ = "test_es_unique_ids"
UNUSED = "test_es_unused_slots_zero"


def te(mode=0, update=0, repeat=0, num=2, ids=(3, 7), regs=(1, 2), threshold=0, setter=0, pokes=(), hdr=None):
    """TEST_EVENT_SEM READ_SEM: semaphores 3 and 7 into registers 1 and 2."""
    w = bytearray(64)
    header(w, 0xB4, **(hdr or {}))
    struct.pack_into("<BBBB", w, 12, mode, update, repeat, num)
    for k, v in enumerate(ids):
        w[16 + k] = v
    for k, v in enumerate(regs):
        w[32 + k] = v
    struct.pack_into("<IB", w, 48, threshold, setter)
    for off, val in pokes:
        w[off] = val
    return w


def add():
    """Adds the family's vectors through vec()."""
    vec("te-base", MV, [], te())
    vec("te-read-evt", MV, [], te(mode=1))
    vec("te-update-inc", MV, [], te(mode=2, update=0x03))
    vec("te-update-add-reg", MV, [], te(mode=2, update=0x85))
    vec("te-update-wr-reg-complete", MV, [], te(mode=2, update=0x99))
    vec("te-cond", MV, [], te(mode=4, update=0x87, repeat=3, threshold=10))
    vec("te-16", MV, [], te(num=16, ids=tuple(range(16)), regs=tuple(range(16, 32))))
    vec("te-setter", MV, [], te(setter=5))
    vec("te-hdr", MV, [HDR], te(hdr={"word_len": 15}))
    vec("te-events", MV, ["has_valid_neuron_events"], te(hdr={"wait_mode": 0x08}))
    vec("te-res53", MV, [RES], te(pokes=[(53, 1)]))
    vec("te-res63", MV, [RES], te(pokes=[(63, 0x40)]))
    vec("te-mode-5", MV, [MODE], te(mode=5))
    vec("te-num-0", MV, [NUM, UNUSED], te(num=0))
    vec("te-num-0-clear", MV, [NUM], te(num=0, ids=(), regs=()))
    vec("te-num-17", MV, [NUM], te(num=17, ids=tuple(range(16)), regs=tuple(range(16))))
    # The immediate update forms carry no immediate here: the values come from the registers.
    vec("te-update-add-imm", MV, [UPD], te(mode=2, update=0x05))
    vec("te-update-wr-imm-complete", MV, [UPD], te(mode=2, update=0x19))
    vec("te-update-not-a-mode", MV, [UPD], te(update=0x06))
    # EVT_SET_READ (0x01) is an UPDATE_MODE up to MARIANA only.
    vec("te-update-evt-set/mariana", (MARIANA,), [], te(mode=3, update=0x01))
    vec("te-update-evt-set/maverick", (MAVERICK,), [UPD], te(mode=3, update=0x01))
    vec("te-repeated-id", MV, [UNIQ], te(ids=(3, 3)))
    vec("te-repeated-id-late", MV, [UNIQ], te(num=4, ids=(1, 2, 3, 2), regs=(1, 2, 3, 4)))
    # Slot 2 is past num_evt_sem = 2: its id and register must be zero.
    vec("te-unused-id", MV, [UNUSED], te(ids=(3, 7, 9)))
    vec("te-unused-reg", MV, [UNUSED], te(regs=(1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4)))
