// Activation-function tables (act-index-ops.md §3): a parsed set, the load-time checks and the reference evaluator.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/act_row.hpp"

namespace tpbisa::act {

/// One BUCKET record (§3.3.4): the cubic d0 + d1·t + d2·t² + d3·t³ with t = x − x0, as fp32 bits.
struct Bucket {
  uint32_t d0 = 0, d1 = 0, d2 = 0, d3 = 0, x0 = 0;
  bool operator==(const Bucket&) const = default;
};

/// The keys of one `profile_meta_data` entry the evaluator reads (§3.3.3); `*_result` and `symmetry_point` are fp32
/// bits. The knobs of PROJ-CONV-A5 other than use_multipass are not kept: they have no effect.
struct Profile {
  std::string func_name;  ///< as written: "exp_400p"
  std::string base_name;  ///< without the budget suffix: "exp" (the name every rule of §3.6/§3.7 tests)
  uint8_t func_id = 0;
  uint32_t fzero_result = 0, fpinf_result = 0, fninf_result = 0, fnan_result = 0;
  bool symmetry_opt_en = false, symmetry_opt_use_neg_region = false, sym_invert_sign_point = false;
  uint32_t symmetry_point = 0;
  int64_t exp_offset = 0;
  int64_t pwl_control_base_pos = 0, pwl_control_base_neg = 0;
  int64_t small_pos_signal_exp_threshold = 0, small_neg_signal_exp_threshold = 0;
  int64_t large_pos_signal_exp_threshold = 0, large_neg_signal_exp_threshold = 0;
  int64_t large_pos_signal_mantissa_threshold = 0, large_neg_signal_mantissa_threshold = 0;
  int64_t pos_small_signal_pwl_control = 0, neg_small_signal_pwl_control = 0;
  int64_t pos_large_signal_pwl_control = 0, neg_large_signal_pwl_control = 0;
  bool use_multipass = false;
  bool parametric_relu = false;  ///< base_name == "parametric_relu" (PROJ-CONV-A4)
  bool exact = false;            ///< one of the exactly-known functions of §3.7, by base name
  /// No input reaches an index outside the set's tables (set with the set, from its CONTROL words, saturation slots
  /// and octave thresholds): evaluate() never reports BadIndex for this profile, a NaN taking step 1's result. An
  /// executor past its other checks may then write results where they go instead of staging them.
  bool never_faults = false;
};

/// The fault a set load raises (§3.3.6, §2.6 step 4b).
enum class LoadFault : uint8_t {
  SetIndexOutOfRange,  ///< ActivationSetIndexOutOfRange
  SetNotInNeff,        ///< ActivationSetNotInNeff: a member missing, or a set Activation.json does not list
  TableError,          ///< ActivationTableError: a member present but damaged
};
std::string_view to_string(LoadFault f);  ///< "ActivationSetIndexOutOfRange", ...

/// A failed load: the fault and one line naming the set, the member and what is wrong (offset or byte count).
struct LoadError {
  LoadFault fault = LoadFault::TableError;
  std::string message;
};

/// A parsed activation-function set: its profiles, BUCKET records and CONTROL words. Built from the three members'
/// bytes (a NEFF's, or any in-memory blobs a writer composes); immutable afterwards.
class TableSet {
 public:
  /// The set named `name` from its manifest (`manifest_member` holds `manifest`, JSON) and the two blobs the
  /// manifest names, fetched through `blob` (by the manifest's member names, relative to the manifest's folder;
  /// nullopt = absent). Checks 5-8 of §3.3.6 in order; the first failure is the result.
  using BlobLookup = std::function<std::optional<std::span<const uint8_t>>(std::string_view member)>;
  struct Parsed;
  static Parsed parse(std::string_view name, std::string_view manifest_member, std::span<const uint8_t> manifest,
                      const BlobLookup& blob);
  /// A set from parts already in memory (a writer's, or the built-in set): checks 6-8 on them.
  static Parsed from_parts(std::string name, std::vector<Profile> profiles, std::vector<Bucket> buckets,
                           std::vector<uint32_t> control);

