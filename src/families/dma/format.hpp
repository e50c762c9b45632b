// DMA family formats: DMAMEMCPY 0xB8 (DMA_DIRECT2D), DMA_INDIRECT 0xBB (DMA_INDIRECT1D), DMA_TRANSPOSE 0xBD
// (DMA_DIRECT2D_XPOSE), DMA_GATHER_TRANSPOSE 0xF1 (DMA_GATHER_XPOSE), and the runtime pseudo words whose layout is
// public: PSEUDO_DMATRIGGER 0xC1 and PSEUDO_TRIGGER_COLLECTIVE 0xC8 (opcode-research.md §A.2.9, §A.2.10).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// NEURON_ISA_TPB_DMA_DIRECT2D_STRUCT (64 B): DMAMEMCPY 0xB8, one layout on every generation. A 2-D walk of
/// elem_size-byte chunks on each side, with an optional reduce into the destination (compute_op).
struct DmaDirect2d {
  static constexpr Format kFormat = Format::DmaDirect2d;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "DMA_DIRECT2D";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t dma_configs = 0;    ///< DMA_CONFIGS {priority_class:3, reserved:5}
  uint8_t semaphore = 0;      ///< completion semaphore
  uint8_t sem_increment = 0;  ///< added to it when the data have moved
  uint8_t compute_op = 0;     ///< DGE_COMPUTE_OP
  Addr8 src_start_addr{};
  std::array<int32_t, 2> src_step_elem{};
  std::array<uint16_t, 2> src_num_elem{};
  uint16_t src_elem_size = 0;
  uint8_t src_bound_reg = 0;  ///< BOUND_CHECK_REG
  uint8_t dst_bound_reg = 0;
  Addr8 dst_start_addr{};
  std::array<int32_t, 2> dst_step_elem{};
  std::array<uint16_t, 2> dst_num_elem{};
  uint16_t dst_elem_size = 0;
  uint8_t in_dtype = 0;
  uint8_t out_dtype = 0;
  bool operator==(const DmaDirect2d&) const = default;
};
template <>
inline constexpr auto fields_of<DmaDirect2d> =
    cat_fields(header_and_events<DmaDirect2d>(),
               field_decls(field("dma_configs", 12, &DmaDirect2d::dma_configs, Role::Custom),
                           field("semaphore", 13, &DmaDirect2d::semaphore),
                           field("sem_increment", 14, &DmaDirect2d::sem_increment),
                           field("compute_op", 15, &DmaDirect2d::compute_op, Role::Custom),
                           field("src_start_addr", 16, &DmaDirect2d::src_start_addr, Role::Addr8),
                           field("src_step_elem", 24, &DmaDirect2d::src_step_elem, Role::Step),
                           field("src_num_elem", 32, &DmaDirect2d::src_num_elem, Role::NumElem),
                           field("src_elem_size", 36, &DmaDirect2d::src_elem_size),
                           field("src_bound_reg", 38, &DmaDirect2d::src_bound_reg, Role::Custom),
                           field("dst_bound_reg", 39, &DmaDirect2d::dst_bound_reg, Role::Custom),
                           field("dst_start_addr", 40, &DmaDirect2d::dst_start_addr, Role::Addr8),
                           field("dst_step_elem", 48, &DmaDirect2d::dst_step_elem, Role::Step),
                           field("dst_num_elem", 56, &DmaDirect2d::dst_num_elem, Role::NumElem),
                           field("dst_elem_size", 60, &DmaDirect2d::dst_elem_size),
                           field("in_dtype", 62, &DmaDirect2d::in_dtype, Role::Dtype),
                           field("out_dtype", 63, &DmaDirect2d::out_dtype, Role::Dtype)));

