// The .npy header reader: magic, version, and the Python-literal dictionary, every size checked before use.
#include <cctype>
#include <cstring>
#include <limits>
#include <string_view>

#include <fmt/format.h>

#include "tpbisa/formats.hpp"
#include "tpbisa/npy.hpp"

namespace tpbisa::npy {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

/// A cursor over the header dictionary: `{'descr': '<f2', 'fortran_order': False, 'shape': (128, 128), }`.
class Literal {
 public:
  explicit Literal(std::string_view text) : s_(text) {}

  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  bool eat(char c) {
    skip_space();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool peek(char c) {
    skip_space();
    return i_ < s_.size() && s_[i_] == c;
  }
  bool string(std::string& out) {
    skip_space();
    if (i_ >= s_.size() || (s_[i_] != '\'' && s_[i_] != '"')) return false;
    const char quote = s_[i_++];
    const size_t end = s_.find(quote, i_);
    if (end == std::string_view::npos) return false;
    out.assign(s_.substr(i_, end - i_));
    i_ = end + 1;
    return true;
  }
  bool word(std::string_view w) {
    skip_space();
    if (s_.substr(i_, w.size()) != w) return false;
    i_ += w.size();
    return true;
  }
  bool number(uint64_t& out) {
    skip_space();
    if (i_ >= s_.size() || !std::isdigit(static_cast<unsigned char>(s_[i_]))) return false;
    uint64_t v = 0;
    while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) {
      const auto d = static_cast<uint64_t>(s_[i_++] - '0');
      if (v > (std::numeric_limits<uint64_t>::max() - d) / 10) return false;
      v = v * 10 + d;
    }
    // NumPy 1.x wrote Python 2 longs as "128L".
    if (i_ < s_.size() && s_[i_] == 'L') ++i_;
    out = v;
    return true;
  }
  bool at_end() {
    skip_space();
    return i_ == s_.size();
  }

 private:
  std::string_view s_;
  size_t i_ = 0;
};

bool parse_descr(const std::string& descr, Array& out, std::string& error) {
  if (descr.size() < 3 || (descr[0] != '<' && descr[0] != '|' && descr[0] != '=')) {
    error = fmt::format("dtype '{}' is not a little-endian or single-byte scalar type", descr);
    return false;
  }
  const char kind = descr[1];
  // 'V' is NumPy's raw-bytes kind ('|V2'): how bfloat16 and FP8 data often arrive without a native dtype.
  if (std::string_view("fiubcV").find(kind) == std::string_view::npos) {
    error = fmt::format("dtype '{}' has kind '{}', not one of f, i, u, b, c, V", descr, kind);
    return false;
  }
  unsigned size = 0;
  for (size_t i = 2; i < descr.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(descr[i])) || size > 1000) {
      error = fmt::format("dtype '{}' has no valid item size", descr);
      return false;
    }
    size = size * 10 + static_cast<unsigned>(descr[i] - '0');
  }
  if (size == 0 || size > 32 || (descr[0] == '|' && size != 1 && kind != 'V') || (kind == 'V' && descr[0] != '|')) {
    error = fmt::format("dtype '{}' has no valid item size", descr);
    return false;
  }
  out.descr = descr;
  out.kind = kind;
  out.item_size = size;
  return true;
}

}  // namespace

