// Generic description of a decoded word: a walk over the format descriptors, meanings by field Role.
#include "tpbisa/describe.hpp"

#include <bit>
#include <optional>
#include <span>

#include <fmt/format.h>

#include "families/family.hpp"
#include "text/patterns.hpp"
#include "tpbisa/address.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa {
namespace {

// ---- The walk: descriptors only, values read from the encoded word ----

// Arrays that are one value rather than a list of numbers keep their raw bytes.
bool is_byte_leaf(const FieldDesc& f) {
  return f.role == Role::Reserved || f.role == Role::Raw || f.role == Role::MemData;
}

DescribedField int_leaf(std::string name, unsigned at, unsigned width, bool is_signed, Role role, const Word& w) {
  DescribedField v;
  v.name = std::move(name);
  v.offset = static_cast<uint8_t>(at);
  v.size = static_cast<uint8_t>(width);
  v.role = role;
  for (unsigned i = 0; i < width; ++i) v.u |= uint64_t{w[at + i]} << (8 * i);
  if (is_signed) {
    const unsigned shift = 64 - 8 * width;
    v.kind = ValueKind::Signed;
    v.s = static_cast<int64_t>(v.u << shift) >> shift;
  }
  return v;
}

DescribedField bytes_leaf(std::string name, unsigned at, const FieldDesc& f, const Word& w) {
  DescribedField v;
  v.name = std::move(name);
  v.offset = static_cast<uint8_t>(at);
  v.size = f.size;
  v.role = f.role;
  v.kind = ValueKind::Bytes;
  v.bytes.assign(w.begin() + at, w.begin() + at + f.size);
  return v;
}

/// A leaf plus its element index inside an array field (-1 for scalars), which names its dimension.
struct Leaf {
  DescribedField value;
  int element = -1;
};

void walk(const FormatDesc& desc, unsigned base, const std::string& prefix, const Word& w, std::vector<Leaf>& out) {
  for (const FieldDesc& f : desc.fields) {
    const unsigned at = base + f.offset;
    std::string path = prefix + std::string(f.name);
    if (f.sub != nullptr) {
      walk(*f.sub, at, path + ".", w, out);
    } else if (is_byte_leaf(f)) {
      out.push_back({bytes_leaf(std::move(path), at, f, w), -1});
    } else if (f.count == 1) {
      out.push_back({int_leaf(std::move(path), at, f.elem_size, f.is_signed, f.role, w), -1});
    } else {
      for (unsigned i = 0; i < f.count; ++i)
        out.push_back(
            {int_leaf(fmt::format("{}[{}]", path, i), at + i * f.elem_size, f.elem_size, f.is_signed, f.role, w),
             static_cast<int>(i)});
    }
  }
}

const FormatDesc& desc_of(const Instruction& inst) {
  return std::visit([](const auto& s) -> const FormatDesc& { return format_desc<std::decay_t<decltype(s)>>(); },
                    inst.body);
}

// ---- Enum and table meanings ----

std::string enum_meaning(std::span<const EnumValue> table, uint64_t value, Generation g, std::string_view what) {
  const EnumValue* row = nullptr;
  for (const EnumValue& r : table)
    if (row == nullptr && r.value == value) row = &r;
  if (row == nullptr) return fmt::format("not a {} value", what);
  if (!row->gens.has(g))
    return fmt::format("not a {} of {} ({} exists on {})", what, to_string(g), row->name, generation_list(row->gens));
  if (!row->convention.empty()) return fmt::format("{} ({})", row->name, row->convention);
  return std::string(row->name);
}

std::string aluop_meaning(uint8_t code, Generation g) {
  const AluOpInfo* row = find_aluop(code);
  if (row == nullptr) return fmt::format("not an ALU op of {}", to_string(g));
  if (!row->gens.has(g))
    return fmt::format("not an ALU op of {} ({} exists on {})", to_string(g), row->name, generation_list(row->gens));
  return fmt::format("{} ({})", row->name, row->computes);
}

constexpr std::array<std::string_view, 4> kDimNames{"X", "Y", "Z", "W"};

std::string_view dim_name(int element) {
  return element >= 0 && element < 4 ? kDimNames[static_cast<size_t>(element)] : "?";
}

// ---- EVENTS classification: the catalog's mode rows (shared by the meanings and the text syntax) ----

enum class WaitForm : uint8_t { None, SemImm, SemReg, SemRegOffset, Event, Unordered, Invalid };

std::string_view event_wait_text(EventWait e) {
  for (const auto& s : kEventWaits)
    if (s.wait == e) return s.text;
  return "?";
}

// Membership is the generation's enum; what the mode does is its catalog row.
WaitForm wait_form(uint8_t mode, Generation g) {
  if (!wait_mode_in(mode, g)) return WaitForm::Invalid;
  const WaitModeInfo& m = *wait_mode_info(mode);
  switch (m.kind) {
    case WaitKind::None: return WaitForm::None;
    case WaitKind::Unordered: return WaitForm::Unordered;
    case WaitKind::Event: return WaitForm::Event;
    case WaitKind::Semaphore: break;
  }
  switch (m.operand) {
    case ModeOperand::Immediate: return WaitForm::SemImm;
    case ModeOperand::Register: return WaitForm::SemReg;
    case ModeOperand::RegisterOffset: return WaitForm::SemRegOffset;
    case ModeOperand::None: break;
  }
  return WaitForm::Invalid;
}

struct UpdateForm {
  const UpdateSyntax* op = nullptr;  ///< nullptr: NONE
  bool reg = false;
  bool complete = false;
  bool event = false;
  bool takes_value = false;
};

std::optional<UpdateForm> update_form(uint8_t mode, Generation g) {
  if (!update_mode_in(mode, g)) return std::nullopt;
  const UpdateModeInfo& m = *update_mode_info(mode);
  UpdateForm form;
  if (m.action == UpdateAction::None) return form;
  for (const auto& op : kUpdateOps)
    if (op.action == m.action) form.op = &op;
  if (form.op == nullptr) return std::nullopt;
  form.reg = m.operand == ModeOperand::Register;
  form.complete = m.at_completion;
  form.event = updates_event(m.action);
  form.takes_value = takes_operand(m.action);
  return form;
}

uint8_t reg_of(uint32_t value) {
  return static_cast<uint8_t>(value & 0xFF);
}  // PROJ-CONV-C3

// ---- Meanings of the EVENTS fields ----

std::string wait_idx_meaning(const Events& e, Generation g) {
  switch (wait_form(e.wait_mode, g)) {
    case WaitForm::SemImm:
    case WaitForm::SemReg:
    case WaitForm::SemRegOffset: return fmt::format("semaphore {}", e.wait_idx);
    case WaitForm::Event: return fmt::format("event {}", e.wait_idx);
    case WaitForm::None:
    case WaitForm::Unordered:
    case WaitForm::Invalid: break;
  }
  return "unused by the wait mode";
}

std::string update_idx_meaning(const Events& e, Generation g) {
  const auto form = update_form(e.update_mode, g);
  if (!form || form->op == nullptr) return "unused by the update mode";
  return fmt::format("{} {}", form->event ? "event" : "semaphore", e.update_idx);
}

// Register forms name the register by the value's low byte (PROJ-CONV-C3); the note is given once.
constexpr std::string_view kRegisterNote = " (PROJ-CONV-C3: register = value & 0xFF)";

std::string wait_value_use(const Events& e, Generation g, bool& reg_form) {
  const uint32_t v = e.semaphore_value;
  switch (wait_form(e.wait_mode, g)) {
    case WaitForm::SemImm: return fmt::format("wait comparand {}", v);
    case WaitForm::SemReg: reg_form = true; return fmt::format("wait comparand r{}", reg_of(v));
    case WaitForm::SemRegOffset:
      return fmt::format("wait comparand r{} + {:#x} (PROJ-CONV-C5: reg = low byte, off = upper 24 bits)", reg_of(v),
                         v >> 8);
    default: return "";
  }
}

std::string update_value_use(const Events& e, Generation g, bool& reg_form) {
  const auto form = update_form(e.update_mode, g);
  if (!form || form->op == nullptr || !form->takes_value) return "";
  if (!form->reg) return fmt::format("update operand {}", e.semaphore_value);
  reg_form = true;
  return fmt::format("update operand r{}", reg_of(e.semaphore_value));
}

std::string sem_value_meaning(const Events& e, Generation g) {
  bool reg_form = false;
  const std::string wait = wait_value_use(e, g, reg_form);
  const std::string update = update_value_use(e, g, reg_form);
  if (wait.empty() && update.empty()) return "unused by the wait and update modes";
  const std::string both = wait.empty() || update.empty() ? wait + update : wait + "; " + update;
  return reg_form ? both + std::string(kRegisterNote) : both;
}

// ---- Meanings of operand fields ----

// Siblings are found by role among the top-level leaves (no '.' in the path), so the rules below hold
// for any format that declares such fields, not for one struct's field names.
bool top_level(const DescribedField& f) {
  return f.name.find('.') == std::string::npos;
}

const DescribedField* sibling(const std::vector<Leaf>& all, Role role, std::string_view prefix = "") {
  for (const auto& l : all)
    if (l.value.role == role && top_level(l.value) && l.value.name.starts_with(prefix)) return &l.value;
  return nullptr;
}

/// The reading of an IMM_VAL field is its family's decision (family::imm_reading), shared with the validator and
/// the disassembler.
std::string imm_meaning(const DescribedField& f, const Word& w, Generation g) {
  const ImmVal imm{static_cast<uint32_t>(f.u)};
  std::string text = fmt::format("fp32 {} | u32 {:#010x}", imm.as_fp32(), imm.raw);
  switch (family::imm_reading(w, f.name)) {
    case ImmReading::Pointer: text += "; pointer " + to_string(decode_partition_offset(imm.raw, g)); break;
    case ImmReading::Register: text += fmt::format("; register pointer r{}", imm.regnum()); break;
    case ImmReading::Value: break;
  }
  return text;
}

std::string reserved_meaning(const DescribedField& f) {
  for (uint8_t b : f.bytes)
    if (b != 0) return "reserved (must be zero)";
  return "reserved";
}

std::string channels_meaning(uint64_t n, Generation g) {
  const unsigned max = geometry(g).channels;
  if (n >= 1 && n <= max) return fmt::format("{} active partitions (channels)", n);
  return fmt::format("{} active partitions: outside 1..{}", n, max);
}

uint64_t field_u(const std::vector<Leaf>& all, Role role, uint64_t fallback) {
  const DescribedField* f = sibling(all, role);
  return f != nullptr ? f->u : fallback;
}

std::string data_registers(const DescribedField& f, unsigned used, unsigned cap, bool pairs) {
  std::string text = "registers";
  for (unsigned k = 0; k < used; ++k)
    text += pairs ? fmt::format(" r{}:r{}", f.bytes[k], f.bytes[k] + 1) : fmt::format(" r{}", f.bytes[k]);
  return text + fmt::format(" ({} of {} slots used)", used, cap);
}

std::string immediate_element(std::span<const uint8_t> bytes, const DtypeInfo& d) {
  uint64_t u = 0;
  for (size_t i = 0; i < bytes.size(); ++i) u |= uint64_t{bytes[i]} << (8 * i);
  const unsigned bits = 8 * static_cast<unsigned>(bytes.size());
  if (d.code == dtype::kFp32) return fmt::format("{}", std::bit_cast<float>(static_cast<uint32_t>(u)));
  if (d.kind == DtypeKind::SInt) {
    const unsigned shift = 64 - bits;
    return fmt::format("{}", static_cast<int64_t>(u << shift) >> shift);
  }
  if (d.kind == DtypeKind::UInt) return fmt::format("{}", u);
  return fmt::format("{:#0{}x}", u, 2 + bits / 4);
}

std::string data_immediates(const DescribedField& f, const DataReading& r, const DtypeInfo& d) {
  std::string text = fmt::format("immediates {}:", d.short_name);
  for (unsigned k = 0; k < r.used; ++k) {
    text += ' ';  // appended in place: GCC 12 at -O3 misreads `" " + std::string` (a -Wrestrict false positive)
    text += immediate_element(std::span<const uint8_t>(f.bytes).subspan(k * r.elem, r.elem), d);
  }
  return text + fmt::format(" ({} of {} slots used)", r.used, r.cap);
}

/// The reading of a MEM2D_DATA field is its family's decision (family::data_reading), shared with the validator,
/// the executor and the assembler; the sibling fields only word the text.
std::string data_meaning(const DescribedField& f, const std::vector<Leaf>& all, const Word& w) {
  const DataReading r = family::data_reading(w);
  const DtypeInfo* d = find_dtype(static_cast<uint8_t>(field_u(all, Role::Dtype, 0)));
  switch (r.view) {
    case DataView::Registers: return data_registers(f, r.used, r.cap, r.pairs);
    case DataView::Immediates:
      if (d != nullptr) return data_immediates(f, r, *d);
      break;
    case DataView::Bytes: break;
  }
  if (field_u(all, Role::DataSrc, 0) == family::mem2d::kDataSrcImmediate)
    return "immediate bytes (the dtype has no element size)";
  return "payload (src_datasrc is not a DATA_SRC value)";
}

std::string word_len_meaning(uint64_t v) {
  if (v == kInstWordLen) return fmt::format("{} words of 4 bytes", kInstWordLen);
  return fmt::format("must be {} (words of 4 bytes)", kInstWordLen);
}

std::string debug_hint_meaning(Generation g) {
  // PROJ-CONV-C2: MAVERICK's inst_flags overlays this byte.
  if (g == Generation::Maverick) return "inst_flags (opaque tile id, PROJ-CONV-C2)";
  return "free-form debug tag";
}

std::string raw_meaning(const Instruction& inst) {
  if (inst.status == DecodeStatus::Unknown) return "operand bytes of an opcode unknown to this generation";
  if (inst.info != nullptr && !inst.info->layout_not_public.empty())
    return fmt::format("{}; settled by {}", raw_operands_note(inst.info), inst.info->layout_not_public);
  return std::string(raw_operands_note(inst.info));
}

std::string step_meaning(const DescribedField& f, int element) {
  const bool one = f.s == 1 || f.s == -1;
  return fmt::format("stride {} element{} along {}", f.s, one ? "" : "s", dim_name(element));
}

std::string zero_flag_meaning(const DescribedField& f) {
  if (f.u == 0) return "off";
  return fmt::format("set ({}; must be 0)", f.u);
}

std::string meaning_of(const Leaf& leaf, const std::vector<Leaf>& all, const Instruction& inst, const Word& w) {
  const DescribedField& f = leaf.value;
  const Generation g = inst.gen;
  const uint8_t byte = static_cast<uint8_t>(f.u);
  switch (f.role) {
    case Role::Opcode: return describe_opcode(byte, g);
    case Role::WordLen: return word_len_meaning(f.u);
    case Role::DebugCmd: return enum_meaning(kDebugCmdLevels, f.u, g, "DEBUG_CMD_LEVELS");
    case Role::DebugHint: return debug_hint_meaning(g);
    case Role::WaitMode: return enum_meaning(kWaitModes, f.u, g, "WAIT_MODE");
    case Role::WaitIdx: return wait_idx_meaning(inst.events(), g);
    case Role::UpdateMode: return enum_meaning(kUpdateModes, f.u, g, "UPDATE_MODE");
    case Role::UpdateIdx: return update_idx_meaning(inst.events(), g);
    case Role::SemValue: return sem_value_meaning(inst.events(), g);
    case Role::Dtype: return describe_dtype(byte, g);
    case Role::DataSrc: return enum_meaning(kDataSrc, f.u, g, "DATA_SRC");
    case Role::NumElem: return fmt::format("elements along {}", dim_name(leaf.element));
    case Role::Step: return step_meaning(f, leaf.element);
    case Role::Addr4: return to_string(describe(Addr4{static_cast<uint32_t>(f.u)}, g));
    case Role::Addr8: return to_string(describe(Addr8{f.u}, g));
    case Role::ImmVal: return imm_meaning(f, w, g);
    case Role::ImmSrc: return enum_meaning(kImmSrc, f.u, g, "IMM_SRC");
    case Role::Channels: return channels_meaning(f.u, g);
    case Role::AluOp: return aluop_meaning(byte, g);
    case Role::Subdim: return enum_meaning(kTensorSubdim, f.u, g, "TENSOR_SUBDIM");
    case Role::RevOps: return enum_meaning(kRevOps, f.u, g, "TENS_SCALAR_REV_OPS");
    case Role::Reserved: return reserved_meaning(f);
    case Role::MemData: return data_meaning(f, all, w);
    case Role::VarId: return "compiler variable id (patched by the runtime)";
    case Role::VarOffset: return "byte offset inside the variable";
    case Role::Raw: return raw_meaning(inst);
    case Role::ZeroFlag: return zero_flag_meaning(f);
    case Role::Custom: break;  // the family's meaning (Syntax::meaning), or its entry's names (describe_fields)
    case Role::Plain: return std::string(family::plain_meaning(w, f.name));  // the family's words, if any
  }
  return "";
}

bool shown_in_hex(Role r) {
  switch (r) {
    case Role::Opcode:
    case Role::DebugCmd:
    case Role::DebugHint:
    case Role::WaitMode:
    case Role::UpdateMode:
    case Role::Dtype:
    case Role::DataSrc:
    case Role::Addr4:
    case Role::Addr8:
    case Role::ImmVal:
    case Role::ImmSrc:
    case Role::AluOp:
    case Role::Subdim:
    case Role::RevOps:
    case Role::VarId:
    case Role::Custom: return true;
    default: return false;
  }
}

std::string hex_bytes(const std::vector<uint8_t>& bytes) {
  std::string text;
  text.reserve(2 * bytes.size());
  for (uint8_t b : bytes) text += fmt::format("{:02x}", b);
  return text;
}

// ---- The indirect arm of a MEM_PATTERN operand (common-formats.md §6.2) ----

std::string location_text(uint32_t raw, Generation g) {
  return to_string(describe(Addr4{raw}, g));
}

/// The four leaves of an operand read as the indirect arm: index, data, number of indices, unused bytes.
std::vector<DescribedField> indirect_leaves(const text::PatternOperand& p, const Word& w, Generation g) {
  const std::string stem = std::string(p.name) + ".";
  auto field = [&](std::string_view name, unsigned at, unsigned size, Role role) {
    DescribedField f = int_leaf(stem + std::string(name), p.offset + at, size, false, role, w);
    return f;
  };
  std::vector<DescribedField> out;
  DescribedField index = field("index", text::kIndirectIndexAt, 4, Role::Addr4);
  index.meaning = fmt::format("indirect MEM_PATTERN arm (MARIANA+, marker 0x20): index list at {}",
                              location_text(static_cast<uint32_t>(index.u) & text::kAddressBits, g));
  out.push_back(std::move(index));
  DescribedField data = field("data", text::kIndirectDataAt, 4, Role::Addr4);
  data.meaning =
      fmt::format("data at {}; out[p][i] = data[p][index[p][i]]", location_text(static_cast<uint32_t>(data.u), g));
  out.push_back(std::move(data));
  DescribedField count = field("num_indices", text::kIndirectCountAt, 2, Role::Plain);
  count.meaning = fmt::format("{} indices per partition", count.u);
  out.push_back(std::move(count));
  DescribedField unused;
  unused.name = stem + "unused";
  unused.offset = static_cast<uint8_t>(p.offset + text::kIndirectUnusedAt);
  unused.size = static_cast<uint8_t>(p.size - text::kIndirectUnusedAt);
  unused.role = Role::Reserved;
  unused.kind = ValueKind::Bytes;
  unused.bytes.assign(w.begin() + unused.offset, w.begin() + unused.offset + unused.size);
  unused.meaning = "unused by the indirect arm (PROJ-CONV-C9: opaque, encoders write zero)";
  out.push_back(std::move(unused));
  return out;
}

/// The operand a leaf belongs to when that operand is read as the indirect arm; nullptr otherwise.
const text::PatternOperand* indirect_owner(const DescribedField& f, std::span<const text::PatternOperand> patterns,
                                           const Word& w, Generation g) {
  for (const auto& p : patterns)
    if (f.offset >= p.offset && f.offset < p.offset + p.size && f.name.starts_with(std::string(p.name) + ".") &&
        text::reads_indirect(p, w, g))
      return &p;
  return nullptr;
}

}  // namespace

