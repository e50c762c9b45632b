// The real-program words shared by machine_real_exec_test and block_path_test (real-programs.md §8.4-§12.4) and the
// memory geometry they are checked against.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "machine_builders.hpp"
#include "test_util.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"

namespace tpbisa::test {

inline constexpr uint64_t kStride = 0x40000;  // SBUF partition stride (memory-and-numerics.md §2), restated
inline constexpr uint64_t kPsum = 0x2000000;  // PSUM partition 0

/// The word of a hex text (a failure names the text).
inline Word hex(const std::string& text) {
  Word w{};
  HexError e;
  EXPECT_TRUE(parse_hex_word(text, w, e)) << text;
  return w;
}

// §12.4 synthetic MEMSET: FP32 1.0 into SB p0..p127 + 0x4600, 64 elements.
inline const std::string kMemset =
    "49100000000000000000000000000000000000000000000000000000400000000a008000000000000000803f00460000"
    "01000100010001004000010001000100";
// §10.5 synthetic CAST FP32 SB 0x4200 -> FP16 SB 0x4400, 64 elements, 128 channels.
inline const std::string kCast =
    "4710000000000000000000000042000001000100010001004000010001000100"
    "0a078000000000000000000000440000"
    "01000100010001004000010001000100";
// §11.4 synthetic TENSOR_TENSOR ADD FP32: SB 0x1000 + SB 0x2000 -> PSUM p0+0, 64 elements, 128 channels.
inline const std::string kTt =
    "411000000000000000000000aa0a04800010000001000000000040000100010000200000010000000000400001000100"
    "00000002010000000000400001000100";

// The PE words of matmul_small (real-programs.md §8.4, §9.5), on one PE stream with the semaphores preset.
inline const std::string kLwX0 =  // PE#03: wait S[8]>=16; LW x[:, 0:128] (transpose 1) from 0x37cfe walking backwards
    "01100000050800001000000000000000fe7c0300ffff0000e0ff200001000400"
    "0700010000008080000000000f0f0000"
    "00000000000000000000000000000000";
inline const std::string kMmT0 =  // PE#04: transpose MM with the identity at 0x37b00 -> PSUM p0+0x800 FP16
    "02100000000013050000000000000000007b0300010000000000800001000100"
    "0700010000008080000000030f0f0000"
    "00080002010000000000800001000100";
inline const std::string kLwT0 =  // PE#08: wait S[4]>=1; LW SB 0x40fe walking backwards (transpose 0)
    "01100000050400000100000000000000fe400000ffff0000e0ff200001000400"
    "0700000000008080000000000f0f0000"
    "00000000000000000000000000000000";
inline const std::string kMmBegin =  // PE#09: MM src SB 0x37f00 num 64, BEGIN, dst PSUM p0+0 FP32
    "02100000000013050000000000000000007f0300010000000000400001000100"
    "0700000000008080000000010f0f0000"
    "00000002010000000000400001000100";
inline const std::string kLwT1 =  // PE#10: wait S[26]>=16; LW SB 0x41fe
    "01100000051a00001000000000000000fe410000ffff0000e0ff200001000400"
    "0700000000008080000000000f0f0000"
    "00000000000000000000000000000000";
inline const std::string kMmEnd =  // PE#11: MM src SB 0x37e00, END (accumulate), dst PSUM p0+0
    "02100000000013050000000000000000007e0300010000000000400001000100"
    "0700000000008080000000020f0f0000"
    "00000002010000000000400001000100";

}  // namespace tpbisa::test
