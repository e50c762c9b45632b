// Compact-control family format: COMPACT_CONTROL_INST 0xB6 (CTRL_CCI, MAVERICK), as the public wiki quotes its header
// (dma-transpose-opcode-cluster.md §3g; PROJ-CONV-CC1): a header and fifteen 4-byte compact instructions, no EVENTS.
#pragma once

#include <array>

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// NEURON_ISA_TPB_CCINST (4 B): one compact control instruction. The header makes it a union of 4-byte arms (CCALU
/// {op, src0, src1, dst}, CCMOV_IMM {op, dst, imm16}, CCMEM {op, srcdst, addr_reg, addr_imm}, CCBR {op, cc_src,
/// target}, ...), each opening with its CCOP byte; the three bytes after it are kept as they are (PROJ-CONV-CC2).
struct CcInst {
  static constexpr std::string_view kName = "CCINST";
  static constexpr size_t kSize = 4;
  uint8_t op = 0;                     ///< CCOP
  std::array<uint8_t, 3> operands{};  ///< the arm's operand bytes
  bool operator==(const CcInst&) const = default;
};
template <>
inline constexpr auto fields_of<CcInst> = field_decls(Member<CcInst, uint8_t>{"op", 0, &CcInst::op, Role::Custom},
                                                      Member<CcInst, std::array<uint8_t, 3>>{
                                                          "operands", 1, &CcInst::operands, Role::Plain});

/// NEURON_ISA_TPB_CTRL_CCI_STRUCT (64 B), ctrl_cci.h: the CCIHEADER {opcode, reserved, debug_cmd, debug_hint} at the
/// header's bytes, read as the HEADER the validator's has_valid_neuron_header judges (PROJ-CONV-CC1), then insts[15]
/// as inst0 .. inst14. Bytes 4-11 are inst0 and inst1, not EVENTS: the word waits for nothing and updates nothing
/// (kNoEvents; `events` stays zero and is not part of the word).
struct CtrlCci {
  static constexpr Format kFormat = Format::CtrlCci;
  static constexpr GenSet kGens = kGensMaverickOnly;
  static constexpr std::string_view kName = "CTRL_CCI";
  static constexpr size_t kSize = 64;
  static constexpr bool kNoEvents = true;
  static constexpr unsigned kInsts = 15;
  Header header{};
  Events events{};  ///< not on the wire (kNoEvents)
  CcInst inst0{};
  CcInst inst1{};
  CcInst inst2{};
  CcInst inst3{};
  CcInst inst4{};
  CcInst inst5{};
  CcInst inst6{};
  CcInst inst7{};
  CcInst inst8{};
  CcInst inst9{};
  CcInst inst10{};
  CcInst inst11{};
  CcInst inst12{};
  CcInst inst13{};
  CcInst inst14{};
  bool operator==(const CtrlCci&) const = default;
};
template <>
inline constexpr auto fields_of<CtrlCci> = field_decls(
    field("header", 0, &CtrlCci::header), field("inst0", 4, &CtrlCci::inst0), field("inst1", 8, &CtrlCci::inst1),
    field("inst2", 12, &CtrlCci::inst2), field("inst3", 16, &CtrlCci::inst3), field("inst4", 20, &CtrlCci::inst4),
    field("inst5", 24, &CtrlCci::inst5), field("inst6", 28, &CtrlCci::inst6), field("inst7", 32, &CtrlCci::inst7),
    field("inst8", 36, &CtrlCci::inst8), field("inst9", 40, &CtrlCci::inst9), field("inst10", 44, &CtrlCci::inst10),
    field("inst11", 48, &CtrlCci::inst11), field("inst12", 52, &CtrlCci::inst12), field("inst13", 56, &CtrlCci::inst13),
    field("inst14", 60, &CtrlCci::inst14));

