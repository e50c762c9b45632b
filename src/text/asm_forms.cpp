// The operand forms with a syntax of their own: ADDR4 / ADDR8 addresses, IMM_VAL immediates, MEM2D_DATA, and one
// element of a dtype (which a family's Role::Custom hooks use, e.g. the datapath's MEMSET fill value).
//
// How an IMM_VAL operand reads is its family's decision (family::imm_reading); the MEM2D_DATA view reads its sibling
// fields by role (DATA_SRC, dtype, num_elem), the same way the field descriptions do; every bit pattern keeps a raw
// spelling.
#include <algorithm>

#include <fmt/format.h>

#include "families/family.hpp"
#include "text/asm_fields.hpp"
#include "tpbisa/address.hpp"
#include "tpbisa/catalog.hpp"
#include "tpbisa/location.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::tasm {
namespace {

constexpr unsigned kAddr8MarkerShift = 58;  // ADDR8 bits 63..58 are the marker (PROJ-CONV-M2)

template <class... Args>
void append(std::string& out, fmt::format_string<Args...> f, Args&&... args) {
  fmt::format_to(std::back_inserter(out), f, std::forward<Args>(args)...);
}

// ---- Locations: the library's one grammar and printer (tpbisa/location.hpp) ----

/// Appends the location form of a decoded on-chip address; false when it is outside SBUF and PSUM.
bool print_location(std::string& out, const PartitionAddress& p, Generation) {
  return append_location(out, p);
}

/// A cursor over one token, for the register-pair form.
struct Cursor {
  std::string_view rest;
  bool eat(std::string_view s) {
    if (rest.size() < s.size() || !iequals(rest.substr(0, s.size()), s)) return false;
    rest.remove_prefix(s.size());
    return true;
  }
  /// A non-negative number up to the next character of `stops` (or the end).
  bool number(std::string_view stops, uint64_t& v) {
    const size_t end = std::min(rest.find_first_of(stops), rest.size());
    IntLiteral lit;
    if (parse_int(rest.substr(0, end), lit) != IntParse::Ok || lit.negative) return false;
    v = lit.magnitude;
    rest.remove_prefix(end);
    return true;
  }
};

/// The on-chip location forms (the library also reads sbuf:P:OFF and psum:P:OFF).
bool is_location(std::string_view t) {
  if (t.size() < 5) return false;
  const std::string_view head = t.substr(0, 5);
  return iequals(head, "sbuf[") || iequals(head, "psum[") || iequals(head, "sbuf:") || iequals(head, "psum:");
}

constexpr std::string_view kLocationForms = "sbuf[pN]+OFF or psum[pN].bankB+OFF";

/// Reads an on-chip location with the library's parser: any byte of a partition's stride (whether it is backed
/// is the validator's question), the address its PartitionOffset.
bool parse_location(const AsmField& f, const Token& t, Generation g, uint64_t& addr, LineError& error) {
  const Expected<Location> loc = tpbisa::parse_location(t.text, g, LocationScope::Stride);
  if (!loc) {
    error = error_at(t, loc.error().kind == ErrorKind::Syntax
                            ? fmt::format("bad location `{}` for `{}`: expected {}", t.text, f.path, kLocationForms)
                            : fmt::format("`{}`: {}", f.path, loc.error().message));
    return false;
  }
  addr = loc->address;
  return true;
}

constexpr std::string_view kAddr4Forms = "sbuf[pN]+OFF or psum[pN].bankB+OFF, a register rN, or raw 0x bits (ADDR4)";
constexpr std::string_view kAddr8Forms =
    "sbuf[pN]+OFF or psum[pN].bankB+OFF, dev:0xADDRESS, a register pair rLO:rHI, or raw 0x bits (ADDR8)";

bool parse_raw(const AsmField& f, const Token& t, unsigned bits, uint64_t& v, std::string_view forms,
               LineError& error) {
  IntLiteral lit;
  const IntParse parsed = parse_int(t.text, lit);
  if (parsed == IntParse::NotANumber) {
    error = error_at(t, fmt::format("bad value `{}` for `{}`: expected {}", t.text, f.path, forms));
    return false;
  }
  if (parsed == IntParse::TooLarge || !fit_int(lit, bits, false, v)) {
    error = error_at(t, fmt::format("`{}`: {} is out of range {}", f.path, t.text, range_text(bits, false)));
    return false;
  }
  return true;
}

// ---- IMM_VAL views ----

/// The reading of an IMM_VAL operand is its family's decision (family::imm_reading), shared with the validator and
/// the field descriptions.
ImmReading imm_view(const AsmField& f, const Word& w) {
  return family::imm_reading(w, f.path);
}

constexpr std::string_view kImmForms =
    "a float (1.5, -2.0, inf), raw 0x bits, a pointer sbuf[pN]+OFF / psum[pN].bankB+OFF, or a register rN";

// ---- MEM2D_DATA views ----

/// The reading of `data` is its family's (family::data_reading, shared with the validator, the executor and the
/// field descriptions); the dtype and src_datasrc siblings only spell the elements and word the messages.
struct DataLayout : DataReading {
  const DtypeInfo* dtype = nullptr;
  uint64_t src = 0;
  uint8_t dtype_code = 0;
};

DataLayout data_layout(const Word& w, FieldList all) {
  DataLayout d;
  static_cast<DataReading&>(d) = family::data_reading(w);
  const AsmField* src = sibling(all, Role::DataSrc);
  const AsmField* dt = sibling(all, Role::Dtype);
  d.src = src != nullptr ? load_bits(w, src->offset, src->size) : 0;
  d.dtype_code = dt != nullptr ? static_cast<uint8_t>(load_bits(w, dt->offset, 1)) : 0;
  d.dtype = find_dtype(d.dtype_code);
  // Unreachable (a code with a size is a catalog row); kept so an element is never spelled without its dtype.
  if (d.view == DataView::Immediates && d.dtype == nullptr) static_cast<DataReading&>(d) = DataReading{};
  return d;
}

bool is_fp32_container(const DtypeInfo& d) {
  return d.kind == DtypeKind::Float && d.bits == 32;
}

void print_data_element(std::string& out, uint64_t bits, const DataLayout& d) {
  const DtypeInfo& t = *d.dtype;
  if (is_fp32_container(t)) {
    const std::string lit = fp32_literal(static_cast<uint32_t>(bits));
    if (!lit.empty())
      out += lit;
    else
      append(out, "{:#010x}", bits);
  } else if (t.kind == DtypeKind::UInt) {
    append(out, "{}", bits);
  } else if (t.kind == DtypeKind::SInt) {
    const unsigned shift = 64 - 8 * d.elem;
    append(out, "{}", static_cast<int64_t>(bits << shift) >> shift);
  } else {
    append(out, "{:#0{}x}", bits, 2 + 2 * d.elem);
  }
}

bool parse_data_element(const AsmField& f, size_t k, const Token& t, const DataLayout& d, uint64_t& bits,
                        LineError& error) {
  const auto name = [&] { return fmt::format("{}[{}]", f.path, k); };  // only messages need it
  if (d.view == DataView::Registers) {
    uint8_t reg = 0;
    if (parse_register(t.text, reg)) {
      bits = reg;
      return true;
    }
    error = error_at(
        t, fmt::format("`{}`: expected a register r0..r255 (src_datasrc is REGISTER), got `{}`", name(), t.text));
    return false;
  }
  const DtypeInfo& dt = *d.dtype;
  const unsigned width = 8 * d.elem;
  IntLiteral lit;
  const IntParse parsed = parse_int(t.text, lit);
  const bool hex = parsed != IntParse::NotANumber && lit.hex;
  if (is_fp32_container(dt) && !hex) {
    uint32_t f32 = 0;
    const FloatParse r = parse_fp32(t.text, f32);
    if (r == FloatParse::Ok)
      bits = f32;
    else
      error = error_at(t, r == FloatParse::OutOfRange
                              ? fmt::format("`{}`: {} is out of the {} range", name(), t.text, dt.short_name)
                              : fmt::format("`{}`: `{}` is not a number (dtype {}: a number or 0x bits)", name(),
                                            t.text, dt.short_name));
    return r == FloatParse::Ok;
  }
  const bool is_signed = dt.kind == DtypeKind::SInt;
  if (parsed == IntParse::NotANumber) {
    error = error_at(t, fmt::format("`{}`: `{}` is not a number (dtype {})", name(), t.text, dt.short_name));
    return false;
  }
  if (parsed == IntParse::TooLarge || !fit_int(lit, width, is_signed, bits)) {
    error = error_at(t, fmt::format("`{}`: {} is out of range for {} ({})", name(), t.text, dt.short_name,
                                    range_text(width, is_signed)));
    return false;
  }
  return true;
}

void print_data_bytes(std::string& out, const AsmField& f, const Word& w) {
  out += "0x";
  for (unsigned i = 0; i < f.size; ++i) append(out, "{:02x}", w[f.offset + i]);
}

int nibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// `0x` and exactly two hex digits per byte of the field, in word order.
bool parse_data_bytes(const AsmField& f, const Token& t, Word& w) {
  const std::string_view s = t.text;
  if (s.size() != 2 + 2 * size_t{f.size} || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return false;
  Word out = w;
  for (unsigned i = 0; i < f.size; ++i) {
    const int hi = nibble(s[2 + 2 * i]);
    const int lo = nibble(s[3 + 2 * i]);
    if (hi < 0 || lo < 0) return false;
    out[f.offset + i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  w = out;
  return true;
}

std::string data_list_needs(const DataLayout& d) {
  if (d.src > 1) return fmt::format("src_datasrc {} is neither REGISTER nor IMMEDIATE", d.src);
  return fmt::format("dtype {:#04x} has no element size", d.dtype_code);
}

}  // namespace

// The reading of an address is core's (describe); the spellings below are only what each reading writes, and a
// pattern no spelling writes back exactly keeps its raw bits.
void print_addr4(std::string& out, uint32_t raw, Generation g) {
  const Addr4Meaning m = describe(Addr4{raw}, g);
  if (m.plain_immediate && print_location(out, m.target, g)) return;
  if (m.register_form) {
    append(out, "r{}", m.regnum);
    return;
  }
  append(out, "{:#010x}", raw);
}

void print_addr8(std::string& out, uint64_t raw, Generation g) {
  const Addr8Meaning m = describe(Addr8{raw}, g);
  if (m.plain_immediate) {
    // PROJ-CONV-N4: only the low region aliases SBUF/PSUM; every other address is flat device memory.
    if (m.region == Region::Outside || !print_location(out, m.on_chip, g)) out += device_location(m.address);
    return;
  }
  if (m.register_form) {
    append(out, "r{}:r{}", m.reg_lo, m.reg_hi);
    return;
  }
  append(out, "{:#018x}", raw);
}

bool parse_addr4(const AsmField& f, const Token& t, Word& w, Generation g, LineError& error) {
  uint64_t v = 0;
  uint8_t reg = 0;
  if (is_location(t.text)) {
    if (!parse_location(f, t, g, v, error)) return false;
  } else if (parse_register(t.text, reg)) {
    v = (uint64_t{addr4_marker::kAddrReg} << 24) | reg;
  } else if (!parse_raw(f, t, 32, v, kAddr4Forms, error)) {
    return false;
  }
  store_bits(w, f.offset, 4, v);
  return true;
}

bool parse_addr8(const AsmField& f, const Token& t, Word& w, Generation g, LineError& error) {
  uint64_t v = 0;
  Cursor c{t.text};
  uint64_t lo = 0, hi = 0;
  if (is_location(t.text)) {
    if (!parse_location(f, t, g, v, error)) return false;
  } else if (c.eat("dev:")) {
    // The library's grammar reads the address; a 64-bit number that does not fit 58 bits is worded here.
    const Expected<Location> loc = tpbisa::parse_location(t.text, g, LocationScope::Stride);
    bool too_big = false;
    uint64_t ignored = 0;
    if (!loc && !(parse_u64_text(c.rest, ignored, &too_big), too_big)) {
      error = error_at(t, fmt::format("bad device address `{}` for `{}`: expected dev:0xADDRESS", t.text, f.path));
      return false;
    }
    if (!loc || loc->address >> kAddr8MarkerShift != 0) {
      error = error_at(t, fmt::format("`{}`: device address {} does not fit in 58 bits (bits 63..58 are the ADDR8 "
                                      "marker); write the raw 0x value instead",
                                      f.path, c.rest));
      return false;
    }
    v = loc->address;
  } else if (c.eat("r") && c.number(":", lo) && c.eat(":r") && c.number("", hi) && lo <= 0xFF && hi <= 0xFF) {
    v = (uint64_t{addr8_marker::kAddrReg} << 56) | (hi << 8) | lo;
  } else if (!parse_raw(f, t, 64, v, kAddr8Forms, error)) {
    return false;
  }
  store_bits(w, f.offset, 8, v);
  return true;
}

void print_imm(std::string& out, const AsmField& f, const Word& w, FieldList, Generation g) {
  const auto raw = static_cast<uint32_t>(load_bits(w, f.offset, 4));
  switch (imm_view(f, w)) {
    case ImmReading::Pointer:
      // Bits above the 29 address bits would be dropped by the location form (decode masks them off).
      if ((raw & ~kPartitionAddrMask) == 0 && print_location(out, decode_partition_offset(raw, g), g)) return;
      break;
    case ImmReading::Register:
      if ((raw >> 8) == 0) {  // imm_reg: regnum, then three reserved bytes
        append(out, "r{}", raw);
        return;
      }
      break;
    case ImmReading::Value: {
      const std::string lit = fp32_literal(raw);
      if (lit.empty()) break;
      out += lit;
      return;
    }
  }
  append(out, "{:#010x}", raw);
}

bool parse_imm(const AsmField& f, const Token& t, Word& w, FieldList, Generation g, LineError& error) {
  uint64_t v = 0;
  uint8_t reg = 0;
  IntLiteral lit;
  const IntParse parsed = parse_int(t.text, lit);
  if (is_location(t.text)) {
    if (!parse_location(f, t, g, v, error)) return false;
  } else if (parse_register(t.text, reg)) {
    v = reg;
  } else if (looks_like_float(t.text) ||
             (parsed != IntParse::NotANumber && !lit.hex && imm_view(f, w) == ImmReading::Value)) {
    // In the value view a decimal integer is a number too: imm1=2 means 2.0.
    uint32_t bits = 0;
    const FloatParse r = parse_fp32(t.text, bits);
    if (r != FloatParse::Ok) {
      error = error_at(t, r == FloatParse::OutOfRange
                              ? fmt::format("`{}`: {} is out of the fp32 range", f.path, t.text)
                              : fmt::format("bad immediate `{}` for `{}`: expected {}", t.text, f.path, kImmForms));
      return false;
    }
    v = bits;
  } else if (parsed == IntParse::NotANumber) {
    error = error_at(t, fmt::format("bad immediate `{}` for `{}`: expected {}", t.text, f.path, kImmForms));
    return false;
  } else if (parsed == IntParse::TooLarge || !fit_int(lit, 32, true, v)) {
    error = error_at(t, fmt::format("`{}`: {} is out of range {}", f.path, t.text, range_text(32, true)));
    return false;
  }
  store_bits(w, f.offset, 4, v);
  return true;
}

void print_data(std::string& out, const AsmField& f, const Word& w, FieldList all, Generation) {
  const DataLayout d = data_layout(w, all);
  if (d.view == DataView::Bytes) {
    print_data_bytes(out, f, w);
    return;
  }
  // The used slots, and any later slot that is not zero, so that every byte is written.
  unsigned shown = d.used;
  for (unsigned k = d.used; k < d.cap; ++k)
    if (load_bits(w, f.offset + k * d.elem, d.elem) != 0) shown = k + 1;
  out += '{';
  for (unsigned k = 0; k < shown; ++k) {
    if (k != 0) out += ',';
    const uint64_t bits = load_bits(w, f.offset + k * d.elem, d.elem);
    if (d.view == DataView::Registers)
      append(out, "r{}", bits);
    else
      print_data_element(out, bits, d);
  }
  out += '}';
}

bool parse_data(const AsmField& f, const ValueText& v, Word& w, FieldList all, Generation, LineError& error) {
  const DataLayout d = data_layout(w, all);
  if (!v.list) {
    if (parse_data_bytes(f, v.scalar, w)) return true;
    error = error_at(
        v.scalar, fmt::format("`{}` takes a list {{...}} of {} or 0x followed by {} hex digits, got `{}`", f.path,
                              d.view == DataView::Registers ? "registers" : "immediates", 2 * f.size, v.scalar.text));
    return false;
  }
  if (d.view == DataView::Bytes) {
    error = error_at(v.open, fmt::format("`{}` cannot be a list: {}; write 0x followed by {} hex digits", f.path,
                                         data_list_needs(d), 2 * f.size));
    return false;
  }
  if (v.items.size() > d.cap) {
    error = error_at(v.items[d.cap],
                     fmt::format("`{}` holds at most {} {}, got {}", f.path, d.cap,
                                 d.view == DataView::Registers ? std::string("registers")
                                                               : fmt::format("{} immediates", d.dtype->short_name),
                                 v.items.size()));
    return false;
  }
  Word out = w;
  for (unsigned i = 0; i < f.size; ++i) out[f.offset + i] = 0;  // slots left out are zero
  for (size_t k = 0; k < v.items.size(); ++k) {
    uint64_t bits = 0;
    if (!parse_data_element(f, k, v.items[k], d, bits, error)) return false;
    store_bits(out, f.offset + static_cast<unsigned>(k * d.elem), d.elem, bits);
  }
  w = out;
  return true;
}

// ---- One element of a dtype (a family's Role::Custom hooks write theirs this way) ----

void print_dtype_element(std::string& out, uint64_t bits, const DtypeInfo& dtype, unsigned bytes) {
  DataLayout d;
  d.dtype = &dtype;
  d.elem = bytes;
  print_data_element(out, bits, d);
}

bool parse_dtype_element(const AsmField& f, size_t k, const Token& t, const DtypeInfo& dtype, unsigned bytes,
                         uint64_t& bits, LineError& error) {
  DataLayout d;
  d.view = DataView::Immediates;
  d.dtype = &dtype;
  d.elem = bytes;
  return parse_data_element(f, k, t, d, bits, error);
}

}  // namespace tpbisa::tasm
