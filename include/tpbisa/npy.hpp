// The NumPy .npy file header: parsed with bounds so a hostile file cannot make the reader allocate or overrun.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tpbisa::npy {

/// Bounds applied before anything is allocated from what the file declares.
struct Limits {
  size_t max_header_bytes = 64 * 1024;  ///< the header dictionary (NumPy itself writes < 4 KiB)
  size_t max_dims = 32;                 ///< NumPy's own limit is 32 (NPY_MAXDIMS)
};

/// One array: what the header says and where its data are in the file.
struct Array {
  unsigned major = 0, minor = 0;  ///< format version (1.0, 2.0 or 3.0)
  std::string descr;              ///< dtype string as written: "<f2", "|u1", ...
  char kind = 0;                  ///< 'f' float, 'i' signed, 'u' unsigned, 'b' bool, 'c' complex, 'V' raw bytes
  unsigned item_size = 0;         ///< bytes per element
  bool fortran_order = false;
  std::vector<uint64_t> shape;  ///< empty for a scalar (one element)
  uint64_t count = 0;           ///< elements (the product of shape)
  size_t data_offset = 0;       ///< first data byte in the file
  uint64_t data_bytes = 0;      ///< count * item_size; the file holds at least that many bytes after data_offset
};

/// Parses the header of `file` (magic, version, dictionary with 'descr', 'fortran_order' and 'shape').
/// Little-endian and single-byte dtypes of kinds f, i, u, b and c only (big-endian or structured dtypes are
/// refused). Returns false with a one-line reason in `error` when the header is malformed, exceeds `limits`,
/// or the file holds fewer data bytes than the shape needs.
bool parse(std::span<const uint8_t> file, Array& out, std::string& error, const Limits& limits = {});

/// "<f2 (128, 128, 1, 1)": the dtype and shape the way NumPy prints a shape.
std::string describe(const Array& a);

}  // namespace tpbisa::npy