/// NEURON_ISA_TPB_DMA_INDIRECT1D_STRUCT (64 B): DMA_INDIRECT 0xBB, one layout on every generation. A 1-D walk on
/// each side, either (or both) indexed by a UINT32 vector in SBUF (gather on the source, scatter on the destination).
struct DmaIndirect1d {
  static constexpr Format kFormat = Format::DmaIndirect1d;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "DMA_INDIRECT1D";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t semaphore = 0;
  uint8_t sem_increment = 0;
  uint8_t idx_num_active_channels = 0;
  uint8_t flags = 0;  ///< DMA_INDIRECT_FLAGS {indirect_mode:2, idx_bound_is_err:1, non_unique_dst_idx:1,
                      ///< gather_dim:2, scatter_dim:2}
  Addr8 src_start_addr{};
  int32_t src_step_elem = 0;
  uint16_t src_num_elem = 0;
  uint16_t src_elem_size = 0;
  Addr8 dst_start_addr{};
  int32_t dst_step_elem = 0;
  uint16_t dst_num_elem = 0;
  uint16_t dst_elem_size = 0;
  Addr4 src_idx_start_addr{};
  Addr4 dst_idx_start_addr{};
  uint8_t in_dtype = 0;
  uint8_t out_dtype = 0;
  uint8_t src_idx_bound_reg = 0;
  uint8_t dst_idx_bound_reg = 0;
  uint8_t compute_op = 0;
  uint8_t dma_configs = 0;
  std::array<uint8_t, 2> reserved{};
  bool operator==(const DmaIndirect1d&) const = default;
};
template <>
inline constexpr auto fields_of<DmaIndirect1d> =
    cat_fields(header_and_events<DmaIndirect1d>(),
               field_decls(field("semaphore", 12, &DmaIndirect1d::semaphore),
                           field("sem_increment", 13, &DmaIndirect1d::sem_increment),
                           field("idx_num_active_channels", 14, &DmaIndirect1d::idx_num_active_channels),
                           field("flags", 15, &DmaIndirect1d::flags, Role::Custom),
                           field("src_start_addr", 16, &DmaIndirect1d::src_start_addr, Role::Addr8),
                           field("src_step_elem", 24, &DmaIndirect1d::src_step_elem, Role::Step),
                           field("src_num_elem", 28, &DmaIndirect1d::src_num_elem, Role::NumElem),
                           field("src_elem_size", 30, &DmaIndirect1d::src_elem_size),
                           field("dst_start_addr", 32, &DmaIndirect1d::dst_start_addr, Role::Addr8),
                           field("dst_step_elem", 40, &DmaIndirect1d::dst_step_elem, Role::Step),
                           field("dst_num_elem", 44, &DmaIndirect1d::dst_num_elem, Role::NumElem),
                           field("dst_elem_size", 46, &DmaIndirect1d::dst_elem_size),
                           field("src_idx_start_addr", 48, &DmaIndirect1d::src_idx_start_addr, Role::Addr4),
                           field("dst_idx_start_addr", 52, &DmaIndirect1d::dst_idx_start_addr, Role::Addr4),
                           field("in_dtype", 56, &DmaIndirect1d::in_dtype, Role::Dtype),
                           field("out_dtype", 57, &DmaIndirect1d::out_dtype, Role::Dtype),
                           field("src_idx_bound_reg", 58, &DmaIndirect1d::src_idx_bound_reg, Role::Custom),
                           field("dst_idx_bound_reg", 59, &DmaIndirect1d::dst_idx_bound_reg, Role::Custom),
                           field("compute_op", 60, &DmaIndirect1d::compute_op, Role::Custom),
                           field("dma_configs", 61, &DmaIndirect1d::dma_configs, Role::Custom),
                           field("reserved", 62, &DmaIndirect1d::reserved, Role::Reserved)));

