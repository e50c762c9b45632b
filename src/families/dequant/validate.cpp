// Tensor-dequantize family validator: is_valid_tensor_dequantize (0x7B), its conjuncts in the order and under the
// names of the header's validity contract as the wiki quotes it (tensor-dequantize.md §2.1, §4.1, §5). MARIANA and
// MAVERICK name the pattern rules mem3d_valid and check_m3d_active_channels; their indirect-quadrant conjuncts have no
// public body (PROJ-CONV-DQ2).
#include "families/common.hpp"
#include "families/dequant/format.hpp"
#include "families/operand_rules.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

using namespace operand_rules;
using Dq = S3d3TensDequant;

constexpr GenSet kTensorGens{0x03};  // SUNDA, CAYMAN: plain TENSOR3D patterns
constexpr GenSet kMemGens = kGensMarianaUp;

// ---- Fields read, by name ----

constexpr auto fReserved = field_refs_with_role<Dq, Role::Reserved>();
constexpr FieldRef fChannels[] = {field_ref<Dq>("num_active_channels")};
constexpr FieldRef fFmt[] = {field_ref<Dq>("dequant_fmt")};
constexpr FieldRef fGroup[] = {field_ref<Dq>("group_size")};
constexpr FieldRef fFmtGroup[] = {field_ref<Dq>("dequant_fmt"), field_ref<Dq>("group_size")};
constexpr FieldRef fInDtype[] = {field_ref<Dq>("in_dtype")};
constexpr FieldRef fOutDtype[] = {field_ref<Dq>("out_dtype")};
constexpr FieldRef fSrcStart[] = {field_ref<Dq>("src.start_addr"), field_ref<Dq>("num_active_channels")};
constexpr FieldRef fDstStart[] = {field_ref<Dq>("dst.start_addr"), field_ref<Dq>("num_active_channels")};
constexpr FieldRef fSrc[] = {field_ref<Dq>("src.start_addr"), field_ref<Dq>("src.num_elem"), field_ref<Dq>("in_dtype")};
constexpr FieldRef fDst[] = {field_ref<Dq>("dst.start_addr"), field_ref<Dq>("dst.num_elem"),
                             field_ref<Dq>("out_dtype")};
constexpr FieldRef fCount[] = {field_ref<Dq>("src.start_addr"), field_ref<Dq>("src.num_elem"),
                               field_ref<Dq>("dst.start_addr"), field_ref<Dq>("dst.num_elem"),
                               field_ref<Dq>("dequant_fmt"),    field_ref<Dq>("group_size")};

// ---- Predicate bodies ----

bool fmt_ok(const Dq& x, const CheckContext&) {
  return x.dequant_fmt >= dequant::kFmtE2m1ToE5m2 && x.dequant_fmt <= dequant::kFmtE2m3ToE4m3;
}
bool group_ok(const Dq& x, const CheckContext&) {
  return x.group_size == dequant::kNoGroup || x.group_size == dequant::kMxGroup;
}
/// has_valid_dequant_fmt_group_size: group 0 with any format, group 8 with the three 4-bit formats only.
bool fmt_group_ok(const Dq& x, const CheckContext&) {
  return x.group_size == dequant::kNoGroup || (x.group_size == dequant::kMxGroup && dequant::four_bit(x.dequant_fmt));
}

/// s3d3_tens_dequant_element_count_check_t3d: a shape from a register waives it; otherwise the format and group give
/// count(src) * a == count(dst) * b with count(src) a multiple of n (an invalid format or group matches no arm).
bool count_ok(const Dq& x, const CheckContext& c) {
  if (shape_escapes(x.src.start_addr, c.gen) || shape_escapes(x.dst.start_addr, c.gen)) return true;
  const dequant::Ratio r = dequant::ratio(x.dequant_fmt, x.group_size);
  if (r.a == 0) return false;
  return x.src.elements() * r.a == x.dst.elements() * r.b && x.src.elements() % r.src_multiple == 0;
}

// ---- Failure sentences ----