  const std::string& name() const { return name_; }
  std::span<const Profile> profiles() const { return profiles_; }
  std::span<const Bucket> buckets() const { return buckets_; }
  std::span<const uint32_t> control() const { return control_; }  ///< the first u32 of each CONTROL record
  /// The profile whose func_id is `id` (the CAM lookup, §3.5); nullptr when the set has none.
  const Profile* profile(uint8_t id) const {
    const int16_t at = by_id_[id];
    return at < 0 ? nullptr : &profiles_[static_cast<size_t>(at)];
  }
  /// The profile whose base name is `base` ("exp"), or whose func_name is exactly `base`; nullptr when none.
  const Profile* profile_named(std::string_view base) const;
  /// The BUCKET indices [first, last] the profile's segments and slots use (informative: `neff tables`).
  size_t bucket_count(const Profile& p) const;

  /// Steps 3-5 of §3.6 precomputed for the row path (evaluate_row), one word per sign and biased exponent of the
  /// folded input (sel >> 23): the BUCKET record is `rec + (mantissa >> shift)` (a saturation slot: shift 31) with
  /// `rec` in bits 0..21 and `shift` in bits 22..26, or bit 31 (kLutReference) sends the input to the reference
  /// procedure (the threshold octaves, whose mantissa decides, and every index that could leave the tables, which
  /// the reference reports).
  using Lut = std::array<uint32_t, 512>;
  static constexpr uint32_t kLutReference = 0x80000000U;
  static constexpr unsigned kLutShiftAt = 22;
  static constexpr uint32_t kLutRecordMask = (1U << kLutShiftAt) - 1U;
  /// The lookup of profile `p` (one of profiles()), built with the set.
  const Lut& lut(const Profile& p) const { return luts_[static_cast<size_t>(&p - profiles_.data())]; }
  /// The same lookup as two windows of 32 entries (positive sign, then negative sign) when every biased exponent
  /// below a window has its first entry and every one above it its last (the saturation slots): the row path's
  /// lookup is then a register permute. `valid` is false when the function's octaves span more than a window.
  struct LutWindow {
    bool valid = false;
    std::array<int32_t, 2> base{};  ///< the biased exponent of entry 0, per sign
    std::array<uint32_t, 64> entries{};
  };
  const LutWindow& lut_window(const Profile& p) const { return windows_[static_cast<size_t>(&p - profiles_.data())]; }
  /// One BUCKET record as the vectorised row path reads it (kernels::kActRecordFloats): x0, d0, d1 as fp32 values and
  /// a zero, then d2 and d3 as binary64 values, 32 aligned bytes.
  struct alignas(32) RowRecord {
    std::array<float, 8> f{};
  };
  std::span<const RowRecord> row_records() const { return records_; }

