// Build-time checks on the catalog tables and their small run-time helpers.
#include "tpbisa/catalog.hpp"

#include <array>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

namespace tpbisa {
namespace {

template <class Row, size_t N, class Key>
constexpr bool unique_keys(const std::array<Row, N>& rows, Key key) {
  for (size_t i = 0; i < N; ++i)
    for (size_t j = i + 1; j < N; ++j)
      if (key(rows[i]) == key(rows[j])) return false;
  return true;
}

template <class Row, size_t N>
constexpr unsigned count_in(const std::array<Row, N>& rows, Generation g) {
  unsigned n = 0;
  for (const auto& r : rows) n += r.gens.has(g) ? 1U : 0U;
  return n;
}

constexpr bool is_camel_of(std::string_view mnemonic, std::string_view enum_name) {
  size_t m = 0;
  bool word_start = true;
  for (char c : enum_name) {
    if (c == '_') {
      word_start = true;
      continue;
    }
    const char want = word_start ? c : static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (m >= mnemonic.size() || mnemonic[m] != want) return false;
    ++m;
    word_start = false;
  }
  return m == mnemonic.size();
}

constexpr bool all_mnemonics_camel() {
  for (const auto& r : kOpcodes)
    if (!is_camel_of(r.mnemonic, r.enum_name)) return false;
  return true;
}

static_assert(unique_keys(kOpcodes, [](const OpcodeInfo& r) { return r.value; }), "duplicate opcode value");
static_assert(unique_keys(kOpcodes, [](const OpcodeInfo& r) { return r.enum_name; }), "duplicate opcode name");
static_assert(unique_keys(kDtypes, [](const DtypeInfo& r) { return r.code; }), "duplicate dtype code");
static_assert(unique_keys(kDtypes, [](const DtypeInfo& r) { return r.short_name; }), "duplicate dtype short name");
static_assert(unique_keys(kAluOps, [](const AluOpInfo& r) { return r.code; }), "duplicate ALU op code");
static_assert(unique_keys(kWaitModes, [](const EnumValue& r) { return r.value; }), "duplicate wait mode");
static_assert(unique_keys(kUpdateModes, [](const EnumValue& r) { return r.value; }), "duplicate update mode");
static_assert(count_in(kOpcodes, Generation::Sunda) == 145 && count_in(kOpcodes, Generation::Cayman) == 150 &&
              count_in(kOpcodes, Generation::Mariana) == 159 && count_in(kOpcodes, Generation::Maverick) == 165);
static_assert(count_in(kDtypes, Generation::Sunda) == 16 && count_in(kDtypes, Generation::Cayman) == 16 &&
              count_in(kDtypes, Generation::Mariana) == 24 && count_in(kDtypes, Generation::Maverick) == 30);
static_assert(count_in(kAluOps, Generation::Sunda) == 33 && count_in(kAluOps, Generation::Cayman) == 60 &&
              count_in(kAluOps, Generation::Mariana) == 64 && count_in(kAluOps, Generation::Maverick) == 65);
constexpr bool sizes_are_powers_of_two() {
  for (const auto& d : kDtypes) {
    const unsigned size = dtype_size(d.code);
    if (size != 0 && (size & (size - 1)) != 0) return false;
  }
  return true;
}
static_assert(sizes_are_powers_of_two(), "alignment checks mask with size - 1");
static_assert(all_mnemonics_camel(), "a mnemonic is not the CamelCase of its enum name");

// The pseudo band (enums.md §1.1): `(op & 0xE0) == 0xC0`, op != 0xC0, and the RT affinity mark the same rows.
constexpr bool pseudo_column_is_the_band() {
  for (const auto& r : kOpcodes) {
    const bool band = (r.value & 0xE0) == 0xC0 && r.value != 0xC0;
    if (r.pseudo() != band || r.pseudo() != (r.affinity == Affinity::Rt)) return false;
  }
  return true;
}
static_assert(pseudo_column_is_the_band(), "the pseudo column disagrees with the runtime band 0xC1-0xDF");
// PROJ-CONV-F1 extended to the PE opcodes: placement is stated for modeled opcodes only.
constexpr bool placement_only_on_modeled_opcodes() {
  for (const auto& r : kOpcodes)
    if (r.placement != Placement::Any && (r.format == Format::NotModeled || r.pseudo())) return false;
  return true;
}
static_assert(placement_only_on_modeled_opcodes());

// The EVENTS tables against the encoding rules of enums.md §9-§10: the register forms are `| 0x80`, the MAVERICK
// offset forms 0x91-0x95, the _COMPLETE twins `+ 0x10`; the comparator is the low nibble (PROJ-CONV-E3 for 0x9x);
// a mode's row is complete for its kind, and no two rows mean the same.
constexpr bool wait_rows_follow_the_encoding() {
  constexpr std::array<Comparator, 6> kByLowNibble{Comparator::None, Comparator::Eq, Comparator::Lt,
                                                   Comparator::Le,   Comparator::Gt, Comparator::Ge};
  for (const auto& r : kWaitModeTable) {
    const unsigned high = r.value & 0xF0U, low = r.value & 0x0FU;
    switch (r.kind) {
      case WaitKind::Semaphore: {
        const ModeOperand want = high == 0x00   ? ModeOperand::Immediate
                                 : high == 0x80 ? ModeOperand::Register
                                 : high == 0x90 ? ModeOperand::RegisterOffset
                                                : ModeOperand::None;
        if (low < 1 || low > 5 || r.comparator != kByLowNibble[low] || r.operand != want || want == ModeOperand::None ||
            r.event != EventWait::None)
          return false;
        break;
      }
      case WaitKind::Event:
        if (r.comparator != Comparator::None || r.operand != ModeOperand::None || r.event == EventWait::None ||
            waits_for_set(r.event) != (low == 0x6 || low == 0x7) ||
            changes_event(r.event) != (low == 0x7 || low == 0xF))
          return false;
        break;
      case WaitKind::None:
      case WaitKind::Unordered:
        if (r.comparator != Comparator::None || r.operand != ModeOperand::None || r.event != EventWait::None)
          return false;
        break;
    }
  }
  for (size_t i = 0; i < kWaitModeTable.size(); ++i)
    for (size_t j = i + 1; j < kWaitModeTable.size(); ++j) {
      const auto &a = kWaitModeTable[i], &b = kWaitModeTable[j];
      if (a.kind == b.kind && a.comparator == b.comparator && a.operand == b.operand && a.event == b.event)
        return false;
    }
  return wait_mode_info(0x00)->kind == WaitKind::None && wait_mode_info(0xFE)->kind == WaitKind::Unordered;
}
static_assert(wait_rows_follow_the_encoding(), "a WAIT_MODE row disagrees with the mode's encoding");

constexpr bool update_rows_follow_the_encoding() {
  constexpr std::array<UpdateAction, 10> kByLowNibble{
      UpdateAction::None,      UpdateAction::EventSet, UpdateAction::EventClear, UpdateAction::Increment,
      UpdateAction::Decrement, UpdateAction::Add,      UpdateAction::None,       UpdateAction::Subtract,
      UpdateAction::None,      UpdateAction::Write};
  for (const auto& r : kUpdateModeTable) {
    const unsigned low = r.value & 0x0FU;
    const bool reg = (r.value & 0x80U) != 0, complete = (r.value & 0x10U) != 0;
    if (low >= kByLowNibble.size() || r.action != kByLowNibble[low] || r.at_completion != complete ||
        (r.value & 0x60U) != 0)
      return false;
    const ModeOperand want = !takes_operand(r.action) ? ModeOperand::None
                             : reg                    ? ModeOperand::Register
                                                      : ModeOperand::Immediate;
    if (r.operand != want || (reg && !takes_operand(r.action))) return false;
  }
  for (size_t i = 0; i < kUpdateModeTable.size(); ++i)
    for (size_t j = i + 1; j < kUpdateModeTable.size(); ++j) {
      const auto &a = kUpdateModeTable[i], &b = kUpdateModeTable[j];
      if (a.action == b.action && a.operand == b.operand && a.at_completion == b.at_completion) return false;
    }
  return true;
}
static_assert(update_rows_follow_the_encoding(), "an UPDATE_MODE row disagrees with the mode's encoding");

// One catalog dtype per signature dtype, each with whole-byte elements.
constexpr bool signatures_unique_and_whole_bytes() {
  for (size_t i = 0; i < kDtypes.size(); ++i) {
    if (kDtypes[i].signature.empty()) continue;
    if (kDtypes[i].bits == 0 || kDtypes[i].bits % 8 != 0) return false;
    for (size_t j = i + 1; j < kDtypes.size(); ++j)
      if (kDtypes[i].signature == kDtypes[j].signature) return false;
  }
  return true;
}
static_assert(signatures_unique_and_whole_bytes());

}  // namespace

std::string_view to_string(Affinity a) {
  switch (a) {
    case Affinity::Pe: return "PE";
    case Affinity::Act: return "ACT";
    case Affinity::Dve: return "DVE";
    case Affinity::Pool: return "POOL";
    case Affinity::Nx: return "NX";
    case Affinity::NxDma: return "NX/DMA";
    case Affinity::PoolDve: return "POOL/DVE";
    case Affinity::DvePool: return "DVE/POOL";
    case Affinity::Rt: return "RT";
    case Affinity::None: return "-";
  }
  return "?";
}

std::string_view to_string(Engine e) {
  switch (e) {
    case Engine::Pe: return "PE";
    case Engine::Act: return "ACT";
    case Engine::Pool: return "POOL";
    case Engine::Dve: return "DVE";
    case Engine::Sp: return "SP";
  }
  return "?";
}

std::string_view to_string(Comparator c) {
  for (const ComparatorInfo& row : kComparators)
    if (row.comparator == c) return row.symbol;
  return "";
}

std::string_view to_string(Maint m) {
  switch (m) {
    case Maint::Yes: return "Y";
    case Maint::No: return "n";
    case Maint::None: return "";
  }
  return "?";
}

std::string_view to_string(DtypeKind k) {
  switch (k) {
    case DtypeKind::Sentinel: return "sentinel";
    case DtypeKind::UInt: return "unsigned int";
    case DtypeKind::SInt: return "signed int";
    case DtypeKind::Float: return "float";
    case DtypeKind::Scale: return "scale";
    case DtypeKind::Coded: return "coded";
  }
  return "?";
}

std::vector<std::string_view> alu_class_names(const AluOpInfo& op) {
  constexpr std::array<std::pair<AluClass, std::string_view>, 8> kNames{{
      {kAluBitvec, "bitvec"},
      {kAluArith, "arith"},
      {kAluGeneralArith, "general_arith"},
      {kAluInt, "int"},
      {kAluSigned, "signed"},
      {kAluUnsigned, "unsigned"},
      {kAluIntDve5, "int_dve"},
      {kAluByConventionT11, "PROJ-CONV-T11"},
  }};
  std::vector<std::string_view> out;
  for (const auto& [bit, name] : kNames)
    if (op.is(bit)) out.push_back(name);
  return out;
}

std::optional<uint8_t> parse_dtype(std::string_view text) {
  std::string lower;
  for (char c : text) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  for (const auto& d : kDtypes) {
    std::string name;
    for (char c : d.name) name.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    if (lower == name || lower == d.short_name) return d.code;
  }
  return std::nullopt;
}

const DtypeInfo* signature_dtype(std::string_view signature) {
  for (const DtypeInfo& d : kDtypes)
    if (!d.signature.empty() && d.signature == signature) return &d;
  return nullptr;
}

}  // namespace tpbisa
