// `tpbisa lower`'s report: a text line per lowered word with its verdict, or one JSON document whose entries are
// written as the words are lowered, and the counts that close it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "tpbisa/generation.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/io/words.hpp"
#include "tpbisa/lower.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::io {

struct LowerCounts {
  uint64_t words = 0, lowered = 0, copied = 0, invalid = 0;
};

/// The report's pieces in the order they are written; each returns the text to write.
class LowerReport {
 public:
  LowerReport(bool json, const ValidateOptions& options, Generation gen) : json_(json), options_(options), gen_(gen) {}
  /// The JSON document's opening members (input, output, generation) up to its `lowered` entries; nothing in text.
  std::string begin(std::string_view input, std::string_view output) const;
  /// One lowered word of `src`: its pseudo opcode, the lowered word and its verdict.
  std::string lowered(const WordSource& src, uint8_t pseudo_opcode, const LowerResult& r, const Instruction& inst,
                      const Verdict& v);
  /// The summary (the JSON document closed, with `error` when it is not null); the text summary only without error.
  std::string finish(const LowerCounts& c, const nlohmann::ordered_json& error) const;

 private:
  bool json_;
  ValidateOptions options_;
  Generation gen_;
  uint64_t entries_ = 0;
};

}  // namespace tpbisa::io
