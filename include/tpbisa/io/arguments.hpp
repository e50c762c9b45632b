// The grammars of user-given values the command line and the Python module share: byte sizes (--max-memory 1M),
// schedules (--schedule random:7), NAME=VALUE pairs (--input, --expect) and trace filters (--trace-filter).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tpbisa/io/dump.hpp"
#include "tpbisa/machine.hpp"

namespace tpbisa::io {

/// A byte count: a number (decimal or 0x hex) with an optional binary suffix K, M, G or T (also KB, KiB, k, ...,
/// any case) or B; nullopt when it is not one or does not fit 64 bits.
std::optional<uint64_t> parse_size(std::string_view text);

/// The engine order of a run: `default` (round robin PE..SP, core by core), `reverse`, or `random:SEED`; sets
/// options.schedule and options.seed, false (options untouched) when `text` is none of these.
bool parse_schedule(std::string_view text, MachineOptions& options);

/// NAME=VALUE with neither side empty (the first '=' splits); false otherwise.
bool split_pair(std::string_view text, std::string& name, std::string& value);

/// Which steps a trace keeps (--trace-filter engine=PE, opcode=Matmul or 0x02, core=0): the values of one key are
/// alternatives, different keys must all hold; no value of a key: every step passes it.
class TraceFilter {
 public:
  /// Adds one KEY=VALUE; nullopt, or the error ("engine 'x' is not an engine (pe, act, pool, dve, sp)").
  std::optional<std::string> add(std::string_view text);
  bool empty() const { return engines_.empty() && opcodes_.empty() && cores_.empty(); }
  bool pass(const StepResult& r) const;

 private:
  std::vector<EngineId> engines_;
  std::vector<std::string> opcodes_;  ///< mnemonics in lower case, or "0x02"
  std::vector<unsigned> cores_;
};

/// A number option in min..max (decimal or 0x hex): nullopt and `error` set to "OPTION 'TEXT' is not a number" or
/// "OPTION 'TEXT' is out of range MIN..MAX".
std::optional<uint64_t> number_option(std::string_view option, std::string_view text, uint64_t min, uint64_t max,
                                      std::string& error);

/// An fp32 operand (`neff act-eval`): a decimal number (inf, nan included) or 0x-prefixed bits; nullopt otherwise.
std::optional<uint32_t> parse_fp32_operand(const std::string& text);

/// The tolerances of an output comparison (--rtol, --atol): numbers 0 or more, finite; the problem otherwise
/// ("--rtol 'x' is not a number 0 or more").
std::optional<std::string> parse_tolerances(const std::string& rtol, const std::string& atol, double& r, double& a);

/// The --dump specs of a run for generation `gen`, the memory dumps together showing at most `max_elements`
/// elements; the problem otherwise ("--dump 'SPEC': why").
std::optional<std::string> parse_dump_specs(std::span<const std::string> texts, Generation gen, uint64_t max_elements,
                                            std::vector<DumpSpec>& dumps);

}  // namespace tpbisa::io
