// Reading the EVENTS text with describe.hpp's syntax tables, each mode checked against the catalog's enums.
#include "text/asm_events.hpp"

#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "tpbisa/catalog.hpp"
#include "tpbisa/describe.hpp"

namespace tpbisa::tasm {
namespace {

constexpr std::string_view kSemPrefix = "$S[";
constexpr std::string_view kEventPrefix = "$E[";

/// What one token asks for.
struct Part {
  bool update = false;
  uint8_t mode = 0;
  uint8_t idx = 0;
  uint32_t value = 0;
  uint32_t mask = 0;  ///< semaphore_value bits this part fixes
};

/// The whole syntax, listed from the tables, for the message of a malformed token.
/// Appends one word to a space-separated list in place (no temporaries: GCC 12 at -O3 misreads the
/// temporary-string form as an overlapping memcpy, a -Wrestrict false positive).
void append_word(std::string& list, std::string_view word, std::string_view suffix = {}) {
  if (!list.empty()) list += ' ';
  list += word;
  list += suffix;
}

std::string expected_syntax() {
  std::string cmps, waits, sem_ops, evt_ops;
  for (const auto& c : kComparators) append_word(cmps, c.symbol);
  for (const auto& e : kEventWaits) append_word(waits, e.text);
  for (const auto& u : kUpdateOps)
    append_word(updates_event(u.action) ? evt_ops : sem_ops, u.text, takes_operand(u.action) ? "v" : "");
  return fmt::format(
      "expected a wait ($S[i] with {} and a number, rN or rN+OFF; $E[i] with {}; {}) or an update "
      "($S[i] with {}, v a number or rN; $E[i] with {}; then {} or {})",
      cmps, waits, kUnorderedText, sem_ops, evt_ops, kAtRead, kAtComplete);
}

std::optional<uint8_t> wait_mode_named(std::string_view name) {
  for (const auto& row : kWaitModes)
    if (iequals(row.name, name)) return row.value;
  return std::nullopt;
}

/// `N]` at the start of `rest`: the index, 0..255.
bool take_index(std::string_view& rest, uint8_t& idx) {
  const size_t close = rest.find(']');
  if (close == std::string_view::npos) return false;
  IntLiteral lit;
  uint64_t v = 0;
  if (parse_int(rest.substr(0, close), lit) != IntParse::Ok || !fit_int(lit, 8, false, v)) return false;
  idx = static_cast<uint8_t>(v);
  rest.remove_prefix(close + 1);
  return true;
}

bool take_u32(std::string_view text, uint32_t& v) {
  IntLiteral lit;
  uint64_t bits = 0;
  if (parse_int(text, lit) != IntParse::Ok || !fit_int(lit, 32, false, bits)) return false;
  v = static_cast<uint32_t>(bits);
  return true;
}

/// The operand of a value-taking update: a number (the whole value) or rN (its low byte, PROJ-CONV-C3).
bool update_operand(std::string_view text, Part& p, bool& reg) {
  uint8_t r = 0;
  reg = parse_register(text, r);
  if (reg) {
    p.value = r;
    p.mask = 0xFF;
    return true;
  }
  p.mask = 0xFFFFFFFFU;
  return take_u32(text, p.value);
}

bool parse_update(std::string_view body, bool complete, bool event, Part& p) {
  const UpdateSyntax* op = nullptr;
  for (const auto& u : kUpdateOps)  // the longest spelling wins: `+=` before `=`
    if (updates_event(u.action) == event && body.starts_with(u.text) &&
        (op == nullptr || u.text.size() > op->text.size()))
      op = &u;
  if (op == nullptr) return false;
  const std::string_view operand = body.substr(op->text.size());
  const bool takes_value = takes_operand(op->action);
  bool reg = false;
  if (takes_value ? !update_operand(operand, p, reg) : !operand.empty()) return false;
  const ModeOperand form = !takes_value ? ModeOperand::None : reg ? ModeOperand::Register : ModeOperand::Immediate;
  const std::optional<uint8_t> mode = update_mode_for(op->action, form, complete);
  if (!mode) return false;
  p.update = true;
  p.mode = *mode;
  return true;
}

/// `rN+OFF` (MAVERICK SEM_*_REG_OFFSET, PROJ-CONV-C5): register in the low byte, offset in the upper 24 bits.
bool reg_offset_operand(std::string_view text, Part& p) {
  const size_t plus = text.find('+');
  uint8_t r = 0;
  uint32_t off = 0;
  if (plus == std::string_view::npos || !parse_register(text.substr(0, plus), r) ||
      !take_u32(text.substr(plus + 1), off) || off > 0xFFFFFFU)
    return false;
  p.value = r | (off << 8);
  p.mask = 0xFFFFFFFFU;
  return true;
}

/// The WAIT_MODE of a semaphore wait written with comparator `c` and an operand of form `form`.
bool sem_wait_mode(Comparator c, ModeOperand form, Part& p) {
  const std::optional<uint8_t> mode = wait_mode_for(WaitKind::Semaphore, c, form);
  p.mode = mode.value_or(0);
  return mode.has_value();
}

bool parse_sem_wait(std::string_view rest, Part& p) {
  const ComparatorInfo* cmp = nullptr;
  for (const auto& c : kComparators)  // the longest spelling wins: `>=` before `>`
    if (rest.starts_with(c.symbol) && (cmp == nullptr || c.symbol.size() > cmp->symbol.size())) cmp = &c;
  if (cmp == nullptr) return false;
  const std::string_view operand = rest.substr(cmp->symbol.size());
  uint8_t r = 0;
  if (parse_register(operand, r)) {
    p.value = r;
    p.mask = 0xFF;
    return sem_wait_mode(cmp->comparator, ModeOperand::Register, p);
  }
  if (reg_offset_operand(operand, p)) return sem_wait_mode(cmp->comparator, ModeOperand::RegisterOffset, p);
  p.mask = 0xFFFFFFFFU;
  return sem_wait_mode(cmp->comparator, ModeOperand::Immediate, p) && take_u32(operand, p.value);
}

bool parse_event_wait(std::string_view rest, Part& p) {
  for (const auto& e : kEventWaits) {
    if (rest != e.text) continue;
    const std::optional<uint8_t> mode = wait_mode_for(WaitKind::Event, Comparator::None, ModeOperand::None, e.wait);
    p.mode = mode.value_or(0);
    return mode.has_value();
  }
  return false;
}

bool parse_part(std::string_view text, Part& p) {
  if (iequals(text, kUnorderedText)) {
    const auto mode = wait_mode_named("UNORDERED");
    p.mode = mode.value_or(0);
    return mode.has_value();
  }
  const bool sem = text.starts_with(kSemPrefix);
  if (!sem && !text.starts_with(kEventPrefix)) return false;
  std::string_view rest = text.substr(kSemPrefix.size());
  if (!take_index(rest, p.idx)) return false;
  for (const std::string_view when : {kAtRead, kAtComplete})
    if (rest.ends_with(when))
      return parse_update(rest.substr(0, rest.size() - when.size()), when == kAtComplete, !sem, p);
  return sem ? parse_sem_wait(rest, p) : parse_event_wait(rest, p);
}

template <size_t N>
std::string not_a_mode(const Token& t, const std::array<EnumValue, N>& table, std::string_view what, uint8_t mode,
                       Generation g) {
  const EnumValue* row = find_enum(table, mode);
  if (row == nullptr) return fmt::format("`{}`: no {} encodes this ({:#04x})", t.text, what, mode);
  return fmt::format(
      "`{}`: {} {} ({:#04x}) does not exist on {} (it does on {}); write the events.* fields to "
      "encode it anyway",
      t.text, what, row->name, mode, to_string(g), generation_list(row->gens));
}

}  // namespace

bool is_event_token(std::string_view word) {
  return word.starts_with("$") || iequals(word, kUnorderedText);
}

bool add_event_token(const Token& t, Generation g, EventTokens& st, LineError& error) {
  Part p;
  if (!parse_part(t.text, p)) {
    error = error_at(t, fmt::format("bad event token `{}`: {}", t.text, expected_syntax()));
    return false;
  }
  const bool in_gen = p.update ? update_mode_in(p.mode, g) : wait_mode_in(p.mode, g);
  if (!in_gen) {
    error = p.update ? error_at(t, not_a_mode(t, kUpdateModes, "UPDATE_MODE", p.mode, g))
                     : error_at(t, not_a_mode(t, kWaitModes, "WAIT_MODE", p.mode, g));
    return false;
  }
  const bool twice = p.update ? st.has_update : st.has_wait;
  if (twice) {
    const Token& first = p.update ? st.update : st.wait;
    error = error_at(
        t, fmt::format("a second {} `{}`: the instruction already {} `{}` (column {})", p.update ? "update" : "wait",
                       t.text, p.update ? "updates with" : "waits on", first.text, first.column + 1));
    return false;
  }
  if (((st.events.semaphore_value ^ p.value) & st.value_mask & p.mask) != 0) {
    const Token& other = p.update ? st.wait : st.update;
    error = error_at(t, fmt::format("`{}` and `{}` need different values of the one semaphore_value they share",
                                    other.text, t.text));
    return false;
  }
  st.events.semaphore_value = (st.events.semaphore_value & ~p.mask) | (p.value & p.mask);
  st.value_mask |= p.mask;
  if (p.update) {
    st.has_update = true;
    st.update = t;
    st.events.update_mode = p.mode;
    st.events.update_idx = p.idx;
  } else {
    st.has_wait = true;
    st.wait = t;
    st.events.wait_mode = p.mode;
    st.events.wait_idx = p.idx;
  }
  return true;
}

}  // namespace tpbisa::tasm
