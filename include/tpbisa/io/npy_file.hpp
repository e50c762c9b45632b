// .npy files for a NEFF run: inputs mapped read-only from their files (never copied), outputs written atomically.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tpbisa/expected.hpp"
#include "tpbisa/io/output_file.hpp"
#include "tpbisa/npy.hpp"

namespace tpbisa::io {

/// A file mapped read-only (mmap); the bytes stay valid while the object lives.
class MappedFile {
 public:
  /// Maps `path`; nullptr with `error` set when it cannot be opened or mapped.
  static std::unique_ptr<MappedFile> open(const std::string& path, std::string& error);
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();
  std::span<const uint8_t> bytes() const { return {data_, size_}; }

 private:
  MappedFile() = default;
  const uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
};

/// A mapped .npy: its parsed header and its data bytes (inside the mapping).
struct NpyInput {
  std::unique_ptr<MappedFile> file;
  npy::Array array;
  std::span<const uint8_t> data() const { return file->bytes().subspan(array.data_offset, array.data_bytes); }
};
/// Maps and parses `path`; false with `error` ("FILE: reason") when it is not a readable .npy.
bool open_npy(const std::string& path, NpyInput& out, std::string& error);

/// The bytes of a version 1.0 .npy file holding `data` as `descr` with `shape` (C order).
std::vector<uint8_t> npy_bytes(const std::string& descr, std::span<const uint64_t> shape,
                               std::span<const uint8_t> data);
/// Writes `npy_bytes(...)` to `path` through the output-file policy (tpbisa/io/output_file.hpp: atomic, inputs and
/// the other outputs in `options` refused); the error names the file and the system's reason.
Expected<void> write_npy(const std::string& path, const std::string& descr, std::span<const uint64_t> shape,
                         std::span<const uint8_t> data, const OutputOptions& options);

}  // namespace tpbisa::io
