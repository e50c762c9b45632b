// Streaming validation: a block of words at a time through validate_batch() on each requested generation, in place
// and in constant memory; the counting form on several threads when only failing words are handed out. Only the
// words handed out are decoded and named.
#include "tpbisa/io/validate_stream.hpp"

#include <sched.h>

#include <algorithm>
#include <map>
#include <string>
#include <thread>
#include <utility>

#include <fmt/format.h>

#include "io/chunk_pool.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/io/verdict_json.hpp"

namespace tpbisa::io {
// The validator's working parts; a named namespace, since StreamValidator::Impl holds them.
namespace streaming {

/// Words judged a call of validate_batch at a time: large enough that the per-block costs (a virtual call, one
/// validate_batch per generation) vanish, small enough that the block stays in cache across the generations.
constexpr size_t kChunkWords = 4096;
/// Blocks of the parallel path: this many chunks (4 MiB), so that a block's chunks keep up to kMaxValidateJobs
/// threads busy and the threads meet once per 65536 words.
constexpr size_t kChunksPerBlock = kMaxValidateJobs;
constexpr size_t kParallelBlockWords = kChunksPerBlock * kChunkWords;

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

/// The mnemonic when a requested generation has the opcode (for one generation: decode's name), else unknown.
std::string_view display_name(uint8_t opcode, const std::vector<Generation>& gens) {
  const OpcodeInfo* info = find_opcode(opcode);
  if (info == nullptr) return "unknown";
  for (Generation g : gens)
    if (info->gens.has(g)) return info->mnemonic;
  return "unknown";
}

/// One invalid word of a block on one generation, as the counting form of validate_batch reports it.
struct InvalidWord {
  uint32_t index;  ///< in the block
  Verdict verdict;
};

/// One chunk's results in the parallel path: each generation's batch summary and invalid words.
struct ChunkVerdicts {
  std::array<BatchSummary, 4> batch{};
  std::array<std::vector<InvalidWord>, 4> invalid;  ///< by generation, in word order, indices in the chunk
};

/// The per-block working memory, allocated once and reused for every block: the verdicts of the span form (every
/// word handed out), or the invalid words of the counting form (failing words only), and with several threads each
/// chunk's own lists.
struct BlockVerdicts {
  BlockVerdicts(size_t n_gens, bool failing_only, bool parallel) {
    const size_t block_words = parallel ? kParallelBlockWords : kChunkWords;
    if (failing_only && parallel) chunks.resize(kChunksPerBlock);
    for (size_t k = 0; k < n_gens; ++k) {
      if (failing_only) {
        invalid[k].reserve(block_words);  // at most one per word: the sink never allocates
        for (ChunkVerdicts& c : chunks) c.invalid[k].reserve(kChunkWords);
      } else {
        by_gen[k].resize(kChunkWords);
      }
    }
    if (failing_only) merged.reserve(block_words);
  }
  std::array<std::vector<Verdict>, 4> by_gen;
  std::array<std::vector<InvalidWord>, 4> invalid;  ///< by generation, in word order
  std::vector<uint32_t> merged;                     ///< the words invalid on any generation, in order
  std::vector<ChunkVerdicts> chunks;                ///< the parallel path's, kChunksPerBlock of them
};

/// The counting form's sink: gathers an invalid word's index and verdict (capacity reserved for a whole block).
void gather_invalid(void* context, size_t index, const Verdict& verdict) {
  static_cast<std::vector<InvalidWord>*>(context)->push_back({static_cast<uint32_t>(index), verdict});
}

/// Adds the counts of one generation's batch in which no word failed (a header-only verdict is then valid).
void add_clean_batch(ValidateSummary& s, Generation g, const BatchSummary& b) {
  const uint64_t valid = b.valid - b.header_only;
  s.checked += b.words;
  s.all.valid += valid;
  s.all.header_only += b.header_only;
  OutcomeCounts& c = s.per_gen[static_cast<size_t>(g)];
  c.valid += valid;
  c.header_only += b.header_only;
}

/// Per opcode: whether its validator on any of the requested generations is header-only (a word valid on every
/// generation then counts as header-only overall).
using HeaderOnlyTable = std::array<bool, 256>;
HeaderOnlyTable header_only_table(const std::vector<Generation>& gens) {
  HeaderOnlyTable t{};
  for (unsigned op = 0; op < 256; ++op)
    for (Generation g : gens)
      t[op] = t[op] || validator_for(static_cast<uint8_t>(op), g).checked == Checked::HeaderOnly;
  return t;
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
  const size_t first = c * kChunkWords;
  const size_t n = std::min(kChunkWords, job.block.size() / kWordBytes - first);
  const std::span<const uint8_t> words = job.block.subspan(first * kWordBytes, n * kWordBytes);
  ChunkVerdicts& out = job.verdicts->chunks[c];
  for (size_t k = 0; k < job.gens->size(); ++k) {
    out.invalid[k].clear();
    out.batch[k] = validate_batch(words, (*job.gens)[k], *job.options, &gather_invalid, &out.invalid[k]);
  }
}

/// The counting form of validate_batch on each requested generation over a block: the summaries in `batch` and
/// each generation's invalid words, in word order, in verdicts.invalid. A block of more than one chunk (the
/// parallel path) is judged a chunk at a time on the pool's threads, and the chunks' lists are joined in order: the
/// same counts and verdicts as one call over the block.
void count_block(std::span<const uint8_t> block, const std::vector<Generation>& gens, const ValidateOptions& options,
                 ChunkPool* pool, BlockVerdicts& verdicts, std::array<BatchSummary, 4>& batch) {
  const size_t n_words = block.size() / kWordBytes;
  if (pool == nullptr || n_words <= kChunkWords) {
    for (size_t k = 0; k < gens.size(); ++k) {
      verdicts.invalid[k].clear();
      batch[k] = validate_batch(block, gens[k], options, &gather_invalid, &verdicts.invalid[k]);
    }
    return;
  }
  const ChunkJob job{block, &gens, &options, &verdicts};
  const size_t n_chunks = (n_words + kChunkWords - 1) / kChunkWords;
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
      const auto first = static_cast<uint32_t>(c * kChunkWords);
      for (const InvalidWord& w : cv.invalid[k]) verdicts.invalid[k].push_back({first + w.index, w.verdict});
    }
  }
}

