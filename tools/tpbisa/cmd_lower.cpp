// `tpbisa lower`: streams IN through lower_pseudo() into a temporary file renamed to OUT only when every word
// lowered (PROJ-CONV-M8: never a partial output), then validates each lowered word.
#include "cmd_lower.hpp"

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "exit_codes.hpp"
#include "io.hpp"
#include "json_input.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/lower.hpp"
#include "verdict_print.hpp"

namespace tpbisa::cli {
namespace {

struct LowerCliOptions {
  std::string vars;
  std::string in;
  std::string out;
  std::optional<Generation> gen;
  bool json = false;
  ValidateOptions options;
};

/// The output being written: a temporary file beside OUT (renamed onto OUT by commit), or, for "-", an
/// anonymous temporary file copied to stdout by commit. Removed unless committed.
class PendingOutput {
 public:
  explicit PendingOutput(std::string out) : out_(std::move(out)) {}
  ~PendingOutput() {
    if (file_ != nullptr) std::fclose(file_);
    if (!tmp_path_.empty()) ::unlink(tmp_path_.c_str());
  }
  PendingOutput(const PendingOutput&) = delete;
  PendingOutput& operator=(const PendingOutput&) = delete;

  bool open(std::string& error) {
    if (out_ == "-") {
      file_ = std::tmpfile();
      if (file_ == nullptr) error = fmt::format("<stdout>: cannot create a temporary file: {}", std::strerror(errno));
      return file_ != nullptr;
    }
    const size_t slash = out_.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : out_.substr(0, slash);
    const std::string base = slash == std::string::npos ? out_ : out_.substr(slash + 1);
    std::string tmpl = fmt::format("{}/.{}.tpbisa-XXXXXX", dir, base);
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0) {
      error = fmt::format("{}: cannot create a temporary file in {}: {}", out_, dir, std::strerror(errno));
      return false;
    }
    tmp_path_ = tmpl;
    // mkstemp creates 0600; give OUT the permissions a newly created file would have.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    (void)::fchmod(fd, 0666 & ~mask);
    file_ = ::fdopen(fd, "wb");
    if (file_ == nullptr) {
      error = fmt::format("{}: cannot open a temporary file: {}", out_, std::strerror(errno));
      ::close(fd);
      return false;
    }
    return true;
  }

  bool write(const Word& w) { return std::fwrite(w.data(), 1, w.size(), file_) == w.size(); }

  std::string write_error() const {
    return fmt::format("{}: write error: {}", out_ == "-" ? "<stdout>" : out_, std::strerror(errno));
  }

  bool commit(std::string& error) {
    if (out_ == "-") {
      std::rewind(file_);
      std::array<char, 65536> buf{};
      size_t got = 0;
      while ((got = std::fread(buf.data(), 1, buf.size(), file_)) > 0)
        if (std::fwrite(buf.data(), 1, got, stdout) != got) break;
      if (std::fflush(stdout) != 0 || std::ferror(file_) != 0 || std::ferror(stdout) != 0) {
        error = write_error();
        return false;
      }
      return true;
    }
    const bool flushed = std::fflush(file_) == 0 && std::ferror(file_) == 0;
    const int closed = std::fclose(file_);
    file_ = nullptr;
    if (!flushed || closed != 0) {
      error = write_error();
      return false;
    }
    if (std::rename(tmp_path_.c_str(), out_.c_str()) != 0) {
      error = fmt::format("{}: cannot replace: {}", out_, std::strerror(errno));
      return false;
    }
    tmp_path_.clear();
    return true;
  }

 private:
  std::string out_;
  std::string tmp_path_;
  std::FILE* file_ = nullptr;
};

struct Counts {
  uint64_t words = 0, lowered = 0, copied = 0, invalid = 0;
};

/// Reports as it goes: text lines, or one JSON document; to stderr when OUT is stdout.
class LowerReport {
 public:
  LowerReport(const LowerCliOptions& o, Generation gen, std::FILE* to) : o_(o), gen_(gen), to_(to) {
    if (o_.json)
      fmt::print(to_, "{{\"input\": {}, \"output\": {}, \"generation\": \"{}\", \"lowered\": [",
                 dump_json(input_label(o_.in)), dump_json(o_.out == "-" ? "<stdout>" : o_.out), to_string(gen_));
  }