namespace cci {

/// insts[k] of the header, in word order.
inline constexpr std::array<CcInst CtrlCci::*, CtrlCci::kInsts> kInsts{
    {&CtrlCci::inst0, &CtrlCci::inst1, &CtrlCci::inst2, &CtrlCci::inst3, &CtrlCci::inst4, &CtrlCci::inst5,
     &CtrlCci::inst6, &CtrlCci::inst7, &CtrlCci::inst8, &CtrlCci::inst9, &CtrlCci::inst10, &CtrlCci::inst11,
     &CtrlCci::inst12, &CtrlCci::inst13, &CtrlCci::inst14}};

inline constexpr uint8_t kCompactControlInst = detail::opcode_named("COMPACT_CONTROL_INST");

/// CCOP (ctrl_cci.h): the values the wiki spells by name. A name between two spelled ends of a run (ADD64..MIN64,
/// ABS_VALUE..ABS_MIN64) follows the order of its 32-bit or float sibling run (PROJ-CONV-CC2); the values of the
/// saturating, 64-bit shift, logical, compare and branch runs the wiki does not spell one by one are written as
/// numbers.
inline constexpr std::array<EnumValue, 60> kOps{{
    {0x00, "NOP", kGensAll, ""},
    {0x01, "MOV", kGensAll, ""},
    {0x02, "MOV_IMM_LO", kGensAll, ""},
    {0x03, "MOV_IMM_HI", kGensAll, ""},
    {0x04, "MOV_IMM_LO_S", kGensAll, ""},
    {0x10, "ADD", kGensAll, ""},
    {0x11, "SUB", kGensAll, ""},
    {0x12, "MUL", kGensAll, ""},
    {0x13, "DIV", kGensAll, ""},
    {0x14, "MOD", kGensAll, ""},
    {0x15, "MAX", kGensAll, ""},
    {0x16, "MIN", kGensAll, ""},
    {0x20, "ADD64", kGensAll, ""},
    {0x21, "SUB64", kGensAll, "PROJ-CONV-CC2"},
    {0x22, "MUL64", kGensAll, "PROJ-CONV-CC2"},
    {0x23, "DIV64", kGensAll, "PROJ-CONV-CC2"},
    {0x24, "MOD64", kGensAll, "PROJ-CONV-CC2"},
    {0x25, "MAX64", kGensAll, "PROJ-CONV-CC2"},
    {0x26, "MIN64", kGensAll, ""},
    {0x30, "ADDF", kGensAll, ""},
    {0x31, "SUBF", kGensAll, ""},
    {0x32, "MULF", kGensAll, ""},
    {0x33, "DIVF", kGensAll, ""},
    {0x34, "TRUNCF", kGensAll, ""},
    {0x35, "MAXF", kGensAll, ""},
    {0x36, "MINF", kGensAll, ""},
    {0x37, "ABS_VALUEF", kGensAll, ""},
    {0x38, "ABS_MAXF", kGensAll, ""},
    {0x39, "ABS_MINF", kGensAll, ""},
    {0x3a, "ABS_VALUE", kGensAll, ""},
    {0x3b, "ABS_MAX", kGensAll, "PROJ-CONV-CC2"},
    {0x3c, "ABS_MIN", kGensAll, "PROJ-CONV-CC2"},
    {0x3d, "ABS_VALUE64", kGensAll, "PROJ-CONV-CC2"},
    {0x3e, "ABS_MAX64", kGensAll, "PROJ-CONV-CC2"},
    {0x3f, "ABS_MIN64", kGensAll, ""},
    {0x40, "ASL", kGensAll, ""},
    {0x41, "ASR", kGensAll, ""},
    {0x42, "LSL", kGensAll, ""},
    {0x43, "LSR", kGensAll, ""},
    {0x44, "ROL", kGensAll, ""},
    {0x45, "ROR", kGensAll, ""},
    {0x4a, "CLZ", kGensAll, ""},
    {0x4b, "CLZ64", kGensAll, ""},
    {0x50, "LOGICAL_AND", kGensAll, ""},
    {0x57, "BITWISE_XOR", kGensAll, ""},
    {0xa0, "LDR", kGensAll, ""},
    {0xa1, "LDRH", kGensAll, ""},
    {0xa2, "LDRHS", kGensAll, ""},
    {0xa3, "LDRB", kGensAll, ""},
    {0xa4, "LDRBS", kGensAll, ""},
    {0xa5, "STR", kGensAll, ""},
    {0xa6, "STRH", kGensAll, ""},
    {0xa7, "STRB", kGensAll, ""},
    {0xa8, "LDRD", kGensAll, ""},
    {0xa9, "LDRQ", kGensAll, ""},
    {0xaa, "STRD", kGensAll, ""},
    {0xab, "STRQ", kGensAll, ""},
    {0xb0, "SEM_READ", kGensAll, ""},
    {0xb1, "SEM_WRITE", kGensAll, ""},
    {0xb2, "SEM_ADD", kGensAll, ""},
}};

/// The run of the CCOP enum an op falls in, as the wiki groups it; empty outside every run.
constexpr std::string_view op_class(uint8_t op) {
  if (op == 0x00) return "no operation";
  if (op <= 0x04) return "move";
  if (op >= 0x10 && op <= 0x16) return "32-bit integer arithmetic";
  if (op >= 0x18 && op <= 0x1e) return "32-bit saturating arithmetic";
  if (op >= 0x20 && op <= 0x26) return "64-bit integer arithmetic";
  if (op >= 0x28 && op <= 0x2e) return "64-bit saturating arithmetic";
  if (op >= 0x30 && op <= 0x39) return "float arithmetic";
  if (op >= 0x3a && op <= 0x3f) return "integer absolute value";
  if (op >= 0x40 && op <= 0x4b) return "shift, rotate or count of leading zeros";
  if (op >= 0x50 && op <= 0x57) return "logical or bitwise";
  if (op >= 0x60 && op <= 0x85) return "compare";
  if (op >= 0x90 && op <= 0x9b) return "branch";
  if (op >= 0xa0 && op <= 0xab) return "load or store";
  if (op >= 0xb0 && op <= 0xb2) return "semaphore";
  return {};
}

}  // namespace cci

namespace family {

/// The compact-control family (src/families/cci): its layout and the parts its folder defines.
struct CompactControlFamily {
  static constexpr std::string_view kName = "cci";
  using Layouts = TypeList<CtrlCci>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};

}  // namespace family

// ---- Compile-time checks against the wiki's compile-verify (dma-transpose-opcode-cluster.md §2: insts at +4) ----

static_assert(tiles_exactly<CcInst>() && tiles_exactly<CtrlCci>());
static_assert(offset_of<CtrlCci>("inst0") == 4 && offset_of<CtrlCci>("inst14") == 60 &&
              offset_of<CtrlCci>("events") == 0xFF);

}  // namespace tpbisa
