// The exception classes, borrowed buffers and argument conversions shared by every binding.
#include "common.hpp"

#include <chrono>

#include <fmt/format.h>

#include "tpbisa/catalog.hpp"
#include "tpbisa/io/neff_text.hpp"
#include "tpbisa/io/words.hpp"

namespace tpbisa::py {

Exceptions& exceptions() {
  static Exceptions e;
  return e;
}

namespace {

PyObject* new_exception(pb::module_& m, const char* name, PyObject* bases, const char* doc) {
  const std::string qualified = fmt::format("tpbisa.{}", name);
  PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases, nullptr);
  if (cls == nullptr) throw pb::error_already_set();
  m.add_object(name, pb::handle(cls));
  return cls;
}

template <class J>
pb::object json_to_python(const J& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null: return pb::none();
    case nlohmann::json::value_t::boolean: return pb::bool_(j.template get<bool>());
    case nlohmann::json::value_t::number_integer: return pb::int_(j.template get<int64_t>());
    case nlohmann::json::value_t::number_unsigned: return pb::int_(j.template get<uint64_t>());
    case nlohmann::json::value_t::number_float: return pb::float_(j.template get<double>());
    case nlohmann::json::value_t::string: return pb::str(j.template get_ref<const std::string&>());
    case nlohmann::json::value_t::array: {
      pb::list out;
      for (const auto& v : j) out.append(json_to_python(v));
      return pb::object(std::move(out));
    }
    case nlohmann::json::value_t::object: {
      pb::dict out;
      for (auto it = j.begin(); it != j.end(); ++it) out[pb::str(it.key())] = json_to_python(it.value());
      return pb::object(std::move(out));
    }
    case nlohmann::json::value_t::binary:
    case nlohmann::json::value_t::discarded: break;
  }
  return pb::none();
}

}  // namespace

std::function<bool(uint64_t)> signal_check() {
  using Clock = std::chrono::steady_clock;
  return [next = Clock::now()](uint64_t) mutable {
    if (Clock::now() < next) return true;
    next = Clock::now() + std::chrono::milliseconds(20);
    const pb::gil_scoped_acquire gil;
    return PyErr_CheckSignals() == 0;
  };
}

void register_exceptions(pb::module_& m) {
  Exceptions& e = exceptions();
  e.error = new_exception(m, "Error", PyExc_Exception, "Base of every error the tpbisa library reports.");
  e.input = new_exception(m, "InputError", e.error,
                          "Bytes, text or a file the library refused; the message names the input and the place.");
  PyObject* usage_bases = PyTuple_Pack(2, e.error, PyExc_ValueError);
  e.usage = new_exception(m, "UsageError", usage_bases, "An argument the library does not accept (also a ValueError).");
  Py_DECREF(usage_bases);
  e.asm_ = new_exception(m, "AsmError", e.input,
                         "Assembly errors: .line and .column of the first, .errors with every one kept.");
  e.neff = new_exception(m, "NeffError", e.input, "A NEFF container that fails a check: .check names it.");
}

void raise(PyObject* cls, const std::string& message, const pb::dict& attrs) {
  pb::object error = pb::reinterpret_borrow<pb::object>(cls)(message);
  for (const auto& [key, value] : attrs) pb::setattr(error, key, value);
  PyErr_SetObject(cls, error.ptr());
  throw pb::error_already_set();
}

void raise_error(const Error& e) {
  pb::dict attrs;
  attrs["kind"] = std::string(to_string(e.kind));
  raise(exceptions().input, e.message, attrs);
}

void raise_usage(const std::string& message) {
  raise(exceptions().usage, message);
}

void raise_neff(const neff::Error& e) {
  pb::dict attrs;
  attrs["check"] = std::string(neff::to_string(e.code));
  attrs["file"] = neff::escape_text(e.file, false);  // names are bytes; a Python str is UTF-8
  attrs["member"] = neff::escape_text(e.member, false);
  raise(exceptions().neff, io::neff_read_error(e).message, attrs);  // worded as the command line words it
}

