// `tpbisa asm`: reads a source, reports every error as file:line:col with a caret line, writes the words.
#include "cmd_asm.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "exit_codes.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa::cli {
namespace {

constexpr size_t kShownErrors = 20;  // diagnostics printed; the summary line gives the full count
constexpr std::string_view kSourceExt = ".tasm";
constexpr std::string_view kOutputExt = ".bin";

struct AsmOptions {
  std::optional<Generation> gen;
  std::string input;
  std::string output;
  bool hex = false;
};

int usage_error(std::string_view message) {
  report_error(fmt::format("asm: {}; run 'tpbisa --help'", message));
  return kExitUsage;
}

/// IN.tasm -> IN.bin; any other name gets .bin appended.
std::string default_output(const std::string& input) {
  if (input.ends_with(kSourceExt)) return input.substr(0, input.size() - kSourceExt.size()) + std::string(kOutputExt);
  return input + std::string(kOutputExt);
}

bool read_all(const std::string& path, std::string& text, std::string& error) {
  if (path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return true;
  }
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) {
    error = fmt::format("{}: cannot open: {}", path, std::strerror(errno));
    return false;
  }
  std::vector<char> chunk(64 * 1024);
  size_t n = 0;
  while ((n = std::fread(chunk.data(), 1, chunk.size(), f.get())) > 0) text.append(chunk.data(), n);
  if (std::ferror(f.get()) == 0) return true;
  error = fmt::format("{}: read error: {}", path, std::strerror(errno));
  return false;
}

bool write_words(const std::string& path, const std::vector<Word>& words, std::string& error) {
  const bool to_stdout = path == "-";
  std::FILE* f = to_stdout ? stdout : std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    error = fmt::format("{}: cannot create: {}", path, std::strerror(errno));
    return false;
  }
  bool ok = true;
  for (const Word& w : words) ok = ok && std::fwrite(w.data(), 1, w.size(), f) == w.size();
  ok = std::fflush(f) == 0 && ok;
  if (!to_stdout) ok = std::fclose(f) == 0 && ok;
  if (!ok) error = fmt::format("{}: write error: {}", path, std::strerror(errno));
  return ok;
}

void print_hex(const std::vector<Word>& words) {
  for (const Word& w : words) {
    std::string line;
    for (uint8_t b : w) line += fmt::format("{:02x}", b);
    fmt::print("{}\n", line);
  }
}

/// Prints the first kShownErrors diagnostics; returns "N errors" (with how many were shown when not all).
std::string print_diagnostics(const AsmResult& r) {
  for (size_t i = 0; i < r.errors.size() && i < kShownErrors; ++i)
    fmt::print(stderr, "{}\n", format_diagnostic(r.errors[i]));
  std::fflush(stderr);
  const std::string shown = r.error_count > kShownErrors ? fmt::format(" (the first {} shown)", kShownErrors) : "";
  return fmt::format("{} error{}{}", r.error_count, r.error_count == 1 ? "" : "s", shown);
}

void report_errors(const AsmResult& r, const std::string& label) {
  report_error(fmt::format("{}: {}; nothing written", label, print_diagnostics(r)));
}

int run_asm(const AsmOptions& o) {
  if (o.hex && !o.output.empty()) return usage_error("--hex prints the words on stdout; give either --hex or -o");
  if (o.input == "-" && o.output.empty() && !o.hex)
    return usage_error("reading stdin: name the output with -o OUT.bin (or -o - for stdout)");
  std::string text;
  std::string error;
  if (!read_all(o.input, text, error)) {
    report_error(error);
    return kExitInput;
  }
  const std::string label = o.input == "-" ? "<stdin>" : o.input;
  const AsmResult r = assemble(text, label, o.gen.value_or(kDefaultGeneration));
  if (!r.ok()) {
    report_errors(r, label);
    return kExitInput;
  }
  if (o.hex) {
    print_hex(r.words);
    return kExitOk;
  }
  if (!write_words(o.output.empty() ? default_output(o.input) : o.output, r.words, error)) {
    report_error(error);
    return kExitInput;
  }
  return kExitOk;
}

}  // namespace

TasmWords::TasmWords(std::string path, Generation gen)
    : WordSource(path == "-" ? "<stdin>" : path), path_(std::move(path)), gen_(gen) {}

bool TasmWords::load() {
  loaded_ = true;
  std::string text;
  std::string error;
  if (!read_all(path_, text, error)) {
    fail(std::move(error));
    return false;
  }
  AsmResult r = assemble(text, label_, gen_);
  if (!r.ok()) {
    fail(fmt::format("{}: {} in the assembly source", label_, print_diagnostics(r)));
    return false;
  }
  words_ = std::move(r.words);
  return true;
}

WordSource::Next TasmWords::next(Word& out) {
  if (!loaded_ && !load()) return Next::Failed;
  if (!error_.empty()) return Next::Failed;  // a failed load stays failed
  index_ = next_;
  if (next_ == words_.size()) return Next::End;
  out = words_[next_++];
  return Next::Word;
}

std::unique_ptr<WordSource> open_words(const std::string& path, Generation gen) {
  if (path.ends_with(kSourceExt)) return std::make_unique<TasmWords>(path, gen);
  return std::make_unique<FileWords>(path);
}

Command register_asm(CLI::App& parent) {
  auto opts = std::make_shared<AsmOptions>();
  CLI::App* app = parent.add_subcommand("asm", "Assemble a .tasm source into 64-byte instruction words");
  add_generation_option(*app, opts->gen, "Generation: sunda|cayman|mariana|maverick or v2..v5 (default: mariana)");
  app->add_option("IN", opts->input, "Source file (syntax: docs/asm.md); '-' reads stdin")
      ->type_name("IN.tasm")
      ->required();
  app->add_option("-o,--output", opts->output, "Output file (default: IN with .tasm replaced by .bin); '-' is stdout")
      ->type_name("OUT.bin");
  app->add_flag("--hex", opts->hex, "Print each word as 128 hex digits on stdout instead of writing a file");
  app->footer(
      "Exit codes: 0 assembled, 2 usage error, 3 input error (assembly errors, unreadable input, "
      "unwritable output). Up to 20 errors are printed as file:line:col: error: ... with a caret line.");
  return {app, [opts] { return run_asm(*opts); }};
}

}  // namespace tpbisa::cli
