// Sync family validators: EventSemaphore 0xa0 (PROJ-CONV-F2), SetOrderingMode 0xb1 (F6), PseudoBranchLabel 0xcc
// (F7) and PseudoDmaDirect2d 0xd4 (F8) -- real-programs.md §3.2, §5, §6, §7.2.
#include <algorithm>

#include "families/common.hpp"
#include "families/sync/reading.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

// ---- Fields read, from the declarations (no offset is written here) ----

constexpr FieldRef fEsExt[] = {field_ref<CtrlEs>("ext.wait_mode"), field_ref<CtrlEs>("ext.update_mode")};
constexpr FieldRef fEsReserved[] = {field_ref<CtrlEs>("reserved0"), field_ref<CtrlEs>("reserved1")};
constexpr FieldRef fSomReserved[] = {field_ref<SetOrderingMode>("reserved")};
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

/// "reserved0 byte 3 (word byte 15) is 0x01": the first non-zero byte of a reserved array.
std::string first_nonzero(std::string_view name, const FieldRef& f, std::span<const uint8_t> bytes) {
  for (size_t k = 0; k < bytes.size(); ++k)
    if (bytes[k] != 0) return fmt::format("{} byte {} (word byte {}) is {:#04x}", name, k, f.offset + k, bytes[k]);
  return "";
}

