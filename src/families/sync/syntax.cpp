// Sync family syntax: quiet operands, the meanings of fields that depend on their neighbours (read through
// reading.hpp, as the validator reads them) and the waits/updates beyond EVENTS, in the EVENTS notation.
#include <fmt/format.h>

#include "families/family.hpp"
#include "families/sync/reading.hpp"
#include "tpbisa/address.hpp"
#include "tpbisa/describe.hpp"

namespace tpbisa::family {
namespace {

using namespace sync;

// ---- EVENT_SEMAPHORE's extended lane ----

// What a mode does is its catalog row (the lane's modes are members of the generation's enums when these ask).
bool wait_uses_event(uint8_t mode) {
  const WaitModeInfo* m = wait_mode_info(mode);
  return m != nullptr && m->kind == WaitKind::Event;
}
bool wait_operand_is(uint8_t mode, ModeOperand form) {
  const WaitModeInfo* m = wait_mode_info(mode);
  return m != nullptr && m->operand == form;
}
UpdateAction update_action(uint8_t mode) {
  const UpdateModeInfo* m = update_mode_info(mode);
  return m != nullptr ? m->action : UpdateAction::None;
}
bool update_operand_is_register(uint8_t mode) {
  const UpdateModeInfo* m = update_mode_info(mode);
  return m != nullptr && m->operand == ModeOperand::Register;
}

std::string ext_wait_text(const EventsExtended& x, Generation g) {
  if (!ext_wait_mode_valid(x, g)) return fmt::format("ext.wait_mode={:#04x}(invalid)", x.wait_mode);
  return render_wait(ext_wait(x), g);
}
std::string ext_update_text(const EventsExtended& x, Generation g) {
  if (!ext_update_mode_valid(x, g)) return fmt::format("ext.update_mode={:#04x}(invalid)", x.update_mode);
  return render_update(ext_update(x), g);
}

std::string ctrl_es_meaning(const CtrlEs& s, std::string_view path, Generation g) {
  const EventsExtended& x = s.ext;
  const bool wait_ok = ext_wait_mode_valid(x, g) && !wait_never_blocks(x.wait_mode);
  const bool update_ok = ext_update_mode_valid(x, g) && !update_is_none(x.update_mode);
  if (path == "ext.wait_mode") {
    if (!ext_wait_mode_valid(x, g)) return "";  // the role's text says which enum lacks it
    if (!wait_ok)
      return wait_mode_info(x.wait_mode)->kind == WaitKind::None ? "NONE: no second wait" : "UNORDERED: no second wait";
    return fmt::format("second wait lane: {} (both waits must hold, PROJ-CONV-F3)", ext_wait_text(x, g));
  }
  if (path == "ext.wait_idx") {
    if (wait_ok && waits_on_semaphore(x.wait_mode)) return fmt::format("semaphore {} (second wait)", x.wait_idx);
    if (wait_ok && wait_uses_event(x.wait_mode)) return fmt::format("event {} (second wait)", x.wait_idx);
    return "unused by the extended wait mode";
  }
  if (path == "ext.sem_wait_value") {
    if (!wait_ok || !waits_on_semaphore(x.wait_mode)) return "unused by the extended wait mode";
    if (wait_operand_is(x.wait_mode, ModeOperand::Register))
      return fmt::format("second wait comparand r{} (PROJ-CONV-C3: register = value & 0xFF)", x.sem_wait_value & 0xFF);
    if (wait_operand_is(x.wait_mode, ModeOperand::RegisterOffset))
      return fmt::format("second wait comparand r{} + {:#x} (PROJ-CONV-C5)", x.sem_wait_value & 0xFF,
                         x.sem_wait_value >> 8);
    return fmt::format("second wait comparand {}", x.sem_wait_value);
  }
  if (path == "ext.update_mode") {
    if (!ext_update_mode_valid(x, g)) return "";
    if (!update_ok) return "NONE: no extended update";
    return fmt::format("extended update: {} (after the lane-0 update, PROJ-CONV-F3)", ext_update_text(x, g));
  }
  if (path == "ext.update_idx") {
    if (!update_ok) return "unused by the extended update mode";
    return fmt::format("{} {} (extended update)", updates_event(update_action(x.update_mode)) ? "event" : "semaphore",
                       x.update_idx);
  }
  if (path == "ext.sem_update_value") {
    if (!update_ok) return "unused by the extended update mode";
    if (!takes_operand(update_action(x.update_mode))) return "ignored by this update mode";
    if (update_operand_is_register(x.update_mode))
      return fmt::format("update operand r{} (PROJ-CONV-C3: register = value & 0xFF)", x.sem_update_value & 0xFF);
    return fmt::format("update operand {}", x.sem_update_value);
  }
  return "";
}

std::string ctrl_es_more_events(const CtrlEs& s, Generation g) {
  const std::string wait = ext_wait_text(s.ext, g);
  const std::string update = ext_update_text(s.ext, g);
  return wait.empty() || update.empty() ? wait + update : wait + " " + update;
}

// ---- PSEUDO_DMA_DIRECT2D ----

std::string_view kind_text(OperandKind k) {
  switch (k) {
    case OperandKind::Variable: return "VAR_ID: id is a variable";
    case OperandKind::DgeImmediate: return "DGE_IMM: id is a DGE-table entry";
    case OperandKind::DgeRegister: return "DGE table, offset from a register";
    case OperandKind::Unknown: break;
  }
  return "not a PSEUDO_ADDR8 mode";
}

std::string where(const OperandReading& r) {
  switch (r.kind) {
    case OperandKind::Variable:
      return r.id == kStateBufferVarId ? std::string("variable 0 (the state buffer)")
                                       : fmt::format("variable {}", r.id);
    case OperandKind::DgeImmediate:
    case OperandKind::DgeRegister: return fmt::format("the variable DGE-table entry {} names", r.id);
    case OperandKind::Unknown: break;
  }
  return "an operand of unknown mode";
}

/// The bytes one side touches, in plain terms: SBUF partitions and bytes for the state buffer, else offsets.
std::string side_range(const DmaSide& s, Generation g) {
  const OperandReading r = read_operand(s.operand);
  const uint64_t esz = chunk_bytes(s.elem_size);
  if (!counts_nonzero(s)) return "no bytes (a count is zero)";
  if (r.kind == OperandKind::Variable && r.id == kStateBufferVarId && !r.register_pair) {
    const Geometry& geo = geometry(g);
    const PartitionAddress first = decode_partition_offset(static_cast<uint32_t>(r.offset), g);
    if (s.step[0] == static_cast<int32_t>(geo.sbuf_partition_size) && s.num[1] == 1 && first.region == Region::Sbuf)
      return fmt::format("SBUF partitions {}-{}, bytes {:#x}-{:#x} of each", first.partition,
                         first.partition + s.num[0] - 1, first.offset, first.offset + esz - 1);
    return fmt::format("state-buffer chunks from {}", to_string(first));
  }
  const int64_t last = int64_t{s.num[0] - 1} * s.step[0] + int64_t{s.num[1] - 1} * s.step[1];
  if (s.step[0] >= 0 && s.step[1] >= 0)
    return fmt::format("bytes {:#x}-{:#x} of {}", r.offset, r.offset + static_cast<uint64_t>(last) + esz - 1, where(r));
  return fmt::format("chunks from byte {:#x} of {}", r.offset, where(r));
}

std::string elem_size_meaning(const DmaSide& s, std::string_view side, Generation g) {
  const uint64_t esz = chunk_bytes(s.elem_size);
  std::string text = s.elem_size == 0 ? std::string("0 = 65536 contiguous bytes per chunk")
                                      : fmt::format("{} contiguous bytes per chunk", esz);
  uint64_t elements = 0;
  const bool counted = element_count(s, elements);
  text += fmt::format("; {} {} x {} chunks = {} bytes", side == "src" ? "reads" : "writes", s.num[0], s.num[1],
                      total_bytes(s));
  if (counted) text += fmt::format(" ({} elements)", elements);
  return text + ": " + side_range(s, g);
}

std::string offset_reg_meaning(uint8_t b) {
  const OffsetRegister r = read_offset_register(b);
  if (b == 0) return "no dynamic offset";
  if (!r.present) return fmt::format("bit 7 clear: no register offset (other bits {:#04x})", b);
  return fmt::format("the offset is increased by r{}{}", r.reg, r.mode_bit ? " (bit 6 set: meaning UNKNOWN)" : "");
}

std::string operand_meaning(const PseudoAddr8& a, std::string_view leaf, Generation g) {
  const OperandReading r = read_operand(a);
  if (leaf == "mode") {
    std::string text = fmt::format("{}", kind_text(r.kind));
    if (r.kind == OperandKind::Unknown) return text;
    if (r.register_pair) text += " + 0x04 register pair";
    if (r.transpose) text += " + 0x40 move/transpose variant";
    return text;
  }
  if (leaf == "id") {
    switch (r.kind) {
      case OperandKind::Variable:
        return r.id == kStateBufferVarId ? std::string("variable id 0: the state buffer (a def.json var_id)")
                                         : fmt::format("variable id {} (a def.json var_id)", r.id);
      case OperandKind::DgeImmediate:
      case OperandKind::DgeRegister:
        return fmt::format("DGE-table entry {} of the subgraph's dge-table list (PROJ-CONV-F12)", r.id);
      case OperandKind::Unknown: break;
    }
    return "read by the mode, which is unknown";
  }
  if (leaf == "id_hi") return fmt::format("high byte of a variable id wider than 16 bits (id = {})", r.id);
  if (leaf == "offset") {
    switch (r.kind) {
      case OperandKind::Variable:
        if (r.id == kStateBufferVarId)
          return "PartitionOffset in the state buffer: " +
                 to_string(decode_partition_offset(static_cast<uint32_t>(r.offset), g));
        return fmt::format("byte {:#x} of variable {}", r.offset, r.id);
      case OperandKind::DgeImmediate: return fmt::format("byte {:#x} of {}", r.offset, where(r));
      case OperandKind::DgeRegister: return fmt::format("{:#x}: the offset comes from a register", r.offset);
      case OperandKind::Unknown: break;
    }
    return "read by the mode, which is unknown";
  }
  return "";
}

std::string bytes(int64_t n) {
  return fmt::format("{} byte{}", n, n == 1 || n == -1 ? "" : "s");
}

std::string dma_meaning(const PseudoDmaDirect2d& d, std::string_view path, Generation g) {
  const std::pair<std::string_view, DmaSide> sides[] = {{"src", src_side(d)}, {"dst", dst_side(d)}};
  for (const auto& [side, s] : sides) {
    const std::string prefix = std::string(side) + ".";
    if (path.starts_with(prefix)) return operand_meaning(s.operand, path.substr(prefix.size()), g);
    const std::string stem = std::string(side) + "_";
    if (!path.starts_with(stem)) continue;
    const std::string_view rest = path.substr(stem.size());
    if (rest == "step[0]") return fmt::format("stride {} between the chunks of a row", bytes(s.step[0]));
    if (rest == "step[1]") return fmt::format("stride {} between rows", bytes(s.step[1]));
    if (rest == "num[0]") return fmt::format("{} chunk{} per row", s.num[0], s.num[0] == 1 ? "" : "s");
    if (rest == "num[1]") return fmt::format("{} row{}", s.num[1], s.num[1] == 1 ? "" : "s");
    if (rest == "elem_size") return elem_size_meaning(s, side, g);
    if (rest == "offset_reg") return offset_reg_meaning(s.offset_reg);
    if (rest == "dtype" && side == "dst" && d.dst_dtype != d.src_dtype)
      return describe_dtype(d.dst_dtype, g) + " (differs from src_dtype: the DMA converts, PROJ-CONV-F11)";
    return "";
  }
  if (path == "qos_flags")
    return fmt::format("QoS class {}, flags {:#04x} (ignored, PROJ-CONV-F10)", d.qos_flags & 0x7, d.qos_flags >> 3);
  if (path == "semaphore")
    return fmt::format("semaphore {} is increased by sem_increment when the transfer completes", d.semaphore);
  if (path == "sem_increment")
    return fmt::format("added to semaphore {} on completion (the num_queues of its queue set)", d.semaphore);
  if (path == "command") {
    if (command_is_copy(d.command)) return "copy / convert (PROJ-CONV-F10)";
    if (d.command == 1) return "transpose: not modelled, an executor refuses it (PROJ-CONV-F10)";
    return "unknown DMA command: an executor refuses it (PROJ-CONV-F10)";
  }
  return "";
}

// ---- The hooks ----

std::string meaning(const Instruction& inst, std::string_view path) {
  const Generation g = inst.gen;
  if (const auto* es = inst.as<CtrlEs>()) return ctrl_es_meaning(*es, path, g);
  if (const auto* d = inst.as<PseudoDmaDirect2d>()) return dma_meaning(*d, path, g);
  if (const auto* m = inst.as<SetOrderingMode>(); m != nullptr && path == "ordering_mode")
    return fmt::format(
        "ordering mode {}: meaning UNKNOWN (0 in compiled programs); any value is valid and executes "
        "as a no-op (PROJ-CONV-F6)",
        m->ordering_mode);
  if (const auto* l = inst.as<PseudoBranchLabel>()) {
    if (path == "label_id")
      return fmt::format(
          "branch label {} (PROJ-CONV-F7: u32 at byte 12, 0 = the entry label; the runtime records "
          "the position and deletes the word)",
          l->label_id);
    if (path == "payload") return "label payload: layout UNKNOWN, not inspected (PROJ-CONV-F7)";
  }
  return "";
}

std::string more_events(const Instruction& inst) {
  if (const auto* es = inst.as<CtrlEs>()) return ctrl_es_more_events(*es, inst.gen);
  if (const auto* d = inst.as<PseudoDmaDirect2d>())  // the completion increment, as neff sems and run reports write it
    return fmt::format("$S[{}]+={}@dma-complete", d->semaphore, d->sem_increment);
  return "";
}

constexpr std::string_view kQuiet[] = {
    "ext.wait_mode",        "ext.wait_idx",   "ext.update_mode", "ext.update_idx", "ext.sem_wait_value",
    "ext.sem_update_value", "payload",        "qos_flags",       "command",        "src.id_hi",
    "src_offset_reg",       "dst_offset_reg", "dst.id_hi",
};

// The extended lane's modes are named by the EVENTS tables; the DMA's code and flag bytes read in hex (their
// meanings are the family's, above).
constexpr CustomField kCustom[] = {
    {.path = "ext.wait_mode", .names = kWaitModes, .names_what = "WAIT_MODE"},
    {.path = "ext.update_mode", .names = kUpdateModes, .names_what = "UPDATE_MODE"},
};
constexpr std::string_view kHex[] = {"qos_flags", "src.mode", "src_offset_reg", "dst.mode", "dst_offset_reg"};

constexpr Syntax kSyntax{
    .note =
        "EVENT_SEMAPHORE's extended lane is written as ext.* operands, printed when not zero; decode summarises "
        "both lanes (and a pseudo DMA's completion increment) in the EVENTS notation",
    .quiet_fields = kQuiet,
    .hex_fields = kHex,
    .meaning = meaning,
    .more_events = more_events,
    .custom_fields = kCustom};

}  // namespace

const Syntax& SyncFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
