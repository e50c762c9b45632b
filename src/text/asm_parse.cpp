// The assembler: lines of text to 64-byte words, every error located to the byte for its caret line.
//
// Mnemonics come from the catalog, operand names from the format descriptors, value syntax from the field roles.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <exception>
#include <unordered_map>

#include <fmt/format.h>

#include "text/asm_events.hpp"
#include "text/asm_fields.hpp"
#include "text/asm_lex.hpp"
#include "text/patterns.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa {
namespace {

using namespace tasm;

constexpr size_t kShownLongLine = 80;  // bytes of an over-long line quoted in its diagnostic

// ---- Catalog look-ups for the head of a line ----

/// Case-insensitive mnemonic look-up through an index of the catalog's mnemonics, lower-cased once.
const OpcodeInfo* find_mnemonic(std::string_view text) {
  static const auto kIndex = [] {
    std::unordered_map<std::string, const OpcodeInfo*> index;
    for (const auto& row : kOpcodes) index.emplace(lower(row.mnemonic), &row);
    return index;
  }();
  const auto it = kIndex.find(lower(text));
  return it == kIndex.end() ? nullptr : it->second;
}

/// The catalog mnemonic closest to a misspelling (or the mnemonic of an enum name written instead); empty when
/// nothing is close enough to be a plausible typo.
std::string_view closest_mnemonic(std::string_view text) {
  std::string_view best;
  size_t best_distance = std::max<size_t>(2, std::min<size_t>(text.size(), 64) / 3) + 1;
  for (const auto& row : kOpcodes) {
    if (iequals(row.enum_name, text)) return row.mnemonic;
    const size_t d = edit_distance(text, row.mnemonic, best_distance - 1);
    if (d < best_distance) {
      best = row.mnemonic;
      best_distance = d;
    }
  }
  return best;
}

/// The operand name closest to a misspelling, when it is close enough to be a plausible typo.
std::string closest_operand(std::string_view text, FieldList fields, Generation g) {
  std::string best;
  size_t best_distance = std::max<size_t>(2, text.size() / 3) + 1;
  for (const auto& f : fields) {
    if (f.role == Role::Opcode) continue;
    const std::string_view name = print_name(f, g);
    const size_t d = edit_distance(text, name, best_distance - 1);
    if (d < best_distance) {
      best = std::string(name);
      best_distance = d;
    }
  }
  return best;
}

bool is_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) != 0 || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; });
}

/// One `name=value` operand of a line; its list items are a range of the line's item buffer.
struct Operand {
  Token name;
  const AsmField* field = nullptr;
  bool list = false;
  Token scalar;
  Token open;
  size_t items_begin = 0;
  size_t items_end = 0;
};

class Assembler {
 public:
  Assembler(std::string_view file, Generation gen, AsmResult& result) : file_(file), gen_(gen), result_(result) {}

  void run(std::string_view source) {
    size_t pos = 0;
    size_t number = 0;
    for (;;) {
      const size_t nl = source.find('\n', pos);
      std::string_view line = source.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      one_line(line, ++number);
      if (nl == std::string_view::npos) break;
      pos = nl + 1;
    }
  }

 private:
  void one_line(std::string_view line, size_t number) {
    if (line.size() > kAsmMaxLineBytes) {
      fail(number, fmt::format("{} ...", line.substr(0, kShownLongLine)),
           {0, 1, fmt::format("line of {} bytes; at most {} are allowed", line.size(), kAsmMaxLineBytes)});
      return;
    }
    const std::string_view text = strip_comment(line);
    tokenize(text, tokens_);
    if (tokens_.empty()) return;
    LineError error;
    size_t at = 0;
    if (tokens_[0].kind == TokKind::Word && tokens_[0].text.ends_with(':')) {
      if (!define_label(tokens_[0], number, error)) return fail(number, std::string(line), error);
      at = 1;
    }
    if (at == tokens_.size()) return;
    Word word{};
    if (!statement(text, at, word, error)) return fail(number, std::string(line), error);
    result_.words.push_back(word);
    result_.word_lines.push_back(number);
  }

  bool define_label(const Token& t, size_t number, LineError& error) {
    const std::string_view name = t.text.substr(0, t.text.size() - 1);
    if (!is_identifier(name)) {
      error = error_at(
          t, fmt::format("bad label `{}`: a label is a letter or `_` followed by letters, digits or `_`", name));
      return false;
    }
    const auto [it, fresh] = labels_.emplace(std::string(name), number);
    if (!fresh) {
      error = error_at(t, fmt::format("duplicate label `{}` (first defined on line {})", name, it->second));
      return false;
    }
    result_.labels.push_back({std::string(name), result_.words.size(), number});
    return true;
  }

