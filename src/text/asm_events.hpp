// Reading the EVENTS text (`$S[11]>0`, `$S[22]++@complete`, `unordered`) with the tables the printer renders with.
#pragma once

#include <cstdint>
#include <string_view>

#include "text/asm_lex.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/generation.hpp"

namespace tpbisa::tasm {

/// The EVENTS block built from a line's event tokens: at most one wait and one update, which share
/// `semaphore_value` (each fixes the bits `value_mask` says).
struct EventTokens {
  Events events{};
  bool has_wait = false;
  bool has_update = false;
  uint32_t value_mask = 0;
  Token wait;    ///< the wait token, when has_wait
  Token update;  ///< the update token, when has_update
  bool any() const { return has_wait || has_update; }
};

/// True for the words that are event tokens: `$...` and `unordered`.
bool is_event_token(std::string_view word);
/// Adds one token; false with `error` set when it is malformed, not a mode of `g`, a second wait or update,
/// or asks for a semaphore_value the other part contradicts.
bool add_event_token(const Token& t, Generation g, EventTokens& st, LineError& error);

}  // namespace tpbisa::tasm
