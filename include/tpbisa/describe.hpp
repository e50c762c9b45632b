// Field-by-field description of a decoded instruction, and the EVENTS text syntax (wait / update).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tpbisa/catalog.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/generation.hpp"
#include "tpbisa/instruction.hpp"

namespace tpbisa {

/// How a leaf field's value is carried.
enum class ValueKind : uint8_t {
  Unsigned,  ///< `u` holds the value
  Signed,    ///< `s` holds the value, `u` its bits zero-extended from the field width
  Bytes,     ///< `bytes` holds the raw bytes in word order (MEM2D_DATA, raw operands, reserved arrays)
};

/// One leaf of a decoded word, found by walking the format descriptors (formats.hpp) and nothing else.
struct DescribedField {
  std::string name;    ///< dotted path: "events.wait_mode", "src_mem_pattern.num_elem[1]", "data"
  uint8_t offset = 0;  ///< byte offset inside the 64-byte word
  uint8_t size = 0;    ///< bytes
  Role role = Role::Plain;
  ValueKind kind = ValueKind::Unsigned;
  uint64_t u = 0;
  int64_t s = 0;
  std::vector<uint8_t> bytes;
  std::string meaning;  ///< decoded meaning for the instruction's generation; may be empty
};

/// Every leaf field of the instruction's format, in word order, with its decoded meaning.
std::vector<DescribedField> describe_fields(const Instruction& inst);

/// Display form of a value: hex for codes and addresses ("0xaa"), decimal for counts and indices,
/// signed decimal for signed fields, contiguous lower-case hex for bytes.
std::string format_value(const DescribedField& f);
/// The field's bits as zero-padded hex of its full width ("0x000000aa"); bytes as for format_value.
std::string format_hex(const DescribedField& f);

/// "TensorLoad (TENSOR_LOAD)", or "not an opcode of cayman (TensorScalarPtrMultiDualArith exists on sunda)".
std::string describe_opcode(uint8_t opcode, Generation g);
/// "UINT32 (u32, 4 bytes)", or "not a dtype of cayman (FP4_EXP2 exists on mariana, maverick)".
std::string describe_dtype(uint8_t code, Generation g);
/// "sunda, cayman": the generations of a set, in order.
std::string generation_list(GenSet gens);

// ---- EVENTS text syntax ----
//
// Waits:    $S[11]>0   $S[4]>=2   $S[4]>=r5 (PROJ-CONV-C3)   $S[4]>=r5+0x10 (PROJ-CONV-C5, MAVERICK)
//           $E[3]?set  $E[3]?set!clear  $E[3]?clear  $E[3]?clear!set (SUNDA-MARIANA)   unordered
// Updates:  $S[22]++@complete  $S[22]--@read  $S[22]+=5@read  $S[22]-=5@complete  $S[22]=5@read
//           $S[22]+=r5@read  $E[3]=1@read  $E[3]=0@complete
// A mode that is not a member of the generation's enum: wait_mode=0x42(invalid), update_mode=0x42(invalid).
// The tables below are the single spelling of the syntax, shared with the assembler's parser.

// What each mode means is the catalog's (kWaitModeTable, kUpdateModeTable); the comparators are written with the
// catalog's symbols (kComparators). These tables are only the notation's spellings.

/// Event waits (SUNDA-MARIANA), by the catalog's event wait.
struct EventWaitSyntax {
  EventWait wait;
  std::string_view text;
};
inline constexpr std::array<EventWaitSyntax, 4> kEventWaits{{{EventWait::Set, "?set"},
                                                             {EventWait::SetThenClear, "?set!clear"},
                                                             {EventWait::Clear, "?clear"},
                                                             {EventWait::ClearThenSet, "?clear!set"}}};

/// Update actions, by the catalog's action; the operand (a number or rN) follows the actions that take one.
struct UpdateSyntax {
  UpdateAction action;
  std::string_view text;
};
inline constexpr std::array<UpdateSyntax, 7> kUpdateOps{{{UpdateAction::EventSet, "=1"},
                                                         {UpdateAction::EventClear, "=0"},
                                                         {UpdateAction::Increment, "++"},
                                                         {UpdateAction::Decrement, "--"},
                                                         {UpdateAction::Add, "+="},
                                                         {UpdateAction::Subtract, "-="},
                                                         {UpdateAction::Write, "="}}};
inline constexpr std::string_view kUnorderedText = "unordered";
inline constexpr std::string_view kAtRead = "@read";
inline constexpr std::string_view kAtComplete = "@complete";

/// The wait part alone; empty for NONE.
std::string render_wait(const Events& e, Generation g);
/// The update part alone; empty for NONE.
std::string render_update(const Events& e, Generation g);
/// Wait and update joined by one space; empty when the instruction neither waits nor updates.
std::string render_events(const Events& e, Generation g);
/// True when the rendered text determines all 8 EVENTS bytes: both modes valid, indices of unused parts
/// zero and no semaphore_value bits the modes ignore (e.g. the upper 24 bits of a register form).
/// A printer that must round-trip falls back to explicit fields when this is false.
bool events_render_exact(const Events& e, Generation g);
/// Every wait and update of a decoded word: its EVENTS, then the lanes its family adds (EVENT_SEMAPHORE's
/// extended lane), joined by one space; empty when the word neither waits nor updates.
std::string render_instruction_events(const Instruction& inst);

}  // namespace tpbisa
