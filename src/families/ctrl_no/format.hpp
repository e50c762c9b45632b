// CTRL_NO family format: ActivationTableLoad 0x23, Halt 0xa1, Drain 0xa2, InstructionFlush 0xa3, Nop 0xa4, Notify 0xa6.
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// CTRL_NO (64 B): header and events, and two payload bytes (sequencer.md §3.1; real-programs.md §4.1). The layout
/// is the same on every generation (PROJ-CONV-Q17).
struct CtrlNo {
  static constexpr Format kFormat = Format::CtrlNo;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "CTRL_NO";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  std::array<uint8_t, 27> reserved0{};
  uint8_t notification = 0;  ///< HALT / NOTIFY notification flag
  uint8_t drain_count = 0;   ///< DRAIN: the compiler emits 1 (a full drain)
  std::array<uint8_t, 23> reserved1{};
  bool operator==(const CtrlNo&) const = default;
};
template <>
inline constexpr auto fields_of<CtrlNo> =
    field_decls(Member<CtrlNo, Header>{"header", 0, &CtrlNo::header, Role::Plain},
                Member<CtrlNo, Events>{"events", 4, &CtrlNo::events, Role::Plain},
                Member<CtrlNo, std::array<uint8_t, 27>>{"reserved0", 12, &CtrlNo::reserved0, Role::Reserved},
                Member<CtrlNo, uint8_t>{"notification", 39, &CtrlNo::notification, Role::Plain},
                Member<CtrlNo, uint8_t>{"drain_count", 40, &CtrlNo::drain_count, Role::Plain},
                Member<CtrlNo, std::array<uint8_t, 23>>{"reserved1", 41, &CtrlNo::reserved1, Role::Reserved});

namespace family {
/// The CTRL_NO family (src/families/ctrl_no): its layout and the parts its folder defines.
struct CtrlNoFamily {
  static constexpr std::string_view kName = "ctrl_no";
  using Layouts = TypeList<CtrlNo>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};
}  // namespace family

// ---- Compile-time checks against the spec's offsets (sequencer.md §3.1) ----

static_assert(tiles_exactly<CtrlNo>());
static_assert(offset_of<CtrlNo>("reserved0") == 12 && offset_of<CtrlNo>("notification") == 39 &&
              offset_of<CtrlNo>("drain_count") == 40 && offset_of<CtrlNo>("reserved1") == 41);

}  // namespace tpbisa