/// The indices invalid on any generation, in order, from each generation's list (each in word order).
void merge_invalid(BlockVerdicts& verdicts, size_t n_gens) {
  std::vector<uint32_t>& merged = verdicts.merged;
  merged.clear();
  std::array<size_t, 4> at{};
  for (;;) {
    uint32_t next = UINT32_MAX;
    for (size_t k = 0; k < n_gens; ++k)
      if (at[k] < verdicts.invalid[k].size()) next = std::min(next, verdicts.invalid[k][at[k]].index);
    if (next == UINT32_MAX) break;
    merged.push_back(next);
    for (size_t k = 0; k < n_gens; ++k)
      if (at[k] < verdicts.invalid[k].size() && verdicts.invalid[k][at[k]].index == next) ++at[k];
  }
}

/// The validator: the options, the thread pool, the per-block memory and the summary.
struct Runner {
  explicit Runner(StreamValidateOptions o)
      : options(std::move(o)),
        pool(options.failing_only && options.jobs > 1 ? std::make_unique<ChunkPool>(options.jobs) : nullptr),
        verdicts(std::max<size_t>(options.gens.size(), 1), options.failing_only, pool != nullptr) {}

  /// Decodes, names and hands out one word of the block whose verdicts and outcomes are in `j`; false when the
  /// observer stopped.
  bool hand_out(const uint8_t* word, const std::vector<Generation>& gens, const WordSource& src,
                ValidateObserver& observer) {
    const std::span<const uint8_t, kWordBytes> bytes(word, kWordBytes);
    for (size_t k = 0; k < j.n; ++k) j.inst[k] = decode(bytes, gens[k]);
    j.opcode = word[0];
    j.name = display_name(j.opcode, gens);
    observer.word(src, j);
    return !observer.stopped();
  }

  void count_failing(std::span<const uint8_t> block, const std::vector<Generation>& gens,
                     const std::array<BatchSummary, 4>& batch);
  void judge_failing(std::span<const uint8_t> block, const std::vector<Generation>& gens,
                     const ValidateOptions& options, const WordSource& src, ValidateObserver& observer);
  void judge_each(std::span<const uint8_t> block, const std::vector<Generation>& gens, const ValidateOptions& options,
                  const ProgramFailures& program, const WordSource& src, ValidateObserver& observer);
  StreamValidator::Ended validate(WordSource& src, ValidateObserver& observer);

  StreamValidateOptions options;
  std::unique_ptr<ChunkPool> pool;
  BlockVerdicts verdicts;
  HeaderOnlyTable header_only_any{};
  ValidateSummary summary;
  JudgedWord j;
};

