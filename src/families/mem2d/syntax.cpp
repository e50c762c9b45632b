// MEM_2D family syntax: what the text layer cannot derive from the MEM_2D and PSEUDO_MEM_2D declarations.
#include "families/family.hpp"

namespace tpbisa::family {
namespace {

// MEM_2D and PSEUDO_MEM_2D place dtype, src_datasrc and num_elem at the same bytes (checked in validate.cpp).
DataReading data_reading(const Word& w) {
  const unsigned at = field_ref<Mem2d>("num_elem").offset;
  const unsigned elements = unsigned{w[at]} * unsigned{w[at + 1]};
  return mem2d::data_reading(w[field_ref<Mem2d>("src_datasrc").offset], w[field_ref<Mem2d>("dtype").offset], elements);
}

constexpr Syntax kSyntax{
    .note = "`data` is read as registers, immediates of the dtype or bytes, by src_datasrc and dtype",
    .data_reading = data_reading};

}  // namespace

const Syntax& Mem2dFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
