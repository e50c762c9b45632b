// The Family records of the registered families, built from the registry list; the look-ups by format.
#include <array>

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

ImmReading imm_reading(const Word& w, std::string_view path) {
  const OpcodeInfo* row = find_opcode(w[field_ref<RawWord>("header.opcode").offset]);
  const Family* f = row != nullptr ? family_of(row->format) : nullptr;
  return f != nullptr && f->syntax.imm_reading != nullptr ? f->syntax.imm_reading(w, path) : ImmReading::Value;
}

Executor executor_for(const Instruction& inst) {
  if (inst.status != DecodeStatus::Modeled || inst.info == nullptr) return nullptr;
  const Family* f = family_of(inst.info->format);
  return f != nullptr ? f->execution.execute : nullptr;
}

}  // namespace tpbisa::family
