// Errors as values: one closed error enum, an Error that names what and where, and Expected<T> results.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace tpbisa {

/// What kind of failure an Error is; the command line maps each to its documented exit code.
enum class ErrorKind : uint8_t {
  Syntax,     ///< text that does not follow its grammar (a location, a dump spec, a number)
  Range,      ///< a well-formed value outside what the generation or the format allows
  Open,       ///< a file cannot be opened or created
  Read,       ///< reading failed (an I/O error, a directory)
  Write,      ///< writing failed (a full disk, a closed pipe)
  TooLarge,   ///< an input beyond its documented bound
  Malformed,  ///< bytes that are not a document of the expected kind (JSON that does not parse, partial words)
  Invalid,    ///< a well-formed document that breaks its schema (an unknown key, a bad value)
  Refused,    ///< an operation the policy forbids (the input named as the output, a dangling symlink)
};

std::string_view to_string(ErrorKind k);

/// A failure: its kind and one line that names the input, the place in it and what is wrong.
struct Error {
  ErrorKind kind = ErrorKind::Invalid;
  std::string message;
};

/// A value or the Error that prevented it. No exceptions: check ok() before value().
template <class T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : v_(std::in_place_index<0>, std::move(value)) {}      // NOLINT: implicit by design
  Expected(Error error) : v_(std::in_place_index<1>, std::move(error)) {}  // NOLINT
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

/// Success without a value, or an Error.
template <>
class [[nodiscard]] Expected<void> {
 public:
  Expected() = default;
  Expected(Error error) : error_(std::move(error)), failed_(true) {}  // NOLINT: implicit by design
  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const Error& error() const { return error_; }

 private:
  Error error_;
  bool failed_ = false;
};

}  // namespace tpbisa
