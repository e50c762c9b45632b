// The activation-function tables of a NEFF for the command line and Python (docs/activation.md).
#include "tpbisa/io/act_tables.hpp"

#include <bit>
#include <charconv>

#include <fmt/format.h>

#include "families/act/tables.hpp"
#include "neff/act_tables.hpp"
#include "tpbisa/io/neff_json.hpp"

namespace tpbisa::io {
namespace {

using TablesJson = nlohmann::ordered_json;  // a name of its own: the io folder is one unity build

/// The input range a function's segments cover: the smallest and largest finite magnitude between its small- and
/// large-signal thresholds, on the positive side (the thresholds are biased exponents).
std::pair<float, float> positive_range(const act::Profile& p) {
  const auto at = [](int64_t e, int64_t m) {
    if (e <= 0) return 0.0F;
    if (e >= 255) return std::bit_cast<float>(0x7F7FFFFFU);
    return std::bit_cast<float>(static_cast<uint32_t>((e << 23) | (m & 0x7FFFFF)));
  };
  return {at(p.small_pos_signal_exp_threshold, 0),
          at(p.large_pos_signal_exp_threshold, p.large_pos_signal_mantissa_threshold)};
}

TablesJson function_json(const act::TableSet& s, const act::Profile& p) {
  const auto [lo, hi] = positive_range(p);
  return {{"name", p.base_name},
          {"func_name", p.func_name},
          {"func_id", p.func_id},
          {"catalog_name", std::string(act::catalog_name(p.func_id))},
          {"exact", p.exact},
          {"symmetric", p.symmetry_opt_en},
          {"segments_from", lo},
          {"segments_to", hi},
          {"buckets", s.bucket_count(p)}};
}

}  // namespace

TablesJson activation_tables_json(const neff::Neff& n) {
  TablesJson subgraphs = TablesJson::array();
  for (const neff::Subgraph& sg : n.subgraphs) {
    const act::SetCatalog c = neff::activation_sets(n, sg);
    TablesJson sets = TablesJson::array();
    if (c.catalog_error()) {
      subgraphs.push_back({{"subgraph", sg.name},
                           {"error", std::string(act::to_string(c.catalog_error()->fault))},
                           {"message", c.catalog_error()->message}});
      continue;
    }
    for (const std::string& name : c.listed_names()) {
      const act::TableSet::Parsed p = c.by_name(name);
      if (!p.ok()) {
        sets.push_back(
            {{"name", name}, {"error", std::string(act::to_string(p.error.fault))}, {"message", p.error.message}});
        continue;
      }
      TablesJson functions = TablesJson::array();
      for (const act::Profile& f : p.set->profiles()) functions.push_back(function_json(*p.set, f));
      sets.push_back({{"name", name},
                      {"buckets", p.set->buckets().size()},
                      {"control_words", p.set->control().size()},
                      {"functions", functions}});
    }
    TablesJson catalog = TablesJson::array();
    for (size_t i = 0; i < c.index_names().size(); ++i) catalog.push_back(c.index_names()[i]);
    subgraphs.push_back({{"subgraph", sg.name}, {"sets", sets}, {"catalog", catalog}});
  }
  TablesJson doc{{"file", n.file}, {"subgraphs", subgraphs}};
  escape_strings(doc);
  return doc;
}

std::string activation_tables_text(const neff::Neff& n) {
  const TablesJson doc = activation_tables_json(n);
  std::string out;
  for (const TablesJson& sg : doc["subgraphs"]) {
    if (sg.contains("error")) {
      out += fmt::format("{}: {}: {}\n", sg["subgraph"].get<std::string>(), sg["error"].get<std::string>(),
                         sg["message"].get<std::string>());
      continue;
    }
    out +=
        fmt::format("{}: {} embedded of the {} in act_info.json\n", sg["subgraph"].get<std::string>(),
                    sg["sets"].size() == 1 ? "1 set" : fmt::format("{} sets", sg["sets"].size()), sg["catalog"].size());
    for (const TablesJson& s : sg["sets"]) {
      if (s.contains("error")) {
        out += fmt::format("  set {}: {}: {}\n", s["name"].get<std::string>(), s["error"].get<std::string>(),
                           s["message"].get<std::string>());
        continue;
      }
      out += fmt::format("  set {}: {} BUCKET records, {} CONTROL words\n", s["name"].get<std::string>(),
                         s["buckets"].get<uint64_t>(), s["control_words"].get<uint64_t>());
      out += fmt::format("    {:>4}  {:<26}  {:<15}  {:>8}  {}\n", "id", "function", "kind", "buckets",
                         "segments over |x| in");
      for (const TablesJson& f : s["functions"]) {
        const float lo = f["segments_from"].get<float>(), hi = f["segments_to"].get<float>();
        out += fmt::format("    {:>4}  {:<26}  {:<15}  {:>8}  {}\n", f["func_id"].get<unsigned>(),
                           f["func_name"].get<std::string>(), f["exact"].get<bool>() ? "exact" : "reference model",
                           f["buckets"].get<uint64_t>(),
                           hi > lo ? fmt::format("[{:g}, {:g}]", lo, hi) : std::string("none (saturation slots only)"));
      }
    }
  }
  return out;
}

Expected<ActEvalResult> activation_eval(const neff::Neff& n, std::string_view func, std::span<const uint32_t> inputs,
                                        std::string_view set) {
  unsigned id = 0;
  const auto [end, ec] = std::from_chars(func.data(), func.data() + func.size(), id);
  const bool by_id = ec == std::errc() && end == func.data() + func.size() && id < 256;
  for (const neff::Subgraph& sg : n.subgraphs) {
    const act::SetCatalog c = neff::activation_sets(n, sg);
    for (const std::string& name : c.listed_names()) {
      if (!set.empty() && name != set) continue;
      const act::TableSet::Parsed p = c.by_name(name);
      if (!p.ok()) {
        if (!set.empty()) return Error{ErrorKind::Invalid, fmt::format("{}: {}", n.file, p.error.message)};
        continue;
      }
      const act::Profile* f = by_id ? p.set->profile(static_cast<uint8_t>(id)) : p.set->profile_named(func);
      if (f == nullptr) continue;
      ActEvalResult r{p.set->name(), f->func_name, f->func_id, f->exact, {}};
      for (const uint32_t v : inputs) {
        const act::EvalResult e = act::evaluate(*p.set, *f, v);
        if (e.status == act::EvalStatus::Multipass)
          return Error{ErrorKind::Invalid, fmt::format("{}: {} of set {} is a multipass profile (PROJ-CONV-A5)", n.file,
                                                       f->func_name, p.set->name())};
        if (e.status != act::EvalStatus::Ok)
          return Error{ErrorKind::Invalid, fmt::format("{}: set {}, function {}: index {} is outside its tables",
                                                       n.file, p.set->name(), f->func_name, e.index)};
        r.rows.push_back({v, e.bits});
      }
      return r;
    }
  }
  return Error{ErrorKind::Invalid, fmt::format("{}: no embedded activation set has the function {}{}", n.file, func,
                                               set.empty() ? std::string() : fmt::format(" (set {})", set))};
}

Expected<ActEvaluator> ActEvaluator::make(const neff::Neff& n, std::string_view func, std::string_view set) {
  unsigned id = 0;
  const auto [end, ec] = std::from_chars(func.data(), func.data() + func.size(), id);
  const bool by_id = ec == std::errc() && end == func.data() + func.size() && id < 256;
  for (const neff::Subgraph& sg : n.subgraphs) {
    const act::SetCatalog c = neff::activation_sets(n, sg);
    for (const std::string& name : c.listed_names()) {
      if (!set.empty() && name != set) continue;
      const act::TableSet::Parsed p = c.by_name(name);
      if (!p.ok()) continue;
      const act::Profile* f = by_id ? p.set->profile(static_cast<uint8_t>(id)) : p.set->profile_named(func);
      if (f == nullptr) continue;
      ActEvaluator e;
      e.set_ = p.set;
      e.profile_ = f;
      e.set_name_ = p.set->name();
      e.function_ = f->func_name;
      e.exact_ = f->exact;
      return e;
    }
  }
  return Error{ErrorKind::Invalid, fmt::format("{}: no embedded activation set has the function {}", n.file, func)};
}

bool ActEvaluator::eval(const uint32_t* in, uint32_t* out, size_t count, std::string& message) const {
  const auto& s = *static_cast<const act::TableSet*>(set_.get());
  const auto& p = *static_cast<const act::Profile*>(profile_);
  const act::RowResult r = act::evaluate_row(s, p, in, out, count);
  if (r.status == act::EvalStatus::Ok) return true;
  message = r.status == act::EvalStatus::Multipass
                ? fmt::format("{} of set {} is a multipass profile (PROJ-CONV-A5)", p.func_name, s.name())
                : fmt::format("set {}, function {}: index {} is outside its tables", s.name(), p.func_name, r.index);
  return false;
}

std::shared_ptr<const void> attach_activation_sets(Machine& m, const neff::Neff& n) {
  auto catalogs = std::make_shared<std::vector<act::SetCatalog>>();
  for (const neff::Subgraph& sg : n.subgraphs) catalogs->push_back(neff::activation_sets(n, sg));
  for (size_t c = 0; c < m.num_cores() && c < catalogs->size(); ++c) m.core(c).state().act_catalog = &(*catalogs)[c];
  return catalogs;
}

}  // namespace tpbisa::io
