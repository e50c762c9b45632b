// Sync family validators: EventSemaphore 0xa0 (PROJ-CONV-F2), SetOrderingMode 0xb1 (F6), PseudoBranchLabel 0xcc
// (F7) and PseudoDmaDirect2d 0xd4 (F8) -- real-programs.md §3.2, §5, §6, §7.2.
#include <algorithm>

#include "families/common.hpp"
#include "families/sync/reading.hpp"

namespace tpbisa::family {
namespace {

// ---- Fields read, from the declarations (no offset is written here) ----

constexpr FieldRef fEsOpcode[] = {field_ref<CtrlEs>("header.opcode")};
constexpr FieldRef fEsExt[] = {field_ref<CtrlEs>("ext.wait_mode"), field_ref<CtrlEs>("ext.update_mode")};
constexpr FieldRef fEsReserved[] = {field_ref<CtrlEs>("reserved0"), field_ref<CtrlEs>("reserved1")};
constexpr FieldRef fSomOpcode[] = {field_ref<SetOrderingMode>("header.opcode")};
constexpr FieldRef fSomReserved[] = {field_ref<SetOrderingMode>("reserved")};
constexpr FieldRef fLabelOpcode[] = {field_ref<PseudoBranchLabel>("header.opcode")};
constexpr FieldRef fDmaOpcode[] = {field_ref<PseudoDmaDirect2d>("header.opcode")};
constexpr FieldRef fDmaUpdate[] = {field_ref<PseudoDmaDirect2d>("events.update_mode")};
constexpr FieldRef fDmaSrcMode[] = {field_ref<PseudoDmaDirect2d>("src.mode")};
constexpr FieldRef fDmaDstMode[] = {field_ref<PseudoDmaDirect2d>("dst.mode")};
constexpr FieldRef fDmaSrcNum[] = {field_ref<PseudoDmaDirect2d>("src_num")};
constexpr FieldRef fDmaDstNum[] = {field_ref<PseudoDmaDirect2d>("dst_num")};
constexpr FieldRef fDmaSrcDtype[] = {field_ref<PseudoDmaDirect2d>("src_dtype")};
constexpr FieldRef fDmaDstDtype[] = {field_ref<PseudoDmaDirect2d>("dst_dtype")};
constexpr FieldRef fDmaSrcBytes[] = {field_ref<PseudoDmaDirect2d>("src_num"),
                                     field_ref<PseudoDmaDirect2d>("src_elem_size"),
                                     field_ref<PseudoDmaDirect2d>("src_dtype")};
constexpr FieldRef fDmaDstBytes[] = {field_ref<PseudoDmaDirect2d>("dst_num"),
                                     field_ref<PseudoDmaDirect2d>("dst_elem_size"),
                                     field_ref<PseudoDmaDirect2d>("dst_dtype")};
constexpr FieldRef fDmaCount[] = {
    field_ref<PseudoDmaDirect2d>("src_num"), field_ref<PseudoDmaDirect2d>("src_elem_size"),
    field_ref<PseudoDmaDirect2d>("dst_num"), field_ref<PseudoDmaDirect2d>("dst_elem_size")};

const CtrlEs& es_of(const Instruction& i) {
  return body<CtrlEs>(i);
}
const PseudoDmaDirect2d& dma_of(const Instruction& i) {
  return body<PseudoDmaDirect2d>(i);
}

bool all_zero(std::span<const uint8_t> bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b == 0; });
}

/// "reserved0 byte 3 (word byte 15) is 0x01": the first non-zero byte of a reserved array.
std::string first_nonzero(std::string_view name, const FieldRef& f, std::span<const uint8_t> bytes) {
  for (size_t k = 0; k < bytes.size(); ++k)
    if (bytes[k] != 0) return fmt::format("{} byte {} (word byte {}) is {:#04x}", name, k, f.offset + k, bytes[k]);
  return "";
}

std::string explain_opcode(const Instruction& i, const CheckContext&) {
  return fmt::format("opcode {:#04x} does not belong to this validator", i.opcode());
}

template <const FieldRef* F, uint8_t Opcode>
constexpr Predicate opcode_predicate(std::string_view name, std::string_view convention) {
  return {.name = name,
          .convention = convention,
          .meaning = "the opcode is the one this validator judges",
          .gens = kGensAll,
          .fields = std::span<const FieldRef>(F, 1),
          .holds = [](const Instruction& i, const CheckContext&) { return i.opcode() == Opcode; },
          .explain = explain_opcode,
          .accepts = on_view<RawWord, [](const RawWord& x, const CheckContext&) { return x.header.opcode == Opcode; }>};
}

