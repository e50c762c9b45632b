// Shared pieces of the family files: the common predicates every validator starts with, and helpers.
#pragma once

#include <string>
#include <variant>

#include <fmt/format.h>

#include "core/predicates.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa::family {

/// The typed body of an instruction whose format the dispatcher has already checked.
template <class S>
const S& body(const Instruction& i) {
  return *std::get_if<S>(&i.body);
}

extern const Predicate kHasValidNeuronHeader;
extern const Predicate kHasValidNeuronEvents;
extern const Validator kHeaderOnlyValidator;

/// "UINT32 (0x09)", or "0x42 (not a dtype of cayman)".
std::string dtype_label(uint8_t d, Generation g);
/// "ADD (0x04)", or "0x1e (not an ALU op of cayman)".
std::string aluop_label(uint8_t op, Generation g);
/// "sbuf[p0]+0x100" style rendering of an ADDR4.
std::string addr4_label(const Addr4& a, Generation g);

// Validators of the three families (defined in their family files).
const Validator* mem2d_validator(uint8_t opcode);
const Validator* s2bn_validator(uint8_t opcode);
const Validator* tsm_validator(uint8_t opcode, Generation g);

// Every validator, for documentation (defined per family).
std::span<const Validator* const> mem2d_validators();
std::span<const Validator* const> s2bn_validators();
std::span<const Validator* const> tsm_validators();

}  // namespace tpbisa::family
