// Synchronisation and DMA family formats: EventSemaphore 0xa0 (CTRL_ES), SetOrderingMode 0xb1,
// PseudoBranchLabel 0xcc and PseudoDmaDirect2d 0xd4 with its PSEUDO_ADDR8 operands (real-programs.md §3, §5-§7).
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// NEURON_ISA_TPB_EVENTS_EXTENDED (12 B) as EVENT_SEMAPHORE places it at byte 32: the second wait lane and the
/// update, each with its own value word (PROJ-CONV-C4 layout, evidence real-programs.md §3.1).
struct EventsExtended {
  static constexpr std::string_view kName = "EVENTS_EXTENDED";
  static constexpr size_t kSize = 12;
  uint8_t wait_mode = 0;
  uint8_t wait_idx = 0;
  uint8_t update_mode = 0;
  uint8_t update_idx = 0;
  uint32_t sem_wait_value = 0;
  uint32_t sem_update_value = 0;
  bool operator==(const EventsExtended&) const = default;
};
template <>
inline constexpr auto fields_of<EventsExtended> = field_decls(
    field("wait_mode", 0, &EventsExtended::wait_mode, Role::Custom), field("wait_idx", 1, &EventsExtended::wait_idx),
    field("update_mode", 2, &EventsExtended::update_mode, Role::Custom),
    field("update_idx", 3, &EventsExtended::update_idx), field("sem_wait_value", 4, &EventsExtended::sem_wait_value),
    field("sem_update_value", 8, &EventsExtended::sem_update_value));

/// NEURON_ISA_TPB_CTRL_ES (64 B): EVENT_SEMAPHORE 0xa0, two wait lanes (real-programs.md §3.1).
struct CtrlEs {
  static constexpr Format kFormat = Format::CtrlEs;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "CTRL_ES";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  std::array<uint8_t, 20> reserved0{};
  EventsExtended ext{};
  std::array<uint8_t, 20> reserved1{};
  bool operator==(const CtrlEs&) const = default;
};
template <>
inline constexpr auto fields_of<CtrlEs> =
    cat_fields(header_and_events<CtrlEs>(),
               field_decls(field("reserved0", 12, &CtrlEs::reserved0, Role::Reserved), field("ext", 32, &CtrlEs::ext),
                           field("reserved1", 44, &CtrlEs::reserved1, Role::Reserved)));

/// SET_ORDERING_MODE 0xb1 body (64 B; the header's struct name is UNKNOWN, named after the opcode:
/// PROJ-CONV-F6 and docs/conventions.md).
struct SetOrderingMode {
  static constexpr Format kFormat = Format::SetOrderingMode;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "SET_ORDERING_MODE";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t ordering_mode = 0;
  std::array<uint8_t, 51> reserved{};
  bool operator==(const SetOrderingMode&) const = default;
};
template <>
inline constexpr auto fields_of<SetOrderingMode> =
    cat_fields(header_and_events<SetOrderingMode>(),
               field_decls(field("ordering_mode", 12, &SetOrderingMode::ordering_mode),
                           field("reserved", 13, &SetOrderingMode::reserved, Role::Reserved)));

/// PSEUDO_BRANCH_LABEL 0xcc body (64 B; payload UNKNOWN, label id u32 at byte 12 by PROJ-CONV-F7).
struct PseudoBranchLabel {
  static constexpr Format kFormat = Format::PseudoBranchLabel;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "PSEUDO_BRANCH_LABEL";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint32_t label_id = 0;
  std::array<uint8_t, 48> payload{};
  bool operator==(const PseudoBranchLabel&) const = default;
};
template <>
inline constexpr auto fields_of<PseudoBranchLabel> = cat_fields(
    header_and_events<PseudoBranchLabel>(), field_decls(field("label_id", 12, &PseudoBranchLabel::label_id),
                                                        field("payload", 16, &PseudoBranchLabel::payload, Role::Raw)));

/// PSEUDO_ADDR8 (8 B): a DMA operand as the compiler writes it (real-programs.md §2.4).
struct PseudoAddr8 {
  static constexpr std::string_view kName = "PSEUDO_ADDR8";
  static constexpr size_t kSize = 8;
  uint32_t offset = 0;
  uint16_t id = 0;
  uint8_t id_hi = 0;
  uint8_t mode = 0;
  bool operator==(const PseudoAddr8&) const = default;
};
template <>
inline constexpr auto fields_of<PseudoAddr8> = field_decls(field("offset", 0, &PseudoAddr8::offset, Role::VarOffset),
                                                           field("id", 4, &PseudoAddr8::id, Role::VarId),
                                                           field("id_hi", 6, &PseudoAddr8::id_hi),
                                                           field("mode", 7, &PseudoAddr8::mode, Role::Custom));

