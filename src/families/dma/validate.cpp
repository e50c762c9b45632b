// DMA family validators: is_valid_dma_memcpy_direct (0xB8), is_valid_dma_indirect (0xBB), is_valid_dma_transpose
// (0xBD), is_valid_dma_gather_transpose (0xF1) with the header predicates the public wiki names, and the pseudo
// words 0xC1 / 0xC8 (opcode-research.md §A.2.9, §A.2.10; ours where a convention is named, docs/conventions.md).
#include <algorithm>

#include "families/common.hpp"
#include "families/dma/format.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

using namespace dma;
using Md = DmaDirect2d;
using In = DmaIndirect1d;
using Xp = DmaDirect2dXpose;
using Gx = DmaGatherXpose;
using Tr = PseudoDmaTrigger;
using Cc = PseudoTriggerCollective;

// ---- Shared readings ----

constexpr bool immediate(const Addr8& a) {
  return a.is_immediate();
}
/// An immediate ADDR8 aligned to `n` bytes (register and table forms are placed at run time).
constexpr bool addr8_aligned(const Addr8& a, uint64_t n) {
  return !immediate(a) || a.immediate() % n == 0;
}
/// The element count of `bytes` bytes of dtype d (0 when d has no size or they are not whole elements).
constexpr uint64_t elements_of(uint64_t bytes, uint8_t d) {
  const unsigned z = dtype_size(d);
  return z == 0 || bytes % z != 0 ? 0 : bytes / z;
}

std::string explain_opcode(const Instruction& i, const CheckContext&) {
  return fmt::format("opcode {:#04x} does not belong to this validator", i.opcode());
}
template <class S, uint8_t Opcode>
constexpr Predicate opcode_predicate(std::string_view name) {
  return rule<S, has_opcode<Opcode>>({.name = name,
                                      .convention = "PROJ-CONV-DM1",
                                      .meaning = "the opcode is the one this validator judges",
                                      .gens = S::kGens,
                                      .fields = kOpcodeFieldOf<S>,
                                      .explain = explain_opcode});
}

// ---- is_valid_dma_configs, over whichever byte a layout keeps it in ----

template <class S>
constexpr FieldRef kConfigsField[] = {field_ref<S>("dma_configs")};
template <class S>
bool configs_ok(const S& s, const CheckContext&) {
  return dma_configs_valid(s.dma_configs);
}
template <class S>
std::string configs_text(const S& s, const CheckContext&) {
  return fmt::format("dma_configs {:#04x}: priority_class (bits 0-2) is {}, must be 0..4, and bits 3-7 must be zero",
                     s.dma_configs, priority_class(s.dma_configs));
}
template <class S>
constexpr Predicate configs_predicate() {
  return rule<S, configs_ok<S>>({.name = "is_valid_dma_configs",
                                 .meaning = "DMA_CONFIGS: priority_class <= 4, the reserved bits 3-7 zero",
                                 .gens = S::kGens,
                                 .fields = kConfigsField<S>,
                                 .explain = explain_on_body<S, configs_text<S>>});
}

// ---- DGE_COMPUTE_OP ----

template <class S>
constexpr FieldRef kComputeField[] = {field_ref<S>("compute_op")};
template <class S>
bool compute_ok(const S& s, const CheckContext&) {
  return s.compute_op <= kComputeMin;
}
template <class S>
std::string compute_text(const S& s, const CheckContext&) {
  return fmt::format("compute_op {:#04x} is not a DGE_COMPUTE_OP (NONE 0, ADD 1, MULTIPLY 2, MAX 3, MIN 4)",
                     s.compute_op);
}
template <class S>
constexpr Predicate compute_predicate() {
  return rule<S, compute_ok<S>>({.name = "has_valid_dge_compute_op",
                                 .convention = "PROJ-CONV-DM2",
                                 .meaning = "compute_op is a DGE_COMPUTE_OP: NONE, ADD, MULTIPLY, MAX or MIN (0..4)",
                                 .gens = S::kGens,
                                 .fields = kComputeField<S>,
                                 .explain = explain_on_body<S, compute_text<S>>});
}

// ---- is_valid_dtype on one dtype field ----

template <class S, uint8_t S::*D, Name Which>
bool dtype_ok(const S& s, const CheckContext& c) {
  return dtype_accepts(s.*D, true, c);
}
template <class S, uint8_t S::*D, Name Which>
std::string dtype_text(const S& s, const CheckContext& c) {
  std::string_view via;
  pred::is_valid_dtype(s.*D, true, c, &via);
  return fmt::format("{} {} fails is_valid_dtype ({})", std::string_view{Which}, dtype_label(s.*D, c.gen), via);
}
template <class S, Name Which>
constexpr FieldRef kDtypeField[] = {field_ref<S>(std::string_view{Which})};
template <class S, uint8_t S::*D, Name Which>
constexpr Predicate dtype_predicate() {
  return rule<S, dtype_ok<S, D, Which>>(
      {.name = "is_valid_dtype",
       .meaning =
           "is_valid_dtype(d, FP32R allowed): not INVALID, UINT64, INT64; a member of the generation's DTYPE enum "
           "(PROJ-CONV-C13); on MAVERICK not a 4-bit or scale dtype",
       .gens = S::kGens,
       .fields = kDtypeField<S, Which>,
       .explain = explain_on_body<S, dtype_text<S, D, Which>>});
}

