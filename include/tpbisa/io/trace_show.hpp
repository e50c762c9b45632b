// `tpbisa trace show`'s layout of an execution trace (docs/trace.md): one readable block per record, JSON or compact.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "tpbisa/io/text_out.hpp"

namespace tpbisa::io {

/// The block of one trace line, a JSON record or a compact one: the core and engine of a NEFF run's record, the word,
/// its status, then at most `limit` entries of each effect list (0: all) with how many more there were, and the
/// fault; every location in the tool's one spelling. nullopt when the line is not a trace record.
std::optional<std::string> trace_record_block(std::string_view line, size_t limit);

/// Writes the block of every record of the trace at `path` ("-": stdin) to `out`; the error, naming the file (and the
/// line that is not a record), when it cannot be read.
std::optional<std::string> show_trace(const std::string& path, size_t limit, TextOut& out);

}  // namespace tpbisa::io
