// `--expect`: an output and a reference compared element by element as numbers.
#include "tpbisa/io/compare.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include <fmt/format.h>

#include "tpbisa/catalog.hpp"
#include "tpbisa/neff_run.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::io {
namespace {

/// The ISA float dtype that decodes an element of a signature dtype to a number: the catalog's signature column
/// (0: an integer type or a dtype no catalog dtype means, read by its .npy kind and size).
uint8_t isa_dtype(const std::string& d) {
  const DtypeInfo* row = signature_dtype(d);
  return row != nullptr && row->kind == DtypeKind::Float ? row->code : 0;
}

/// Element k of `bytes` as a number: `dt` an ISA float dtype, else by the .npy kind and size.
double element_value(std::span<const uint8_t> bytes, uint64_t k, unsigned size, uint8_t dt, char kind) {
  uint64_t raw = 0;
  for (unsigned i = 0; i < size; ++i) raw |= uint64_t{bytes[k * size + i]} << (8 * i);
  if (dt != 0) return std::bit_cast<float>(to_fp32_bits(raw, dt));
  if (kind == 'f') return size == 8 ? std::bit_cast<double>(raw) : std::bit_cast<float>(static_cast<uint32_t>(raw));
  if (kind == 'i') {
    const unsigned shift = 64 - 8 * size;
    return static_cast<double>(static_cast<int64_t>(raw << shift) >> shift);
  }
  return static_cast<double>(raw);
}

/// "[i, j, ...]": the multi-index of flat element k in `shape` (row-major).
std::string index_text(uint64_t k, std::span<const uint64_t> shape) {
  std::vector<uint64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] == 0 ? 0 : k % shape[d];
    k = shape[d] == 0 ? 0 : k / shape[d];
  }
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); ++d) s += fmt::format("{}{}", d == 0 ? "" : ", ", idx[d]);
  return s + "]";
}

}  // namespace

Expected<OutputComparison> compare_output(const neff::Tensor& t, std::span<const uint8_t> got, const npy::Array& ref,
                                          std::span<const uint8_t> ref_data, double rtol, double atol) {
  const auto refused = [](std::string message) { return Error{ErrorKind::Invalid, std::move(message)}; };
  const unsigned size = neff::signature_dtype_size(t.dtype);
  if (ref.shape != t.shape)
    return refused(fmt::format("--expect {}: the reference has shape {}, the output {} {}", t.name, npy::describe(ref),
                               t.dtype, neff::shape_text(t.shape)));
  if (got.size() < ref.count * size)
    return refused(
        fmt::format("--expect {}: the program holds {} bytes for this output, not the {} its signature "
                    "needs",
                    t.name, got.size(), ref.count * size));
  if (ref.kind == 'c')
    return refused(fmt::format("--expect {}: a complex reference ({}) cannot be compared", t.name, ref.descr));
  const std::vector<std::string> same = neff::npy_descrs_for(t.dtype);
  const bool as_output = std::find(same.begin(), same.end(), ref.descr) != same.end();
  const uint8_t out_dt = isa_dtype(t.dtype);
  // Without an ISA float dtype an element is an integer, float64, or raw bits (bool, float8_e4m3: unsigned).
  const char out_kind = t.dtype.find("int") == 0 ? 'i' : t.dtype == "float64" ? 'f' : 'u';
  OutputComparison c;
  c.name = t.name;
  c.elements = ref.count;
  c.rtol = rtol;
  c.atol = atol;
  for (uint64_t k = 0; k < c.elements; ++k) {
    const double a = element_value(got, k, size, out_dt, out_kind);
    const double b = as_output ? element_value(ref_data, k, size, out_dt, out_kind)
                               : element_value(ref_data, k, ref.item_size, 0, ref.kind);
    if (a == b || (std::isnan(a) && std::isnan(b))) continue;
    const double d = std::fabs(a - b);
    if (std::isfinite(d) && d <= atol + rtol * std::fabs(b)) continue;
    ++c.differing;
    if (!(d <= c.max_abs_diff)) c.max_abs_diff = d;
    if (c.first.size() < 5) c.first.push_back(index_text(k, t.shape));
  }
  return c;
}

}  // namespace tpbisa::io
