// `tpbisa validate`: streams every input, a block of words at a time, through validate_batch() on each requested
// generation, in constant memory (with --quiet, the chunks of a block on several threads); only the words the
// acceptors decline or that are printed are decoded, and only printed words are named.
#include "cmd_validate.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "chunk_pool.hpp"
#include "exit_codes.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/io/json.hpp"
#include "tpbisa/io/verdict_json.hpp"
#include "tpbisa/neff.hpp"
#include "verdict_print.hpp"

namespace tpbisa::cli {
namespace {

using io::WordSource;
using ojson = nlohmann::ordered_json;

struct ValidateCliOptions {
  std::vector<Generation> gens;  ///< --gen; empty: a NEFF's target, else the default
  bool json = false;
  bool quiet = false;
  bool stats = false;
  std::string jobs;         ///< --jobs as given (read by number_option)
  bool jobs_given = false;  ///< else default_jobs()
  ValidateOptions options;
  WordInputs inputs;
};

/// How one word fared on one generation; the three outcomes partition the words.
enum class Outcome : uint8_t { Valid, HeaderOnly, Invalid };

Outcome outcome_of(const Verdict& v) {
  if (!v.valid) return Outcome::Invalid;
  return v.checked == Checked::HeaderOnly ? Outcome::HeaderOnly : Outcome::Valid;
}

/// The program-level failures of a NEFF input (docs/neff.md), per requested generation, by stream and word.
class ProgramFailures {
 public:
  ProgramFailures() = default;
  ProgramFailures(const neff::Neff& n, const std::vector<Generation>& gens) {
    for (size_t k = 0; k < gens.size(); ++k)
      for (neff::ProgramFailure& f : neff::check_program(n, gens[k])) {
        const std::string label = f.label.substr(0, f.label.rfind('#'));
        by_word_[k][{label, f.word}].push_back(std::move(f));
        empty_ = false;
      }
  }
  /// No program check failed anywhere (so no word needs a look-up).
  bool empty() const { return empty_; }
  /// The failures of word `index` of stream `label` on the k-th requested generation (nullptr: none).
  const std::vector<neff::ProgramFailure>* at(size_t k, const std::string& label, size_t index) const {
    const auto it = by_word_[k].find({label, index});
    return it == by_word_[k].end() ? nullptr : &it->second;
  }

 private:
  std::array<std::map<std::pair<std::string, size_t>, std::vector<neff::ProgramFailure>>, 4> by_word_;
  bool empty_ = true;
};

std::string program_failure_lines(const std::vector<neff::ProgramFailure>* fs, std::string_view indent) {
  std::string out;
  if (fs == nullptr) return out;
  for (const neff::ProgramFailure& f : *fs)
    out += fmt::format("{}{} (program check, convention {}): {}: {}\n", indent, f.predicate->name,
                       f.predicate->convention, f.label, f.message);
  return out;
}

/// One word judged on every requested generation (decoded once per generation).
struct Judged {
  std::array<Instruction, 4> inst{};
  std::array<Verdict, 4> verdict{};
  /// Program-level failures at this word, per generation (NEFF inputs; nullptr: none).
  std::array<const std::vector<neff::ProgramFailure>*, 4> program{};
  std::array<Outcome, 4> outcome{};
  size_t n = 0;
  const ValidateOptions* options = nullptr;  ///< the switches and the word's engine
  uint64_t index = 0;                        ///< the word's index in its input (or NEFF stream)
  uint8_t opcode = 0;
  std::string_view name;
  /// Over the generations: invalid if invalid on any, header-only if valid on all and header-only on one.
  Outcome overall = Outcome::Valid;
};

struct Counts {
  uint64_t valid = 0, invalid = 0, header_only = 0;
  void add(Outcome o) {
    switch (o) {
      case Outcome::Valid: ++valid; break;
      case Outcome::HeaderOnly: ++header_only; break;
      case Outcome::Invalid: ++invalid; break;
    }
  }
};

struct Summary {
  uint64_t checked = 0;
  Counts all;
  std::array<Counts, 4> per_gen{};  ///< by generation
  GenSet used;                      ///< the generations words were judged on
};

/// The mnemonic when a requested generation has the opcode (for one generation: decode's name), else unknown.
std::string_view display_name(uint8_t opcode, const std::vector<Generation>& gens) {
  const OpcodeInfo* info = find_opcode(opcode);
  if (info == nullptr) return "unknown";
  for (Generation g : gens)
    if (info->gens.has(g)) return info->mnemonic;
  return "unknown";
}

constexpr size_t kNameWidth = [] {
  size_t w = 7;  // "unknown"
  for (const auto& op : kOpcodes) w = std::max(w, op.mnemonic.size());
  return w;
}();

/// The verdict word of generation k, counting the program checks: "invalid (program checks: 2 failed)".
std::string judged_word(const Judged& j, size_t k) {
  const Verdict& v = j.verdict[k];
  const size_t n = j.program[k] != nullptr ? j.program[k]->size() : 0;
  if (n == 0) return verdict_word(v);
  if (v.valid) return fmt::format("invalid (program checks: {} failed)", n);
  return fmt::format("{} + program checks: {} failed", verdict_word(v), n);
}

// ---- printers ----

class ValidatePrinter {
 public:
  virtual ~ValidatePrinter() = default;
  /// An input starts; `note` says where its generation came from when a NEFF named it (or "").
  virtual void begin_input(const WordSource&, const std::string&) {}
  virtual void word(const WordSource& src, const Judged& j) = 0;
  /// The input ended (normally or on an error).
  virtual void end_input(const WordSource&) {}
  virtual void failed(const WordSource&) {}
  virtual void finish(const Summary& s) = 0;
};

std::string summary_line(const Summary& s) {
  return fmt::format("{} checked, {} valid, {} invalid, {} header-only", s.checked, s.all.valid, s.all.invalid,
                     s.all.header_only);
}

/// "== NAME ==" before the first line printed for an input, when there are several files.
class Headings {
 public:
  explicit Headings(bool enabled) : enabled_(enabled) {}
  void before_line(const WordSource& src) {
    if (!enabled_ || &src == current_) return;
    out("{}== {} ==\n", first_ ? "" : "\n", src.label());
    first_ = false;
    current_ = &src;
  }

