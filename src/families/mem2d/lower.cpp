// Pseudo MEM_2D lowering (mem2d.md §6.6): the runtime's rewrite of 0xce/0xcd into 0xaa/0xab.
#include "tpbisa/lower.hpp"

#include <fmt/format.h>

#include "tpbisa/catalog.hpp"

namespace tpbisa {

LowerResult lower_pseudo(const Word& word, const VarTable& vars) {
  LowerResult r;
  r.word = word;
  const uint8_t op = word[0];
  if (op != opcode::kPseudoTensorLoad && op != opcode::kPseudoTensorStore) return r;
  const PseudoMem2d p = read_format<PseudoMem2d>(word);
  r.var_id = p.var_id;
  r.var_offset = p.var_offset;
  const auto it = vars.find(p.var_id);
  if (it == vars.end()) {
    r.status = LowerStatus::UnknownVariable;
    r.message = fmt::format("var_id {} is not in the variable table", p.var_id);
    return r;
  }
  const Variable& v = it->second;
  if (p.var_offset >= v.size) {
    r.status = LowerStatus::OffsetOutside;
    r.message = fmt::format("var_offset {:#x} is outside variable {} ({} bytes at {:#x})", p.var_offset, p.var_id,
                            v.size, v.base);
    return r;
  }
  const uint64_t address = v.base + p.var_offset;
  if (address < v.base || (address >> 58) != 0) {
    r.status = LowerStatus::AddressTooWide;
    r.message = fmt::format("variable {} base {:#x} + var_offset {:#x} does not fit a 58-bit immediate address",
                            p.var_id, v.base, p.var_offset);
    return r;
  }
  Mem2d m;
  m.header = p.header;
  m.header.opcode = op == opcode::kPseudoTensorLoad ? opcode::kTensorLoad : opcode::kTensorStore;
  m.events = p.events;
  m.dtype = p.dtype;
  m.src_datasrc = p.src_datasrc;
  m.num_elem = p.num_elem;
  m.start_addr.raw = address;  // marker byte 0x00: the immediate form
  m.step_elem = p.step_elem;
  m.data = p.data;
  write_format(m, r.word);
  r.status = LowerStatus::Lowered;
  return r;
}

}  // namespace tpbisa