// ---- zero_num_elem_shape_reg_mode: a shape taken from registers leaves the immediate counts zero ----

template <class S>
bool shape_reg_zero_2d(const S& s, const CheckContext&) {
  const bool src = !s.src_start_addr.shape_from_register() || (s.src_num_elem[0] == 0 && s.src_num_elem[1] == 0);
  const bool dst = !s.dst_start_addr.shape_from_register() || (s.dst_num_elem[0] == 0 && s.dst_num_elem[1] == 0);
  return src && dst;
}
bool shape_reg_zero_1d(const In& s, const CheckContext&) {
  return (!s.src_start_addr.shape_from_register() || s.src_num_elem == 0) &&
         (!s.dst_start_addr.shape_from_register() || s.dst_num_elem == 0);
}
template <class S>
std::string shape_reg_text(const S&, const CheckContext&) {
  return "a start address whose marker takes the shape from registers (bit 6) must leave its num_elem zero";
}
constexpr FieldRef fMdShape[] = {field_ref<Md>("src_start_addr"), field_ref<Md>("src_num_elem"),
                                 field_ref<Md>("dst_start_addr"), field_ref<Md>("dst_num_elem")};
constexpr FieldRef fInShape[] = {field_ref<In>("src_start_addr"), field_ref<In>("src_num_elem"),
                                 field_ref<In>("dst_start_addr"), field_ref<In>("dst_num_elem")};
constexpr std::string_view kShapeMeaning =
    "zero_num_elem_shape_reg_mode: a start address with the shape-from-register bit (marker 0x40) has zero counts";

// ======================= DMAMEMCPY 0xB8 =======================

constexpr Predicate kMdOpcode = opcode_predicate<Md, kDmaMemcpy>("has_dma_memcpy_opcode");
constexpr Predicate kMdConfigs = configs_predicate<Md>();
constexpr Predicate kMdCompute = compute_predicate<Md>();
constexpr Predicate kMdInDtype = dtype_predicate<Md, &Md::in_dtype, "in_dtype">();
constexpr Predicate kMdOutDtype = dtype_predicate<Md, &Md::out_dtype, "out_dtype">();
constexpr Predicate kMdShape = rule<Md, shape_reg_zero_2d<Md>>({.name = "zero_num_elem_shape_reg_mode",
                                                                .meaning = kShapeMeaning,
                                                                .gens = kGensAll,
                                                                .fields = fMdShape,
                                                                .explain = explain_on_body<Md, shape_reg_text<Md>>});

constexpr uint64_t md_src_bytes(const Md& m) {
  return uint64_t{m.src_num_elem[0]} * m.src_num_elem[1] * chunk_bytes(m.src_elem_size);
}
constexpr uint64_t md_dst_bytes(const Md& m) {
  return uint64_t{m.dst_num_elem[0]} * m.dst_num_elem[1] * chunk_bytes(m.dst_elem_size);
}
/// Both sides move the same elements: the same bytes when the dtypes are equal, else the same element count
/// (PROJ-CONV-DM3). Shapes from registers are judged at run time.
bool md_same_count(const Md& m, const CheckContext&) {
  if (m.src_start_addr.shape_from_register() || m.dst_start_addr.shape_from_register()) return true;
  if (m.in_dtype == m.out_dtype) return md_src_bytes(m) == md_dst_bytes(m);
  const uint64_t a = elements_of(md_src_bytes(m), m.in_dtype), b = elements_of(md_dst_bytes(m), m.out_dtype);
  return a == b && (a != 0 || md_src_bytes(m) == 0);
}
std::string md_same_count_text(const Md& m, const CheckContext& c) {
  return fmt::format("the source moves {} bytes of {} and the destination {} bytes of {}: not the same elements",
                     md_src_bytes(m), dtype_label(m.in_dtype, c.gen), md_dst_bytes(m), dtype_label(m.out_dtype, c.gen));
}
constexpr FieldRef fMdCount[] = {field_ref<Md>("src_num_elem"), field_ref<Md>("src_elem_size"),
                                 field_ref<Md>("dst_num_elem"), field_ref<Md>("dst_elem_size"),
                                 field_ref<Md>("in_dtype"),     field_ref<Md>("out_dtype")};
constexpr Predicate kMdSameCount =
    rule<Md, md_same_count>({.name = "dma_memcpy_same_element_count",
                             .convention = "PROJ-CONV-DM3",
                             .meaning = "src_num[0]*src_num[1]*esz(src_elem_size) and the destination's product hold "
                                        "the same bytes (equal dtypes) or the same whole elements (a cast); esz 0 is "
                                        "65 536; register shapes are judged when the word runs",
                             .gens = kGensAll,
                             .fields = fMdCount,
                             .explain = explain_on_body<Md, md_same_count_text>});

