// NEFF inputs as word sources: the engine streams of a container, filtered by subgraph and engine, labelled.
#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "tpbisa/io/words.hpp"

namespace tpbisa::io {

bool is_neff_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  std::array<uint8_t, 16> head{};
  const size_t got = std::fread(head.data(), 1, head.size(), f);
  std::fclose(f);
  return neff::is_neff(std::span<const uint8_t>(head.data(), got));
}

namespace {

bool wanted(const std::vector<std::string>& filter, const std::string& name) {
  if (filter.empty()) return true;
  for (const std::string& f : filter)
    if (f == name) return true;
  return false;
}

bool wanted(const std::vector<StreamEngine>& filter, StreamEngine e) {
  if (filter.empty()) return true;
  for (StreamEngine f : filter)
    if (f == e) return true;
  return false;
}

class NeffWords final : public WordSource {
 public:
  NeffWords(std::shared_ptr<const neff::Neff> neff, const InputOptions& options)
      : WordSource(neff->file), neff_(std::move(neff)) {
    select(options);
  }

  Next next(Word& out) override {
    if (!problem_.empty()) return fail(ErrorKind::Invalid, problem_);
    while (current_ < streams_.size() && word_ == streams_[current_].words->word_count()) {
      ++current_;
      word_ = 0;
    }
    if (current_ == streams_.size()) {
      index_ = 0;
      return Next::End;
    }
    const StreamInfo& s = streams_[current_];
    index_ = word_;
    const auto w = s.words->word(word_++);
    std::copy(w.begin(), w.end(), out.begin());
    return Next::Word;
  }

  /// Up to max_words of the current stream in place (a block never spans two streams: each has its own engine and
  /// label), so that a NEFF's words are judged a block at a time like a file's.
  Next next_block(std::span<const uint8_t>& out, size_t max_words) override {
    out = {};
    if (!problem_.empty()) return fail(ErrorKind::Invalid, problem_);
    while (current_ < streams_.size() && word_ == streams_[current_].words->word_count()) {
      ++current_;
      word_ = 0;
    }
    if (current_ == streams_.size()) {
      index_ = 0;
      return Next::End;
    }
    const neff::Stream& s = *streams_[current_].words;
    const size_t n = std::min(std::max<size_t>(max_words, 1), s.word_count() - word_);
    index_ = word_;
    out = std::span<const uint8_t>(s.bytes.data() + word_ * kWordBytes, n * kWordBytes);
    word_ += n;
    return Next::Word;
  }

  std::optional<Generation> generation() override { return neff_->generation; }
  const neff::Neff* neff() const override { return neff_.get(); }
  const StreamInfo* stream() const override { return current_ < streams_.size() ? &streams_[current_] : nullptr; }
  std::span<const StreamInfo> streams() const override { return streams_; }

 private:
  void select(const InputOptions& o) {
    for (const std::string& name : o.subgraphs) {
      bool found = false;
      for (const neff::Subgraph& sg : neff_->subgraphs) found = found || sg.name == name;
      if (!found) {
        std::vector<std::string> names;
        for (const neff::Subgraph& sg : neff_->subgraphs) names.push_back(sg.name);
        problem_ = fmt::format("{}: --subgraph {}: the NEFF has no such subgraph (it has {})", label_, name,
                               names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", ")));
        return;
      }
    }
    for (const neff::Subgraph& sg : neff_->subgraphs) {
      if (!wanted(o.subgraphs, sg.name)) continue;
      for (const neff::EngineDef& e : sg.engines) {
        const StreamEngine se = e.engine;
        if (!wanted(o.engines, se)) continue;
        streams_.push_back({sg.name, se, e.stream.label(), e.stream.member, &e.stream});
      }
    }
    if (streams_.empty() && !o.engines.empty()) {
      std::vector<std::string> names;
      for (StreamEngine e : o.engines) names.emplace_back(neff::engine_name(static_cast<neff::Engine>(e)));
      problem_ = fmt::format("{}: --engine {}: no stream of that engine in the selected subgraphs", label_,
                             fmt::join(names, ", "));
    }
  }

  std::shared_ptr<const neff::Neff> neff_;
  std::vector<StreamInfo> streams_;
  std::string problem_;  ///< a filter that selects nothing, reported at the first next()
  size_t current_ = 0;
  size_t word_ = 0;  ///< next word of the current stream
};

}  // namespace

std::unique_ptr<WordSource> open_neff(std::shared_ptr<const neff::Neff> neff, const InputOptions& options) {
  return std::make_unique<NeffWords>(std::move(neff), options);
}

}  // namespace tpbisa::io