 private:
  std::string name_;
  std::vector<Profile> profiles_;
  std::vector<Bucket> buckets_;
  std::vector<uint32_t> control_;
  std::array<int16_t, 256> by_id_{};
  std::vector<Lut> luts_;           ///< one per profile
  std::vector<LutWindow> windows_;  ///< one per profile
  std::vector<RowRecord> records_;  ///< one per BUCKET record
};

/// A set, or the error that prevented it.
struct TableSet::Parsed {
  std::shared_ptr<const TableSet> set;
  LoadError error;
  bool ok() const { return set != nullptr; }
};

/// PROJ-CONV-A7: the built-in set of the seven exactly-known functions (identity 1, copy 128, relu 2, abs 33,
/// sign 31, square 30, memset_zero 130) with the trainium-catalog ids and the real set's 1-point profiles, for a run
/// with no NEFF tables and `act_builtin_exact` on. Its name is "builtin_exact".
const TableSet& builtin_exact_set();

// ---- evaluation (§3.6) ----

/// How a table evaluation ended; anything but Ok is a fault of §3.9 (no value).
enum class EvalStatus : uint8_t {
  Ok,
  Multipass,  ///< use_multipass is set: UnsupportedActivationFunction (PROJ-CONV-A5)
  BadIndex,   ///< a CONTROL or BUCKET index outside its table, or a CONTROL word with bits 31..24 set
};

struct EvalOptions {
  /// PROJ-CONV-A3 switch `pwp_nan = fallthrough`: a NaN input takes the reference model's path (a saturation slot)
  /// instead of the profile's fnan_result.
  bool nan_fallthrough = false;
};

/// The outcome of one evaluation: the fp32 bits, or the status and the offending index.
struct EvalResult {
  EvalStatus status = EvalStatus::Ok;
  uint32_t bits = 0;
  int64_t index = 0;  ///< BadIndex: the index met
};

/// pwp_eval(T, P, v, alpha) of §3.6 with the arithmetic schedule of PROJ-CONV-A2: the bits of the result for the fp32
/// input `v` (bits); `alpha` (fp32 bits) is the parametric-ReLU slope (A4). No allocation, no exception.
EvalResult evaluate(const TableSet& t, const Profile& p, uint32_t v, uint32_t alpha = 0,
                    const EvalOptions& options = {}) noexcept;

/// evaluate() over n inputs; stops at the first input that does not evaluate (its status and index, `at` = its
/// position). `out` may equal `in`.
struct RowResult {
  EvalStatus status = EvalStatus::Ok;
  int64_t index = 0;
  size_t at = 0;
};
/// A row to evaluate: fp32 bits or BF16 patterns, and ACTIVATE's affine step y = RN32(RN32(x·scale) + bias)
/// (PROJ-CONV-A8) applied to each element first when `affine` (kernels/act_row.hpp).
using RowInput = kernels::ActRowInput;
/// Element i of `in` as the evaluation sees it: widened to fp32 bits, then the affine step when `affine`.
uint32_t row_input_bits(const RowInput& in, size_t i) noexcept;
/// The row path: the set's precomputed lookup (TableSet::lut) instead of steps 3-5 per element, the same bits and the
/// same status as evaluate() for every input (the differential test compares it with evaluate_row_reference).
RowResult evaluate_row(const TableSet& t, const Profile& p, const uint32_t* in, uint32_t* out, size_t n,
                       uint32_t alpha = 0, const EvalOptions& options = {}) noexcept;
/// The row path over a row of RowInput: the widening, the affine step, the evaluation and the store in one pass;
/// out[i] = evaluate(row_input_bits(in, i)) for every i, the same status as that.
RowResult evaluate_row(const TableSet& t, const Profile& p, const RowInput& in, uint32_t* out, size_t n,
                       uint32_t alpha = 0, const EvalOptions& options = {}) noexcept;
/// evaluate_row as evaluate() element by element: the reference the row path is checked against.
RowResult evaluate_row_reference(const TableSet& t, const Profile& p, const uint32_t* in, uint32_t* out, size_t n,
                                 uint32_t alpha = 0, const EvalOptions& options = {}) noexcept;
RowResult evaluate_row_reference(const TableSet& t, const Profile& p, const RowInput& in, uint32_t* out, size_t n,
                                 uint32_t alpha = 0, const EvalOptions& options = {}) noexcept;

/// ACTIVATE over BF16 rows that share one affine step: the result depends only on the 16-bit input pattern, so each
/// pattern is evaluated once (evaluate_row over the patterns a row meets first) and every element is a table lookup.
/// The same bits as evaluate_row for every row it accepts (and, narrowed, as kernels::fp32_to_bf16 of them). Its
/// storage is allocated once, when it is constructed; begin() and the rows allocate nothing, and forgetting costs two
/// writes per pattern evaluated.
class Bf16Memo {
 public:
  Bf16Memo();
  /// Starts a run of rows of `in`'s widening and affine step (in.bf16 must hold; in.data is not read) through profile
  /// `p` of `t`, for which row_path_applies holds, narrowing to BF16 with `saturate` (ConvertOptions::sis); forgets
  /// any earlier run.
  void begin(const TableSet& t, const Profile& p, const RowInput& in, const EvalOptions& options,
             bool saturate) noexcept;
  /// out[i] = the evaluation of BF16 pattern i of the n at `in` (any alignment), as evaluate_row gives it. False when a
  /// pattern of the row does not evaluate (a fault the caller reports by evaluate_row over the row); the run then
  /// accepts no more rows.
  bool row(const void* in, uint32_t* out, size_t n) noexcept;
  /// The same results narrowed to BF16 (kernels::fp32_to_bf16), stored at `out` (n little-endian 16-bit elements, any
  /// alignment).
  bool row_bf16(const void* in, void* out, size_t n) noexcept;
  /// Forgets the run (every pattern evaluated is unknown again).
  void end() noexcept;
  ~Bf16Memo() = default;
  Bf16Memo(const Bf16Memo&) = delete;
  Bf16Memo& operator=(const Bf16Memo&) = delete;

 private:
  /// Looks the row up into out (the fp32 results; lookup_narrow: their BF16 narrowing); false when some pattern was
  /// not yet evaluated.
  bool lookup(const uint8_t* in, uint8_t* out, size_t n) const noexcept;
  bool lookup_narrow(const uint8_t* in, uint8_t* out, size_t n) const noexcept;
  /// A row through `lookup_row_of` (lookup or lookup_narrow), learning its new patterns first or when the lookup
  /// meets one.
  template <class Lookup>
  bool row_through(const uint8_t* in, uint8_t* out, size_t n, Lookup lookup_row_of) noexcept;
  /// Evaluates the row's patterns not yet evaluated; false when one does not evaluate.
  bool learn(const uint8_t* in, size_t n) noexcept;

