// Element types of memory as users name them (catalog dtypes), and element values <-> bits for JSON and text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "tpbisa/catalog.hpp"
#include "tpbisa/expected.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::io {

/// The dtype of memory elements: a catalog name or short name (tpbisa::parse_dtype), at least one byte wide.
struct ElementType {
  uint8_t code = 0;
  const DtypeInfo* info = nullptr;
  unsigned size = 0;     ///< bytes per element
  bool integer = false;  ///< 8/16/32/64-bit integers: values are JSON integers
  bool is_signed = false;
  bool floating = false;  ///< convertible floats: values go through from_fp32_bits / to_fp32_bits
  bool numeric() const { return integer || floating; }
};

/// Parses a dtype name; dtypes narrower than a byte, or without a size, are refused. With `need_numeric`
/// the dtype must also have numeric values (integers, or floats the conversion module defines).
Expected<ElementType> parse_element_type(std::string_view text, bool need_numeric);

/// A JSON value (number, or "nan"/"inf"/"-inf" for floats) as the element's bits.
Expected<uint64_t> value_to_bits(const nlohmann::json& v, const ElementType& t, const ConvertOptions& convert);
/// A "0x..." string (at most the element's width) as the element's bits.
Expected<uint64_t> hex_to_bits(const nlohmann::json& v, const ElementType& t);

/// The element's value for JSON: integers as JSON integers; floats as numbers, or "nan", "inf", "-inf".
nlohmann::ordered_json bits_to_json(uint64_t bits, const ElementType& t);
/// The element's value as text ("1.5", "-3", "nan").
std::string bits_to_text(uint64_t bits, const ElementType& t);
/// "0x" and hex digits padded to `size` bytes.
std::string bits_hex(uint64_t bits, unsigned size);
/// A float as JSON: the shortest decimal that reads back as the same float, or "nan", "inf", "-inf".
nlohmann::ordered_json float_json(float f);

}  // namespace tpbisa::io
