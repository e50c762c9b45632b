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

}  // namespace

std::string_view to_string(Engine e) {
  switch (e) {
    case Engine::Pe: return "PE";
    case Engine::Act: return "ACT";
    case Engine::Dve: return "DVE";
    case Engine::Pool: return "POOL";
    case Engine::Nx: return "NX";
    case Engine::NxDma: return "NX/DMA";
    case Engine::PoolDve: return "POOL/DVE";
    case Engine::DvePool: return "DVE/POOL";
    case Engine::Rt: return "RT";
    case Engine::None: return "-";
  }
  return "?";
}

std::string_view to_string(StreamEngine e) {
  switch (e) {
    case StreamEngine::Pe: return "PE";
    case StreamEngine::Act: return "ACT";
    case StreamEngine::Pool: return "POOL";
    case StreamEngine::Dve: return "DVE";
    case StreamEngine::Sp: return "SP";
  }
  return "?";
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

}  // namespace tpbisa
