// Read-indices family validator: is_valid_dve_read_indices on D4_MR (dve-read-state.md §6), its conjuncts in the
// header's order; the names the wiki does not give are ours (PROJ-CONV-A32).
#include "families/common.hpp"
#include "families/operand_rules.hpp"
#include "families/readidx/format.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

using namespace operand_rules;
using Mr = D4Mr;

constexpr FieldRef fDtype[] = {field_ref<Mr>("dtype")};
constexpr FieldRef fSerial[] = {field_ref<Mr>("serialization_mode")};
constexpr FieldRef fChannels[] = {field_ref<Mr>("num_active_channels")};
constexpr FieldRef fDstChannels[] = {field_ref<Mr>("dst.start_addr"), field_ref<Mr>("num_active_channels")};
constexpr FieldRef fDstTensor[] = {field_ref<Mr>("dst.start_addr"), field_ref<Mr>("dst.num_elem"),
                                   field_ref<Mr>("dtype")};
constexpr FieldRef fCount[] = {field_ref<Mr>("dst_element_count")};
constexpr FieldRef fPattern[] = {field_ref<Mr>("dst.start_addr"), field_ref<Mr>("dst.num_elem")};
constexpr FieldRef fValue[] = {field_ref<Mr>("set_value")};
constexpr auto fReserved = field_refs_with_role<Mr, Role::Reserved>();

constexpr Predicate kOpcode = opcode_clause<Mr, readidx::kDveReadIndices>(
    "has_dve_read_indices_opcode", "PROJ-CONV-A32", "the opcode is DVE_READ_INDICES (0xe9)");

constexpr Predicate kReserved = reserved_rule<Mr, fReserved>(
    {.name = "d4_mr_reserved_zero",
     .convention = "",
     .meaning = "reserved0 (16 bytes), reserved1, reserved2 and reserved3 (3 bytes) are zero",
     .gens = kGensAll,
     .explain = [](const Instruction& i, const CheckContext&) {
       return explain_reserved_bytes(encode(i), fReserved);
     }});

constexpr Predicate kSerial =
    rule<Mr, [](const Mr& x, const CheckContext&) { return x.serialization_mode == datapath::kSerial; }>(
        {.name = "d4_mr_zero_serialization",
         .convention = "PROJ-CONV-F22",
         .meaning = "serialization_mode is Serial (0, PROJ-CONV-F22)",
         .gens = kGensAll,
         .fields = fSerial,
         .explain = explain_on_body<Mr, [](const Mr& x, const CheckContext&) {
           return fmt::format("serialization_mode is {:#04x}, must be Serial (0x00)", x.serialization_mode);
         }>});

constexpr Predicate kDtype =
    rule<Mr, [](const Mr& x, const CheckContext&) { return x.dtype == dtype::kUint16 || x.dtype == dtype::kUint32; }>(
        {.name = "is_valid_dtype_dve_read_indices",
         .convention = "",
         .meaning = "dtype is UINT16 or UINT32",
         .gens = kGensAll,
         .fields = fDtype,
         .explain = explain_on_body<Mr, [](const Mr& x, const CheckContext& c) {
           return fmt::format("dtype {} is not UINT16 or UINT32", dtype_label(x.dtype, c.gen));
         }>});

constexpr Predicate kChannels =
    channels_rule<Mr>("has_valid_active_channel_range", "num_active_channels is 1..DVE_NUM_CHANNELS (128)", fChannels);

constexpr Predicate kDstStart = start_rule<Mr, &Mr::dst, "dst">(
    "a register start, or an SBUF/PSUM start whose partition + num_active_channels <= 128", fDstChannels);

constexpr Predicate kDstTensor = pattern_rule<Mr, &Mr::dst, &Mr::dtype, true, "dst">(
    "tensor4d_valid",
    "dst writable in dtype: non-zero counts (or a register shape) and a register or dtype-aligned SBUF/PSUM start; "
    "PSUM only with 4-byte dtypes",
    fDstTensor);

constexpr Predicate kCount =
    rule<Mr, [](const Mr& x, const CheckContext&) { return x.dst_element_count == readidx::kIndices; }>(
        {.name = "dve_read_indices_elem_count_8",
         .convention = "",
         .meaning = "dst_element_count is 8",
         .gens = kGensAll,
         .fields = fCount,
         .explain = explain_on_body<Mr, [](const Mr& x, const CheckContext&) {
           return fmt::format("dst_element_count is {}, must be 8", x.dst_element_count);
         }>});

/// The pattern holds the eight indices it is written with (ours: the header states the count field only).
constexpr Predicate kPattern =
    rule<Mr,
         [](const Mr& x, const CheckContext& c) {
           return shape_escapes(x.dst.start_addr, c.gen) || x.dst.elements() == readidx::kIndices;
         }>({.name = "dve_read_indices_dst_pattern_count",
             .convention = "PROJ-CONV-A32",
             .meaning = "dst's pattern has 8 elements, unless its shape comes from a register (PROJ-CONV-A32)",
             .gens = kGensAll,
             .fields = fPattern,
             .explain = explain_on_body<Mr, [](const Mr& x, const CheckContext&) {
               return fmt::format("dst's pattern has {} elements, must be 8", x.dst.elements());
             }>});

constexpr Predicate kValue = rule<Mr, [](const Mr& x, const CheckContext&) { return x.set_value == 0; }>(
    {.name = "d4_mr_zero_set_value",
     .convention = "PROJ-CONV-A32",
     .meaning = "set_value, the MEMSET fill this opcode does not use, is 0",
     .gens = kGensAll,
     .fields = fValue,
     .explain = explain_on_body<Mr, [](const Mr& x, const CheckContext&) {
       return fmt::format("set_value is {:#010x}, must be 0", x.set_value);
     }>});

constexpr const Predicate* kList[] = {&kHasValidNeuronHeader,
                                      &kHasValidNeuronEvents,
                                      &kOpcode,
                                      &kReserved,
                                      &kSerial,
                                      &kDtype,
                                      &kChannels,
                                      &kDstStart,
                                      &kDstTensor,
                                      &kCount,
                                      &kPattern,
                                      &kValue};

constexpr Validator kValidator = full_validator<kList>("is_valid_dve_read_indices");

constexpr ValidatorRow kRows[] = {{readidx::kDveReadIndices, &kValidator}};
constexpr Validation kValidation = validator_table<ReadIndicesFamily, kRows>();

}  // namespace

const Validation& ReadIndicesFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
