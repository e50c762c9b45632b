// The Family records of the registered families, built from the registry list; the look-ups by format.
#include <array>
#include <cctype>
#include <vector>

#include "families/family.hpp"

namespace tpbisa::family {
namespace {

template <class... F>
std::array<Family, sizeof...(F)> make_families(TypeList<F...>) {
  return {Family{F::kName, F::validation(), F::execution(), F::syntax()}...};
}

}  // namespace

std::span<const Family> families() {
  static const auto kFamilies = make_families(Families{});
  return kFamilies;
}

const Family* family_of(Format f) {
  const size_t i = family_index(f);
  return i < kFamilyCount ? &families()[i] : nullptr;
}

namespace {
const Family* family_of_word(const Word& w) {
  const OpcodeInfo* row = find_opcode(w[field_ref<RawWord>("header.opcode").offset]);
  return row != nullptr ? family_of(row->format) : nullptr;
}
}  // namespace

ImmReading imm_reading(const Word& w, std::string_view path) {
  const Family* f = family_of_word(w);
  return f != nullptr && f->syntax.imm_reading != nullptr ? f->syntax.imm_reading(w, path) : ImmReading::Value;
}

DataReading data_reading(const Word& w) {
  const Family* f = family_of_word(w);
  return f != nullptr && f->syntax.data_reading != nullptr ? f->syntax.data_reading(w) : DataReading{};
}

std::string_view plain_meaning(const Word& w, std::string_view path) {
  const Family* f = family_of_word(w);
  return f != nullptr && f->syntax.plain_meaning != nullptr ? f->syntax.plain_meaning(w, path) : std::string_view{};
}

const CustomField* custom_field(size_t alternative, std::string_view path) {
  if (alternative == 0 || alternative > kLayoutRows.size()) return nullptr;
  for (const CustomField& c : families()[kLayoutRows[alternative - 1].family].syntax.custom_fields)
    if (c.path == path) return &c;
  return nullptr;
}

namespace {
const Family* family_of_modeled(const Instruction& inst) {
  return inst.status == DecodeStatus::Modeled && inst.info != nullptr ? family_of(inst.info->format) : nullptr;
}
}  // namespace

const Validator* validator_of(uint8_t opcode, Generation gen) {
  const OpcodeInfo* row = find_opcode(opcode);
  if (row == nullptr || !row->gens.has(gen)) return nullptr;
  const Family* f = family_of(row->format);
  if (f == nullptr) return nullptr;
  for (const ValidatorRow& r : f->validation.rows)
    if (r.opcode == opcode && r.gens.has(gen)) return r.validator;
  return nullptr;
}

}  // namespace tpbisa::family

namespace tpbisa {

std::span<const UnitState* const> unit_states() {
  static const std::vector<const UnitState*> kStates = [] {
    std::vector<const UnitState*> out;
    for (const family::Family& f : family::families())
      for (const UnitState& u : f.execution.unit_state) out.push_back(&u);
    return out;
  }();
  return kStates;
}

const UnitState* find_unit_state(std::string_view name) {
  const auto same = [](std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
        return false;
    return true;
  };
  for (const UnitState* u : unit_states())
    if (same(u->name, name)) return u;
  return nullptr;
}

}  // namespace tpbisa

namespace tpbisa::family {

Executor executor_for(const Instruction& inst) {
  const Family* f = family_of_modeled(inst);
  return f != nullptr ? f->execution.execute : nullptr;
}

Footprint footprint(const Instruction& inst, Generation gen) {
  const Family* f = family_of_modeled(inst);
  return f != nullptr && f->execution.footprint != nullptr ? f->execution.footprint(inst, gen) : Footprint{};
}

ExtraWaits extra_waits(const Instruction& inst) {
  const Family* f = family_of_modeled(inst);
  return f != nullptr && f->execution.extra_waits != nullptr ? f->execution.extra_waits(inst) : ExtraWaits{};
}

}  // namespace tpbisa::family
