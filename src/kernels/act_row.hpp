// Vectorised activation-table evaluation over a row (act-index-ops.md §3.6 steps 3-7 with a precomputed lookup),
// bit for bit the reference procedure for every element it evaluates.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tpbisa::kernels {

/// One function's tables in the layout the row evaluation reads (act::TableSet builds it with the set).
struct ActRowTables {
  /// Per sign and biased exponent of the folded input (sel >> 23): the first BUCKET record in bits 0..21, the
  /// mantissa shift in bits 22..26, bit 31 set when the element must take the reference procedure instead.
  const uint32_t* lut = nullptr;
  /// The BUCKET records' fields as fp32 values, one array each (x0, d0, d1, d2, d3).
  const float *x0 = nullptr, *d0 = nullptr, *d1 = nullptr, *d2 = nullptr, *d3 = nullptr;
  bool symmetric = false;      ///< symmetry_opt_en: the input is folded to |v| (or -|v|) and reconstructed
  bool fold_negative = false;  ///< symmetry_opt_use_neg_region
  bool invert = false;         ///< sym_invert_sign_point
  float point = 0.0F;          ///< symmetry_point
};

inline constexpr uint32_t kActLutReference = 0x80000000U;
inline constexpr unsigned kActLutShiftAt = 22;
inline constexpr uint32_t kActLutRecordMask = (1U << kActLutShiftAt) - 1U;

/// Evaluates out[i] = f(in[i]) (fp32 bits) for i = 0, 1, ... in whole vectors, the cubic computed exactly as
/// act::evaluate does (t and d0 + d1·t in binary32, the t² and t³ terms in binary64, one rounding to binary32).
/// Stops before the first vector holding an element that is zero, Inf or NaN or whose lookup entry says
/// reference, and before the tail shorter than a vector: returns how many elements it evaluated (the caller
/// evaluates the next element with the reference procedure and calls again after it). `out` may equal `in`.
size_t act_eval_row(const ActRowTables& t, const uint32_t* in, uint32_t* out, size_t n);

}  // namespace tpbisa::kernels
