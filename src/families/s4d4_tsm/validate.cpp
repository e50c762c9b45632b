// S4D4_TSM family validators: TensorScalarPtrMulti 0x4F/0x5F and the SUNDA-only Dual pair 0x87/0x88 (s4d4-tsm.md §3).
#include <algorithm>
#include <bit>

#include "families/common.hpp"
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
using tsm::is_dual;

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

[[gnu::always_inline]] inline bool valid_ops_accepts(uint8_t opcode, uint8_t op, const CheckContext& c) {
  return kValidOpsTables[kOpClassOf[opcode]].has(c.gen, op, c.options.symmetric_clamp_general_arith);
}

bool valid_types(const S4d4Tsm& t) {
  if (!bitvec_opcode(t.header.opcode)) return true;
  const uint8_t d = t.in_dtype;
  return t.in_dtype == t.out_dtype &&
         (d == dtype::kInt32 || d == dtype::kUint32 || d == dtype::kUint16 || d == dtype::kUint8);
}

bool reverse_chk(const S4d4Tsm& t) {
  const uint8_t r = t.reverse_operands;
  if (r > 3) return false;                                         // is_valid_enum(TensScalarRevOps)
  if (t.header.opcode == opcode::kPtrMultiDualArith) return true;  // SUNDA Dual: any value
  return r == 0 || r == 3;
}

bool reserved_zero(const S4d4Tsm& t) {
  return t.reserved0[0] == 0 && std::all_of(t.reserved1.begin(), t.reserved1.end(), [](uint8_t b) { return b == 0; });
}

uint64_t count4(const Tensor4d& t) {
  return pred::lanes_product(pred::packed_counts(t.num_elem));
}

constexpr FieldRef kSrcCounts = field_ref<S4d4Tsm>("src_mem_pattern.num_elem");
constexpr FieldRef kDstCounts = field_ref<S4d4Tsm>("dst_mem_pattern.num_elem");

// ---- Explanations ----

std::string explain_opcode(const Instruction& i, const CheckContext&) {
  return fmt::format("opcode {:#04x} is not the opcode this predicate requires", i.opcode());
}

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

// ---- Predicates ----

constexpr Predicate kPtrMultiOpcode{
    .name = "has_tensor_scalar_ptr_multi_opcode",
    .convention = "",
    .meaning = "the opcode is 0x4F or 0x5F",
    .gens = kGensAll,
    .fields = fOpcode,
    .holds =
        [](const Instruction& i, const CheckContext&) {
          return i.opcode() == opcode::kPtrMultiArith || i.opcode() == opcode::kPtrMultiBitvec;
        },
    .explain = explain_opcode,
    .accepts = on_view<RawWord, [](const RawWord& x, const CheckContext&) {
      return x.header.opcode == opcode::kPtrMultiArith || x.header.opcode == opcode::kPtrMultiBitvec;
    }>};

constexpr Predicate kDualOpcode{
    .name = "has_tensor_scalar_ptr_multi_dual_opcode",
    .convention = "",
    .meaning = "(SUNDA) the opcode is 0x87; the disabled Dual Bitvec 0x88 never passes (PROJ-CONV-T16)",
    .gens = kGensSundaOnly,
    .fields = fOpcode,
    .holds = [](const Instruction& i, const CheckContext&) { return i.opcode() == opcode::kPtrMultiDualArith; },
    .explain = explain_opcode,
    .via = nullptr,
    .failure_convention = [](const Instruction& i, const CheckContext&) -> std::string_view {
      return i.opcode() == opcode::kPtrMultiDualBitvec ? "PROJ-CONV-T16" : "";
    },
    .accepts = on_view<RawWord, [](const RawWord& x, const CheckContext&) {
      return x.header.opcode == opcode::kPtrMultiDualArith;
    }>};