/// is_valid_dma_cce: with a compute op, both sides hold elements of their dtype at aligned places (PROJ-CONV-DM4).
template <class S>
bool cce_aligned(const S& m) {
  const unsigned zi = dtype_size(m.in_dtype), zo = dtype_size(m.out_dtype);
  if (zi == 0 || zo == 0) return false;
  const auto steps_ok = [](const auto& steps, unsigned z) {
    if constexpr (requires { steps.size(); }) {
      return std::all_of(steps.begin(), steps.end(), [z](int32_t s) { return s % static_cast<int32_t>(z) == 0; });
    } else {
      return steps % static_cast<int32_t>(z) == 0;
    }
  };
  return addr8_aligned(m.src_start_addr, zi) && addr8_aligned(m.dst_start_addr, zo) && steps_ok(m.src_step_elem, zi) &&
         steps_ok(m.dst_step_elem, zo) && chunk_bytes(m.src_elem_size) % zi == 0 &&
         chunk_bytes(m.dst_elem_size) % zo == 0;
}
template <class S>
bool cce_ok(const S& m, const CheckContext&) {
  return m.compute_op == kComputeNone || cce_aligned(m);
}
template <class S>
std::string cce_text(const S& m, const CheckContext& c) {
  return fmt::format(
      "compute_op {} needs sized dtypes ({} in, {} out), immediate start addresses, steps and element "
      "sizes that are multiples of the dtype sizes",
      m.compute_op, dtype_label(m.in_dtype, c.gen), dtype_label(m.out_dtype, c.gen));
}
constexpr FieldRef fMdCce[] = {
    field_ref<Md>("compute_op"),    field_ref<Md>("src_start_addr"), field_ref<Md>("src_step_elem"),
    field_ref<Md>("src_elem_size"), field_ref<Md>("dst_start_addr"), field_ref<Md>("dst_step_elem"),
    field_ref<Md>("dst_elem_size"), field_ref<Md>("in_dtype"),       field_ref<Md>("out_dtype")};
constexpr std::string_view kCceMeaning =
    "with compute_op != NONE: immediate start addresses aligned to their dtype size, every step and element size a "
    "multiple of it (the alignment rules of the CCE path, PROJ-CONV-DM4)";
constexpr Predicate kMdCce = rule<Md, cce_ok<Md>>(
    {.name = "is_valid_dma_cce",
     .meaning = kCceMeaning,
     .gens = kGensAll,
     .fields = fMdCce,
     .explain = explain_on_body<Md, cce_text<Md>>,
     .failure_convention = [](const Instruction&, const CheckContext&) { return std::string_view{"PROJ-CONV-DM4"}; }});

// ======================= DMA_INDIRECT 0xBB =======================

constexpr Predicate kInOpcode = opcode_predicate<In, kDmaIndirect>("has_dma_indirect_opcode");

bool in_channels_ok(const In& s, const CheckContext&) {
  return s.idx_num_active_channels == kIndexChannels;
}
constexpr FieldRef fInChannels[] = {field_ref<In>("idx_num_active_channels")};
constexpr Predicate kInChannels = rule<In, in_channels_ok>(
    {.name = "check_dma_indirect_indices",
     .meaning = "idx_num_active_channels == 128 (the index vector drives every partition channel)",
     .gens = kGensAll,
     .fields = fInChannels,
     .explain = explain_on_body<In, [](const In& s, const CheckContext&) {
       return fmt::format("idx_num_active_channels is {}, must be 128", s.idx_num_active_channels);
     }>});

/// has_valid_indirect_dim_by_mode: a known mode; the leg the mode does not index has dim 0; an indexed leg with an
/// immediate shape walks X.
bool in_dims_ok(const In& s, const CheckContext&) {
  const uint8_t m = indirect_mode(s.flags);
  if (m > kSrcDstIndirection) return false;
  const bool g_ok = gathers(s.flags) ? (s.src_start_addr.shape_from_register() || gather_dim(s.flags) == 0)
                                     : gather_dim(s.flags) == 0;
  const bool s_ok = scatters(s.flags) ? (s.dst_start_addr.shape_from_register() || scatter_dim(s.flags) == 0)
                                      : scatter_dim(s.flags) == 0;
  return g_ok && s_ok;
}
constexpr FieldRef fInDims[] = {field_ref<In>("flags"), field_ref<In>("src_start_addr"),
                                field_ref<In>("dst_start_addr")};
constexpr Predicate kInDims = rule<In, in_dims_ok>(
    {.name = "has_valid_indirect_dim_by_mode",
     .meaning = "flags.indirect_mode is SRC (0), DST (1) or SRC_DST (2); gather_dim is 0 unless the source is indexed, "
                "scatter_dim 0 unless the destination is; an indexed side with an immediate shape walks X (dim 0)",
     .gens = kGensAll,
     .fields = fInDims,
     .explain = explain_on_body<In, [](const In& s, const CheckContext&) {
       return fmt::format("flags {:#04x}: indirect_mode {}, gather_dim {}, scatter_dim {}", s.flags,
                          indirect_mode(s.flags), gather_dim(s.flags), scatter_dim(s.flags));
     }>});