std::vector<DescribedField> describe_fields(const Instruction& inst) {
  const Word word = encode(inst);
  std::vector<Leaf> leaves;
  walk(desc_of(inst), 0, "", word, leaves);
  const std::span<const text::PatternOperand> patterns = text::pattern_operands(inst);
  std::vector<DescribedField> out;
  out.reserve(leaves.size());
  // A family that reads some fields by their neighbours says so in one function (Syntax::meaning).
  const auto family_meaning = family::meaning_hook(inst);
  const text::PatternOperand* shown = nullptr;  // the indirect operand whose leaves were last written
  for (const Leaf& leaf : leaves) {
    if (const text::PatternOperand* p = indirect_owner(leaf.value, patterns, word, inst.gen)) {
      if (p != shown)
        for (DescribedField& f : indirect_leaves(*p, word, inst.gen)) out.push_back(std::move(f));
      shown = p;
      continue;
    }
    DescribedField v = leaf.value;
    if (family_meaning != nullptr) v.meaning = family_meaning(inst, v.name);
    if (v.meaning.empty() && v.role == Role::Custom)
      if (const family::CustomField* c = family::custom_field(inst.body.index(), v.name); c && !c->names.empty())
        v.meaning = enum_meaning(c->names, v.u, inst.gen, c->names_what);
    if (v.meaning.empty()) v.meaning = meaning_of(leaf, leaves, inst, word);
    out.push_back(std::move(v));
  }
  return out;
}

