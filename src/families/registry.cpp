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

const Family* opcode_family(uint8_t opcode) {
  // Built once from the validator tables: the family whose table lists the opcode; the catalog format's owner for an
  // opcode no table lists.
  static const std::array<const Family*, 256> kOwners = [] {
    std::array<const Family*, 256> owners{};
    for (const Family& f : families())
      for (const ValidatorRow& r : f.validation.rows) owners[r.opcode] = &f;
    for (unsigned v = 0; v < owners.size(); ++v)
      if (const OpcodeInfo* row = find_opcode(static_cast<uint8_t>(v)); owners[v] == nullptr && row != nullptr)
        owners[v] = family_of(row->format);
    return owners;
  }();
  return kOwners[opcode];
}

namespace {

/// The family that owns a word's format (the struct's declarations and format-wide syntax) and the one that owns its
/// opcode (its validator, semantics and opcode-wide syntax); the same family unless the struct is shared.
struct Owners {
  const Family* format = nullptr;
  const Family* opcode = nullptr;
};

Owners owners_of_word(const Word& w) {
  const uint8_t op = w[field_ref<RawWord>("header.opcode").offset];
  const OpcodeInfo* row = find_opcode(op);
  if (row == nullptr) return {};
  return {family_of(row->format), opcode_family(op)};
}

Owners owners_of(const Instruction& inst) {
  if (inst.status != DecodeStatus::Modeled || inst.info == nullptr) return {};
  return {family_of(inst.info->format), opcode_family(inst.opcode())};
}

/// The Syntax hook `member` of the opcode's family when it has one, else that of the format's (nullptr: neither).
template <class Hook>
Hook syntax_hook(const Owners& o, Hook Syntax::*member) {
  if (o.opcode != nullptr && o.opcode->syntax.*member != nullptr) return o.opcode->syntax.*member;
  return o.format != nullptr ? o.format->syntax.*member : nullptr;
}

/// The Execution hook `member`, resolved the same way.
template <class Hook>
Hook execution_hook(const Owners& o, Hook Execution::*member) {
  if (o.opcode != nullptr && o.opcode->execution.*member != nullptr) return o.opcode->execution.*member;
  return o.format != nullptr ? o.format->execution.*member : nullptr;
}

}  // namespace

ImmReading imm_reading(const Word& w, std::string_view path) {
  const auto hook = syntax_hook(owners_of_word(w), &Syntax::imm_reading);
  return hook != nullptr ? hook(w, path) : ImmReading::Value;
}

DataReading data_reading(const Word& w) {
  const auto hook = syntax_hook(owners_of_word(w), &Syntax::data_reading);
  return hook != nullptr ? hook(w) : DataReading{};
}

std::string_view plain_meaning(const Word& w, std::string_view path) {
  const auto hook = syntax_hook(owners_of_word(w), &Syntax::plain_meaning);
  return hook != nullptr ? hook(w, path) : std::string_view{};
}

bool (*operand_used_hook(const Instruction& inst))(const Instruction&, std::string_view) {
  return syntax_hook(owners_of(inst), &Syntax::operand_used);
}

std::string (*meaning_hook(const Instruction& inst))(const Instruction&, std::string_view) {
  return syntax_hook(owners_of(inst), &Syntax::meaning);
}

std::string (*more_events_hook(const Instruction& inst))(const Instruction&) {
  return syntax_hook(owners_of(inst), &Syntax::more_events);
}

const CustomField* custom_field(size_t alternative, std::string_view path) {
  if (alternative == 0 || alternative > kLayoutRows.size()) return nullptr;
  for (const CustomField& c : families()[kLayoutRows[alternative - 1].family].syntax.custom_fields)
    if (c.path == path) return &c;
  return nullptr;
}

const Validator* validator_of(uint8_t opcode, Generation gen) {
  const OpcodeInfo* row = find_opcode(opcode);
  if (row == nullptr || !row->gens.has(gen) || row->format == Format::NotModeled) return nullptr;
  const Family* f = opcode_family(opcode);
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

const Execution* execution_of(const Instruction& inst) {
  const Owners o = owners_of(inst);
  return o.opcode != nullptr ? &o.opcode->execution : nullptr;
}

Executor executor_for(const Instruction& inst) {
  const Execution* e = execution_of(inst);
  return e != nullptr ? e->execute : nullptr;
}

Footprint footprint(const Instruction& inst, Generation gen) {
  const auto hook = execution_hook(owners_of(inst), &Execution::footprint);
  return hook != nullptr ? hook(inst, gen) : Footprint{};
}

ExtraWaits extra_updates(const Instruction& inst) {
  const auto hook = execution_hook(owners_of(inst), &Execution::extra_updates);
  return hook != nullptr ? hook(inst) : ExtraWaits{};
}

Completion completion(const Instruction& inst) {
  const auto hook = execution_hook(owners_of(inst), &Execution::completion);
  return hook != nullptr ? hook(inst) : Completion{};
}

ExtraWaits extra_waits(const Instruction& inst) {
  const auto hook = execution_hook(owners_of(inst), &Execution::extra_waits);
  return hook != nullptr ? hook(inst) : ExtraWaits{};
}

}  // namespace tpbisa::family
