// DMA family syntax: compute_op and ctype by name, a trigger's queue name written as a word, and the meanings of the
// packed bytes (DMA_CONFIGS, DMA_INDIRECT_FLAGS, the gather-transpose dtype pair) in decode.
#include <iterator>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "families/dma/format.hpp"
#include "families/family.hpp"
#include "text/asm_fields.hpp"
#include "tpbisa/describe.hpp"

namespace tpbisa::family {
namespace {

using namespace dma;
using tasm::AsmField;
using tasm::error_at;
using tasm::FieldList;
using tasm::fit_int;
using tasm::IntLiteral;
using tasm::IntParse;
using tasm::LineError;
using tasm::load_bits;
using tasm::parse_int;
using tasm::store_bits;
using tasm::ValueText;

// Zero is the usual value of the configuration, bound-check and undescribed bytes: written only when set.
constexpr std::string_view kQuiet[] = {"dma_configs",       "src_bound_reg", "dst_bound_reg", "src_idx_bound_reg",
                                       "dst_idx_bound_reg", "unknown0",      "payload"};

constexpr std::string_view kHex[] = {
    "dma_configs", "flags", "dtype", "src_bound_reg", "dst_bound_reg", "src_idx_bound_reg", "dst_idx_bound_reg"};

// ---- The queue name: a word when it is one, else its 32 bytes as a list (PROJ-CONV-PS1) ----

constexpr size_t kNameBytes = 32;

bool name_char(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' ||
         ch == '-' || ch == '/';
}
/// The bytes read as a word that lexes back to them: name characters, starting with a letter or `_`, NUL-padded.
bool printable_name(const Word& w, unsigned offset, std::string& name) {
  size_t n = 0;
  while (n < kNameBytes && w[offset + n] != 0) ++n;
  for (size_t k = n; k < kNameBytes; ++k)
    if (w[offset + k] != 0) return false;
  if (n == 0) return false;
  name.assign(reinterpret_cast<const char*>(&w[offset]), n);
  const char first = name[0];
  if (!((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z') || first == '_')) return false;
  for (const char ch : name)
    if (!name_char(ch)) return false;
  return true;
}

void print_queue_name(std::string& out, const AsmField& f, const Word& w, FieldList, Generation) {
  std::string name;
  if (printable_name(w, f.offset, name)) {
    out += name;
    return;
  }
  out += '{';
  for (size_t k = 0; k < kNameBytes; ++k)
    fmt::format_to(std::back_inserter(out), "{}{:#04x}", k == 0 ? "" : ",", w[f.offset + k]);
  out += '}';
}

bool parse_queue_name(const AsmField& f, const ValueText& v, Word& w, FieldList, Generation, LineError& error) {
  if (v.list) {
    if (v.items.size() != kNameBytes) {
      error = error_at(v.open, fmt::format("`{}` takes a queue name or a list of its 32 bytes, got {} values", f.path,
                                           v.items.size()));
      return false;
    }
    for (size_t k = 0; k < kNameBytes; ++k) {
      IntLiteral lit;
      uint64_t bits = 0;
      if (parse_int(v.items[k].text, lit) != IntParse::Ok || !fit_int(lit, 8, false, bits)) {
        error = error_at(v.items[k], fmt::format("`{}` byte {} must be 0..255, got `{}`", f.path, k, v.items[k].text));
        return false;
      }
      w[f.offset + k] = static_cast<uint8_t>(bits);
    }
    return true;
  }
  const std::string_view text = v.scalar.text;
  bool ok = !text.empty() && text.size() <= kNameBytes;
  for (const char ch : text) ok = ok && name_char(ch);
  if (!ok) {
    error = error_at(v.scalar, fmt::format("`{}` takes a queue name of 1..32 characters [A-Za-z0-9_.-/] or a list of "
                                           "its 32 bytes, got `{}`",
                                           f.path, text));
    return false;
  }
  for (size_t k = 0; k < kNameBytes; ++k) w[f.offset + k] = k < text.size() ? static_cast<uint8_t>(text[k]) : 0;
  return true;
}

constexpr CustomField kCustom[] = {
    {.path = "compute_op", .names = kComputeOps, .names_what = "DGE_COMPUTE_OP"},
    {.path = "ctype", .names = kCollectiveKinds, .names_what = "collective kind"},
    {.path = "dma_queue_name", .print = print_queue_name, .parse = parse_queue_name},
};

// ---- Meanings ----

std::string configs_meaning(uint8_t c) {
  std::string s = fmt::format("DMA_CONFIGS: priority_class {}", priority_class(c));
  if (!dma_configs_valid(c)) s += " (invalid: priority_class <= 4, bits 3-7 zero)";
  return s;
}

std::string_view dim_name(uint8_t d) {
  constexpr std::string_view kDims[] = {"X", "Y", "Z", "W"};
  return kDims[d & 3];
}

std::string indirect_flags_meaning(uint8_t f) {
  constexpr std::string_view kModes[] = {"SRC_INDIRECTION (gather)", "DST_INDIRECTION (scatter)",
                                         "SRC_DST_INDIRECTION (gather and scatter)", "mode 3 (invalid)"};
  return fmt::format("{}, idx_bound_is_err {}, non_unique_dst_idx {}, gather_dim {}, scatter_dim {}",
                     kModes[indirect_mode(f)], idx_bound_is_err(f) ? 1 : 0, non_unique_dst_idx(f) ? 1 : 0,
                     dim_name(gather_dim(f)), dim_name(scatter_dim(f)));
}

std::string compute_meaning(uint8_t op) {
  switch (op) {
    case kComputeNone: return "NONE: dst = src (a copy)";
    case kComputeAdd: return "ADD: dst += src (reduce on copy, PROJ-CONV-DM6)";
    case kComputeMultiply: return "MULTIPLY: dst *= src (reduce on copy, PROJ-CONV-DM6)";
    case kComputeMax: return "MAX: dst = max(dst, src) (reduce on copy, PROJ-CONV-DM6)";
    case kComputeMin: return "MIN: dst = min(dst, src) (reduce on copy, PROJ-CONV-DM6)";
    default: return "not a DGE_COMPUTE_OP";
  }
}

/// Steps and counts of the DMA walks are bytes and chunks, not elements of a tensor (PROJ-CONV-DM3, DM8, DM9).
std::string walk_meaning(std::string_view path) {
  if (path.starts_with("tile_src_row_step")) return "byte stride between a tile's source rows (PROJ-CONV-DM8)";
  if (path.find("step_elem") != std::string_view::npos) return "byte stride (PROJ-CONV-DM3)";
  if (path.find("num_elem") != std::string_view::npos) return "count along this dimension (PROJ-CONV-DM3)";
  return {};
}

template <class S>
std::string common_meaning(const S& s, std::string_view path) {
  if (std::string walk = walk_meaning(path); !walk.empty()) return walk;
  if constexpr (requires { s.dma_configs; })
    if (path == "dma_configs") return configs_meaning(s.dma_configs);
  if constexpr (requires { s.compute_op; })
    if (path == "compute_op") return compute_meaning(s.compute_op);
  if (path.ends_with("bound_reg"))
    return "BOUND_CHECK_REG (its encoding is not public; kept as written, PROJ-CONV-DM7)";
  return {};
}

/// What the plain fields of the family's words hold, where the word's own reading says nothing more.
std::string plain_field_meaning(std::string_view path) {
  if (path == "semaphore") return "completion semaphore";
  if (path == "sem_increment") return "added to the completion semaphore when the data have moved";
  if (path == "elem_size") return "bytes per gathered row";
  if (path.ends_with("elem_size")) return "bytes per chunk (0 means 65 536, PROJ-CONV-DM3)";
  if (path == "idx_num_active_channels") return "index channels (128: every partition)";
  if (path == "group_id") return "replica group (its members live in the NEFF, not the word)";
  if (path == "num_elements") return "elements the collective moves";
  if (path.starts_with("dma_queue_name")) return "queue name byte";
  return {};
}

std::string word_meaning(const Instruction& inst, std::string_view path);

std::string meaning(const Instruction& inst, std::string_view path) {
  std::string m = word_meaning(inst, path);
  return m.empty() ? plain_field_meaning(path) : m;
}

std::string word_meaning(const Instruction& inst, std::string_view path) {
  if (const auto* m = inst.as<DmaDirect2d>()) {
    if (path == "semaphore")
      return fmt::format("completion semaphore: += {} when the data have moved", m->sem_increment);
    if (path == "src_elem_size" || path == "dst_elem_size") return "bytes per chunk (0 means 65 536, PROJ-CONV-DM3)";
    return common_meaning(*m, path);
  }
  if (const auto* m = inst.as<DmaIndirect1d>()) {
    if (path == "flags") return indirect_flags_meaning(m->flags);
    if (path == "semaphore")
      return fmt::format("completion semaphore: += {} when the data have moved", m->sem_increment);
    return common_meaning(*m, path);
  }
  if (const auto* m = inst.as<DmaDirect2dXpose>()) {
    if (path == "semaphore") return "completion semaphore: += 1 when the data have moved (PROJ-CONV-DM8)";
    if (path == "tile_src_rows") return "rows of a transpose tile (16)";
    if (path == "tile_src_cols") return "columns of a transpose tile";
    return common_meaning(*m, path);
  }
  if (const auto* m = inst.as<DmaGatherXpose>()) {
    if (path == "dtype")
      return fmt::format("source {} (low nibble), destination {} (high nibble)",
                         describe_dtype(m->dtype & 0x0F, inst.gen), describe_dtype(m->dtype >> 4, inst.gen));
    if (path == "flags") return fmt::format("gather_dim {}", dim_name(m->flags & 3));
    return common_meaning(*m, path);
  }
  if (const auto* m = inst.as<PseudoDmaTrigger>()) {
    if (path == "dma_queue_name[0]")
      return fmt::format("the queue `{}`: fires its descriptor block from the engine's `dma` list",
                         queue_name(m->dma_queue_name));
    if (path == "payload") return "block_id / use_raw_count: their place is not public (PROJ-CONV-PS1)";
  }
  if (inst.as<PseudoTriggerCollective>() != nullptr) {
    if (path == "input_tensor_id" || path == "output_tensor_id") return "a variable of the NEFF (var_id)";
    if (path == "unknown0" || path == "payload") return "not described by the public word (PROJ-CONV-PS2)";
  }
  return {};
}

constexpr Syntax kSyntax{
    .note =
        "compute_op and ctype are written by name; a trigger's dma_queue_name is written as a word (or its 32 "
        "bytes as a list when it is not a plain name)",
    .quiet_fields = kQuiet,
    .hex_fields = kHex,
    .meaning = meaning,
    .custom_fields = kCustom};

}  // namespace

const Syntax& DmaFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