template <class S, uint8_t Opcode>
constexpr Predicate opcode_predicate(std::string_view name, std::string_view convention) {
  return rule<S, has_opcode<Opcode>>({.name = name,
                                      .convention = convention,
                                      .meaning = "the opcode is the one this validator judges",
                                      .gens = kGensAll,
                                      .fields = kOpcodeFieldOf<S>,
                                      .explain = explain_opcode});
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
    opcode_predicate<CtrlEs, opcode::kEventSemaphore>("has_event_semaphore_opcode", "PROJ-CONV-F2");

constexpr Predicate kEsExt =
    rule<CtrlEs,
         [](const CtrlEs& es, const CheckContext& c) {
           return sync::ext_wait_mode_valid(es.ext, c.gen) && sync::ext_update_mode_valid(es.ext, c.gen);
         }>({.name = "ctrl_es_valid_extended_events",
             .convention = "PROJ-CONV-F2",
             .meaning =
                 "the extended lane's wait_mode (byte 32) and update_mode (byte 34) are members of the generation's "
                 "WAIT_MODE and UPDATE_MODE enums (MAVERICK has no event modes)",
             .gens = kGensAll,
             .fields = fEsExt,
             .explain = explain_es_ext});

constexpr Predicate kEsReserved = reserved_rule<CtrlEs, fEsReserved>({.name = "ctrl_es_reserved_zero",
                                                                      .convention = "PROJ-CONV-F2",
                                                                      .meaning = "bytes 12-31 and 44-63 are zero",
                                                                      .gens = kGensAll,
                                                                      .explain = explain_es_reserved});

// ---- SET_ORDERING_MODE (PROJ-CONV-F6) ----

constexpr Predicate kSomOpcode =
    opcode_predicate<SetOrderingMode, opcode::kSetOrderingMode>("has_set_ordering_mode_opcode", "PROJ-CONV-F6");

constexpr Predicate kSomReserved = reserved_rule<SetOrderingMode, fSomReserved>(
    {.name = "set_ordering_mode_reserved_zero",
     .convention = "PROJ-CONV-F6",
     .meaning = "bytes 13-63 are zero (ordering_mode, byte 12, may hold any value)",
     .gens = kGensAll,
     .explain = [](const Instruction& i, const CheckContext&) {
       return first_nonzero("reserved", fSomReserved[0], body<SetOrderingMode>(i).reserved) +
              ": bytes 13-63 of a SET_ORDERING_MODE must be zero";
     }});

// ---- PSEUDO_BRANCH_LABEL (PROJ-CONV-F7: the payload is not inspected) ----

constexpr Predicate kLabelOpcode =
    opcode_predicate<PseudoBranchLabel, opcode::kPseudoBranchLabel>("has_pseudo_branch_label_opcode", "PROJ-CONV-F7");

// ---- PSEUDO_DMA_DIRECT2D (PROJ-CONV-F8) ----

using Dma = PseudoDmaDirect2d;

constexpr Predicate kDmaOpcode =
    opcode_predicate<Dma, opcode::kPseudoDmaDirect2d>("has_pseudo_dma_direct2d_opcode", "PROJ-CONV-F8");

constexpr Predicate kDmaUpdateNone =
    rule<Dma, [](const Dma& x, const CheckContext&) { return update_is_none(x.events.update_mode); }>(
        {.name = "pseudo_dma_update_none",
         .convention = "PROJ-CONV-F8",
         .meaning = "update_mode is NONE: completion is signalled through semaphore and sem_increment (bytes 13-14)",
         .gens = kGensAll,
         .fields = fDmaUpdate,
         .explain = explain_on_body<Dma, [](const Dma& x, const CheckContext&) {
           return fmt::format(
               "update_mode is {:#04x}, must be NONE: a pseudo DMA signals completion through its semaphore byte",
               x.events.update_mode);
         }>});

// Each side's rules once, over the side (sync::src_side / sync::dst_side) the template argument names.

/// A predicate of one DMA side: the rule Ok and the sentence Text over the layout.
template <auto Ok, auto Text>
constexpr Predicate side_rule(std::string_view name, std::string_view convention, std::string_view meaning,
                              std::span<const FieldRef> fields,
                              std::string_view (*via)(const Instruction&, const CheckContext&) = nullptr) {
  return rule<Dma, Ok>({.name = name,
                        .convention = convention,
                        .meaning = meaning,
                        .gens = kGensAll,
                        .fields = fields,
                        .explain = explain_on_body<Dma, Text>,
                        .via = via});
}

template <auto Side>
bool mode_ok(const Dma& x, const CheckContext&) {
  return sync::pseudo_addr8_mode_known(Side(x).operand);
}
template <auto Side, Name Which>
std::string mode_text(const Dma& x, const CheckContext&) {
  return fmt::format(
      "{}.mode {:#04x} is not a PSEUDO_ADDR8 mode: expected 0x10 (variable), 0x20 (DGE entry) or 0x28 (DGE entry, "
      "register offset), optionally plus 0x04 (register pair) and 0x40 (transpose)",
      std::string_view{Which}, Side(x).operand.mode);
}
template <auto Side>
bool num_ok(const Dma& x, const CheckContext&) {
  return sync::counts_nonzero(Side(x));
}
template <auto Side, Name Which>
std::string num_text(const Dma& x, const CheckContext&) {
  const sync::DmaSide s = Side(x);
  return fmt::format("{}_num = {{{}, {}}}: both outer counts must be at least 1", std::string_view{Which}, s.num[0],
                     s.num[1]);
}
std::string_view dtype_via(uint8_t d, const CheckContext& c) {
  std::string_view via;
  pred::is_valid_dtype(d, true, c, &via);
  return via == "dtype_4bit_illegal_check" || via == "dtype_scale_illegal_check" ? via : std::string_view{};
}

template <auto Side>
bool dtype_ok(const Dma& x, const CheckContext& c) {
  return dtype_accepts(Side(x).dtype, true, c);
}
template <auto Side, Name Which>
std::string dtype_text(const Dma& x, const CheckContext& c) {
  const uint8_t d = Side(x).dtype;
  std::string_view via;
  pred::is_valid_dtype(d, true, c, &via);
  return fmt::format("{}_dtype {} fails is_valid_dtype ({})", std::string_view{Which}, dtype_label(d, c.gen), via);
}
template <auto Side>
std::string_view dtype_failure_via(const Instruction& i, const CheckContext& c) {
  return dtype_via(Side(dma_of(i)).dtype, c);
}
template <auto Side>
bool whole_ok(const Dma& x, const CheckContext&) {
  return sync::whole_elements(Side(x));
}
template <auto Side, Name Which>
std::string whole_text(const Dma& x, const CheckContext& c) {
  const sync::DmaSide s = Side(x);
  return fmt::format("{}: {} x {} chunks of {} bytes = {} bytes, not a whole number of {}-byte elements of {}",
                     std::string_view{Which}, s.num[0], s.num[1], sync::chunk_bytes(s.elem_size), sync::total_bytes(s),
                     dtype_size(s.dtype), dtype_label(s.dtype, c.gen));
}
constexpr auto kSrc = sync::src_side;
constexpr auto kDst = sync::dst_side;

constexpr Predicate kDmaSrcMode = side_rule<mode_ok<kSrc>, mode_text<kSrc, "src">>(
    "pseudo_addr8_mode_known", "PROJ-CONV-F8", "src.mode is 0x10, 0x20 or 0x28, optionally with the 0x04 and 0x40 bits",
    fDmaSrcMode);
constexpr Predicate kDmaDstMode = side_rule<mode_ok<kDst>, mode_text<kDst, "dst">>(
    "pseudo_addr8_mode_known", "PROJ-CONV-F8", "dst.mode is 0x10, 0x20 or 0x28, optionally with the 0x04 and 0x40 bits",
    fDmaDstMode);

constexpr Predicate kDmaSrcNum = side_rule<num_ok<kSrc>, num_text<kSrc, "src">>(
    "pseudo_dma_counts_nonzero", "PROJ-CONV-F8", "src_num[0] >= 1 and src_num[1] >= 1", fDmaSrcNum);
constexpr Predicate kDmaDstNum = side_rule<num_ok<kDst>, num_text<kDst, "dst">>(
    "pseudo_dma_counts_nonzero", "PROJ-CONV-F8", "dst_num[0] >= 1 and dst_num[1] >= 1", fDmaDstNum);

constexpr Predicate kDmaSrcDtype = side_rule<dtype_ok<kSrc>, dtype_text<kSrc, "src">>(
    "is_valid_dtype", "",
    "is_valid_dtype(src_dtype, FP32R allowed): not INVALID, UINT64, INT64; a member of the generation's DTYPE "
    "enum (PROJ-CONV-C13); on MAVERICK not a 4-bit or scale dtype",
    fDmaSrcDtype, dtype_failure_via<kSrc>);
constexpr Predicate kDmaDstDtype = side_rule<dtype_ok<kDst>, dtype_text<kDst, "dst">>(
    "is_valid_dtype", "",
    "is_valid_dtype(dst_dtype, FP32R allowed): not INVALID, UINT64, INT64; a member of the generation's DTYPE "
    "enum (PROJ-CONV-C13); on MAVERICK not a 4-bit or scale dtype",
    fDmaDstDtype, dtype_failure_via<kDst>);

constexpr Predicate kDmaSrcWhole = side_rule<whole_ok<kSrc>, whole_text<kSrc, "src">>(
    "pseudo_dma_whole_elements", "PROJ-CONV-F8",
    "src_bytes = src_num[0] * src_num[1] * esz(src_elem_size) is a multiple of type_size(src_dtype)", fDmaSrcBytes);
constexpr Predicate kDmaDstWhole = side_rule<whole_ok<kDst>, whole_text<kDst, "dst">>(
    "pseudo_dma_whole_elements", "PROJ-CONV-F8",
    "dst_bytes = dst_num[0] * dst_num[1] * esz(dst_elem_size) is a multiple of type_size(dst_dtype)", fDmaDstBytes);

std::string explain_same_count(const Instruction& i, const CheckContext&) {
  const PseudoDmaDirect2d& d = dma_of(i);
  uint64_t a = 0, b = 0;
  sync::element_count(sync::src_side(d), a);
  sync::element_count(sync::dst_side(d), b);
  return fmt::format("the source moves {} elements ({} bytes) but the destination {} elements ({} bytes)", a,
                     sync::total_bytes(sync::src_side(d)), b, sync::total_bytes(sync::dst_side(d)));
}

constexpr Predicate kDmaSameCount =
    rule<Dma, [](const Dma& x, const CheckContext&) { return sync::same_element_count(x); }>(
        {.name = "pseudo_dma_same_element_count",
         .convention = "PROJ-CONV-F8",
         .meaning =
             "src_bytes / type_size(src_dtype) == dst_bytes / type_size(dst_dtype) (a compiler assertion); compared "
             "only when both sides have non-zero counts, sized dtypes and whole elements",
         .gens = kGensAll,
         .fields = fDmaCount,
         .explain = explain_same_count});

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

constexpr Validator kEsValidator = full_validator<kEs>("is_valid_ctrl_es");
constexpr Validator kSomValidator = full_validator<kSom>("is_valid_set_ordering_mode");
constexpr Validator kLabelValidator = full_validator<kLabel>("is_valid_pseudo_branch_label");
constexpr Validator kDmaValidator = full_validator<kDma>("is_valid_pseudo_dma_direct2d");

constexpr ValidatorRow kRows[] = {
    {opcode::kEventSemaphore, &kEsValidator},
    {opcode::kSetOrderingMode, &kSomValidator},
    {opcode::kPseudoBranchLabel, &kLabelValidator},
    {opcode::kPseudoDmaDirect2d, &kDmaValidator},
};
constexpr Validation kValidation = validator_table<SyncFamily, kRows>();

}  // namespace

const Validation& SyncFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