constexpr Predicate kSlicesSingular{
    .name = "has_valid_src_slices_tsm_singular",
    .convention = "",
    .meaning = "W = src num_elem[3] is 1..8 (one preloaded scalar per slice)",
    .gens = kGensAll,
    .fields = fSlices,
    .holds =
        [](const Instruction& i, const CheckContext&) {
          const uint16_t w = t_of(i).src_mem_pattern.num_elem[3];
          return w >= 1 && w <= 8;
        },
    .explain = [](const Instruction& i, const CheckContext& c) { return explain_slices(i, c, 8); },
    .accepts = on_view<S4d4Tsm, [](const S4d4Tsm& x, const CheckContext&) {
      const uint16_t w = x.src_mem_pattern.num_elem[3];
      return w >= 1 && w <= 8;
    }>};

constexpr Predicate kSlicesDual{
    .name = "has_valid_src_slices_tsm_dual",
    .convention = "",
    .meaning = "(SUNDA Dual) W = src num_elem[3] is 1..4 scalar pairs",
    .gens = kGensSundaOnly,
    .fields = fSlices,
    .holds =
        [](const Instruction& i, const CheckContext&) {
          const uint16_t w = t_of(i).src_mem_pattern.num_elem[3];
          return w >= 1 && w <= 4;
        },
    .explain = [](const Instruction& i, const CheckContext& c) { return explain_slices(i, c, 4); },
    .accepts = on_view<S4d4Tsm, [](const S4d4Tsm& x, const CheckContext&) {
      const uint16_t w = x.src_mem_pattern.num_elem[3];
      return w >= 1 && w <= 4;
    }>};

constexpr Predicate kValidOps{
    .name = "tensor_scalar_ptr_multi_valid_ops",
    .convention = "",
    .meaning =
        "op is an ALU op of the generation, not DIVIDE/POW/MOD, is_bitvec_op for the Bitvec opcode and "
        "is_general_arith_op for the Arith opcode (SYMMETRIC_CLAMP on MAVERICK: PROJ-CONV-T11)",
    .gens = kGensAll,
    .fields = fOp,
    .holds = [](const Instruction& i, const CheckContext& c) { return valid_ops_failure(t_of(i), c).empty(); },
    .explain = explain_ops,
    .via =
        [](const Instruction& i, const CheckContext& c) {
          // The explicit DIVIDE/POW/MOD exclusion is a term of this predicate, not a nested predicate.
          const std::string_view why = valid_ops_failure(t_of(i), c);
          return why.starts_with("op not in") ? std::string_view{} : why;
        },
    .failure_convention = [](const Instruction& i, const CheckContext& c) -> std::string_view {
      return t_of(i).op == aluop::kSymmetricClamp && c.gen == Generation::Maverick ? "PROJ-CONV-T11" : "";
    },
    .accepts = on_view<S4d4Tsm, [](const S4d4Tsm& x, const CheckContext& c) {
      return valid_ops_accepts(x.header.opcode, x.op, c);
    }>};

constexpr Predicate kValidTypes{
    .name = "tensor_scalar_ptr_multi_valid_types",
    .convention = "",
    .meaning = "Arith: any; Bitvec: in_dtype == out_dtype and in UINT8, UINT16, UINT32, INT32",
    .gens = kGensAll,
    .fields = fTypes,
    .holds = [](const Instruction& i, const CheckContext&) { return valid_types(t_of(i)); },
    .explain = explain_types,
    .accepts = on_view<S4d4Tsm, [](const S4d4Tsm& x, const CheckContext&) { return valid_types(x); }>};

constexpr Predicate kReverseChk{
    .name = "tensor_scalar_ptr_multi_reverse_chk",
    .convention = "",
    .meaning = "reverse_operands is a TENS_SCALAR_REV_OPS value and NONE or BOTH (SUNDA Dual 0x87: any value)",
    .gens = kGensAll,
    .fields = fReverse,
    .holds = [](const Instruction& i, const CheckContext&) { return reverse_chk(t_of(i)); },
    .explain = explain_reverse,
    .via = via_reverse,
    .accepts = on_view<S4d4Tsm, [](const S4d4Tsm& x, const CheckContext&) { return reverse_chk(x); }>};