  void lowered(const WordSource& src, uint8_t pseudo_opcode, const LowerResult& r, const Instruction& inst,
               const Verdict& v) {
    if (o_.json) {
      const ojson j{{"index", src.index()},
                    {"offset", src.offset()},
                    {"pseudo_opcode", fmt::format("{:#04x}", pseudo_opcode)},
                    {"opcode", fmt::format("{:#04x}", r.word[0])},
                    {"name", inst.name()},
                    {"var_id", r.var_id},
                    {"var_offset", r.var_offset},
                    {"start_addr", fmt::format("{:#x}", load_le<uint64_t>(&r.word[16]))},
                    {"verdict", verdict_json(v, inst, o_.options)}};
      fmt::print(to_, "{}\n{}", count_ == 0 ? "" : ",", dump_json(j));
      ++count_;
      return;
    }
    std::string line = fmt::format("#{} {:#x} {:#04x} -> {:#04x} {}  var {} + {:#x} = {:#x}  {}\n", src.index(),
                                   src.offset(), pseudo_opcode, r.word[0], inst.name(), r.var_id, r.var_offset,
                                   load_le<uint64_t>(&r.word[16]), verdict_word(v));
    if (!v.valid) line += failure_lines(v, inst, o_.options, "    ");
    std::fputs(line.c_str(), to_);
  }
  void finish(const Counts& c, const ojson& error) {
    if (o_.json) {
      const ojson summary{{"words", c.words}, {"lowered", c.lowered}, {"copied", c.copied}, {"invalid", c.invalid}};
      fmt::print(to_, "{}],\n\"summary\": {}", count_ == 0 ? "" : "\n", dump_json(summary));
      if (!error.is_null()) fmt::print(to_, ",\n\"error\": {}", dump_json(error));
      fmt::print(to_, "}}\n");
    } else if (error.is_null()) {
      fmt::print(to_, "{} word{}: {} lowered, {} copied; {} lowered word{} invalid on {}\n", c.words,
                 c.words == 1 ? "" : "s", c.lowered, c.copied, c.invalid, c.invalid == 1 ? "" : "s", to_string(gen_));
    }
    std::fflush(to_);
  }

 private:
  const LowerCliOptions& o_;
  Generation gen_;
  std::FILE* to_;
  uint64_t count_ = 0;
};

int run_lower(const LowerCliOptions& o) {
  const Generation gen = o.gen.value_or(kDefaultGeneration);
  if (o.in == "-" && o.vars == "-") return usage_error("lower", "IN and --vars cannot both be stdin");
  std::string error;
  VarTable vars;
  if (!load_vars(o.vars, vars, error)) {
    report_error(error);
    return kExitInput;
  }
  PendingOutput out(o.out);
  if (!out.open(error)) {
    report_error(error);
    return kExitInput;
  }
  LowerReport report(o, gen, o.out == "-" ? stderr : stdout);
  FileWords src(o.in);
  Counts c;
  Word word{};
  const auto input_error = [&](const std::string& message) {
    report.finish(
        c, ojson{{"input", src.label()}, {"index", src.index()}, {"offset", src.offset()}, {"message", message}});
    report_error(message);
    return kExitInput;
  };
  for (;;) {
    const WordSource::Next next = src.next(word);
    if (next == WordSource::Next::End) break;
    if (next == WordSource::Next::Failed) return input_error(src.error());
    const LowerResult r = lower_pseudo(word, vars);
    if (!r.ok())
      return input_error(fmt::format("{}: instruction {} (offset {}): {}; nothing written to {}", src.label(),
                                     src.index(), src.offset(), r.message, o.out == "-" ? "<stdout>" : o.out));
    ++c.words;
    if (r.status == LowerStatus::Lowered) {
      ++c.lowered;
      const Instruction inst = decode(std::span<const uint8_t, kWordBytes>(r.word), gen);
      const Verdict v = validate(inst, gen, o.options);
      if (!v.valid) ++c.invalid;
      report.lowered(src, word[0], r, inst, v);
    } else {
      ++c.copied;
    }
    if (!out.write(r.word)) return input_error(out.write_error());
  }
  if (!out.commit(error)) return input_error(error);
  report.finish(c, ojson());
  return c.invalid > 0 ? kExitNegative : kExitOk;
}

}  // namespace

Command register_lower(CLI::App& parent) {
  auto opts = std::make_shared<LowerCliOptions>();
  CLI::App* app = parent.add_subcommand(
      "lower", "Lower PseudoTensorLoad/Store (0xce/0xcd) into TensorLoad/Store (0xaa/0xab) from a variable table");
  app->add_option("--vars", opts->vars, "Variable table: {\"vars\": {\"<id>\": {\"base\": B, \"size\": S}}}")
      ->type_name("VARS.json")
      ->required();
  add_generation_option(*app, opts->gen,
                        "Generation the lowered words are validated on: sunda|cayman|mariana|maverick or v2..v5 "
                        "(default: mariana)");
  app->add_flag("--json", opts->json, "Print the report as one JSON document");
  add_validate_options(*app, opts->options);
  app->add_option("IN", opts->in, "File of 64-byte words ('-' reads stdin)")->type_name("IN")->required();
  app->add_option("OUT", opts->out,
                  "Output file, written only when every word lowered ('-' writes stdout; the report then goes to "
                  "stderr)")
      ->type_name("OUT")
      ->required();
  app->footer(
      "Every other word is copied unchanged. Each lowered word is validated on the generation; an invalid "
      "one is still written.\nExit codes: 0 lowered and valid, 1 a lowered word is invalid (OUT written), "
      "2 usage error,\n3 input error (unknown var id, offset outside the variable, bad VARS.json, unreadable "
      "IN; OUT untouched).");
  return {app, [opts] { return run_lower(*opts); }};
}

}  // namespace tpbisa::cli
