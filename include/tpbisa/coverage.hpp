// How much of each opcode is modeled on a generation: operand format, validator, executor (`catalog --coverage`).
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/generation.hpp"

namespace tpbisa {

/// What the library models of one opcode on one generation, read from the family registry (never tabulated).
struct OpcodeCoverage {
  bool present = false;    ///< the generation has the opcode (catalog)
  bool format = false;     ///< its operands decode field by field (a registered layout on this generation)
  bool validator = false;  ///< a full validator judges it (not the header-only fallback)
  bool executor = false;   ///< its family's executor runs words of its format
};

/// The coverage of `op` on `gen`.
OpcodeCoverage coverage(const OpcodeInfo& op, Generation gen);

}  // namespace tpbisa
