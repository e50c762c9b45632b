// The predicates every validator starts with, the header-only validator and label helpers.
#include "families/common.hpp"

#include "tpbisa/numerics.hpp"

namespace tpbisa::family {

std::string explain_header(const Instruction& i, const CheckContext& ctx) {
  const Header& h = i.header();
  std::string why;
  if (h.opcode == opcode::kInvalid) {
    why = "opcode 0xff is the INVALID sentinel";
  } else if (!opcode_in(h.opcode, ctx.gen)) {
    const OpcodeInfo* row = find_opcode(h.opcode);
    why = row == nullptr
              ? fmt::format("opcode {:#04x} is not an opcode of any generation", h.opcode)
              : fmt::format("opcode {:#04x} ({}) is not an opcode of {}", h.opcode, row->mnemonic, to_string(ctx.gen));
  }
  if (h.inst_word_len != kInstWordLen) {
    if (!why.empty()) why += "; ";
    why += fmt::format("inst_word_len is {}, must be {}", h.inst_word_len, kInstWordLen);
  }
  return why;
}

std::string_view header_convention(const Instruction& i, const CheckContext&) {
  return i.header().opcode == opcode::kInvalid ? "PROJ-CONV-C11" : "";
}

std::string explain_opcode(const Instruction& i, const CheckContext&) {
  return fmt::format("opcode {:#04x} is not the opcode this validator requires", i.opcode());
}

std::string explain_tile_idx(const Instruction& i, const CheckContext&) {
  return fmt::format("inst_flags is {:#04x}; {} requires tile index 0 on maverick", i.header().debug_hint, i.name());
}

std::string explain_events(const Instruction& i, const CheckContext& ctx) {
  const Events& e = i.events();
  std::string why;
  if (!enum_in(kWaitModes, e.wait_mode, ctx.gen))
    why = fmt::format("wait_mode {:#04x} is not a WAIT_MODE of {}", e.wait_mode, to_string(ctx.gen));
  if (!enum_in(kUpdateModes, e.update_mode, ctx.gen)) {
    if (!why.empty()) why += "; ";
    why += fmt::format("update_mode {:#04x} is not an UPDATE_MODE of {}", e.update_mode, to_string(ctx.gen));
  }
  return why;
}

bool placed_on_allowed_engine(const Instruction& i, const CheckContext& c) {
  return !c.engine().has_value() || placement_of(i.opcode(), c.gen).has(*c.engine());
}

std::string explain_engine_placement(const Instruction& i, const CheckContext& c) {
  const std::string_view engine = c.engine() ? to_string(*c.engine()) : std::string_view("an unknown engine");
  return fmt::format("{} ({:#04x}) is in the stream of {}; it runs on {} only (PROJ-CONV-F1)", i.name(), i.opcode(),
                     engine, placement_of(i.opcode(), c.gen).allowed);
}

}  // namespace tpbisa::family

namespace tpbisa {

bool engine_may_issue(uint8_t opcode, StreamEngine e) {
  return placement_of(opcode).has(e);
}

bool engine_may_issue(uint8_t opcode, StreamEngine e, Generation g) {
  return placement_of(opcode, g).has(e);
}

}  // namespace tpbisa

namespace tpbisa::family {

std::string dtype_label(uint8_t d, Generation g) {
  const DtypeInfo* row = find_dtype(d);
  if (row == nullptr) return fmt::format("{:#04x} (not a dtype)", d);
  if (!row->gens.has(g)) return fmt::format("{} ({:#04x}, not a dtype of {})", row->name, d, to_string(g));
  return fmt::format("{} ({:#04x})", row->name, d);
}

std::string aluop_label(uint8_t op, Generation g) {
  const AluOpInfo* row = find_aluop(op);
  if (row == nullptr) return fmt::format("{:#04x} (not an ALU op)", op);
  if (!row->gens.has(g)) return fmt::format("{} ({:#04x}, not an ALU op of {})", row->name, op, to_string(g));
  return fmt::format("{} ({:#04x})", row->name, op);
}

std::string addr4_label(const Addr4& a, Generation g) {
  return fmt::format("{:#010x} = {}", a.raw, to_string(describe(a, g)));
}

bool onchip_start(exec::Txn& txn, const Addr4& a, uint32_t& base, std::string_view which) {
  return exec::addr4_mode_supported(txn, a, which) && exec::addr4_shape_supported(txn, a, which) &&
         exec::resolve_addr4(txn, a, base, which);
}

bool engine_runs(const Instruction& inst, exec::Txn& txn) {
  const std::optional<Engine> e = txn.stream_engine();
  const EnginePlacement p = placement_of(inst.opcode(), txn.gen());
  if (!e.has_value() || p.has(*e)) return true;
  return txn.fail(FaultKind::WrongEngine, fmt::format("{} runs on {} in the functional model (PROJ-CONV-K1), not on "
                                                      "the {} stream",
                                                      inst.name(), p.allowed, to_string(*e)));
}

bool element_dtype_supported(exec::Txn& txn, uint8_t d, std::string_view which) {
  if (convertible(d) && dtype_size(d) >= 1 && dtype_size(d) <= 4) return true;
  return txn.fail(FaultKind::UnsupportedDtype, fmt::format("{} dtype {} has no element semantics in the executor",
                                                           which, dtype_label(d, txn.gen())));
}

const Execution::NotPublic* not_public_row(const Instruction& inst, std::span<const Execution::NotPublic> rows) {
  for (const Execution::NotPublic& n : rows)
    if (n.opcode == inst.opcode()) return &n;
  return nullptr;
}

bool refuse_not_public(const Instruction& inst, exec::Txn& txn, const Execution::NotPublic& row,
                       std::string_view convention) {
  return txn.fail(FaultKind::UnsupportedOpcode,
                  fmt::format("{} ({:#04x}) is not executed: its semantics are not public ({}{}{})", inst.name(),
                              inst.opcode(), row.source, convention.empty() ? "" : "; ", convention));
}

bool refuse_not_modeled(const Instruction& inst, exec::Txn& txn) {
  return txn.fail(FaultKind::UnsupportedOpcode,
                  fmt::format("execution of {} ({:#04x}) is not modeled", inst.name(), inst.opcode()));
}

}  // namespace tpbisa::family