// ---- EVENT_SEMAPHORE (PROJ-CONV-F2) ----

std::string explain_es_ext(const Instruction& i, const CheckContext& c) {
  const EventsExtended& x = es_of(i).ext;
  std::string why;
  if (!sync::ext_wait_mode_valid(x, c.gen))
    why = fmt::format("ext.wait_mode {:#04x} is not a WAIT_MODE of {}", x.wait_mode, to_string(c.gen));
  if (!sync::ext_update_mode_valid(x, c.gen)) {
    if (!why.empty()) why += "; ";
    why += fmt::format("ext.update_mode {:#04x} is not an UPDATE_MODE of {}", x.update_mode, to_string(c.gen));
  }
  return why;
}

std::string explain_es_reserved(const Instruction& i, const CheckContext&) {
  const CtrlEs& s = es_of(i);
  std::string why = first_nonzero("reserved0", fEsReserved[0], s.reserved0);
  if (why.empty()) why = first_nonzero("reserved1", fEsReserved[1], s.reserved1);
  return why + ": bytes 12-31 and 44-63 of an EVENT_SEMAPHORE must be zero";
}

constexpr Predicate kEsOpcode =
    opcode_predicate<fEsOpcode, opcode::kEventSemaphore>("has_event_semaphore_opcode", "PROJ-CONV-F2");

constexpr Predicate kEsExt{
    .name = "ctrl_es_valid_extended_events",
    .convention = "PROJ-CONV-F2",
    .meaning =
        "the extended lane's wait_mode (byte 32) and update_mode (byte 34) are members of the generation's "
        "WAIT_MODE and UPDATE_MODE enums (MAVERICK has no event modes)",
    .gens = kGensAll,
    .fields = fEsExt,
    .holds =
        [](const Instruction& i, const CheckContext& c) {
          const EventsExtended& x = es_of(i).ext;
          return sync::ext_wait_mode_valid(x, c.gen) && sync::ext_update_mode_valid(x, c.gen);
        },
    .explain = explain_es_ext,
    .accepts = on_view<CtrlEs, [](const CtrlEs& es, const CheckContext& c) {
      return sync::ext_wait_mode_valid(es.ext, c.gen) && sync::ext_update_mode_valid(es.ext, c.gen);
    }>};

constexpr Predicate kEsReserved{
    .name = "ctrl_es_reserved_zero",
    .convention = "PROJ-CONV-F2",
    .meaning = "bytes 12-31 and 44-63 are zero",
    .gens = kGensAll,
    .fields = fEsReserved,
    .holds = [](const Instruction& i,
                const CheckContext&) { return all_zero(es_of(i).reserved0) && all_zero(es_of(i).reserved1); },
    .explain = explain_es_reserved,
    .accepts = reserved_mask_accepts<CtrlEs, fEsReserved>};

// ---- SET_ORDERING_MODE (PROJ-CONV-F6) ----

constexpr Predicate kSomOpcode =
    opcode_predicate<fSomOpcode, opcode::kSetOrderingMode>("has_set_ordering_mode_opcode", "PROJ-CONV-F6");

constexpr Predicate kSomReserved{
    .name = "set_ordering_mode_reserved_zero",
    .convention = "PROJ-CONV-F6",
    .meaning = "bytes 13-63 are zero (ordering_mode, byte 12, may hold any value)",
    .gens = kGensAll,
    .fields = fSomReserved,
    .holds = [](const Instruction& i, const CheckContext&) { return all_zero(body<SetOrderingMode>(i).reserved); },
    .explain =
        [](const Instruction& i, const CheckContext&) {
          return first_nonzero("reserved", fSomReserved[0], body<SetOrderingMode>(i).reserved) +
                 ": bytes 13-63 of a SET_ORDERING_MODE must be zero";
        },
    .accepts = reserved_mask_accepts<SetOrderingMode, fSomReserved>};

// ---- PSEUDO_BRANCH_LABEL (PROJ-CONV-F7: the payload is not inspected) ----

constexpr Predicate kLabelOpcode =
    opcode_predicate<fLabelOpcode, opcode::kPseudoBranchLabel>("has_pseudo_branch_label_opcode", "PROJ-CONV-F7");