std::string count_text(const Dq& x, const CheckContext&) {
  const dequant::Ratio r = dequant::ratio(x.dequant_fmt, x.group_size);
  if (r.a == 0)
    return fmt::format("dequant_fmt {} with group_size {} matches no arm of the element count check", x.dequant_fmt,
                       x.group_size);
  return fmt::format(
      "src has {} UINT32 words, dst {}: this format and group need src * {} == dst * {} with src a multiple of {}",
      x.src.elements(), x.dst.elements(), r.a, r.b, r.src_multiple);
}

template <auto D, Name Which>
std::string dtype_text(const Dq& x, const CheckContext& c) {
  return fmt::format("{} {} is not UINT32, the transport word", std::string_view{Which}, dtype_label(x.*D, c.gen));
}

// ---- The conjuncts of is_valid_tensor_dequantize ----

constexpr Predicate kOpcode = opcode_clause<Dq, dequant::kTensorDequantize>("has_tensor_dequantize_opcode", "",
                                                                            "the opcode is TENSOR_DEQUANTIZE (0x7b)");

constexpr Predicate kNc =
    text_rule<Dq, [](const Dq&, const CheckContext& c) { return c.gen != Generation::Sunda; },
              [](const Dq&, const CheckContext& c) {
                return fmt::format("{} is before NeuronCore V3", to_string(c.gen));
              }>("has_valid_nc_tens_dequant", "", "the NeuronCore is V3 (CAYMAN) or later", kOpcodeFieldOf<Dq>);

constexpr Predicate kChannels =
    channels_rule<Dq, true>("check_active_channels", "num_active_channels is 1..POOLING_NUM_CHANNELS (128)", fChannels);

constexpr Predicate kFmt = text_rule<Dq, fmt_ok, [](const Dq& x, const CheckContext&) {
  return fmt::format("dequant_fmt is {}, must be 1..4 (E2M1TO_E5M2, INT4TO_E5M2, NF4TO_E4M3, E2M3TO_E4M3)",
                     x.dequant_fmt);
}>("has_valid_dequant_fmt", "", "dequant_fmt is a DEQUANT_FMT other than INVALID (1..4)", fFmt);

constexpr Predicate kGroup = text_rule<Dq, group_ok, [](const Dq& x, const CheckContext&) {
  return fmt::format("group_size is {}, must be 0 or 8", x.group_size);
}>("has_valid_group_size", "", "group_size is 0 (no scale) or 8 (one in-band scale per block of 8)", fGroup);

constexpr Predicate kFmtGroup = text_rule<Dq, fmt_group_ok, [](const Dq& x, const CheckContext&) {
  return fmt::format("group_size {} with dequant_fmt {}: only the 4-bit formats (1, 2, 3) may be micro-scaled",
                     x.group_size, x.dequant_fmt);
}>("has_valid_dequant_fmt_group_size", "", "group_size 8 only with E2M1TO_E5M2, INT4TO_E5M2 or NF4TO_E4M3", fFmtGroup);

constexpr Predicate kReserved =
    reserved_rule<Dq, fReserved>({.name = "s3d3_tens_dequant_reserved_zero",
                                  .convention = "",
                                  .meaning = "reserved0 (4 bytes), reserved1 (7) and reserved2 (4) are zero",
                                  .explain = [](const Instruction& i, const CheckContext&) {
                                    return explain_reserved_bytes(encode(i), fReserved);
                                  }});

constexpr Predicate kInDtype =
    text_rule<Dq, [](const Dq& x, const CheckContext&) { return x.in_dtype == dtype::kUint32; },
              dtype_text<&Dq::in_dtype, "in_dtype">>("has_valid_tens_dequant_in_dtype", "",
                                                     "in_dtype is UINT32 (the packed codes' transport word)", fInDtype);
constexpr Predicate kOutDtype =
    text_rule<Dq, [](const Dq& x, const CheckContext&) { return x.out_dtype == dtype::kUint32; },
              dtype_text<&Dq::out_dtype, "out_dtype">>(
        "has_valid_tens_dequant_out_dtype", "", "out_dtype is UINT32 (the FP8 results' transport word)", fOutDtype);