/// NEURON_ISA_TPB_DMA_DIRECT2D_XPOSE_STRUCT (64 B): DMA_TRANSPOSE 0xBD, CAYMAN and later. A crossbar transpose of
/// 16-row tiles into SBUF; it carries no sem_increment byte.
struct DmaDirect2dXpose {
  static constexpr Format kFormat = Format::DmaDirect2dXpose;
  static constexpr GenSet kGens = GenSet{0xE};
  static constexpr std::string_view kName = "DMA_DIRECT2D_XPOSE";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t src_bound_reg = 0;
  uint8_t dst_bound_reg = 0;
  uint8_t in_dtype = 0;
  uint8_t out_dtype = 0;
  Addr8 src_start_addr{};
  std::array<int32_t, 2> src_step_elem{};
  std::array<uint16_t, 2> src_num_elem{};
  int32_t tile_src_row_step = 0;
  Addr8 dst_start_addr{};
  std::array<int32_t, 2> dst_step_elem{};
  std::array<uint16_t, 2> dst_num_elem{};
  uint8_t tile_src_rows = 0;
  uint8_t tile_src_cols = 0;
  uint8_t semaphore = 0;
  uint8_t dma_configs = 0;
  bool operator==(const DmaDirect2dXpose&) const = default;
};
template <>
inline constexpr auto fields_of<DmaDirect2dXpose> =
    cat_fields(header_and_events<DmaDirect2dXpose>(),
               field_decls(field("src_bound_reg", 12, &DmaDirect2dXpose::src_bound_reg, Role::Custom),
                           field("dst_bound_reg", 13, &DmaDirect2dXpose::dst_bound_reg, Role::Custom),
                           field("in_dtype", 14, &DmaDirect2dXpose::in_dtype, Role::Dtype),
                           field("out_dtype", 15, &DmaDirect2dXpose::out_dtype, Role::Dtype),
                           field("src_start_addr", 16, &DmaDirect2dXpose::src_start_addr, Role::Addr8),
                           field("src_step_elem", 24, &DmaDirect2dXpose::src_step_elem, Role::Step),
                           field("src_num_elem", 32, &DmaDirect2dXpose::src_num_elem, Role::NumElem),
                           field("tile_src_row_step", 36, &DmaDirect2dXpose::tile_src_row_step, Role::Step),
                           field("dst_start_addr", 40, &DmaDirect2dXpose::dst_start_addr, Role::Addr8),
                           field("dst_step_elem", 48, &DmaDirect2dXpose::dst_step_elem, Role::Step),
                           field("dst_num_elem", 56, &DmaDirect2dXpose::dst_num_elem, Role::NumElem),
                           field("tile_src_rows", 60, &DmaDirect2dXpose::tile_src_rows),
                           field("tile_src_cols", 61, &DmaDirect2dXpose::tile_src_cols),
                           field("semaphore", 62, &DmaDirect2dXpose::semaphore),
                           field("dma_configs", 63, &DmaDirect2dXpose::dma_configs, Role::Custom)));

/// NEURON_ISA_TPB_DMA_GATHER_XPOSE_STRUCT (64 B): DMA_GATHER_TRANSPOSE 0xF1, CAYMAN and later. Rows gathered by a
/// UINT32 index vector, then transposed by the crossbar into SBUF (the destination's dim-0 step is the dtype size).
struct DmaGatherXpose {
  static constexpr Format kFormat = Format::DmaGatherXpose;
  static constexpr GenSet kGens = GenSet{0xE};
  static constexpr std::string_view kName = "DMA_GATHER_XPOSE";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t semaphore = 0;
  uint8_t dma_configs = 0;
  uint8_t idx_num_active_channels = 0;
  uint8_t src_idx_bound_reg = 0;
  Addr8 src_start_addr{};
  std::array<int32_t, 2> src_step_elem{};
  std::array<uint16_t, 2> src_num_elem{};
  Addr4 src_idx_start_addr{};
  Addr8 dst_start_addr{};
  std::array<uint8_t, 3> reserved{};
  uint8_t dst_bound_reg = 0;
  int32_t dst_step_elem_1 = 0;
  std::array<uint16_t, 2> dst_num_elem{};
  uint16_t elem_size = 0;
  uint8_t dtype = 0;  ///< DTYPE_PAIR: low nibble the source, high nibble the destination
  uint8_t flags = 0;  ///< DMA_GATHER_TRANSPOSE_FLAGS {gather_dim:2, reserved:6}
  bool operator==(const DmaGatherXpose&) const = default;
};
template <>
inline constexpr auto fields_of<DmaGatherXpose> =
    cat_fields(header_and_events<DmaGatherXpose>(),
               field_decls(field("semaphore", 12, &DmaGatherXpose::semaphore),
                           field("dma_configs", 13, &DmaGatherXpose::dma_configs, Role::Custom),
                           field("idx_num_active_channels", 14, &DmaGatherXpose::idx_num_active_channels),
                           field("src_idx_bound_reg", 15, &DmaGatherXpose::src_idx_bound_reg, Role::Custom),
                           field("src_start_addr", 16, &DmaGatherXpose::src_start_addr, Role::Addr8),
                           field("src_step_elem", 24, &DmaGatherXpose::src_step_elem, Role::Step),
                           field("src_num_elem", 32, &DmaGatherXpose::src_num_elem, Role::NumElem),
                           field("src_idx_start_addr", 36, &DmaGatherXpose::src_idx_start_addr, Role::Addr4),
                           field("dst_start_addr", 40, &DmaGatherXpose::dst_start_addr, Role::Addr8),
                           field("reserved", 48, &DmaGatherXpose::reserved, Role::Reserved),
                           field("dst_bound_reg", 51, &DmaGatherXpose::dst_bound_reg, Role::Custom),
                           field("dst_step_elem_1", 52, &DmaGatherXpose::dst_step_elem_1, Role::Step),
                           field("dst_num_elem", 56, &DmaGatherXpose::dst_num_elem, Role::NumElem),
                           field("elem_size", 60, &DmaGatherXpose::elem_size),
                           field("dtype", 62, &DmaGatherXpose::dtype, Role::Custom),
                           field("flags", 63, &DmaGatherXpose::flags, Role::Custom)));