// ---- PSEUDO_DMA_DIRECT2D (PROJ-CONV-F8) ----

constexpr Predicate kDmaOpcode =
    opcode_predicate<fDmaOpcode, opcode::kPseudoDmaDirect2d>("has_pseudo_dma_direct2d_opcode", "PROJ-CONV-F8");

constexpr Predicate kDmaUpdateNone{
    .name = "pseudo_dma_update_none",
    .convention = "PROJ-CONV-F8",
    .meaning = "update_mode is NONE: completion is signalled through semaphore and sem_increment (bytes 13-14)",
    .gens = kGensAll,
    .fields = fDmaUpdate,
    .holds = [](const Instruction& i, const CheckContext&) { return i.events().update_mode == 0; },
    .explain =
        [](const Instruction& i, const CheckContext&) {
          return fmt::format(
              "update_mode is {:#04x}, must be NONE: a pseudo DMA signals completion through its semaphore byte",
              i.events().update_mode);
        },
    .accepts = on_view<RawWord, [](const RawWord& x, const CheckContext&) { return x.events.update_mode == 0; }>};

std::string mode_text(const PseudoAddr8& a, std::string_view side) {
  return fmt::format(
      "{}.mode {:#04x} is not a PSEUDO_ADDR8 mode: expected 0x10 (variable), 0x20 (DGE entry) or 0x28 (DGE entry, "
      "register offset), optionally plus 0x04 (register pair) and 0x40 (transpose)",
      side, a.mode);
}

constexpr Predicate kDmaSrcMode{
    .name = "pseudo_addr8_mode_known",
    .convention = "PROJ-CONV-F8",
    .meaning = "src.mode is 0x10, 0x20 or 0x28, optionally with the 0x04 and 0x40 bits",
    .gens = kGensAll,
    .fields = fDmaSrcMode,
    .holds = [](const Instruction& i, const CheckContext&) { return sync::pseudo_addr8_mode_known(dma_of(i).src); },
    .explain = [](const Instruction& i, const CheckContext&) { return mode_text(dma_of(i).src, "src"); },
    .accepts = on_view<PseudoDmaDirect2d, [](const PseudoDmaDirect2d& x, const CheckContext&) {
      return sync::pseudo_addr8_mode_known(x.src);
    }>};

constexpr Predicate kDmaDstMode{
    .name = "pseudo_addr8_mode_known",
    .convention = "PROJ-CONV-F8",
    .meaning = "dst.mode is 0x10, 0x20 or 0x28, optionally with the 0x04 and 0x40 bits",
    .gens = kGensAll,
    .fields = fDmaDstMode,
    .holds = [](const Instruction& i, const CheckContext&) { return sync::pseudo_addr8_mode_known(dma_of(i).dst); },
    .explain = [](const Instruction& i, const CheckContext&) { return mode_text(dma_of(i).dst, "dst"); },
    .accepts = on_view<PseudoDmaDirect2d, [](const PseudoDmaDirect2d& x, const CheckContext&) {
      return sync::pseudo_addr8_mode_known(x.dst);
    }>};

std::string num_text(const sync::DmaSide& s, std::string_view side) {
  return fmt::format("{}_num = {{{}, {}}}: both outer counts must be at least 1", side, s.num[0], s.num[1]);
}

constexpr Predicate kDmaSrcNum{
    .name = "pseudo_dma_counts_nonzero",
    .convention = "PROJ-CONV-F8",
    .meaning = "src_num[0] >= 1 and src_num[1] >= 1",
    .gens = kGensAll,
    .fields = fDmaSrcNum,
    .holds = [](const Instruction& i, const CheckContext&) { return sync::counts_nonzero(sync::src_side(dma_of(i))); },
    .explain = [](const Instruction& i, const CheckContext&) { return num_text(sync::src_side(dma_of(i)), "src"); },
    .accepts = on_view<PseudoDmaDirect2d, [](const PseudoDmaDirect2d& x, const CheckContext&) {
      return sync::counts_nonzero(sync::src_side(x));
    }>};