 private:
  bool enabled_;
  bool first_ = true;
  const WordSource* current_ = nullptr;
};

/// One generation: a line per word (only failing ones with --quiet), failures indented below.
class ValidateTextPrinter final : public ValidatePrinter {
 public:
  ValidateTextPrinter(const ValidateCliOptions& o, bool headings) : o_(o), headings_(headings) {}

  void begin_input(const WordSource& src, const std::string& note) override {
    if (note.empty()) return;
    headings_.before_line(src);
    out("{}\n", note);
  }
  void word(const WordSource& src, const Judged& j) override {
    if (o_.quiet && j.overall != Outcome::Invalid) return;
    headings_.before_line(src);
    const Verdict& v = j.verdict[0];
    std::string out = fmt::format("{} {:#x} {:#04x} {}  {}\n", word_label(src, j.index), j.index * kWordBytes, j.opcode,
                                  j.name, judged_word(j, 0));
    if (!v.valid) out += failure_lines(v, j.inst[0], *j.options, "    ");
    out += program_failure_lines(j.program[0], "    ");
    out_write(out.c_str());
  }
  void finish(const Summary& s) override {
    out("{}\n", summary_line(s));
    out_flush();
  }

 private:
  const ValidateCliOptions& o_;
  Headings headings_;
};

/// Holds text to print later without holding it in memory: an anonymous temporary file, or a string when
/// no temporary file can be made.
class Spool {
 public:
  Spool() : file_(std::tmpfile()) {}
  ~Spool() {
    if (file_ != nullptr) std::fclose(file_);
  }
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;

  void write(const std::string& text) {
    empty_ = false;
    if (file_ != nullptr && std::fwrite(text.data(), 1, text.size(), file_) == text.size()) return;
    text_ += text;
  }
  bool empty() const { return empty_; }
  /// Copies everything to stdout and starts again empty.
  void drain() {
    if (file_ != nullptr) {
      std::rewind(file_);
      std::array<char, 65536> buf{};
      size_t got = 0;
      while ((got = std::fread(buf.data(), 1, buf.size(), file_)) > 0) out_write(std::string_view(buf.data(), got));
      std::fclose(file_);
      file_ = std::tmpfile();
    }
    out_write(text_.c_str());
    text_.clear();
    empty_ = true;
  }

