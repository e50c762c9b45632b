// Mapped .npy inputs (mmap, read-only) and .npy outputs (format 1.0, C order).
#include "tpbisa/io/npy_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace tpbisa::io {

std::unique_ptr<MappedFile> MappedFile::open(const std::string& path, std::string& error) {
  // Non-blocking: a FIFO opens at once (and is refused below) instead of waiting for a writer forever.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    error = fmt::format("{}: cannot open: {}", path, std::strerror(errno));
    return nullptr;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = fmt::format("{}: not a regular file", path);
    ::close(fd);
    return nullptr;
  }
  std::unique_ptr<MappedFile> f(new MappedFile());
  f->size_ = static_cast<uint64_t>(st.st_size);
  if (f->size_ != 0) {
    void* p = ::mmap(nullptr, f->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      error = fmt::format("{}: cannot map the file: {}", path, std::strerror(errno));
      ::close(fd);
      return nullptr;
    }
    f->data_ = static_cast<const uint8_t*>(p);
  }
  ::close(fd);
  return f;
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(const_cast<uint8_t*>(data_), size_);
}

bool open_npy(const std::string& path, NpyInput& out, std::string& error) {
  out.file = MappedFile::open(path, error);
  if (!out.file) return false;
  std::string why;
  if (!npy::parse(out.file->bytes(), out.array, why)) {
    error = fmt::format("{}: not a readable .npy file: {}", path, why);
    return false;
  }
  return true;
}

namespace {

/// The header of a version 1.0 .npy file (magic, version, length, dictionary padded to a multiple of 64).
std::vector<uint8_t> npy_header(const std::string& descr, std::span<const uint64_t> shape) {
  std::string shape_text = "(";
  for (size_t i = 0; i < shape.size(); ++i) shape_text += fmt::format("{}{}", i == 0 ? "" : ", ", shape[i]);
  if (shape.size() == 1) shape_text += ",";
  shape_text += ")";
  std::string dict = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", descr, shape_text);
  // Magic (6) + version (2) + length (2) + dictionary, padded with spaces and a newline to a multiple of 64.
  const size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  std::vector<uint8_t> bytes{0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  bytes.push_back(static_cast<uint8_t>(dict.size() & 0xFF));
  bytes.push_back(static_cast<uint8_t>(dict.size() >> 8));
  bytes.insert(bytes.end(), dict.begin(), dict.end());
  return bytes;
}

}  // namespace

std::vector<uint8_t> npy_bytes(const std::string& descr, std::span<const uint64_t> shape,
                               std::span<const uint8_t> data) {
  std::vector<uint8_t> bytes = npy_header(descr, shape);
  bytes.insert(bytes.end(), data.begin(), data.end());
  return bytes;
}

Expected<void> write_npy(const std::string& path, const std::string& descr, std::span<const uint64_t> shape,
                         std::span<const uint8_t> data, const OutputOptions& options) {
  auto file = OutputFile::open(path, options);
  if (!file) return file.error();
  (*file)->write(std::span<const uint8_t>(npy_header(descr, shape)));
  (*file)->write(data);  // straight from the output's buffer: never a second copy of it
  return (*file)->commit();
}

}  // namespace tpbisa::io
