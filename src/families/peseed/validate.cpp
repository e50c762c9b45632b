// PE seed family validator: is_valid_s2s1d2_pe_seed† (0x08 PE_MANAGE_SEED). The wiki quotes the header's field notes
// (16 rows, 128 columns, the seeds' shapes and regions, the identity's dtypes, reserved bytes zero) but no validator
// or predicate names: every conjunct name is ours (PROJ-CONV-PS2).
#include "families/common.hpp"
#include "families/matmul/meaning.hpp"
#include "families/operand_rules.hpp"
#include "families/peseed/format.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

using namespace operand_rules;
using Ps = S2s1d2PeSeed;

// ---- Fields read, by name ----

constexpr auto fReserved = field_refs_with_role<Ps, Role::Reserved>();
constexpr FieldRef fMode[] = {field_ref<Ps>("mode")};
constexpr FieldRef fIdDtype[] = {field_ref<Ps>("identity_dtype")};
constexpr FieldRef fRows[] = {field_ref<Ps>("num_active_rows")};
constexpr FieldRef fCols[] = {field_ref<Ps>("num_active_cols")};
constexpr FieldRef fIdentity[] = {field_ref<Ps>("identity.start_addr"), field_ref<Ps>("identity.num_elem"),
                                  field_ref<Ps>("identity_dtype")};
constexpr FieldRef fSrc[] = {field_ref<Ps>("mode"), field_ref<Ps>("src.start_addr"), field_ref<Ps>("src.num_elem")};
constexpr FieldRef fDst[] = {field_ref<Ps>("mode"), field_ref<Ps>("dst.start_addr"), field_ref<Ps>("dst.num_elem")};

// ---- Predicate bodies ----

constexpr bool identity_dtype_ok(uint8_t d) {
  return d == dtype::kBfloat16 || d == dtype::kFp16 || d == dtype::kFp32r || d == dtype::kFp8Exp3 ||
         d == dtype::kFp8Exp4 || d == dtype::kFp8Exp5;
}

std::string_view region_name(Region r) {
  return r == Region::Sbuf ? "SBUF" : r == Region::Psum ? "PSUM" : "neither SBUF nor PSUM";
}

/// A seed tensor of the mode it serves: a register start, or an immediate 4-byte-aligned start at partition 0 of
/// `region` whose pattern holds `seeds` elements (a shape from a register waives the count).
template <class T>
bool seeds_ok(const T& t, Region region, uint64_t seeds, Generation g) {
  if (!pred::counts_nonzero(t.num_elem, t.start_addr, g)) return false;
  if (!t.start_addr.from_register()) {
    const matmul::Place p = matmul::place_of(t.start_addr, g);
    if (!p.known || p.at.region != region || p.at.partition != 0 || (t.start_addr.masked() & 3U) != 0) return false;
  }
  return shape_escapes(t.start_addr, g) || elements_of(t) == seeds;
}
template <class T>
std::string seeds_text(std::string_view which, const T& t, Region region, uint64_t seeds, Generation g) {
  if (!pred::counts_nonzero(t.num_elem, t.start_addr, g)) return fmt::format("{} has a zero count", which);
  const matmul::Place p = matmul::place_of(t.start_addr, g);
  if (!t.start_addr.from_register() &&
      (!p.known || p.at.region != region || p.at.partition != 0 || (t.start_addr.masked() & 3U) != 0))
    return fmt::format("{} start {} is not a 4-byte-aligned start at partition 0 of {}", which,
                       addr4_label(t.start_addr, g), region_name(region));
  return fmt::format("{} has {} elements, must be {} seeds per partition", which, elements_of(t), seeds);
}

bool src_ok(const Ps& x, const CheckContext& c) {
  return x.mode != peseed::kModeLoad || seeds_ok(x.src, Region::Sbuf, peseed::kLoadSeedsPerPartition, c.gen);
}
std::string src_text(const Ps& x, const CheckContext& c) {
  return seeds_text("src", x.src, Region::Sbuf, peseed::kLoadSeedsPerPartition, c.gen);
}
/// SAVE_SEED writes PSUM (MAVERICK has none: SBUF, as MATMUL's destination, PROJ-CONV-N1).
bool dst_ok(const Ps& x, const CheckContext& c) {
  return x.mode != peseed::kModeSave ||
         seeds_ok(x.dst, matmul::dst_region(c.gen), peseed::kSaveSeedsPerPartition, c.gen);
}
std::string dst_text(const Ps& x, const CheckContext& c) {
  return seeds_text("dst", x.dst, matmul::dst_region(c.gen), peseed::kSaveSeedsPerPartition, c.gen);
}

// ---- The conjuncts of is_valid_s2s1d2_pe_seed ----

