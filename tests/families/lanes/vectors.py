"""Lanes vectors: LOAD_MASK_SELECT 0x69 (lane map), STREAM_SHUFFLE 0x6A and STREAM_TRANSPOSE 0x6B (S4D4_TR) --
alu-ops.md §3.6, §3.7 and the edge cases of its §8 (#13, #14).

Added to tests/vectors/validate.tsv by tests/vectors/make_validate_vectors.py. Every expected failing set is derived
by hand from the spec's conjunctions (PROJ-CONV-K4, K7, K8), never from running the library.
"""

import struct

from vectorlib import *  # noqa: F401,F403  (the generations, enum values, predicate names and vec())


def add():
    """Adds the family's vectors through vec(). Ids start with "ln-"."""
    TR_RES = "s4d4_tr_reserved_zero"
    MASK0 = "mask_enable_zero"
    MASKV = "mask_enable_valid"
    ALU_ENUM = "is_valid_enum(AluOp)"
    ZSUB = "is_zero_subdim"
    CNT = "s4d4_tr_same_src_dst_count"
    TCNT = "s4d4_tr_transpose_src_dst_count"
    BYP = "s4d4_tr_op_bypass"
    TYPE = "s4d4_tr_same_src_dst_type"
    M32 = "has_multiple_32_channels"
    SSP = "stream_shuffle_start_partition"
    T32 = "has_transpose_src_element_count_t4d"
    NEG = "has_zero_negated_field"
    EVT = "has_valid_neuron_events"
    BF16_, FP16_ = BF16, FP16

    def sb(p, off=0, maverick=False):
        """SBUF partition p, byte off (memory-and-numerics.md §2: 256 KiB stride, 1 MiB on MAVERICK)."""
        return p * (0x100000 if maverick else 0x40000) + off

    def tr(opcode, src=0x0, src_num=(2, 1, 1, 1), in_dt=FP32, out_dt=None, nac=32, negated=0, op=BYPASS, op_dim=0,
           mask=0, dst=0x100, dst_num=None, hdr=None, pokes=()):
        """S4D4_TR (real-programs.md §10.1): src @12, dtypes @32/33, channels @34, negated @35, op @36, op_dim @37,
        mask_enable @38, reserved1 @39..43, dst @44; every step 1."""
        w = bytearray(64)
        header(w, opcode, **(hdr or {}))
        struct.pack_into("<I4h4H", w, 12, src, 1, 1, 1, 1, *src_num)
        out_dt = in_dt if out_dt is None else out_dt
        struct.pack_into("<BBBBBBB", w, 32, in_dt, out_dt, nac, negated, op, op_dim, mask)
        struct.pack_into("<I4h4H", w, 44, dst, 1, 1, 1, 1, *(dst_num or src_num))
        for off, val in pokes:
            w[off] = val
        return w

    def spec_hex(text):
        return bytearray.fromhex(text.replace(" ", ""))

    # ---- LOAD_MASK_SELECT (PROJ-CONV-K8): header, events and opcode only; every other byte is accepted ----
    MASK_SYN = spec_hex("69100000000000000000000000000000 00000000000000000000000000000000 "
                        "0100ffffffffffffffffffffffffffff ffffffffffffffffffffffffffffffff")
    vec("ln-mask-syn", ALL, [], MASK_SYN)
    vec("ln-mask-body-opaque", ALL, [], MASK_SYN[:12] + bytes(range(1, 21)) + MASK_SYN[32:])
    vec("ln-mask-word-len", ALL, [HDR], MASK_SYN[:1] + bytes([15]) + MASK_SYN[2:])
    vec("ln-mask-wait-0x08", ALL, [EVT], MASK_SYN[:4] + bytes([0x08]) + MASK_SYN[5:])

    # ---- STREAM_SHUFFLE (PROJ-CONV-K4): §3.6's word, then each conjunct ----
    SHUF_SYN = spec_hex("6a100000000000000000000000000000 01000000000000000200010001000100 "
                        "0a0a2000000000000000000000010000 01000000000000000200010001000100")
    SH = lambda **kw: tr(0x6A, **kw)  # noqa: E731
    vec("ln-shuffle-syn", ALL, [], SHUF_SYN)
    vec("ln-shuffle-base", ALL, [], SH())
    vec("ln-shuffle-word-len", ALL, [HDR], SH(hdr={"word_len": 15}))
    vec("ln-shuffle-wait-0x08", ALL, [EVT], SH(hdr={"wait_mode": 0x08}))
    vec("ln-shuffle-reserved1", ALL, [TR_RES], SH(pokes=[(41, 1)]))
    vec("ln-shuffle-mask", ALL, [MASK0], SH(mask=1))
    vec("ln-shuffle-in-fp32r", ALL, [VDT], SH(in_dt=FP32R))
    vec("ln-shuffle-u64", ALL, [VDT], SH(in_dt=U64))
    vec("ln-shuffle-op-0x1e", ALL, [ALU_ENUM, BYP], SH(op=0x1E))
    vec("ln-shuffle-op-add", ALL, [BYP], SH(op=ADD))
    vec("ln-shuffle-op-dim-x", ALL, [], SH(op_dim=0x02))
    vec("ln-shuffle-op-dim-xy", ALL, [ZSUB], SH(op_dim=0x03))
    vec("ln-shuffle-nac-0", ALL, [CHR, M32], SH(nac=0))
    # Edge case #13: 2 channels / 64 channels with dst at partition 32 / out FP16.
    vec("ln-shuffle-nac-2", ALL, [M32], SH(nac=2))
    vec("ln-shuffle-64-dst-p32", SCM, [SSP], SH(nac=64, dst=sb(32, 0x100)))
    vec("ln-shuffle-64-dst-p32/maverick", V, [SSP], SH(nac=64, dst=sb(32, 0x100, True)))
    vec("ln-shuffle-64-dst-p64", SCM, [], SH(nac=64, dst=sb(64, 0x100)))
    vec("ln-shuffle-out-fp16", ALL, [TYPE], SH(out_dt=FP16_))
    vec("ln-shuffle-out-i32", ALL, [TYPE], SH(out_dt=I32))
    vec("ln-shuffle-src-p1", SCM, [SSP], SH(src=sb(1)))
    vec("ln-shuffle-src-p1/maverick", V, [SSP], SH(src=sb(1, 0, True)))
    vec("ln-shuffle-src-p32", SCM, [], SH(src=sb(32)))
    vec("ln-shuffle-src-p97", SCM, [SACH, SSP], SH(src=sb(97)))
    vec("ln-shuffle-src-p97/maverick", V, [SACH, SSP], SH(src=sb(97, 0, True)))
    vec("ln-shuffle-dst-p97", SCM, [SACH, SSP], SH(dst=sb(97, 0x100)))
    vec("ln-shuffle-128-src-p32", SCM, [SACH, SSP], SH(nac=128, src=sb(32)))
    vec("ln-shuffle-src-unaligned", ALL, [T4D], SH(src=0x2))
    vec("ln-shuffle-dst-unaligned", ALL, [T4D], SH(dst=0x102))
    vec("ln-shuffle-register", ALL, [], SH(src=0x80000005))
    vec("ln-shuffle-count", ALL, [CNT], SH(dst_num=(3, 1, 1, 1)))
    vec("ln-shuffle-negated", ALL, [NEG], SH(negated=1))
    vec("ln-shuffle-in-place", ALL, [], SH(dst=0x0))

    # ---- STREAM_TRANSPOSE (§3.7): §3.7's word, then each conjunct; edge case #14 ----
    TR_SYN = spec_hex("6b100000000000000000000000000000 01000000000000002000010001000100 "
                      "07072000000000000000000000010000 01000000000000002000010001000100")
    T = lambda **kw: tr(0x6B, **{"in_dt": FP16_, "src_num": (32, 1, 1, 1), "mask": 1, **kw})  # noqa: E731
    vec("ln-transpose-syn", ALL, [], TR_SYN)
    vec("ln-transpose-base", ALL, [], T())
    vec("ln-transpose-word-len", ALL, [HDR], T(hdr={"word_len": 15}))
    vec("ln-transpose-wait-0x08", ALL, [EVT], T(hdr={"wait_mode": 0x08}))
    vec("ln-transpose-reserved1", ALL, [TR_RES], T(pokes=[(43, 1)]))
    vec("ln-transpose-dst-33", ALL, [TCNT], T(dst_num=(33, 1, 1, 1)))
    vec("ln-transpose-16", ALL, [T32], T(src_num=(16, 1, 1, 1)))
    vec("ln-transpose-dst-16", ALL, [], T(dst_num=(16, 1, 1, 1)))
    vec("ln-transpose-mask-0", ALL, [], T(mask=0))
    vec("ln-transpose-mask-2", ALL, [MASKV], T(mask=2))
    vec("ln-transpose-op-dim-xy", ALL, [ZSUB], T(op_dim=0x03))
    vec("ln-transpose-in-fp32r", ALL, [VDT], T(in_dt=FP32R))
    vec("ln-transpose-u64", ALL, [VDT], T(in_dt=U64))
    vec("ln-transpose-out-bf16", ALL, [TYPE], T(out_dt=BF16_))
    vec("ln-transpose-op-add", ALL, [BYP], T(op=ADD))
    vec("ln-transpose-op-0x1e", ALL, [BYP], T(op=0x1E))  # no enum conjunct in this validator
    vec("ln-transpose-nac-0", ALL, [CHR, M32], T(nac=0))
    vec("ln-transpose-nac-2", ALL, [M32], T(nac=2))
    vec("ln-transpose-src-p97", SCM, [SACH], T(src=sb(97)))
    vec("ln-transpose-src-p97/maverick", V, [SACH], T(src=sb(97, 0, True)))
    vec("ln-transpose-dst-p97", SCM, [SACH], T(dst=sb(97, 0x100)))
    vec("ln-transpose-src-p1", SCM, [], T(src=sb(1)))  # no start-partition rule for the transpose
    vec("ln-transpose-src-unaligned", ALL, [T4D], T(src=0x1))
    vec("ln-transpose-dst-unaligned", ALL, [T4D], T(dst=0x101))
    vec("ln-transpose-negated", ALL, [NEG], T(negated=1))
    # A register shape (CAYMAN+) escapes the count comparison; SUNDA has none (PROJ-CONV-C18): zero counts fail there.
    # (0 elements is a multiple of 32.)
    vec("ln-transpose-shape-reg", CMV, [], T(src=0x40000000, src_num=(0, 0, 0, 0), dst_num=(32, 1, 1, 1)))
    vec("ln-transpose-shape-reg/sunda", S, [T4D, TCNT], T(src=0x40000000, src_num=(0, 0, 0, 0),
                                                          dst_num=(32, 1, 1, 1)))