std::string render_instruction_events(const Instruction& inst) {
  std::string text = render_events(inst.events(), inst.gen);
  const auto more_events = family::more_events_hook(inst);
  if (more_events == nullptr) return text;
  const std::string more = more_events(inst);
  if (more.empty()) return text;
  return text.empty() ? more : text + " " + more;
}

std::string format_value(const DescribedField& f) {
  switch (f.kind) {
    case ValueKind::Bytes: return hex_bytes(f.bytes);
    case ValueKind::Signed: return fmt::format("{}", f.s);
    case ValueKind::Unsigned: break;
  }
  if (!shown_in_hex(f.role)) return fmt::format("{}", f.u);
  return f.size == 1 ? fmt::format("{:#04x}", f.u) : fmt::format("{:#x}", f.u);
}

std::string format_hex(const DescribedField& f) {
  if (f.kind == ValueKind::Bytes) return hex_bytes(f.bytes);
  return fmt::format("0x{:0{}x}", f.u, 2 * f.size);
}

std::string generation_list(GenSet gens) {
  std::string text;
  for (Generation g : kAllGenerations) {
    if (!gens.has(g)) continue;
    if (!text.empty()) text += ", ";
    text += to_string(g);
  }
  return text.empty() ? "no generation" : text;
}

std::string describe_opcode(uint8_t opcode, Generation g) {
  const OpcodeInfo* row = find_opcode(opcode);
  if (row == nullptr) return fmt::format("not an opcode of {} (no generation has it)", to_string(g));
  if (!row->gens.has(g))
    return fmt::format("not an opcode of {} ({} exists on {})", to_string(g), row->mnemonic,
                       generation_list(row->gens));
  return fmt::format("{} ({})", row->mnemonic, row->enum_name);
}

