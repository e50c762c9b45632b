// The field machinery every format is declared with: little-endian I/O, descriptors and the shared sub-formats.
#pragma once

#include <array>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <tuple>
#include <type_traits>

namespace tpbisa {

/// One 64-byte TPB instruction word (NEURON_ISA_TPB_INST_NBYTES).
inline constexpr size_t kWordBytes = 64;
using Word = std::array<uint8_t, kWordBytes>;
/// header.inst_word_len of every word: its length in 4-byte units.
inline constexpr uint8_t kInstWordLen = kWordBytes / 4;

// ---- Explicit little-endian accessors (PROJ-CONV-C1); no host struct layout is ever used for I/O. ----

template <std::integral T>
constexpr T load_le(const uint8_t* p) {
  using U = std::make_unsigned_t<T>;
  if (!std::is_constant_evaluated() && std::endian::native == std::endian::little) {
    U v;  // the host already stores little-endian: one load
    std::memcpy(&v, p, sizeof(T));
    return static_cast<T>(v);
  }
  U v = 0;
  for (size_t i = 0; i < sizeof(T); ++i) v = static_cast<U>(v | (static_cast<U>(p[i]) << (8 * i)));
  return static_cast<T>(v);
}

template <std::integral T>
constexpr void store_le(uint8_t* p, T value) {
  using U = std::make_unsigned_t<T>;
  const U v = static_cast<U>(value);
  if (!std::is_constant_evaluated() && std::endian::native == std::endian::little) {
    std::memcpy(p, &v, sizeof(T));
    return;
  }
  for (size_t i = 0; i < sizeof(T); ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

/// What a field means, so printers, the assembler and validators can treat fields generically.
enum class Role : uint8_t {
  Opcode,
  WordLen,
  DebugCmd,
  DebugHint,
  WaitMode,
  WaitIdx,
  UpdateMode,
  UpdateIdx,
  SemValue,
  Dtype,
  DataSrc,
  NumElem,
  Step,
  Addr4,
  Addr8,
  ImmVal,
  ImmSrc,
  Channels,
  AluOp,
  Subdim,
  RevOps,
  Reserved,
  MemData,
  VarId,
  VarOffset,
  Plain,
  Raw,
  ZeroFlag,  ///< a u8 flag the validators require to be zero (a must-be-zero field, like Reserved)
  /// A field its family writes, reads and describes (family::Syntax::custom_fields, src/families/<name>/syntax.cpp):
  /// a number (hexadecimal where the family lists it in hex_fields) unless the family's entry names its values or
  /// gives its own text; decode shows the value in hexadecimal and the family's meaning.
  Custom,
};

// ---- Union leaves: stored as their raw bits so every bit pattern survives decode/encode. ----

/// NEURON_ISA_TPB_ADDR4: `addr_immediate` (PartitionOffset) or `addr_reg {regnum, reserved0[2], marker}`.
struct Addr4 {
  uint32_t raw = 0;
  constexpr uint8_t byte(unsigned i) const { return static_cast<uint8_t>(raw >> (8 * i)); }
  constexpr uint8_t marker() const { return byte(3); }
  constexpr uint8_t regnum() const { return byte(0); }
  constexpr uint32_t masked() const { return raw & 0x1FFFFFFFU; }  ///< addr_imm_mask
  /// ADDR_REG or ADDR_SHAPE_REG (common-formats.md §5.2).
  constexpr bool from_register() const { return (marker() & 0xA0) == 0x80; }
  constexpr bool is_indirect() const { return (marker() & 0x60) == 0x20; }
  /// Bit 30 alone (PROJ-CONV-C19).
  constexpr bool shape_from_register() const { return (marker() & 0x40) != 0; }
  bool operator==(const Addr4&) const = default;
};

/// NEURON_ISA_TPB_ADDR8: `addr_immediate` (u64 Neuron address), `addr_reg {reg_lo, reg_hi, reserved0[5],
/// marker}`, or the table form; byte 7 is the marker byte (mask 0xFC).
struct Addr8 {
  uint64_t raw = 0;
  constexpr uint8_t byte(unsigned i) const { return static_cast<uint8_t>(raw >> (8 * i)); }
  constexpr uint8_t marker() const { return static_cast<uint8_t>(byte(7) & 0xFC); }
  constexpr uint8_t reg_lo() const { return byte(0); }
  constexpr uint8_t reg_hi() const { return byte(1); }
  constexpr bool shape_from_register() const { return (marker() & 0x40) != 0; }
  /// addr8_addr_immediate (PROJ-CONV-M2): neither ADDR_REG_BIT nor ADDR_TBL_BIT.
  constexpr bool is_immediate() const { return (marker() & 0xA0) == 0; }
  /// The register-pair forms 0x80 / 0xC0.
  constexpr bool is_register_pair() const { return marker() == 0x80 || marker() == 0xC0; }
  /// Immediate address: the u64 with the marker bits 63..58 cleared (PROJ-CONV-M2).
  constexpr uint64_t immediate() const { return raw & ~(uint64_t{0x3F} << 58); }
  bool operator==(const Addr8&) const = default;
};

/// NEURON_ISA_TPB_IMM_VAL_INST_FIELD: imm_ptr / imm_reg / imm_arith_fp32 / imm_bitvec_* views of 4 bytes.
struct ImmVal {
  uint32_t raw = 0;
  constexpr float as_fp32() const { return std::bit_cast<float>(raw); }
  constexpr uint8_t regnum() const { return static_cast<uint8_t>(raw); }
  constexpr uint32_t reg_reserved() const { return raw >> 8; }  ///< imm_reg.reserved0[3]
  bool operator==(const ImmVal&) const = default;
};

/// How an IMM_VAL field is read, when its reading depends on other fields (decided once, by its family).
enum class ImmReading : uint8_t {
  Value,     ///< the 4 bytes are the immediate itself (fp32 or integer bits)
  Pointer,   ///< a PartitionOffset pointer to the value in SBUF/PSUM
  Register,  ///< imm_reg: the number of the register holding the pointer
};

/// NEURON_ISA_TPB_MEM2D_DATA: 32 bytes seen as registers[32], u8/i8[32], u16/i16[16], u32/i32/fp32[8].
struct Mem2dData {
  std::array<uint8_t, 32> bytes{};
  constexpr uint8_t reg(unsigned k) const { return bytes[k]; }
  constexpr uint16_t u16(unsigned k) const { return load_le<uint16_t>(&bytes[2 * k]); }
  constexpr uint32_t u32(unsigned k) const { return load_le<uint32_t>(&bytes[4 * k]); }
  /// 64-bit immediates: uint32 pairs, low word first (common-formats.md §8).
  constexpr uint64_t u64(unsigned k) const { return load_le<uint64_t>(&bytes[8 * k]); }
  bool operator==(const Mem2dData&) const = default;
};

/// How a MEM2D_DATA field is read, when its reading depends on other fields (decided once, by its family).
enum class DataView : uint8_t {
  Registers,   ///< one register number per byte
  Immediates,  ///< packed elements of the dtype
  Bytes,       ///< no element reading: the 32 bytes as they are
};
struct DataReading {
  DataView view = DataView::Bytes;
  unsigned elem = 1;   ///< bytes per slot
  unsigned cap = 32;   ///< slots in the 32 bytes
  unsigned used = 0;   ///< slots the transfer uses (at most cap)
  bool pairs = false;  ///< Registers of a 64-bit dtype: slot k names r and r+1
};

// ---- Field declarations ----

/// One field of a format: a member of the typed struct at a byte offset, in spec order.
template <class S, class M>
struct Member {
  std::string_view name;
  uint8_t offset;
  M S::*ptr;
  Role role;
};

/// A field declaration whose struct and member types are the member pointer's: field("src", 16, &S::src).
template <class S, class M>
constexpr Member<S, M> field(std::string_view name, uint8_t offset, M S::*ptr, Role role = Role::Plain) {
  return {name, offset, ptr, role};
}

/// The field declarations of one format: a fixed list of Member values. Not std::tuple: with its constrained
/// constructors, including the hundred-odd declarations took 5.9 s of g++ parsing per translation unit, with this
/// aggregate 1.3 s (docs/performance.md, "Build time").
template <size_t I, class M>
struct FieldSlot {
  M member;
};
template <class Seq, class... M>
struct FieldDeclsOf;
template <size_t... I, class... M>
struct FieldDeclsOf<std::index_sequence<I...>, M...> : FieldSlot<I, M>... {
  static constexpr size_t kCount = sizeof...(M);
};
template <class... M>
using FieldDecls = FieldDeclsOf<std::index_sequence_for<M...>, M...>;

namespace detail {
template <size_t... I, class... M>
constexpr FieldDecls<M...> make_field_decls(std::index_sequence<I...>, const M&... m) {
  return {FieldSlot<I, M>{m}...};
}
}  // namespace detail

/// The list of the given field declarations, in order.
template <class... M>
constexpr FieldDecls<M...> field_decls(const M&... m) {
  return detail::make_field_decls(std::index_sequence_for<M...>{}, m...);
}

/// Declaration I of a list.
template <size_t I, class M>
constexpr const M& field_at(const FieldSlot<I, M>& slot) {
  return slot.member;
}

/// f(declaration 0, declaration 1, ...).
template <class F, size_t... I, class... M>
constexpr decltype(auto) apply_fields(F&& f, const FieldDeclsOf<std::index_sequence<I...>, M...>& list) {
  return std::forward<F>(f)(static_cast<const FieldSlot<I, M>&>(list).member...);
}

namespace detail {
template <size_t... I, class... A, size_t... J, class... B>
constexpr auto cat_two(const FieldDeclsOf<std::index_sequence<I...>, A...>& a,
                       const FieldDeclsOf<std::index_sequence<J...>, B...>& b) {
  return field_decls(static_cast<const FieldSlot<I, A>&>(a).member...,
                     static_cast<const FieldSlot<J, B>&>(b).member...);
}
}  // namespace detail

/// The declarations of each list in turn.
template <class L>
constexpr auto cat_fields(const L& list) {
  return list;
}
template <class A, class B, class... Rest>
constexpr auto cat_fields(const A& a, const B& b, const Rest&... rest) {
  return cat_fields(detail::cat_two(a, b), rest...);
}

/// How many declarations a list holds.
template <class L>
inline constexpr size_t field_count = std::remove_cvref_t<L>::kCount;

/// HEADER at byte 0 and EVENTS at byte 4: the opening of every 64-byte format.
template <class S>
constexpr auto header_and_events() {
  return field_decls(field("header", 0, &S::header), field("events", 4, &S::events));
}

/// `fields_of<S>` is the one declaration of format S (a tuple of Member), specialised per format below.
template <class S>
inline constexpr auto fields_of = nullptr;

template <class T>
concept Composite = !std::is_same_v<std::remove_cvref_t<decltype(fields_of<T>)>, std::nullptr_t>;

template <class T>
struct Wire;

template <std::integral T>
struct Wire<T> {
  static constexpr size_t kSize = sizeof(T);
  static constexpr size_t kElem = sizeof(T);
  static constexpr size_t kCount = 1;
  static constexpr bool kSigned = std::is_signed_v<T>;
  static constexpr void read(T& v, const uint8_t* p) { v = load_le<T>(p); }
  static constexpr void write(const T& v, uint8_t* p) { store_le<T>(p, v); }
};

template <class T, size_t N>
struct Wire<std::array<T, N>> {
  static constexpr size_t kSize = N * Wire<T>::kSize;
  static constexpr size_t kElem = Wire<T>::kSize;
  static constexpr size_t kCount = N;
  static constexpr bool kSigned = Wire<T>::kSigned;
  static constexpr void read(std::array<T, N>& v, const uint8_t* p) {
    if constexpr (sizeof(T) == 1) {
      if (!std::is_constant_evaluated()) {
        std::memcpy(v.data(), p, N);
        return;
      }
    }
    for (size_t i = 0; i < N; ++i) Wire<T>::read(v[i], p + i * Wire<T>::kSize);
  }
  static constexpr void write(const std::array<T, N>& v, uint8_t* p) {
    for (size_t i = 0; i < N; ++i) Wire<T>::write(v[i], p + i * Wire<T>::kSize);
  }
};

template <class Leaf, class Raw>
struct RawWire {
  static constexpr size_t kSize = sizeof(Raw);
  static constexpr size_t kElem = sizeof(Raw);
  static constexpr size_t kCount = 1;
  static constexpr bool kSigned = false;
  static constexpr void read(Leaf& v, const uint8_t* p) { v.raw = load_le<Raw>(p); }
  static constexpr void write(const Leaf& v, uint8_t* p) { store_le<Raw>(p, v.raw); }
};
template <>
struct Wire<Addr4> : RawWire<Addr4, uint32_t> {};
template <>
struct Wire<Addr8> : RawWire<Addr8, uint64_t> {};
template <>
struct Wire<ImmVal> : RawWire<ImmVal, uint32_t> {};
template <>
struct Wire<Mem2dData> {
  static constexpr size_t kSize = 32;
  static constexpr size_t kElem = 1;
  static constexpr size_t kCount = 32;
  static constexpr bool kSigned = false;
  static constexpr void read(Mem2dData& v, const uint8_t* p) { Wire<std::array<uint8_t, 32>>::read(v.bytes, p); }
  static constexpr void write(const Mem2dData& v, uint8_t* p) { Wire<std::array<uint8_t, 32>>::write(v.bytes, p); }
};

template <Composite S>
struct Wire<S> {
  static constexpr size_t kSize = S::kSize;
  static constexpr size_t kElem = S::kSize;
  static constexpr size_t kCount = 1;
  static constexpr bool kSigned = false;
  static constexpr void read(S& s, const uint8_t* p) {
    apply_fields(
        [&](const auto&... m) {
          (Wire<std::remove_cvref_t<decltype(s.*(m.ptr))>>::read(s.*(m.ptr), p + m.offset), ...);
        },
        fields_of<S>);
  }
  static constexpr void write(const S& s, uint8_t* p) {
    apply_fields(
        [&](const auto&... m) {
          (Wire<std::remove_cvref_t<decltype(s.*(m.ptr))>>::write(s.*(m.ptr), p + m.offset), ...);
        },
        fields_of<S>);
  }
};

// ---- Run-time descriptors, generated from the declarations (for printers, JSON, assembler) ----

struct FormatDesc;

struct FieldDesc {
  std::string_view name;
  uint8_t offset;     ///< byte offset inside the enclosing format
  uint8_t size;       ///< total bytes
  uint8_t elem_size;  ///< bytes per element
  uint8_t count;      ///< elements (1 for scalars)
  bool is_signed;
  Role role;
  const FormatDesc* sub;  ///< nested format, or nullptr for a leaf
  /// sub != nullptr, as a value: g++ 12 with -fsanitize=undefined cannot compare that address in a constant
  /// expression, and field_ref resolves paths at compile time.
  bool nested;
};

struct FormatDesc {
  std::string_view name;  ///< the ISA's name (MEM_2D, S2_BN, ...)
  uint8_t size;
  std::span<const FieldDesc> fields;
};

template <class S>
struct FormatDescOf;

template <class M>
constexpr const FormatDesc* sub_desc() {
  if constexpr (Composite<M>)
    return &FormatDescOf<M>::kDesc;
  else
    return nullptr;
}

template <class S>
constexpr auto make_field_descs() {
  return apply_fields(
      [](const auto&... m) {
        return std::array<FieldDesc, sizeof...(m)>{
            FieldDesc{m.name, m.offset,
                      static_cast<uint8_t>(Wire<std::remove_cvref_t<decltype(std::declval<S&>().*(m.ptr))>>::kSize),
                      static_cast<uint8_t>(Wire<std::remove_cvref_t<decltype(std::declval<S&>().*(m.ptr))>>::kElem),
                      static_cast<uint8_t>(Wire<std::remove_cvref_t<decltype(std::declval<S&>().*(m.ptr))>>::kCount),
                      Wire<std::remove_cvref_t<decltype(std::declval<S&>().*(m.ptr))>>::kSigned, m.role,
                      sub_desc<std::remove_cvref_t<decltype(std::declval<S&>().*(m.ptr))>>(),
                      Composite<std::remove_cvref_t<decltype(std::declval<S&>().*(m.ptr))>>}...};
      },
      fields_of<S>);
}

template <class S>
struct FormatDescOf {
  static constexpr auto kFields = make_field_descs<S>();
  static constexpr FormatDesc kDesc{S::kName, static_cast<uint8_t>(S::kSize), kFields};
};

template <class S>
constexpr const FormatDesc& format_desc() {
  return FormatDescOf<S>::kDesc;
}

/// Byte offset of a top-level field by name; 0xFF when absent (used by the compile-time checks).
template <class S>
constexpr unsigned offset_of(std::string_view name) {
  for (const auto& f : FormatDescOf<S>::kFields)
    if (f.name == name) return f.offset;
  return 0xFF;
}

/// The fields start at 0, follow each other with no gap or overlap, and end exactly at the format size.
template <class S>
constexpr bool tiles_exactly() {
  unsigned next = 0;
  for (const auto& f : FormatDescOf<S>::kFields) {
    if (f.offset != next) return false;
    next += f.size;
  }
  return next == S::kSize;
}

// ---- Field references: a field's name and byte range, asked of the declaration ----

/// A field by its path in a format ("dtype", "src_mem_pattern.start_addr", "src_mem_pattern.num_elem[3]") and its
/// byte range in the word. Predicates, descriptions and syntax hooks get these from `field_ref`, never write them.
struct FieldRef {
  std::string_view name;
  uint8_t offset;
  uint8_t size;
};

namespace detail {
/// Resolves a dotted path, with an optional `[i]` element index on its last part, under `desc` at `base`.
constexpr bool resolve_field(const FormatDesc& desc, std::string_view path, unsigned base, FieldRef& out) {
  const size_t dot = path.find('.');
  std::string_view head = path.substr(0, dot);
  int element = -1;
  if (const size_t open = head.find('['); open != std::string_view::npos) {
    if (!head.ends_with(']') || open + 2 >= head.size()) return false;
    element = 0;
    for (char c : head.substr(open + 1, head.size() - open - 2)) {
      if (c < '0' || c > '9') return false;
      element = element * 10 + (c - '0');
    }
    head = head.substr(0, open);
  }
  for (const FieldDesc& f : desc.fields) {
    if (f.name != head) continue;
    const unsigned at = base + f.offset;
    if (dot != std::string_view::npos)
      return element < 0 && f.nested && resolve_field(*f.sub, path.substr(dot + 1), at, out);
    if (element >= 0) {
      if (static_cast<unsigned>(element) >= f.count || f.nested) return false;
      out.offset = static_cast<uint8_t>(at + static_cast<unsigned>(element) * f.elem_size);
      out.size = f.elem_size;
      return true;
    }
    out.offset = static_cast<uint8_t>(at);
    out.size = f.size;
    return true;
  }
  return false;
}
}  // namespace detail

/// The field at `path` of format `desc`, or a zero-size reference when there is none (run-time look-up).
constexpr FieldRef find_field_ref(const FormatDesc& desc, std::string_view path) {
  FieldRef r{path, 0, 0};
  if (!detail::resolve_field(desc, path, 0, r)) r = {path, 0, 0};
  return r;
}

/// The field at `path` of format S, resolved at compile time: a path the declaration lacks does not compile.
template <class S>
consteval FieldRef field_ref(std::string_view path) {
  FieldRef r{path, 0, 0};
  if (!detail::resolve_field(FormatDescOf<S>::kDesc, path, 0, r)) throw "field_ref: the format declares no such field";
  return r;
}

/// The same byte range under another name (an alias the spec uses, e.g. MAVERICK's header.inst_flags).
constexpr FieldRef renamed(FieldRef f, std::string_view name) {
  f.name = name;
  return f;
}

/// Two references name the same bytes.
constexpr bool same_bytes(const FieldRef& a, const FieldRef& b) {
  return a.offset == b.offset && a.size == b.size;
}

namespace detail {
template <class S>
constexpr size_t count_role(Role role) {
  size_t n = 0;
  for (const FieldDesc& f : FormatDescOf<S>::kFields) n += f.role == role ? 1 : 0;
  return n;
}
}  // namespace detail

/// Every top-level field of S with `role`, in word order (e.g. the reserved fields a predicate reads).
template <class S, Role R>
constexpr auto field_refs_with_role() {
  std::array<FieldRef, detail::count_role<S>(R)> out{};
  size_t k = 0;
  for (const FieldDesc& f : FormatDescOf<S>::kFields)
    if (f.role == R) out[k++] = {f.name, f.offset, f.size};
  return out;
}

/// Decodes a typed format from its bytes (never fails: every bit pattern is a value).
template <Composite S>
constexpr S read_format(std::span<const uint8_t> bytes) {
  S s{};
  Wire<S>::read(s, bytes.data());
  return s;
}

/// Encodes a typed format into its bytes.
template <Composite S>
constexpr void write_format(const S& s, std::span<uint8_t> bytes) {
  Wire<S>::write(s, bytes.data());
}

// ---- Layouts and families ----

/// A list of types: the registry's families, a family's layouts.
template <class... T>
struct TypeList {};

/// A layout: a 64-byte format that the catalog format `S::kFormat` decodes to on the generations `S::kGens`.
/// A format whose byte layout differs per generation has one layout per generation set.
template <class S>
concept Layout = Composite<S> && S::kSize == kWordBytes&& requires {
  S::kFormat;
  S::kGens;
};

// The parts a family folder defines (src/families/family.hpp); its format header only names them.
namespace family {
struct Validation;
struct Execution;
struct Syntax;
}  // namespace family

// ---- The formats ----

/// NEURON_ISA_TPB_HEADER (4 B).
struct Header {
  static constexpr std::string_view kName = "HEADER";
  static constexpr size_t kSize = 4;
  uint8_t opcode = 0;
  uint8_t inst_word_len = 0;
  uint8_t debug_cmd = 0;
  uint8_t debug_hint = 0;  ///< MAVERICK: also `inst_flags` (PROJ-CONV-C2)
  bool operator==(const Header&) const = default;
};
template <>
inline constexpr auto fields_of<Header> =
    field_decls(Member<Header, uint8_t>{"opcode", 0, &Header::opcode, Role::Opcode},
                Member<Header, uint8_t>{"inst_word_len", 1, &Header::inst_word_len, Role::WordLen},
                Member<Header, uint8_t>{"debug_cmd", 2, &Header::debug_cmd, Role::DebugCmd},
                Member<Header, uint8_t>{"debug_hint", 3, &Header::debug_hint, Role::DebugHint});

/// Where MAVERICK's `inst_flags` lives (PROJ-CONV-C2): one constant, header byte 3.
inline constexpr unsigned kInstFlagsHeaderByte = 3;

/// NEURON_ISA_TPB_EVENTS (8 B).
struct Events {
  static constexpr std::string_view kName = "EVENTS";
  static constexpr size_t kSize = 8;
  uint8_t wait_mode = 0;
  uint8_t wait_idx = 0;
  uint8_t update_mode = 0;
  uint8_t update_idx = 0;
  uint32_t semaphore_value = 0;
  bool operator==(const Events&) const = default;
};
template <>
inline constexpr auto fields_of<Events> =
    field_decls(Member<Events, uint8_t>{"wait_mode", 0, &Events::wait_mode, Role::WaitMode},
                Member<Events, uint8_t>{"wait_idx", 1, &Events::wait_idx, Role::WaitIdx},
                Member<Events, uint8_t>{"update_mode", 2, &Events::update_mode, Role::UpdateMode},
                Member<Events, uint8_t>{"update_idx", 3, &Events::update_idx, Role::UpdateIdx},
                Member<Events, uint32_t>{"semaphore_value", 4, &Events::semaphore_value, Role::SemValue});

/// NEURON_ISA_TPB_TENSOR2D (12 B).
struct Tensor2d {
  static constexpr std::string_view kName = "TENSOR2D";
  static constexpr size_t kSize = 12;
  Addr4 start_addr{};
  std::array<int16_t, 2> step_elem{};
  std::array<uint16_t, 2> num_elem{};
  bool operator==(const Tensor2d&) const = default;
};
template <>
inline constexpr auto fields_of<Tensor2d> =
    field_decls(Member<Tensor2d, Addr4>{"start_addr", 0, &Tensor2d::start_addr, Role::Addr4},
                Member<Tensor2d, std::array<int16_t, 2>>{"step_elem", 4, &Tensor2d::step_elem, Role::Step},
                Member<Tensor2d, std::array<uint16_t, 2>>{"num_elem", 8, &Tensor2d::num_elem, Role::NumElem});

/// NEURON_ISA_TPB_TENSOR3D (16 B).
struct Tensor3d {
  static constexpr std::string_view kName = "TENSOR3D";
  static constexpr size_t kSize = 16;
  Addr4 start_addr{};
  std::array<int16_t, 3> step_elem{};
  std::array<uint16_t, 3> num_elem{};
  /// Elements of the pattern: the product of the three counts (t3d_element_count).
  constexpr uint64_t elements() const {  // spelt out: a loop kept the array in memory in the raw-word acceptor
    return uint64_t{num_elem[0]} * num_elem[1] * num_elem[2];
  }
  bool operator==(const Tensor3d&) const = default;
};
template <>
inline constexpr auto fields_of<Tensor3d> =
    field_decls(Member<Tensor3d, Addr4>{"start_addr", 0, &Tensor3d::start_addr, Role::Addr4},
                Member<Tensor3d, std::array<int16_t, 3>>{"step_elem", 4, &Tensor3d::step_elem, Role::Step},
                Member<Tensor3d, std::array<uint16_t, 3>>{"num_elem", 10, &Tensor3d::num_elem, Role::NumElem});

/// NEURON_ISA_TPB_TENSOR4D (20 B).
struct Tensor4d {
  static constexpr std::string_view kName = "TENSOR4D";
  static constexpr size_t kSize = 20;
  Addr4 start_addr{};
  std::array<int16_t, 4> step_elem{};
  std::array<uint16_t, 4> num_elem{};
  /// Elements of the pattern: the product of the four counts.
  constexpr uint64_t elements() const { return uint64_t{num_elem[0]} * num_elem[1] * num_elem[2] * num_elem[3]; }
  bool operator==(const Tensor4d&) const = default;
};
template <>
inline constexpr auto fields_of<Tensor4d> =
    field_decls(Member<Tensor4d, Addr4>{"start_addr", 0, &Tensor4d::start_addr, Role::Addr4},
                Member<Tensor4d, std::array<int16_t, 4>>{"step_elem", 4, &Tensor4d::step_elem, Role::Step},
                Member<Tensor4d, std::array<uint16_t, 4>>{"num_elem", 12, &Tensor4d::num_elem, Role::NumElem});

/// Any other opcode: header and events decoded, the 52 operand bytes kept raw ("operands not modeled").
struct RawWord {
  static constexpr std::string_view kName = "RAW";
  static constexpr size_t kSize = 64;
  Header header{};
  Events events{};
  std::array<uint8_t, 52> operands{};
  bool operator==(const RawWord&) const = default;
};
template <>
inline constexpr auto fields_of<RawWord> =
    field_decls(Member<RawWord, Header>{"header", 0, &RawWord::header, Role::Plain},
                Member<RawWord, Events>{"events", 4, &RawWord::events, Role::Plain},
                Member<RawWord, std::array<uint8_t, 52>>{"operands", 12, &RawWord::operands, Role::Raw});

/// The union arms of ADDR4, ADDR8 and IMM_VAL_INST_FIELD, for documentation and printers.
struct UnionArm {
  std::string_view union_name;
  std::string_view arm;
  std::string_view field;
  uint8_t offset;
  uint8_t size;
};
inline constexpr std::array<UnionArm, 19> kUnionArms{{
    {"ADDR4", "addr_immediate", "addr_immediate", 0, 4},
    {"ADDR4", "addr_reg", "regnum", 0, 1},
    {"ADDR4", "addr_reg", "reserved0", 1, 2},
    {"ADDR4", "addr_reg", "marker", 3, 1},
    {"ADDR8", "addr_immediate", "addr_immediate", 0, 8},
    {"ADDR8", "addr_reg", "reg_lo", 0, 1},
    {"ADDR8", "addr_reg", "reg_hi", 1, 1},
    {"ADDR8", "addr_reg", "reserved0", 2, 5},
    {"ADDR8", "addr_reg", "marker", 7, 1},
    {"ADDR8", "addr_tbl_offs", "(layout unknown)", 0, 7},
    {"ADDR8", "addr_tbl_offs", "marker", 7, 1},
    {"IMM_VAL_INST_FIELD", "imm_ptr", "imm_ptr", 0, 4},
    {"IMM_VAL_INST_FIELD", "imm_reg", "regnum", 0, 1},
    {"IMM_VAL_INST_FIELD", "imm_reg", "reserved0", 1, 3},
    {"IMM_VAL_INST_FIELD", "imm_arith_fp32", "imm_arith_fp32", 0, 4},
    {"IMM_VAL_INST_FIELD", "imm_bitvec_int32", "imm_bitvec_int32", 0, 4},
    {"IMM_VAL_INST_FIELD", "imm_bitvec_uint32", "imm_bitvec_uint32", 0, 4},
    {"IMM_VAL_INST_FIELD", "imm_bitvec_uint16", "imm_bitvec_uint16[2]", 0, 4},
    {"IMM_VAL_INST_FIELD", "imm_bitvec_uint8", "imm_bitvec_uint8[4]", 0, 4},
}};

/// ADDR4 marker byte values (common-formats.md §5.2).
namespace addr4_marker {
inline constexpr uint8_t kImm = 0x00, kIndirectImm = 0x20, kShapeReg = 0x40, kAddrReg = 0x80, kIndirectReg = 0xA0,
                         kAddrShapeReg = 0xC0, kMxTensorV2 = 0x01;
}
/// ADDR8 marker values and bits (common-formats.md §5.3).
namespace addr8_marker {
inline constexpr uint8_t kMask = 0xFC, kImm = 0x00, kShapeReg = 0x40, kAddrReg = 0x80, kAddrShapeReg = 0xC0,
                         kTblShapeImm = 0x20, kTblShapeReg = 0x60, kTblOffsetReg = 0x08, kTblOffsetWide = 0x04,
                         kVarIdBit = 0x10;
}
// ---- Compile-time checks against the spec's compile-verified offsets ----

static_assert(tiles_exactly<Header>() && tiles_exactly<Events>() && tiles_exactly<Tensor2d>() &&
              tiles_exactly<Tensor3d>() && tiles_exactly<Tensor4d>() && tiles_exactly<RawWord>());
static_assert(offset_of<Tensor2d>("num_elem") == 8 && offset_of<Tensor3d>("num_elem") == 10 &&
              offset_of<Tensor4d>("num_elem") == 12);

}  // namespace tpbisa
