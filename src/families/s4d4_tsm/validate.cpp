// S4D4_TSM family validators: TensorScalarPtrMulti 0x4F/0x5F and the SUNDA-only Dual pair 0x87/0x88 (s4d4-tsm.md §3).
#include <algorithm>
#include <bit>

#include "families/common.hpp"
#include "families/validator_table.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::family {
namespace {

constexpr FieldRef fOpcode[] = {field_ref<S4d4Tsm>("header.opcode")};
constexpr FieldRef fSlices[] = {field_ref<S4d4Tsm>("src_mem_pattern.num_elem[3]")};
constexpr FieldRef fOp[] = {field_ref<S4d4Tsm>("op"), field_ref<S4d4Tsm>("header.opcode")};
constexpr FieldRef fTypes[] = {field_ref<S4d4Tsm>("in_dtype"), field_ref<S4d4Tsm>("out_dtype"),
                               field_ref<S4d4Tsm>("header.opcode")};
constexpr FieldRef fReverse[] = {field_ref<S4d4Tsm>("reverse_operands"), field_ref<S4d4Tsm>("header.opcode")};
constexpr auto fReserved = field_refs_with_role<S4d4Tsm, Role::Reserved>();
constexpr FieldRef fInDtype[] = {field_ref<S4d4Tsm>("in_dtype")};
constexpr FieldRef fOutDtype[] = {field_ref<S4d4Tsm>("out_dtype")};
constexpr FieldRef fAluOpField[] = {field_ref<S4d4Tsm>("op")};
constexpr FieldRef fSubdim[] = {field_ref<S4d4Tsm>("op_dim")};
constexpr FieldRef fChannels[] = {field_ref<S4d4Tsm>("num_active_channels")};
constexpr FieldRef fChannelsTile[] = {field_ref<S4d4Tsm>("num_active_channels"),
                                      renamed(field_ref<S4d4Tsm>("header.debug_hint"), "header.inst_flags")};
constexpr FieldRef fSrcChannels[] = {field_ref<S4d4Tsm>("src_mem_pattern.start_addr"),
                                     field_ref<S4d4Tsm>("num_active_channels")};
constexpr FieldRef fDstChannels[] = {field_ref<S4d4Tsm>("dst_mem_pattern.start_addr"),
                                     field_ref<S4d4Tsm>("num_active_channels")};
constexpr FieldRef fSrcTensor[] = {field_ref<S4d4Tsm>("src_mem_pattern.start_addr"),
                                   field_ref<S4d4Tsm>("src_mem_pattern.num_elem"), field_ref<S4d4Tsm>("in_dtype")};
constexpr FieldRef fDstTensor[] = {field_ref<S4d4Tsm>("dst_mem_pattern.start_addr"),
                                   field_ref<S4d4Tsm>("dst_mem_pattern.num_elem"), field_ref<S4d4Tsm>("out_dtype")};
constexpr FieldRef fCounts[] = {field_ref<S4d4Tsm>("src_mem_pattern.num_elem"),
                                field_ref<S4d4Tsm>("dst_mem_pattern.num_elem")};

const S4d4Tsm& t_of(const Instruction& i) {
  return body<S4d4Tsm>(i);
}

// ---- Predicate bodies (s4d4-tsm.md §3) ----

using tsm::arith_opcode;
using tsm::bitvec_opcode;

constexpr bool general_arith(uint8_t op, const CheckContext& c) {
  if (op == aluop::kSymmetricClamp && !c.options.symmetric_clamp_general_arith) return false;
  return aluop_is(op, kAluGeneralArith, c.gen);
}

/// The op terms of tensor_scalar_ptr_multi_valid_ops on the opcode and the op: the empty string, or the failing term.
constexpr std::string_view valid_ops_failure(uint8_t opcode, uint8_t op, const CheckContext& c) {
  if (!aluop_in(op, c.gen)) return "is_valid_enum";
  if (op == aluop::kDivide || op == aluop::kPow || op == aluop::kMod) return "op not in {DIVIDE, POW, MOD}";
  if (bitvec_opcode(opcode) && !aluop_is(op, kAluBitvec, c.gen)) return "is_bitvec_op";
  if (arith_opcode(opcode) && !general_arith(op, c)) return "is_general_arith_op";
  return "";
}
std::string_view valid_ops_failure(const S4d4Tsm& t, const CheckContext& c) {
  return valid_ops_failure(t.header.opcode, t.op, c);
}

// The raw form's table: the body above reads the opcode only through arith_opcode and bitvec_opcode, so one
// 256-entry op row per opcode class holds it (the option half: symmetric_clamp_general_arith), built from the body
// at compile time (four terms and two enum look-ups become one bit test). The class is a table of the opcode too.
constexpr unsigned op_class(uint8_t opcode) {
  return (arith_opcode(opcode) ? 1U : 0U) | (bitvec_opcode(opcode) ? 2U : 0U);
}
constexpr std::array<uint8_t, 256> make_op_class_table() {
  std::array<uint8_t, 256> t{};
  for (unsigned opcode = 0; opcode < 256; ++opcode)
    t[opcode] = static_cast<uint8_t>(op_class(static_cast<uint8_t>(opcode)));
  return t;
}
constexpr std::array<uint8_t, 256> kOpClassOf = make_op_class_table();
using OpsTables = std::array<ByteTable, 4>;  // [op_class], option half symmetric_clamp_general_arith
/// Opcodes of every class: the family's four and one of neither class (0x00).
constexpr uint8_t kOpcodesOfEachClass[] = {opcode::kPtrMultiArith, opcode::kPtrMultiBitvec, opcode::kPtrMultiDualArith,
                                           opcode::kPtrMultiDualBitvec, 0x00};
constexpr OpsTables make_valid_ops_tables() {
  OpsTables t{};
  for (uint8_t opcode : kOpcodesOfEachClass)
    for (unsigned clamp = 0; clamp < 2; ++clamp)
      for (Generation g : kAllGenerations) {
        CheckContext c{g, {}};
        c.options.symmetric_clamp_general_arith = clamp != 0;
        for (unsigned op = 0; op < 256; ++op)
          if (valid_ops_failure(opcode, static_cast<uint8_t>(op), c).empty())
            t[op_class(opcode)].set(g, static_cast<uint8_t>(op), clamp != 0);
      }
  return t;
}
constexpr OpsTables kValidOpsTables = make_valid_ops_tables();

/// The table's answer equals the body's for every opcode (the or over a class's opcodes fails this unless the class
/// decides the body), op, option and generation: a compile-time proof.
constexpr bool valid_ops_tables_match_body() {
  for (unsigned opcode = 0; opcode < 256; ++opcode) {
    const auto o = static_cast<uint8_t>(opcode);
    if (op_class(o) == 0 && o != 0x00) continue;  // neither class: the body's two opcode terms are false, as for 0x00
    for (unsigned clamp = 0; clamp < 2; ++clamp)
      for (Generation g : kAllGenerations) {
        CheckContext c{g, {}};
        c.options.symmetric_clamp_general_arith = clamp != 0;
        for (unsigned op = 0; op < 256; ++op)
          if (kValidOpsTables[kOpClassOf[o]].has(g, static_cast<uint8_t>(op), clamp != 0) !=
              valid_ops_failure(o, static_cast<uint8_t>(op), c).empty())
            return false;
      }
  }
  return true;
}
static_assert(valid_ops_tables_match_body());

/// tensor_scalar_ptr_multi_valid_ops, by the table (equal to the body for every opcode, op, option and generation).
[[gnu::always_inline]] inline bool valid_ops(const S4d4Tsm& t, const CheckContext& c) {
  return kValidOpsTables[kOpClassOf[t.header.opcode]].has(c.gen, t.op, c.options.symmetric_clamp_general_arith);
}

bool valid_types(const S4d4Tsm& t, const CheckContext&) {
  if (!bitvec_opcode(t.header.opcode)) return true;
  const uint8_t d = t.in_dtype;
  return t.in_dtype == t.out_dtype &&
         (d == dtype::kInt32 || d == dtype::kUint32 || d == dtype::kUint16 || d == dtype::kUint8);
}

bool reverse_chk(const S4d4Tsm& t, const CheckContext&) {
  const uint8_t r = t.reverse_operands;
  if (r > 3) return false;                                         // is_valid_enum(TensScalarRevOps)
  if (t.header.opcode == opcode::kPtrMultiDualArith) return true;  // SUNDA Dual: any value
  return r == 0 || r == 3;
}

/// W = src num_elem[3] is 1..Max (scalars per partition, or scalar pairs for the Dual opcode).
template <unsigned Max>
bool slices_ok(const S4d4Tsm& t, const CheckContext&) {
  const uint16_t w = t.src_mem_pattern.num_elem[3];
  return w >= 1 && w <= Max;
}

/// is_valid_aluop, by the table built from the catalog's ALU_OP enum.
bool aluop_ok(const S4d4Tsm& t, const CheckContext& c) {
  return aluop_table().has(c.gen, t.op);
}

bool subdim_ok(const S4d4Tsm& t, const CheckContext&) {
  return t.op_dim == 4;
}

/// The body of both channel-range predicates (with and without MAVERICK's tile flags).
constexpr bool channels_in_range(const S4d4Tsm& x, const CheckContext& c) {
  return pred::has_valid_active_channel_range(x.num_active_channels, geometry(c.gen).channels);
}

uint64_t count4(const Tensor4d& t) {
  return pred::lanes_product(pred::packed_counts(t.num_elem));
}

bool same_count(const S4d4Tsm& t, const CheckContext&) {
  return pred::same_element_count(pred::packed_counts(t.src_mem_pattern.num_elem),
                                  pred::packed_counts(t.dst_mem_pattern.num_elem));
}

// ---- Explanations ----

std::string explain_slices(const Instruction& i, const CheckContext&, unsigned max) {
  return fmt::format("W = src num_elem[3] = {}, must be 1..{}", t_of(i).src_mem_pattern.num_elem[3], max);
}

std::string explain_ops(const Instruction& i, const CheckContext& c) {
  const S4d4Tsm& t = t_of(i);
  const std::string_view why = valid_ops_failure(t, c);
  const std::string op = aluop_label(t.op, c.gen);
  if (why == "is_valid_enum") return fmt::format("op {} is not an ALU op of {}", op, to_string(c.gen));
  if (why == "is_bitvec_op") return fmt::format("op {} is not a bit-vector op (is_bitvec_op)", op);
  if (why == "is_general_arith_op") return fmt::format("op {} is not a general arithmetic op", op);
  return fmt::format("op {} is explicitly excluded (DIVIDE, POW, MOD)", op);
}

std::string explain_types(const Instruction& i, const CheckContext& c) {
  const S4d4Tsm& t = t_of(i);
  return fmt::format("bit-vector PtrMulti needs in_dtype == out_dtype in UINT8, UINT16, UINT32, INT32; got {} -> {}",
                     dtype_label(t.in_dtype, c.gen), dtype_label(t.out_dtype, c.gen));
}

std::string explain_reverse(const Instruction& i, const CheckContext&) {
  const S4d4Tsm& t = t_of(i);
  if (t.reverse_operands > 3)
    return fmt::format("reverse_operands {} is not a TENS_SCALAR_REV_OPS value", t.reverse_operands);
  return fmt::format("reverse_operands {} is not NONE (0) or BOTH (3)", t.reverse_operands);
}

std::string_view via_reverse(const Instruction& i, const CheckContext&) {
  return t_of(i).reverse_operands > 3 ? "is_valid_enum" : "";
}

std::string explain_reserved(const Instruction& i, const CheckContext&) {
  return explain_reserved_bytes(encode(i), fReserved);
}

std::string explain_dtype(uint8_t d, bool allow_fp32r, const CheckContext& c) {
  std::string_view via;
  pred::is_valid_dtype(d, allow_fp32r, c, &via);
  return fmt::format("{} fails is_valid_dtype ({})", dtype_label(d, c.gen), via);
}

std::string explain_channels(const Instruction& i, const CheckContext& c) {
  return fmt::format("num_active_channels is {}, must be 1..{}", t_of(i).num_active_channels, geometry(c.gen).channels);
}

std::string explain_start_channels(const Tensor4d& t, unsigned n, const CheckContext& c, std::string_view which) {
  return fmt::format(
      "{} start {}: its partition + {} active channels must stay within {} partitions of "
      "SBUF or PSUM",
      which, addr4_label(t.start_addr, c.gen), n, geometry(c.gen).sbuf_partitions);
}

std::string explain_tensor4d(const Tensor4d& t, uint8_t d, bool write, const CheckContext& c, std::string_view which) {
  if (!pred::counts_nonzero(t.num_elem, t.start_addr, c.gen))
    return fmt::format("{} num_elem = {{{}, {}, {}, {}}} has a zero count{}", which, t.num_elem[0], t.num_elem[1],
                       t.num_elem[2], t.num_elem[3],
                       pred::has_shape_escape(c.gen) ? " and the shape does not come from a register"
                                                     : " (no shape-from-register escape on sunda, PROJ-CONV-C18)");
  return fmt::format("{} start {} is not a {}-aligned SBUF/PSUM address for {}{}", which,
                     addr4_label(t.start_addr, c.gen), dtype_size(d), dtype_label(d, c.gen),
                     write ? " (a tensor written to PSUM must use a 4-byte dtype)" : "");
}

std::string explain_counts(const Instruction& i, const CheckContext&) {
  const S4d4Tsm& t = t_of(i);
  return fmt::format("src has {} elements, dst has {}", count4(t.src_mem_pattern), count4(t.dst_mem_pattern));
}

std::string_view tensor4d_convention(const Tensor4d& t, const CheckContext& c) {
  return c.gen == Generation::Sunda && describe(t.start_addr, c.gen).shape_from_register &&
                 !pred::counts_nonzero(t.num_elem, t.start_addr, c.gen)
             ? "PROJ-CONV-C18"
             : "";
}

// ---- Predicate shapes the src and dst operands share ----

/// is_valid_dtype of the dtype at Dtype, FP32R allowed or not (by the table built from pred::is_valid_dtype).
template <auto Dtype, bool AllowFp32r>
bool dtype_ok(const S4d4Tsm& t, const CheckContext& c) {
  return dtype_accepts(t.*Dtype, AllowFp32r, c);
}
template <auto Dtype, bool AllowFp32r, Name Which>
std::string dtype_text(const S4d4Tsm& t, const CheckContext& c) {
  return fmt::format("{} {}", std::string_view{Which}, explain_dtype(t.*Dtype, AllowFp32r, c));
}
template <auto Dtype, bool AllowFp32r, Name Which>
constexpr Predicate dtype_rule(std::string_view meaning, std::span<const FieldRef> fields) {
  return rule<S4d4Tsm, dtype_ok<Dtype, AllowFp32r>>(
      {.name = "is_valid_dtype",
       .convention = "",
       .meaning = meaning,
       .gens = kGensAll,
       .fields = fields,
       .explain = explain_on_body<S4d4Tsm, dtype_text<Dtype, AllowFp32r, Which>>});
}

/// start_addr_active_channels of the pattern at Pattern: a register start, or partition + channels <= 128.
template <auto Pattern>
bool start_ok(const S4d4Tsm& t, const CheckContext& c) {
  return pred::start_addr_active_channels((t.*Pattern).start_addr, t.num_active_channels, c.gen);
}
template <auto Pattern, Name Which>
std::string start_text(const S4d4Tsm& t, const CheckContext& c) {
  return explain_start_channels(t.*Pattern, t.num_active_channels, c, Which);
}
template <auto Pattern, Name Which>
constexpr Predicate start_rule(std::string_view meaning, std::span<const FieldRef> fields) {
  return rule<S4d4Tsm, start_ok<Pattern>>({.name = "start_addr_active_channels",
                                           .convention = "PROJ-CONV-C15",
                                           .meaning = meaning,
                                           .gens = kGensAll,
                                           .fields = fields,
                                           .explain = explain_on_body<S4d4Tsm, start_text<Pattern, Which>>});
}

/// tensor4d_valid of the pattern at Pattern in the dtype at Dtype, read or (Write) written.
template <auto Pattern, auto Dtype, bool Write>
bool tensor_ok(const S4d4Tsm& t, const CheckContext& c) {
  return pred::tensor4d_valid(t.*Pattern, t.*Dtype, Write, true, true, c.gen);
}
template <auto Pattern, auto Dtype, bool Write, Name Which>
std::string tensor_text(const S4d4Tsm& t, const CheckContext& c) {
  return explain_tensor4d(t.*Pattern, t.*Dtype, Write, c, Which);
}
template <auto Pattern>
std::string_view tensor_failure_convention(const Instruction& i, const CheckContext& c) {
  return tensor4d_convention(t_of(i).*Pattern, c);
}
template <auto Pattern, auto Dtype, bool Write, Name Which>
constexpr Predicate tensor_rule(std::string_view meaning, std::span<const FieldRef> fields) {
  return rule<S4d4Tsm, tensor_ok<Pattern, Dtype, Write>>(
      {.name = "tensor4d_valid",
       .convention = "",
       .meaning = meaning,
       .gens = kGensAll,
       .fields = fields,
       .explain = explain_on_body<S4d4Tsm, tensor_text<Pattern, Dtype, Write, Which>>,
       .via = nullptr,
       .failure_convention = tensor_failure_convention<Pattern>});
}

// ---- Predicates ----

constexpr Predicate kPtrMultiOpcode = rule<S4d4Tsm, has_opcode<opcode::kPtrMultiArith, opcode::kPtrMultiBitvec>>(
    {.name = "has_tensor_scalar_ptr_multi_opcode",
     .convention = "",
     .meaning = "the opcode is 0x4F or 0x5F",
     .gens = kGensAll,
     .fields = fOpcode,
     .explain = explain_opcode});

constexpr Predicate kDualOpcode = rule<S4d4Tsm, has_opcode<opcode::kPtrMultiDualArith>>(
    {.name = "has_tensor_scalar_ptr_multi_dual_opcode",
     .convention = "",
     .meaning = "(SUNDA) the opcode is 0x87; the disabled Dual Bitvec 0x88 never passes (PROJ-CONV-T16)",
     .gens = kGensSundaOnly,
     .fields = fOpcode,
     .explain = explain_opcode,
     .via = nullptr,
     .failure_convention = [](const Instruction& i, const CheckContext&) -> std::string_view {
       return i.opcode() == opcode::kPtrMultiDualBitvec ? "PROJ-CONV-T16" : "";
     }});

constexpr Predicate kSlicesSingular = rule<S4d4Tsm, slices_ok<8>>(
    {.name = "has_valid_src_slices_tsm_singular",
     .convention = "",
     .meaning = "W = src num_elem[3] is 1..8 (one preloaded scalar per slice)",
     .gens = kGensAll,
     .fields = fSlices,
     .explain = [](const Instruction& i, const CheckContext& c) { return explain_slices(i, c, 8); }});

constexpr Predicate kSlicesDual = rule<S4d4Tsm, slices_ok<4>>(
    {.name = "has_valid_src_slices_tsm_dual",
     .convention = "",
     .meaning = "(SUNDA Dual) W = src num_elem[3] is 1..4 scalar pairs",
     .gens = kGensSundaOnly,
     .fields = fSlices,
     .explain = [](const Instruction& i, const CheckContext& c) { return explain_slices(i, c, 4); }});

constexpr Predicate kValidOps = rule<S4d4Tsm, valid_ops>(
    {.name = "tensor_scalar_ptr_multi_valid_ops",
     .convention = "",
     .meaning = "op is an ALU op of the generation, not DIVIDE/POW/MOD, is_bitvec_op for the Bitvec opcode and "
                "is_general_arith_op for the Arith opcode (SYMMETRIC_CLAMP on MAVERICK: PROJ-CONV-T11)",
     .gens = kGensAll,
     .fields = fOp,
     .explain = explain_ops,
     .via =
         [](const Instruction& i, const CheckContext& c) {
           // The explicit DIVIDE/POW/MOD exclusion is a term of this predicate, not a nested predicate.
           const std::string_view why = valid_ops_failure(t_of(i), c);
           return why.starts_with("op not in") ? std::string_view{} : why;
         },
     .failure_convention = [](const Instruction& i, const CheckContext& c) -> std::string_view {
       return t_of(i).op == aluop::kSymmetricClamp && c.gen == Generation::Maverick ? "PROJ-CONV-T11" : "";
     }});

constexpr Predicate kValidTypes = rule<S4d4Tsm, valid_types>(
    {.name = "tensor_scalar_ptr_multi_valid_types",
     .convention = "",
     .meaning = "Arith: any; Bitvec: in_dtype == out_dtype and in UINT8, UINT16, UINT32, INT32",
     .gens = kGensAll,
     .fields = fTypes,
     .explain = explain_types});

constexpr Predicate kReverseChk = rule<S4d4Tsm, reverse_chk>(
    {.name = "tensor_scalar_ptr_multi_reverse_chk",
     .convention = "",
     .meaning = "reverse_operands is a TENS_SCALAR_REV_OPS value and NONE or BOTH (SUNDA Dual 0x87: any value)",
     .gens = kGensAll,
     .fields = fReverse,
     .explain = explain_reverse,
     .via = via_reverse});

constexpr Predicate kReservedZero = reserved_rule<S4d4Tsm, fReserved>({.name = "s4d4_tsm_reserved_zero",
                                                                       .convention = "",
                                                                       .meaning = "reserved0 and reserved1 are zero",
                                                                       .gens = kGensAll,
                                                                       .explain = explain_reserved});

constexpr Predicate kInDtypeValid =
    dtype_rule<&S4d4Tsm::in_dtype, false, "in_dtype">("is_valid_dtype(in_dtype, FP32R not allowed)", fInDtype);
constexpr Predicate kOutDtypeValid =
    dtype_rule<&S4d4Tsm::out_dtype, true, "out_dtype">("is_valid_dtype(out_dtype, FP32R allowed)", fOutDtype);

constexpr Predicate kValidAluop = rule<S4d4Tsm, aluop_ok>(
    {.name = "is_valid_aluop",
     .convention = "",
     .meaning = "op is a member of the generation's ALU_OP enum",
     .gens = kGensAll,
     .fields = fAluOpField,
     .explain = explain_on_body<S4d4Tsm, [](const S4d4Tsm& t, const CheckContext& c) {
       return fmt::format("op {} is not in the ALU_OP enum of {}", aluop_label(t.op, c.gen), to_string(c.gen));
     }>});

constexpr Predicate kSubdimValid =
    rule<S4d4Tsm, subdim_ok>({.name = "is_valid_tsm_subdim",
                              .convention = "",
                              .meaning = "op_dim is XYZ (0x04)",
                              .gens = kGensAll,
                              .fields = fSubdim,
                              .explain = explain_on_body<S4d4Tsm, [](const S4d4Tsm& t, const CheckContext&) {
                                return fmt::format("op_dim is {:#04x}, must be XYZ (0x04)", t.op_dim);
                              }>});

constexpr Predicate kChannelRange = rule<S4d4Tsm, channels_in_range>({.name = "has_valid_active_channel_range",
                                                                      .convention = "",
                                                                      .meaning = "num_active_channels is 1..128",
                                                                      .gens = kGensNotMaverick,
                                                                      .fields = fChannels,
                                                                      .explain = explain_channels});

constexpr Predicate kChannelRangeTile = rule<S4d4Tsm, channels_in_range>(
    {.name = "has_valid_active_channel_range_with_tile",
     .convention = "PROJ-CONV-T1",
     .meaning = "(MAVERICK) num_active_channels is 1..128; the tile flags (header byte 3, PROJ-CONV-C2) are "
                "not consulted until the body is known (PROJ-CONV-T1)",
     .gens = kGensMaverickOnly,
     .fields = fChannelsTile,
     .explain = explain_channels});

constexpr Predicate kSrcStartChannels = start_rule<&S4d4Tsm::src_mem_pattern, "src">(
    "src: a register start, or an SBUF/PSUM start whose partition + num_active_channels <= 128", fSrcChannels);
constexpr Predicate kDstStartChannels = start_rule<&S4d4Tsm::dst_mem_pattern, "dst">(
    "dst: a register start, or an SBUF/PSUM start whose partition + num_active_channels <= 128", fDstChannels);

constexpr Predicate kSrcTensor4d = tensor_rule<&S4d4Tsm::src_mem_pattern, &S4d4Tsm::in_dtype, false, "src">(
    "src pattern readable: non-zero counts (or a register shape, CAYMAN+) and a register (0x80) or "
    "in_dtype-aligned SBUF/PSUM start",
    fSrcTensor);
constexpr Predicate kDstTensor4d = tensor_rule<&S4d4Tsm::dst_mem_pattern, &S4d4Tsm::out_dtype, true, "dst">(
    "dst pattern writable: non-zero counts (or a register shape, CAYMAN+) and a register (0x80) or "
    "out_dtype-aligned SBUF/PSUM start; PSUM is written only with 4-byte dtypes",
    fDstTensor);

constexpr Predicate kSameCount =
    rule<S4d4Tsm, same_count>({.name = "same_element_count_t4d",
                               .convention = "",
                               .meaning = "src and dst patterns have the same number of elements",
                               .gens = kGensAll,
                               .fields = fCounts,
                               .explain = explain_counts});

// ---- Validators (s4d4-tsm.md §3.1, §3.3), is_valid_tensor_scalar_ptr_multi_common flattened ----

constexpr std::array<const Predicate*, 15> kCommon{
    &kValidOps,         &kValidTypes,       &kReverseChk,  &kReservedZero, &kInDtypeValid,
    &kOutDtypeValid,    &kValidAluop,       &kSubdimValid, &kChannelRange, &kChannelRangeTile,
    &kSrcStartChannels, &kDstStartChannels, &kSrcTensor4d, &kDstTensor4d,  &kSameCount};

constexpr auto kSingular = concat_predicates(
    std::array{&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kPtrMultiOpcode, &kSlicesSingular}, kCommon);
constexpr auto kDual =
    concat_predicates(std::array{&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kDualOpcode, &kSlicesDual}, kCommon);

constexpr Validator kSingularValidator = full_validator<kSingular>("is_valid_tensor_scalar_ptr_multi");
constexpr Validator kDualValidator = full_validator<kDual>("is_valid_tensor_scalar_ptr_multi_dual");

// The Dual pair exists on SUNDA only (the catalog's generations of 0x87 and 0x88).
constexpr ValidatorRow kRows[] = {
    {opcode::kPtrMultiArith, &kSingularValidator},
    {opcode::kPtrMultiBitvec, &kSingularValidator},
    {opcode::kPtrMultiDualArith, &kDualValidator},
    {opcode::kPtrMultiDualBitvec, &kDualValidator},
};
constexpr Validation kValidation = validator_table<TsmFamily, kRows>();

}  // namespace

const Validation& TsmFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