/// PSEUDO_DMA_TRIGGER 0xC1 (64 B): fires the descriptor block of the named DMA queue (the engine JSON's `dma` list).
/// Only the queue name's place is public (bytes 12-43); where block_id and use_raw_count sit is not (PROJ-CONV-PS1),
/// so bytes 44-63 are kept as they are.
struct PseudoDmaTrigger {
  static constexpr Format kFormat = Format::PseudoDmaTrigger;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "PSEUDO_DMA_TRIGGER";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  std::array<uint8_t, 32> dma_queue_name{};
  std::array<uint8_t, 20> payload{};
  bool operator==(const PseudoDmaTrigger&) const = default;
};
template <>
inline constexpr auto fields_of<PseudoDmaTrigger> =
    cat_fields(header_and_events<PseudoDmaTrigger>(),
               field_decls(field("dma_queue_name", 12, &PseudoDmaTrigger::dma_queue_name, Role::Custom),
                           field("payload", 44, &PseudoDmaTrigger::payload, Role::Raw)));

/// PSEUDO_TRIGGER_COLLECTIVE 0xC8 (64 B): a collective over two tensors of the NEFF, lowered by the runtime into an
/// off-stream plan and one doorbell. Layout from the one public word (the runtime's embedded all-reduce NEFF, with
/// its producer's assembly line); byte 15 and bytes 33-63 are not described there (PROJ-CONV-PS2).
struct PseudoTriggerCollective {
  static constexpr Format kFormat = Format::PseudoTriggerCollective;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "PSEUDO_TRIGGER_COLLECTIVE";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t op = 0;  ///< ALU_OP of the reduction (ADD, MULT, MAX, MIN)
  uint8_t dtype = 0;
  uint8_t group_id = 0;
  uint8_t unknown0 = 0;
  uint32_t input_tensor_id = 0;
  uint32_t output_tensor_id = 0;
  uint64_t num_elements = 0;
  uint8_t ctype = 0;  ///< collective kind (ALL_REDUCE 1, ...)
  std::array<uint8_t, 31> payload{};
  bool operator==(const PseudoTriggerCollective&) const = default;
};
template <>
inline constexpr auto fields_of<PseudoTriggerCollective> =
    cat_fields(header_and_events<PseudoTriggerCollective>(),
               field_decls(field("op", 12, &PseudoTriggerCollective::op, Role::AluOp),
                           field("dtype", 13, &PseudoTriggerCollective::dtype, Role::Dtype),
                           field("group_id", 14, &PseudoTriggerCollective::group_id),
                           field("unknown0", 15, &PseudoTriggerCollective::unknown0, Role::Raw),
                           field("input_tensor_id", 16, &PseudoTriggerCollective::input_tensor_id),
                           field("output_tensor_id", 20, &PseudoTriggerCollective::output_tensor_id),
                           field("num_elements", 24, &PseudoTriggerCollective::num_elements),
                           field("ctype", 32, &PseudoTriggerCollective::ctype, Role::Custom),
                           field("payload", 33, &PseudoTriggerCollective::payload, Role::Raw)));

