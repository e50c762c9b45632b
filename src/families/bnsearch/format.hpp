// Batch-norm statistics and search family format: BATCH_NORM_STATS/STATS2/AGGREGATE, TRANSPOSE_BATCH_NORM_STATS2,
// MAX8, FIND_INDEX8 (S4D2_BN) and MATCH_REPLACE8 (S4D4_MR), act-index-ops.md §14, §15, batchnorm-forward.md §2.3.
#pragma once

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa {

/// NEURON_ISA_TPB_S4D2_BN_STRUCT (64 B), s4d2_bn.h: a 4-D source and a 2-D destination, shared by the three
/// batch-norm statistics opcodes, MAX8 and FIND_INDEX8 (act-index-ops.md §14.1). Same bytes on every generation.
struct S4d2Bn {
  static constexpr Format kFormat = Format::S4d2Bn;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "S4D2_BN";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  Tensor4d src{};
  uint8_t in_dtype = 0;
  uint8_t out_dtype = 0;
  uint8_t num_active_channels = 0;
  std::array<uint8_t, 5> reserved0{};
  ImmVal even_count{};  ///< fp32: STATS/STATS2 write it to the output; the others require 0
  ImmVal odd_count{};   ///< fp32: STATS2 writes it to the output; the others require 0 (STATS: finite)
  Tensor2d dst{};
  std::array<uint8_t, 4> reserved1{};
  bool operator==(const S4d2Bn&) const = default;
};
template <>
inline constexpr auto fields_of<S4d2Bn> =
    field_decls(Member<S4d2Bn, Header>{"header", 0, &S4d2Bn::header, Role::Plain},
                Member<S4d2Bn, Events>{"events", 4, &S4d2Bn::events, Role::Plain},
                Member<S4d2Bn, Tensor4d>{"src", 12, &S4d2Bn::src, Role::Plain},
                Member<S4d2Bn, uint8_t>{"in_dtype", 32, &S4d2Bn::in_dtype, Role::Dtype},
                Member<S4d2Bn, uint8_t>{"out_dtype", 33, &S4d2Bn::out_dtype, Role::Dtype},
                Member<S4d2Bn, uint8_t>{"num_active_channels", 34, &S4d2Bn::num_active_channels, Role::Channels},
                Member<S4d2Bn, std::array<uint8_t, 5>>{"reserved0", 35, &S4d2Bn::reserved0, Role::Reserved},
                Member<S4d2Bn, ImmVal>{"even_count", 40, &S4d2Bn::even_count, Role::ImmVal},
                Member<S4d2Bn, ImmVal>{"odd_count", 44, &S4d2Bn::odd_count, Role::ImmVal},
                Member<S4d2Bn, Tensor2d>{"dst", 48, &S4d2Bn::dst, Role::Plain},
                Member<S4d2Bn, std::array<uint8_t, 4>>{"reserved1", 60, &S4d2Bn::reserved1, Role::Reserved});

/// NEURON_ISA_TPB_S4D4_MR_STRUCT (64 B): MATCH_REPLACE8 0x6f, its sole occupant (act-index-ops.md §15.1).
struct S4d4Mr {
  static constexpr Format kFormat = Format::S4d4Mr;
  static constexpr GenSet kGens = kGensAll;
  static constexpr std::string_view kName = "S4D4_MR";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  Tensor4d src{};
  uint8_t in_dtype = 0;
  uint8_t out_dtype = 0;
  uint8_t num_active_channels = 0;
  std::array<uint8_t, 5> reserved0{};
  ImmVal immediate{};  ///< fp32: the value every matched element becomes
  Tensor4d dst{};
  bool operator==(const S4d4Mr&) const = default;
};
template <>
inline constexpr auto fields_of<S4d4Mr> =
    field_decls(Member<S4d4Mr, Header>{"header", 0, &S4d4Mr::header, Role::Plain},
                Member<S4d4Mr, Events>{"events", 4, &S4d4Mr::events, Role::Plain},
                Member<S4d4Mr, Tensor4d>{"src", 12, &S4d4Mr::src, Role::Plain},
                Member<S4d4Mr, uint8_t>{"in_dtype", 32, &S4d4Mr::in_dtype, Role::Dtype},
                Member<S4d4Mr, uint8_t>{"out_dtype", 33, &S4d4Mr::out_dtype, Role::Dtype},
                Member<S4d4Mr, uint8_t>{"num_active_channels", 34, &S4d4Mr::num_active_channels, Role::Channels},
                Member<S4d4Mr, std::array<uint8_t, 5>>{"reserved0", 35, &S4d4Mr::reserved0, Role::Reserved},
                Member<S4d4Mr, ImmVal>{"immediate", 40, &S4d4Mr::immediate, Role::ImmVal},
                Member<S4d4Mr, Tensor4d>{"dst", 44, &S4d4Mr::dst, Role::Plain});

struct UnitState;  // tpbisa/unit_state.hpp

namespace family {

/// The opcodes of the family, read from their catalog rows by the header's names.
namespace bnsearch {
inline constexpr uint8_t kBnStats = detail::opcode_named("BATCH_NORM_STATS");
inline constexpr uint8_t kBnStats2 = detail::opcode_named("BATCH_NORM_STATS2");
inline constexpr uint8_t kTransposeBnStats2 = detail::opcode_named("TRANSPOSE_BATCH_NORM_STATS2");
inline constexpr uint8_t kBnAggregate = detail::opcode_named("BATCH_NORM_AGGREGATE");
inline constexpr uint8_t kMax8 = detail::opcode_named("MAX8");
inline constexpr uint8_t kFindIndex8 = detail::opcode_named("FIND_INDEX8");
inline constexpr uint8_t kMatchReplace8 = detail::opcode_named("MATCH_REPLACE8");

/// Which S4D2_BN count immediates an opcode reads: STATS writes even_count, STATS2 and its transposed form both
/// (§14.3); the others require them zero and read neither. The validator, the executor and the syntax ask these.
constexpr bool reads_even_count(uint8_t opcode) {
  return opcode == kBnStats || opcode == kBnStats2 || opcode == kTransposeBnStats2;
}
constexpr bool reads_odd_count(uint8_t opcode) {
  return opcode == kBnStats2 || opcode == kTransposeBnStats2;
}
/// Elements of a TENSOR2D pattern (t2d_count).
constexpr uint64_t elements(const Tensor2d& t) {
  return uint64_t{t.num_elem[0]} * t.num_elem[1];
}
}  // namespace bnsearch

/// The batch-norm statistics and search family (src/families/bnsearch): its layouts and the parts its folder defines.
struct BnSearchFamily {
  static constexpr std::string_view kName = "bnsearch";
  using Layouts = TypeList<S4d2Bn, S4d4Mr>;
  static const Validation& validation();           ///< validate.cpp
  static const Execution& execution();             ///< execute.cpp
  static const Syntax& syntax();                   ///< syntax.cpp
  static std::span<const UnitState> unit_state();  ///< state.cpp: the matched indices MI of each DVE channel
};

}  // namespace family

// ---- Compile-time checks against the spec's layout tables (act-index-ops.md §14.1, §15.1) ----

static_assert(tiles_exactly<S4d2Bn>() && tiles_exactly<S4d4Mr>());
static_assert(offset_of<S4d2Bn>("src") == 12 && offset_of<S4d2Bn>("in_dtype") == 32 &&
              offset_of<S4d2Bn>("out_dtype") == 33 && offset_of<S4d2Bn>("num_active_channels") == 34 &&
              offset_of<S4d2Bn>("reserved0") == 35 && offset_of<S4d2Bn>("even_count") == 40 &&
              offset_of<S4d2Bn>("odd_count") == 44 && offset_of<S4d2Bn>("dst") == 48 &&
              offset_of<S4d2Bn>("reserved1") == 60);
static_assert(offset_of<S4d4Mr>("src") == 12 && offset_of<S4d4Mr>("in_dtype") == 32 &&
              offset_of<S4d4Mr>("out_dtype") == 33 && offset_of<S4d4Mr>("num_active_channels") == 34 &&
              offset_of<S4d4Mr>("reserved0") == 35 && offset_of<S4d4Mr>("immediate") == 40 &&
              offset_of<S4d4Mr>("dst") == 44);

}  // namespace tpbisa