std::string describe_dtype(uint8_t code, Generation g) {
  const DtypeInfo* row = find_dtype(code);
  if (row == nullptr) return fmt::format("not a dtype of {}", to_string(g));
  if (!row->gens.has(g))
    return fmt::format("not a dtype of {} ({} exists on {})", to_string(g), row->name, generation_list(row->gens));
  if (row->bits == 0) return fmt::format("{} (no element size)", row->name);
  if (row->bits < 8) return fmt::format("{} ({}, {} bits)", row->name, row->short_name, row->bits);
  return fmt::format("{} ({}, {} bytes)", row->name, row->short_name, row->bits / 8);
}

std::string render_wait(const Events& e, Generation g) {
  const uint32_t v = e.semaphore_value;
  const WaitForm form = wait_form(e.wait_mode, g);
  if (form == WaitForm::Invalid) return fmt::format("wait_mode={:#04x}(invalid)", e.wait_mode);
  const WaitModeInfo& m = *wait_mode_info(e.wait_mode);
  const std::string_view cmp = to_string(m.comparator);
  switch (form) {
    case WaitForm::None: return "";
    case WaitForm::Unordered: return std::string(kUnorderedText);
    case WaitForm::Event: return fmt::format("$E[{}]{}", e.wait_idx, event_wait_text(m.event));
    case WaitForm::SemImm: return fmt::format("$S[{}]{}{}", e.wait_idx, cmp, v);
    case WaitForm::SemReg: return fmt::format("$S[{}]{}r{}", e.wait_idx, cmp, reg_of(v));
    case WaitForm::SemRegOffset:
      // The offset is always written, even +0x0, so the form stays distinct from the plain register wait.
      return fmt::format("$S[{}]{}r{}+{:#x}", e.wait_idx, cmp, reg_of(v), v >> 8);
    case WaitForm::Invalid: break;
  }
  return fmt::format("wait_mode={:#04x}(invalid)", e.wait_mode);
}

