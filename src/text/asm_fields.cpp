// Operands from the format descriptors, and the syntax of plain values: numbers, lists and catalog names.
#include "text/asm_fields.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "families/family.hpp"
#include "text/patterns.hpp"
#include "tpbisa/catalog.hpp"

namespace tpbisa::tasm {
namespace {

// ---- The operand list: a walk over the descriptors, once per format ----

constexpr std::string_view kInstFlagsName = "inst_flags";

void walk(const FormatDesc& desc, unsigned base, const std::string& prefix, std::vector<AsmField>& out) {
  for (const FieldDesc& f : desc.fields) {
    const unsigned at = base + f.offset;
    std::string path = prefix + std::string(f.name);
    if (f.sub != nullptr) {
      walk(*f.sub, at, path + ".", out);
      continue;
    }
    // MAVERICK reads header byte 3 as inst_flags (PROJ-CONV-C2); the byte answers to both names.
    std::string alias = f.role == Role::DebugHint ? prefix + std::string(kInstFlagsName) : std::string();
    out.push_back({std::move(path), std::move(alias), static_cast<uint8_t>(at), f.size, f.elem_size, f.count,
                   f.is_signed, f.role, prefix.empty()});
  }
}

/// Marks the operands the owning family prints only when not zero or in hex, and ties its Role::Custom fields to
/// their entries (alternative 0, RawWord, has no family).
void mark_quiet(size_t alternative, std::vector<AsmField>& fields) {
  if (alternative == 0) return;
  const family::Syntax& syntax = family::families()[kLayoutRows[alternative - 1].family].syntax;
  for (auto& f : fields) {
    for (std::string_view q : syntax.quiet_fields) f.quiet = f.quiet || f.path == q;
    for (std::string_view h : syntax.hex_fields) f.hex = f.hex || f.path == h;
    if (f.role == Role::Custom) f.custom = family::custom_field(alternative, f.path);
  }
}

/// The fields of a MEM_PATTERN operand read as the indirect arm (common-formats.md §6.2), named under the operand.
std::vector<AsmField> indirect_fields(const text::PatternOperand& p, uint8_t k) {
  const std::string stem = std::string(p.name) + ".";
  auto field = [&](std::string_view name, uint8_t at, uint8_t size, uint8_t elem, Role role) {
    AsmField f{stem + std::string(name),
               "",
               static_cast<uint8_t>(p.offset + at),
               size,
               elem,
               static_cast<uint8_t>(size / elem),
               false,
               role,
               false};
    f.pattern = k;
    f.indirect_view = true;
    return f;
  };
  std::vector<AsmField> out{field("index", text::kIndirectIndexAt, 4, 4, Role::Addr4),
                            field("data", text::kIndirectDataAt, 4, 4, Role::Addr4),
                            field("num_indices", text::kIndirectCountAt, 2, 2, Role::Plain),
                            field("unused", text::kIndirectUnusedAt,
                                  static_cast<uint8_t>(p.size - text::kIndirectUnusedAt), 1, Role::Reserved)};
  out[0].indirect_index = true;
  return out;
}

/// Ties the plain fields of each MEM_PATTERN operand to it and adds the indirect-arm fields after them.
void add_patterns(size_t alternative, std::vector<AsmField>& fields) {
  const std::span<const text::PatternOperand> patterns = text::pattern_operands(alternative);
  for (size_t k = 0; k < patterns.size(); ++k) {
    const std::string stem = std::string(patterns[k].name) + ".";
    size_t last = fields.size();
    for (size_t i = 0; i < fields.size(); ++i)
      if (fields[i].path.starts_with(stem)) {
        fields[i].pattern = static_cast<uint8_t>(k);
        last = i;
      }
    if (last == fields.size()) continue;
    std::vector<AsmField> extra = indirect_fields(patterns[k], static_cast<uint8_t>(k));
    fields.insert(fields.begin() + static_cast<std::ptrdiff_t>(last + 1), extra.begin(), extra.end());
  }
}

template <size_t... I>
std::array<std::vector<AsmField>, sizeof...(I)> build_all(std::index_sequence<I...>) {
  std::array<std::vector<AsmField>, sizeof...(I)> all;
  ((walk(format_desc<std::variant_alternative_t<I, Operands>>(), 0, "", all[I])), ...);
  for (size_t i = 0; i < all.size(); ++i) {
    mark_quiet(i, all[i]);
    add_patterns(i, all[i]);
  }
  return all;
}

// ---- Catalog names per role ----

/// How the values of one enum-like role are named: the catalog table behind it, nothing restated.
struct NameSet {
  std::string_view what;                  ///< for messages: "dtype", "DATA_SRC value"
  std::span<const EnumValue> table = {};  ///< an enum table; empty: the functions below
  std::string_view (*lookup)(uint8_t value, Generation g) = nullptr;
  std::optional<uint8_t> (*lookup_value)(std::string_view text) = nullptr;
  std::vector<std::string_view> (*list)(Generation g) = nullptr;
  std::string_view catalog_table = {};  ///< when set, messages point at this `tpbisa catalog` table instead of listing
  bool all_generations = false;         ///< names of every generation are accepted (dtypes; asm.md)