/// An index ADDR4 in SBUF partition 0, or register-sourced.
bool idx_addr_ok(const Addr4& a, Generation g) {
  const Addr4Meaning m = describe(a, g);
  return m.from_register || (m.target.region == Region::Sbuf && m.target.partition == 0 && !m.indirect);
}
bool in_idx_addr_ok(const In& s, const CheckContext& c) {
  return (!gathers(s.flags) || idx_addr_ok(s.src_idx_start_addr, c.gen)) &&
         (!scatters(s.flags) || idx_addr_ok(s.dst_idx_start_addr, c.gen));
}
constexpr FieldRef fInIdxAddr[] = {field_ref<In>("flags"), field_ref<In>("src_idx_start_addr"),
                                   field_ref<In>("dst_idx_start_addr")};
constexpr Predicate kInIdxAddr = rule<In, in_idx_addr_ok>(
    {.name = "has_dma_indirect_idx_addr_in_sbuf_partition0",
     .meaning = "each index vector the mode uses is register-sourced or starts in SBUF partition 0",
     .gens = kGensAll,
     .fields = fInIdxAddr,
     .explain = explain_on_body<In, [](const In& s, const CheckContext& c) {
       return fmt::format("index vectors: src {} dst {} (indirect_mode {}): an active one must lie in SBUF partition 0",
                          addr4_label(s.src_idx_start_addr, c.gen), addr4_label(s.dst_idx_start_addr, c.gen),
                          indirect_mode(s.flags));
     }>});

bool in_count_ok(const In& s, const CheckContext&) {
  return (!gathers(s.flags) || s.src_start_addr.shape_from_register() || s.src_num_elem <= kMaxIndexCount) &&
         (!scatters(s.flags) || s.dst_start_addr.shape_from_register() || s.dst_num_elem <= kMaxIndexCount);
}
constexpr FieldRef fInCount[] = {field_ref<In>("flags"), field_ref<In>("src_num_elem"), field_ref<In>("dst_num_elem")};
constexpr Predicate kInCount = rule<In, in_count_ok>(
    {.name = "has_dma_indirect_valid_index_count",
     .meaning = "an indexed side with an immediate shape walks at most 4096 elements",
     .gens = kGensAll,
     .fields = fInCount,
     .explain = explain_on_body<In, [](const In& s, const CheckContext&) {
       return fmt::format("src_num_elem {} / dst_num_elem {}: an indexed side walks at most 4096 elements",
                          s.src_num_elem, s.dst_num_elem);
     }>});

constexpr Predicate kInShape = rule<In, shape_reg_zero_1d>({.name = "zero_num_elem_shape_reg_mode",
                                                            .meaning = kShapeMeaning,
                                                            .gens = kGensAll,
                                                            .fields = fInShape,
                                                            .explain = explain_on_body<In, shape_reg_text<In>>});
constexpr Predicate kInConfigs = configs_predicate<In>();
constexpr Predicate kInCompute = compute_predicate<In>();
constexpr Predicate kInInDtype = dtype_predicate<In, &In::in_dtype, "in_dtype">();
constexpr Predicate kInOutDtype = dtype_predicate<In, &In::out_dtype, "out_dtype">();
constexpr FieldRef fInCce[] = {
    field_ref<In>("compute_op"),    field_ref<In>("src_start_addr"), field_ref<In>("src_step_elem"),
    field_ref<In>("src_elem_size"), field_ref<In>("dst_start_addr"), field_ref<In>("dst_step_elem"),
    field_ref<In>("dst_elem_size"), field_ref<In>("in_dtype"),       field_ref<In>("out_dtype")};
constexpr Predicate kInCce = rule<In, cce_ok<In>>(
    {.name = "is_valid_dma_indirect_cce",
     .meaning = kCceMeaning,
     .gens = kGensAll,
     .fields = fInCce,
     .explain = explain_on_body<In, cce_text<In>>,
     .failure_convention = [](const Instruction&, const CheckContext&) { return std::string_view{"PROJ-CONV-DM4"}; }});
constexpr FieldRef fInReserved[] = {field_ref<In>("reserved")};
constexpr Predicate kInReserved = reserved_rule<In, fInReserved>(
    {.name = "has_dma_indirect_check_reserved_zero",
     .meaning = "bytes 62-63 are zero",
     .gens = kGensAll,
     .explain = [](const Instruction& i, const CheckContext&) {
       const In& s = body<In>(i);
       return fmt::format("reserved bytes 62-63 are {:#04x} {:#04x}, must be zero", s.reserved[0], s.reserved[1]);
     }});

// ======================= DMA_TRANSPOSE 0xBD =======================