constexpr Predicate kOpcode = opcode_clause<Ps, peseed::kPeManageSeed>("has_pe_manage_seed_opcode", "PROJ-CONV-PS2",
                                                                       "the opcode is PE_MANAGE_SEED (0x08)");

constexpr Predicate kReserved = reserved_rule<Ps, fReserved>({.name = "s2s1d2_pe_seed_reserved_zero",
                                                              .convention = "PROJ-CONV-PS2",
                                                              .meaning = "reserved (bytes 48-63) is zero",
                                                              .explain = [](const Instruction& i, const CheckContext&) {
                                                                return explain_reserved_bytes(encode(i), fReserved);
                                                              }});

constexpr Predicate kMode =
    text_rule<Ps, [](const Ps& x, const CheckContext&) { return x.mode <= peseed::kModeSave; },
              [](const Ps& x, const CheckContext&) {
                return fmt::format("mode is {}, must be NONE (0), LOAD_SEED (1) or SAVE_SEED (2)", x.mode);
              }>("has_valid_pe_seed_mode", "PROJ-CONV-PS2", "mode is a PE_SEED_MODE: NONE 0, LOAD_SEED 1, SAVE_SEED 2",
                 fMode);

constexpr Predicate kIdDtype =
    text_rule<Ps, [](const Ps& x, const CheckContext&) { return identity_dtype_ok(x.identity_dtype); },
              [](const Ps& x, const CheckContext& c) {
                return fmt::format("identity_dtype {} is not BFLOAT16, FP16, FP32R or an FP8",
                                   dtype_label(x.identity_dtype, c.gen));
              }>("has_valid_pe_seed_identity_dtype", "PROJ-CONV-PS2",
                 "identity_dtype is BFLOAT16, FP16, FP32R, FP8_EXP3, FP8_EXP4 or FP8_EXP5", fIdDtype);

constexpr Predicate kRows =
    text_rule<Ps, [](const Ps& x, const CheckContext&) { return x.num_active_rows == peseed::kRows; },
              [](const Ps& x, const CheckContext&) {
                return fmt::format("num_active_rows is {}, must be 16", x.num_active_rows);
              }>("pe_seed_num_active_rows_16", "PROJ-CONV-PS2", "num_active_rows is 16 (the header fixes it)", fRows);

constexpr Predicate kCols =
    text_rule<Ps, [](const Ps& x, const CheckContext&) { return x.num_active_cols == peseed::kCols; },
              [](const Ps& x, const CheckContext&) {
                return fmt::format("num_active_cols is {}, must be 128", x.num_active_cols);
              }>("pe_seed_num_active_cols_128", "PROJ-CONV-PS2", "num_active_cols is 128 (the header fixes it)", fCols);

constexpr Predicate kIdentity = rule<Ps, pattern_ok<Ps, &Ps::identity, &Ps::identity_dtype, false, 0>>(
    {.name = "tensor1d_valid",
     .convention = "",
     .meaning = "identity readable in identity_dtype from SBUF: non-zero count (or a register shape) and a "
                "register or aligned SBUF start",
     .gens = kGensAll,
     .fields = fIdentity,
     .explain =
         explain_on_body<Ps, pattern_text<Ps, &Ps::identity, &Ps::identity_dtype, false, "identity", kRegionWording>>});

constexpr Predicate kSrc = text_rule<Ps, src_ok, src_text>(
    "pe_seed_valid_src", "PROJ-CONV-PS2",
    "with LOAD_SEED, src holds 128 INT32 seeds per partition from a 4-byte-aligned start at SBUF partition 0 (or a "
    "register)",
    fSrc);
constexpr Predicate kDst = text_rule<Ps, dst_ok, dst_text>(
    "pe_seed_valid_dst", "PROJ-CONV-PS2",
    "with SAVE_SEED, dst holds 16 seeds per partition from a 4-byte-aligned start at PSUM partition 0 (MAVERICK: "
    "SBUF) or a register",
    fDst);

constexpr const Predicate* kConjuncts[] = {&kHasValidNeuronHeader,
                                           &kHasValidNeuronEvents,
                                           &kOpcode,
                                           &kReserved,
                                           &kMode,
                                           &kIdDtype,
                                           &kRows,
                                           &kCols,
                                           &kIdentity,
                                           &kSrc,
                                           &kDst,
                                           &kEnginePlacement};

constexpr Validator kValidator = full_validator<kConjuncts>("is_valid_s2s1d2_pe_seed");

constexpr ValidatorRow kTable[] = {{peseed::kPeManageSeed, &kValidator}};
constexpr Validation kValidation = validator_table<PeSeedFamily, kTable>();

}  // namespace

const Validation& PeSeedFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
