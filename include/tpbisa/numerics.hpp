// Number formats and the one ALU evaluator shared by every executing instruction.
#pragma once

#include <cstdint>

namespace tpbisa {

/// FP8 and narrowing behaviour (memory-and-numerics.md §8.2; defaults are PROJ-CONV-N11).
struct ConvertOptions {
  bool ocp_sat = true;               ///< FP8 overflow saturates to ±max finite
  bool sis = false;                  ///< FP16/BF16 overflow saturates instead of giving ±Inf
  bool sns = false;                  ///< saturate NaN for non-FP8 conversions (recorded; default off)
  bool fp8_range_extension = false;  ///< recorded; default off
};

/// True when the conversion module defines to_fp32/from_fp32 for this dtype code: the integer types
/// (8/16/32-bit, and 64-bit for integer paths), FP32, FP32R, BFLOAT16, FP16 and FP8_EXP3/4/5.
bool convertible(uint8_t dtype);

/// to_fp32 (PROJ-CONV-N12): the fp32 bit pattern of an element whose bits are in the low bits of `raw`.
/// Integers round to nearest even; FP16/BF16/FP8 widen exactly; a narrow NaN gives a quiet NaN; FP32 is
/// the identity (every NaN bit kept).
uint32_t to_fp32_bits(uint64_t raw, uint8_t dtype);

/// from_fp32 (PROJ-CONV-N12): the element bits of `dtype` for the fp32 value with bits `f`.
/// Floats round to nearest even with the overflow rules of ConvertOptions; integers take NaN -> 0, truncate
/// toward zero and clamp to the type's range; FP32R keeps the fp32 bits (PROJ-CONV-T6).
uint64_t from_fp32_bits(uint32_t f, uint8_t dtype, const ConvertOptions& options = {});

/// The shared ALU evaluator, fp32 path (enums.md §5.3): r = op(a, b). Unary ops use `a`.
/// Compares and logical ops give 1.0 / 0.0; MAX/MIN follow maxNum/minNum (PROJ-CONV-T12);
/// ops without an fp32 meaning return a quiet NaN.
float alu_fp32(uint8_t op, float a, float b);

/// The shared ALU evaluator, integer path on 32-bit words (wrap-around). `is_signed` is the operand
/// dtype's signedness: it selects arithmetic vs logical right shifts and signed vs unsigned compares
/// (PROJ-CONV-T15); shift counts use `b & 31` (PROJ-CONV-T7); CRC32 is the reflected 0xEDB88320 step with
/// `b` the running CRC (PROJ-CONV-T8); divide/modulo by zero give all-ones / the dividend (PROJ-CONV-E1).
uint32_t alu_int32(uint8_t op, uint32_t a, uint32_t b, bool is_signed);

}  // namespace tpbisa