constexpr Predicate kXpOpcode = opcode_predicate<Xp, kDmaTranspose>("has_dma_transpose_opcode");
constexpr FieldRef fXpRows[] = {field_ref<Xp>("tile_src_rows")};
constexpr Predicate kXpRows =
    rule<Xp, [](const Xp& s, const CheckContext&) { return s.tile_src_rows == kXposeTileRows; }>(
        {.name = "has_valid_xpose_tile_rows_temporary",
         .meaning = "tile_src_rows == 16",
         .gens = Xp::kGens,
         .fields = fXpRows,
         .explain = explain_on_body<Xp, [](const Xp& s, const CheckContext&) {
           return fmt::format("tile_src_rows is {}, must be 16", s.tile_src_rows);
         }>});
bool xp_cols_ok(const Xp& s, const CheckContext&) {
  const unsigned z = dtype_size(s.out_dtype);
  const unsigned most = z == 2 ? 128 : z == 4 ? 64 : 0;
  return s.tile_src_cols >= 1 && s.tile_src_cols <= most;
}
constexpr FieldRef fXpCols[] = {field_ref<Xp>("tile_src_cols"), field_ref<Xp>("out_dtype")};
constexpr Predicate kXpCols = rule<Xp, xp_cols_ok>(
    {.name = "has_valid_xpose_tile_cols_temporary",
     .meaning = "tile_src_cols is 1..128 for a 2-byte out_dtype, 1..64 for a 4-byte one",
     .gens = Xp::kGens,
     .fields = fXpCols,
     .explain = explain_on_body<Xp, [](const Xp& s, const CheckContext& c) {
       return fmt::format("tile_src_cols is {} with out_dtype {}: 1..128 for 2-byte, 1..64 for 4-byte dtypes",
                          s.tile_src_cols, dtype_label(s.out_dtype, c.gen));
     }>});
bool xp_dtypes_ok(const Xp& s, const CheckContext&) {
  const unsigned z = dtype_size(s.in_dtype);
  return s.in_dtype == s.out_dtype && (z == 2 || z == 4);
}
constexpr FieldRef fXpDtypes[] = {field_ref<Xp>("in_dtype"), field_ref<Xp>("out_dtype")};
constexpr Predicate kXpDtypes = rule<Xp, xp_dtypes_ok>(
    {.name = "has_valid_xpose_dtypes_temporary",
     .meaning = "in_dtype == out_dtype (no cast), a 2- or 4-byte dtype",
     .gens = Xp::kGens,
     .fields = fXpDtypes,
     .explain = explain_on_body<Xp, [](const Xp& s, const CheckContext& c) {
       return fmt::format("in_dtype {} / out_dtype {}: the transpose needs one 2- or 4-byte dtype on both sides",
                          dtype_label(s.in_dtype, c.gen), dtype_label(s.out_dtype, c.gen));
     }>});
bool xp_dst_ok(const Xp& s, const CheckContext& c) {
  if (!immediate(s.dst_start_addr)) return true;
  const Addr8Meaning m = describe(s.dst_start_addr, c.gen);
  return m.region == Region::Sbuf && m.address % 32 == 0;
}
constexpr FieldRef fXpDst[] = {field_ref<Xp>("dst_start_addr")};
constexpr Predicate kXpDst = rule<Xp, xp_dst_ok>(
    {.name = "has_valid_xpose_dst_start_addr",
     .convention = "PROJ-CONV-DM5",
     .meaning = "an immediate dst_start_addr lies in SBUF and is 32-byte aligned (the crossbar writes SBUF)",
     .gens = Xp::kGens,
     .fields = fXpDst,
     .explain = explain_on_body<Xp, [](const Xp& s, const CheckContext& c) {
       return fmt::format("dst_start_addr {}: must be a 32-byte aligned SBUF address",
                          to_string(describe(s.dst_start_addr, c.gen)));
     }>});
bool xp_dst_steps_ok(const Xp& s, const CheckContext&) {
  return (s.dst_step_elem[0] % 32 == 0 || s.dst_num_elem[0] == 1) &&
         (s.dst_step_elem[1] % 32 == 0 || s.dst_num_elem[1] == 1);
}
constexpr FieldRef fXpDstSteps[] = {field_ref<Xp>("dst_step_elem"), field_ref<Xp>("dst_num_elem")};
constexpr Predicate kXpDstSteps = rule<Xp, xp_dst_steps_ok>(
    {.name = "has_valid_xpose_dst_steps",
     .convention = "PROJ-CONV-DM5",
     .meaning = "each dst_step_elem[i] is a multiple of 32 bytes unless dst_num_elem[i] == 1",
     .gens = Xp::kGens,
     .fields = fXpDstSteps,
     .explain = explain_on_body<Xp, [](const Xp& s, const CheckContext&) {
       return fmt::format(
           "dst_step_elem {{{}, {}}} with dst_num_elem {{{}, {}}}: a step must be a multiple of 32 unless "
           "its count is 1",
           s.dst_step_elem[0], s.dst_step_elem[1], s.dst_num_elem[0], s.dst_num_elem[1]);
     }>});
constexpr Predicate kXpConfigs = configs_predicate<Xp>();
constexpr Predicate kXpInDtype = dtype_predicate<Xp, &Xp::in_dtype, "in_dtype">();

// ======================= DMA_GATHER_TRANSPOSE 0xF1 =======================

