// Read-indices family format: DVE_READ_INDICES 0xE9, on the D4_MR struct the datapath family declares
// (dve-read-state.md §4.2: the memset-family destination descriptor, its source the DVE's matched indices MI).
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/families/datapath/format.hpp"

namespace tpbisa::family {

/// The read-indices family (src/families/readidx): it declares no struct and gives D4_MR one more opcode.
struct ReadIndicesFamily {
  static constexpr std::string_view kName = "readidx";
  using Layouts = TypeList<>;
  using Uses = TypeList<D4Mr>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};

namespace readidx {

inline constexpr uint8_t kDveReadIndices = ::tpbisa::detail::opcode_named("DVE_READ_INDICES");
/// The indices each channel holds and writes (d4_mr.h: "8 indices per lane").
inline constexpr uint32_t kIndices = 8;

}  // namespace readidx
}  // namespace tpbisa::family