/// PSEUDO_DMA_DIRECT2D (64 B): PseudoDmaDirect2d 0xd4 (real-programs.md §7.1).
struct PseudoDmaDirect2d {
  static constexpr Format kFormat = Format::PseudoDmaDirect2d;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "PSEUDO_DMA_DIRECT2D";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t qos_flags = 0;
  uint8_t semaphore = 0;
  uint8_t sem_increment = 0;
  uint8_t command = 0;
  PseudoAddr8 src{};
  std::array<int32_t, 2> src_step{};
  std::array<uint16_t, 2> src_num{};
  uint16_t src_elem_size = 0;
  uint8_t src_offset_reg = 0;
  uint8_t dst_offset_reg = 0;
  PseudoAddr8 dst{};
  std::array<int32_t, 2> dst_step{};
  std::array<uint16_t, 2> dst_num{};
  uint16_t dst_elem_size = 0;
  uint8_t src_dtype = 0;
  uint8_t dst_dtype = 0;
  bool operator==(const PseudoDmaDirect2d&) const = default;
};
template <>
inline constexpr auto fields_of<PseudoDmaDirect2d> =
    cat_fields(header_and_events<PseudoDmaDirect2d>(),
               field_decls(field("qos_flags", 12, &PseudoDmaDirect2d::qos_flags, Role::Custom),
                           field("semaphore", 13, &PseudoDmaDirect2d::semaphore),
                           field("sem_increment", 14, &PseudoDmaDirect2d::sem_increment),
                           field("command", 15, &PseudoDmaDirect2d::command), field("src", 16, &PseudoDmaDirect2d::src),
                           field("src_step", 24, &PseudoDmaDirect2d::src_step, Role::Step),
                           field("src_num", 32, &PseudoDmaDirect2d::src_num, Role::NumElem),
                           field("src_elem_size", 36, &PseudoDmaDirect2d::src_elem_size),
                           field("src_offset_reg", 38, &PseudoDmaDirect2d::src_offset_reg, Role::Custom),
                           field("dst_offset_reg", 39, &PseudoDmaDirect2d::dst_offset_reg, Role::Custom),
                           field("dst", 40, &PseudoDmaDirect2d::dst),
                           field("dst_step", 48, &PseudoDmaDirect2d::dst_step, Role::Step),
                           field("dst_num", 56, &PseudoDmaDirect2d::dst_num, Role::NumElem),
                           field("dst_elem_size", 60, &PseudoDmaDirect2d::dst_elem_size),
                           field("src_dtype", 62, &PseudoDmaDirect2d::src_dtype, Role::Dtype),
                           field("dst_dtype", 63, &PseudoDmaDirect2d::dst_dtype, Role::Dtype)));

namespace family {
/// The synchronisation and DMA family (src/families/sync): its layouts and the parts its folder defines.
struct SyncFamily {
  static constexpr std::string_view kName = "sync";
  using Layouts = TypeList<CtrlEs, SetOrderingMode, PseudoBranchLabel, PseudoDmaDirect2d>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};
}  // namespace family

// ---- Compile-time checks against the spec's layout tables (real-programs.md §2.4, §3.1, §5, §6, §7.1) ----

static_assert(tiles_exactly<EventsExtended>() && tiles_exactly<CtrlEs>() && tiles_exactly<SetOrderingMode>() &&
              tiles_exactly<PseudoBranchLabel>() && tiles_exactly<PseudoAddr8>() && tiles_exactly<PseudoDmaDirect2d>());
static_assert(offset_of<CtrlEs>("reserved0") == 12 && offset_of<CtrlEs>("ext") == 32 &&
              offset_of<CtrlEs>("reserved1") == 44);
static_assert(offset_of<EventsExtended>("wait_mode") == 0 && offset_of<EventsExtended>("wait_idx") == 1 &&
              offset_of<EventsExtended>("update_mode") == 2 && offset_of<EventsExtended>("update_idx") == 3 &&
              offset_of<EventsExtended>("sem_wait_value") == 4 && offset_of<EventsExtended>("sem_update_value") == 8);
static_assert(offset_of<SetOrderingMode>("ordering_mode") == 12 && offset_of<SetOrderingMode>("reserved") == 13);
static_assert(offset_of<PseudoBranchLabel>("label_id") == 12 && offset_of<PseudoBranchLabel>("payload") == 16);
static_assert(offset_of<PseudoAddr8>("offset") == 0 && offset_of<PseudoAddr8>("id") == 4 &&
              offset_of<PseudoAddr8>("id_hi") == 6 && offset_of<PseudoAddr8>("mode") == 7);
static_assert(offset_of<PseudoDmaDirect2d>("qos_flags") == 12 && offset_of<PseudoDmaDirect2d>("semaphore") == 13 &&
              offset_of<PseudoDmaDirect2d>("sem_increment") == 14 && offset_of<PseudoDmaDirect2d>("command") == 15 &&
              offset_of<PseudoDmaDirect2d>("src") == 16 && offset_of<PseudoDmaDirect2d>("src_step") == 24 &&
              offset_of<PseudoDmaDirect2d>("src_num") == 32 && offset_of<PseudoDmaDirect2d>("src_elem_size") == 36 &&
              offset_of<PseudoDmaDirect2d>("src_offset_reg") == 38 &&
              offset_of<PseudoDmaDirect2d>("dst_offset_reg") == 39 && offset_of<PseudoDmaDirect2d>("dst") == 40 &&
              offset_of<PseudoDmaDirect2d>("dst_step") == 48 && offset_of<PseudoDmaDirect2d>("dst_num") == 56 &&
              offset_of<PseudoDmaDirect2d>("dst_elem_size") == 60 && offset_of<PseudoDmaDirect2d>("src_dtype") == 62 &&
              offset_of<PseudoDmaDirect2d>("dst_dtype") == 63);

}  // namespace tpbisa