constexpr Predicate kReservedZero{
    .name = "s4d4_tsm_reserved_zero",
    .convention = "",
    .meaning = "reserved0 and reserved1 are zero",
    .gens = kGensAll,
    .fields = fReserved,
    .holds = [](const Instruction& i, const CheckContext&) { return reserved_zero(t_of(i)); },
    .explain = explain_reserved,
    // The body checks exactly the Role::Reserved fields: one must-be-zero mask over the word, 64 bits at a time.
    .accepts = [](const uint8_t* w, const CheckContext&) { return reserved_bytes_zero<S4d4Tsm>(w); }};

constexpr Predicate kInDtypeValid{
    .name = "is_valid_dtype",
    .convention = "",
    .meaning = "is_valid_dtype(in_dtype, FP32R not allowed)",
    .gens = kGensAll,
    .fields = fInDtype,
    .holds = [](const Instruction& i,
                const CheckContext& c) { return pred::is_valid_dtype(t_of(i).in_dtype, false, c); },
    .explain = [](const Instruction& i,
                  const CheckContext& c) { return "in_dtype " + explain_dtype(t_of(i).in_dtype, false, c); },
    .accepts =
        on_view<S4d4Tsm, [](const S4d4Tsm& x, const CheckContext& c) { return dtype_accepts(x.in_dtype, false, c); }>};

constexpr Predicate kOutDtypeValid{
    .name = "is_valid_dtype",
    .convention = "",
    .meaning = "is_valid_dtype(out_dtype, FP32R allowed)",
    .gens = kGensAll,
    .fields = fOutDtype,
    .holds = [](const Instruction& i,
                const CheckContext& c) { return pred::is_valid_dtype(t_of(i).out_dtype, true, c); },
    .explain = [](const Instruction& i,
                  const CheckContext& c) { return "out_dtype " + explain_dtype(t_of(i).out_dtype, true, c); },
    .accepts =
        on_view<S4d4Tsm, [](const S4d4Tsm& x, const CheckContext& c) { return dtype_accepts(x.out_dtype, true, c); }>};

constexpr Predicate kValidAluop{
    .name = "is_valid_aluop",
    .convention = "",
    .meaning = "op is a member of the generation's ALU_OP enum",
    .gens = kGensAll,
    .fields = fAluOpField,
    .holds = [](const Instruction& i, const CheckContext& c) { return aluop_in(t_of(i).op, c.gen); },
    .explain =
        [](const Instruction& i, const CheckContext& c) {
          return fmt::format("op {} is not in the ALU_OP enum of {}", aluop_label(t_of(i).op, c.gen), to_string(c.gen));
        },
    .accepts =
        on_view<S4d4Tsm, [](const S4d4Tsm& x, const CheckContext& c) { return aluop_table().has(c.gen, x.op); }>};

constexpr Predicate kSubdimValid{
    .name = "is_valid_tsm_subdim",
    .convention = "",
    .meaning = "op_dim is XYZ (0x04)",
    .gens = kGensAll,
    .fields = fSubdim,
    .holds = [](const Instruction& i, const CheckContext&) { return t_of(i).op_dim == 4; },
    .explain = [](const Instruction& i,
                  const CheckContext&) { return fmt::format("op_dim is {:#04x}, must be XYZ (0x04)", t_of(i).op_dim); },
    .accepts = on_view<S4d4Tsm, [](const S4d4Tsm& x, const CheckContext&) { return x.op_dim == 4; }>};

/// The body of both channel-range predicates (with and without MAVERICK's tile flags).
constexpr bool channels_in_range(const S4d4Tsm& x, const CheckContext& c) {
  return pred::has_valid_active_channel_range(x.num_active_channels, geometry(c.gen).channels);
}

constexpr Predicate kChannelRange{
    .name = "has_valid_active_channel_range",
    .convention = "",
    .meaning = "num_active_channels is 1..128",
    .gens = kGensNotMaverick,
    .fields = fChannels,
    .holds = [](const Instruction& i, const CheckContext& c) { return channels_in_range(t_of(i), c); },
    .explain = explain_channels,
    .accepts = on_view<S4d4Tsm, channels_in_range>};