/// start_addr_active_channels (SUNDA, CAYMAN) or check_m3d_active_channels (MARIANA, MAVERICK) of one pattern.
template <auto P, Name Which>
constexpr Predicate start_pred(std::string_view name, GenSet gens, std::span<const FieldRef> fields) {
  return rule<Dq, start_ok<Dq, P, false>>(
      {.name = name,
       .convention = "PROJ-CONV-C15",
       .meaning = "a register start, or an SBUF start whose partition + num_active_channels <= 128",
       .gens = gens,
       .fields = fields,
       .explain = explain_on_body<Dq, start_text<Dq, P, false, Which, kRegionWording>>});
}
/// tensor3d_valid (SUNDA, CAYMAN) or mem3d_valid (MARIANA, MAVERICK) of one pattern: SBUF only, never PSUM.
template <auto P, auto D, bool Write, Name Which>
constexpr Predicate pattern_pred(std::string_view name, GenSet gens, std::string_view meaning,
                                 std::span<const FieldRef> fields) {
  return rule<Dq, pattern_ok<Dq, P, D, Write, 0>>(
      {.name = name,
       .convention = "",
       .meaning = meaning,
       .gens = gens,
       .fields = fields,
       .explain = explain_on_body<Dq, pattern_text<Dq, P, D, Write, Which, kRegionWording>>});
}

constexpr Predicate kSrcStart = start_pred<&Dq::src, "src">("start_addr_active_channels", kTensorGens, fSrcStart);
constexpr Predicate kDstStart = start_pred<&Dq::dst, "dst">("start_addr_active_channels", kTensorGens, fDstStart);
constexpr Predicate kSrcStartM3d = start_pred<&Dq::src, "src">("check_m3d_active_channels", kMemGens, fSrcStart);
constexpr Predicate kDstStartM3d = start_pred<&Dq::dst, "dst">("check_m3d_active_channels", kMemGens, fDstStart);

constexpr std::string_view kSrcMeaning =
    "src readable in in_dtype from SBUF: non-zero counts (or a register shape) and a register or aligned SBUF start";
constexpr std::string_view kDstMeaning =
    "dst writable in out_dtype in SBUF: non-zero counts (or a register shape) and a register or aligned SBUF start";
constexpr Predicate kSrc =
    pattern_pred<&Dq::src, &Dq::in_dtype, false, "src">("tensor3d_valid", kTensorGens, kSrcMeaning, fSrc);
constexpr Predicate kDst =
    pattern_pred<&Dq::dst, &Dq::out_dtype, true, "dst">("tensor3d_valid", kTensorGens, kDstMeaning, fDst);
constexpr Predicate kSrcM3d =
    pattern_pred<&Dq::src, &Dq::in_dtype, false, "src">("mem3d_valid", kMemGens, kSrcMeaning, fSrc);
constexpr Predicate kDstM3d =
    pattern_pred<&Dq::dst, &Dq::out_dtype, true, "dst">("mem3d_valid", kMemGens, kDstMeaning, fDst);

constexpr Predicate kCount = text_rule<Dq, count_ok, count_text>(
    "s3d3_tens_dequant_element_count_check_t3d", "",
    "unless a shape comes from a register: src * 2 == dst with no group (4-bit), src * 4 == dst * 3 with src a "
    "multiple of 3 (FP6), src * 8 == dst * 5 with src a multiple of 5 (4-bit, group 8), in UINT32 words",
    fCount);

constexpr const Predicate* kConjuncts[] = {&kHasValidNeuronHeader,
                                           &kHasValidNeuronEvents,
                                           &kOpcode,
                                           &kNc,
                                           &kChannels,
                                           &kFmt,
                                           &kGroup,
                                           &kFmtGroup,
                                           &kReserved,
                                           &kInDtype,
                                           &kOutDtype,
                                           &kSrcStart,
                                           &kDstStart,
                                           &kSrcStartM3d,
                                           &kDstStartM3d,
                                           &kSrc,
                                           &kDst,
                                           &kSrcM3d,
                                           &kDstM3d,
                                           &kCount};

constexpr Validator kValidator = full_validator<kConjuncts>("is_valid_tensor_dequantize");

constexpr ValidatorRow kRows[] = {{dequant::kTensorDequantize, &kValidator}};
constexpr Validation kValidation = validator_table<DequantFamily, kRows>();

}  // namespace

const Validation& DequantFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