  bool statement(std::string_view text, size_t at, Word& word, LineError& error) {
    const Token& head = tokens_[at];
    if (head.kind != TokKind::Word) {
      error = error_at(head, fmt::format("expected a mnemonic or {}, got `{}`", kRawDirective, head.text));
      return false;
    }
    if (head.text.starts_with('.')) {
      if (iequals(head.text, kRawDirective)) return raw(text, head, word, error);
      error = error_at(head, fmt::format("unknown directive `{}` (the one directive is {})", head.text, kRawDirective));
      return false;
    }
    return instruction(at, word, error);
  }

  // ---- .raw <128 hex digits> ----

  static bool raw(std::string_view text, const Token& head, Word& word, LineError& error) {
    const size_t start = head.column + head.text.size();
    const std::string_view hex = text.substr(start);
    HexError he;
    if (parse_hex_word(hex, word, he)) return true;
    if (he.position >= hex.size()) {  // ran out of digits
      const size_t first = hex.find_first_not_of(" \t");
      error = {first == std::string_view::npos ? head.column : start + first,
               first == std::string_view::npos ? head.text.size() : hex.size() - first,
               fmt::format("`{}` takes 128 hex digits, got {}", kRawDirective, he.digits)};
    } else if (he.digits >= 2 * kWordBytes) {
      error = {start + he.position, hex.size() - he.position,
               fmt::format("`{}` takes 128 hex digits; more follow the 128th", kRawDirective)};
    } else {
      error = {start + he.position, 1,
               fmt::format("`{}`: `{}` is not a hex digit", kRawDirective, hex.substr(he.position, 1))};
    }
    return false;
  }

  // ---- Mnemonic, events, operands ----

  bool instruction(size_t at, Word& word, LineError& error) {
    const Token& m = tokens_[at];
    const OpcodeInfo* row = find_mnemonic(m.text);
    if (row == nullptr) {
      const std::string_view near = closest_mnemonic(m.text);
      error = error_at(m, near.empty() ? fmt::format("unknown mnemonic `{}` (`tpbisa catalog` lists them)", m.text)
                                       : fmt::format("unknown mnemonic `{}`; did you mean `{}`?", m.text, near));
      return false;
    }
    if (!row->gens.has(gen_)) {
      error = error_at(m, fmt::format("{} is not an opcode of {} (it is of {}); assemble for that generation or "
                                      "write the word with {}",
                                      row->mnemonic, to_string(gen_), generation_list(row->gens), kRawDirective));
      return false;
    }
    if (row->format == Format::NotModeled) {
      error = error_at(m, fmt::format("{}: {}; write the word with {} <128 hex digits>", row->mnemonic,
                                      raw_operands_note(row), kRawDirective));
      return false;
    }
    word = Word{};
    word[0] = row->value;  // decode() dispatches on byte 0, the header's opcode
    const Instruction probe = decode(std::span<const uint8_t, kWordBytes>(word), gen_);
    const FieldList fields = fields_for(probe);
    for (const auto& f : fields)
      if (f.role == Role::WordLen) store_bits(word, f.offset, f.size, kDefaultWordLen);
    EventTokens events;
    probe_ = &probe;
    plain_used_ = indirect_used_ = 0;
    if (!scan_operands(at + 1, *row, fields, events, error)) return false;
    if (events.any() && !probe.carries_events()) {
      error = error_at(events.has_wait ? events.wait : events.update,
                       fmt::format("{} takes no wait or update: its bytes 4-11 are not EVENTS", row->mnemonic));
      return false;
    }
    if (events.any()) write_events(events.events, fields, word);
    if (!assign_values(fields, word, error)) return false;
    mark_indirect(fields, word);
    return true;
  }

  /// An operand written as the indirect arm carries the arm's marker in its index ADDR4, given or not.
  void mark_indirect(FieldList fields, Word& word) const {
    for (const AsmField& f : fields)
      if (f.indirect_index && (indirect_used_ >> f.pattern & 1U) != 0) word[f.offset + 3] |= text::kIndirectMarker;
  }

