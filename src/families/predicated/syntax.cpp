// Predicated family syntax: S3S3D3_TT reads and writes as the datapath family declares it; decode names what the two
// source nibbles mean for these opcodes (the left and right operands, or the predicate and the data).
#include <fmt/format.h>

#include "families/family.hpp"
#include "tpbisa/describe.hpp"

namespace tpbisa::family {
namespace {

std::string meaning(const Instruction& inst, std::string_view path) {
  if (path != "in0_in1_dtype") return {};
  const auto* t = inst.as<S3s3d3Tt>();
  if (t == nullptr) return {};
  const bool predicated = inst.opcode() != predicated::kTensorTensorBitvec;
  return fmt::format("{} {} (low nibble), {} {} (high nibble)", predicated ? "predicate" : "src0",
                     describe_dtype(datapath::pair_lo(t->in0_in1_dtype), inst.gen), predicated ? "data" : "src1",
                     describe_dtype(datapath::pair_hi(t->in0_in1_dtype), inst.gen));
}

constexpr Syntax kSyntax{.note =
                             "the S3S3D3_TT operands as the datapath family writes them; for the predicated forms "
                             "src0 is the predicate and src1 the data",
                         .meaning = meaning};

}  // namespace

const Syntax& PredicatedFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
