// Pseudo lowering: PseudoTensorLoad/Store (0xce/0xcd) become TensorLoad/Store (0xaa/0xab) with a real address.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "tpbisa/formats.hpp"

namespace tpbisa {

/// One compiler variable: where the runtime placed it and how many bytes it has.
struct Variable {
  uint64_t base = 0;
  uint64_t size = 0;
};
using VarTable = std::map<uint32_t, Variable>;

enum class LowerStatus : uint8_t {
  Lowered,          ///< a pseudo word was rewritten
  Copied,           ///< not a pseudo MEM_2D word: copied unchanged
  UnknownVariable,  ///< var_id is not in the table
  OffsetOutside,    ///< var_offset is not inside the variable
  AddressTooWide,   ///< base + var_offset needs more than the 58 bits of an ADDR8 immediate
};

struct LowerResult {
  LowerStatus status = LowerStatus::Copied;
  Word word{};  ///< the lowered (or copied) word; on failure, the input unchanged
  uint32_t var_id = 0;
  uint32_t var_offset = 0;
  std::string message;  ///< empty on success
  bool ok() const { return status == LowerStatus::Lowered || status == LowerStatus::Copied; }
};

/// Lowers one word (mem2d.md §6.6): opcode 0xce -> 0xaa, 0xcd -> 0xab, start_addr = base(var_id) + var_offset
/// as an immediate (marker 0x00); every other byte copied. Never returns a partially lowered word
/// (PROJ-CONV-M8). The result must be validated again: alignment and the UINT64 rules apply only now.
LowerResult lower_pseudo(const Word& word, const VarTable& vars);

}  // namespace tpbisa
