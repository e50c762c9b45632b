// Test-event-semaphore family format: TEST_EVENT_SEM 0xB4 (CTRL_TEST_ES), as the public wiki quotes its header
// (dma-transpose-opcode-cluster.md §3f; PROJ-CONV-TS1).
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// NEURON_ISA_TPB_CTRL_TEST_ES_STRUCT (64 B), ctrl_test_es.h: one to sixteen events or semaphores, each paired with a
/// register, read into the registers or updated from them. The same bytes on MARIANA and MAVERICK.
struct CtrlTestEs {
  static constexpr Format kFormat = Format::CtrlTestEs;
  static constexpr GenSet kGens = kGensMarianaUp;
  static constexpr std::string_view kName = "CTRL_TEST_ES";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t mode = 0;          ///< TEST_EVT_SEM_MODE
  uint8_t update_type = 0;   ///< UPDATE_MODE of the update modes
  uint8_t repeat_count = 0;  ///< the conditional update's loop count
  uint8_t num_evt_sem = 0;   ///< the active slots, 1..16
  std::array<uint8_t, 16> evt_sem_ids{};
  std::array<uint8_t, 16> value_registers{};
  uint32_t threshold = 0;  ///< the conditional update's threshold
  uint8_t setter_signature = 0;
  std::array<uint8_t, 11> reserved0{};
  bool operator==(const CtrlTestEs&) const = default;
};
template <>
inline constexpr auto fields_of<CtrlTestEs> = cat_fields(
    header_and_events<CtrlTestEs>(),
    field_decls(field("mode", 12, &CtrlTestEs::mode, Role::Custom),
                field("update_type", 13, &CtrlTestEs::update_type, Role::Custom),
                field("repeat_count", 14, &CtrlTestEs::repeat_count),
                field("num_evt_sem", 15, &CtrlTestEs::num_evt_sem), field("evt_sem_ids", 16, &CtrlTestEs::evt_sem_ids),
                field("value_registers", 32, &CtrlTestEs::value_registers),
                field("threshold", 48, &CtrlTestEs::threshold),
                field("setter_signature", 52, &CtrlTestEs::setter_signature),
                field("reserved0", 53, &CtrlTestEs::reserved0, Role::Reserved)));

namespace family {

/// The test-event-semaphore family (src/families/testsem): its layout and the parts its folder defines.
struct TestSemFamily {
  static constexpr std::string_view kName = "testsem";
  using Layouts = TypeList<CtrlTestEs>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};

}  // namespace family

/// The test-event-semaphore family's opcode and enums: each decided here, once, for the validator, the executor, the
/// descriptions and the assembler.
namespace testsem {

inline constexpr uint8_t kTestEventSem = detail::opcode_named("TEST_EVENT_SEM");

/// TEST_EVT_SEM_MODE (ctrl_test_es.h).
inline constexpr uint8_t kReadSem = 0, kReadEvt = 1, kUpdateSem = 2, kUpdateEvt = 3, kCondUpdateSem = 4;
inline constexpr std::array<EnumValue, 5> kModes{{{kReadSem, "READ_SEM", kGensAll, ""},
                                                  {kReadEvt, "READ_EVT", kGensAll, ""},
                                                  {kUpdateSem, "UPDATE_SEM", kGensAll, ""},
                                                  {kUpdateEvt, "UPDATE_EVT", kGensAll, ""},
                                                  {kCondUpdateSem, "COND_UPDATE_SEM", kGensAll, ""}}};
inline constexpr unsigned kSlots = 16;

}  // namespace testsem

// ---- Compile-time checks against the wiki's CTRL_TEST_ES table (dma-transpose-opcode-cluster.md §3f) ----

static_assert(tiles_exactly<CtrlTestEs>());
static_assert(offset_of<CtrlTestEs>("mode") == 12 && offset_of<CtrlTestEs>("update_type") == 13 &&
              offset_of<CtrlTestEs>("repeat_count") == 14 && offset_of<CtrlTestEs>("num_evt_sem") == 15 &&
              offset_of<CtrlTestEs>("evt_sem_ids") == 16 && offset_of<CtrlTestEs>("value_registers") == 32 &&
              offset_of<CtrlTestEs>("threshold") == 48 && offset_of<CtrlTestEs>("setter_signature") == 52 &&
              offset_of<CtrlTestEs>("reserved0") == 53);

}  // namespace tpbisa