  /// The name of `v` on g; empty when none.
  std::string_view name(uint8_t v, Generation g) const {
    if (lookup != nullptr) return lookup(v, g);
    for (const auto& row : table)
      if (row.value == v) return row.gens.has(g) ? row.name : std::string_view{};
    return {};
  }
  std::optional<uint8_t> value(std::string_view text) const {
    if (lookup_value != nullptr) return lookup_value(text);
    for (const auto& row : table)
      if (iequals(row.name, text)) return row.value;
    return std::nullopt;
  }
  /// Every name of g, for messages.
  std::vector<std::string_view> names(Generation g) const {
    if (list != nullptr) return list(g);
    std::vector<std::string_view> out;
    for (const auto& row : table)
      if (row.gens.has(g)) out.push_back(row.name);
    return out;
  }
};

std::string_view dtype_name(uint8_t v, Generation g) {
  const DtypeInfo* row = find_dtype(v);
  return row != nullptr && row->gens.has(g) ? row->short_name : std::string_view{};
}

/// Every short name: the assembler looks dtype names up whatever the generation (asm.md), so all of them are
/// accepted; unknown_name says which ones the generation lacks.
std::vector<std::string_view> dtype_names(Generation) {
  std::vector<std::string_view> names;
  for (const auto& row : kDtypes) names.push_back(row.short_name);
  return names;
}

std::string_view aluop_name(uint8_t v, Generation g) {
  const AluOpInfo* row = find_aluop(v);
  return row != nullptr && row->gens.has(g) ? row->name : std::string_view{};
}

std::optional<uint8_t> aluop_value(std::string_view text) {
  for (const auto& row : kAluOps)
    if (iequals(row.name, text)) return row.code;
  return std::nullopt;
}

std::vector<std::string_view> aluop_names(Generation g) {
  std::vector<std::string_view> names;
  for (const auto& row : kAluOps)
    if (row.gens.has(g)) names.push_back(row.name);
  return names;
}

const NameSet kDebugCmdNames{"DEBUG_CMD_LEVELS value", kDebugCmdLevels};
const NameSet kWaitModeNames{"WAIT_MODE", kWaitModes};
const NameSet kUpdateModeNames{"UPDATE_MODE", kUpdateModes};
const NameSet kDataSrcNames{"DATA_SRC value", kDataSrc};
const NameSet kImmSrcNames{"IMM_SRC value", kImmSrc};
const NameSet kSubdimNames{"TENSOR_SUBDIM value", kTensorSubdim};
const NameSet kRevOpsNames{"TENS_SCALAR_REV_OPS value", kRevOps};
const NameSet kDtypeNames{"dtype", {}, dtype_name, parse_dtype, dtype_names, "", true};
const NameSet kAluOpNames{"ALU op", {}, aluop_name, aluop_value, aluop_names, "aluops"};

/// The names of a field's values: its role's catalog table, or (Role::Custom) the one its family's entry gives.
std::optional<NameSet> names_for(const AsmField& f) {
  switch (f.role) {
    case Role::DebugCmd: return kDebugCmdNames;
    case Role::WaitMode: return kWaitModeNames;
    case Role::UpdateMode: return kUpdateModeNames;
    case Role::Dtype: return kDtypeNames;
    case Role::DataSrc: return kDataSrcNames;
    case Role::ImmSrc: return kImmSrcNames;
    case Role::AluOp: return kAluOpNames;
    case Role::Subdim: return kSubdimNames;
    case Role::RevOps: return kRevOpsNames;
    case Role::Custom:
      if (f.custom != nullptr && !f.custom->names.empty()) return NameSet{f.custom->names_what, f.custom->names};
      return std::nullopt;
    default: return std::nullopt;
  }
}

/// "unknown ALU op `ADDD` for `op` (did you mean `ADD`?); expected ...": the closest name, then the choices.
std::string unknown_name(const NameSet& names, const AsmField& f, std::string_view text, Generation g) {
  const std::vector<std::string_view> all = names.names(g);
  std::string_view near;
  size_t best = std::max<size_t>(2, text.size() / 3) + 1;  // only a plausible typo is suggested
  std::string listed;
  std::vector<std::string_view> lacking;  // dtypes: names accepted although g does not have them
  for (const std::string_view n : all) {
    const size_t d = edit_distance(text, n, best - 1);
    if (d < best) {
      best = d;
      near = n;
    }
    listed += (listed.empty() ? "" : ", ") + std::string(n);
    if (names.all_generations && names.name(*names.value(n), g).empty()) lacking.push_back(n);
  }
  if (!lacking.empty()) {
    const std::string_view last = lacking.back();
    lacking.pop_back();
    listed += lacking.empty() ? fmt::format(" ({} is not a {} of {})", last, names.what, to_string(g))
                              : fmt::format(" ({} and {} are not {}s of {})", fmt::join(lacking, ", "), last,
                                            names.what, to_string(g));
  }
  if (!names.catalog_table.empty())
    listed = fmt::format("a name from `tpbisa catalog --gen {} {}`", to_string(g), names.catalog_table);
  return fmt::format("unknown {} `{}` for `{}`{}; expected {} or a number {}", names.what, text, f.path,
                     near.empty() ? "" : fmt::format(" (did you mean `{}`?)", near), listed,
                     range_text(8U * f.elem_size, false));
}

/// Codes and raw bytes read best in hex; counts, indices and strides in decimal (a family lists its hex fields).
bool hex_role(Role r) {
  return r == Role::DebugHint || r == Role::VarId || r == Role::Reserved || r == Role::Raw || r == Role::Opcode;
}

// ---- Plain values ----

void print_element(std::string& out, const AsmField& f, uint64_t bits, Generation g) {
  if (const std::optional<NameSet> names = names_for(f)) {
    const std::string_view name = bits <= 0xFF ? names->name(static_cast<uint8_t>(bits), g) : std::string_view{};
    if (!name.empty())
      out += name;
    else
      fmt::format_to(std::back_inserter(out), "{:#04x}", bits);
    return;
  }
  if (hex_role(f.role) || f.hex) {
    fmt::format_to(std::back_inserter(out), "{:#x}", bits);
    return;
  }
  if (f.is_signed) {
    const unsigned shift = 64 - 8 * f.elem_size;
    fmt::format_to(std::back_inserter(out), "{}", static_cast<int64_t>(bits << shift) >> shift);
    return;
  }
  fmt::format_to(std::back_inserter(out), "{}", bits);
}

std::string element_name(const AsmField& f, size_t index) {
  return f.is_list() ? fmt::format("{}[{}]", f.path, index) : f.path;
}

bool parse_element(const AsmField& f, size_t index, const Token& t, uint64_t& bits, Generation g, LineError& error) {
  const std::optional<NameSet> names = names_for(f);
  IntLiteral lit;
  const IntParse parsed = parse_int(t.text, lit);
  if (parsed == IntParse::NotANumber && names.has_value()) {
    if (const auto v = names->value(t.text)) {
      bits = *v;
      return true;
    }
    error = error_at(t, unknown_name(*names, f, t.text, g));
    return false;
  }
  if (parsed == IntParse::NotANumber) {
    error = error_at(t, fmt::format("`{}` expects a number {}, got `{}`", element_name(f, index),
                                    range_text(8U * f.elem_size, f.is_signed), t.text));
    return false;
  }
  if (parsed == IntParse::TooLarge || !fit_int(lit, 8U * f.elem_size, f.is_signed, bits)) {
    error = error_at(t, fmt::format("`{}`: {} is out of range {}", element_name(f, index), t.text,
                                    range_text(8U * f.elem_size, f.is_signed)));
    return false;
  }
  return true;
}

std::string list_shape(const AsmField& f) {
  std::string text = "{";
  constexpr std::string_view kLetters = "abcdefghijklmnopqrstuvwxyz";
  for (size_t i = 0; i < f.count && i < 4; ++i) {
    if (i != 0) text += ",";
    text += kLetters[i];
  }
  return text + (f.count > 4 ? ",...}" : "}");
}

bool parse_plain(const AsmField& f, const ValueText& v, Word& w, Generation g, LineError& error) {
  if (!f.is_list()) {
    if (v.list) {
      error = error_at(v.open, fmt::format("`{}` takes one value, not a list", f.path));
      return false;
    }
    uint64_t bits = 0;
    if (!parse_element(f, 0, v.scalar, bits, g, error)) return false;
    store_bits(w, f.offset, f.size, bits);
    return true;
  }
  if (!v.list) {
    error =
        error_at(v.scalar, fmt::format("`{}` is a list of {} values; write it as {}", f.path, f.count, list_shape(f)));
    return false;
  }
  if (v.items.size() > f.count) {
    error = error_at(v.items[f.count], fmt::format("`{}` has {} values, got {}", f.path, f.count, v.items.size()));
    return false;
  }
  for (size_t i = 0; i < f.count; ++i) {
    uint64_t bits = 0;  // values left out are zero
    if (i < v.items.size() && !parse_element(f, i, v.items[i], bits, g, error)) return false;
    store_bits(w, f.offset + static_cast<unsigned>(i * f.elem_size), f.elem_size, bits);
  }
  return true;
}

}  // namespace

FieldList fields_for(const Instruction& inst) {
  static const auto kAll = build_all(std::make_index_sequence<std::variant_size_v<Operands>>{});
  return kAll[inst.body.index()];
}

bool pattern_indirect(const Instruction& inst, const AsmField& f, const Word& w, Generation g) {
  if (f.pattern == AsmField::kNoPattern) return false;
  return text::reads_indirect(text::pattern_operands(inst)[f.pattern], w, g);
}

bool pattern_indirect_exists(const Instruction& inst, const AsmField& f, Generation g) {
  return f.pattern != AsmField::kNoPattern && text::indirect_exists(text::pattern_operands(inst)[f.pattern], g);
}

std::string_view pattern_name(const Instruction& inst, const AsmField& f) {
  return f.pattern == AsmField::kNoPattern ? std::string_view{} : text::pattern_operands(inst)[f.pattern].name;
}

uint64_t load_bits(const Word& w, unsigned offset, unsigned size) {
  uint64_t v = 0;
  for (unsigned i = 0; i < size && i < 8; ++i) v |= uint64_t{w[offset + i]} << (8 * i);
  return v;
}

void store_bits(Word& w, unsigned offset, unsigned size, uint64_t value) {
  for (unsigned i = 0; i < size && i < 8; ++i) w[offset + i] = static_cast<uint8_t>(value >> (8 * i));
}

const AsmField* sibling(FieldList fields, Role role) {
  for (const auto& f : fields)
    if (f.role == role && f.top_level) return &f;
  return nullptr;
}

std::string_view print_name(const AsmField& f, Generation g) {
  return g == Generation::Maverick && !f.alias.empty() ? f.alias : f.path;
}

const AsmField* find_field(FieldList fields, std::string_view name) {
  for (const auto& f : fields)  // the canonical spelling first: a plain compare
    if (f.path == name) return &f;
  for (const auto& f : fields)
    if (iequals(f.path, name) || (!f.alias.empty() && iequals(f.alias, name))) return &f;
  return nullptr;
}

std::string operand_names(FieldList fields, Generation g) {
  std::string text;
  for (const auto& f : fields) {
    if (f.role == Role::Opcode) continue;
    if (!text.empty()) text += ", ";
    text += print_name(f, g);
  }
  return text;
}

bool is_event_role(Role r) {
  return r == Role::WaitMode || r == Role::WaitIdx || r == Role::UpdateMode || r == Role::UpdateIdx ||
         r == Role::SemValue;
}

bool printed(const AsmField& f, const Word& w) {
  auto any_set = [&] {
    for (unsigned i = 0; i < f.size; ++i)
      if (w[f.offset + i] != 0) return true;
    return false;
  };
  if (f.quiet) return any_set();
  switch (f.role) {
    case Role::Opcode: return false;
    case Role::WordLen: return load_bits(w, f.offset, f.size) != kDefaultWordLen;
    case Role::DebugCmd:
    case Role::DebugHint:
    case Role::Reserved: return any_set();
    default: return true;
  }
}

void print_value(std::string& out, const AsmField& f, const Word& w, FieldList all, Generation g) {
  switch (f.role) {
    case Role::Addr4: {
      const uint32_t raw = static_cast<uint32_t>(load_bits(w, f.offset, 4));
      print_addr4(out, f.indirect_index ? raw & text::kAddressBits : raw, g);  // the marker is the arm itself
      return;
    }
    case Role::Addr8: print_addr8(out, load_bits(w, f.offset, 8), g); return;
    case Role::ImmVal: print_imm(out, f, w, all, g); return;
    case Role::MemData: print_data(out, f, w, all, g); return;
    case Role::Custom:
      if (f.custom != nullptr && f.custom->print != nullptr) {
        f.custom->print(out, f, w, all, g);
        return;
      }
      break;
    default: break;
  }
  if (!f.is_list()) {
    print_element(out, f, load_bits(w, f.offset, f.size), g);
    return;
  }
  out += '{';
  for (unsigned i = 0; i < f.count; ++i) {
    if (i != 0) out += ',';
    print_element(out, f, load_bits(w, f.offset + i * f.elem_size, f.elem_size), g);
  }
  out += '}';
}

bool depends_on_siblings(const AsmField& f) {
  return f.role == Role::ImmVal || f.role == Role::MemData || (f.custom != nullptr && f.custom->after_siblings);
}

bool parse_value(const AsmField& f, const ValueText& v, Word& w, FieldList all, Generation g, LineError& error) {
  const bool single_word = f.role == Role::Addr4 || f.role == Role::Addr8 || f.role == Role::ImmVal;
  if (single_word && v.list) {
    error = error_at(v.open, fmt::format("`{}` takes one value, not a list", f.path));
    return false;
  }
  switch (f.role) {
    case Role::Addr4:
      if (!parse_addr4(f, v.scalar, w, g, error)) return false;
      if (f.indirect_index && (w[f.offset + 3] & 0xE0) != 0) {
        error = error_at(v.scalar, fmt::format("`{}` takes an SBUF/PSUM location or its 29 address bits (the indirect "
                                               "marker 0x20 comes with the field); got `{}`",
                                               f.path, v.scalar.text));
        return false;
      }
      return true;
    case Role::Addr8: return parse_addr8(f, v.scalar, w, g, error);
    case Role::ImmVal: return parse_imm(f, v.scalar, w, all, g, error);
    case Role::MemData: return parse_data(f, v, w, all, g, error);
    case Role::Custom:
      if (f.custom != nullptr && f.custom->parse != nullptr) return f.custom->parse(f, v, w, all, g, error);
      return parse_plain(f, v, w, g, error);
    default: return parse_plain(f, v, w, g, error);
  }
}

}  // namespace tpbisa::tasm
