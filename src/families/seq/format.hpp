// Sequencer control block family formats: Write 0xa5, Move 0xa7, AluOp 0xa8, CompareBranch 0xa9, the bodies of
// 0xb0/0xb3/0xb5 and the pseudo control words 0xd1-0xd3, 0xdd, 0xdf (sequencer.md §4-§8).
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

// Every layout below is the same on all four generations: CTRL_MV by its header (sequencer.md §5.1), the
// others by PROJ-CONV-Q17 (CTRL_AL/BR/WR as on CAYMAN) or because no generation-specific layout is known.

/// NEURON_ISA_TPB_CTRL_WR_STRUCT (64 B): Write 0xa5. Address and value offsets are PROJ-CONV-Q6.
struct CtrlWr {
  static constexpr Format kFormat = Format::CtrlWr;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "CTRL_WR";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t wr_size = 0;
  std::array<uint8_t, 3> reserved0{};
  uint64_t address = 0;
  uint32_t value = 0;
  std::array<uint8_t, 36> reserved1{};
  bool operator==(const CtrlWr&) const = default;
};
template <>
inline constexpr auto fields_of<CtrlWr> = cat_fields(
    header_and_events<CtrlWr>(),
    field_decls(field("wr_size", 12, &CtrlWr::wr_size), field("reserved0", 13, &CtrlWr::reserved0, Role::Reserved),
                field("address", 16, &CtrlWr::address), field("value", 24, &CtrlWr::value),
                field("reserved1", 28, &CtrlWr::reserved1, Role::Reserved)));

/// NEURON_ISA_TPB_CTRL_MV_STRUCT (64 B, ctrl_mv.h): Move 0xa7.
struct CtrlMv {
  static constexpr Format kFormat = Format::CtrlMv;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "CTRL_MV";
  static constexpr size_t kSize = 64;
  static constexpr unsigned kSlots = 8;
  Header header{};
  Events events{};
  uint8_t num_mov = 0;
  uint8_t dtype = 0;
  uint8_t move_source = 0;
  std::array<uint8_t, 1> reserved0{};
  std::array<uint8_t, kSlots> src_registers{};
  std::array<uint8_t, kSlots> dst_registers{};
  std::array<uint32_t, kSlots> immediate{};  ///< MOVE_IMMEDIATE: the implemented view uint32[8]
  bool operator==(const CtrlMv&) const = default;
};
template <>
inline constexpr auto fields_of<CtrlMv> = cat_fields(
    header_and_events<CtrlMv>(),
    field_decls(field("num_mov", 12, &CtrlMv::num_mov), field("dtype", 13, &CtrlMv::dtype, Role::Dtype),
                field("move_source", 14, &CtrlMv::move_source, Role::DataSrc),
                field("reserved0", 15, &CtrlMv::reserved0, Role::Reserved),
                field("src_registers", 16, &CtrlMv::src_registers), field("dst_registers", 24, &CtrlMv::dst_registers),
                field("immediate", 32, &CtrlMv::immediate)));

/// NEURON_ISA_TPB_CTRL_AL_STRUCT (64 B, runtime DWARF order, PROJ-CONV-Q8): AluOp 0xa8.
struct CtrlAl {
  static constexpr Format kFormat = Format::CtrlAl;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "CTRL_AL";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t op = 0;
  uint8_t dtype = 0;
  uint8_t src1_datasrc = 0;
  uint8_t dst_dtype = 0;
  uint8_t src0_lo = 0;
  uint8_t src0_hi = 0;
  uint8_t src1_lo = 0;
  uint8_t src1_hi = 0;
  uint8_t dst_lo = 0;
  uint8_t dst_hi = 0;
  std::array<uint8_t, 2> reserved1{};
  uint64_t immediate = 0;
  std::array<uint8_t, 32> reserved2{};
  bool operator==(const CtrlAl&) const = default;
};
template <>
inline constexpr auto fields_of<CtrlAl> = cat_fields(
    header_and_events<CtrlAl>(),
    field_decls(field("op", 12, &CtrlAl::op, Role::AluOp), field("dtype", 13, &CtrlAl::dtype, Role::Dtype),
                field("src1_datasrc", 14, &CtrlAl::src1_datasrc, Role::DataSrc),
                field("dst_dtype", 15, &CtrlAl::dst_dtype, Role::Dtype), field("src0_lo", 16, &CtrlAl::src0_lo),
                field("src0_hi", 17, &CtrlAl::src0_hi), field("src1_lo", 18, &CtrlAl::src1_lo),
                field("src1_hi", 19, &CtrlAl::src1_hi), field("dst_lo", 20, &CtrlAl::dst_lo),
                field("dst_hi", 21, &CtrlAl::dst_hi), field("reserved1", 22, &CtrlAl::reserved1, Role::Reserved),
                field("immediate", 24, &CtrlAl::immediate),
                field("reserved2", 32, &CtrlAl::reserved2, Role::Reserved)));