  const TableSet* set_ = nullptr;
  const Profile* profile_ = nullptr;
  RowInput in_;
  EvalOptions options_;
  bool saturate_ = false;
  bool failed_ = false;
  bool learned_last_ = false;  ///< the last row met patterns not yet evaluated
  /// 65536 entries, one per pattern: the fp32 result in bits 0..31, bit 32 set once evaluated, the BF16 narrowing in
  /// bits 48..63; 0 until evaluated. One load gives a lookup both results and whether it may use them.
  std::vector<uint64_t> entries_;
  /// The BF16 narrowing again, 4 bytes an entry (bits 0..15, bit 16 set once evaluated), for the rows that store
  /// BF16: half the bytes of `entries_`, so a row's patterns stay in the first-level cache.
  std::vector<uint32_t> narrow_;
  std::vector<uint16_t> seen_;  ///< the patterns evaluated in this run, to forget them
  size_t seen_count_ = 0;
  std::vector<uint32_t> fresh_;    ///< the results of a row's new patterns
  std::vector<uint16_t> fresh16_;  ///< and their narrowing
};

/// Whether the row path's lookup applies to `p`: not for parametric ReLU, a multipass profile or the NaN
/// fall-through, which take the reference procedure throughout.
inline bool row_path_applies(const Profile& p, const EvalOptions& options) {
  return !p.parametric_relu && !p.use_multipass && !options.nan_fallthrough;
}

/// One input through the row path (row_path_applies(p) must hold): the lookup `lut` = t.lut(p) stands for steps 3-5
/// of §3.6; zero, Inf, NaN and the entries marked kLutReference go to evaluate(). The same bits as evaluate().
EvalResult evaluate_lut(const TableSet& t, const Profile& p, const TableSet::Lut& lut, uint32_t v, uint32_t alpha,
                        const EvalOptions& options) noexcept;

/// The catalog name of a trainium function id (§3.5), or "" when the id is not in that table.
std::string_view catalog_name(uint8_t func_id);

// ---- the sets of one subgraph (§3.3.1, §3.3.2, §3.4) ----

/// PROJ-CONV-A6: which list a set index of ACTIVATION_TABLE_LOAD selects from.
enum class SetOrder : uint8_t {
  ActInfo,         ///< act_info.json's act_func_sets (the default)
  ActivationJson,  ///< Activation.json's activation_function_sets (option act_set_order = activation_json)
};

/// What ACTIVATION_TABLE_LOAD and PSEUDO_LOAD_ACT_FUNC_SET load in one subgraph: every set resolved and checked once,
/// when the catalog is read, so a load at run time only looks up (no parsing, no allocation on success).
class SetCatalog {
 public:
  /// Reads `<folder>/Activation.json` and what it names through `member` (names relative to the subgraph folder;
  /// `folder` is only the label messages use, "sg00"). Checks of §3.3.6 in their order, per set.
  using MemberLookup = std::function<std::optional<std::span<const uint8_t>>(std::string_view member)>;
  static SetCatalog read(std::string_view folder, const MemberLookup& member, SetOrder order = SetOrder::ActInfo);

  /// The outcome of a load by index (0x23): the set, or the fault and its message.
  TableSet::Parsed by_index(size_t index) const;
  /// The outcome of a load by name (0xc6).
  TableSet::Parsed by_name(std::string_view name) const;
  /// The sets the subgraph embeds (Activation.json's list) that read cleanly, in that order.
  std::vector<std::shared_ptr<const TableSet>> embedded() const;
  /// The names of the index list (act_info.json order, or Activation.json's with SetOrder::ActivationJson).
  std::span<const std::string> index_names() const { return index_names_; }
  /// The names Activation.json lists.
  std::span<const std::string> listed_names() const { return listed_names_; }
  /// Checks 1-2 failed: every load faults with this.
  const std::optional<LoadError>& catalog_error() const { return catalog_error_; }

 private:
  std::string folder_;
  std::optional<LoadError> catalog_error_;
  std::vector<std::string> index_names_;
  std::vector<std::string> listed_names_;
  std::vector<TableSet::Parsed> by_index_;  ///< one per index_names_ entry
  std::vector<TableSet::Parsed> by_name_;   ///< one per listed_names_ entry
};

}  // namespace tpbisa::act
