// Machine state as the tool reads and shows it: STATE.json, locations, element types and --dump specs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "tpbisa/catalog.hpp"
#include "tpbisa/generation.hpp"
#include "tpbisa/numerics.hpp"
#include "tpbisa/state.hpp"

namespace tpbisa::cli {

/// Most elements one STATE.json may write, and one --dump may show.
inline constexpr uint64_t kMaxStateElements = uint64_t{1} << 22;
inline constexpr uint64_t kMaxDumpElements = uint64_t{1} << 22;

/// A place in Neuron memory: `dev:ADDR`, `sbuf:PARTITION:OFFSET` or `psum:PARTITION:OFFSET` (numbers
/// decimal or 0x hex).
struct Location {
  enum class Kind : uint8_t { Dev, Sbuf, Psum };
  Kind kind = Kind::Dev;
  uint64_t address = 0;  ///< Neuron address of the first byte
  uint32_t partition = 0;
  uint32_t offset = 0;
  std::string text;  ///< normalised spelling: "dev:0x2000", "sbuf:2:0x100"
};

/// Parses a location; for sbuf/psum the partition must exist on `g` and the offset be a backed byte
/// (sbuf_address / psum_address). `error` says what is wrong, without naming the input.
bool parse_location(std::string_view text, Generation g, Location& out, std::string& error);

/// Checks that `bytes` bytes from `loc` are addressable: inside the partition's backed bytes for sbuf/psum;
/// for dev, not past 2^64 and, in the low SBUF/PSUM region, inside one partition's backed bytes.
bool check_extent(const Location& loc, Generation g, uint64_t bytes, std::string& error);

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
bool parse_element_type(std::string_view text, bool need_numeric, ElementType& out, std::string& error);

/// A JSON value (number, or "nan"/"inf"/"-inf" for floats) as the element's bits.
bool value_to_bits(const nlohmann::json& v, const ElementType& t, const ConvertOptions& convert, uint64_t& bits,
                   std::string& error);
/// A "0x..." string (at most the element's width) as the element's bits.
bool hex_to_bits(const nlohmann::json& v, const ElementType& t, uint64_t& bits, std::string& error);

/// The element's value for JSON: integers as JSON integers; floats as numbers, or "nan", "inf", "-inf".
nlohmann::ordered_json bits_to_json(uint64_t bits, const ElementType& t);
/// The element's value as text ("1.5", "-3", "nan").
std::string bits_to_text(uint64_t bits, const ElementType& t);
/// "0x" and hex digits padded to the element width.
std::string bits_hex(uint64_t bits, unsigned size);
/// A float as JSON: the shortest decimal that reads back as the same float, or "nan", "inf", "-inf".
nlohmann::ordered_json float_json(float f);

/// Loads STATE.json into `state` (registers, semaphores, events, memory). Errors name the file, the key or
/// index and what is wrong; the state may be partly written when it fails (the caller then stops).
bool load_state(const std::string& path, MachineState& state, const ConvertOptions& convert, std::string& error);

/// `--dump` specs: dev:ADDR:DTYPE:COUNT, sbuf:P:OFF:DTYPE:COUNT, psum:P:OFF:DTYPE:COUNT, dve:CHANNEL.
struct DumpSpec {
  enum class Kind : uint8_t { Memory, Dve };
  Kind kind = Kind::Memory;
  Location at;
  ElementType type;
  uint64_t count = 0;
  unsigned channel = 0;
  std::string text;  ///< as given
};
bool parse_dump_spec(std::string_view text, Generation g, DumpSpec& out, std::string& error);

}  // namespace tpbisa::cli