  /// The plain and the indirect reading of one MEM_PATTERN operand are the same bytes: a line uses one of them,
  /// and the indirect one only where the generation types the operand MEM_PATTERN.
  bool check_pattern_reading(const Instruction& probe, const AsmField& f, const Token& t, LineError& error) {
    if (f.pattern == AsmField::kNoPattern) return true;
    const uint32_t bit = 1U << f.pattern;
    if (f.indirect_view && !pattern_indirect_exists(probe, f, gen_)) {
      error = error_at(t, fmt::format("`{}`: {} has no indirect MEM_PATTERN arm on {} (it is a plain tensor there)",
                                      t.text, pattern_name(probe, f), to_string(gen_)));
      return false;
    }
    if ((f.indirect_view ? plain_used_ : indirect_used_) & bit) {
      error = error_at(t, fmt::format("`{}`: {} is already written as its {} reading; the plain tensor fields and "
                                      "the indirect-arm fields (index, data, num_indices, unused) are the same bytes",
                                      t.text, pattern_name(probe, f), f.indirect_view ? "plain tensor" : "indirect"));
      return false;
    }
    (f.indirect_view ? indirect_used_ : plain_used_) |= bit;
    return true;
  }

  bool scan_operands(size_t i, const OpcodeInfo& row, FieldList fields, EventTokens& events, LineError& error) {
    operands_.clear();
    items_.clear();
    given_.assign(fields.size(), 0);
    size_t explicit_event = SIZE_MAX;  // index of the first events.* operand
    while (i < tokens_.size()) {
      const Token& t = tokens_[i];
      if (t.kind == TokKind::Word && is_event_token(t.text)) {
        if (!add_event_token(t, gen_, events, error)) return false;
        ++i;
        continue;
      }
      if (!scan_operand(i, row, fields, error)) return false;
      if (explicit_event == SIZE_MAX && is_event_role(operands_.back().field->role))
        explicit_event = operands_.size() - 1;
    }
    if (explicit_event != SIZE_MAX && events.any()) {
      error = error_at(operands_[explicit_event].name,
                       "write the events either as event tokens or as events.* operands, not "
                       "both");
      return false;
    }
    return true;
  }

  bool scan_operand(size_t& i, const OpcodeInfo& row, FieldList fields, LineError& error) {
    const Token& t = tokens_[i];
    if (t.kind != TokKind::Word) {
      error = error_at(t, fmt::format("expected an operand name=value, got `{}`", t.text));
      return false;
    }
    const AsmField* f = find_field(fields, t.text);
    const bool has_equals = i + 1 < tokens_.size() && tokens_[i + 1].kind == TokKind::Equals;
    if (f != nullptr && !has_equals) {
      error = {t.column + t.text.size(), 1,
               fmt::format("missing `=` after operand `{}` (operands are written name=value)", t.text)};
      return false;
    }
    if (f == nullptr) {
      error = error_at(t, unknown_operand(t.text, row, fields, has_equals));
      return false;
    }
    if (f->role == Role::Opcode) {
      error = error_at(t, fmt::format("`{}` is set by the mnemonic", t.text));
      return false;
    }
    if (!check_pattern_reading(*probe_, *f, t, error)) return false;
    size_t& first = given_[static_cast<size_t>(f - fields.data())];
    if (first != 0) {
      error = error_at(t, fmt::format("duplicate operand `{}` (first given at column {})", t.text, first));
      return false;
    }
    first = t.column + 1;
    Operand op;
    op.name = t;
    op.field = f;
    i += 2;
    if (!scan_value(i, op, error)) return false;
    operands_.push_back(op);
    return true;
  }

  std::string unknown_operand(std::string_view name, const OpcodeInfo& row, FieldList fields, bool has_equals) const {
    if (!has_equals)
      return fmt::format("unexpected `{}`: expected an event token ($S[..], $E[..], {}) or an operand name=value", name,
                         kUnorderedText);
    const std::string near = closest_operand(name, fields, gen_);
    return fmt::format("unknown operand `{}` for {}{}; operands: {}", name, row.mnemonic,
                       near.empty() ? "" : fmt::format(" (did you mean `{}`?)", near), operand_names(fields, gen_));
  }

  bool scan_value(size_t& i, Operand& op, LineError& error) {
    const Token& eq = tokens_[i - 1];
    if (i >= tokens_.size()) {
      error = {eq.column + 1, 1, fmt::format("missing value after `{}=`", op.name.text)};
      return false;
    }
    const Token& v = tokens_[i];
    if (v.kind == TokKind::Word) {
      op.scalar = v;
      ++i;
      return true;
    }
    if (v.kind != TokKind::LBrace) {
      error = error_at(v, fmt::format("expected a value after `{}=`, got `{}`", op.name.text, v.text));
      return false;
    }
    return scan_list(i, op, error);
  }

