// Public-layout family formats: COPY_PREDICATED_SCALAR 0xE8 (S3D3_CP_PRED_SCALAR) and SB2SB_COLLECTIVE 0xBF
// (S3D3_COLLECTIVE), whose layouts the wiki compile-verifies (copypredicatedscalar.md §4, sb2sb-remote-copy.md §2),
// and REG_STORE 0x4B / MAX_POOL_SELECT 0x58 on the D4_MR and S4D4_PL structs the datapath and pool families declare.
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/families/datapath/format.hpp"
#include "tpbisa/families/pool/format.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// NEURON_ISA_TPB_S3D3_CP_PRED_SCALAR_STRUCT (64 B), s3d3_cp_pred_scalar.h: COPY_PREDICATED_SCALAR 0xE8, its sole
/// occupant. The same bytes on every generation; MARIANA+ types the two patterns MEM_PATTERN3D, judged by their
/// TENSOR3D bytes (PROJ-CONV-K3, PROJ-CONV-PU1).
struct S3d3CpPredScalar {
  static constexpr Format kFormat = Format::S3d3CpPredScalar;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "S3D3_CP_PRED_SCALAR";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  std::array<uint8_t, 4> reserved0{};
  Tensor3d pred{};  ///< the integer predicate, one element per dst element
  uint8_t pred_dtype = 0;
  uint8_t reversed_pred = 0;  ///< 0: a zero predicate takes the scalar; 1: a non-zero one does
  uint8_t num_active_channels = 0;
  std::array<uint8_t, 6> reserved1{};
  uint8_t in_dtype = 0;   ///< the scalar's dtype (equal to out_dtype: no conversion)
  uint8_t out_dtype = 0;  ///< dst's dtype
  uint8_t src0_imm_src = 0;
  ImmVal src0_imm{};  ///< the scalar: its bits, a PartitionOffset pointer, or a register holding one
  Tensor3d dst{};     ///< read (kept elements) and written
  bool operator==(const S3d3CpPredScalar&) const = default;
};
template <>
inline constexpr auto fields_of<S3d3CpPredScalar> = field_decls(
    Member<S3d3CpPredScalar, Header>{"header", 0, &S3d3CpPredScalar::header, Role::Plain},
    Member<S3d3CpPredScalar, Events>{"events", 4, &S3d3CpPredScalar::events, Role::Plain},
    Member<S3d3CpPredScalar, std::array<uint8_t, 4>>{"reserved0", 12, &S3d3CpPredScalar::reserved0, Role::Reserved},
    Member<S3d3CpPredScalar, Tensor3d>{"pred", 16, &S3d3CpPredScalar::pred, Role::Plain},
    Member<S3d3CpPredScalar, uint8_t>{"pred_dtype", 32, &S3d3CpPredScalar::pred_dtype, Role::Dtype},
    Member<S3d3CpPredScalar, uint8_t>{"reversed_pred", 33, &S3d3CpPredScalar::reversed_pred, Role::Custom},
    Member<S3d3CpPredScalar, uint8_t>{"num_active_channels", 34, &S3d3CpPredScalar::num_active_channels,
                                      Role::Channels},
    Member<S3d3CpPredScalar, std::array<uint8_t, 6>>{"reserved1", 35, &S3d3CpPredScalar::reserved1, Role::Reserved},
    Member<S3d3CpPredScalar, uint8_t>{"in_dtype", 41, &S3d3CpPredScalar::in_dtype, Role::Dtype},
    Member<S3d3CpPredScalar, uint8_t>{"out_dtype", 42, &S3d3CpPredScalar::out_dtype, Role::Dtype},
    Member<S3d3CpPredScalar, uint8_t>{"src0_imm_src", 43, &S3d3CpPredScalar::src0_imm_src, Role::ImmSrc},
    Member<S3d3CpPredScalar, ImmVal>{"src0_imm", 44, &S3d3CpPredScalar::src0_imm, Role::ImmVal},
    Member<S3d3CpPredScalar, Tensor3d>{"dst", 48, &S3d3CpPredScalar::dst, Role::Plain});

/// NEURON_ISA_TPB_S3D3_COLLECTIVE_STRUCT (64 B), s3d3_collective.h: SB2SB_COLLECTIVE 0xBF, CAYMAN and later
/// (sb2sb-remote-copy.md §2). reserved1 is bytes 34..47 (the header comment's "35-47" is a typo, §2).
struct S3d3Collective {
  static constexpr Format kFormat = Format::S3d3Collective;
  static constexpr GenSet kGens = kGensCaymanUp;
  static constexpr std::string_view kName = "S3D3_COLLECTIVE";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  uint8_t in_dtype = 0;
  uint8_t out_dtype = 0;  ///< equal to in_dtype: a raw copy
  std::array<uint8_t, 2> reserved0{};
  Tensor3d src{};            ///< local SBUF
  uint8_t lnc_size_fmt = 0;  ///< LNC_SIZE_FMT: the peer group (LNC1 self-test, LNC2 one peer)
  uint8_t num_active_channels = 0;
  std::array<uint8_t, 14> reserved1{};
  Tensor3d dst{};  ///< the peer's SBUF
  bool operator==(const S3d3Collective&) const = default;
};
template <>
inline constexpr auto fields_of<S3d3Collective> = field_decls(
    Member<S3d3Collective, Header>{"header", 0, &S3d3Collective::header, Role::Plain},
    Member<S3d3Collective, Events>{"events", 4, &S3d3Collective::events, Role::Plain},
    Member<S3d3Collective, uint8_t>{"in_dtype", 12, &S3d3Collective::in_dtype, Role::Dtype},
    Member<S3d3Collective, uint8_t>{"out_dtype", 13, &S3d3Collective::out_dtype, Role::Dtype},
    Member<S3d3Collective, std::array<uint8_t, 2>>{"reserved0", 14, &S3d3Collective::reserved0, Role::Reserved},
    Member<S3d3Collective, Tensor3d>{"src", 16, &S3d3Collective::src, Role::Plain},
    Member<S3d3Collective, uint8_t>{"lnc_size_fmt", 32, &S3d3Collective::lnc_size_fmt, Role::Custom},
    Member<S3d3Collective, uint8_t>{"num_active_channels", 33, &S3d3Collective::num_active_channels, Role::Channels},
    Member<S3d3Collective, std::array<uint8_t, 14>>{"reserved1", 34, &S3d3Collective::reserved1, Role::Reserved},
    Member<S3d3Collective, Tensor3d>{"dst", 48, &S3d3Collective::dst, Role::Plain});

