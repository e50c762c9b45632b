#!/usr/bin/env python3
"""Writes examples/stream.bin: six 64-byte TPB instruction words (little-endian), the example stream of the
README tour and of the CLI tests: one word for each case decode and validate tell apart. It is not the demo
program (that is examples/demo.tasm, assembled as examples/demo.bin).

Offsets follow the spec's compile-verified layouts (MEM_2D, S2_BN, S4D4_TSM). The stream tells a
small story on CAYMAN: store four fp32 immediates to SBUF, load them back into registers, preload
them as per-channel scalars (ImmLd), multiply a tensor by them (PtrMulti), signal with a no-op,
and end with a SUNDA-only Dual word that CAYMAN decodes as unknown.
"""
import os
import struct
import sys

WORD = 64
SBUF_P2 = 2 * 0x40000  # SBUF partition 2, offset 0 (256 KiB partition stride)
PSUM_P0 = 0x2000000  # PSUM partition 0, bank 0


def header(word, opcode):
    word[0] = opcode
    word[1] = 16  # inst_word_len: 16 words of 4 bytes


def events(word, wait_mode=0, wait_idx=0, update_mode=0, update_idx=0, value=0):
    struct.pack_into("<BBBBI", word, 4, wait_mode, wait_idx, update_mode, update_idx, value)


def tensor_store_immediates():
    """TensorStore 0xab: four fp32 immediates to sbuf[p2]+0x100; waits $S[4]>=2, then $S[22]++@complete."""
    w = bytearray(WORD)
    header(w, 0xAB)
    events(w, wait_mode=0x05, wait_idx=4, update_mode=0x13, update_idx=22, value=2)
    struct.pack_into("<BBBB", w, 12, 0x0A, 1, 4, 1)  # dtype FP32, src_datasrc IMMEDIATE, num_elem 4 x 1
    struct.pack_into("<Q", w, 16, SBUF_P2 + 0x100)  # start_addr: immediate ADDR8
    struct.pack_into("<ii", w, 24, 1, 0)  # step_elem
    struct.pack_into("<4f", w, 32, 1.0, 0.5, -2.0, 3.25)  # data: the immediates
    return w


def tensor_load_registers():
    """TensorLoad 0xaa: the same four words into r1..r4 as a 2 x 2 walk; waits $S[22]>=1, then $S[22]--@read."""
    w = bytearray(WORD)
    header(w, 0xAA)
    events(w, wait_mode=0x05, wait_idx=22, update_mode=0x04, update_idx=22, value=1)
    struct.pack_into("<BBBB", w, 12, 0x0A, 0, 2, 2)  # dtype FP32, src_datasrc REGISTER, num_elem 2 x 2
    struct.pack_into("<Q", w, 16, SBUF_P2 + 0x100)
    struct.pack_into("<ii", w, 24, 1, 2)
    w[32:36] = bytes([1, 2, 3, 4])  # data.registers
    return w


def tensor2d(word, at, addr, steps, counts):
    struct.pack_into("<I2h2H", word, at, addr, *steps, *counts)


def tensor4d(word, at, addr, steps, counts):
    struct.pack_into("<I4h4H", word, at, addr, *steps, *counts)


def imm_ld_arith():
    """TensorScalarImmLdArith 0x70: preload 4 fp32 scalars per channel from sbuf[p0]+0x200; waits $E[3]?set."""
    w = bytearray(WORD)
    header(w, 0x70)
    events(w, wait_mode=0x06, wait_idx=3)
    tensor2d(w, 16, 0x200, (1, 4), (4, 1))  # src_mem_pattern: 4 x 1 elements
    w[32] = 0x0A  # dtype FP32
    w[34] = 32  # num_active_channels
    return w  # imm1, imm0_ptr, imm0_src and every reserved byte stay zero


def ptr_multi_arith():
    """TensorScalarPtrMultiArith 0x4F: x * scalar[w] for W = 4 slices into PSUM; waits $S[4]>=r5."""
    w = bytearray(WORD)
    header(w, 0x4F)
    events(w, wait_mode=0x85, wait_idx=4, update_mode=0x99, update_idx=22, value=5)  # r5 (PROJ-CONV-C3)
    tensor4d(w, 12, 0x400, (1, 16, 16, 16), (16, 1, 1, 4))  # src: 16 elements x 4 slices
    struct.pack_into("<BBBB", w, 32, 0x0A, 0x0A, 32, 0)  # in_dtype, out_dtype FP32, 32 channels, reserved0
    struct.pack_into("<BBB", w, 36, 0x06, 0x04, 0)  # op MULT, op_dim XYZ, reverse_operands NONE
    tensor4d(w, 44, PSUM_P0, (1, 16, 16, 16), (16, 1, 1, 4))  # dst: same element count, in PSUM
    return w


def engine_nop():
    """ENGINE_NOP 0x9f (operands not modeled): unordered, sets event 3 when read."""
    w = bytearray(WORD)
    header(w, 0x9F)
    events(w, wait_mode=0xFE, update_mode=0x01, update_idx=3)
    return w


def dual_arith_sunda_only():
    """TensorScalarPtrMultiDualArith 0x87: exists on SUNDA only, so CAYMAN decodes it as unknown."""
    w = bytearray(WORD)
    header(w, 0x87)
    tensor4d(w, 12, 0x600, (1, 8, 8, 8), (8, 1, 1, 2))
    struct.pack_into("<BBBB", w, 32, 0x0A, 0x0A, 32, 0)
    struct.pack_into("<BBB", w, 36, 0x04, 0x04, 0)  # op ADD, op_dim XYZ
    tensor4d(w, 44, 0x800, (1, 8, 8, 8), (8, 1, 1, 2))
    return w


def main():
    words = [tensor_store_immediates(), tensor_load_registers(), imm_ld_arith(), ptr_multi_arith(), engine_nop(),
             dual_arith_sunda_only()]
    assert all(len(w) == WORD for w in words)
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "stream.bin")
    with open(out, "wb") as f:
        for w in words:
            f.write(w)


if __name__ == "__main__":
    main()
