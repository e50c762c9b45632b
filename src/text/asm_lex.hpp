// Lexing for the assembly language: comments, tokens, and the number literals every operand form shares.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tpbisa::tasm {

/// A failure inside one line: 0-based byte column and length of the offending text, and the message.
struct LineError {
  size_t column = 0;
  size_t length = 1;
  std::string message;
};

enum class TokKind : uint8_t { Word, Equals, Comma, LBrace, RBrace };

/// A token of one line; `column` is its 0-based byte offset in the line.
struct Token {
  TokKind kind = TokKind::Word;
  std::string_view text;
  size_t column = 0;
};

/// An error spanning one token.
inline LineError error_at(const Token& t, std::string message) {
  return {t.column, t.text.empty() ? 1 : t.text.size(), std::move(message)};
}

/// The line without its comment (`;` or `#` to the end of the line) and without trailing white space.
std::string_view strip_comment(std::string_view line);
/// Splits a (comment-free) line into tokens: words, and the punctuation `=` `,` `{` `}`. Words starting with
/// `$` are event tokens and run to the next white space, since `$S[22]=5@read` carries an `=` of its own.
void tokenize(std::string_view line, std::vector<Token>& out);

bool iequals(std::string_view a, std::string_view b);
std::string lower(std::string_view s);
/// Case-insensitive Levenshtein distance, for "did you mean" suggestions (inputs are clipped to 64 bytes).
/// Any distance above `limit` is reported as limit + 1, which lets a search for the closest name stop early.
size_t edit_distance(std::string_view a, std::string_view b, size_t limit = SIZE_MAX);

/// An integer literal: `[-]DECIMAL` or `[-]0xHEX`.
struct IntLiteral {
  bool negative = false;
  bool hex = false;
  uint64_t magnitude = 0;
};
enum class IntParse : uint8_t { Ok, NotANumber, TooLarge };
IntParse parse_int(std::string_view text, IntLiteral& out);
/// The literal as the bits of a `bits`-wide field. Signed fields take their signed range when written in
/// decimal and their raw bits (0..2^bits-1) when written in hex; false when out of range.
bool fit_int(const IntLiteral& v, unsigned bits, bool is_signed, uint64_t& out);
/// The accepted range of such a field, for messages: "0..255", "-128..127 (or 0x0..0xff as bits)".
std::string range_text(unsigned bits, bool is_signed);
/// Parses a register name `rN` (N decimal or hex, 0..255); false when the text is not of that shape.
bool parse_register(std::string_view text, uint8_t& reg);

/// True when the text is written as a float: it has a `.` or a decimal exponent, or is inf / nan.
bool looks_like_float(std::string_view text);
enum class FloatParse : uint8_t { Ok, NotANumber, OutOfRange };
/// A decimal number (integer or float literal, `inf`, `-inf`, `nan`, `-nan`) rounded to the nearest fp32.
FloatParse parse_fp32(std::string_view text, uint32_t& bits);
/// The shortest float literal that parses back to exactly these bits ("2.0", "-0.5", "1e+30", "inf");
/// empty when there is none (NaN payloads other than the two `nan` spellings).
std::string fp32_literal(uint32_t bits);

}  // namespace tpbisa::tasm
