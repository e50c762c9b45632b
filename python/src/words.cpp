// decode, disasm, disasm_lite, asm and validate over words in memory: the library's functions, converted.
#include "words.hpp"

#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "tpbisa/catalog.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/io/decode_json.hpp"
#include "tpbisa/io/validate_stream.hpp"
#include "tpbisa/io/verdict_json.hpp"
#include "tpbisa/neff.hpp"

namespace tpbisa::py {
namespace {

using ojson = nlohmann::ordered_json;

/// The name bytes-like inputs have in messages ("data: 3 trailing bytes at offset 64 ...").
constexpr std::string_view kDataLabel = "data";

std::string_view kind_name(ValueKind k) {
  switch (k) {
    case ValueKind::Unsigned: return "unsigned";
    case ValueKind::Signed: return "signed";
    case ValueKind::Bytes: return "bytes";
  }
  return "unsigned";
}

template <size_t N>
pb::object mode_name(const std::array<EnumValue, N>& table, uint8_t value, Generation g) {
  const EnumValue* row = find_enum(table, value);
  if (row == nullptr || !row->gens.has(g)) return pb::none();
  return pb::str(std::string(row->name));
}

pb::bytes word_bytes(const Word& w) {
  return pb::bytes(reinterpret_cast<const char*>(w.data()), w.size());
}

/// One leaf field: name, offset, size, kind, value (int or bytes), hex, display and meaning.
struct PyField {
  DescribedField f;
};

pb::object field_value(const DescribedField& f) {
  switch (f.kind) {
    case ValueKind::Unsigned: return pb::int_(f.u);
    case ValueKind::Signed: return pb::int_(f.s);
    case ValueKind::Bytes: return pb::bytes(reinterpret_cast<const char*>(f.bytes.data()), f.bytes.size());
  }
  return pb::none();
}

/// A failure of a verdict, read from its JSON object (the single shape of a failure).
struct PyFailure {
  std::string predicate, basis, sentence;
  std::optional<std::string> convention, via;
  pb::list fields;
};

PyFailure failure_from(const ojson& j) {
  PyFailure f;
  f.predicate = j["predicate"].get<std::string>();
  f.basis = j["basis"].get<std::string>();
  f.sentence = j["message"].get<std::string>();
  if (!j["convention"].is_null()) f.convention = j["convention"].get<std::string>();
  if (!j["via"].is_null()) f.via = j["via"].get<std::string>();
  for (const auto& field : j["fields"]) {
    std::string value;
    for (const auto& b : field["value"]) value += static_cast<char>(b.get<uint8_t>());
    pb::dict d;
    d["name"] = field["name"].get<std::string>();
    d["bytes"] = pb::make_tuple(field["bytes"][0].get<unsigned>(), field["bytes"][1].get<unsigned>());
    d["value"] = pb::bytes(value);
    f.fields.append(d);
  }
  return f;
}

/// Iterates a WordSource; each item is an Instruction or, for the lite form, (offset, mnemonic, text).
class WordIterator {
 public:
  WordIterator(std::unique_ptr<io::WordSource> src, std::shared_ptr<void> keep_alive, Generation gen,
               DisasmOptions options, uint64_t base_offset, bool lite)
      : src_(std::move(src)),
        keep_alive_(std::move(keep_alive)),
        gen_(gen),
        options_(options),
        base_(base_offset),
        lite_(lite) {}

  pb::object next() {
    if (done_) throw pb::stop_iteration();
    Word word{};
    switch (src_->next(word)) {
      case io::WordSource::Next::Word: break;
      case io::WordSource::Next::End: done_ = true; throw pb::stop_iteration();
      case io::WordSource::Next::Failed: done_ = true; raise_error(src_->error());
    }
    // A NEFF word is judged on its stream's engine, as the command line judges it.
    if (const io::StreamInfo* s = src_->stream()) options_.validate.engine = s->engine;
    if (!lite_) return pb::cast(make_instruction(*src_, word, gen_, options_, base_));
    const std::span<const uint8_t, kWordBytes> bytes(word);
    const Instruction inst = decode(bytes, gen_);
    return pb::make_tuple(base_ + src_->offset(), pb::str(inst.name().data(), inst.name().size()),
                          disassemble(inst, gen_, options_));
  }