/// NEURON_ISA_TPB_CTRL_BR_STRUCT (64 B, compiler encoder and runtime builders): CompareBranch 0xa9.
struct CtrlBr {
  static constexpr Format kFormat = Format::CtrlBr;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "CTRL_BR";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t cmp_op = 0;
  uint8_t dtype = 0;
  uint8_t target_mode = 0;
  std::array<uint8_t, 1> reserved0{};
  uint32_t cmp_immediate = 0;
  std::array<uint8_t, 12> reserved1{};
  uint8_t cmp_reg0 = 0;
  uint8_t cmp_reg1 = 0;
  uint8_t target_reg_lo = 0;
  uint8_t target_reg_hi = 0;
  std::array<uint8_t, 12> reserved2{};
  uint64_t br_immediate = 0;
  std::array<uint8_t, 8> reserved3{};
  bool operator==(const CtrlBr&) const = default;
};
template <>
inline constexpr auto fields_of<CtrlBr> = cat_fields(
    header_and_events<CtrlBr>(),
    field_decls(
        field("cmp_op", 12, &CtrlBr::cmp_op), field("dtype", 13, &CtrlBr::dtype, Role::Dtype),
        field("target_mode", 14, &CtrlBr::target_mode), field("reserved0", 15, &CtrlBr::reserved0, Role::Reserved),
        field("cmp_immediate", 16, &CtrlBr::cmp_immediate), field("reserved1", 20, &CtrlBr::reserved1, Role::Reserved),
        field("cmp_reg0", 32, &CtrlBr::cmp_reg0), field("cmp_reg1", 33, &CtrlBr::cmp_reg1),
        field("target_reg_lo", 34, &CtrlBr::target_reg_lo), field("target_reg_hi", 35, &CtrlBr::target_reg_hi),
        field("reserved2", 36, &CtrlBr::reserved2, Role::Reserved), field("br_immediate", 48, &CtrlBr::br_immediate),
        field("reserved3", 56, &CtrlBr::reserved3, Role::Reserved)));

/// NEURON_ISA_TPB_CTRL_ER_STRUCT (64 B, sequencer.md §8.1): EventSemaphoreRangeClear 0xb0.
struct CtrlEr {
  static constexpr Format kFormat = Format::CtrlEr;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "CTRL_ER";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t clear_mode = 0;
  uint8_t range_first = 0;
  uint8_t range_last = 0;
  std::array<uint8_t, 17> reserved0{};
  std::array<uint32_t, 8> mask{};  ///< 256 bits: semaphore id -> bit (id & 31) of word (id >> 5)
  bool operator==(const CtrlEr&) const = default;
};
template <>
inline constexpr auto fields_of<CtrlEr> = cat_fields(
    header_and_events<CtrlEr>(),
    field_decls(field("clear_mode", 12, &CtrlEr::clear_mode), field("range_first", 13, &CtrlEr::range_first),
                field("range_last", 14, &CtrlEr::range_last),
                field("reserved0", 15, &CtrlEr::reserved0, Role::Reserved), field("mask", 32, &CtrlEr::mask)));

