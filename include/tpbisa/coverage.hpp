// How much of each opcode is modeled on a generation: operand format, validator, executor (`catalog --coverage`).
#pragma once

#include <string_view>

#include "tpbisa/catalog.hpp"
#include "tpbisa/generation.hpp"

namespace tpbisa {

/// How the words of an opcode are executed, as its family's executor says.
enum class ExecutorKind : uint8_t {
  None,        ///< no executor runs them
  Yes,         ///< the family's executor runs them (`tpbisa run`)
  Lowered,     ///< they run after `tpbisa lower` rewrites them into words that run (the pseudo TensorLoad/Store)
  Convention,  ///< the run refuses them by a project convention (`OpcodeCoverage::convention`), not by the ISA
  NotPublic,   ///< the run refuses them: no public source states their semantics (`OpcodeCoverage::not_public`)
};

/// "yes", "lowered", "convention", "semantics not public" or "none".
std::string_view to_string(ExecutorKind k);

/// What the library models of one opcode on one generation, read from the family registry (never tabulated).
struct OpcodeCoverage {
  bool present = false;    ///< the generation has the opcode (catalog)
  bool format = false;     ///< its operands decode field by field (a registered layout on this generation)
  bool validator = false;  ///< a full validator judges it (not the header-only fallback)
  ExecutorKind executor = ExecutorKind::None;
  std::string_view convention;  ///< the convention that defines the refusal (ExecutorKind::Convention only)
  /// Layout not public (the catalog's `layout_not_public`) or, with ExecutorKind::NotPublic, semantics not public:
  /// the source that would settle it.
  std::string_view not_public;
  /// INVALID 0xFF, the header's invalid-opcode marker: no instruction, so nothing to model (PROJ-CONV-C20).
  bool invalid_marker = false;
  bool layout_not_public() const { return present && !format && !not_public.empty(); }
  /// Format, validator and executor all present, the executor in any sense but None or NotPublic.
  bool modeled() const {
    return present && format && validator && executor != ExecutorKind::None && executor != ExecutorKind::NotPublic;
  }
};

/// The coverage of `op` on `gen`.
OpcodeCoverage coverage(const OpcodeInfo& op, Generation gen);

}  // namespace tpbisa
