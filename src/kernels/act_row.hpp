// Vectorised activation-table evaluation over a row (act-index-ops.md §3.6 steps 3-7 with a precomputed lookup),
// fused with the widening of the input and ACTIVATE's affine step, bit for bit the reference procedure for every
// element it evaluates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace tpbisa::kernels {

/// The floats of one BUCKET record in the row evaluation's layout: x0, d0, d1 as binary32 and a zero pad, then d2 and
/// d3 widened to binary64 (exactly; the cubic's t² and t³ terms are binary64), so a record is 32 aligned bytes.
inline constexpr size_t kActRecordFloats = 8;

/// The entries of one sign's lookup window (ActRowTables::window).
inline constexpr unsigned kActWindow = 32;

/// One function's tables in the layout the row evaluation reads (act::TableSet builds it with the set).
struct ActRowTables {
  /// Per sign and biased exponent of the folded input (sel >> 23): the first BUCKET record in bits 0..21, the
  /// mantissa shift in bits 22..26, bit 31 set when the element must take the reference procedure instead.
  const uint32_t* lut = nullptr;
  /// The same lookup as two windows of kActWindow entries (positive sign, then negative), or nullptr: the entry of
  /// biased exponent e is window[clamp(e - window_base[sign], 0, kActWindow - 1)] for every e, so the lookup needs
  /// no memory access.
  const uint32_t* window = nullptr;
  int32_t window_base[2] = {0, 0};
  /// The BUCKET records, kActRecordFloats floats each, 32-byte aligned.
  const float* records = nullptr;
  bool symmetric = false;      ///< symmetry_opt_en: the input is folded to |v| (or -|v|) and reconstructed
  bool fold_negative = false;  ///< symmetry_opt_use_neg_region
  bool invert = false;         ///< sym_invert_sign_point
  float point = 0.0F;          ///< symmetry_point
  /// The results of step 1 for +-0, +Inf, -Inf and NaN (fzero, fpinf, fninf, fnan), when `specials`: the AVX-512
  /// and AVX2 kernels then give them themselves instead of stopping before them.
  bool specials = false;
  uint32_t zero_result = 0, pos_inf_result = 0, neg_inf_result = 0, nan_result = 0;
};

inline constexpr uint32_t kActLutReference = 0x80000000U;
inline constexpr unsigned kActLutShiftAt = 22;
inline constexpr uint32_t kActLutRecordMask = (1U << kActLutShiftAt) - 1U;

/// The row an evaluation reads: fp32 bits or BF16 patterns (widened exactly, a NaN staying a NaN), and ACTIVATE's
/// affine step y = RN32(RN32(x·scale) + bias) applied to them when `affine` (PROJ-CONV-A8: two roundings).
struct ActRowInput {
  const void* data = nullptr;
  bool bf16 = false;
  bool affine = false;
  float scale = 1.0F, bias = 0.0F;
  /// The same input from element `i` on.
  ActRowInput from(size_t i) const {
    ActRowInput r = *this;
    r.data = static_cast<const uint8_t*>(data) + i * (bf16 ? 2 : 4);
    return r;
  }
  /// Element i as fp32 bits before the affine step.
  uint32_t raw(size_t i) const {
    const auto* b = static_cast<const uint8_t*>(data);
    if (bf16) {
      uint16_t h = 0;
      std::memcpy(&h, b + 2 * i, 2);  // little-endian host, as the machine's memory
      return uint32_t{h} << 16;
    }
    uint32_t w = 0;
    std::memcpy(&w, b + 4 * i, 4);
    return w;
  }
};

/// Evaluates out[i] = f(y[i]) (fp32 bits) for i = 0, 1, ... in whole vectors, y the input after the affine step, the
/// cubic computed exactly as act::evaluate does (t and d0 + d1·t in binary32, the t² and t³ terms in binary64, one
/// rounding to binary32). Stops before the first vector holding a y whose lookup entry says reference, or that is
/// zero, Inf or NaN (unless t.specials and the lookup is a window: the AVX-512 and AVX2 kernels then give step 1's
/// results), and before the tail shorter than a vector: returns how many elements it evaluated (the caller evaluates
/// the next element with the reference procedure and calls again after it). `out` may equal the input.
size_t act_eval_row(const ActRowTables& t, const ActRowInput& in, uint32_t* out, size_t n);

}  // namespace tpbisa::kernels