  /// `{` [word {`,` word}] `}` on one line.
  bool scan_list(size_t& i, Operand& op, LineError& error) {
    op.list = true;
    op.open = tokens_[i++];
    op.items_begin = items_.size();
    bool want_value = true;
    for (;; ++i) {
      if (i >= tokens_.size()) {
        error = error_at(op.open, "unterminated `{`: expected `}` before the end of the line");
        return false;
      }
      const Token& t = tokens_[i];
      if (t.kind == TokKind::RBrace && (!want_value || items_.size() == op.items_begin)) break;
      if (want_value && t.kind != TokKind::Word) {
        error = error_at(t, fmt::format("expected a value in the list, got `{}`", t.text));
        return false;
      }
      if (!want_value && t.kind != TokKind::Comma) {
        error = error_at(t, fmt::format("expected `,` or `}}` in the list, got `{}`", t.text));
        return false;
      }
      if (want_value && items_.size() - op.items_begin == kAsmMaxListValues) {
        error = error_at(t, fmt::format("too many values in one list (at most {})", kAsmMaxListValues));
        return false;
      }
      if (want_value) items_.push_back(t);
      want_value = !want_value;
    }
    ++i;
    op.items_end = items_.size();
    return true;
  }

  static void write_events(const Events& e, FieldList fields, Word& word) {
    for (const auto& f : fields) {
      switch (f.role) {
        case Role::WaitMode: store_bits(word, f.offset, f.size, e.wait_mode); break;
        case Role::WaitIdx: store_bits(word, f.offset, f.size, e.wait_idx); break;
        case Role::UpdateMode: store_bits(word, f.offset, f.size, e.update_mode); break;
        case Role::UpdateIdx: store_bits(word, f.offset, f.size, e.update_idx); break;
        case Role::SemValue: store_bits(word, f.offset, f.size, e.semaphore_value); break;
        default: break;
      }
    }
  }

  /// Plain operands first, then those whose syntax depends on them (data on dtype and src_datasrc, ...).
  bool assign_values(FieldList fields, Word& word, LineError& error) {
    for (const bool dependent : {false, true}) {
      for (const Operand& op : operands_) {
        if (depends_on_siblings(*op.field) != dependent) continue;
        ValueText v;
        v.list = op.list;
        v.scalar = op.scalar;
        v.open = op.open;
        v.items = std::span<const Token>(items_).subspan(op.items_begin, op.items_end - op.items_begin);
        if (!parse_value(*op.field, v, word, fields, gen_, error)) return false;
      }
    }
    return true;
  }

  void fail(size_t number, std::string line, const LineError& e) {
    ++result_.error_count;
    if (result_.errors.size() >= kAsmMaxErrors) return;
    const size_t column = std::min(e.column, line.size());
    const size_t length = std::max<size_t>(1, std::min(e.length, line.size() - column));
    result_.errors.push_back({std::string(file_), number, column + 1, length, e.message, std::move(line)});
  }

  std::string_view file_;
  Generation gen_;
  AsmResult& result_;
  std::unordered_map<std::string, size_t> labels_;
  std::vector<Token> tokens_;
  std::vector<Token> items_;
  std::vector<Operand> operands_;
  std::vector<size_t> given_;           ///< per field: the 1-based column of the operand that set it, 0 when not given
  const Instruction* probe_ = nullptr;  ///< the line's mnemonic decoded with zero operands (its layout)
  uint32_t plain_used_ = 0;             ///< per MEM_PATTERN operand: written with its plain tensor fields
  uint32_t indirect_used_ = 0;          ///< per MEM_PATTERN operand: written with its indirect-arm fields
};

}  // namespace

AsmResult assemble(std::string_view source, std::string_view filename, Generation gen) {
  AsmResult result;
  try {
    Assembler(filename, gen, result).run(source);
  } catch (const std::exception& e) {  // only allocation can throw; it is reported, never propagated
    ++result.error_count;
    result.errors.push_back({std::string(filename), 0, 0, 1, fmt::format("internal error: {}", e.what()), ""});
  }
  return result;
}

std::string format_diagnostic(const AsmDiagnostic& d) {
  std::string text = fmt::format("{}:{}:{}: error: {}\n{}\n", d.file, d.line, d.column, d.message, d.source_line);
  // The caret line repeats the line's tabs so that the caret sits under the right byte however tabs are shown.
  for (size_t i = 0; i + 1 < d.column && i < d.source_line.size(); ++i) text += d.source_line[i] == '\t' ? '\t' : ' ';
  text += '^';
  text.append(d.length > 1 ? d.length - 1 : 0, '~');
  return text;
}

}  // namespace tpbisa
