// The public-layout family's cases for the generic predicate tests: a baseline per validator (COPY_PREDICATED_SCALAR
// filling four FP32 elements of two channels with -inf; SB2SB_COLLECTIVE copying 64 FP32 elements to itself; REG_STORE
// on eight UINT32; MAX_POOL_SELECT over three 4-element windows), a failing-only mutation per predicate, the
// exemptions.
#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::publayout_cases {
namespace {

// pred SB p0+0x000 (4 x UINT32), reversed_pred 0, two channels, in = out = FP32, inline -inf, dst SB p0+0x100.
constexpr std::string_view kCps =
    "e8100000000000000000000000000000000000000100000000000400010001000900020000000000000a0a00000080ff"
    "00010000010000000000040001000100";

// src SB p0+0x0 (64 x FP32), LNC1, four channels, dst SB p0+0x1000.
constexpr std::string_view kColl =
    "bf1000000000000000000000"
    "0a0a0000"
    "00000000010000000000400001000100"
    "00040000000000000000000000000000"
    "00100000010000000000400001000100";
// Eight UINT32 on four channels to SB p0+0x2000.
constexpr std::string_view kRs =
    "4b10000000000000000000000000000000000000000000000000000008000000090004000000000000000000002000000100000000000000"
    "0800010001000100";
// src SB p0+0x0: three windows of four FP32 (pool_dim X), two channels, UINT32 positions to SB p0+0x100.
constexpr std::string_view kMps =
    "5810000000000000000000000000000001000400000000000400030001000100"
    "0a090200000200000000803f0001000001000000000000000300010001000100";

PredicateCases family_cases() {
  constexpr std::string_view v = "is_valid_copy_predicated_scalar";
  constexpr std::string_view vc = "is_valid_sb2sb_collective";
  constexpr std::string_view vr = "is_valid_reg_store";
  constexpr std::string_view vm = "is_valid_max_pool_select";
  PredicateCases c{
      .baselines = {{v, [] { return hex_word(kCps); }},
                    {vc, [] { return hex_word(kColl); }},
                    {vr, [] { return hex_word(kRs); }},
                    {vm, [] { return hex_word(kMps); }}},
      .fail_cases = {},
      .exempt = {{v, "has_copy_predicated_scalar_opcode", "dispatch selects it by opcode 0xe8"},
                 {vc, "has_sb2sbcollective_opcode", "dispatch selects it by opcode 0xbf"},
                 {vc, "has_valid_nc_sb2sb_collective",
                  "the catalog gives 0xbf to CAYMAN and later only, so the validator never judges a SUNDA word"},
                 {vr, "has_reg_store_opcode", "dispatch selects it by opcode 0x4b"},
                 {vm, "has_s4d4_pl_opcode", "dispatch selects it by opcode 0x58"}},
      .vector_covered = {v, vc, vr, vm},
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
  // ---- SB2SB_COLLECTIVE ----
  f.push_back({vc, "has_valid_LncSizefmt", 0, [](Word& w, Generation) { w[32] = 2; }});
  f.push_back({vc, "check_active_ports", 0, [](Word& w, Generation) { w[33] = 0; }});
  f.push_back({vc, "s3d3_collective_reserved_zero", 0, [](Word& w, Generation) { w[40] = 1; }});
  f.push_back({vc, "tensor3d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[16], 0x2); }});
  f.push_back({vc, "tensor3d_valid", 1, [](Word& w, Generation) { store_le<uint32_t>(&w[48], 0x1002); }});
  f.push_back({vc, "size_check_src", 0, [](Word& w, Generation) { w[28] = 5; }});  // 64 x 5 elements
  f.push_back({vc, "dtype_equality_check", 0, [](Word& w, Generation) { w[13] = dtype::kUint32; }});
  // ---- REG_STORE ----
  f.push_back({vr, "d4_mr_reserved_zero", 0, [](Word& w, Generation) { w[33] = 1; }});
  f.push_back({vr, "is_valid_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kUint64; }});
  f.push_back({vr, "d4_mr_zero_serialization", 0, [](Word& w, Generation) { w[36] = 1; }});
  f.push_back({vr, "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[34] = 0; }});
  f.push_back({vr, "start_addr_active_channels", 0, [](Word& w, Generation g) {
                 w[34] = 128;
                 store_le<uint32_t>(&w[44], partition1(g) + 0x2000);
               }});
  f.push_back({vr, "tensor4d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x2002); }});
  f.push_back({vr, "d4_mr_dst_element_count", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[28], 7); }});
  // ---- MAX_POOL_SELECT ----
  f.push_back({vm, "s4d4_pl_reserved_zero", 0, [](Word& w, Generation) { w[35] = 1; }});
  f.push_back({vm, "is_valid_dtype", 0, [](Word& w, Generation) { w[32] = dtype::kFp32r; }});
  f.push_back({vm,
               "is_valid_dtype",
               1,
               [](Word& w, Generation) { w[33] = dtype::kUint64; },
               {"s4d4_pl_dtype_check"},
               "an out_dtype is_valid_dtype rejects is never one of the unsigned index types"});
  f.push_back({vm, "start_addr_active_channels", 0,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[12], 127 * partition1(g)); }});
  f.push_back({vm, "start_addr_active_channels", 1,
               [](Word& w, Generation g) { store_le<uint32_t>(&w[44], 127 * partition1(g)); }});
  f.push_back({vm, "has_valid_pooltype", 0, [](Word& w, Generation) { w[36] = 1; }});
  f.push_back({vm, "is_valid_subdim", 0, [](Word& w, Generation) { w[37] = 1; }});
  f.push_back({vm, "has_valid_active_channel_range", 0, [](Word& w, Generation) { w[34] = 0; }});
  f.push_back({vm, "s4d4_pl_dtype_check", 0, [](Word& w, Generation) { w[33] = dtype::kFp32; }});
  f.push_back({vm, "tensor4d_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[12], 0x2); }});
  f.push_back({vm, "tensor4d_valid", 1, [](Word& w, Generation) { store_le<uint32_t>(&w[44], 0x102); }});
  f.push_back({vm, "s4d4_pool_scale_valid", 0, [](Word& w, Generation) { store_le<uint32_t>(&w[40], 0); }});
  return c;
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::publayout_cases