constexpr Predicate kDmaDstNum{
    .name = "pseudo_dma_counts_nonzero",
    .convention = "PROJ-CONV-F8",
    .meaning = "dst_num[0] >= 1 and dst_num[1] >= 1",
    .gens = kGensAll,
    .fields = fDmaDstNum,
    .holds = [](const Instruction& i, const CheckContext&) { return sync::counts_nonzero(sync::dst_side(dma_of(i))); },
    .explain = [](const Instruction& i, const CheckContext&) { return num_text(sync::dst_side(dma_of(i)), "dst"); },
    .accepts = on_view<PseudoDmaDirect2d, [](const PseudoDmaDirect2d& x, const CheckContext&) {
      return sync::counts_nonzero(sync::dst_side(x));
    }>};

std::string dtype_text(uint8_t d, std::string_view side, const CheckContext& c) {
  std::string_view via;
  pred::is_valid_dtype(d, true, c, &via);
  return fmt::format("{}_dtype {} fails is_valid_dtype ({})", side, dtype_label(d, c.gen), via);
}

std::string_view dtype_via(uint8_t d, const CheckContext& c) {
  std::string_view via;
  pred::is_valid_dtype(d, true, c, &via);
  return via == "dtype_4bit_illegal_check" || via == "dtype_scale_illegal_check" ? via : std::string_view{};
}

constexpr std::string_view kSrcDtypeMeaning =
    "is_valid_dtype(src_dtype, FP32R allowed): not INVALID, UINT64, INT64; a member of the generation's DTYPE "
    "enum (PROJ-CONV-C13); on MAVERICK not a 4-bit or scale dtype";
constexpr std::string_view kDstDtypeMeaning =
    "is_valid_dtype(dst_dtype, FP32R allowed): not INVALID, UINT64, INT64; a member of the generation's DTYPE "
    "enum (PROJ-CONV-C13); on MAVERICK not a 4-bit or scale dtype";

constexpr Predicate kDmaSrcDtype{
    .name = "is_valid_dtype",
    .convention = "",
    .meaning = kSrcDtypeMeaning,
    .gens = kGensAll,
    .fields = fDmaSrcDtype,
    .holds = [](const Instruction& i,
                const CheckContext& c) { return pred::is_valid_dtype(dma_of(i).src_dtype, true, c); },
    .explain = [](const Instruction& i, const CheckContext& c) { return dtype_text(dma_of(i).src_dtype, "src", c); },
    .via = [](const Instruction& i, const CheckContext& c) { return dtype_via(dma_of(i).src_dtype, c); },
    .accepts = on_view<PseudoDmaDirect2d, [](const PseudoDmaDirect2d& x, const CheckContext& c) {
      return dtype_accepts(x.src_dtype, true, c);
    }>};

constexpr Predicate kDmaDstDtype{
    .name = "is_valid_dtype",
    .convention = "",
    .meaning = kDstDtypeMeaning,
    .gens = kGensAll,
    .fields = fDmaDstDtype,
    .holds = [](const Instruction& i,
                const CheckContext& c) { return pred::is_valid_dtype(dma_of(i).dst_dtype, true, c); },
    .explain = [](const Instruction& i, const CheckContext& c) { return dtype_text(dma_of(i).dst_dtype, "dst", c); },
    .via = [](const Instruction& i, const CheckContext& c) { return dtype_via(dma_of(i).dst_dtype, c); },
    .accepts = on_view<PseudoDmaDirect2d, [](const PseudoDmaDirect2d& x, const CheckContext& c) {
      return dtype_accepts(x.dst_dtype, true, c);
    }>};

std::string whole_text(const sync::DmaSide& s, std::string_view side, Generation g) {
  return fmt::format("{}: {} x {} chunks of {} bytes = {} bytes, not a whole number of {}-byte elements of {}", side,
                     s.num[0], s.num[1], sync::chunk_bytes(s.elem_size), sync::total_bytes(s), dtype_size(s.dtype),
                     dtype_label(s.dtype, g));
}

constexpr Predicate kDmaSrcWhole{
    .name = "pseudo_dma_whole_elements",
    .convention = "PROJ-CONV-F8",
    .meaning = "src_bytes = src_num[0] * src_num[1] * esz(src_elem_size) is a multiple of type_size(src_dtype)",
    .gens = kGensAll,
    .fields = fDmaSrcBytes,
    .holds = [](const Instruction& i, const CheckContext&) { return sync::whole_elements(sync::src_side(dma_of(i))); },
    .explain = [](const Instruction& i,
                  const CheckContext& c) { return whole_text(sync::src_side(dma_of(i)), "src", c.gen); },
    .accepts = on_view<PseudoDmaDirect2d, [](const PseudoDmaDirect2d& x, const CheckContext&) {
      return sync::whole_elements(sync::src_side(x));
    }>};

