// The disassembler: the canonical line of a word, from the format descriptors and the EVENTS renderer.
#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "families/family.hpp"
#include "text/asm_fields.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa {
namespace {

using tasm::AsmField;
using tasm::FieldList;
using tasm::kRawDirective;

constexpr std::string_view kCommentLead = "  ; ";

void print_raw(std::string& out, const Word& w) {
  out += kRawDirective;
  out += ' ';
  for (uint8_t b : w) fmt::format_to(std::back_inserter(out), "{:02x}", b);
}

/// Why a word is written raw: its opcode's operands are not modeled, or it is no opcode of the generation; with
/// its EVENTS text, so the line says what decode says of the word.
std::string raw_note(const Instruction& inst, Generation gen) {
  const std::string events = render_events(inst.events(), gen);
  const std::string shown = events.empty() ? "" : " " + events;
  if (inst.status == DecodeStatus::NotModeled)
    return fmt::format("{}{}: {}", inst.name(), shown, raw_operands_note(inst.info));
  return fmt::format("opcode {:#04x}{}: {}", inst.opcode(), shown, describe_opcode(inst.opcode(), gen));
}

/// A field the word's own modes leave unused (the family decides, Syntax::operand_used) and that is zero.
bool unused_zero(const Instruction& inst, const AsmField& f, const Word& w) {
  const auto operand_used = family::operand_used_hook(inst);
  if (operand_used == nullptr || operand_used(inst, f.path)) return false;
  for (unsigned i = 0; i < f.size; ++i)
    if (w[f.offset + i] != 0) return false;
  return true;
}

/// The EVENTS text when it determines all 8 bytes; otherwise the explicit events.* fields carry them.
void print_modeled(std::string& out, const Instruction& inst, const Word& w, Generation gen) {
  out += inst.info->mnemonic;
  const bool exact = events_render_exact(inst.events(), gen);
  if (exact) {
    const std::string events = render_events(inst.events(), gen);
    if (!events.empty()) out += ' ' + events;
  }
  const FieldList fields = tasm::fields_for(inst);
  for (const AsmField& f : fields) {
    // A MEM_PATTERN operand is written in the reading its arm has: the plain tensor or the indirect arm.
    if (f.pattern != AsmField::kNoPattern && tasm::pattern_indirect(inst, f, w, gen) != f.indirect_view) continue;
    if (tasm::is_event_role(f.role) ? exact || tasm::load_bits(w, f.offset, f.size) == 0
                                    : !tasm::printed(f, w) || unused_zero(inst, f, w))
      continue;
    out += ' ';
    out += tasm::print_name(f, gen);
    out += '=';
    tasm::print_value(out, f, w, fields, gen);
  }
}

/// "INVALID on mariana: a, b" naming each failing predicate once; empty when the word is valid.
std::string verdict_note(const Instruction& inst, Generation gen, const ValidateOptions& options) {
  const Verdict v = validate(inst, gen, options);
  if (v.valid) return "";
  std::string text = fmt::format("INVALID on {}:", to_string(gen));
  std::vector<std::string_view> named;  // src/dst twins share a name; each is written once
  for (const Predicate* p : v.failures()) {
    if (std::find(named.begin(), named.end(), p->name) != named.end()) continue;
    text += named.empty() ? " " : ", ";
    text += p->name;
    named.push_back(p->name);
  }
  if (v.truncated) text += ", ...";
  return text;
}

}  // namespace

std::string disassemble(const Instruction& given, Generation gen, const DisasmOptions& options) {
  const Word word = encode(given);
  Instruction redecoded;
  const Instruction* inst = &given;
  if (given.gen != gen) {
    redecoded = decode(std::span<const uint8_t, kWordBytes>(word), gen);
    inst = &redecoded;
  }
  std::string out;
  out.reserve(320);
  std::string notes;
  if (inst->status == DecodeStatus::Modeled) {
    print_modeled(out, *inst, word, gen);
  } else {
    print_raw(out, word);
    if (options.raw_notes) notes = raw_note(*inst, gen);
  }
  if (options.verdicts) {
    const std::string verdict = verdict_note(*inst, gen, options.validate);
    if (!verdict.empty()) notes += (notes.empty() ? "" : "; ") + verdict;
  }
  if (!notes.empty()) out += std::string(kCommentLead) + notes;
  return out;
}

std::string disassemble(std::span<const uint8_t, kWordBytes> word, Generation gen, const DisasmOptions& options) {
  return disassemble(decode(word, gen), gen, options);
}

}  // namespace tpbisa
