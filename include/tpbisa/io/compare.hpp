// An output of a NEFF run compared with a reference array (`tpbisa run --expect NAME=REF.npy`).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "tpbisa/expected.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/npy.hpp"

namespace tpbisa::io {

/// An output compared with a reference.
struct OutputComparison {
  std::string name, reference;  ///< the output, and the reference file it was compared with (set by the caller)
  uint64_t elements = 0, differing = 0;
  double rtol = 0, atol = 0;  ///< the tolerance the elements were compared within
  double max_abs_diff = 0;
  std::vector<std::string> first;  ///< the first differing indices (at most 5), "[0, 3]"
};

/// Compares output `t` (its bytes `got`, the signature's dtype) with the reference `ref` (its data `ref_data`)
/// element by element as numbers: NaN equals NaN, +0 equals -0. A reference in one of the output's own .npy forms
/// is read as the output is (bf16 and fp8 as their raw bits); any other by its own dtype. Errors (naming
/// `--expect NAME`): the shapes differ, the program holds fewer bytes than the signature needs, a complex reference.
/// With a tolerance, elements a (the output) and b (the reference) count as equal when |a - b| <= atol + rtol * |b|,
/// as numpy.isclose has it; NaN equals only NaN, and an infinity only itself.
Expected<OutputComparison> compare_output(const neff::Tensor& t, std::span<const uint8_t> got, const npy::Array& ref,
                                          std::span<const uint8_t> ref_data, double rtol = 0, double atol = 0);

}  // namespace tpbisa::io
