// `--dump` specs: what part of the final state to show (LOCATION:DTYPE:COUNT, or a unit state's NAME:INDEX such as
// dve:CHANNEL).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "tpbisa/expected.hpp"
#include "tpbisa/generation.hpp"
#include "tpbisa/io/element.hpp"
#include "tpbisa/location.hpp"
#include "tpbisa/unit_state.hpp"

namespace tpbisa::io {

/// Most elements one dump may show, and the default bound on all dumps of a run together.
inline constexpr uint64_t kMaxDumpElements = uint64_t{1} << 22;

/// LOCATION:DTYPE:COUNT (LOCATION in any form of tpbisa/location.hpp), or NAME:INDEX for an instance of a unit state
/// a family declares (dve:CHANNEL).
struct DumpSpec {
  enum class Kind : uint8_t { Memory, Unit };
  Kind kind = Kind::Memory;
  Location at;
  ElementType type;
  uint64_t count = 0;
  const UnitState* unit = nullptr;  ///< Kind::Unit
  unsigned instance = 0;            ///< Kind::Unit: the channel
};

/// The accepted forms, for messages: "LOCATION:DTYPE:COUNT (LOCATION as ...) or dve:CHANNEL".
std::string dump_forms();
/// The unit states a --dump may name, for a help text: their names upper-case, '/'-separated ("DVE"), and their
/// NAME:INSTANCE forms (" or dve:CHANNEL").
std::pair<std::string, std::string> dump_unit_help();

/// Parses a spec on `g`: COUNT is 1..kMaxDumpElements and the whole range must be addressable; DTYPE must be
/// numeric. The error says what is wrong without naming the spec (the caller quotes it).
Expected<DumpSpec> parse_dump_spec(std::string_view text, Generation g);

}  // namespace tpbisa::io