/// PollSem 0xb3 (sequencer.md §8.2, runtime builder add_poll_sem). The ISA struct name is UNKNOWN; POLL_SEM is
/// tpbisa's name for it.
struct PollSem {
  static constexpr Format kFormat = Format::PollSem;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "POLL_SEM";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t n_read = 0;
  uint8_t result_reg = 0;
  uint8_t combine_op = 0;
  std::array<uint8_t, 1> reserved0{};
  uint64_t address = 0;
  uint64_t writeback_address = 0;
  std::array<uint8_t, 32> reserved1{};
  bool operator==(const PollSem&) const = default;
};
template <>
inline constexpr auto fields_of<PollSem> = cat_fields(
    header_and_events<PollSem>(),
    field_decls(field("n_read", 12, &PollSem::n_read), field("result_reg", 13, &PollSem::result_reg),
                field("combine_op", 14, &PollSem::combine_op, Role::AluOp),
                field("reserved0", 15, &PollSem::reserved0, Role::Reserved), field("address", 16, &PollSem::address),
                field("writeback_address", 24, &PollSem::writeback_address),
                field("reserved1", 32, &PollSem::reserved1, Role::Reserved)));

/// BranchPrefetchHint 0xb5 and PseudoBranchPrefetchHint 0xdd (sequencer.md §8.3). Struct name and layout are
/// UNKNOWN: the relative target sits where CTRL_BR keeps br_immediate (PROJ-CONV-SQ2); the other bytes are kept
/// opaque and never inspected.
struct BranchPrefetchHint {
  static constexpr Format kFormat = Format::BranchPrefetchHint;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "BRANCH_PREFETCH_HINT";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  std::array<uint8_t, 36> payload0{};
  uint64_t target = 0;
  std::array<uint8_t, 8> payload1{};
  bool operator==(const BranchPrefetchHint&) const = default;
};
template <>
inline constexpr auto fields_of<BranchPrefetchHint> = cat_fields(
    header_and_events<BranchPrefetchHint>(),
    field_decls(field("payload0", 12, &BranchPrefetchHint::payload0), field("target", 48, &BranchPrefetchHint::target),
                field("payload1", 56, &BranchPrefetchHint::payload1)));

/// PseudoFunctionBegin 0xd1 and PseudoFunctionReturn 0xd2 (sequencer.md §8.4): consumed by the runtime's
/// lowering; the payload is UNKNOWN and kept opaque. PSEUDO_FUNCTION is tpbisa's name.
struct PseudoFunction {
  static constexpr Format kFormat = Format::PseudoFunction;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "PSEUDO_FUNCTION";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  std::array<uint8_t, 52> payload{};
  bool operator==(const PseudoFunction&) const = default;
};
template <>
inline constexpr auto fields_of<PseudoFunction> =
    cat_fields(header_and_events<PseudoFunction>(), field_decls(field("payload", 12, &PseudoFunction::payload)));

/// PseudoFunctionCall 0xd3 (sequencer.md §8.4): callee name (at most 35 characters, NUL-terminated) at byte 12,
/// the args-table variable id at byte 48. PSEUDO_FUNCTION_CALL is tpbisa's name.
struct PseudoFunctionCall {
  static constexpr Format kFormat = Format::PseudoFunctionCall;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "PSEUDO_FUNCTION_CALL";
  static constexpr size_t kSize = 64;
  static constexpr unsigned kNameBytes = 36;
  Header header{};
  Events events{};
  std::array<uint8_t, kNameBytes> callee{};
  uint32_t args_var_id = 0;
  std::array<uint8_t, 12> payload{};
  bool operator==(const PseudoFunctionCall&) const = default;
};
template <>
inline constexpr auto fields_of<PseudoFunctionCall> =
    cat_fields(header_and_events<PseudoFunctionCall>(),
               field_decls(field("callee", 12, &PseudoFunctionCall::callee),
                           field("args_var_id", 48, &PseudoFunctionCall::args_var_id, Role::VarId),
                           field("payload", 52, &PseudoFunctionCall::payload)));

/// PseudoInst 0xdf (sequencer.md §8.4): byte 12 selects the pseudo instruction (1 = exit execution); the rest is
/// UNKNOWN and kept opaque. PSEUDO_INST is tpbisa's name.
struct PseudoInst {
  static constexpr Format kFormat = Format::PseudoInst;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "PSEUDO_INST";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t kind = 0;
  std::array<uint8_t, 51> payload{};
  bool operator==(const PseudoInst&) const = default;
};
template <>
inline constexpr auto fields_of<PseudoInst> = cat_fields(header_and_events<PseudoInst>(),
                                                         field_decls(field("kind", 12, &PseudoInst::kind),
                                                                     field("payload", 13, &PseudoInst::payload)));