namespace family {

/// The public-layout family (src/families/publayout): opcodes whose layouts the public sources give and that no
/// other family decodes; it gives D4_MR and S4D4_PL one more opcode each.
struct PublicLayoutFamily {
  static constexpr std::string_view kName = "publayout";
  using Layouts = TypeList<S3d3CpPredScalar, S3d3Collective>;
  using Uses = TypeList<D4Mr, S4d4Pl>;
  static const Validation& validation();  ///< validate.cpp
  static const Execution& execution();    ///< execute.cpp
  static const Syntax& syntax();          ///< syntax.cpp
};

namespace publayout {

inline constexpr uint8_t kCopyPredicatedScalar = ::tpbisa::detail::opcode_named("COPY_PREDICATED_SCALAR");
inline constexpr uint8_t kSb2sbCollective = ::tpbisa::detail::opcode_named("SB2SB_COLLECTIVE");
inline constexpr uint8_t kRegStore = ::tpbisa::detail::opcode_named("REG_STORE");
inline constexpr uint8_t kMaxPoolSelect = ::tpbisa::detail::opcode_named("MAX_POOL_SELECT");

/// LNC_SIZE_FMT (sb2sb-remote-copy.md §2b): LNC1 0 (a core copies to itself, self-test), LNC2 1, LNC4 2, LNC8 3.
inline constexpr uint8_t kLnc1 = 0, kLnc2 = 1, kLnc4 = 2, kLnc8 = 3;
/// has_valid_LncSizefmt: a member of the enum other than LNC4 and LNC8.
constexpr bool lnc_size_fmt_accepted(uint8_t f) {
  return f == kLnc1 || f == kLnc2;
}
/// size_check_src: SB2SB_COLLECTIVE moves at most 256 source elements.
inline constexpr uint64_t kSb2sbMaxSrcElements = 256;

/// How src0_imm is read (IMM_SRC, common-formats.md §7.2); a value outside the enum reads as the value (the
/// validator rejects it).
constexpr ImmReading imm_reading(uint8_t src) {
  return src == imm_src::kPointer      ? ImmReading::Pointer
         : src == imm_src::kRegPointer ? ImmReading::Register
                                       : ImmReading::Value;
}

/// Whether element k of dst takes the scalar: where the predicate is zero by default, where it is not zero with
/// reversed_pred (s3d3_cp_pred_scalar.h's reference loop, copypredicatedscalar.md §7).
constexpr bool takes_scalar(bool pred_set, uint8_t reversed_pred) {
  return pred_set == (reversed_pred != 0);
}

}  // namespace publayout
}  // namespace family

static_assert(tiles_exactly<S3d3CpPredScalar>());
static_assert(offset_of<S3d3CpPredScalar>("reserved0") == 12 && offset_of<S3d3CpPredScalar>("pred") == 16 &&
              offset_of<S3d3CpPredScalar>("pred_dtype") == 32 && offset_of<S3d3CpPredScalar>("reversed_pred") == 33 &&
              offset_of<S3d3CpPredScalar>("num_active_channels") == 34 &&
              offset_of<S3d3CpPredScalar>("reserved1") == 35 && offset_of<S3d3CpPredScalar>("in_dtype") == 41 &&
              offset_of<S3d3CpPredScalar>("out_dtype") == 42 && offset_of<S3d3CpPredScalar>("src0_imm_src") == 43 &&
              offset_of<S3d3CpPredScalar>("src0_imm") == 44 && offset_of<S3d3CpPredScalar>("dst") == 48);
static_assert(tiles_exactly<S3d3Collective>());
static_assert(offset_of<S3d3Collective>("in_dtype") == 12 && offset_of<S3d3Collective>("out_dtype") == 13 &&
              offset_of<S3d3Collective>("reserved0") == 14 && offset_of<S3d3Collective>("src") == 16 &&
              offset_of<S3d3Collective>("lnc_size_fmt") == 32 &&
              offset_of<S3d3Collective>("num_active_channels") == 33 && offset_of<S3d3Collective>("reserved1") == 34 &&
              offset_of<S3d3Collective>("dst") == 48);

}  // namespace tpbisa