namespace family {
namespace dma {

inline constexpr uint8_t kDmaMemcpy = detail::opcode_named("DMAMEMCPY");
inline constexpr uint8_t kDmaIndirect = detail::opcode_named("DMA_INDIRECT");
inline constexpr uint8_t kDmaTranspose = detail::opcode_named("DMA_TRANSPOSE");
inline constexpr uint8_t kDmaGatherTranspose = detail::opcode_named("DMA_GATHER_TRANSPOSE");
inline constexpr uint8_t kPseudoDmaTrigger = detail::opcode_named("PSEUDO_DMATRIGGER");
inline constexpr uint8_t kPseudoTriggerCollective = detail::opcode_named("PSEUDO_TRIGGER_COLLECTIVE");

/// DGE_COMPUTE_OP: what the DMA does with the destination's old value (B) and the source value (A).
inline constexpr std::array<EnumValue, 5> kComputeOps{{{0, "NONE", kGensAll, ""},
                                                       {1, "ADD", kGensAll, ""},
                                                       {2, "MULTIPLY", kGensAll, ""},
                                                       {3, "MAX", kGensAll, ""},
                                                       {4, "MIN", kGensAll, ""}}};
inline constexpr uint8_t kComputeNone = 0, kComputeAdd = 1, kComputeMultiply = 2, kComputeMax = 3, kComputeMin = 4;

/// The collective kinds of PSEUDO_TRIGGER_COLLECTIVE's ctype (the CC kind numbering of its successor 0xD9).
inline constexpr std::array<EnumValue, 9> kCollectiveKinds{{{1, "ALL_REDUCE", kGensAll, ""},
                                                            {2, "REDUCE_SCATTER", kGensAll, ""},
                                                            {3, "ALL_GATHER", kGensAll, ""},
                                                            {4, "ALL_TO_ALL", kGensAll, ""},
                                                            {5, "PERMUTE", kGensAll, ""},
                                                            {6, "PERMUTE_1", kGensAll, ""},
                                                            {7, "PERMUTE_2", kGensAll, ""},
                                                            {8, "PERMUTE_3", kGensAll, ""},
                                                            {9, "ALL_TO_ALL_V", kGensAll, ""}}};

/// DMA_CONFIGS: priority_class in the low 3 bits (0..4), the upper 5 bits reserved.
constexpr uint8_t priority_class(uint8_t configs) {
  return configs & 0x07;
}
constexpr bool dma_configs_valid(uint8_t configs) {
  return priority_class(configs) <= 4 && (configs >> 3) == 0;
}

/// DMA_INDIRECT_FLAGS, least significant bits first.
inline constexpr uint8_t kSrcIndirection = 0, kDstIndirection = 1, kSrcDstIndirection = 2;
constexpr uint8_t indirect_mode(uint8_t flags) {
  return flags & 0x03;
}
constexpr bool idx_bound_is_err(uint8_t flags) {
  return (flags & 0x04) != 0;
}
constexpr bool non_unique_dst_idx(uint8_t flags) {
  return (flags & 0x08) != 0;
}
constexpr uint8_t gather_dim(uint8_t flags) {
  return (flags >> 4) & 0x03;
}
constexpr uint8_t scatter_dim(uint8_t flags) {
  return (flags >> 6) & 0x03;
}
/// Whether the source (gather) or the destination (scatter) is indexed.
constexpr bool gathers(uint8_t flags) {
  return indirect_mode(flags) == kSrcIndirection || indirect_mode(flags) == kSrcDstIndirection;
}
constexpr bool scatters(uint8_t flags) {
  return indirect_mode(flags) == kDstIndirection || indirect_mode(flags) == kSrcDstIndirection;
}

/// Bytes of one DMA chunk: elem_size, 0 meaning 65 536 as in the pseudo form the runtime lowers to 0xB8
/// (PROJ-CONV-DM3).
constexpr uint64_t chunk_bytes(uint16_t esz) {
  return esz == 0 ? 65536 : esz;
}

/// The transpose tile's fixed row count (has_valid_xpose_tile_rows_temporary).
inline constexpr uint8_t kXposeTileRows = 16;
/// The index vectors drive every partition channel (check_dma_indirect_indices).
inline constexpr uint8_t kIndexChannels = 128;
/// The largest index count of one indirect leg with an immediate shape (has_dma_indirect_valid_index_count).
inline constexpr uint16_t kMaxIndexCount = 4096;

/// The queue name of a trigger: the bytes up to the first NUL (all 32 when there is none).
inline std::string_view queue_name(const std::array<uint8_t, 32>& bytes) {
  size_t n = 0;
  while (n < bytes.size() && bytes[n] != 0) ++n;
  return {reinterpret_cast<const char*>(bytes.data()), n};
}

}  // namespace dma

/// The DMA family (src/families/dma): its layouts and the parts its folder defines.
struct DmaFamily {
  static constexpr std::string_view kName = "dma";
  using Layouts =
      TypeList<DmaDirect2d, DmaIndirect1d, DmaDirect2dXpose, DmaGatherXpose, PseudoDmaTrigger, PseudoTriggerCollective>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};
}  // namespace family