namespace family {
/// The sequencer control block family (src/families/seq): its layouts and the parts its folder defines.
struct SeqFamily {
  static constexpr std::string_view kName = "seq";
  using Layouts = TypeList<CtrlWr, CtrlMv, CtrlAl, CtrlBr, CtrlEr, PollSem, BranchPrefetchHint, PseudoFunction,
                           PseudoFunctionCall, PseudoInst>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};
}  // namespace family

// ---- Compile-time checks against the spec's layout tables (sequencer.md §4-§8) ----

static_assert(tiles_exactly<CtrlWr>() && tiles_exactly<CtrlMv>() && tiles_exactly<CtrlAl>() &&
              tiles_exactly<CtrlBr>() && tiles_exactly<CtrlEr>() && tiles_exactly<PollSem>() &&
              tiles_exactly<BranchPrefetchHint>() && tiles_exactly<PseudoFunction>() &&
              tiles_exactly<PseudoFunctionCall>() && tiles_exactly<PseudoInst>());
// §4 (PROJ-CONV-Q6 for address and value)
static_assert(offset_of<CtrlWr>("wr_size") == 12 && offset_of<CtrlWr>("address") == 16 &&
              offset_of<CtrlWr>("value") == 24);
// §5.1 (ctrl_mv.h, sizeof == 64)
static_assert(offset_of<CtrlMv>("num_mov") == 12 && offset_of<CtrlMv>("dtype") == 13 &&
              offset_of<CtrlMv>("move_source") == 14 && offset_of<CtrlMv>("reserved0") == 15 &&
              offset_of<CtrlMv>("src_registers") == 16 && offset_of<CtrlMv>("dst_registers") == 24 &&
              offset_of<CtrlMv>("immediate") == 32);
// §6.1 (runtime DWARF)
static_assert(offset_of<CtrlAl>("op") == 12 && offset_of<CtrlAl>("dtype") == 13 &&
              offset_of<CtrlAl>("src1_datasrc") == 14 && offset_of<CtrlAl>("dst_dtype") == 15 &&
              offset_of<CtrlAl>("src0_lo") == 16 && offset_of<CtrlAl>("src0_hi") == 17 &&
              offset_of<CtrlAl>("src1_lo") == 18 && offset_of<CtrlAl>("src1_hi") == 19 &&
              offset_of<CtrlAl>("dst_lo") == 20 && offset_of<CtrlAl>("dst_hi") == 21 &&
              offset_of<CtrlAl>("reserved1") == 22 && offset_of<CtrlAl>("immediate") == 24 &&
              offset_of<CtrlAl>("reserved2") == 32);
// §7.1 (compiler encoder and runtime builders agree)
static_assert(offset_of<CtrlBr>("cmp_op") == 12 && offset_of<CtrlBr>("dtype") == 13 &&
              offset_of<CtrlBr>("target_mode") == 14 && offset_of<CtrlBr>("cmp_immediate") == 16 &&
              offset_of<CtrlBr>("cmp_reg0") == 32 && offset_of<CtrlBr>("cmp_reg1") == 33 &&
              offset_of<CtrlBr>("target_reg_lo") == 34 && offset_of<CtrlBr>("target_reg_hi") == 35 &&
              offset_of<CtrlBr>("br_immediate") == 48);
// §8.1-§8.4
static_assert(offset_of<CtrlEr>("clear_mode") == 12 && offset_of<CtrlEr>("range_first") == 13 &&
              offset_of<CtrlEr>("range_last") == 14 && offset_of<CtrlEr>("mask") == 32);
static_assert(offset_of<PollSem>("n_read") == 12 && offset_of<PollSem>("result_reg") == 13 &&
              offset_of<PollSem>("combine_op") == 14 && offset_of<PollSem>("address") == 16 &&
              offset_of<PollSem>("writeback_address") == 24);
static_assert(offset_of<BranchPrefetchHint>("target") == offset_of<CtrlBr>("br_immediate"));
static_assert(offset_of<PseudoFunctionCall>("callee") == 12 && offset_of<PseudoFunctionCall>("args_var_id") == 48);
static_assert(offset_of<PseudoInst>("kind") == 12);

}  // namespace tpbisa