 private:
  std::unique_ptr<io::WordSource> src_;
  std::shared_ptr<void> keep_alive_;
  Generation gen_;
  DisasmOptions options_;
  uint64_t base_;
  bool lite_;
  bool done_ = false;
};

std::shared_ptr<Buffer> borrow(const pb::object& data) {
  return std::make_shared<Buffer>(data);
}

/// disasm's `offset=`: a count that places every byte of the data below 2**64, so no word's offset wraps.
uint64_t base_offset(const pb::object& offset, const Buffer& data) {
  const uint64_t base = count_arg(offset, "offset");
  const uint64_t size = data.bytes().size();
  if (size != 0 && base > UINT64_MAX - size + 1)  // the data's last byte sits at base + size - 1
    raise_usage(fmt::format("offset {} + the data's {} bytes pass 2**64: the words' offsets would wrap", base,
                            data.bytes().size()));
  return base;
}

DisasmOptions disasm_options(bool verdicts, const ValidateOptions& validate) {
  DisasmOptions o;
  o.verdicts = verdicts;
  o.validate = validate;
  return o;
}

pb::bytes assemble_text(const pb::object& source, const pb::object& gen, const std::string& filename) {
  std::string text;
  if (pb::isinstance<pb::str>(source))
    text = text_arg(source, "text");
  else {
    const Buffer b(source);
    text.assign(reinterpret_cast<const char*>(b.bytes().data()), b.bytes().size());
  }
  const Generation g = parse_gen(gen);
  std::optional<Expected<AsmResult>> bounded;
  {
    pb::gil_scoped_release release;
    // The bounds of a .tasm file (bytes, then statements) hold before anything is assembled, as on the command line.
    bounded.emplace(io::assemble_bounded(text, filename, g));
  }
  if (!*bounded) raise_error(bounded->error());
  AsmResult& r = **bounded;
  if (!r.ok()) {
    std::string message =
        fmt::format("{}: {} error{}; nothing assembled", filename, r.error_count, r.error_count == 1 ? "" : "s");
    pb::list errors;
    for (const AsmDiagnostic& d : r.errors) {
      message += '\n' + format_diagnostic(d);
      pb::dict e;
      e["file"] = d.file;
      e["line"] = d.line;
      e["column"] = d.column;
      e["length"] = d.length;
      e["message"] = d.message;
      e["source_line"] = pb::bytes(d.source_line).attr("decode")("utf-8", "replace");
      errors.append(e);
    }
    const AsmDiagnostic& first = r.errors.front();
    pb::dict attrs;
    attrs["line"] = first.line;
    attrs["column"] = first.column;
    attrs["filename"] = filename;
    attrs["errors"] = errors;
    attrs["error_count"] = r.error_count;
    attrs["kind"] = "invalid";
    raise(exceptions().asm_, message, attrs);
  }
  std::string out;
  out.reserve(r.words.size() * kWordBytes);
  for (const Word& w : r.words) out.append(reinterpret_cast<const char*>(w.data()), w.size());
  return pb::bytes(out);
}

/// Collects what the streaming validator hands out as the JSON of `tpbisa validate --json` (no Python objects: it
/// runs without the GIL).
class JsonResults final : public io::ValidateObserver {
 public:
  void begin_input(const io::WordSource&, std::span<const Generation>) override {}
  void word(const io::WordSource& src, const io::JudgedWord& j) override {
    results.push_back(io::judged_word_json(src, j));
  }
  std::vector<ojson> results;
};

/// The names an argument gives: None, one str, or an iterable of them.
std::vector<std::string> names_of(const pb::object& v) {
  std::vector<std::string> out;
  if (v.is_none()) return out;
  if (pb::isinstance<pb::str>(v)) return {v.cast<std::string>()};
  for (const pb::handle item : v) out.emplace_back(pb::str(item));
  return out;
}

/// validate_stream: the command line's streaming validator over a file (a NEFF's streams included) or bytes.
pb::object validate_stream(const pb::object& source, const pb::object& gen, const pb::object& jobs, bool failing_only,
                           const pb::object& subgraph, const pb::object& engine, bool strict_window,
                           const std::string& dtype_enum, bool symmetric_clamp_arith) {
  io::StreamValidateOptions vo;
  if (!gen.is_none()) vo.gens = parse_gens(gen, kDefaultGeneration);
  vo.validate = validate_options(strict_window, dtype_enum, symmetric_clamp_arith, pb::none());
  vo.failing_only = failing_only;
  vo.jobs = io::default_validate_jobs();
  if (!jobs.is_none()) {
    const long long n = jobs.cast<long long>();
    if (n < 1 || n > io::kMaxValidateJobs)
      raise_usage(fmt::format("jobs {} is out of range 1..{}", n, io::kMaxValidateJobs));
    vo.jobs = static_cast<unsigned>(n);
  }
  io::InputOptions in;
  in.gen = vo.gens.empty() ? kDefaultGeneration : vo.gens.front();
  in.neff = true;
  in.subgraphs = names_of(subgraph);
  for (const std::string& e : names_of(engine)) in.engines.push_back(*parse_stream_engine(pb::str(e)));
  // One engine is also the engine plain words run on (the command line's --engine).
  if (in.engines.size() == 1) vo.validate.engine = in.engines.front();
  std::unique_ptr<Buffer> bytes;
  std::unique_ptr<io::WordSource> src;
  if (pb::isinstance<pb::str>(source) || pb::hasattr(source, "__fspath__")) {
    src = io::open_input(pb::str(pb::module_::import("os").attr("fspath")(source)), in);
  } else {
    if (!in.subgraphs.empty()) raise_usage("subgraph selects streams of a NEFF file, not of bytes");
    bytes = std::make_unique<Buffer>(source);
    src = io::open_bytes(bytes->bytes(), std::string(kDataLabel));
  }
  JsonResults results;
  io::StreamValidator validator(vo);
  io::StreamValidator::Ended ended{};
  {
    pb::gil_scoped_release release;
    ended = validator.validate(*src, results);
  }
  if (ended == io::StreamValidator::Ended::Failed) raise_error(src->error());
  pb::list list;
  for (const ojson& r : results.results) list.append(to_python(r));
  pb::dict out;
  out["results"] = list;
  out["summary"] = to_python(io::validate_summary_json(validator.summary()));
  return pb::object(std::move(out));
}

}  // namespace

std::string word_label(const io::WordSource& src) {
  if (const io::StreamInfo* s = src.stream()) return fmt::format("{}#{}", s->label, src.index());
  return fmt::format("#{}", src.index());
}

PyInstruction make_instruction(const io::WordSource& src, const Word& word, Generation gen,
                               const DisasmOptions& options, uint64_t base_offset) {
  PyInstruction p;
  p.word = word;
  p.inst = decode(std::span<const uint8_t, kWordBytes>(p.word), gen);
  p.index = src.index();
  p.offset = base_offset + src.offset();
  p.label = word_label(src);
  if (const io::StreamInfo* s = src.stream()) p.stream = s->label;
  p.options = options;
  p.source = io::word_source(src, src.index());
  return p;
}

ojson verdict_document(const PyVerdict& v) {
  const Instruction inst = decode(std::span<const uint8_t, kWordBytes>(v.word), v.verdict.gen);
  return io::verdict_json(v.verdict, inst, v.options);
}

pb::object judge_all(io::WordSource& src, const std::vector<Generation>& gens, const ValidateOptions& options,
                     bool several) {
  std::vector<PyVerdict> judged;
  bool failed = false;
  {
    pb::gil_scoped_release release;
    ValidateOptions o = options;
    Word word{};
    for (;;) {
      const auto next = src.next(word);
      if (next == io::WordSource::Next::End) break;
      if (next == io::WordSource::Next::Failed) {
        failed = true;
        break;
      }
      if (const io::StreamInfo* s = src.stream()) o.engine = s->engine;
      const std::string label = word_label(src);
      const std::string stream = src.stream() != nullptr ? src.stream()->label : std::string();
      for (Generation g : gens) {
        PyVerdict v;
        v.word = word;
        v.verdict = validate(decode(std::span<const uint8_t, kWordBytes>(word), g), g, o);
        v.options = o;
        v.index = src.index();
        v.offset = src.offset();
        v.label = label;
        v.stream = stream;
        judged.push_back(std::move(v));
      }
    }
  }
  if (failed) raise_error(src.error());
  pb::list out;
  if (!several) {
    for (PyVerdict& v : judged) out.append(pb::cast(std::move(v)));
    return pb::object(std::move(out));
  }
  for (size_t i = 0; i < judged.size(); i += gens.size()) {
    pb::dict per;
    for (size_t k = 0; k < gens.size(); ++k)
      per[pb::str(std::string(to_string(gens[k])))] = pb::cast(std::move(judged[i + k]));
    out.append(per);
  }
  return pb::object(std::move(out));
}

pb::object word_iterator(std::unique_ptr<io::WordSource> src, std::shared_ptr<void> keep_alive, Generation gen,
                         DisasmOptions options, uint64_t base_offset, bool lite) {
  return pb::cast(WordIterator(std::move(src), std::move(keep_alive), gen, options, base_offset, lite));
}

void bind_words(pb::module_& m) {
  pb::class_<PyField>(m, "Field", "One leaf field of a decoded word (tpbisa decode's field rows).")
      .def_property_readonly("name", [](const PyField& f) { return f.f.name; })
      .def_property_readonly("offset", [](const PyField& f) { return f.f.offset; })
      .def_property_readonly("size", [](const PyField& f) { return f.f.size; })
      .def_property_readonly("kind", [](const PyField& f) { return std::string(kind_name(f.f.kind)); })
      .def_property_readonly("value", [](const PyField& f) { return field_value(f.f); })
      .def_property_readonly("hex", [](const PyField& f) { return format_hex(f.f); })
      .def_property_readonly("display", [](const PyField& f) { return format_value(f.f); })
      .def_property_readonly("meaning", [](const PyField& f) { return f.f.meaning; })
      .def("__repr__", [](const PyField& f) {
        return fmt::format("<Field {} @{}+{} = {}{}>", f.f.name, f.f.offset, f.f.size, format_value(f.f),
                           f.f.meaning.empty() ? "" : " (" + f.f.meaning + ")");
      });

  pb::class_<PyInstruction>(m, "Instruction", "A decoded 64-byte word (tpbisa decode / disasm).")
      .def_property_readonly("opcode", [](const PyInstruction& p) { return p.inst.opcode(); })
      .def_property_readonly("name", [](const PyInstruction& p) { return std::string(p.inst.name()); })
      .def_property_readonly("mnemonic", [](const PyInstruction& p) { return std::string(p.inst.name()); })
      .def_property_readonly("format", [](const PyInstruction& p) { return std::string(p.inst.format_name()); })
      .def_property_readonly("status",
                             [](const PyInstruction& p) { return std::string(io::decode_status_name(p.inst.status)); })
      .def_property_readonly("note",
                             [](const PyInstruction& p) -> pb::object {
                               if (p.inst.status == DecodeStatus::Modeled) return pb::none();
                               return pb::str(io::decode_status_note(p.inst));
                             })
      .def_property_readonly("generation", [](const PyInstruction& p) { return std::string(to_string(p.inst.gen)); })
      .def_property_readonly("word", [](const PyInstruction& p) { return word_bytes(p.word); })
      .def_property_readonly("index", [](const PyInstruction& p) { return p.index; })
      .def_property_readonly("offset", [](const PyInstruction& p) { return p.offset; })
      .def_property_readonly("label", [](const PyInstruction& p) { return p.label; })
      .def_property_readonly("stream",
                             [](const PyInstruction& p) -> pb::object {
                               if (p.stream.empty()) return pb::none();
                               return pb::str(p.stream);
                             })
      .def_property_readonly("header",
                             [](const PyInstruction& p) {
                               const Header& h = p.inst.header();
                               pb::dict d;
                               d["opcode"] = h.opcode;
                               d["inst_word_len"] = h.inst_word_len;
                               d["debug_cmd"] = h.debug_cmd;
                               d["debug_hint"] = h.debug_hint;
                               return d;
                             })
      .def_property_readonly("events", [](const PyInstruction& p) { return render_instruction_events(p.inst); })
      .def_property_readonly("events_fields",
                             [](const PyInstruction& p) -> pb::object {
                               if (!p.inst.carries_events()) return pb::none();  // COMPACT_CONTROL_INST
                               const Events& e = p.inst.events();
                               const Generation g = p.inst.gen;
                               pb::dict d;
                               d["wait_mode"] = e.wait_mode;
                               d["wait_mode_name"] = mode_name(kWaitModes, e.wait_mode, g);
                               d["wait_idx"] = e.wait_idx;
                               d["update_mode"] = e.update_mode;
                               d["update_mode_name"] = mode_name(kUpdateModes, e.update_mode, g);
                               d["update_idx"] = e.update_idx;
                               d["semaphore_value"] = e.semaphore_value;
                               d["text"] = render_events(e, g);
                               d["text_exact"] = events_render_exact(e, g);
                               return d;
                             })
      .def_property_readonly("fields",
                             [](const PyInstruction& p) {
                               pb::list out;
                               for (DescribedField& f : describe_fields(p.inst)) out.append(PyField{std::move(f)});
                               return out;
                             })
      .def_property_readonly("text", [](const PyInstruction& p) { return disassemble(p.inst, p.inst.gen, p.options); })
      .def_property_readonly("source",
                             [](const PyInstruction& p) -> pb::object {
                               if (!p.source) return pb::none();
                               return to_python(io::source_json(*p.source));
                             })
      .def(
          "validate",
          [](const PyInstruction& p, const pb::object& gen, bool strict_window, const std::string& dtype_enum,
             bool symmetric_clamp_arith, const pb::object& engine) {
            PyVerdict v;
            v.word = p.word;
            v.options = validate_options(strict_window, dtype_enum, symmetric_clamp_arith, engine);
            if (engine.is_none()) v.options.engine = p.options.validate.engine;
            const Generation g = gen.is_none() ? p.inst.gen : parse_gen(gen);
            v.verdict = validate(decode(std::span<const uint8_t, kWordBytes>(p.word), g), g, v.options);
            v.index = p.index;
            v.offset = p.offset;
            v.label = p.label;
            v.stream = p.stream;
            return v;
          },
          pb::arg("gen") = pb::none(), pb::kw_only(), pb::arg("strict_window") = false,
          pb::arg("dtype_enum") = "header", pb::arg("symmetric_clamp_arith") = true, pb::arg("engine") = pb::none(),
          "Validates this word (on its generation unless gen= names another).")
      .def("__repr__", [](const PyInstruction& p) {
        return fmt::format("<Instruction {} {:#04x} {}>", p.label, p.inst.opcode(), p.inst.name());
      });

  pb::class_<PyFailure>(m, "Failure", "A failing predicate: its name, basis, convention, the fields read, a sentence.")
      .def_readonly("predicate", &PyFailure::predicate)
      .def_readonly("basis", &PyFailure::basis)
      .def_readonly("convention", &PyFailure::convention)
      .def_readonly("via", &PyFailure::via)
      .def_readonly("fields", &PyFailure::fields)
      .def_readonly("sentence", &PyFailure::sentence)
      .def("__repr__", [](const PyFailure& f) { return fmt::format("<Failure {}: {}>", f.predicate, f.sentence); });

  pb::class_<PyVerdict>(m, "Verdict", "One word judged on one generation (tpbisa validate --json's verdict).")
      .def_property_readonly("valid", [](const PyVerdict& v) { return v.verdict.valid; })
      .def_property_readonly("checked", [](const PyVerdict& v) { return std::string(to_string(v.verdict.checked)); })
      .def_property_readonly("generation", [](const PyVerdict& v) { return std::string(to_string(v.verdict.gen)); })
      .def_property_readonly("validator",
                             [](const PyVerdict& v) -> pb::object {
                               if (v.verdict.validator == nullptr) return pb::none();
                               return pb::str(std::string(v.verdict.validator->name));
                             })
      .def_property_readonly("truncated", [](const PyVerdict& v) { return v.verdict.truncated; })
      .def_property_readonly("failed",
                             [](const PyVerdict& v) {
                               std::vector<std::string> names;
                               for (const Predicate* p : v.verdict.failures()) names.emplace_back(p->name);
                               return names;
                             })
      .def_property_readonly("failures",
                             [](const PyVerdict& v) {
                               pb::list out;
                               if (v.verdict.valid) return out;
                               const ojson doc = verdict_document(v);  // alive while its failures are read
                               for (const auto& f : doc["failed"]) out.append(failure_from(f));
                               return out;
                             })
      .def_property_readonly("index", [](const PyVerdict& v) { return v.index; })
      .def_property_readonly("offset", [](const PyVerdict& v) { return v.offset; })
      .def_property_readonly("label", [](const PyVerdict& v) { return v.label; })
      .def_property_readonly("stream",
                             [](const PyVerdict& v) -> pb::object {
                               if (v.stream.empty()) return pb::none();
                               return pb::str(v.stream);
                             })
      .def_property_readonly("opcode", [](const PyVerdict& v) { return v.word[0]; })
      .def_property_readonly(
          "name",
          [](const PyVerdict& v) {
            return std::string(decode(std::span<const uint8_t, kWordBytes>(v.word), v.verdict.gen).name());
          })
      .def_property_readonly("word", [](const PyVerdict& v) { return word_bytes(v.word); })
      .def(
          "to_dict", [](const PyVerdict& v) { return to_python(verdict_document(v)); },
          "The verdict object of tpbisa validate --json, as Python values.")
      .def("__bool__", [](const PyVerdict& v) { return v.verdict.valid; })
      .def("__repr__", [](const PyVerdict& v) {
        std::string failed;
        for (const Predicate* p : v.verdict.failures()) failed += (failed.empty() ? "" : ", ") + std::string(p->name);
        return fmt::format(
            "<Verdict {} on {}: {}{}>", v.label, to_string(v.verdict.gen),
            v.verdict.valid ? (v.verdict.checked == Checked::HeaderOnly ? "valid (header only)" : "valid") : "INVALID",
            failed.empty() ? "" : " " + failed);
      });

  pb::class_<WordIterator>(m, "_WordIterator")
      .def("__iter__", [](pb::object self) { return self; })
      .def("__next__", &WordIterator::next);

  m.def(
      "decode",
      [](const pb::object& data, const pb::object& gen) {
        const Buffer b(data);
        if (b.bytes().size() != kWordBytes)
          raise_usage(fmt::format("decode takes one 64-byte word, not {} bytes (disasm reads a stream of words)",
                                  b.bytes().size()));
        auto src = io::open_bytes(b.bytes(), std::string(kDataLabel));
        Word word{};
        if (src->next(word) != io::WordSource::Next::Word) raise_error(src->error());
        return make_instruction(*src, word, parse_gen(gen), {}, 0);
      },
      pb::arg("data"), pb::arg("gen") = pb::none(),
      "Decodes one 64-byte word (never fails on its content: unknown opcodes decode as 'unknown').");

  m.def(
      "disasm",
      [](const pb::object& data, const pb::object& gen, const pb::object& offset, bool verdicts, bool strict_window,
         const std::string& dtype_enum, bool symmetric_clamp_arith, const pb::object& engine) {
        auto buffer = borrow(data);
        const uint64_t base = base_offset(offset, *buffer);
        const ValidateOptions vo = validate_options(strict_window, dtype_enum, symmetric_clamp_arith, engine);
        auto src = io::open_bytes(buffer->bytes(), std::string(kDataLabel));
        return word_iterator(std::move(src), buffer, parse_gen(gen), disasm_options(verdicts, vo), base, false);
      },
      pb::arg("data"), pb::arg("gen") = pb::none(), pb::arg("offset") = 0, pb::kw_only(), pb::arg("verdicts") = true,
      pb::arg("strict_window") = false, pb::arg("dtype_enum") = "header", pb::arg("symmetric_clamp_arith") = true,
      pb::arg("engine") = pb::none(),
      "Iterates the words of data as Instruction objects (the bytes are read in place, not copied).");

  m.def(
      "disasm_lite",
      [](const pb::object& data, const pb::object& gen, const pb::object& offset, bool verdicts, bool strict_window,
         const std::string& dtype_enum, bool symmetric_clamp_arith, const pb::object& engine) {
        auto buffer = borrow(data);
        const uint64_t base = base_offset(offset, *buffer);
        const ValidateOptions vo = validate_options(strict_window, dtype_enum, symmetric_clamp_arith, engine);
        auto src = io::open_bytes(buffer->bytes(), std::string(kDataLabel));
        return word_iterator(std::move(src), buffer, parse_gen(gen), disasm_options(verdicts, vo), base, true);
      },
      pb::arg("data"), pb::arg("gen") = pb::none(), pb::arg("offset") = 0, pb::kw_only(), pb::arg("verdicts") = true,
      pb::arg("strict_window") = false, pb::arg("dtype_enum") = "header", pb::arg("symmetric_clamp_arith") = true,
      pb::arg("engine") = pb::none(), "Iterates (offset, mnemonic, text) tuples: disasm without the objects.");

  m.def("asm", &assemble_text, pb::arg("text"), pb::arg("gen") = pb::none(), pb::kw_only(),
        pb::arg("filename") = "<string>",
        "Assembles a source text (str or bytes) into its words; errors raise AsmError.");

  m.def("validate_stream", &validate_stream, pb::arg("source"), pb::arg("gen") = pb::none(), pb::kw_only(),
        pb::arg("jobs") = pb::none(), pb::arg("failing_only") = true, pb::arg("subgraph") = pb::none(),
        pb::arg("engine") = pb::none(), pb::arg("strict_window") = false, pb::arg("dtype_enum") = "header",
        pb::arg("symmetric_clamp_arith") = true,
        "Streams a file (a NEFF's streams included) or bytes through the command line's validator: the document of "
        "tpbisa validate --json (--quiet when failing_only), the same for every jobs count.");

  m.def(
      "validate",
      [](const pb::object& data, const pb::object& gen, bool strict_window, const std::string& dtype_enum,
         bool symmetric_clamp_arith, const pb::object& engine) {
        const Buffer b(data);
        const ValidateOptions vo = validate_options(strict_window, dtype_enum, symmetric_clamp_arith, engine);
        const std::vector<Generation> gens = parse_gens(gen, kDefaultGeneration);
        const bool several = !gen.is_none() && !(pb::isinstance<pb::str>(gen) && gens.size() == 1);
        auto src = io::open_bytes(b.bytes(), std::string(kDataLabel));
        return judge_all(*src, gens, vo, several);
      },
      pb::arg("data"), pb::arg("gen") = pb::none(), pb::kw_only(), pb::arg("strict_window") = false,
      pb::arg("dtype_enum") = "header", pb::arg("symmetric_clamp_arith") = true, pb::arg("engine") = pb::none(),
      "Validates every word: a list of Verdict for one generation, of {generation: Verdict} for 'all' or a list.");
}

}  // namespace tpbisa::py
