// Sequencer family syntax and meaning: which fields a word uses and how `decode` describes them, from the readings of
// the mode-dependent fields in seq.hpp (register slots, the right operand, the branch target).
#include <fmt/format.h>

#include "families/common.hpp"
#include "families/seq/seq.hpp"
#include "tpbisa/address.hpp"
#include "tpbisa/describe.hpp"

namespace tpbisa::family {
namespace seq {

namespace {

/// "immediate[3]" -> ("immediate", 3); "dtype" -> ("dtype", -1).
std::pair<std::string_view, int> split_path(std::string_view path) {
  const size_t open = path.find('[');
  if (open == std::string_view::npos) return {path, -1};
  int k = 0;
  for (size_t i = open + 1; i < path.size() && path[i] != ']'; ++i) k = k * 10 + (path[i] - '0');
  return {path.substr(0, open), k};
}

bool move_used(const CtrlMv& m, std::string_view name) {
  return name != "immediate" || m.move_source == kDataSrcImmediate;
}

bool alu_used(const CtrlAl& a, std::string_view name) {
  const AluOperands o = alu_operands(a);
  if (name == "src1_lo") return !o.src1_immediate;
  if (name == "src1_hi") return !o.src1_immediate && o.wide;
  if (name == "src0_hi" || name == "dst_hi") return o.wide;
  if (name == "immediate") return o.src1_immediate;
  return true;
}

bool branch_used(const CtrlBr& b, std::string_view name) {
  const BranchReading r = branch_reading(b);
  if (name == "dtype" || name == "cmp_reg0") return r.compare != BrCompare::Always;
  if (name == "cmp_immediate") return r.compare == BrCompare::Immediate;
  if (name == "cmp_reg1") return r.compare == BrCompare::Register;
  if (name == "target_reg_lo" || name == "target_reg_hi") return r.target != BrTarget::RelImmediate;
  if (name == "br_immediate") return r.target == BrTarget::RelImmediate;
  return true;
}

bool clear_used(const CtrlEr& e, std::string_view name) {
  const ClearMode m = clear_mode(e);
  if (name == "mask") return m != ClearMode::Range;
  if (name == "range_first" || name == "range_last") return m != ClearMode::Mask;
  return true;
}

}  // namespace

bool operand_used(const Instruction& inst, std::string_view path) {
  const std::string_view name = split_path(path).first;
  if (const auto* m = inst.as<CtrlMv>()) return move_used(*m, name);
  if (const auto* a = inst.as<CtrlAl>()) return alu_used(*a, name);
  if (const auto* b = inst.as<CtrlBr>()) return branch_used(*b, name);
  if (const auto* e = inst.as<CtrlEr>()) return clear_used(*e, name);
  return true;
}

}  // namespace seq

namespace {

using seq::is_general_register;

std::string reg_name(uint8_t r) {
  if (is_general_register(r)) return fmt::format("R{}", r);
  if (r == seq::kPcLow) return "PC low half (specifier 128, read-only)";
  if (r == seq::kPcHigh) return "PC high half (specifier 129, read-only)";
  return fmt::format("{}: not a register (R0-R63, 128, 129)", r);
}

std::string unused(std::string_view why) {
  return fmt::format("unused ({})", why);
}

/// A Neuron address: an SBUF/PSUM location in the low region, else flat device memory (PROJ-CONV-N4).
std::string address_text(uint64_t a, Generation g) {
  return fmt::format("Neuron address {:#x} ({})", a, to_string(describe(Addr8{a}, g)));
}

std::string write_meaning(const CtrlWr& w, std::string_view name, Generation g) {
  if (name == "wr_size") return w.wr_size == 4 ? "4-byte store" : fmt::format("{}-byte store: must be 4", w.wr_size);
  if (name == "address")
    return address_text(w.address, g) + (w.address % 4 == 0 ? "" : ": not 4-byte aligned") + " (PROJ-CONV-Q6)";
  if (name == "value") return fmt::format("u32 {:#010x} ({}) stored little-endian (PROJ-CONV-Q6)", w.value, w.value);
  return "";
}

std::string move_meaning(const CtrlMv& m, std::string_view name, int k) {
  if (name == "num_mov")
    return m.num_mov >= 1 && m.num_mov <= 8 ? fmt::format("{} of 8 moves", m.num_mov)
                                            : fmt::format("{} moves: must be 1..8", m.num_mov);
  if (k < 0) return "";
  const auto slot = static_cast<unsigned>(k);
  const seq::MoveSlot s = seq::move_slot(m, slot);
  if (name == "src_registers") {
    if (!s.used) return m.src_registers[slot] == 0 ? unused("slot beyond num_mov") : "unused slot: must be 0";
    if (s.from_immediate)
      return fmt::format("not read: the source is immediate[{}] (specifier {} still checked)", k,
                         reg_name(m.src_registers[slot]));
    return fmt::format("slot {} source {}", k, reg_name(m.src_registers[slot]));
  }
  if (name == "dst_registers") {
    if (!s.used) return unused("slot beyond num_mov");
    const uint8_t d = m.dst_registers[slot];
    if (d == seq::kPcLow || d == seq::kPcHigh)
      return fmt::format("slot {} destination {}: the write is ignored (PROJ-CONV-Q7)", k, reg_name(d));
    return fmt::format("slot {} destination {}", k, reg_name(d));
  }
  if (name == "immediate") {
    if (!s.used) return unused("slot beyond num_mov");
    if (!s.from_immediate) return unused("register source");
    return fmt::format("slot {} value {:#010x}, moved as raw bits", k, m.immediate[slot]);
  }
  return "";
}

std::string alu_meaning(const CtrlAl& a, std::string_view name, Generation g) {
  const seq::AluOperands o = seq::alu_operands(a);
  if (name == "dst_dtype")
    return a.dst_dtype == 0 ? "0: the result has the operand dtype (PROJ-CONV-Q10)"
                            : describe_dtype(a.dst_dtype, g) + (a.dst_dtype == a.dtype ? "" : ": must be 0 or dtype");
  if (name == "src0_lo")
    return fmt::format("left operand (src0) {}{}", reg_name(a.src0_lo), o.wide ? ", low half" : "");
  if (name == "src0_hi")
    return o.wide ? fmt::format("left operand high half {}", reg_name(a.src0_hi)) : unused("32-bit or narrower dtype");
  if (name == "src1_lo")
    return o.src1_immediate ? unused("src1 is the immediate")
                            : fmt::format("right operand (src1) {}{}", reg_name(a.src1_lo), o.wide ? ", low half" : "");
  if (name == "src1_hi")
    return o.src1_immediate || !o.wide ? unused(o.src1_immediate ? "src1 is the immediate" : "32-bit or narrower dtype")
                                       : fmt::format("right operand high half {}", reg_name(a.src1_hi));
  if (name == "dst_lo") return fmt::format("result {}{}", reg_name(a.dst_lo), o.wide ? ", low half" : "");
  if (name == "dst_hi")
    return o.wide ? fmt::format("result high half {}", reg_name(a.dst_hi)) : unused("32-bit or narrower dtype");
  if (name == "immediate") {
    if (!o.src1_immediate) return unused("src1 from registers");
    const unsigned size = dtype_size(a.dtype);
    const uint64_t v = size >= 8 || size == 0 ? a.immediate : a.immediate & ((uint64_t{1} << (8 * size)) - 1);
    return fmt::format("right operand (src1) immediate {:#x}: its low {} bytes are used", v, size == 0 ? 8 : size);
  }
  return "";
}

std::string branch_target_text(const CtrlBr& b, const seq::BranchReading& r) {
  const int64_t rel = seq::relative_offset(b.br_immediate);
  if (r.runtime_relative)
    return fmt::format("relative target {:+} bytes from this word (runtime-encoded: debug_hint 2)", rel);
  return fmt::format(
      "device stream: relative target {:+} bytes; NEFF stream: target instruction index {} of this "
      "engine's stream (PROJ-CONV-Q15)",
      rel, b.br_immediate);
}

std::string branch_meaning(const CtrlBr& b, std::string_view name, Generation g) {
  const seq::BranchReading r = seq::branch_reading(b);
  if (name == "cmp_op") {
    switch (r.compare) {
      case seq::BrCompare::Always: return "0: always taken (unconditional)";
      case seq::BrCompare::Immediate:
        return fmt::format("{}: taken if R[cmp_reg0] {} cmp_immediate", b.cmp_op, r.relation);
      case seq::BrCompare::Register:
        return fmt::format("{}: taken if R[cmp_reg0] {} R[cmp_reg1]", b.cmp_op, r.relation);
      case seq::BrCompare::Invalid: break;
    }
    return fmt::format("{}: not a BR_CMP_OP (0, 1-6, 9-14)", b.cmp_op);
  }
  if (name == "dtype")
    return r.compare == seq::BrCompare::Always ? unused("unconditional")
                                               : "comparison type: " + describe_dtype(b.dtype, g);
  if (name == "target_mode") {
    switch (r.target) {
      case seq::BrTarget::Register: return "REGISTER (1): target = absolute address R[target_reg_hi]:R[target_reg_lo]";
      case seq::BrTarget::RelImmediate: return "REL_IMMEDIATE (3): target from br_immediate";
      case seq::BrTarget::RelRegister: return "REL_REGISTER (4): PC += R[target_reg_hi]:R[target_reg_lo]";
      case seq::BrTarget::Invalid: break;
    }
    return fmt::format("{}: not a target mode (1, 3, 4; 0 and 2 UNKNOWN, PROJ-CONV-Q11)", b.target_mode);
  }
  if (name == "cmp_immediate")
    return r.compare == seq::BrCompare::Immediate
               ? fmt::format("right operand {} ({:#x})", b.cmp_immediate, b.cmp_immediate)
               : unused("not an immediate comparison");
  if (name == "cmp_reg0")
    return r.compare == seq::BrCompare::Always ? unused("unconditional") : "left operand " + reg_name(b.cmp_reg0);
  if (name == "cmp_reg1")
    return r.compare == seq::BrCompare::Register ? "right operand " + reg_name(b.cmp_reg1)
                                                 : unused("not a register comparison");
  if (name == "target_reg_lo" || name == "target_reg_hi") {
    if (r.target == seq::BrTarget::RelImmediate) return unused("target from br_immediate");
    const uint8_t reg = name == "target_reg_lo" ? b.target_reg_lo : b.target_reg_hi;
    return fmt::format("target {} half {}", name == "target_reg_lo" ? "low" : "high", reg_name(reg));
  }
  if (name == "br_immediate")
    return r.target == seq::BrTarget::RelImmediate ? branch_target_text(b, r) : unused("target from registers");
  return "";
}

std::string clear_meaning(const CtrlEr& e, std::string_view name, int k) {
  const seq::ClearMode m = seq::clear_mode(e);
  if (name == "clear_mode") {
    if (m == seq::ClearMode::Range) return "1: zero semaphores range_first..range_last";
    if (m == seq::ClearMode::Mask) return "2: zero every semaphore whose mask bit is set";
    return fmt::format("{}: not a clear mode (1 range, 2 mask)", e.clear_mode);
  }
  if (name == "range_first" || name == "range_last") {
    if (m == seq::ClearMode::Mask) return unused("mask clear");
    return fmt::format("{} semaphore of the range: S[{}]", name == "range_first" ? "first" : "last",
                       name == "range_first" ? e.range_first : e.range_last);
  }
  if (name == "mask" && k >= 0) {
    if (m == seq::ClearMode::Range) return unused("range clear");
    return fmt::format("semaphores S[{}]..S[{}]: bit n = S[{} + n]", 32 * k, 32 * k + 31, 32 * k);
  }
  return "";
}

std::string poll_meaning(const PollSem& p, std::string_view name, Generation g) {
  if (name == "n_read") return fmt::format("reads {} consecutive u32 values (1..16)", p.n_read);
  if (name == "result_reg") return "result to " + reg_name(p.result_reg);
  if (name == "address") return "first value at " + address_text(p.address, g);
  if (name == "writeback_address")
    return p.writeback_address == 0 ? "0: no write-back (PROJ-CONV-Q13)"
                                    : "result also written to " + address_text(p.writeback_address, g);
  return "";
}

std::string hint_meaning(const BranchPrefetchHint& h, std::string_view name) {
  if (name == "target")
    return fmt::format("hinted target: relative {:+} bytes (PROJ-CONV-SQ2); no architectural effect",
                       seq::relative_offset(h.target));
  if (name.starts_with("payload")) return "opaque (layout UNKNOWN, not inspected)";
  return "";
}

std::string call_meaning(const PseudoFunctionCall& c, std::string_view name, int k) {
  if (name == "callee" && k == 0)
    return fmt::format("callee name \"{}\" ({} bytes at 12..47, NUL-terminated)", seq::callee_name(c),
                       seq::callee_name(c).size());
  if (name == "callee") return "callee name byte";
  if (name == "args_var_id") return fmt::format("args-table variable id {} (def.json var_id)", c.args_var_id);
  if (name == "payload") return "opaque (not inspected)";
  return "";
}

std::string meaning(const Instruction& inst, std::string_view path) {
  const auto [name, k] = seq::split_path(path);
  const Generation g = inst.gen;
  if (const auto* w = inst.as<CtrlWr>()) return write_meaning(*w, name, g);
  if (const auto* m = inst.as<CtrlMv>()) return move_meaning(*m, name, k);
  if (const auto* a = inst.as<CtrlAl>()) return alu_meaning(*a, name, g);
  if (const auto* b = inst.as<CtrlBr>()) return branch_meaning(*b, name, g);
  if (const auto* e = inst.as<CtrlEr>()) return clear_meaning(*e, name, k);
  if (const auto* p = inst.as<PollSem>()) return poll_meaning(*p, name, g);
  if (const auto* h = inst.as<BranchPrefetchHint>()) return hint_meaning(*h, name);
  if (const auto* c = inst.as<PseudoFunctionCall>()) return call_meaning(*c, name, k);
  if (inst.as<PseudoFunction>() != nullptr && name == "payload") return "opaque (layout UNKNOWN, not inspected)";
  if (const auto* p = inst.as<PseudoInst>()) {
    if (name == "kind")
      return p->kind == seq::kPseudoInstExit ? "1: exit execution" : fmt::format("{}: unknown", p->kind);
    if (name == "payload") return "opaque (not inspected)";
  }
  return "";
}

// Opaque payloads and fields that are zero in every known word are written only when not zero.
constexpr std::string_view kQuiet[] = {"dst_dtype", "payload", "payload0", "payload1"};
constexpr std::string_view kHex[] = {"address", "writeback_address", "value", "mask", "target", "br_immediate"};

constexpr Syntax kSyntax{
    .note =
        "register slots, the ALU right operand and the branch target are read by their mode fields; operands "
        "a word's modes leave unused are written only when not zero",
    .quiet_fields = kQuiet,
    .hex_fields = kHex,
    .operand_used = seq::operand_used,
    .meaning = meaning};

}  // namespace

const Syntax& SeqFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