constexpr Predicate kDmaDstWhole{
    .name = "pseudo_dma_whole_elements",
    .convention = "PROJ-CONV-F8",
    .meaning = "dst_bytes = dst_num[0] * dst_num[1] * esz(dst_elem_size) is a multiple of type_size(dst_dtype)",
    .gens = kGensAll,
    .fields = fDmaDstBytes,
    .holds = [](const Instruction& i, const CheckContext&) { return sync::whole_elements(sync::dst_side(dma_of(i))); },
    .explain = [](const Instruction& i,
                  const CheckContext& c) { return whole_text(sync::dst_side(dma_of(i)), "dst", c.gen); },
    .accepts = on_view<PseudoDmaDirect2d, [](const PseudoDmaDirect2d& x, const CheckContext&) {
      return sync::whole_elements(sync::dst_side(x));
    }>};

std::string explain_same_count(const Instruction& i, const CheckContext&) {
  const PseudoDmaDirect2d& d = dma_of(i);
  uint64_t a = 0, b = 0;
  sync::element_count(sync::src_side(d), a);
  sync::element_count(sync::dst_side(d), b);
  return fmt::format("the source moves {} elements ({} bytes) but the destination {} elements ({} bytes)", a,
                     sync::total_bytes(sync::src_side(d)), b, sync::total_bytes(sync::dst_side(d)));
}

constexpr Predicate kDmaSameCount{
    .name = "pseudo_dma_same_element_count",
    .convention = "PROJ-CONV-F8",
    .meaning =
        "src_bytes / type_size(src_dtype) == dst_bytes / type_size(dst_dtype) (a compiler assertion); compared "
        "only when both sides have non-zero counts, sized dtypes and whole elements",
    .gens = kGensAll,
    .fields = fDmaCount,
    .holds = [](const Instruction& i, const CheckContext&) { return sync::same_element_count(dma_of(i)); },
    .explain = explain_same_count,
    .accepts = on_view<PseudoDmaDirect2d,
                       [](const PseudoDmaDirect2d& x, const CheckContext&) { return sync::same_element_count(x); }>};

// ---- Validators ----

constexpr const Predicate* kEs[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kEsOpcode, &kEsExt,
                                    &kEsReserved,           &kEnginePlacement};
constexpr const Predicate* kSom[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kSomOpcode, &kSomReserved,
                                     &kEnginePlacement};
constexpr const Predicate* kLabel[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kLabelOpcode,
                                       &kEnginePlacement};
constexpr const Predicate* kDma[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kDmaOpcode,   &kDmaUpdateNone,
                                     &kDmaSrcMode,           &kDmaDstMode,           &kDmaSrcNum,   &kDmaDstNum,
                                     &kDmaSrcDtype,          &kDmaDstDtype,          &kDmaSrcWhole, &kDmaDstWhole,
                                     &kDmaSameCount,         &kEnginePlacement};

constexpr Validator kValidators[] = {
    {"is_valid_ctrl_es", Checked::Full, kEs, &evaluate_conjuncts<kEs>, fast_acceptor<kEs>()},
    {"is_valid_set_ordering_mode", Checked::Full, kSom, &evaluate_conjuncts<kSom>, fast_acceptor<kSom>()},
    {"is_valid_pseudo_branch_label", Checked::Full, kLabel, &evaluate_conjuncts<kLabel>, fast_acceptor<kLabel>()},
    {"is_valid_pseudo_dma_direct2d", Checked::Full, kDma, &evaluate_conjuncts<kDma>, fast_acceptor<kDma>()},
};
constexpr const Validator* kValidatorList[] = {&kValidators[0], &kValidators[1], &kValidators[2], &kValidators[3]};

const Validator* select(uint8_t op, Generation) {
  switch (op) {
    case opcode::kEventSemaphore: return &kValidators[0];
    case opcode::kSetOrderingMode: return &kValidators[1];
    case opcode::kPseudoBranchLabel: return &kValidators[2];
    case opcode::kPseudoDmaDirect2d: return &kValidators[3];
    default: return nullptr;
  }
}

constexpr Validation kValidation{select, kValidatorList};

}  // namespace

const Validation& SyncFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
