// MEM_2D family validators: TensorLoad 0xaa, TensorStore 0xab and the pseudo pair 0xce/0xcd (mem2d.md §5).
#include <algorithm>

#include "families/common.hpp"
#include "families/validator_table.hpp"

namespace tpbisa::family {
namespace {

// ---- Fields the predicates read, from the declarations ----
constexpr FieldRef fOpcode[] = {field_ref<Mem2d>("header.opcode")};
constexpr FieldRef fDtype[] = {field_ref<Mem2d>("dtype")};
constexpr FieldRef fDatasrc[] = {field_ref<Mem2d>("src_datasrc")};
constexpr FieldRef fNumElem[] = {field_ref<Mem2d>("num_elem")};
constexpr FieldRef fNumElemDtype[] = {field_ref<Mem2d>("num_elem"), field_ref<Mem2d>("dtype")};
constexpr FieldRef fStoreCount[] = {field_ref<Mem2d>("src_datasrc"), field_ref<Mem2d>("dtype"),
                                    field_ref<Mem2d>("num_elem")};
constexpr FieldRef fU64Regs[] = {field_ref<Mem2d>("dtype"), field_ref<Mem2d>("src_datasrc"),
                                 renamed(field_ref<Mem2d>("data"), "data.registers")};
constexpr FieldRef fStartAddr[] = {field_ref<Mem2d>("start_addr"), field_ref<Mem2d>("dtype")};
constexpr FieldRef fWindow[] = {field_ref<Mem2d>("start_addr"), field_ref<Mem2d>("dtype"), field_ref<Mem2d>("num_elem"),
                                field_ref<Mem2d>("step_elem")};

// The predicates read these fields of MEM_2D and PSEUDO_MEM_2D alike: the two declarations agree on them.
static_assert(same_bytes(field_ref<Mem2d>("dtype"), field_ref<PseudoMem2d>("dtype")) &&
              same_bytes(field_ref<Mem2d>("src_datasrc"), field_ref<PseudoMem2d>("src_datasrc")) &&
              same_bytes(field_ref<Mem2d>("num_elem"), field_ref<PseudoMem2d>("num_elem")) &&
              same_bytes(field_ref<Mem2d>("header.opcode"), field_ref<PseudoMem2d>("header.opcode")));

// ---- Predicate bodies (mem2d.md §5.3), generic over MEM_2D and PSEUDO_MEM_2D ----

template <class S>
unsigned elem_product(const S& m) {
  return m.elements();
}

template <class S>
bool mem2d_num_elem_check(const S& m) {
  return m.num_elem[0] >= 1 && m.num_elem[0] <= 32 && m.num_elem[1] >= 1 && m.num_elem[1] <= 32 &&
         elem_product(m) <= 32;
}

constexpr bool mem2d_dtype_check(uint8_t d) {
  return d == dtype::kUint8 || d == dtype::kInt8 || d == dtype::kUint16 || d == dtype::kInt16 || d == dtype::kUint32 ||
         d == dtype::kInt32 || d == dtype::kFp32 || d == dtype::kUint64;
}

constexpr bool pseudo_mem2d_dtype_check(uint8_t d) {
  return d != dtype::kUint64 && mem2d_dtype_check(d);
}

template <class S>
bool mem2d_store_num_elem_check(const S& m, const CheckContext&) {
  const unsigned n = elem_product(m);
  const uint8_t d = m.dtype;
  return (m.src_datasrc == 0 && n <= 32) || ((d == dtype::kUint8 || d == dtype::kInt8) && n <= 32) ||
         ((d == dtype::kUint16 || d == dtype::kInt16) && n <= 16) ||
         ((d == dtype::kUint32 || d == dtype::kInt32 || d == dtype::kFp32) && n <= 8) ||
         (d == dtype::kUint64 && n <= 4);
}

/// Some data slot names an odd register: the low bits of the 32 slots or-ed 8 at a time (no loop over the array).
bool mem2d_odd_register_used(const Mem2d& m) {
  const uint64_t any = m.data.u64(0) | m.data.u64(1) | m.data.u64(2) | m.data.u64(3);
  return (any & 0x0101010101010101ULL) != 0;
}

bool mem2d_u64_register_check(const Mem2d& m, const CheckContext&) {
  return !mem2d::data_reading(m).pairs || !mem2d_odd_register_used(m);
}

/// PROJ-CONV-M3: first and last byte touched lie in one naturally aligned 16 MiB window.
[[gnu::always_inline]] inline bool within_one_window(const Mem2d& m, Generation g) {
  const Addr8Meaning a = describe(m.start_addr, g);
  if (a.mode != Addr8Mode::Immediate) return true;  // register/table bases are judged at run time
  const int64_t esz = std::max<int64_t>(1, dtype_size(m.dtype));
  const int64_t n0 = std::max(1, int{m.num_elem[0]}) - 1;
  const int64_t n1 = std::max(1, int{m.num_elem[1]}) - 1;
  const int64_t s0 = m.step_elem[0] * n0;
  const int64_t s1 = m.step_elem[1] * n1;
  const int64_t lo = (std::min<int64_t>(0, s0) + std::min<int64_t>(0, s1)) * esz;
  const int64_t hi = (std::max<int64_t>(0, s0) + std::max<int64_t>(0, s1)) * esz + esz - 1;
  const auto base = static_cast<int64_t>(a.address);  // < 2^58, so no overflow below
  const int64_t first = base + lo;
  const int64_t last = base + hi;
  return first >= 0 && (first >> 24) == (last >> 24);
}

/// The predicate's body, option test first. A named, forced-inline function: as a lambda body the compiler kept it
/// out of line (a call and a stack copy of the view per accepted word, though the option is off by default).
[[gnu::always_inline]] inline bool single_window_ok(const Mem2d& m, const CheckContext& c) {
  return !c.options.strict_window || within_one_window(m, c.gen);
}

template <class S>
const S& m_of(const Instruction& i) {
  return body<S>(i);
}

// ---- Explanations ----

template <class S>
std::string explain_num_elem(const Instruction& i, const CheckContext&) {
  const S& m = m_of<S>(i);
  return fmt::format("num_elem = {{{}, {}}} (product {}): each must be 1..32 and the product at most 32", m.num_elem[0],
                     m.num_elem[1], elem_product(m));
}

template <class S>
std::string explain_32(const Instruction& i, const CheckContext&) {
  const S& m = m_of<S>(i);
  return fmt::format("num_elem[0] * num_elem[1] = {} exceeds 32 elements", elem_product(m));
}

template <class S>
std::string explain_dtype(const Instruction& i, const CheckContext& c) {
  return fmt::format("dtype {} is not one of UINT8, INT8, UINT16, INT16, UINT32, INT32, FP32, UINT64",
                     dtype_label(m_of<S>(i).dtype, c.gen));
}

template <class S>
std::string explain_pseudo_dtype(const Instruction& i, const CheckContext& c) {
  return fmt::format(
      "dtype {} is not one of UINT8, INT8, UINT16, INT16, UINT32, INT32, FP32 "
      "(pseudo words cannot carry UINT64)",
      dtype_label(m_of<S>(i).dtype, c.gen));
}

template <class S>
std::string explain_shared(const Instruction& i, const CheckContext& c) {
  const S& m = m_of<S>(i);
  std::string why;
  if (!mem2d_num_elem_check(m)) why = explain_num_elem<S>(i, c);
  if (!mem2d_dtype_check(m.dtype)) why += (why.empty() ? "" : "; ") + explain_dtype<S>(i, c);
  return why;
}

template <class S>
std::string_view via_shared(const Instruction& i, const CheckContext&) {
  const S& m = m_of<S>(i);
  if (!mem2d_num_elem_check(m)) return "mem2d_num_elem_check";
  return "mem2d_dtype_check";
}

template <class S>
std::string explain_datasrc_zero(const Instruction& i, const CheckContext&) {
  return fmt::format("src_datasrc is {}, a load must use REGISTER (0)", m_of<S>(i).src_datasrc);
}

template <class S>
std::string explain_datasrc_valid(const Instruction& i, const CheckContext&) {
  return fmt::format("src_datasrc is {}, must be REGISTER (0) or IMMEDIATE (1)", m_of<S>(i).src_datasrc);
}

template <class S>
std::string explain_store_count(const Instruction& i, const CheckContext& c) {
  const S& m = m_of<S>(i);
  const unsigned size = dtype_size(m.dtype);
  if (m.src_datasrc == 1 && size != 0 && mem2d_dtype_check(m.dtype))
    return fmt::format("{} immediates of {} do not fit the 32-byte data field (at most {})", elem_product(m),
                       dtype_label(m.dtype, c.gen), 32 / size);
  return fmt::format("{} elements with src_datasrc {} and dtype {} match no allowed count", elem_product(m),
                     m.src_datasrc, dtype_label(m.dtype, c.gen));
}

std::string explain_u64_regs(const Instruction& i, const CheckContext&) {
  const Mem2d& m = m_of<Mem2d>(i);
  const auto it = std::find_if(m.data.bytes.begin(), m.data.bytes.end(), [](uint8_t r) { return r % 2 != 0; });
  const auto slot = static_cast<unsigned>(it - m.data.bytes.begin());
  return fmt::format("UINT64 register transfer needs even registers in all 32 data slots, slot {} holds r{}", slot,
                     *it);
}

std::string explain_start_addr(const Instruction& i, const CheckContext& c) {
  const Mem2d& m = m_of<Mem2d>(i);
  return fmt::format("immediate start_addr {:#x} is not aligned to the {}-byte dtype {}", m.start_addr.immediate(),
                     dtype_size(m.dtype), dtype_label(m.dtype, c.gen));
}

std::string_view start_addr_convention(const Instruction& i, const CheckContext& c) {
  // Markers other than 0x00 are immediates only under the M2 reading of addr8_addr_immediate.
  return !describe(m_of<Mem2d>(i).start_addr, c.gen).plain_immediate ? "PROJ-CONV-M2" : "";
}

std::string explain_window(const Instruction& i, const CheckContext&) {
  const Mem2d& m = m_of<Mem2d>(i);
  return fmt::format("the bytes touched from start_addr {:#x} cross a 16 MiB window boundary",
                     m.start_addr.immediate());
}

// ---- Rule bodies over the typed operand (the decoded word, or the raw word's view) ----

bool shared_ok(const Mem2d& m, const CheckContext&) {
  return mem2d_num_elem_check(m) && mem2d_dtype_check(m.dtype);
}
template <class S>
bool num_elem_ok(const S& m, const CheckContext&) {
  return mem2d_num_elem_check(m);
}
template <class S>
bool datasrc_zero(const S& m, const CheckContext&) {
  return m.src_datasrc == 0;
}
template <class S>
bool datasrc_valid(const S& m, const CheckContext&) {
  return m.src_datasrc <= 1;
}
template <class S>
bool elem32_ok(const S& m, const CheckContext&) {
  return elem_product(m) <= 32;
}
bool pseudo_dtype_ok(const PseudoMem2d& m, const CheckContext&) {
  return pseudo_mem2d_dtype_check(m.dtype);
}
bool start_addr_ok(const Mem2d& m, const CheckContext& c) {
  return pred::is_aligned_start_addr8(m.start_addr, m.dtype, c.gen);
}

// ---- Predicates: one rule each; builders for the ones MEM_2D and PSEUDO_MEM_2D share ----

template <class S, uint8_t Op>
constexpr Predicate opcode_predicate(std::string_view name, std::string_view convention) {
  return rule<S, has_opcode<Op>>({.name = name,
                                  .convention = convention,
                                  .meaning = "the opcode is the one this validator judges",
                                  .gens = kGensAll,
                                  .fields = fOpcode,
                                  .explain = explain_opcode});
}

constexpr Predicate kHasTensorLoadOpcode = opcode_predicate<Mem2d, opcode::kTensorLoad>("has_tensor_load_opcode", "");
constexpr Predicate kHasTensorStoreOpcode =
    opcode_predicate<Mem2d, opcode::kTensorStore>("has_tensor_store_opcode", "");
constexpr Predicate kPseudoLoadOpcode =
    opcode_predicate<PseudoMem2d, opcode::kPseudoTensorLoad>("has_pseudo_tensor_load_opcode", "PROJ-CONV-M11");
constexpr Predicate kPseudoStoreOpcode =
    opcode_predicate<PseudoMem2d, opcode::kPseudoTensorStore>("has_pseudo_tensor_store_opcode", "PROJ-CONV-M5");

constexpr Predicate kSharedConstraints = rule<Mem2d, shared_ok>(
    {.name = "mem2d_shared_constraints",
     .convention = "",
     .meaning = "mem2d_num_elem_check and mem2d_dtype_check: each num_elem 1..32 with product <= 32, and dtype "
                "one of the eight MEM_2D dtypes (u8, i8, u16, i16, u32, i32, fp32, u64)",
     .gens = kGensAll,
     .fields = fNumElemDtype,
     .explain = explain_shared<Mem2d>,
     .via = via_shared<Mem2d>});

template <class S>
constexpr Predicate num_elem_predicate(std::string_view convention) {
  return rule<S, num_elem_ok<S>>(
      {.name = "mem2d_num_elem_check",
       .convention = convention,
       .meaning = "num_elem[0] and num_elem[1] are each 1..32 and their product is at most 32",
       .gens = kGensAll,
       .fields = fNumElem,
       .explain = explain_num_elem<S>});
}

template <class S>
constexpr Predicate datasrc_zero_predicate(std::string_view convention) {
  return rule<S, datasrc_zero<S>>({.name = "mem2d_datasrc_zero",
                                   .convention = convention,
                                   .meaning = "src_datasrc is REGISTER (0): a load cannot target an immediate",
                                   .gens = kGensAll,
                                   .fields = fDatasrc,
                                   .explain = explain_datasrc_zero<S>});
}

template <class S>
constexpr Predicate datasrc_valid_predicate(std::string_view convention) {
  return rule<S, datasrc_valid<S>>({.name = "mem2d_datasrc_valid",
                                    .convention = convention,
                                    .meaning = "src_datasrc is REGISTER (0) or IMMEDIATE (1)",
                                    .gens = kGensAll,
                                    .fields = fDatasrc,
                                    .explain = explain_datasrc_valid<S>});
}

template <class S>
constexpr Predicate elem32_predicate(std::string_view convention) {
  return rule<S, elem32_ok<S>>({.name = "mem2d_32_elem_check",
                                .convention = convention,
                                .meaning = "num_elem[0] * num_elem[1] is at most 32",
                                .gens = kGensAll,
                                .fields = fNumElem,
                                .explain = explain_32<S>});
}

template <class S>
constexpr Predicate store_count_predicate(std::string_view convention) {
  return rule<S, mem2d_store_num_elem_check<S>>(
      {.name = "mem2d_store_num_elem_check",
       .convention = convention,
       .meaning = "register source: at most 32 elements; immediate source: at most 32 / sizeof(dtype) "
                  "(32, 16, 8 or 4) elements",
       .gens = kGensAll,
       .fields = fStoreCount,
       .explain = explain_store_count<S>});
}

constexpr Predicate kNumElemCheck = num_elem_predicate<PseudoMem2d>("PROJ-CONV-M11");
constexpr Predicate kNumElemCheckStore = num_elem_predicate<PseudoMem2d>("PROJ-CONV-M5");
constexpr Predicate kDatasrcZero = datasrc_zero_predicate<Mem2d>("");
constexpr Predicate kDatasrcValid = datasrc_valid_predicate<Mem2d>("");
constexpr Predicate kElem32 = elem32_predicate<Mem2d>("");
constexpr Predicate kStoreCount = store_count_predicate<Mem2d>("");
constexpr Predicate kPseudoDatasrcZero = datasrc_zero_predicate<PseudoMem2d>("PROJ-CONV-M11");
constexpr Predicate kPseudoDatasrcValid = datasrc_valid_predicate<PseudoMem2d>("PROJ-CONV-M5");
constexpr Predicate kPseudoElem32 = elem32_predicate<PseudoMem2d>("PROJ-CONV-M11");
constexpr Predicate kPseudoStoreCount = store_count_predicate<PseudoMem2d>("PROJ-CONV-M5");

constexpr Predicate kPseudoDtype = rule<PseudoMem2d, pseudo_dtype_ok>(
    {.name = "pseudo_mem2d_dtype_check",
     .convention = "",
     .meaning = "dtype is one of UINT8, INT8, UINT16, INT16, UINT32, INT32, FP32 (no UINT64 in pseudo words)",
     .gens = kGensAll,
     .fields = fDtype,
     .explain = explain_pseudo_dtype<PseudoMem2d>});

constexpr Predicate kU64RegisterCheck = rule<Mem2d, mem2d_u64_register_check>(
    {.name = "mem2d_u64_register_check",
     .convention = "",
     .meaning = "a UINT64 register transfer names only even registers, in all 32 data slots (used or not)",
     .gens = kGensAll,
     .fields = fU64Regs,
     .explain = explain_u64_regs,
     .via = [](const Instruction&, const CheckContext&) -> std::string_view { return "mem2d_odd_register_used"; }});

constexpr Predicate kValidStartAddr = rule<Mem2d, start_addr_ok>(
    {.name = "valid_start_addr",
     .convention = "",
     .meaning = "is_aligned_start_addr8: an immediate start_addr (marker & 0xA0 == 0, PROJ-CONV-M2) is a "
                "multiple of the dtype size",
     .gens = kGensAll,
     .fields = fStartAddr,
     .explain = explain_start_addr,
     .via = [](const Instruction&, const CheckContext&) -> std::string_view { return "is_aligned_start_addr8"; },
     .failure_convention = start_addr_convention});

constexpr Predicate kSingleWindow =
    rule<Mem2d, single_window_ok>({.name = "mem2d_single_16mb_window",
                                   .convention = "PROJ-CONV-M3",
                                   .meaning = "(only with --strict-window) every byte an immediate-addressed transfer "
                                              "touches lies in one naturally aligned 16 MiB window",
                                   .gens = kGensAll,
                                   .fields = fWindow,
                                   .explain = explain_window});

// ---- Validators (mem2d.md §5.1, §5.2, §5.4, §5.5) ----

constexpr const Predicate* kTensorLoad[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kHasTensorLoadOpcode,
                                            &kSharedConstraints,    &kDatasrcZero,          &kElem32,
                                            &kU64RegisterCheck,     &kValidStartAddr,       &kSingleWindow};
constexpr const Predicate* kTensorStore[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kHasTensorStoreOpcode,
                                             &kSharedConstraints,    &kDatasrcValid,         &kStoreCount,
                                             &kU64RegisterCheck,     &kValidStartAddr,       &kSingleWindow};
constexpr const Predicate* kPseudoTensorLoad[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kPseudoLoadOpcode,
                                                  &kNumElemCheck,         &kPseudoDtype,          &kPseudoDatasrcZero,
                                                  &kPseudoElem32};
constexpr const Predicate* kPseudoTensorStore[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kPseudoStoreOpcode,
                                                   &kNumElemCheckStore,    &kPseudoDtype,          &kPseudoDatasrcValid,
                                                   &kPseudoStoreCount};

constexpr Validator kTensorLoadValidator = full_validator<kTensorLoad>("is_valid_tensor_load");
constexpr Validator kTensorStoreValidator = full_validator<kTensorStore>("is_valid_tensor_store");
constexpr Validator kPseudoTensorLoadValidator = full_validator<kPseudoTensorLoad>("is_valid_pseudo_tensor_load");
constexpr Validator kPseudoTensorStoreValidator = full_validator<kPseudoTensorStore>("is_valid_pseudo_tensor_store");

constexpr ValidatorRow kRows[] = {
    {opcode::kTensorLoad, &kTensorLoadValidator},
    {opcode::kTensorStore, &kTensorStoreValidator},
    {opcode::kPseudoTensorLoad, &kPseudoTensorLoadValidator},
    {opcode::kPseudoTensorStore, &kPseudoTensorStoreValidator},
};
constexpr Validation kValidation = validator_table<Mem2dFamily, kRows>();

}  // namespace

const Validation& Mem2dFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