constexpr Predicate kGxOpcode = opcode_predicate<Gx, kDmaGatherTranspose>("has_dma_gather_transpose_opcode");
constexpr FieldRef fGxChannels[] = {field_ref<Gx>("idx_num_active_channels")};
constexpr Predicate kGxChannels =
    rule<Gx, [](const Gx& s, const CheckContext&) { return s.idx_num_active_channels == kIndexChannels; }>(
        {.name = "check_dma_indirect_indices",
         .meaning = "idx_num_active_channels == 128 (the index vector drives every partition channel)",
         .gens = Gx::kGens,
         .fields = fGxChannels,
         .explain = explain_on_body<Gx, [](const Gx& s, const CheckContext&) {
           return fmt::format("idx_num_active_channels is {}, must be 128", s.idx_num_active_channels);
         }>});
constexpr uint8_t pair_lo(uint8_t p) {
  return p & 0x0F;
}
constexpr uint8_t pair_hi(uint8_t p) {
  return p >> 4;
}
bool gx_dtype_ok(const Gx& s, const CheckContext& c) {
  return pair_lo(s.dtype) == pair_hi(s.dtype) && dtype_size(pair_lo(s.dtype)) == 2 &&
         dtype_accepts(pair_lo(s.dtype), false, c);
}
constexpr FieldRef fGxDtype[] = {field_ref<Gx>("dtype")};
constexpr Predicate kGxDtype = rule<Gx, gx_dtype_ok>(
    {.name = "has_valid_gather_transpose_dtype",
     .meaning = "dtype_lo == dtype_hi, a valid 2-byte dtype (no cast)",
     .gens = Gx::kGens,
     .fields = fGxDtype,
     .explain = explain_on_body<Gx, [](const Gx& s, const CheckContext& c) {
       return fmt::format("dtype pair {:#04x} ({} -> {}): both nibbles must name the same valid 2-byte dtype", s.dtype,
                          dtype_label(pair_lo(s.dtype), c.gen), dtype_label(pair_hi(s.dtype), c.gen));
     }>});
constexpr FieldRef fGxElem[] = {field_ref<Gx>("elem_size")};
constexpr Predicate kGxElem =
    rule<Gx, [](const Gx& s,
                const CheckContext&) { return s.elem_size >= 2 && s.elem_size <= 256 && s.elem_size % 2 == 0; }>(
        {.name = "has_valid_gather_transpose_elem_size",
         .meaning = "elem_size is even and 2..256",
         .gens = Gx::kGens,
         .fields = fGxElem,
         .explain = explain_on_body<Gx, [](const Gx& s, const CheckContext&) {
           return fmt::format("elem_size is {}, must be even and 2..256", s.elem_size);
         }>});
bool gx_addr_ok(const Gx& s, const CheckContext& c) {
  const Addr4Meaning idx = describe(s.src_idx_start_addr, c.gen);
  const bool idx_ok = idx.from_register || idx.target.masked % 4 == 0;
  return addr8_aligned(s.src_start_addr, 2) && addr8_aligned(s.dst_start_addr, 32) && idx_ok;
}
constexpr FieldRef fGxAddr[] = {field_ref<Gx>("src_start_addr"), field_ref<Gx>("src_idx_start_addr"),
                                field_ref<Gx>("dst_start_addr")};
constexpr Predicate kGxAddr = rule<Gx, gx_addr_ok>(
    {.name = "has_valid_gather_transpose_addresses",
     .meaning = "immediate addresses aligned: src_start 2 bytes, dst_start 32 bytes, src_idx_start 4 bytes",
     .gens = Gx::kGens,
     .fields = fGxAddr,
     .explain = explain_on_body<Gx, [](const Gx& s, const CheckContext& c) {
       return fmt::format("src_start {} (2-byte), src_idx_start {} (4-byte), dst_start {} (32-byte aligned)",
                          to_string(describe(s.src_start_addr, c.gen)), addr4_label(s.src_idx_start_addr, c.gen),
                          to_string(describe(s.dst_start_addr, c.gen)));
     }>});
constexpr FieldRef fGxFlags[] = {field_ref<Gx>("flags")};
constexpr Predicate kGxFlags = rule<Gx, [](const Gx& s, const CheckContext&) { return s.flags == 0x01; }>(
    {.name = "has_valid_gather_transpose_flags",
     .meaning = "flags.gather_dim is Y (1) and the reserved bits 2-7 are zero",
     .gens = Gx::kGens,
     .fields = fGxFlags,
     .explain = explain_on_body<Gx, [](const Gx& s, const CheckContext&) {
       return fmt::format("flags {:#04x}: gather_dim must be Y (1), bits 2-7 zero", s.flags);
     }>});
constexpr FieldRef fGxSrcDims[] = {field_ref<Gx>("src_num_elem")};
constexpr Predicate kGxSrcDims = rule<Gx, [](const Gx& s, const CheckContext&) { return s.src_num_elem[1] % 16 == 0; }>(
    {.name = "has_valid_gather_transpose_src_dimensions",
     .meaning = "src_num_elem[1] (the index count) is a multiple of 16",
     .gens = Gx::kGens,
     .fields = fGxSrcDims,
     .explain = explain_on_body<Gx, [](const Gx& s, const CheckContext&) {
       return fmt::format("src_num_elem[1] is {}, must be a multiple of 16", s.src_num_elem[1]);
     }>});