 private:
  std::FILE* file_;
  std::string text_;
  bool empty_ = true;
};

/// Several generations: a matrix row per word (ok / hdr / FAIL per generation), then per input the failures
/// grouped by generation. The failure text is spooled to temporary files, so memory stays constant.
class MatrixPrinter final : public ValidatePrinter {
 public:
  MatrixPrinter(const ValidateCliOptions& o, bool headings) : o_(o), headings_(headings) {
    for (size_t k = 0; k < o.gens.size(); ++k) spools_.push_back(std::make_unique<Spool>());
  }

  void word(const WordSource& src, const Judged& j) override {
    if (o_.quiet && j.overall != Outcome::Invalid) return;
    headings_.before_line(src);
    if (!header_printed_) {
      index_width_ = src.neff() != nullptr ? 20 : 8;  // "sg00/Activation#123"
      std::string h =
          fmt::format("{:<{}} {:<10} {:<6} {:<{}}", "index", index_width_, "offset", "opcode", "name", kNameWidth);
      for (Generation g : o_.gens) h += fmt::format("  {:<8}", to_string(g));
      out("{}\n", trim(h));
      header_printed_ = true;
      printed_ = true;
    }
    std::string row =
        fmt::format("{:<{}} {:<10} {:<6} {:<{}}", word_label(src, j.index), index_width_,
                    fmt::format("{:#x}", j.index * kWordBytes), fmt::format("{:#04x}", j.opcode), j.name, kNameWidth);
    for (size_t k = 0; k < j.n; ++k) {
      const Outcome oc = j.outcome[k];
      row += fmt::format("  {:<8}", oc == Outcome::Valid ? "ok" : oc == Outcome::HeaderOnly ? "hdr" : "FAIL");
      if (oc == Outcome::Invalid)
        spools_[k]->write(fmt::format("  {} {:#x} {:#04x} {}  {}\n", word_label(src, j.index), j.index * kWordBytes,
                                      j.opcode, j.inst[k].name(), judged_word(j, k)) +
                          (j.verdict[k].valid ? "" : failure_lines(j.verdict[k], j.inst[k], *j.options, "    ")) +
                          program_failure_lines(j.program[k], "    "));
    }
    row = trim(row);
    row += '\n';
    out_write(row.c_str());
  }
  void end_input(const WordSource&) override {
    for (size_t k = 0; k < spools_.size(); ++k) {
      if (spools_[k]->empty()) continue;
      out_flush();
      out("\nfailures on {}:\n", to_string(o_.gens[k]));
      out_flush();
      spools_[k]->drain();
    }
    header_printed_ = false;
  }
  void finish(const Summary& s) override {
    if (printed_) out("\n");
    out("{}\n", summary_line(s));
    out_flush();
  }

 private:
  static std::string trim(std::string s) {
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
  }
  const ValidateCliOptions& o_;
  Headings headings_;
  bool header_printed_ = false;  ///< in the current input
  size_t index_width_ = 8;
  bool printed_ = false;  ///< anything at all
  std::vector<std::unique_ptr<Spool>> spools_;
};

/// {"results": [...], "summary": {...}, "error"?}; one result per line, written as it is judged.
class ValidateJsonPrinter final : public ValidatePrinter {
 public:
  explicit ValidateJsonPrinter(const ValidateCliOptions& o) : o_(o) { out("{{\"results\": ["); }