constexpr Predicate kChannelRangeTile{
    .name = "has_valid_active_channel_range_with_tile",
    .convention = "PROJ-CONV-T1",
    .meaning =
        "(MAVERICK) num_active_channels is 1..128; the tile flags (header byte 3, PROJ-CONV-C2) are "
        "not consulted until the body is known (PROJ-CONV-T1)",
    .gens = kGensMaverickOnly,
    .fields = fChannelsTile,
    .holds = [](const Instruction& i, const CheckContext& c) { return channels_in_range(t_of(i), c); },
    .explain = explain_channels,
    .accepts = on_view<S4d4Tsm, channels_in_range>};

constexpr Predicate kSrcStartChannels{
    .name = "start_addr_active_channels",
    .convention = "PROJ-CONV-C15",
    .meaning = "src: a register start, or an SBUF/PSUM start whose partition + num_active_channels <= 128",
    .gens = kGensAll,
    .fields = fSrcChannels,
    .holds =
        [](const Instruction& i, const CheckContext& c) {
          const S4d4Tsm& t = t_of(i);
          return pred::start_addr_active_channels(t.src_mem_pattern.start_addr, t.num_active_channels, c.gen);
        },
    .explain =
        [](const Instruction& i, const CheckContext& c) {
          return explain_start_channels(t_of(i).src_mem_pattern, t_of(i).num_active_channels, c, "src");
        },
    .accepts = on_view<S4d4Tsm, [](const S4d4Tsm& x, const CheckContext& c) {
      const S4d4Tsm& t = x;
      return pred::start_addr_active_channels(t.src_mem_pattern.start_addr, t.num_active_channels, c.gen);
    }>};

constexpr Predicate kDstStartChannels{
    .name = "start_addr_active_channels",
    .convention = "PROJ-CONV-C15",
    .meaning = "dst: a register start, or an SBUF/PSUM start whose partition + num_active_channels <= 128",
    .gens = kGensAll,
    .fields = fDstChannels,
    .holds =
        [](const Instruction& i, const CheckContext& c) {
          const S4d4Tsm& t = t_of(i);
          return pred::start_addr_active_channels(t.dst_mem_pattern.start_addr, t.num_active_channels, c.gen);
        },
    .explain =
        [](const Instruction& i, const CheckContext& c) {
          return explain_start_channels(t_of(i).dst_mem_pattern, t_of(i).num_active_channels, c, "dst");
        },
    .accepts = on_view<S4d4Tsm, [](const S4d4Tsm& x, const CheckContext& c) {
      const S4d4Tsm& t = x;
      return pred::start_addr_active_channels(t.dst_mem_pattern.start_addr, t.num_active_channels, c.gen);
    }>};

std::string_view tensor4d_convention(const Tensor4d& t, const CheckContext& c) {
  return c.gen == Generation::Sunda && describe(t.start_addr, c.gen).shape_from_register &&
                 !pred::counts_nonzero(t.num_elem, t.start_addr, c.gen)
             ? "PROJ-CONV-C18"
             : "";
}

constexpr Predicate kSrcTensor4d{
    .name = "tensor4d_valid",
    .convention = "",
    .meaning =
        "src pattern readable: non-zero counts (or a register shape, CAYMAN+) and a register (0x80) or "
        "in_dtype-aligned SBUF/PSUM start",
    .gens = kGensAll,
    .fields = fSrcTensor,
    .holds =
        [](const Instruction& i, const CheckContext& c) {
          const S4d4Tsm& t = t_of(i);
          return pred::tensor4d_valid(t.src_mem_pattern, t.in_dtype, false, true, true, c.gen);
        },
    .explain =
        [](const Instruction& i, const CheckContext& c) {
          return explain_tensor4d(t_of(i).src_mem_pattern, t_of(i).in_dtype, false, c, "src");
        },
    .via = nullptr,
    .failure_convention = [](const Instruction& i,
                             const CheckContext& c) { return tensor4d_convention(t_of(i).src_mem_pattern, c); },
    .accepts = on_view_and_word<S4d4Tsm, [](const S4d4Tsm& x, const uint8_t* w, const CheckContext& c) {
      return pred::tensor_pattern_valid(x.src_mem_pattern.start_addr, raw_counts<kSrcCounts>(w), x.in_dtype, false,
                                        true, true, c.gen);
    }>};