Buffer::Buffer(pb::handle obj) {
  if (PyObject_GetBuffer(obj.ptr(), &view_, PyBUF_C_CONTIGUOUS) != 0) {
    PyErr_Clear();
    view_.obj = nullptr;
    raise_usage(
        fmt::format("data must be a C-contiguous bytes-like object (bytes, bytearray, memoryview, NumPy array), not {}",
                    std::string(pb::str(obj.get_type().attr("__name__")))));
  }
}

Buffer::~Buffer() {
  if (view_.obj != nullptr) PyBuffer_Release(&view_);
}

uint64_t count_arg(const pb::handle& value, std::string_view what) {
  const auto refuse = [&] {
    raise_usage(fmt::format("{} must be an int from 0 to {}, not {}", what, UINT64_MAX,
                            std::string(pb::repr(value)).substr(0, 80)));
  };
  if (!PyLong_Check(value.ptr()) || PyBool_Check(value.ptr())) refuse();
  const unsigned long long v = PyLong_AsUnsignedLongLong(value.ptr());
  if (v == static_cast<unsigned long long>(-1) && PyErr_Occurred() != nullptr) {
    PyErr_Clear();  // negative, or past 64 bits
    refuse();
  }
  return static_cast<uint64_t>(v);
}

std::string text_arg(const pb::handle& value, std::string_view what) {
  Py_ssize_t size = 0;
  const char* utf8 = PyUnicode_AsUTF8AndSize(value.ptr(), &size);
  if (utf8 == nullptr) {
    const pb::error_already_set why;  // UnicodeEncodeError: where and what
    raise_usage(fmt::format("{} cannot be read as UTF-8: {}", what, why.what()));
  }
  return {utf8, static_cast<size_t>(size)};
}

Generation parse_gen(const pb::object& gen) {
  if (gen.is_none()) return kDefaultGeneration;
  if (!pb::isinstance<pb::str>(gen)) raise_usage("gen must be a generation name (sunda, cayman, mariana, maverick)");
  const std::string text = gen.cast<std::string>();
  const auto g = parse_generation(text);
  if (!g) raise_usage(fmt::format("gen '{}' is not a generation (sunda|cayman|mariana|maverick or v2..v5)", text));
  return *g;
}

std::vector<Generation> parse_gens(const pb::object& gen, Generation fallback) {
  if (gen.is_none()) return {fallback};
  if (pb::isinstance<pb::str>(gen)) {
    const std::string text = gen.cast<std::string>();
    if (text == "all" || text == "ALL" || text == "All") return {kAllGenerations.begin(), kAllGenerations.end()};
    return {parse_gen(gen)};
  }
  std::vector<Generation> gens;
  for (const pb::handle item : gen) {
    const Generation g = parse_gen(pb::reinterpret_borrow<pb::object>(item));
    for (Generation seen : gens)
      if (seen == g) raise_usage(fmt::format("gen lists {} twice", to_string(g)));
    gens.push_back(g);
  }
  if (gens.empty()) raise_usage("gen names no generation");
  return gens;
}

std::optional<StreamEngine> parse_stream_engine(const pb::object& engine) {
  if (engine.is_none()) return std::nullopt;
  const std::string text = pb::str(engine);
  const auto e = neff::parse_engine(text);
  if (!e) raise_usage(fmt::format("engine '{}' is not an engine (pe, act, pool, dve, sp)", text));
  return *e;
}

ValidateOptions validate_options(bool strict_window, const std::string& dtype_enum, bool symmetric_clamp_arith,
                                 const pb::object& engine) {
  ValidateOptions o;
  o.strict_window = strict_window;
  if (dtype_enum == "runtime")
    o.dtype_enum_runtime = true;
  else if (dtype_enum != "header")
    raise_usage(fmt::format("dtype_enum '{}' is not a reading (expected header or runtime)", dtype_enum));
  o.symmetric_clamp_general_arith = symmetric_clamp_arith;
  o.engine = parse_stream_engine(engine);
  return o;
}

pb::object to_python(const nlohmann::ordered_json& j) {
  return json_to_python(j);
}
pb::object to_python(const nlohmann::json& j) {
  return json_to_python(j);
}

}  // namespace tpbisa::py
