// The activation-function tables of a NEFF for the command line and Python: the `neff tables` listing, the
// evaluation of one function over values, and handing a NEFF's sets to a single-stream machine.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tpbisa/expected.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/neff.hpp"

namespace tpbisa::io {

/// `tpbisa neff tables --json`: per subgraph, the sets Activation.json lists (or the load error of each), each with
/// its functions (name, id, catalog name, exact or reference model, input range of its segments, BUCKET records).
nlohmann::ordered_json activation_tables_json(const neff::Neff& n);
/// The same as text, one line per function.
std::string activation_tables_text(const neff::Neff& n);

/// One evaluated value.
struct ActEvalRow {
  uint32_t in = 0;   ///< fp32 bits
  uint32_t out = 0;  ///< fp32 bits
};
/// The outcome of `tpbisa act eval`: the set and function used, whether the function is exact, and the values.
struct ActEvalResult {
  std::string set;
  std::string function;  ///< the profile's func_name
  unsigned func_id = 0;
  bool exact = false;  ///< act-index-ops.md §3.7; otherwise the compiler's reference model (PROJ-CONV-A1)
  std::vector<ActEvalRow> rows;
};
/// Evaluates `func` (a base name such as "exp", a func_name, or a decimal id) at `inputs` (fp32 bits) with the first
/// embedded set of the first subgraph that has it (or the set named `set` when not empty).
Expected<ActEvalResult> activation_eval(const neff::Neff& n, std::string_view func, std::span<const uint32_t> inputs,
                                        std::string_view set = {});

/// One function of a NEFF's tables, resolved once and evaluated over arrays (Python's `tables.eval`): no allocation
/// and no exception per value.
class ActEvaluator {
 public:
  /// The function `func` (as activation_eval) of the first embedded set that has it, or of `set`.
  static Expected<ActEvaluator> make(const neff::Neff& n, std::string_view func, std::string_view set = {});
  /// out[i] = f(in[i]) (fp32 bits); false, with `message` set, at an index outside the tables or a multipass profile.
  bool eval(const uint32_t* in, uint32_t* out, size_t count, std::string& message) const;
  const std::string& set_name() const { return set_name_; }
  const std::string& function() const { return function_; }
  bool exact() const { return exact_; }

 private:
  std::shared_ptr<const void> set_;  ///< the act::TableSet, kept alive
  const void* profile_ = nullptr;    ///< its act::Profile
  std::string set_name_, function_;
  bool exact_ = false;
};

/// Gives each core c of `m` the activation-set catalog of subgraph c of `n` (the first subgraph for core 0 of a
/// single-stream machine), so its table loads find the NEFF's sets. The handle keeps the catalogs alive: keep it as
/// long as the machine runs.
std::shared_ptr<const void> attach_activation_sets(Machine& m, const neff::Neff& n);

}  // namespace tpbisa::io
