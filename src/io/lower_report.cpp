// `tpbisa lower`'s report, text or JSON (docs/cli.md, "lower"): the JSON document's outer object is written a member at
// a time, so its `lowered` entries stream one per line as the words are lowered.
#include "tpbisa/io/lower_report.hpp"

#include <fmt/format.h>

#include "tpbisa/fields.hpp"
#include "tpbisa/io/json.hpp"
#include "tpbisa/io/verdict_json.hpp"
#include "tpbisa/io/verdict_text.hpp"

namespace tpbisa::io {
namespace {

/// `"key": value` of the JSON report's outer object, key and value serialised by nlohmann.
std::string report_member(std::string_view key, const nlohmann::ordered_json& value) {
  return dump_json(nlohmann::ordered_json(key)) + ": " + dump_json(value);
}

}  // namespace

std::string LowerReport::begin(std::string_view input, std::string_view output) const {
  if (!json_) return {};
  return fmt::format("{{{}, {}, {}, {}: [", report_member("input", input),
                     report_member("output", output == "-" ? "<stdout>" : output),
                     report_member("generation", to_string(gen_)), dump_json(nlohmann::ordered_json("lowered")));
}

std::string LowerReport::lowered(const WordSource& src, uint8_t pseudo_opcode, const LowerResult& r,
                                 const Instruction& inst, const Verdict& v) {
  if (json_) {
    const nlohmann::ordered_json j{{"index", src.index()},
                                   {"offset", src.offset()},
                                   {"pseudo_opcode", fmt::format("{:#04x}", pseudo_opcode)},
                                   {"opcode", fmt::format("{:#04x}", r.word[0])},
                                   {"name", inst.name()},
                                   {"var_id", r.var_id},
                                   {"var_offset", r.var_offset},
                                   {"start_addr", fmt::format("{:#x}", load_le<uint64_t>(&r.word[16]))},
                                   {"verdict", verdict_json(v, inst, options_)}};
    return fmt::format("{}\n{}", entries_++ == 0 ? "" : ",", dump_json(j));
  }
  std::string line = fmt::format("#{} {:#x} {:#04x} -> {:#04x} {}  var {} + {:#x} = {:#x}  {}\n", src.index(),
                                 src.offset(), pseudo_opcode, r.word[0], inst.name(), r.var_id, r.var_offset,
                                 load_le<uint64_t>(&r.word[16]), verdict_word(v));
  if (!v.valid) line += failure_lines(v, inst, options_, "    ");
  return line;
}

std::string LowerReport::finish(const LowerCounts& c, const nlohmann::ordered_json& error) const {
  if (json_) {
    const nlohmann::ordered_json summary{
        {"words", c.words}, {"lowered", c.lowered}, {"copied", c.copied}, {"invalid", c.invalid}};
    std::string text = fmt::format("{}],\n{}", entries_ == 0 ? "" : "\n", report_member("summary", summary));
    if (!error.is_null()) text += ",\n" + report_member("error", error);
    return text + "}\n";
  }
  if (!error.is_null()) return {};
  return fmt::format("{} word{}: {} lowered, {} copied; {} lowered word{} invalid on {}\n", c.words,
                     c.words == 1 ? "" : "s", c.lowered, c.copied, c.invalid, c.invalid == 1 ? "" : "s",
                     to_string(gen_));
}

}  // namespace tpbisa::io