std::string render_update(const Events& e, Generation g) {
  const auto form = update_form(e.update_mode, g);
  if (!form) return fmt::format("update_mode={:#04x}(invalid)", e.update_mode);
  if (form->op == nullptr) return "";
  const std::string_view when = form->complete ? kAtComplete : kAtRead;
  if (form->event) return fmt::format("$E[{}]{}{}", e.update_idx, form->op->text, when);
  std::string operand;
  if (form->takes_value)
    operand = form->reg ? fmt::format("r{}", reg_of(e.semaphore_value)) : fmt::format("{}", e.semaphore_value);
  return fmt::format("$S[{}]{}{}{}", e.update_idx, form->op->text, operand, when);
}

std::string render_events(const Events& e, Generation g) {
  const std::string wait = render_wait(e, g);
  const std::string update = render_update(e, g);
  if (wait.empty() || update.empty()) return wait + update;
  return wait + " " + update;
}

bool events_render_exact(const Events& e, Generation g) {
  const WaitForm wk = wait_form(e.wait_mode, g);
  const auto uf = update_form(e.update_mode, g);
  if (wk == WaitForm::Invalid || !uf) return false;
  const bool wait_uses_idx = wk != WaitForm::None && wk != WaitForm::Unordered;
  if (!wait_uses_idx && e.wait_idx != 0) return false;
  if (uf->op == nullptr && e.update_idx != 0) return false;
  uint32_t shown = 0;  // semaphore_value bits the text carries
  if (wk == WaitForm::SemImm || wk == WaitForm::SemRegOffset) shown = 0xFFFFFFFFU;
  if (wk == WaitForm::SemReg) shown |= 0xFFU;
  if (uf->op != nullptr && uf->takes_value) shown |= uf->reg ? 0xFFU : 0xFFFFFFFFU;
  return (e.semaphore_value & ~shown) == 0;
}

}  // namespace tpbisa
