// Conversion-LUT family validator: is_valid_s2_convlut† (0xE4 CONV_LUT_LOAD). The wiki quotes the header's
// s2_convlut_valid_nc, s2_convlut_reserved_zero, s2_convlut_legacy_reserved_zero, s2_convlut_check_dtype and
// has_conv_lut_load_src_element_cnt, and names the source's start_addr_active_channels (CAYMAN) /
// check_m2d_active_channels (MARIANA, MAVERICK) and tensor2d_valid; the legacy leg's fixed array shape is the header's
// field notes, under names of ours (PROJ-CONV-CL2).
#include "families/common.hpp"
#include "families/convlut/format.hpp"
#include "families/operand_rules.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

using namespace operand_rules;
using Cl = S2Convlut;

constexpr GenSet kMarianaOnly{0x04}, kNotMariana{0x0B};

constexpr auto fReserved = field_refs_with_role<Cl, Role::Reserved>();
constexpr FieldRef fLut[] = {field_ref<Cl>("lut_dtype")};
constexpr FieldRef fLegacyZero[] = {field_ref<Cl>("lut_dtype"), field_ref<Cl>("multiplicative_const"),
                                    field_ref<Cl>("block_size")};
constexpr FieldRef fDtype[] = {field_ref<Cl>("lut_dtype"), field_ref<Cl>("in_dtype")};
constexpr FieldRef fCount[] = {field_ref<Cl>("lut_dtype"), field_ref<Cl>("src.num_elem")};
constexpr FieldRef fShape[] = {field_ref<Cl>("lut_dtype"), field_ref<Cl>("num_active_rows"),
                               field_ref<Cl>("num_active_cols"), field_ref<Cl>("row_grp"), field_ref<Cl>("col_grp")};
constexpr FieldRef fStart[] = {field_ref<Cl>("src.start_addr"), field_ref<Cl>("num_active_rows")};
constexpr FieldRef fSrc[] = {field_ref<Cl>("src.start_addr"), field_ref<Cl>("src.num_elem"), field_ref<Cl>("in_dtype")};

// ---- Predicate bodies ----

/// s2_convlut_valid_nc: CAYMAN's header admits the CPTC leg alone (is_cptc && nc >= V3); MARIANA's and MAVERICK's
/// add `nc == V4`, which admits the legacy leg on MARIANA only, read literally (PROJ-CONV-CL2).
bool nc_ok(const Cl& x, const CheckContext& c) {
  return c.gen == Generation::Mariana || convlut::is_cptc(x);
}
bool legacy_zero_ok(const Cl& x, const CheckContext&) {
  return convlut::is_cptc(x) || (x.multiplicative_const[0] == 0 && x.multiplicative_const[1] == 0 && x.block_size == 0);
}
/// s2_convlut_check_dtype: UINT16 for the legacy table, UINT32 for CPTC (both pass is_valid_dtype without FP32R).
bool dtype_ok_(const Cl& x, const CheckContext&) {
  return x.in_dtype == (convlut::is_cptc(x) ? dtype::kUint32 : dtype::kUint16);
}
/// has_conv_lut_load_src_element_cnt: {16, 1} (or {1, 16}) for the legacy table, {4, 1} (or {1, 4}) for CPTC.
bool count_ok(const Cl& x, const CheckContext&) {
  const uint16_t n = convlut::is_cptc(x) ? convlut::kCptcUnits : convlut::kLegacyEntries;
  return (x.src.num_elem[0] == n && x.src.num_elem[1] == 1) || (x.src.num_elem[0] == 1 && x.src.num_elem[1] == n);
}
/// The legacy leg programs the whole array: 128 rows, 128 columns, every row and column group.
bool shape_ok(const Cl& x, const CheckContext&) {
  return convlut::is_cptc(x) || (x.num_active_rows == convlut::kFullArray && x.num_active_cols == convlut::kFullArray &&
                                 x.row_grp == convlut::kAllGroups && x.col_grp == convlut::kAllGroups);
}

std::string_view leg(const Cl& x) {
  return convlut::is_cptc(x) ? "CPTC" : "legacy";
}
std::string count_text(const Cl& x, const CheckContext&) {
  return fmt::format("src num_elem = {{{}, {}}}; the {} leg reads {{{}, 1}} elements", x.src.num_elem[0],
                     x.src.num_elem[1], leg(x), convlut::is_cptc(x) ? convlut::kCptcUnits : convlut::kLegacyEntries);
}
std::string shape_text(const Cl& x, const CheckContext&) {
  return fmt::format(
      "the legacy table loads the whole array: num_active_rows {} and num_active_cols {} must be 128, "
      "row_grp {:#04x} and col_grp {:#04x} must be 0x0f",
      x.num_active_rows, x.num_active_cols, x.row_grp, x.col_grp);
}

// ---- The conjuncts of is_valid_s2_convlut ----

constexpr Predicate kOpcode = opcode_clause<Cl, convlut::kConvLutLoad>("has_conv_lut_load_opcode", "PROJ-CONV-CL2",
                                                                       "the opcode is CONV_LUT_LOAD (0xe4)");