bool parse(std::span<const uint8_t> file, Array& out, std::string& error, const Limits& limits) {
  out = Array{};
  if (file.size() < 10 || std::memcmp(file.data(), kMagic.data(), kMagic.size()) != 0) {
    error = "not a .npy file (no \\x93NUMPY magic)";
    return false;
  }
  out.major = file[6];
  out.minor = file[7];
  size_t header_len = 0;
  size_t prefix = 0;
  if (out.major == 1) {
    header_len = load_le<uint16_t>(file.data() + 8);
    prefix = 10;
  } else if (out.major == 2 || out.major == 3) {
    if (file.size() < 12) {
      error = "truncated .npy header";
      return false;
    }
    header_len = load_le<uint32_t>(file.data() + 8);
    prefix = 12;
  } else {
    error = fmt::format(".npy format version {}.{} is not supported (1.0, 2.0, 3.0)", out.major, out.minor);
    return false;
  }
  if (header_len > limits.max_header_bytes) {
    error = fmt::format(".npy header of {} bytes exceeds the limit of {}", header_len, limits.max_header_bytes);
    return false;
  }
  if (header_len > file.size() - prefix) {
    error = fmt::format(".npy header declares {} bytes but the file has {} after the prefix", header_len,
                        file.size() - prefix);
    return false;
  }
  const std::string_view text(reinterpret_cast<const char*>(file.data() + prefix), header_len);
  Literal lit(text);
  bool have_descr = false, have_order = false, have_shape = false;
  if (!lit.eat('{')) {
    error = ".npy header is not a dictionary";
    return false;
  }
  while (!lit.peek('}')) {
    std::string key;
    if (!lit.string(key) || !lit.eat(':')) {
      error = ".npy header dictionary is malformed";
      return false;
    }
    if (key == "descr") {
      std::string descr;
      if (!lit.string(descr)) {
        error = ".npy 'descr' is not a string (structured dtypes are not supported)";
        return false;
      }
      if (!parse_descr(descr, out, error)) return false;
      have_descr = true;
    } else if (key == "fortran_order") {
      if (lit.word("True"))
        out.fortran_order = true;
      else if (lit.word("False"))
        out.fortran_order = false;
      else {
        error = ".npy 'fortran_order' is neither True nor False";
        return false;
      }
      have_order = true;
    } else if (key == "shape") {
      if (!lit.eat('(')) {
        error = ".npy 'shape' is not a tuple";
        return false;
      }
      while (!lit.peek(')')) {
        uint64_t dim = 0;
        if (!lit.number(dim)) {
          error = ".npy 'shape' holds something other than non-negative integers";
          return false;
        }
        if (out.shape.size() >= limits.max_dims) {
          error = fmt::format(".npy 'shape' has more than {} dimensions", limits.max_dims);
          return false;
        }
        out.shape.push_back(dim);
        if (!lit.eat(',')) break;
      }
      if (!lit.eat(')')) {
        error = ".npy 'shape' tuple is not closed";
        return false;
      }
      have_shape = true;
    } else {
      error = fmt::format(".npy header has an unknown key '{}'", key);
      return false;
    }
    if (!lit.eat(',')) break;
  }
  if (!lit.eat('}') || !lit.at_end()) {
    error = ".npy header dictionary is malformed";
    return false;
  }
  if (!have_descr || !have_order || !have_shape) {
    error = ".npy header lacks one of 'descr', 'fortran_order', 'shape'";
    return false;
  }
  uint64_t count = 1;
  for (uint64_t d : out.shape) {
    if (d != 0 && count > std::numeric_limits<uint64_t>::max() / d) {
      error = ".npy shape overflows 64 bits";
      return false;
    }
    count *= d;
  }
  if (count > std::numeric_limits<uint64_t>::max() / out.item_size) {
    error = ".npy data size overflows 64 bits";
    return false;
  }
  out.count = count;
  out.data_offset = prefix + header_len;
  out.data_bytes = count * out.item_size;
  if (out.data_bytes > file.size() - out.data_offset) {
    error = fmt::format(".npy shape needs {} data bytes but the file has {}", out.data_bytes,
                        file.size() - out.data_offset);
    return false;
  }
  return true;
}

std::string describe(const Array& a) {
  std::string dims;
  for (size_t i = 0; i < a.shape.size(); ++i) dims += (i ? ", " : "") + std::to_string(a.shape[i]);
  if (a.shape.size() == 1) dims += ",";
  return fmt::format("{} ({}){}", a.descr, dims, a.fortran_order ? " fortran order" : "");
}

}  // namespace tpbisa::npy