constexpr FieldRef fGxDstSteps[] = {field_ref<Gx>("dst_step_elem_1"), field_ref<Gx>("dst_num_elem")};
constexpr Predicate kGxDstSteps =
    rule<Gx, [](const Gx& s, const CheckContext&) { return s.dst_step_elem_1 % 32 == 0 || s.dst_num_elem[1] == 1; }>(
        {.name = "has_valid_gather_transpose_dst_steps",
         .meaning = "dst_step_elem_1 is a multiple of 32 unless dst_num_elem[1] == 1",
         .gens = Gx::kGens,
         .fields = fGxDstSteps,
         .explain = explain_on_body<Gx, [](const Gx& s, const CheckContext&) {
           return fmt::format("dst_step_elem_1 is {} with dst_num_elem[1] {}", s.dst_step_elem_1, s.dst_num_elem[1]);
         }>});
constexpr FieldRef fGxCross[] = {field_ref<Gx>("src_num_elem"), field_ref<Gx>("dst_num_elem")};
constexpr Predicate kGxCross =
    rule<Gx, [](const Gx& s, const CheckContext&) { return s.src_num_elem[1] == s.dst_num_elem[0]; }>(
        {.name = "has_valid_gather_transpose_cross_field_consistency",
         .meaning = "src_num_elem[1] == dst_num_elem[0] (both the index count)",
         .gens = Gx::kGens,
         .fields = fGxCross,
         .explain = explain_on_body<Gx, [](const Gx& s, const CheckContext&) {
           return fmt::format("src_num_elem[1] {} != dst_num_elem[0] {}", s.src_num_elem[1], s.dst_num_elem[0]);
         }>});
constexpr FieldRef fGxReserved[] = {field_ref<Gx>("reserved")};
constexpr Predicate kGxReserved =
    reserved_rule<Gx, fGxReserved>({.name = "dma_gather_transpose_reserved_zero",
                                    .convention = "PROJ-CONV-DM1",
                                    .meaning = "bytes 48-50 are zero",
                                    .gens = Gx::kGens,
                                    .explain = [](const Instruction&, const CheckContext&) {
                                      return std::string("reserved bytes 48-50 must be zero");
                                    }});
constexpr Predicate kGxConfigs = configs_predicate<Gx>();

// ======================= PSEUDO_DMA_TRIGGER 0xC1 =======================

constexpr Predicate kTrOpcode = opcode_predicate<Tr, kPseudoDmaTrigger>("has_pseudo_dma_trigger_opcode");
/// A name of 1..32 bytes, NUL-padded: no byte after the first NUL is set (PROJ-CONV-PS1).
bool tr_name_ok(const Tr& s, const CheckContext&) {
  const std::string_view n = queue_name(s.dma_queue_name);
  if (n.empty()) return false;
  return std::all_of(s.dma_queue_name.begin() + static_cast<ptrdiff_t>(n.size()), s.dma_queue_name.end(),
                     [](uint8_t b) { return b == 0; });
}
constexpr FieldRef fTrName[] = {field_ref<Tr>("dma_queue_name")};
constexpr Predicate kTrName =
    rule<Tr, tr_name_ok>({.name = "pseudo_dma_trigger_queue_named",
                          .convention = "PROJ-CONV-PS1",
                          .meaning = "dma_queue_name (bytes 12-43) holds a name of 1..32 bytes, NUL-padded after it",
                          .gens = kGensAll,
                          .fields = fTrName,
                          .explain = explain_on_body<Tr, [](const Tr& s, const CheckContext&) {
                            return queue_name(s.dma_queue_name).empty()
                                       ? std::string("dma_queue_name is empty: a trigger names its queue")
                                       : std::string("dma_queue_name has bytes after its terminating NUL");
                          }>});

// ======================= PSEUDO_TRIGGER_COLLECTIVE 0xC8 =======================

constexpr Predicate kCcOpcode = opcode_predicate<Cc, kPseudoTriggerCollective>("has_pseudo_trigger_collective_opcode");
constexpr uint8_t kUpdateSemIncComplete = 0x13;
constexpr FieldRef fCcUpdate[] = {field_ref<Cc>("events.update_mode")};
constexpr Predicate kCcUpdate =
    rule<Cc, [](const Cc& s, const CheckContext&) { return s.events.update_mode == kUpdateSemIncComplete; }>(
        {.name = "pseudo_collective_update_inc_complete",
         .convention = "PROJ-CONV-PS2",
         .meaning = "update_mode is SEM_INC at completion (0x13), the only mode the runtime lowers",
         .gens = kGensAll,
         .fields = fCcUpdate,
         .explain = explain_on_body<Cc, [](const Cc& s, const CheckContext&) {
           return fmt::format("update_mode is {:#04x}, must be 0x13 (semaphore += 1 at completion)",
                              s.events.update_mode);
         }>});