/// The counts of a counting-form block in which some word failed (or several generations were judged): per
/// generation a header-only verdict of an invalid word counts as invalid; overall a word is invalid if invalid on
/// any generation, else header-only if header-only on any (found by opcode, only when some generation had one).
void Runner::count_failing(std::span<const uint8_t> block, const std::vector<Generation>& gens,
                           const std::array<BatchSummary, 4>& batch) {
  const size_t n_words = block.size() / kWordBytes;
  uint64_t header_only = 0, first_header_only = 0;
  for (size_t k = 0; k < gens.size(); ++k) {
    header_only += batch[k].header_only;
    uint64_t invalid_header_only = 0;
    for (const InvalidWord& w : verdicts.invalid[k])
      invalid_header_only += w.verdict.checked == Checked::HeaderOnly ? 1 : 0;
    OutcomeCounts& c = summary.per_gen[static_cast<size_t>(gens[k])];
    const uint64_t gen_header_only = batch[k].header_only - invalid_header_only;
    if (k == 0) first_header_only = gen_header_only;
    c.invalid += batch[k].invalid;
    c.header_only += gen_header_only;
    c.valid += batch[k].words - batch[k].invalid - gen_header_only;
  }
  merge_invalid(verdicts, gens.size());
  summary.checked += n_words;
  summary.all.invalid += verdicts.merged.size();
  uint64_t overall_header_only = first_header_only;
  if (gens.size() > 1) {
    overall_header_only = 0;
    if (header_only > 0) {
      for (size_t i = 0; i < n_words; ++i) overall_header_only += header_only_any[block[i * kWordBytes]] ? 1 : 0;
      for (uint32_t i : verdicts.merged) overall_header_only -= header_only_any[block[size_t{i} * kWordBytes]] ? 1 : 0;
    }
  }
  summary.all.header_only += overall_header_only;
  summary.all.valid += n_words - verdicts.merged.size() - overall_header_only;
}

/// failing_only on a plain stream of words: one counting validate_batch per generation over the block in place, which
/// hands out only the invalid words' verdicts; the counts come from the batch summaries, so a valid word costs
/// nothing here. Only the words invalid on some generation are decoded, named and handed out, in word order.
void Runner::judge_failing(std::span<const uint8_t> block, const std::vector<Generation>& gens,
                           const ValidateOptions& o, const WordSource& src, ValidateObserver& observer) {
  std::array<BatchSummary, 4> batch{};
  count_block(block, gens, o, pool.get(), verdicts, batch);
  size_t invalid = 0;
  for (size_t k = 0; k < gens.size(); ++k) invalid += batch[k].invalid;
  if (invalid == 0 && gens.size() == 1) {
    add_clean_batch(summary, gens[0], batch[0]);
    return;
  }
  count_failing(block, gens, batch);
  // The handed-out words: each generation's verdict, the gathered one where it failed, else judged again (valid).
  j.n = gens.size();
  j.options = &o;
  j.overall = Outcome::Invalid;
  std::array<size_t, 4> at{};
  for (uint32_t i : verdicts.merged) {
    const uint8_t* word = block.data() + size_t{i} * kWordBytes;
    j.index = src.index() + i;
    for (size_t k = 0; k < j.n; ++k) {
      j.program[k] = nullptr;
      if (at[k] < verdicts.invalid[k].size() && verdicts.invalid[k][at[k]].index == i)
        j.verdict[k] = verdicts.invalid[k][at[k]++].verdict;
      else
        j.verdict[k] = tpbisa::validate(std::span<const uint8_t, kWordBytes>(word, kWordBytes), gens[k], o);
      j.outcome[k] = outcome_of(j.verdict[k]);
    }
    if (!hand_out(word, gens, src, observer)) return;
  }
}

/// Every word of the block handed out (or, for a NEFF's words with failing_only, the failing ones with their program
/// checks): one validate_batch per generation over the words in place, then a pass over the verdicts that counts
/// them. Only a word handed out is decoded and named.
void Runner::judge_each(std::span<const uint8_t> block, const std::vector<Generation>& gens, const ValidateOptions& o,
                        const ProgramFailures& program, const WordSource& src, ValidateObserver& observer) {
  const size_t n_words = block.size() / kWordBytes;
  for (size_t k = 0; k < gens.size(); ++k) {
    if (verdicts.by_gen[k].size() < n_words) verdicts.by_gen[k].resize(n_words);
    validate_batch(block, gens[k], o, std::span<Verdict>(verdicts.by_gen[k].data(), n_words));
  }
  const StreamInfo* st = src.stream();
  const bool program_checked = st != nullptr && !program.empty();
  j.n = gens.size();
  j.options = &o;
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
      summary.per_gen[static_cast<size_t>(gens[k])].add(j.outcome[k]);
    }
    if (j.overall != Outcome::Invalid && header_only) j.overall = Outcome::HeaderOnly;
    ++summary.checked;
    summary.all.add(j.overall);
    if (options.failing_only && j.overall != Outcome::Invalid) continue;
    for (size_t k = 0; k < j.n; ++k) j.verdict[k] = verdicts.by_gen[k][i];
    if (!hand_out(word, gens, src, observer)) return;
  }
}

