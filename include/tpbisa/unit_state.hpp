// Unit state a family declares (the DVE's scalar flops, match keys and BatchNorm parameters), so that every dump of
// it — `tpbisa run --dump dve:CHANNEL` as text and JSON, Python's Machine.flops — is derived from the declaration,
// with no per-family code outside the family's folder.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tpbisa/state.hpp"

namespace tpbisa {

/// One value of unit state in the shape of its JSON dump (tpbisa::io::unit_state_json writes it): scalars, and
/// objects and arrays of them. Every value carries the key it has in its parent object (empty in an array).
struct StateValue {
  enum class Kind : uint8_t {
    Null,
    Bool,
    Uint,
    Fp32,    ///< 32 bits read as an fp32 (JSON: the shortest decimal, or "nan", "inf", "-inf")
    Bits32,  ///< 32 bits as "0x" and 8 hex digits
    Name,    ///< a fixed name ("arith")
    Object,  ///< `items` in order, each with its key
    Array,   ///< `items` in order
  };
  Kind kind = Kind::Null;
  std::string_view key;
  uint64_t value = 0;     ///< Bool, Uint; the bits of Fp32 and Bits32
  std::string_view name;  ///< Name (static storage)
  std::vector<StateValue> items;

  static StateValue null() { return {}; }
  static StateValue boolean(bool b) { return scalar(Kind::Bool, b ? 1 : 0); }
  static StateValue uint(uint64_t v) { return scalar(Kind::Uint, v); }
  static StateValue fp32(uint32_t bits) { return scalar(Kind::Fp32, bits); }
  static StateValue bits32(uint32_t bits) { return scalar(Kind::Bits32, bits); }
  static StateValue named(std::string_view n) {
    StateValue v;
    v.kind = Kind::Name;
    v.name = n;
    return v;
  }
  static StateValue object() { return scalar(Kind::Object, 0); }
  static StateValue array() { return scalar(Kind::Array, 0); }
  /// Appends `v` under `key` (an object) or as the next element (an array, `key` empty); returns this value.
  StateValue& add(std::string_view k, StateValue v) {
    v.key = k;
    items.push_back(std::move(v));
    return *this;
  }
  StateValue& add(StateValue v) { return add({}, std::move(v)); }

 private:
  static StateValue scalar(Kind k, uint64_t v) {
    StateValue s;
    s.kind = k;
    s.value = v;
    return s;
  }
};

/// One array of a unit's raw state, `slots` values per instance (Python's Machine.flops["imm"]: an array of
/// instances x slots; slots 0: one value per instance, a 1-D array).
struct UnitStateArray {
  enum class Type : uint8_t { U32, U8, Bool };
  std::string_view name;
  Type type = Type::U32;
  unsigned slots = 0;
  uint32_t (*read)(const EngineState& s, unsigned instance, unsigned slot) = nullptr;
};

/// Unit state of an engine, in `instances` numbered instances (the DVE's channels), as one family declares it.
struct UnitState {
  std::string_view name;      ///< the --dump prefix and the JSON "at": "dve" (dve:3)
  std::string_view instance;  ///< what an instance is called: "channel" (messages, the JSON key, the text heading)
  unsigned instances = 0;
  std::span<const UnitStateArray> arrays;
  /// Instance `i` as the JSON dump shows it after "at" and the instance number.
  StateValue (*describe)(const EngineState& s, unsigned i) = nullptr;
  /// Instance `i` as the text dump shows it below its heading, one line each ("  imm[0] ...\n").
  std::string (*text)(const EngineState& s, unsigned i) = nullptr;
};

/// Every unit state the registered families declare, in registry order.
std::span<const UnitState* const> unit_states();
/// The unit state named `name` (any case), or nullptr.
const UnitState* find_unit_state(std::string_view name);

}  // namespace tpbisa
