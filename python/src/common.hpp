// Shared pieces of the Python module: the exception classes, borrowed buffers, and the conversions every binding uses.
#pragma once

#include <Python.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tpbisa/expected.hpp"
#include "tpbisa/generation.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::py {

namespace pb = pybind11;

/// The exception classes of the package (created once by the module init).
struct Exceptions {
  PyObject* error = nullptr;  ///< tpbisa.Error, the base of all
  PyObject* input = nullptr;  ///< tpbisa.InputError: bytes, text or files the library refused
  PyObject* usage = nullptr;  ///< tpbisa.UsageError (also a ValueError): an argument that is not accepted
  PyObject* asm_ = nullptr;   ///< tpbisa.AsmError (an InputError): assembly errors, with line and column
  PyObject* neff = nullptr;   ///< tpbisa.NeffError (an InputError): a container that fails a check
};
Exceptions& exceptions();
void register_exceptions(pb::module_& m);

/// Raises `cls(message)` with the attributes given; needs the GIL.
[[noreturn]] void raise(PyObject* cls, const std::string& message, const pb::dict& attrs = {});
/// Raises an InputError for a library Error; `kind` names its ErrorKind.
[[noreturn]] void raise_error(const Error& e);
[[noreturn]] void raise_usage(const std::string& message);
/// Raises a NeffError: "FILE: MEMBER: MESSAGE (check: CODE)", as the command line words it.
[[noreturn]] void raise_neff(const neff::Error& e);

/// A read-only view of any C-contiguous buffer (bytes, bytearray, memoryview, NumPy array): never copied. The
/// exporter is kept alive (and cannot be resized) while the view exists.
class Buffer {
 public:
  explicit Buffer(pb::handle obj);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  std::span<const uint8_t> bytes() const {
    return {static_cast<const uint8_t*>(view_.buf), static_cast<size_t>(view_.len)};
  }

 private:
  Py_buffer view_{};
};

/// An argument that counts (max_steps, offset): an int from 0 to 2**64 - 1 (a bool, a float or a str is not one);
/// a UsageError naming `what` otherwise.
uint64_t count_arg(const pb::handle& value, std::string_view what);
/// A str argument as UTF-8 (a lone surrogate cannot be written: a UsageError naming `what`).
std::string text_arg(const pb::handle& value, std::string_view what);

/// The generation a `gen=` argument names (None: the default, mariana).
Generation parse_gen(const pb::object& gen);
/// `gen=` of validate: one generation, "all", or a list of them (None: `fallback`).
std::vector<Generation> parse_gens(const pb::object& gen, Generation fallback);
/// The engine an `engine=` argument names (pe, act, pool, dve, sp or a NEFF spelling), or nullopt for None.
std::optional<StreamEngine> parse_stream_engine(const pb::object& engine);

/// The validation switches of the command line as keyword arguments (docs/python.md).
ValidateOptions validate_options(bool strict_window, const std::string& dtype_enum, bool symmetric_clamp_arith,
                                 const pb::object& engine);

/// The progress hook of a long run that released the GIL (RunHooks::on_progress, called as often as every word): at
/// most every 20 ms it takes the GIL on the calling thread and runs Python's pending signal handlers; false, with
/// the Python error set (KeyboardInterrupt after Ctrl-C), when one raised. After a run it stopped, the caller throws
/// pb::error_already_set.
std::function<bool(uint64_t)> signal_check();

/// A JSON value as Python objects (dicts keep the JSON's key order).
pb::object to_python(const nlohmann::ordered_json& j);
pb::object to_python(const nlohmann::json& j);

}  // namespace tpbisa::py