StreamValidator::Ended Runner::validate(WordSource& src, ValidateObserver& observer) {
  // Without requested generations an input is judged on the generation it names (a NEFF's target), else on the
  // default.
  const std::vector<Generation> gens =
      options.gens.empty() ? std::vector<Generation>{src.generation().value_or(kDefaultGeneration)} : options.gens;
  for (Generation g : gens)
    summary.used.bits = static_cast<uint8_t>(summary.used.bits | (1U << static_cast<unsigned>(g)));
  observer.begin_input(src, gens);
  ValidateOptions vo = options.validate;
  // After the per-word checks of each word, the program checks a NEFF allows (computed once per input).
  const ProgramFailures program = src.neff() != nullptr ? ProgramFailures(*src.neff(), gens) : ProgramFailures();
  header_only_any = header_only_table(gens);
  // The parallel path takes larger blocks, judged a chunk at a time; the others a chunk's worth.
  const size_t block_words = pool != nullptr ? kParallelBlockWords : kChunkWords;
  std::span<const uint8_t> block;
  for (;;) {
    if (observer.stopped()) return StreamValidator::Ended::Stopped;
    switch (src.next_block(block, block_words)) {
      case WordSource::Next::Word:
        // A NEFF word is judged on its stream's engine, so the engine-placement predicates apply to it.
        if (const StreamInfo* st = src.stream()) vo.engine = st->engine;
        // A NEFF's words with program checks to join, and every word handed out, take the span form (judge_each
        // sizes its verdicts for a block once: a parallel block of a NEFF stream with program checks).
        if (options.failing_only && (src.stream() == nullptr || program.empty()))
          judge_failing(block, gens, vo, src, observer);
        else
          judge_each(block, gens, vo, program, src, observer);
        break;
      case WordSource::Next::End: observer.end_input(src); return StreamValidator::Ended::Done;
      case WordSource::Next::Failed: observer.end_input(src); return StreamValidator::Ended::Failed;
    }
  }
}

}  // namespace streaming

void OutcomeCounts::add(Outcome o) {
  switch (o) {
    case Outcome::Valid: ++valid; break;
    case Outcome::HeaderOnly: ++header_only; break;
    case Outcome::Invalid: ++invalid; break;
  }
}

unsigned default_validate_jobs() {
  unsigned n = 0;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) n = static_cast<unsigned>(CPU_COUNT(&set));
  if (n == 0) n = std::thread::hardware_concurrency();
  return std::clamp(n, 1U, kMaxValidateJobs);
}

struct StreamValidator::Impl {
  streaming::Runner runner;
};

StreamValidator::StreamValidator(StreamValidateOptions options)
    : impl_(std::make_unique<Impl>(Impl{streaming::Runner(std::move(options))})) {}

StreamValidator::~StreamValidator() = default;

const ValidateSummary& StreamValidator::summary() const {
  return impl_->runner.summary;
}

StreamValidator::Ended StreamValidator::validate(WordSource& src, ValidateObserver& observer) {
  return impl_->runner.validate(src, observer);
}

namespace {
using ojson = nlohmann::ordered_json;
}  // namespace

ojson judged_word_json(const WordSource& src, const JudgedWord& j) {
  ojson verdicts = ojson::object();
  for (size_t k = 0; k < j.n; ++k) {
    ojson v = verdict_json(j.verdict[k], j.inst[k], *j.options);
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
  if (const StreamInfo* st = src.stream()) {
    r["subgraph"] = st->subgraph;
    r["engine"] = to_string(static_cast<Engine>(st->engine));
    r["stream"] = st->label;
  }
  r.update(ojson{{"index", j.index},
                 {"offset", j.index * kWordBytes},
                 {"opcode", fmt::format("{:#04x}", j.opcode)},
                 {"name", j.name},
                 {"verdicts", std::move(verdicts)}});
  return r;
}

ojson validate_summary_json(const ValidateSummary& s) {
  ojson gens = ojson::array();
  ojson per = ojson::object();
  for (Generation g : kAllGenerations) {
    if (!s.used.has(g)) continue;
    const std::string name(to_string(g));
    gens.push_back(name);
    const OutcomeCounts& c = s.per_gen[static_cast<size_t>(g)];
    per[name] = {{"valid", c.valid}, {"invalid", c.invalid}, {"header_only", c.header_only}};
  }
  return {{"generations", std::move(gens)},
          {"checked", s.checked},
          {"valid", s.all.valid},
          {"invalid", s.all.invalid},
          {"header_only", s.all.header_only},
          {"per_generation", std::move(per)}};
}

}  // namespace tpbisa::io
