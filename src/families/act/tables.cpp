// Activation-function tables: reading a set with the load-time checks of act-index-ops.md §3.3.6, the set catalog of
// a subgraph (§3.4), and the reference evaluator of §3.6 (PROJ-CONV-A1..A5, A7).
#include "families/act/tables.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <nlohmann/json.hpp>

#include "kernels/act_row.hpp"
#include "kernels/convert.hpp"

// The cubic's schedule (PROJ-CONV-A2) rounds after every operation: no contraction into fused multiply-adds.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#endif

namespace tpbisa::act {
namespace {

using json = nlohmann::json;

constexpr size_t kMaxJsonBytes = size_t{64} << 20;
constexpr unsigned kMaxJsonDepth = 64;
/// Integer keys beyond this magnitude are damage (they keep every index computation inside int64).
constexpr int64_t kMaxMagnitude = int64_t{1} << 32;

float f32(uint32_t b) {
  return std::bit_cast<float>(b);
}
uint32_t bits(float f) {
  return std::bit_cast<uint32_t>(f);
}

/// Parses a JSON member, bounded in size and nesting (a hostile member cannot exhaust the stack); nullopt with
/// `why` set when it does not parse.
std::optional<json> parse_json(std::span<const uint8_t> bytes, std::string& why) {
  if (bytes.size() > kMaxJsonBytes) {
    why = fmt::format("{} bytes, more than the {} a JSON member may have", bytes.size(), kMaxJsonBytes);
    return std::nullopt;
  }
  unsigned depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < bytes.size(); ++i) {
    const uint8_t c = bytes[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) {
        why = fmt::format("JSON nested deeper than {} levels at offset {}", kMaxJsonDepth, i);
        return std::nullopt;
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  const char* text = reinterpret_cast<const char*>(bytes.data());
  json j = json::parse(text, text + bytes.size(), nullptr, false);
  if (j.is_discarded()) {
    why = "not valid JSON";
    return std::nullopt;
  }
  return j;
}

LoadError error(LoadFault f, std::string message) {
  return {f, std::move(message)};
}

TableSet::Parsed failed(LoadFault f, std::string message) {
  return {nullptr, error(f, std::move(message))};
}

/// "exp_400p" -> "exp": the final `_<digits>p` removed (§3.6).
std::string base_name_of(std::string_view name) {
  const size_t us = name.rfind('_');
  if (us == std::string_view::npos || name.size() < us + 3 || name.back() != 'p') return std::string(name);
  const std::string_view digits = name.substr(us + 1, name.size() - us - 2);
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::string(name);
  return std::string(name.substr(0, us));
}

/// The exactly-known functions of §3.7, by base name.
bool exact_name(std::string_view base) {
  static constexpr std::string_view kExact[] = {"identity",
                                                "copy",
                                                "relu",
                                                "leaky_relu",
                                                "abs",
                                                "sign",
                                                "square",
                                                "memset_zero",
                                                "is_finite",
                                                "derivative_identity",
                                                "derivative_relu",
                                                "derivative_leaky_relu"};
  return std::find(std::begin(kExact), std::end(kExact), base) != std::end(kExact);
}

/// Reads integer key `key` of profile object `o` into `out`; false with `why` set when it is absent or not an
/// integer in range (a flag may also be a boolean).
bool int_key(const json& o, std::string_view key, int64_t lo, int64_t hi, bool flag, int64_t& out, std::string& why) {
  const auto it = o.find(key);
  if (it == o.end()) {
    why = fmt::format("key \"{}\" is missing", key);
    return false;
  }
  if (flag && it->is_boolean()) {
    out = it->get<bool>() ? 1 : 0;
    return true;
  }
  if (it->is_number_unsigned()) {
    const uint64_t u = it->get<uint64_t>();
    if (u > static_cast<uint64_t>(hi)) {
      why = fmt::format("key \"{}\" is {}, outside {}..{}", key, u, lo, hi);
      return false;
    }
    out = static_cast<int64_t>(u);
    return true;
  }
  if (it->is_number_integer()) {
    out = it->get<int64_t>();
    if (out < lo || out > hi) {
      why = fmt::format("key \"{}\" is {}, outside {}..{}", key, out, lo, hi);
      return false;
    }
    return true;
  }
  why = fmt::format("key \"{}\" is not {}", key, flag ? "an integer or a boolean" : "an integer");
  return false;
}

/// One profile_meta_data entry (check 8); false with `why` set.
bool read_profile(const json& o, Profile& p, std::string& why) {
  if (!o.is_object()) {
    why = "not an object";
    return false;
  }
  const auto name = o.find("func_name");
  if (name == o.end() || !name->is_string()) {
    why = "key \"func_name\" is missing or not a string";
    return false;
  }
  p.func_name = name->get<std::string>();
  p.base_name = base_name_of(p.func_name);
  p.parametric_relu = p.base_name == "parametric_relu";
  p.exact = exact_name(p.base_name);
  constexpr int64_t kBitsLo = -(int64_t{1} << 31), kBitsHi = (int64_t{1} << 32) - 1;
  int64_t v = 0;
  const auto u32 = [&](std::string_view key, uint32_t& to) {
    if (!int_key(o, key, kBitsLo, kBitsHi, false, v, why)) return false;
    to = static_cast<uint32_t>(v);
    return true;
  };
  const auto flag = [&](std::string_view key, bool& to) {
    if (!int_key(o, key, 0, 1, true, v, why)) return false;
    to = v != 0;
    return true;
  };
  const auto i64 = [&](std::string_view key, int64_t& to) {
    return int_key(o, key, -kMaxMagnitude, kMaxMagnitude, false, to, why);
  };
  if (!int_key(o, "func_id", 0, 255, false, v, why)) return false;
  p.func_id = static_cast<uint8_t>(v);
  return u32("fzero_result", p.fzero_result) && u32("fpinf_result", p.fpinf_result) &&
         u32("fninf_result", p.fninf_result) && u32("fnan_result", p.fnan_result) &&
         flag("symmetry_opt_en", p.symmetry_opt_en) &&
         flag("symmetry_opt_use_neg_region", p.symmetry_opt_use_neg_region) &&
         flag("sym_invert_sign_point", p.sym_invert_sign_point) && u32("symmetry_point", p.symmetry_point) &&
         i64("exp_offset", p.exp_offset) && i64("pwl_control_base_pos", p.pwl_control_base_pos) &&
         i64("pwl_control_base_neg", p.pwl_control_base_neg) &&
         i64("small_pos_signal_exp_threshold", p.small_pos_signal_exp_threshold) &&
         i64("small_neg_signal_exp_threshold", p.small_neg_signal_exp_threshold) &&
         i64("large_pos_signal_exp_threshold", p.large_pos_signal_exp_threshold) &&
         i64("large_neg_signal_exp_threshold", p.large_neg_signal_exp_threshold) &&
         i64("large_pos_signal_mantissa_threshold", p.large_pos_signal_mantissa_threshold) &&
         i64("large_neg_signal_mantissa_threshold", p.large_neg_signal_mantissa_threshold) &&
         i64("pos_small_signal_pwl_control", p.pos_small_signal_pwl_control) &&
         i64("neg_small_signal_pwl_control", p.neg_small_signal_pwl_control) &&
         i64("pos_large_signal_pwl_control", p.pos_large_signal_pwl_control) &&
         i64("neg_large_signal_pwl_control", p.neg_large_signal_pwl_control) && flag("use_multipass", p.use_multipass);
}

const json* string_key(const json& o, std::string_view key) {
  const auto it = o.find(key);
  return it != o.end() && it->is_string() ? &*it : nullptr;
}

const json* count_key(const json& o, std::string_view key) {
  const auto it = o.find(key);
  return it != o.end() && it->is_number_unsigned() ? &*it : nullptr;
}

/// Little-endian u32 at `at`.
uint32_t le32(std::span<const uint8_t> b, size_t at) {
  uint32_t v = 0;
  std::memcpy(&v, b.data() + at, 4);
  return v;  // the supported hosts are little-endian (the project's numerics assume it)
}

}  // namespace

std::string_view to_string(LoadFault f) {
  switch (f) {
    case LoadFault::SetIndexOutOfRange: return "ActivationSetIndexOutOfRange";
    case LoadFault::SetNotInNeff: return "ActivationSetNotInNeff";
    case LoadFault::TableError: return "ActivationTableError";
  }
  return "ActivationTableError";
}

// ---- TableSet ----

static_assert(sizeof(TableSet::RowRecord) == sizeof(float) * kernels::kActRecordFloats &&
              alignof(TableSet::RowRecord) == 32);
static_assert(TableSet::kLutReference == kernels::kActLutReference &&
              TableSet::kLutShiftAt == kernels::kActLutShiftAt &&
              TableSet::kLutRecordMask == kernels::kActLutRecordMask);

/// The row path's lookup of one profile (TableSet::Lut): steps 3-5 of §3.6 for every sign and biased exponent whose
/// record does not depend on the mantissa beyond the segment bits and cannot leave the tables.
TableSet::Lut build_lut(const TableSet& t, const Profile& p) {
  TableSet::Lut lut{};
  const auto nb = static_cast<int64_t>(t.buckets().size());
  for (unsigned idx = 0; idx < lut.size(); ++idx) {
    const bool neg = idx >= 256;
    const int64_t e = idx & 0xFF;
    const int64_t large_e = neg ? p.large_neg_signal_exp_threshold : p.large_pos_signal_exp_threshold;
    const int64_t small_e = neg ? p.small_neg_signal_exp_threshold : p.small_pos_signal_exp_threshold;
    uint32_t& out = lut[idx];
    out = TableSet::kLutReference;
    // Special inputs (exponent 255, and zero) never use the lookup; the threshold octaves stay with the reference.
    if (e == 255 || e == large_e || e == small_e) continue;
    int64_t rec = 0, last = 0;
    uint32_t shift = 31;  // a saturation slot: mantissa >> 31 is 0
    if (e > large_e) {
      rec = last = neg ? p.neg_large_signal_pwl_control : p.pos_large_signal_pwl_control;
    } else if (e < small_e) {
      rec = last = neg ? p.neg_small_signal_pwl_control : p.pos_small_signal_pwl_control;
    } else {
      const int64_t at = (neg ? p.pwl_control_base_neg : p.pwl_control_base_pos) + (e - 127 - p.exp_offset);
      if (at < 0 || at >= static_cast<int64_t>(t.control().size())) continue;
      const uint32_t w = t.control()[static_cast<size_t>(at)];
      if ((w >> 24) != 0) continue;
      shift = (w >> 11) & 31U;
      rec = static_cast<int64_t>(w & 0x7FFU);
      last = rec + (int64_t{0x7FFFFF} >> shift);
    }
    if (rec < 0 || last >= nb || rec > static_cast<int64_t>(TableSet::kLutRecordMask)) continue;
    out = static_cast<uint32_t>(rec) | shift << TableSet::kLutShiftAt;
  }
  return lut;
}

/// Whether evaluate() of profile `p` can report BadIndex for some input other than a NaN (Profile::never_faults):
/// every sign the fold leaves and every biased exponent below 255, the mantissas of each octave split as steps 4 and
/// 5 split them (the large saturation slot from the large threshold up, the small one below the small threshold and
/// at its zero mantissa, the segment between), the segment's records up to its largest mantissa's.
namespace {
bool reaches_outside(const TableSet& t, const Profile& p) {
  if (p.use_multipass) return true;     // faults anyway (Multipass), before any record is read
  if (p.parametric_relu) return false;  // never reads the tables
  const auto nb = static_cast<int64_t>(t.buckets().size());
  const auto slot_outside = [nb](int64_t rec) { return rec < 0 || rec >= nb; };
  constexpr int64_t kMantissaMax = 0x7FFFFF;
  for (const bool neg : {false, true}) {
    if (p.symmetry_opt_en && neg != p.symmetry_opt_use_neg_region) continue;  // the fold leaves one sign
    const int64_t large_e = neg ? p.large_neg_signal_exp_threshold : p.large_pos_signal_exp_threshold;
    const int64_t large_m = neg ? p.large_neg_signal_mantissa_threshold : p.large_pos_signal_mantissa_threshold;
    const int64_t small_e = neg ? p.small_neg_signal_exp_threshold : p.small_pos_signal_exp_threshold;
    const int64_t large_rec = neg ? p.neg_large_signal_pwl_control : p.pos_large_signal_pwl_control;
    const int64_t small_rec = neg ? p.neg_small_signal_pwl_control : p.pos_small_signal_pwl_control;
    for (int64_t e = 0; e < 255; ++e) {
      int64_t lo = e == 0 ? 1 : 0, hi = kMantissaMax;  // a zero takes step 1
      if (e > large_e) {
        if (slot_outside(large_rec)) return true;
        continue;
      }
      if (e == large_e) {
        if (std::max(large_m, lo) <= hi && slot_outside(large_rec)) return true;
        hi = std::min(hi, large_m - 1);
        if (lo > hi) continue;
      }
      if (e < small_e) {
        if (slot_outside(small_rec)) return true;
        continue;
      }
      if (e == small_e) {
        if (lo == 0 && slot_outside(small_rec)) return true;
        lo = std::max<int64_t>(lo, 1);
        if (lo > hi) continue;
      }
      const int64_t at = (neg ? p.pwl_control_base_neg : p.pwl_control_base_pos) + (e - 127 - p.exp_offset);
      if (at < 0 || at >= static_cast<int64_t>(t.control().size())) return true;
      const uint32_t w = t.control()[static_cast<size_t>(at)];
      if ((w >> 24) != 0) return true;
      if (static_cast<int64_t>(w & 0x7FFU) + (hi >> ((w >> 11) & 31U)) >= nb) return true;
    }
  }
  return false;
}
}  // namespace

/// The lookup `lut` as two register windows (TableSet::LutWindow), when each sign's entries are constant below and
/// above some run of 32 biased exponents. Exponent 255 (Inf, NaN) never reaches the lookup and is left out.
TableSet::LutWindow build_window(const TableSet::Lut& lut) {
  constexpr int32_t kSize = kernels::kActWindow, kLastE = 254;
  TableSet::LutWindow w;
  for (unsigned sign = 0; sign < 2; ++sign) {
    const uint32_t* l = lut.data() + 256 * sign;
    int32_t lo = 0, hi = kLastE;  // the first and last exponent whose entry differs from its neighbour outside
    while (lo < kLastE && l[lo + 1] == l[0]) ++lo;
    while (hi > 0 && l[hi - 1] == l[kLastE]) --hi;
    // Entry 0 stands for every exponent up to lo, entry kSize - 1 for every one from hi on.
    const int32_t base = std::clamp(lo, 0, kLastE - (kSize - 1));
    if (hi - base > kSize - 1) return {};
    w.base[sign] = base;
    for (int32_t k = 0; k < kSize; ++k) w.entries[sign * kSize + k] = l[std::min(base + k, kLastE)];
    for (int32_t e = 0; e <= kLastE; ++e)  // the window's claim, checked rather than argued
      if (w.entries[sign * kSize + std::clamp(e - base, 0, kSize - 1)] != l[e]) return {};
  }
  w.valid = true;
  return w;
}

TableSet::Parsed TableSet::from_parts(std::string name, std::vector<Profile> profiles, std::vector<Bucket> buckets,
                                      std::vector<uint32_t> control) {
  if (control.empty()) return failed(LoadFault::TableError, fmt::format("set {}: no CONTROL records", name));
  auto set = std::make_shared<TableSet>();
  set->by_id_.fill(-1);
  for (size_t i = 0; i < profiles.size(); ++i) {
    Profile& p = profiles[i];
    if (p.base_name.empty()) p.base_name = base_name_of(p.func_name);
    p.parametric_relu = p.base_name == "parametric_relu";
    p.exact = exact_name(p.base_name);
    if (set->by_id_[p.func_id] >= 0)
      return failed(LoadFault::TableError, fmt::format("set {}: func_id {} occurs twice (profiles {} and {})", name,
                                                       p.func_id, set->by_id_[p.func_id], i));
    set->by_id_[p.func_id] = static_cast<int16_t>(i);
  }
  set->name_ = std::move(name);
  set->profiles_ = std::move(profiles);
  set->buckets_ = std::move(buckets);
  set->control_ = std::move(control);
  set->luts_.reserve(set->profiles_.size());
  set->windows_.reserve(set->profiles_.size());
  for (const Profile& p : set->profiles_) {
    set->luts_.push_back(build_lut(*set, p));
    set->windows_.push_back(build_window(set->luts_.back()));
  }
  for (Profile& p : set->profiles_) p.never_faults = !reaches_outside(*set, p);
  set->records_.reserve(set->buckets_.size());
  for (const Bucket& b : set->buckets_) {
    TableSet::RowRecord r;
    r.f = {f32(b.x0), f32(b.d0), f32(b.d1), 0.0F, 0.0F, 0.0F, 0.0F, 0.0F};
    const double d2 = f32(b.d2), d3 = f32(b.d3);
    std::memcpy(&r.f[4], &d2, 8);
    std::memcpy(&r.f[6], &d3, 8);
    set->records_.push_back(r);
  }
  return {std::move(set), {}};
}

TableSet::Parsed TableSet::parse(std::string_view name, std::string_view manifest_member,
                                 std::span<const uint8_t> manifest, const BlobLookup& blob) {
  const auto damaged = [&](std::string_view what) {
    return failed(LoadFault::TableError, fmt::format("set {}: member {}: {}", name, manifest_member, what));
  };
  // Check 5: the manifest parses and names the two blobs, which are members of the same folder.
  std::string why;
  const std::optional<json> m = parse_json(manifest, why);
  if (!m) return damaged(why);
  if (!m->is_object()) return damaged("not a JSON object");
  const json* bkt_name = string_key(*m, "bkt_bin");
  const json* ctl_name = string_key(*m, "ctl_bin");
  const json* bkt_cnt = count_key(*m, "bkt_entry_cnt");
  const json* ctl_cnt = count_key(*m, "ctl_entry_cnt");
  const auto profiles_it = m->find("profile_meta_data");
  if (bkt_name == nullptr) return damaged("key \"bkt_bin\" is missing or not a string");
  if (ctl_name == nullptr) return damaged("key \"ctl_bin\" is missing or not a string");
  if (bkt_cnt == nullptr) return damaged("key \"bkt_entry_cnt\" is missing or not a non-negative integer");
  if (ctl_cnt == nullptr) return damaged("key \"ctl_entry_cnt\" is missing or not a non-negative integer");
  if (profiles_it == m->end() || !profiles_it->is_array())
    return damaged("key \"profile_meta_data\" is missing or not a list");
  const std::string bkt_member = bkt_name->get<std::string>(), ctl_member = ctl_name->get<std::string>();
  std::optional<std::span<const uint8_t>> bkt, ctl;
  for (const std::string* member : {&bkt_member, &ctl_member}) {
    const bool local = !member->empty() && member->find('/') == std::string::npos && *member != "." && *member != "..";
    std::optional<std::span<const uint8_t>> bytes = local ? blob(*member) : std::nullopt;
    if (!bytes)
      return failed(LoadFault::SetNotInNeff,
                    fmt::format("set {}: member {} (named by {}) is absent", name, *member, manifest_member));
    (member == &bkt_member ? bkt : ctl) = bytes;
  }
  // Check 6: BUCKET size.
  const uint64_t nb = bkt_cnt->get<uint64_t>(), nc = ctl_cnt->get<uint64_t>();
  if (nb > (uint64_t{1} << 32) || bkt->size() != 32 * nb)
    return failed(LoadFault::TableError,
                  fmt::format("set {}: member {}: {} bytes, expected 32 x bkt_entry_cnt {} = {}", name, bkt_member,
                              bkt->size(), nb, 32 * std::min<uint64_t>(nb, uint64_t{1} << 32)));
  // Check 7: CONTROL count and size (16- or 32-byte records).
  if (nc == 0 || nc > (uint64_t{1} << 32) || (ctl->size() != 16 * nc && ctl->size() != 32 * nc))
    return failed(LoadFault::TableError,
                  fmt::format("set {}: member {}: {} bytes for ctl_entry_cnt {}: expected a positive count and "
                              "16 or 32 bytes per record",
                              name, ctl_member, ctl->size(), nc));
  // Check 8: the profiles.
  std::vector<Profile> profiles(profiles_it->size());
  for (size_t i = 0; i < profiles.size(); ++i)
    if (!read_profile((*profiles_it)[i], profiles[i], why))
      return damaged(fmt::format("profile_meta_data[{}]: {}", i, why));
  std::vector<Bucket> buckets(nb);
  for (size_t i = 0; i < nb; ++i)
    buckets[i] = {le32(*bkt, 32 * i), le32(*bkt, 32 * i + 4), le32(*bkt, 32 * i + 8), le32(*bkt, 32 * i + 12),
                  le32(*bkt, 32 * i + 16)};
  const size_t stride = ctl->size() / nc;
  std::vector<uint32_t> control(nc);
  for (size_t i = 0; i < nc; ++i) control[i] = le32(*ctl, stride * i);
  Parsed out = from_parts(std::string(name), std::move(profiles), std::move(buckets), std::move(control));
  if (!out.ok()) out.error.message = fmt::format("{} (member {})", out.error.message, manifest_member);
  return out;
}

const Profile* TableSet::profile_named(std::string_view base) const {
  for (const Profile& p : profiles_)
    if (p.base_name == base || p.func_name == base) return &p;
  return nullptr;
}

size_t TableSet::bucket_count(const Profile& p) const {
  // The distinct records a function reaches: its four slots and the segments of the octaves between its
  // thresholds (an octave at the large-signal threshold with mantissa threshold 0 is all saturation).
  std::vector<bool> used(buckets_.size());
  const auto mark = [&used](int64_t lo, int64_t n) {
    for (int64_t r = std::max<int64_t>(lo, 0); r < lo + n && r < static_cast<int64_t>(used.size()); ++r)
      used[static_cast<size_t>(r)] = true;
  };
  for (const int64_t slot : {p.pos_small_signal_pwl_control, p.neg_small_signal_pwl_control,
                             p.pos_large_signal_pwl_control, p.neg_large_signal_pwl_control})
    mark(slot, 1);
  for (const bool pos : {false, true}) {
    const int64_t small = pos ? p.small_pos_signal_exp_threshold : p.small_neg_signal_exp_threshold;
    const int64_t large = pos ? p.large_pos_signal_exp_threshold : p.large_neg_signal_exp_threshold;
    const int64_t large_m = pos ? p.large_pos_signal_mantissa_threshold : p.large_neg_signal_mantissa_threshold;
    const int64_t base = pos ? p.pwl_control_base_pos : p.pwl_control_base_neg;
    for (int64_t e = std::max<int64_t>(small, 0); e <= std::min<int64_t>(large, 254); ++e) {
      if (e == large && large_m == 0) continue;
      const int64_t at = base + (e - 127 - p.exp_offset);
      if (at < 0 || at >= static_cast<int64_t>(control_.size())) continue;
      const uint32_t w = control_[static_cast<size_t>(at)];
      mark(w & 0x7FF, int64_t{1} << std::min<uint32_t>((w >> 16) & 0xFF, 23));
    }
  }
  return static_cast<size_t>(std::count(used.begin(), used.end(), true));
}

// ---- the built-in set (PROJ-CONV-A7) ----

const TableSet& builtin_exact_set() {
  static const std::shared_ptr<const TableSet> kSet = [] {
    constexpr uint32_t kOne = 0x3F800000, kMinusOne = 0xBF800000, kPosInf = 0x7F800000, kNegInf = 0xFF800000,
                       kNaN = 0x7FC00000;
    std::vector<Profile> profiles;
    std::vector<Bucket> buckets;
    // name, id, results {zero, +inf, -inf, nan}, symmetry {en, invert}, large mantissa threshold, slots.
    const auto add = [&](std::string name, uint8_t id, std::array<uint32_t, 4> results, bool sym, bool invert,
                         int64_t large_mantissa, std::array<Bucket, 4> slots) {
      Profile p;
      p.func_name = std::move(name);
      p.func_id = id;
      p.fzero_result = results[0];
      p.fpinf_result = results[1];
      p.fninf_result = results[2];
      p.fnan_result = results[3];
      p.symmetry_opt_en = sym;
      p.sym_invert_sign_point = invert;
      p.exp_offset = -127;
      p.large_pos_signal_mantissa_threshold = p.large_neg_signal_mantissa_threshold = large_mantissa;
      const int64_t at = static_cast<int64_t>(buckets.size());
      p.pos_small_signal_pwl_control = at;
      p.neg_small_signal_pwl_control = at + 1;
      p.pos_large_signal_pwl_control = at + 2;
      p.neg_large_signal_pwl_control = at + 3;
      buckets.insert(buckets.end(), slots.begin(), slots.end());
      profiles.push_back(std::move(p));
    };
    const Bucket lin{0, kOne, 0, 0, 0}, neg_lin{0, kMinusOne, 0, 0, 0}, zero{}, quad{0, 0, kOne, 0, 0};
    add("identity_1p", 1, {0, kPosInf, kNegInf, kNaN}, false, false, 0, {lin, lin, lin, lin});
    add("copy_1p", 128, {0, kPosInf, kNegInf, kNaN}, false, false, 0, {lin, lin, lin, lin});
    add("abs_1p", 33, {0, kPosInf, kPosInf, kNaN}, false, false, 0, {lin, neg_lin, lin, neg_lin});
    add("sign_1p", 31, {0, kOne, kMinusOne, kNaN}, true, true, 1,
        {zero, zero, Bucket{kOne, 0, 0, 0, 0}, Bucket{kMinusOne, 0, 0, 0, 0}});
    add("memset_zero_1p", 130, {0, 0, 0, 0}, true, false, 0, {zero, zero, zero, zero});
    add("relu_1p", 2, {0, 0x7F7F0000, 0, kNaN}, false, false, 0, {lin, zero, lin, zero});
    add("square_1p", 30, {0, kPosInf, kPosInf, kNaN}, true, false, 0, {quad, quad, quad, quad});
    // The 1-point profiles' control words are sentinels never used (thresholds 0): one zero word.
    return TableSet::from_parts("builtin_exact", std::move(profiles), std::move(buckets), {0}).set;
  }();
  return *kSet;
}

// ---- evaluation ----

EvalResult evaluate(const TableSet& t, const Profile& p, uint32_t v, uint32_t alpha,
                    const EvalOptions& options) noexcept {
  if (p.use_multipass) return {EvalStatus::Multipass, 0, 0};
  // 1. special inputs
  const uint32_t mag = v & 0x7FFFFFFFU;
  const bool nan = mag > 0x7F800000U;
  if (nan) {
    if (!options.nan_fallthrough) return {EvalStatus::Ok, p.fnan_result, 0};
  } else if (mag == 0) {
    return {EvalStatus::Ok, p.fzero_result, 0};
  } else if (v == 0x7F800000U) {
    return {EvalStatus::Ok, p.fpinf_result, 0};
  } else if (v == 0xFF800000U) {
    return {EvalStatus::Ok, p.fninf_result, 0};
  }
  if (p.parametric_relu) {
    const float x = f32(v);
    if (x > 0.0F) return {EvalStatus::Ok, v, 0};
    const float y = f32(alpha) * x;
    return {EvalStatus::Ok, bits(y), 0};
  }
  // 2. symmetry fold
  uint32_t sel = v;
  if (p.symmetry_opt_en) sel = p.symmetry_opt_use_neg_region ? (mag | 0x80000000U) : mag;
  // 3. decompose
  const bool neg = (sel >> 31) != 0;
  const int64_t e = (sel >> 23) & 0xFF;
  const int64_t m = sel & 0x7FFFFF;
  // 4./5. saturation slots, control word and segment
  const int64_t large_e = neg ? p.large_neg_signal_exp_threshold : p.large_pos_signal_exp_threshold;
  const int64_t large_m = neg ? p.large_neg_signal_mantissa_threshold : p.large_pos_signal_mantissa_threshold;
  const int64_t small_e = neg ? p.small_neg_signal_exp_threshold : p.small_pos_signal_exp_threshold;
  int64_t rec = 0;
  if (e > large_e || (e == large_e && m >= large_m)) {
    rec = neg ? p.neg_large_signal_pwl_control : p.pos_large_signal_pwl_control;
  } else if (e < small_e || (e == small_e && m == 0)) {
    rec = neg ? p.neg_small_signal_pwl_control : p.pos_small_signal_pwl_control;
  } else {
    const int64_t at = (neg ? p.pwl_control_base_neg : p.pwl_control_base_pos) + (e - 127 - p.exp_offset);
    if (at < 0 || at >= static_cast<int64_t>(t.control().size())) return {EvalStatus::BadIndex, 0, at};
    const uint32_t w = t.control()[static_cast<size_t>(at)];
    if ((w >> 24) != 0) return {EvalStatus::BadIndex, 0, at};
    rec = static_cast<int64_t>(w & 0x7FFU) + (m >> ((w >> 11) & 31U));
  }
  if (rec < 0 || rec >= static_cast<int64_t>(t.buckets().size())) return {EvalStatus::BadIndex, 0, rec};
  const Bucket& b = t.buckets()[static_cast<size_t>(rec)];
  // 6. the cubic (PROJ-CONV-A2): t and d0 + d1·t in binary32, the rest in binary64, one final rounding.
  const float tf = f32(sel) - f32(b.x0);
  const float td1 = tf * f32(b.d1);
  const float a = td1 + f32(b.d0);
  const double td = tf;
  const double t2 = td * td;  // exact
  const double q = t2 * static_cast<double>(f32(b.d2));
  double r = static_cast<double>(a) + q;
  const double t3 = t2 * td;  // the correctly rounded cube
  const double c = t3 * static_cast<double>(f32(b.d3));
  r = r + c;
  float res = static_cast<float>(r);
  // 7. symmetry reconstruction for a negative input
  if (p.symmetry_opt_en && (v >> 31) != 0 && !nan) {
    if (p.sym_invert_sign_point) res = -res;
    res = res + f32(p.symmetry_point);
  }
  return {EvalStatus::Ok, bits(res), 0};
}

EvalResult evaluate_lut(const TableSet& t, const Profile& p, const TableSet::Lut& lut, uint32_t v, uint32_t alpha,
                        const EvalOptions& options) noexcept {
  const uint32_t mag = v & 0x7FFFFFFFU;
  const uint32_t sel = p.symmetry_opt_en ? (mag | (p.symmetry_opt_use_neg_region ? 0x80000000U : 0U)) : v;
  const uint32_t entry = lut[sel >> 23];
  if (mag - 1U >= 0x7F7FFFFFU || (entry & TableSet::kLutReference) != 0)  // zero (mag - 1 wraps), Inf, NaN
    return evaluate(t, p, v, alpha, options);
  const uint32_t shift = (entry >> TableSet::kLutShiftAt) & 31U;
  const Bucket& b = t.buckets()[(entry & TableSet::kLutRecordMask) + ((sel & 0x7FFFFFU) >> shift)];
  // Step 6 exactly as evaluate() computes it (PROJ-CONV-A2).
  const float tf = f32(sel) - f32(b.x0);
  const float td1 = tf * f32(b.d1);
  const float a = td1 + f32(b.d0);
  const double td = tf;
  const double t2 = td * td;
  const double q = t2 * static_cast<double>(f32(b.d2));
  double r = static_cast<double>(a) + q;
  const double t3 = t2 * td;
  const double c = t3 * static_cast<double>(f32(b.d3));
  r = r + c;
  float res = static_cast<float>(r);
  if (p.symmetry_opt_en && (v >> 31) != 0) {  // step 7
    if (p.sym_invert_sign_point) res = -res;
    res = res + f32(p.symmetry_point);
  }
  return {EvalStatus::Ok, bits(res), 0};
}

uint32_t row_input_bits(const RowInput& in, size_t i) noexcept {
  const uint32_t x = in.raw(i);
  if (!in.affine) return x;
  const float xs = f32(x) * in.scale;
  return bits(xs + in.bias);  // two roundings (PROJ-CONV-A8)
}

RowResult evaluate_row(const TableSet& t, const Profile& p, const uint32_t* in, uint32_t* out, size_t n, uint32_t alpha,
                       const EvalOptions& options) noexcept {
  return evaluate_row(t, p, RowInput{.data = in}, out, n, alpha, options);
}

RowResult evaluate_row(const TableSet& t, const Profile& p, const RowInput& in, uint32_t* out, size_t n, uint32_t alpha,
                       const EvalOptions& options) noexcept {
  if (!row_path_applies(p, options)) return evaluate_row_reference(t, p, in, out, n, alpha, options);
  const TableSet::Lut& lut = t.lut(p);
  const TableSet::LutWindow& window = t.lut_window(p);
  kernels::ActRowTables k;
  k.lut = lut.data();
  if (window.valid) {
    k.window = window.entries.data();
    k.window_base[0] = window.base[0];
    k.window_base[1] = window.base[1];
  }
  k.records = t.row_records().empty() ? nullptr : t.row_records().front().f.data();
  k.symmetric = p.symmetry_opt_en;
  k.fold_negative = p.symmetry_opt_use_neg_region;
  k.invert = p.sym_invert_sign_point;
  k.point = f32(p.symmetry_point);
  k.specials = true;  // step 1's results (the row path takes no NaN fall-through)
  k.zero_result = p.fzero_result;
  k.pos_inf_result = p.fpinf_result;
  k.neg_inf_result = p.fninf_result;
  k.nan_result = p.fnan_result;
  // Whole vectors in SIMD lanes; the vector it stops at (a special input or a reference entry) and the tail one
  // element at a time, then SIMD again.
  constexpr size_t kScalarRun = 16;  // at least one vector of every target
  for (size_t i = 0; i < n;) {
    i += kernels::act_eval_row(k, in.from(i), out + i, n - i);
    for (const size_t stop = std::min(n, i + kScalarRun); i < stop; ++i) {
      const EvalResult r = evaluate_lut(t, p, lut, row_input_bits(in, i), alpha, options);
      if (r.status != EvalStatus::Ok) return {r.status, r.index, i};
      out[i] = r.bits;
    }
  }
  return {EvalStatus::Ok, 0, n};
}

// ---- Bf16Memo ----

namespace {
constexpr uint64_t kKnown = uint64_t{1} << 32;
constexpr uint32_t kKnownNarrow = uint32_t{1} << 16;
}  // namespace

Bf16Memo::Bf16Memo()
    : entries_(size_t{1} << 16, 0),
      narrow_(size_t{1} << 16, 0),
      seen_(size_t{1} << 16),
      fresh_(size_t{1} << 16),
      fresh16_(size_t{1} << 16) {}

void Bf16Memo::begin(const TableSet& t, const Profile& p, const RowInput& in, const EvalOptions& options,
                     bool saturate) noexcept {
  end();
  set_ = &t;
  profile_ = &p;
  in_ = in;
  options_ = options;
  saturate_ = saturate;
}

void Bf16Memo::end() noexcept {
  for (size_t k = 0; k < seen_count_; ++k) entries_[seen_[k]] = narrow_[seen_[k]] = 0;
  seen_count_ = 0;
  failed_ = false;
  learned_last_ = false;
}

namespace {

/// One table load per element: out[i] = the low bytes (a Stored) of the entry of pattern i; true when every entry
/// read carries `known` (their AND keeps it only then). The table's address is a parameter, held in a register: the
/// byte stores could otherwise alias the vector's own pointer and reload it per element. (Giving up early, at the end
/// of a block of 256 that met a pattern not yet evaluated, was slower here.)
template <class Stored, class Entry>
bool lookup_row(const Entry* entries, Entry known, const uint8_t* in, uint8_t* out, size_t n) noexcept {
  Entry all = ~Entry{0};
  for (size_t i = 0; i < n; ++i) {
    uint16_t x = 0;
    std::memcpy(&x, in + 2 * i, 2);  // little-endian host, as the machine's memory
    const Entry e = entries[x];
    all &= e;
    const auto v = static_cast<Stored>(e);
    std::memcpy(out + sizeof(Stored) * i, &v, sizeof(Stored));
  }
  return (all & known) != 0;
}

}  // namespace

bool Bf16Memo::lookup(const uint8_t* in, uint8_t* out, size_t n) const noexcept {
  return lookup_row<uint32_t>(entries_.data(), kKnown, in, out, n);
}

bool Bf16Memo::lookup_narrow(const uint8_t* in, uint8_t* out, size_t n) const noexcept {
  // The 4-byte table: the entries a row meets stay in the first-level cache, where the 8-byte ones spill out of it
  // (the benchmark's bf16 row 151 to 128 µs). Tried and slower here: four elements a step, and two read and written
  // as one 32-bit word.
  return lookup_row<uint16_t>(narrow_.data(), kKnownNarrow, in, out, n);
}

bool Bf16Memo::learn(const uint8_t* in, size_t n) noexcept {
  // The row's new patterns, each once (marked known in the 4-byte table while pending: the smaller one to test),
  // evaluated as a row of their own.
  const size_t first = seen_count_;
  for (size_t i = 0; i < n; ++i) {
    uint16_t x = 0;
    std::memcpy(&x, in + 2 * i, 2);
    if ((narrow_[x] & kKnownNarrow) != 0) continue;
    narrow_[x] = kKnownNarrow;
    seen_[seen_count_++] = x;
  }
  const size_t fresh = seen_count_ - first;
  RowInput patterns = in_;
  patterns.data = seen_.data() + first;
  const RowResult r = evaluate_row(*set_, *profile_, patterns, fresh_.data(), fresh, 0, options_);
  if (r.status != EvalStatus::Ok) {
    failed_ = true;
    return false;
  }
  kernels::fp32_to_bf16(reinterpret_cast<const float*>(fresh_.data()), fresh16_.data(), fresh, saturate_);
  for (size_t k = 0; k < fresh; ++k) {
    entries_[seen_[first + k]] = uint64_t{fresh16_[k]} << 48 | kKnown | uint64_t{fresh_[k]};
    narrow_[seen_[first + k]] = kKnownNarrow | fresh16_[k];
  }
  return true;
}

template <class Lookup>
bool Bf16Memo::row_through(const uint8_t* in, uint8_t* out, size_t n, Lookup lookup_row_of) noexcept {
  if (failed_ || set_ == nullptr) return false;
  // A row right after one that met new patterns likely meets some too: it learns first and is looked up once, where
  // looking it up first would look it up twice. Otherwise the lookup comes first and learns only when it must.
  if (!learned_last_ && lookup_row_of(in, out, n)) return true;
  const size_t before = seen_count_;
  if (!learn(in, n)) return false;
  learned_last_ = seen_count_ != before;
  return lookup_row_of(in, out, n);
}

bool Bf16Memo::row(const void* in, uint32_t* out, size_t n) noexcept {
  return row_through(static_cast<const uint8_t*>(in), reinterpret_cast<uint8_t*>(out), n,
                     [this](const uint8_t* i, uint8_t* o, size_t k) { return lookup(i, o, k); });
}

bool Bf16Memo::row_bf16(const void* in, void* out, size_t n) noexcept {
  return row_through(static_cast<const uint8_t*>(in), static_cast<uint8_t*>(out), n,
                     [this](const uint8_t* i, uint8_t* o, size_t k) { return lookup_narrow(i, o, k); });
}

RowResult evaluate_row_reference(const TableSet& t, const Profile& p, const uint32_t* in, uint32_t* out, size_t n,
                                 uint32_t alpha, const EvalOptions& options) noexcept {
  return evaluate_row_reference(t, p, RowInput{.data = in}, out, n, alpha, options);
}

RowResult evaluate_row_reference(const TableSet& t, const Profile& p, const RowInput& in, uint32_t* out, size_t n,
                                 uint32_t alpha, const EvalOptions& options) noexcept {
  for (size_t i = 0; i < n; ++i) {
    const EvalResult r = evaluate(t, p, row_input_bits(in, i), alpha, options);
    if (r.status != EvalStatus::Ok) return {r.status, r.index, i};
    out[i] = r.bits;
  }
  return {EvalStatus::Ok, 0, n};
}

std::string_view catalog_name(uint8_t func_id) {
  switch (func_id) {
    case 1: return "identity";
    case 2: return "relu";
    case 3: return "leaky_relu";
    case 4: return "parametric_relu";
    case 5: return "sigmoid";
    case 6: return "tanh";
    case 7: return "exp";
    case 8: return "sqrt";
    case 9: return "softplus";
    case 10: return "natural_log";
    case 11: return "derivative_identity";
    case 12: return "derivative_relu";
    case 13: return "derivative_leaky_relu";
    case 19: return "sin";
    case 21: return "erf";
    case 22: return "derivative_erf";
    case 23: return "gelu";
    case 24: return "mish";
    case 25: return "gelu_apprx_tanh";
    case 26: return "gelu_apprx_sigmoid";
    case 28: return "arctan";
    case 29: return "reciprocal_sqrt";
    case 30: return "square";
    case 31: return "sign";
    case 32: return "derivative_gelu";
    case 33: return "abs";
    case 34: return "abs_reciprocal_sqrt";
    case 35: return "is_finite";
    case 36: return "silu";
    case 37: return "derivative_silu";
    case 38: return "derivative_gelu_apprx_sigmoid";
    case 128: return "copy";
    case 129: return "reciprocal";
    case 130: return "memset_zero";
    default: return "";
  }
}

// ---- SetCatalog ----

SetCatalog SetCatalog::read(std::string_view folder, const MemberLookup& member, SetOrder order) {
  SetCatalog c;
  c.folder_ = std::string(folder);
  const auto where = [&](std::string_view m) {
    return folder.empty() ? std::string(m) : fmt::format("{}/{}", folder, m);
  };
  std::string why;
  // Checks 1-2: Activation.json and the act_info member it names.
  const std::optional<std::span<const uint8_t>> aj_bytes = member("Activation.json");
  if (!aj_bytes) {
    c.catalog_error_ = error(LoadFault::SetNotInNeff, fmt::format("member {} is absent", where("Activation.json")));
    return c;
  }
  const std::optional<json> aj = parse_json(*aj_bytes, why);
  const json* act_info_name = aj && aj->is_object() ? string_key(*aj, "act_info") : nullptr;
  if (act_info_name == nullptr) {
    c.catalog_error_ =
        error(LoadFault::TableError, fmt::format("member {}: {}", where("Activation.json"),
                                                 aj ? "key \"act_info\" is missing or not a string" : why));
    return c;
  }
  const std::string ai_member = act_info_name->get<std::string>();
  const std::optional<std::span<const uint8_t>> ai_bytes =
      ai_member.find('/') == std::string::npos ? member(ai_member) : std::nullopt;
  if (!ai_bytes) {
    c.catalog_error_ =
        error(LoadFault::SetNotInNeff, fmt::format("member {} (named by Activation.json) is absent", where(ai_member)));
    return c;
  }
  const std::optional<json> ai = parse_json(*ai_bytes, why);
  const auto sets_it = ai && ai->is_object() ? ai->find("act_func_sets") : json::const_iterator{};
  const bool sets_ok = ai && ai->is_object() && sets_it != ai->end() && sets_it->is_array() &&
                       std::all_of(sets_it->begin(), sets_it->end(),
                                   [](const json& s) { return s.is_object() && string_key(s, "name") != nullptr; });
  if (!sets_ok) {
    c.catalog_error_ = error(LoadFault::TableError,
                             fmt::format("member {}: {}", where(ai_member),
                                         ai ? "act_func_sets is missing, or an entry has no string \"name\"" : why));
    return c;
  }
  const auto listed_it = aj->find("activation_function_sets");
  if (listed_it == aj->end() || !listed_it->is_array() ||
      !std::all_of(listed_it->begin(), listed_it->end(), [](const json& s) { return s.is_string(); })) {
    c.catalog_error_ = error(
        LoadFault::TableError,
        fmt::format("member {}: activation_function_sets is missing or not a list of names", where("Activation.json")));
    return c;
  }
  for (const json& s : *listed_it) c.listed_names_.push_back(s.get<std::string>());
  std::vector<std::string> catalog_names;
  for (const json& s : *sets_it) catalog_names.push_back(string_key(s, "name")->get<std::string>());
  c.index_names_ = order == SetOrder::ActInfo ? catalog_names : c.listed_names_;

  // Checks 4-8 per set, each set read once.
  std::vector<std::pair<std::string, TableSet::Parsed>> cache;
  const auto load = [&](const std::string& name) -> TableSet::Parsed {
    for (const auto& [n, p] : cache)
      if (n == name) return p;
    TableSet::Parsed out;
    if (std::find(c.listed_names_.begin(), c.listed_names_.end(), name) == c.listed_names_.end()) {
      out = failed(LoadFault::SetNotInNeff, fmt::format("set {} is not embedded in the NEFF (not listed by {})", name,
                                                        where("Activation.json")));
    } else {
      std::string manifest = name + ".json";
      for (const json& s : *sets_it)
        if (string_key(s, "name")->get<std::string>() == name) {
          if (const json* pj = string_key(s, "profile_json")) manifest = pj->get<std::string>();
          break;
        }
      const std::optional<std::span<const uint8_t>> bytes =
          manifest.find('/') == std::string::npos ? member(manifest) : std::nullopt;
      if (!bytes)
        out = failed(LoadFault::SetNotInNeff, fmt::format("set {}: member {} is absent", name, where(manifest)));
      else
        out = TableSet::parse(name, where(manifest), *bytes, member);
    }
    cache.emplace_back(name, out);
    return out;
  };
  for (const std::string& n : c.index_names_) c.by_index_.push_back(load(n));
  for (const std::string& n : c.listed_names_) c.by_name_.push_back(load(n));
  return c;
}

TableSet::Parsed SetCatalog::by_index(size_t index) const {
  if (catalog_error_) return {nullptr, *catalog_error_};
  if (index >= by_index_.size())
    return failed(LoadFault::SetIndexOutOfRange, fmt::format("set index {} is outside the {} sets of {}/act_info.json",
                                                             index, by_index_.size(), folder_));
  return by_index_[index];
}

TableSet::Parsed SetCatalog::by_name(std::string_view name) const {
  if (catalog_error_) return {nullptr, *catalog_error_};
  for (size_t i = 0; i < listed_names_.size(); ++i)
    if (listed_names_[i] == name) return by_name_[i];
  return failed(LoadFault::SetNotInNeff, fmt::format("set {} is not listed by {}/Activation.json", name, folder_));
}

std::vector<std::shared_ptr<const TableSet>> SetCatalog::embedded() const {
  std::vector<std::shared_ptr<const TableSet>> out;
  for (const TableSet::Parsed& p : by_name_)
    if (p.ok()) out.push_back(p.set);
  return out;
}

}  // namespace tpbisa::act