constexpr FieldRef fCcOp[] = {field_ref<Cc>("op")};
constexpr Predicate kCcOp =
    rule<Cc,
         [](const Cc& s, const CheckContext&) { return s.op == 0x04 || s.op == 0x06 || s.op == 0x08 || s.op == 0x09; }>(
        {.name = "pseudo_collective_valid_op",
         .convention = "PROJ-CONV-PS2",
         .meaning = "op is ADD, MULT, MAX or MIN (ALU_OP 0x04, 0x06, 0x08, 0x09)",
         .gens = kGensAll,
         .fields = fCcOp,
         .explain = explain_on_body<Cc, [](const Cc& s, const CheckContext& c) {
           return fmt::format("op {} is not ADD, MULT, MAX or MIN", aluop_label(s.op, c.gen));
         }>});
constexpr Predicate kCcDtype = dtype_predicate<Cc, &Cc::dtype, "dtype">();
constexpr FieldRef fCcCtype[] = {field_ref<Cc>("ctype")};
constexpr Predicate kCcCtype = rule<Cc, [](const Cc& s, const CheckContext&) { return s.ctype >= 1 && s.ctype <= 9; }>(
    {.name = "pseudo_collective_valid_ctype",
     .convention = "PROJ-CONV-PS2",
     .meaning = "ctype is a collective kind 1..9 (ALL_REDUCE 1 ... ALL_TO_ALL_V 9)",
     .gens = kGensAll,
     .fields = fCcCtype,
     .explain = explain_on_body<Cc, [](const Cc& s, const CheckContext&) {
       return fmt::format("ctype {} is not a collective kind (1..9)", s.ctype);
     }>});

// ---- Validators ----

constexpr const Predicate* kMd[] = {&kHasValidNeuronHeader,
                                    &kHasValidNeuronEvents,
                                    &kMdOpcode,
                                    &kMdConfigs,
                                    &kMdCompute,
                                    &kMdInDtype,
                                    &kMdOutDtype,
                                    &kMdShape,
                                    &kMdSameCount,
                                    &kMdCce,
                                    &kEnginePlacement};
constexpr const Predicate* kIn[] = {&kHasValidNeuronHeader,
                                    &kHasValidNeuronEvents,
                                    &kInOpcode,
                                    &kInChannels,
                                    &kInDims,
                                    &kInIdxAddr,
                                    &kInCount,
                                    &kInShape,
                                    &kInConfigs,
                                    &kInCompute,
                                    &kInInDtype,
                                    &kInOutDtype,
                                    &kInCce,
                                    &kInReserved,
                                    &kEnginePlacement};
constexpr const Predicate* kXp[] = {&kHasValidNeuronHeader,
                                    &kHasValidNeuronEvents,
                                    &kXpOpcode,
                                    &kXpRows,
                                    &kXpCols,
                                    &kXpDtypes,
                                    &kXpInDtype,
                                    &kXpDst,
                                    &kXpDstSteps,
                                    &kXpConfigs,
                                    &kEnginePlacement};
constexpr const Predicate* kGx[] = {&kHasValidNeuronHeader,
                                    &kHasValidNeuronEvents,
                                    &kGxOpcode,
                                    &kGxChannels,
                                    &kGxDtype,
                                    &kGxElem,
                                    &kGxAddr,
                                    &kGxFlags,
                                    &kGxSrcDims,
                                    &kGxDstSteps,
                                    &kGxCross,
                                    &kGxReserved,
                                    &kGxConfigs,
                                    &kEnginePlacement};
constexpr const Predicate* kTr[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kTrOpcode, &kTrName,
                                    &kEnginePlacement};
constexpr const Predicate* kCc[] = {
    &kHasValidNeuronHeader, &kHasValidNeuronEvents, &kCcOpcode, &kCcUpdate, &kCcOp, &kCcDtype, &kCcCtype,
    &kEnginePlacement};

constexpr Validator kMdValidator = full_validator<kMd>("is_valid_dma_memcpy_direct");
constexpr Validator kInValidator = full_validator<kIn>("is_valid_dma_indirect");
constexpr Validator kXpValidator = full_validator<kXp>("is_valid_dma_transpose");
constexpr Validator kGxValidator = full_validator<kGx>("is_valid_dma_gather_transpose");
constexpr Validator kTrValidator = full_validator<kTr>("is_valid_pseudo_dma_trigger");
constexpr Validator kCcValidator = full_validator<kCc>("is_valid_pseudo_trigger_collective");

constexpr ValidatorRow kRows[] = {
    {kDmaMemcpy, &kMdValidator},          {kDmaIndirect, &kInValidator},      {kDmaTranspose, &kXpValidator},
    {kDmaGatherTranspose, &kGxValidator}, {kPseudoDmaTrigger, &kTrValidator}, {kPseudoTriggerCollective, &kCcValidator},
};
constexpr Validation kValidation = validator_table<DmaFamily, kRows>();

}  // namespace

const Validation& DmaFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