  void word(const WordSource& src, const Judged& j) override {
    if (o_.quiet && j.overall != Outcome::Invalid) return;
    ojson verdicts = ojson::object();
    for (size_t k = 0; k < j.n; ++k) {
      ojson v = io::verdict_json(j.verdict[k], j.inst[k], *j.options);
      if (const auto* fs = j.program[k]) {
        v["valid"] = false;
        ojson program = ojson::array();
        for (const neff::ProgramFailure& f : *fs)
          program.push_back({{"predicate", f.predicate->name},
                             {"basis", "convention"},
                             {"convention", f.predicate->convention},
                             {"word", f.label},
                             {"message", f.message}});
        v["program_failed"] = std::move(program);
      }
      verdicts[std::string(to_string(j.verdict[k].gen))] = std::move(v);
    }
    ojson r{{"input", src.label()}};
    if (const io::StreamInfo* st = src.stream()) {
      r["subgraph"] = st->subgraph;
      r["engine"] = neff::engine_name(static_cast<neff::Engine>(st->engine));
      r["stream"] = st->label;
    }
    r.update(ojson{{"index", j.index},
                   {"offset", j.index * kWordBytes},
                   {"opcode", fmt::format("{:#04x}", j.opcode)},
                   {"name", j.name},
                   {"verdicts", std::move(verdicts)}});
    const std::string line = fmt::format("{}\n{}", count_ == 0 ? "" : ",", io::dump_json(r));
    out_write(line.c_str());
    ++count_;
  }
  void failed(const WordSource& src) override {
    error_ = ojson{
        {"input", src.label()}, {"index", src.index()}, {"offset", src.offset()}, {"message", src.error().message}};
  }
  void finish(const Summary& s) override {
    ojson gens = ojson::array();
    ojson per = ojson::object();
    for (Generation g : kAllGenerations) {
      if (!s.used.has(g)) continue;
      const std::string name(to_string(g));
      gens.push_back(name);
      const Counts& c = s.per_gen[static_cast<size_t>(g)];
      per[name] = {{"valid", c.valid}, {"invalid", c.invalid}, {"header_only", c.header_only}};
    }
    const ojson summary{{"generations", std::move(gens)},
                        {"checked", s.checked},
                        {"valid", s.all.valid},
                        {"invalid", s.all.invalid},
                        {"header_only", s.all.header_only},
                        {"per_generation", std::move(per)}};
    out("{}],\n\"summary\": {}", count_ == 0 ? "" : "\n", io::dump_json(summary));
    if (!error_.is_null()) out(",\n\"error\": {}", io::dump_json(error_));
    out("}}\n");
    out_flush();
  }