/// On MARIANA the body holds for every word, so the conjunct is judged on CAYMAN and MAVERICK only.
constexpr Predicate kNc =
    text_rule<Cl, nc_ok,
              [](const Cl& x, const CheckContext& c) {
                return fmt::format("lut_dtype {:#04x} selects the legacy table, which {} does not admit (CPTC only)",
                                   x.lut_dtype, to_string(c.gen));
              }>(
        "s2_convlut_valid_nc", "PROJ-CONV-CL2",
        "the CPTC leg (lut_dtype neither INVALID nor FP32) on every generation; the legacy leg on MARIANA only", fLut,
        kNotMariana);

constexpr Predicate kReserved =
    reserved_rule<Cl, fReserved>({.name = "s2_convlut_reserved_zero",
                                  .convention = "",
                                  .meaning = "reserved0, reserved1, reserved2 and reserved4 are zero",
                                  .explain = [](const Instruction& i, const CheckContext&) {
                                    return explain_reserved_bytes(encode(i), fReserved);
                                  }});

std::string legacy_zero_text(const Cl& x, const CheckContext&) {
  return fmt::format("the legacy leg needs multiplicative_const {{{:#x}, {:#x}}} and block_size {} zero",
                     x.multiplicative_const[0], x.multiplicative_const[1], x.block_size);
}
/// The legacy-leg rules are written once per generation set: on MARIANA a legacy word fails them alone, elsewhere
/// with s2_convlut_valid_nc (the same body and name; two conjuncts so each set's verdict keeps its companions).
constexpr Predicate legacy_zero(GenSet gens) {
  return text_rule<Cl, legacy_zero_ok, legacy_zero_text>(
      "s2_convlut_legacy_reserved_zero", "", "on the legacy leg, multiplicative_const and block_size are zero",
      fLegacyZero, gens);
}
constexpr Predicate kLegacyZero = legacy_zero(kMarianaOnly);
constexpr Predicate kLegacyZeroElsewhere = legacy_zero(kNotMariana);

constexpr Predicate kDtype = text_rule<Cl, dtype_ok_, [](const Cl& x, const CheckContext& c) {
  return fmt::format("in_dtype {} on the {} leg, must be {}", dtype_label(x.in_dtype, c.gen), leg(x),
                     convlut::is_cptc(x) ? "UINT32" : "UINT16");
}>("s2_convlut_check_dtype", "", "in_dtype is UINT16 on the legacy leg, UINT32 on the CPTC leg", fDtype);

constexpr Predicate kCount = text_rule<Cl, count_ok, count_text>(
    "has_conv_lut_load_src_element_cnt", "PROJ-CONV-CL2",
    "src is {16, 1} or {1, 16} elements on the legacy leg, {4, 1} or {1, 4} on the CPTC leg", fCount);

constexpr Predicate full_array(GenSet gens) {
  return text_rule<Cl, shape_ok, shape_text>(
      "s2_convlut_legacy_full_array", "PROJ-CONV-CL2",
      "on the legacy leg num_active_rows and num_active_cols are 128, row_grp and col_grp 0x0f", fShape, gens);
}
constexpr Predicate kShape = full_array(kMarianaOnly);
constexpr Predicate kShapeElsewhere = full_array(kNotMariana);

template <Name Which>
constexpr Predicate start_pred(GenSet gens) {
  return rule<Cl,
              [](const Cl& x, const CheckContext& c) {
                return pred::start_addr_active_channels(x.src.start_addr, x.num_active_rows, c.gen);
              }>({.name = Which,
                  .convention = "PROJ-CONV-C15",
                  .meaning = "a register start, or an SBUF start whose partition + num_active_rows <= 128",
                  .gens = gens,
                  .fields = fStart,
                  .explain = explain_on_body<Cl, [](const Cl& x, const CheckContext& c) {
                    return start_failure(kRegionWording, "src", x.src.start_addr, x.num_active_rows, c);
                  }>});
}
constexpr Predicate kStart = start_pred<"start_addr_active_channels">(GenSet{0x02});
constexpr Predicate kStartM2d = start_pred<"check_m2d_active_channels">(kGensMarianaUp);

constexpr Predicate kSrc = rule<Cl, pattern_ok<Cl, &Cl::src, &Cl::in_dtype, false, 0>>(
    {.name = "tensor2d_valid",
     .convention = "",
     .meaning = "src readable in in_dtype from SBUF: non-zero counts (or a register shape) and a register or aligned "
                "SBUF start",
     .gens = kGensAll,
     .fields = fSrc,
     .explain = explain_on_body<Cl, pattern_text<Cl, &Cl::src, &Cl::in_dtype, false, "src", kRegionWording>>});

constexpr const Predicate* kConjuncts[] = {&kHasValidNeuronHeader,
                                           &kHasValidNeuronEvents,
                                           &kOpcode,
                                           &kNc,
                                           &kReserved,
                                           &kLegacyZero,
                                           &kLegacyZeroElsewhere,
                                           &kDtype,
                                           &kCount,
                                           &kShape,
                                           &kShapeElsewhere,
                                           &kStart,
                                           &kStartM2d,
                                           &kSrc};

constexpr Validator kValidator = full_validator<kConjuncts>("is_valid_s2_convlut");

constexpr ValidatorRow kTable[] = {{convlut::kConvLutLoad, &kValidator}};
constexpr Validation kValidation = validator_table<ConvLutFamily, kTable>();

}  // namespace

const Validation& ConvLutFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