constexpr Predicate kDstTensor4d{
    .name = "tensor4d_valid",
    .convention = "",
    .meaning =
        "dst pattern writable: non-zero counts (or a register shape, CAYMAN+) and a register (0x80) or "
        "out_dtype-aligned SBUF/PSUM start; PSUM is written only with 4-byte dtypes",
    .gens = kGensAll,
    .fields = fDstTensor,
    .holds =
        [](const Instruction& i, const CheckContext& c) {
          const S4d4Tsm& t = t_of(i);
          return pred::tensor4d_valid(t.dst_mem_pattern, t.out_dtype, true, true, true, c.gen);
        },
    .explain =
        [](const Instruction& i, const CheckContext& c) {
          return explain_tensor4d(t_of(i).dst_mem_pattern, t_of(i).out_dtype, true, c, "dst");
        },
    .via = nullptr,
    .failure_convention = [](const Instruction& i,
                             const CheckContext& c) { return tensor4d_convention(t_of(i).dst_mem_pattern, c); },
    .accepts = on_view_and_word<S4d4Tsm, [](const S4d4Tsm& x, const uint8_t* w, const CheckContext& c) {
      return pred::tensor_pattern_valid(x.dst_mem_pattern.start_addr, raw_counts<kDstCounts>(w), x.out_dtype, true,
                                        true, true, c.gen);
    }>};

constexpr Predicate kSameCount{
    .name = "same_element_count_t4d",
    .convention = "",
    .meaning = "src and dst patterns have the same number of elements",
    .gens = kGensAll,
    .fields = fCounts,
    .holds =
        [](const Instruction& i, const CheckContext&) {
          return pred::same_element_count(pred::packed_counts(t_of(i).src_mem_pattern.num_elem),
                                          pred::packed_counts(t_of(i).dst_mem_pattern.num_elem));
        },
    .explain = explain_counts,
    .accepts =
        [](const uint8_t* w, const CheckContext&) {
          return pred::same_element_count(raw_counts<kSrcCounts>(w), raw_counts<kDstCounts>(w));
        }};

// ---- Validators (s4d4-tsm.md §3.1, §3.3), is_valid_tensor_scalar_ptr_multi_common flattened ----

#define TPBISA_TSM_COMMON                                                                                       \
  &kValidOps, &kValidTypes, &kReverseChk, &kReservedZero, &kInDtypeValid, &kOutDtypeValid, &kValidAluop,        \
      &kSubdimValid, &kChannelRange, &kChannelRangeTile, &kSrcStartChannels, &kDstStartChannels, &kSrcTensor4d, \
      &kDstTensor4d, &kSameCount

constexpr const Predicate* kSingular[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kPtrMultiOpcode,
                                          &kSlicesSingular, TPBISA_TSM_COMMON};
constexpr const Predicate* kDual[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kDualOpcode, &kSlicesDual,
                                      TPBISA_TSM_COMMON};
#undef TPBISA_TSM_COMMON

constexpr Validator kValidators[] = {
    {"is_valid_tensor_scalar_ptr_multi", Checked::Full, kSingular, &evaluate_conjuncts<kSingular>,
     fast_acceptor<kSingular>()},
    {"is_valid_tensor_scalar_ptr_multi_dual", Checked::Full, kDual, &evaluate_conjuncts<kDual>, fast_acceptor<kDual>()},
};
constexpr const Validator* kValidatorList[] = {&kValidators[0], &kValidators[1]};

const Validator* select(uint8_t op, Generation g) {
  if (op == opcode::kPtrMultiArith || op == opcode::kPtrMultiBitvec) return &kValidators[0];
  if (is_dual(op) && g == Generation::Sunda) return &kValidators[1];
  return nullptr;
}

constexpr Validation kValidation{select, kValidatorList};

}  // namespace

const Validation& TsmFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