 private:
  const ValidateCliOptions& o_;
  uint64_t count_ = 0;
  ojson error_;
};

// ---- the run ----

/// One invalid word of a block on one generation, as the counting form of validate_batch reports it.
struct InvalidWord {
  uint32_t index;  ///< in the block
  Verdict verdict;
};

/// Blocks of the parallel --quiet path: this many chunks of kBlockWords words (4 MiB), so that a block's chunks keep
/// up to 16 threads busy and the threads meet once per 65536 words.
inline constexpr size_t kChunksPerBlock = 16;
inline constexpr size_t kParallelBlockWords = kChunksPerBlock * kBlockWords;
/// The most threads --jobs takes (more would find no chunk of a block to judge).
inline constexpr unsigned kMaxJobs = kChunksPerBlock;

/// One chunk's results in the parallel --quiet path: each generation's batch summary and invalid words.
struct ChunkVerdicts {
  std::array<BatchSummary, 4> batch{};
  std::array<std::vector<InvalidWord>, 4> invalid;  ///< by generation, in word order, indices in the chunk
};

/// The per-block working memory, allocated once per run and reused for every block: the verdicts of the span form
/// (a line per word is printed), or the invalid words of the counting form (--quiet prints only those), and with
/// several threads each chunk's own lists.
struct BlockVerdicts {
  BlockVerdicts(size_t n_gens, bool quiet, bool parallel) {
    const size_t block_words = parallel ? kParallelBlockWords : kBlockWords;
    if (quiet && parallel) chunks.resize(kChunksPerBlock);
    for (size_t k = 0; k < n_gens; ++k) {
      if (quiet) {
        invalid[k].reserve(block_words);  // at most one per word: the sink never allocates
        for (ChunkVerdicts& c : chunks) c.invalid[k].reserve(kBlockWords);
      } else {
        by_gen[k].resize(kBlockWords);
      }
    }
    if (quiet) merged.reserve(block_words);
  }
  std::array<std::vector<Verdict>, 4> by_gen;
  std::array<std::vector<InvalidWord>, 4> invalid;  ///< by generation, in word order
  std::vector<uint32_t> merged;                     ///< the words invalid on any generation, in order
  std::vector<ChunkVerdicts> chunks;                ///< the parallel --quiet path's, kChunksPerBlock of them
};

/// The counting form's sink: gathers an invalid word's index and verdict (capacity reserved for a whole block).
void gather_invalid(void* context, size_t index, const Verdict& verdict) {
  static_cast<std::vector<InvalidWord>*>(context)->push_back({static_cast<uint32_t>(index), verdict});
}

/// Adds the counts of one generation's batch in which no word failed (a header-only verdict is then valid).
void add_clean_batch(Summary& s, Generation g, const BatchSummary& b) {
  const uint64_t valid = b.valid - b.header_only;
  s.checked += b.words;
  s.all.valid += valid;
  s.all.header_only += b.header_only;
  Counts& c = s.per_gen[static_cast<size_t>(g)];
  c.valid += valid;
  c.header_only += b.header_only;
}

/// Per opcode: whether its validator on any of the requested generations is header-only (a word valid on every
/// generation then counts as header-only overall). Built once per run.
using HeaderOnlyTable = std::array<bool, 256>;
HeaderOnlyTable header_only_table(const std::vector<Generation>& gens) {
  HeaderOnlyTable t{};
  for (unsigned op = 0; op < 256; ++op)
    for (Generation g : gens)
      t[op] = t[op] || validator_for(static_cast<uint8_t>(op), g).checked == Checked::HeaderOnly;
  return t;
}

/// Decodes, names and prints one word of the block whose verdicts and outcomes are in `j` (false: stdout failed).
bool print_word(const uint8_t* word, const std::vector<Generation>& gens, const WordSource& src,
                ValidatePrinter& printer, Judged& j) {
  const std::span<const uint8_t, kWordBytes> bytes(word, kWordBytes);
  for (size_t k = 0; k < j.n; ++k) j.inst[k] = decode(bytes, gens[k]);
  j.opcode = word[0];
  j.name = display_name(j.opcode, gens);
  printer.word(src, j);
  return !stdout_failed();  // the run stops at the first failed write; the counts no longer matter
}

/// What every chunk of one block needs (the pool's function captures a pointer to it alone, so that building the
/// function allocates nothing).
struct ChunkJob {
  std::span<const uint8_t> block;
  const std::vector<Generation>* gens;
  const ValidateOptions* options;
  BlockVerdicts* verdicts;
};

/// Chunk c of the block on every requested generation, while it is in cache.
void count_chunk(const ChunkJob& job, size_t c) {
  const size_t first = c * kBlockWords;
  const size_t n = std::min(kBlockWords, job.block.size() / kWordBytes - first);
  const std::span<const uint8_t> words = job.block.subspan(first * kWordBytes, n * kWordBytes);
  ChunkVerdicts& out = job.verdicts->chunks[c];
  for (size_t k = 0; k < job.gens->size(); ++k) {
    out.invalid[k].clear();
    out.batch[k] = validate_batch(words, (*job.gens)[k], *job.options, &gather_invalid, &out.invalid[k]);
  }
}

/// The counting form of validate_batch on each requested generation over a block: the summaries in `batch` and
/// each generation's invalid words, in word order, in verdicts.invalid. A block of more than one chunk (the
/// parallel path, blocks of kParallelBlockWords) is judged a chunk of kBlockWords words at a time on the pool's
/// threads, and the chunks' lists are joined in order: the same counts and verdicts as one call over the block.
void count_block(std::span<const uint8_t> block, const std::vector<Generation>& gens, const ValidateOptions& options,
                 ChunkPool* pool, BlockVerdicts& verdicts, std::array<BatchSummary, 4>& batch) {
  const size_t n_words = block.size() / kWordBytes;
  if (pool == nullptr || n_words <= kBlockWords) {
    for (size_t k = 0; k < gens.size(); ++k) {
      verdicts.invalid[k].clear();
      batch[k] = validate_batch(block, gens[k], options, &gather_invalid, &verdicts.invalid[k]);
    }
    return;
  }
  const ChunkJob job{block, &gens, &options, &verdicts};
  const size_t n_chunks = (n_words + kBlockWords - 1) / kBlockWords;
  pool->run(n_chunks, [&job](size_t c) { count_chunk(job, c); });
  for (size_t k = 0; k < gens.size(); ++k) {
    verdicts.invalid[k].clear();
    batch[k] = {};
    for (size_t c = 0; c < n_chunks; ++c) {
      const ChunkVerdicts& cv = verdicts.chunks[c];
      batch[k].words += cv.batch[k].words;
      batch[k].valid += cv.batch[k].valid;
      batch[k].invalid += cv.batch[k].invalid;
      batch[k].header_only += cv.batch[k].header_only;
      const auto first = static_cast<uint32_t>(c * kBlockWords);
      for (const InvalidWord& w : cv.invalid[k]) verdicts.invalid[k].push_back({first + w.index, w.verdict});
    }
  }
}

/// --quiet on a plain stream of words: one counting validate_batch per generation over the block in place, which
/// hands out only the invalid words' verdicts; the counts come from the batch summaries, so a valid word costs
/// nothing here. Only the words invalid on some generation are decoded, named and printed, in word order.
void judge_block_quiet(std::span<const uint8_t> block, const std::vector<Generation>& gens,
                       const ValidateOptions& options, const HeaderOnlyTable& header_only_any, const WordSource& src,
                       ValidatePrinter& printer, ChunkPool* pool, BlockVerdicts& verdicts, Summary& s, Judged& j) {
  const size_t n_words = block.size() / kWordBytes;
  std::array<BatchSummary, 4> batch{};
  count_block(block, gens, options, pool, verdicts, batch);
  size_t invalid = 0;
  size_t header_only = 0;
  for (size_t k = 0; k < gens.size(); ++k) {
    invalid += batch[k].invalid;
    header_only += batch[k].header_only;
  }
  if (invalid == 0 && gens.size() == 1) {
    add_clean_batch(s, gens[0], batch[0]);
    return;
  }
  // Per generation: a header-only verdict of an invalid word counts as invalid, not as header-only.
  std::array<Counts, 4> counts{};
  for (size_t k = 0; k < gens.size(); ++k) {
    size_t invalid_header_only = 0;
    for (const InvalidWord& w : verdicts.invalid[k])
      invalid_header_only += w.verdict.checked == Checked::HeaderOnly ? 1 : 0;
    counts[k].invalid = batch[k].invalid;
    counts[k].header_only = batch[k].header_only - invalid_header_only;
    counts[k].valid = batch[k].words - counts[k].invalid - counts[k].header_only;
    Counts& c = s.per_gen[static_cast<size_t>(gens[k])];
    c.valid += counts[k].valid;
    c.invalid += counts[k].invalid;
    c.header_only += counts[k].header_only;
  }
  // The words invalid on any generation, in order (each generation's list is in word order).
  std::vector<uint32_t>& merged = verdicts.merged;
  merged.clear();
  std::array<size_t, 4> at{};
  for (;;) {
    uint32_t next = UINT32_MAX;
    for (size_t k = 0; k < gens.size(); ++k)
      if (at[k] < verdicts.invalid[k].size()) next = std::min(next, verdicts.invalid[k][at[k]].index);
    if (next == UINT32_MAX) break;
    merged.push_back(next);
    for (size_t k = 0; k < gens.size(); ++k)
      if (at[k] < verdicts.invalid[k].size() && verdicts.invalid[k][at[k]].index == next) ++at[k];
  }
  // Overall: a word is invalid if invalid on any generation, else header-only if header-only on any. One generation
  // gives its own counts; with several, the header-only words are found by opcode, only when some generation had one.
  s.checked += n_words;
  s.all.invalid += merged.size();
  uint64_t overall_header_only = counts[0].header_only;
  if (gens.size() > 1) {
    overall_header_only = 0;
    if (header_only > 0) {
      for (size_t i = 0; i < n_words; ++i) overall_header_only += header_only_any[block[i * kWordBytes]] ? 1 : 0;
      for (uint32_t i : merged) overall_header_only -= header_only_any[block[size_t{i} * kWordBytes]] ? 1 : 0;
    }
  }
  s.all.header_only += overall_header_only;
  s.all.valid += n_words - merged.size() - overall_header_only;
  // The printed words: each generation's verdict, the gathered one where it failed, else judged again (valid).
  j.n = gens.size();
  j.options = &options;
  j.overall = Outcome::Invalid;
  at = {};
  for (uint32_t i : merged) {
    const uint8_t* word = block.data() + size_t{i} * kWordBytes;
    j.index = src.index() + i;
    for (size_t k = 0; k < j.n; ++k) {
      j.program[k] = nullptr;
      if (at[k] < verdicts.invalid[k].size() && verdicts.invalid[k][at[k]].index == i)
        j.verdict[k] = verdicts.invalid[k][at[k]++].verdict;
      else
        j.verdict[k] = validate(std::span<const uint8_t, kWordBytes>(word, kWordBytes), gens[k], options);
      j.outcome[k] = outcome_of(j.verdict[k]);
    }
    if (!print_word(word, gens, src, printer, j)) return;
  }
}

/// Judges one block of words (one stream's, starting at src.index()) on every requested generation: one
/// validate_batch per generation over the words in place, then a pass over the verdicts that counts them and prints
/// a line per word (or, for a NEFF's words, the failing ones with their program checks). Only a word that is printed
/// is decoded, named and handed to the printer.
void judge_block(std::span<const uint8_t> block, const std::vector<Generation>& gens, const ValidateOptions& options,
                 const ProgramFailures& program, const WordSource& src, bool quiet, ValidatePrinter& printer,
                 BlockVerdicts& verdicts, Summary& s, Judged& j) {
  const size_t n_words = block.size() / kWordBytes;
  for (size_t k = 0; k < gens.size(); ++k)
    validate_batch(block, gens[k], options, std::span<Verdict>(verdicts.by_gen[k].data(), n_words));
  const io::StreamInfo* st = src.stream();
  const bool program_checked = st != nullptr && !program.empty();
  j.n = gens.size();
  j.options = &options;
  for (size_t i = 0; i < n_words; ++i) {
    const uint8_t* word = block.data() + i * kWordBytes;
    j.index = src.index() + i;
    j.overall = Outcome::Valid;
    bool header_only = false;
    for (size_t k = 0; k < j.n; ++k) {
      j.program[k] = program_checked ? program.at(k, st->label, j.index) : nullptr;
      j.outcome[k] = j.program[k] != nullptr ? Outcome::Invalid : outcome_of(verdicts.by_gen[k][i]);
      if (j.outcome[k] == Outcome::Invalid) j.overall = Outcome::Invalid;
      header_only = header_only || j.outcome[k] == Outcome::HeaderOnly;
      s.per_gen[static_cast<size_t>(gens[k])].add(j.outcome[k]);
    }
    if (j.overall != Outcome::Invalid && header_only) j.overall = Outcome::HeaderOnly;
    ++s.checked;
    s.all.add(j.overall);
    if (quiet && j.overall != Outcome::Invalid) continue;
    for (size_t k = 0; k < j.n; ++k) j.verdict[k] = verdicts.by_gen[k][i];
    if (!print_word(word, gens, src, printer, j)) return;
  }
}

/// Judges one input to its end or its first error; false on error.
bool validate_source(WordSource& src, const ValidateCliOptions& o, ValidatePrinter& printer, ChunkPool* pool,
                     BlockVerdicts& verdicts, Summary& s) {
  // Without --gen an input is judged on the generation it names (a NEFF's target), else on the default.
  const std::optional<Generation> given = o.gens.empty() ? std::nullopt : std::optional<Generation>(o.gens.front());
  const std::vector<Generation> gens =
      o.gens.empty() ? std::vector<Generation>{input_generation(src, std::nullopt)} : o.gens;
  for (Generation g : gens) s.used.bits = static_cast<uint8_t>(s.used.bits | (1U << static_cast<unsigned>(g)));
  report_neff_warnings(src);
  printer.begin_input(src, generation_note(src, given, gens.front()));
  // The engine of a plain stream of words is the one --engine names (when it names one); a NEFF word's is its
  // stream's, so the engine-placement predicates apply to it.
  ValidateOptions options = o.options;
  if (o.inputs.engines.size() == 1) options.engine = o.inputs.engines.front();
  // After the per-word checks of each word, the program checks a NEFF allows (computed once per input).
  const ProgramFailures program = src.neff() != nullptr ? ProgramFailures(*src.neff(), gens) : ProgramFailures();
  const HeaderOnlyTable header_only_any = header_only_table(gens);
  std::span<const uint8_t> block;
  Judged j;
  // The parallel path takes larger blocks, judged a chunk at a time; the others a chunk's worth.
  const size_t block_words = pool != nullptr ? kParallelBlockWords : kBlockWords;
  for (;;) {
    if (stdout_failed()) return false;
    switch (src.next_block(block, block_words)) {
      case WordSource::Next::Word:
        if (const io::StreamInfo* st = src.stream()) options.engine = st->engine;
        if (o.quiet && (src.stream() == nullptr || program.empty())) {
          judge_block_quiet(block, gens, options, header_only_any, src, printer, pool, verdicts, s, j);
          break;
        }
        // A line per word, or a NEFF's program checks to join per word: the span form's verdict per word (the
        // blocks of those paths are no larger than kBlockWords: without --quiet there is no pool, and a NEFF's
        // streams hand out one word at a time).
        for (size_t k = 0; k < gens.size(); ++k)
          if (verdicts.by_gen[k].size() < block.size() / kWordBytes)
            verdicts.by_gen[k].resize(block.size() / kWordBytes);
        judge_block(block, gens, options, program, src, o.quiet, printer, verdicts, s, j);
        break;
      case WordSource::Next::End: printer.end_input(src); return true;
      case WordSource::Next::Failed:
        printer.end_input(src);
        printer.failed(src);
        return false;
    }
  }
}

int run_validate(ValidateCliOptions& o) {
  if (const auto problem = check_word_inputs(o.inputs)) return usage_error("validate", *problem);
  std::string why;
  const auto jobs_given = o.jobs_given ? number_option("--jobs", o.jobs, 1, kMaxJobs, why) : std::optional<uint64_t>(0);
  if (!jobs_given) return usage_error("validate", why);
  const bool headings = o.inputs.files.size() > 1;
  buffer_stdout();
  std::unique_ptr<ValidatePrinter> printer;
  if (o.json)
    printer = std::make_unique<ValidateJsonPrinter>(o);
  else if (o.gens.size() > 1)
    printer = std::make_unique<MatrixPrinter>(o, headings);
  else
    printer = std::make_unique<ValidateTextPrinter>(o, headings);

  // .tasm files are assembled (for the first requested generation's geometry); others are word streams.
  auto sources = open_word_inputs(o.inputs, o.gens.empty() ? kDefaultGeneration : o.gens.front());

  const auto start = std::chrono::steady_clock::now();
  // Only --quiet judges on several threads: it prints the few invalid words, while a line per word is bound by
  // its printing.
  const unsigned jobs = *jobs_given != 0 ? static_cast<unsigned>(*jobs_given) : default_jobs(kMaxJobs);
  std::unique_ptr<ChunkPool> pool = o.quiet && jobs > 1 ? std::make_unique<ChunkPool>(jobs) : nullptr;
  BlockVerdicts verdicts(std::max<size_t>(o.gens.size(), 1), o.quiet, pool != nullptr);
  Summary s;
  int rc = kExitOk;
  for (auto& src : sources) {
    if (validate_source(*src, o, *printer, pool.get(), verdicts, s)) continue;
    if (stdout_failed()) return kExitInput;
    printer->finish(s);
    report_source_error(*src);
    rc = kExitInput;
    break;
  }
  if (rc == kExitOk) {
    printer->finish(s);
    if (s.all.invalid > 0) rc = kExitNegative;
  }
  if (o.stats) {
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    err_write(fmt::format(
        "{}: stats: validate: {} instructions checked on {} generation{} in {:.3f} s ({:.0f} instructions/s)\n",
        kToolName, s.checked, std::max<size_t>(o.gens.size(), 1), o.gens.size() > 1 ? "s" : "", secs,
        secs > 0 ? static_cast<double>(s.checked) / secs : 0.0));
  }
  return rc;
}

}  // namespace

Command register_validate(CLI::App& parent) {
  auto opts = std::make_shared<ValidateCliOptions>();
  CLI::App* app =
      parent.add_subcommand("validate", "Validate 64-byte instruction words and name every failing predicate");
  add_generations_option(
      *app, opts->gens,
      "Generation: sunda|cayman|mariana|maverick, v2..v5, or all (default: mariana, or a NEFF's target)");
  app->add_flag("--json", opts->json, "Print one JSON document instead of text");
  app->add_flag("--quiet", opts->quiet, "Print only failing instructions and the summary");
  app->add_flag("--stats", opts->stats, "Print the instructions checked and instructions per second on stderr");
  app->add_option("-j,--jobs", opts->jobs,
                  fmt::format("Threads that judge the words with --quiet, 1..{} (default: the CPUs this process may "
                              "run on, at most {}); the output is the same for every count",
                              kMaxJobs, kMaxJobs))
      ->type_name("N")
      ->each([opts](const std::string&) { opts->jobs_given = true; });
  add_validate_options(*app, opts->options);
  add_word_inputs(*app, opts->inputs);
  add_stream_filters(*app, opts->inputs,
                     "NEFF inputs: only the stream of this engine (pe, act, pool, dve, sp), repeatable; for other "
                     "inputs one --engine names the engine the words run on (engine-placement predicates)");
  app->footer(
      "Exit codes: 0 every instruction valid on every requested generation (header-only counts as valid), "
      "1 an instruction is invalid, 2 usage error, 3 input error.");
  return {app, [opts] { return run_validate(*opts); }};
}

}  // namespace tpbisa::cli