// ---- Compile-time checks against the spec's layout tables (opcode-research.md §A.2.9, §A.2.10) ----

static_assert(tiles_exactly<DmaDirect2d>() && tiles_exactly<DmaIndirect1d>() && tiles_exactly<DmaDirect2dXpose>() &&
              tiles_exactly<DmaGatherXpose>() && tiles_exactly<PseudoDmaTrigger>() &&
              tiles_exactly<PseudoTriggerCollective>());
static_assert(offset_of<DmaDirect2d>("compute_op") == 15 && offset_of<DmaDirect2d>("src_start_addr") == 16 &&
              offset_of<DmaDirect2d>("src_elem_size") == 36 && offset_of<DmaDirect2d>("dst_bound_reg") == 39 &&
              offset_of<DmaDirect2d>("dst_start_addr") == 40 && offset_of<DmaDirect2d>("dst_elem_size") == 60 &&
              offset_of<DmaDirect2d>("in_dtype") == 62 && offset_of<DmaDirect2d>("out_dtype") == 63);
static_assert(offset_of<DmaIndirect1d>("flags") == 15 && offset_of<DmaIndirect1d>("src_num_elem") == 28 &&
              offset_of<DmaIndirect1d>("dst_start_addr") == 32 && offset_of<DmaIndirect1d>("dst_elem_size") == 46 &&
              offset_of<DmaIndirect1d>("src_idx_start_addr") == 48 &&
              offset_of<DmaIndirect1d>("dst_idx_start_addr") == 52 && offset_of<DmaIndirect1d>("in_dtype") == 56 &&
              offset_of<DmaIndirect1d>("src_idx_bound_reg") == 58 && offset_of<DmaIndirect1d>("compute_op") == 60 &&
              offset_of<DmaIndirect1d>("dma_configs") == 61 && offset_of<DmaIndirect1d>("reserved") == 62);
static_assert(offset_of<DmaDirect2dXpose>("in_dtype") == 14 && offset_of<DmaDirect2dXpose>("out_dtype") == 15 &&
              offset_of<DmaDirect2dXpose>("tile_src_row_step") == 36 &&
              offset_of<DmaDirect2dXpose>("dst_start_addr") == 40 &&
              offset_of<DmaDirect2dXpose>("tile_src_rows") == 60 &&
              offset_of<DmaDirect2dXpose>("tile_src_cols") == 61 && offset_of<DmaDirect2dXpose>("semaphore") == 62 &&
              offset_of<DmaDirect2dXpose>("dma_configs") == 63);
static_assert(offset_of<DmaGatherXpose>("src_idx_bound_reg") == 15 &&
              offset_of<DmaGatherXpose>("src_idx_start_addr") == 36 &&
              offset_of<DmaGatherXpose>("dst_start_addr") == 40 && offset_of<DmaGatherXpose>("dst_bound_reg") == 51 &&
              offset_of<DmaGatherXpose>("dst_step_elem_1") == 52 && offset_of<DmaGatherXpose>("elem_size") == 60 &&
              offset_of<DmaGatherXpose>("dtype") == 62 && offset_of<DmaGatherXpose>("flags") == 63);
static_assert(offset_of<PseudoDmaTrigger>("dma_queue_name") == 12 && offset_of<PseudoDmaTrigger>("payload") == 44);
static_assert(offset_of<PseudoTriggerCollective>("op") == 12 && offset_of<PseudoTriggerCollective>("dtype") == 13 &&
              offset_of<PseudoTriggerCollective>("group_id") == 14 &&
              offset_of<PseudoTriggerCollective>("input_tensor_id") == 16 &&
              offset_of<PseudoTriggerCollective>("output_tensor_id") == 20 &&
              offset_of<PseudoTriggerCollective>("num_elements") == 24 &&
              offset_of<PseudoTriggerCollective>("ctype") == 32 && offset_of<PseudoTriggerCollective>("payload") == 33);

}  // namespace tpbisa
