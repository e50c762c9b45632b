// PE seed family format: PE_MANAGE_SEED 0x08 (S2S1D2_PE_SEED), as the public wiki quotes its header (pe-matmul.md §4;
// PROJ-CONV-PS1).
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/families/tensor_scalar/format.hpp"  // TENSOR1D, the identity operand's sub-format
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// NEURON_ISA_TPB_S2S1D2_PE_SEED_STRUCT (64 B), s2s1d2_pe_seed.h: loads the PSUM stochastic-rounding seeds from SBUF
/// or saves them to PSUM, through the PE array with a 16-element identity operand. The same bytes on MARIANA and
/// MAVERICK, the generations that have the opcode.
struct S2s1d2PeSeed {
  static constexpr Format kFormat = Format::S2s1d2PeSeed;
  static constexpr GenSet kGens = kGensMarianaUp;
  static constexpr std::string_view kName = "S2S1D2_PE_SEED";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  Tensor2d src{};       ///< LOAD_SEED: the seeds in SBUF, 16 partitions of 128 INT32 seeds
  Tensor1d identity{};  ///< the identity operand the array needs to move the seeds
  uint8_t identity_dtype = 0;
  uint8_t mode = 0;             ///< PE_SEED_MODE
  uint8_t num_active_rows = 0;  ///< 16
  uint8_t num_active_cols = 0;  ///< 128
  Tensor2d dst{};               ///< SAVE_SEED: the seeds in PSUM, 128 partitions of 16
  std::array<uint8_t, 16> reserved{};
  bool operator==(const S2s1d2PeSeed&) const = default;
};
template <>
inline constexpr auto fields_of<S2s1d2PeSeed> = cat_fields(
    header_and_events<S2s1d2PeSeed>(),
    field_decls(field("src", 12, &S2s1d2PeSeed::src), field("identity", 24, &S2s1d2PeSeed::identity),
                field("identity_dtype", 32, &S2s1d2PeSeed::identity_dtype, Role::Dtype),
                field("mode", 33, &S2s1d2PeSeed::mode, Role::Custom),
                field("num_active_rows", 34, &S2s1d2PeSeed::num_active_rows),
                field("num_active_cols", 35, &S2s1d2PeSeed::num_active_cols), field("dst", 36, &S2s1d2PeSeed::dst),
                field("reserved", 48, &S2s1d2PeSeed::reserved, Role::Reserved)));

namespace family {

/// The PE seed family (src/families/peseed): its layout and the parts its folder defines.
struct PeSeedFamily {
  static constexpr std::string_view kName = "peseed";
  using Layouts = TypeList<S2s1d2PeSeed>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};

}  // namespace family

/// The PE seed family's opcode and enums: each decided here, once, for the validator, the executor, the descriptions
/// and the assembler.
namespace peseed {

inline constexpr uint8_t kPeManageSeed = detail::opcode_named("PE_MANAGE_SEED");

/// PE_SEED_MODE (common.h; the enum, not the field comment's off-by-one prose: PROJ-CONV-PS1).
inline constexpr uint8_t kModeNone = 0, kModeLoad = 1, kModeSave = 2;
inline constexpr std::array<EnumValue, 3> kModes{{{kModeNone, "NONE", kGensAll, ""},
                                                  {kModeLoad, "LOAD_SEED", kGensAll, ""},
                                                  {kModeSave, "SAVE_SEED", kGensAll, ""}}};
/// The array shape the header fixes: 16 rows (the seeds' SBUF partitions), 128 columns (PSUM partitions).
inline constexpr uint8_t kRows = 16, kCols = 128;
/// The seeds: 2048 32-bit seeds per PSUM, 128 per SBUF partition when loaded, 16 per PSUM partition when saved.
inline constexpr uint64_t kLoadSeedsPerPartition = 128, kSaveSeedsPerPartition = 16;
inline constexpr unsigned kSeedBytes = 4;

}  // namespace peseed

// ---- Compile-time checks against the wiki's S2S1D2_PE_SEED table (pe-matmul.md §4) ----

static_assert(tiles_exactly<S2s1d2PeSeed>());
static_assert(offset_of<S2s1d2PeSeed>("src") == 12 && offset_of<S2s1d2PeSeed>("identity") == 24 &&
              offset_of<S2s1d2PeSeed>("identity_dtype") == 32 && offset_of<S2s1d2PeSeed>("mode") == 33 &&
              offset_of<S2s1d2PeSeed>("num_active_rows") == 34 && offset_of<S2s1d2PeSeed>("num_active_cols") == 35 &&
              offset_of<S2s1d2PeSeed>("dst") == 36 && offset_of<S2s1d2PeSeed>("reserved") == 48);

}  // namespace tpbisa
