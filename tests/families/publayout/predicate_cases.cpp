// The public-layout family's cases for the generic predicate tests: COPY_PREDICATED_SCALAR 0xE8 filling four FP32
// elements of two channels with -inf under a UINT32 predicate as the baseline, a failing-only mutation per predicate,
// and the exemption.
#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::publayout_cases {
namespace {

// pred SB p0+0x000 (4 x UINT32), reversed_pred 0, two channels, in = out = FP32, inline -inf, dst SB p0+0x100.
constexpr std::string_view kCps =
    "e8100000000000000000000000000000000000000100000000000400010001000900020000000000000a0a00000080ff"
    "00010000010000000000040001000100";

PredicateCases family_cases() {
  constexpr std::string_view v = "is_valid_copy_predicated_scalar";
  PredicateCases c{
      .baselines = {{v, [] { return hex_word(kCps); }}},
      .fail_cases = {},
      .exempt = {{v, "has_copy_predicated_scalar_opcode", "dispatch selects it by opcode 0xe8"}},
      .vector_covered = {v},
  };
  std::vector<FailCase>& f = c.fail_cases;
  f.push_back({v, "s3d3_cp_pred_scalar_reserved_zero", 0, [](Word& w, Generation) { w[13] = 1; }});
  f.push_back({v, "has_valid_immediates", 0, [](Word& w, Generation) {
                 w[43] = 2;                          // REG_PTR
                 store_le<uint32_t>(&w[44], 0x100);  // r0 with a reserved byte set
               }});
  f.push_back({v, "tensor3d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[16], 0x2); }});
  f.push_back({v, "tensor3d_valid", 1, [](Word& w, Generation) { store_le<uint32_t>(&w[48], 0x102); }});
  f.push_back({v, "start_addr_active_channels", 0,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[16], 127 * partition1(g)); }});
  f.push_back({v, "start_addr_active_channels", 1,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[48], 127 * partition1(g)); }});
  f.push_back({v, "same_element_count_t3d", 0, [](Word& w, Generation) { w[58] = 3; }});
  f.push_back({v, "s3d3_cp_pred_scalar_src_dst_elements_same", 0, [](Word& w, Generation) { w[58] = 3; }});
  f.push_back({v, "is_valid_int_dtype_datapath", 0, [](Word& w, Generation) { w[32] = dtype::kFp32; }});
  for (unsigned occurrence : {0U, 1U})
    f.push_back({v,
                 "is_valid_dtype",
                 occurrence,
                 [](Word& w, Generation) { w[41] = w[42] = dtype::kFp32r; },
                 {"is_valid_dtype"},
                 "in_dtype must equal out_dtype, so both carry FP32R"});
  f.push_back({v, "has_same_inout_dtype", 0, [](Word& w, Generation) { w[41] = dtype::kFp16; }});
  f.push_back({v, "has_valid_reversed_pred", 0, [](Word& w, Generation) { w[33] = 2; }});
  f.push_back({v, "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[34] = 0; }});
  f.push_back({v, "has_valid_active_channel_range_with_tile", 0, [](Word& w, Generation) { w[34] = 0; }});
  return c;
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::publayout_cases
