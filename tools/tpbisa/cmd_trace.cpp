// `tpbisa trace show`: an execution trace (docs/trace.md; JSON or compact records) as one readable block per record,
// with the core and engine of a NEFF run's records and every location in the tool's one spelling.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "exit_codes.hpp"

namespace tpbisa::cli {
namespace {

using json = nlohmann::json;

constexpr uint64_t kPsumBankBytes = 2048;  // the matmul-visible bank of every generation (conventions.md)

struct TraceShowOptions {
  std::string file;
  size_t limit = 8;
};

/// A memory entry's location: sbuf[pP]+OFF, psum[pP].bankB+OFF (location.hpp's spelling), dev:ADDR.
std::string where(const json& m) {
  const std::string region = m.value("region", "dev");
  if (region == "sbuf")
    return fmt::format("sbuf[p{}]+{:#x}", m.at("partition").get<uint64_t>(), m.at("offset").get<uint64_t>());
  if (region == "psum") {
    const auto offset = m.at("offset").get<uint64_t>();
    return fmt::format("psum[p{}].bank{}+{:#x}", m.at("partition").get<uint64_t>(), offset / kPsumBankBytes,
                       offset % kPsumBankBytes);
  }
  return fmt::format("dev:{}", m.value("addr", "?"));
}

/// The entries of list `key` (at most `limit`, 0 = all) as lines, then how many were left out here or by the trace.
template <class Line>
void list(std::string& out, const json& r, const char* key, const char* what, size_t limit, Line line) {
  const auto it = r.find(key);
  if (it == r.end() || !it->is_array()) return;
  size_t shown = 0;
  for (const json& e : *it) {
    if (limit != 0 && shown == limit) break;
    out += "    " + line(e) + "\n";
    ++shown;
  }
  uint64_t more = it->size() - shown;
  if (const auto om = r.find("omitted"); om != r.end() && om->contains(key)) more += (*om)[key].get<uint64_t>();
  if (more != 0) out += fmt::format("    ... {} more {}\n", more, what);
}

/// `0x` and the hex digits of a compact record's value (`"0000803f"` -> `"0x0000803f"`).
std::string prefixed(const json& v) {
  return "0x" + v.get<std::string>();
}

/// A compact record's location (`s3+1a0`, `p0+800`, `d+80100`) as the JSON record's location keys.
json location_of(const json& place) {
  const std::string text = place.get<std::string>();
  const size_t plus = text.find('+');
  if (text.empty() || plus == std::string::npos) throw json::other_error::create(501, "not a location", &place);
  const uint64_t offset = std::stoull(text.substr(plus + 1), nullptr, 16);
  if (text[0] == 'd') return json{{"region", "dev"}, {"addr", fmt::format("{:#x}", offset)}};
  return json{{"region", text[0] == 'p' ? "psum" : "sbuf"},
              {"partition", std::stoull(text.substr(1, plus - 1))},
              {"offset", offset}};
}

/// A compact record (docs/trace.md, "Compact records") in the JSON record's shape, so one printer reads both.
json expand_compact(const json& c) {
  json r{{"index", c.at("i")}, {"opcode", "0x" + c.at("o").get<std::string>()}, {"name", c.at("n")}};
  if (c.contains("c")) {
    r["core"] = c.at("c");
    r["engine"] = c.at("e");
  }
  r["status"] = c.contains("x") ? "fault" : "retired";
  const auto each = [&c](const char* key, auto f) {
    json out = json::array();
    if (const auto it = c.find(key); it != c.end())
      for (const json& e : *it) out.push_back(f(e));
    return out;
  };
  r["regs"] = each("r", [](const json& e) {
    return json{{"reg", e.at(0)}, {"before", prefixed(e.at(1))}, {"after", prefixed(e.at(2))}};
  });
  r["mem"] = each("w", [](const json& e) {
    json m = location_of(e.at(0));
    m.update(json{{"size", e.at(1)}, {"before", prefixed(e.at(2))}, {"after", prefixed(e.at(3))}});
    return m;
  });
  r["reads"] = each("m", [](const json& e) {
    json m = location_of(e.at(0));
    m.update(json{{"size", e.at(1)}, {"initialized", e.at(2).get<int>() != 0}});
    return m;
  });
  r["dram"] = each("D", [](const json& e) {
    return json{{"variable", e.at(0)},
                {"offset", e.at(1)},
                {"size", e.at(2)},
                {"access", e.at(3).get<std::string>() == "w" ? "write" : "read"}};
  });
  r["dve"] = each("d", [](const json& e) {
    return json{{"channel", e.at(0)},
                {"field", e.at(1)},
                {"slot", e.at(2)},
                {"before", prefixed(e.at(3))},
                {"after", prefixed(e.at(4))}};
  });
  r["sems"] = each("s", [](const json& e) {
    const std::string label = e.at(0).get<std::string>();
    return json{{label.rfind('E', 0) == 0 ? "event" : "semaphore", std::stoul(label.substr(1))},
                {"before", e.at(1)},
                {"after", e.at(2)}};
  });
  r["diagnostics"] = each("g", [](const json& e) { return json{{"kind", e.at(0)}}; });
  static constexpr std::pair<const char*, const char*> kLists[] = {
      {"r", "regs"}, {"w", "mem"}, {"m", "reads"}, {"d", "dve"}, {"s", "sems"}, {"D", "dram"}, {"g", "diagnostics"}};
  if (const auto z = c.find("z"); z != c.end())
    for (const auto& [key, name] : kLists)
      if (z->contains(key)) r["omitted"][name] = (*z)[key];
  if (const auto x = c.find("x"); x != c.end()) r["fault"] = *x;
  return r;
}

std::string record_text(const json& r, size_t limit) {
  std::string out;
  if (r.contains("core"))
    out += fmt::format("core {} {} ", r.at("core").get<unsigned>(), r.at("engine").get<std::string>());
  out += fmt::format("#{} {} {}: {}\n", r.at("index").get<uint64_t>(), r.value("opcode", "?"), r.value("name", "?"),
                     r.value("status", "?"));
  list(out, r, "regs", "register writes", limit, [](const json& w) {
    return fmt::format("r{:<3} {} -> {}", w.at("reg").get<unsigned>(), w.value("before", ""), w.value("after", ""));
  });
  list(out, r, "mem", "memory writes", limit, [](const json& w) {
    return fmt::format("write {:<24} {} -> {}", where(w), w.value("before", ""), w.value("after", ""));
  });
  list(out, r, "reads", "memory reads", limit, [](const json& w) {
    return fmt::format("read  {:<24} ({} bytes{})", where(w), w.value("size", 0U),
                       w.value("initialized", true) ? "" : ", never written");
  });
  list(out, r, "dram", "DRAM ranges", limit, [](const json& d) {
    const std::string var = d.value("variable", "");
    return fmt::format("dram {:<5} {}+{:#x} ({} bytes)", d.value("access", ""), var.empty() ? "dram" : var,
                       d.value("offset", uint64_t{0}), d.value("size", uint64_t{0}));
  });
  list(out, r, "dve", "DVE writes", limit, [](const json& w) {
    return fmt::format("dve[{}].{}[{}] {} -> {}", w.value("channel", 0U), w.value("field", ""), w.value("slot", 0U),
                       w.value("before", ""), w.value("after", ""));
  });
  list(out, r, "sems", "semaphore updates", limit, [](const json& s) {
    const bool sem = s.contains("semaphore");
    return fmt::format("{}[{}] {} -> {}", sem ? "$S" : "$E", s.at(sem ? "semaphore" : "event").get<unsigned>(),
                       s.at("before").dump(), s.at("after").dump());
  });
  list(out, r, "diagnostics", "diagnostics", limit,
       [](const json& d) { return fmt::format("note: {}", d.value("kind", d.dump())); });
  if (const auto f = r.find("fault"); f != r.end() && f->is_object())
    out += fmt::format("    FAULT {}: {}\n", f->value("kind", "?"), f->value("detail", ""));
  return out;
}

int run_trace_show(const TraceShowOptions& o) {
  const bool from_stdin = o.file == "-";
  const std::string label = from_stdin ? "<stdin>" : o.file;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> owned(from_stdin ? nullptr : std::fopen(o.file.c_str(), "rb"),
                                                        [](std::FILE* f) { return f != nullptr ? std::fclose(f) : 0; });
  std::FILE* in = from_stdin ? stdin : owned.get();
  if (in == nullptr) {
    report_error(fmt::format("{}: cannot open: {}", label, std::strerror(errno)));
    return kExitInput;
  }
  std::string line;
  uint64_t number = 0;
  for (int c = std::fgetc(in);; c = std::fgetc(in)) {
    if (c != EOF && c != '\n') {
      line += static_cast<char>(c);
      continue;
    }
    if (!line.empty()) {
      ++number;
      const json r = json::parse(line, nullptr, false);
      const bool compact = r.is_object() && r.contains("i");
      if (r.is_discarded() || !r.is_object() || !(r.contains("index") || compact)) {
        report_error(fmt::format("{}: line {}: not a trace record (docs/trace.md)", label, number));
        return kExitInput;
      }
      try {
        out_write(record_text(compact ? expand_compact(r) : r, o.limit));
      } catch (const std::exception&) {  // a key missing or of another type, a malformed location
        report_error(fmt::format("{}: line {}: not a trace record (docs/trace.md)", label, number));
        return kExitInput;
      }
      line.clear();
    }
    if (c == EOF) break;
  }
  if (std::ferror(in) != 0) {
    report_error(fmt::format("{}: read error after line {}", label, number));
    return kExitInput;
  }
  return kExitOk;
}

}  // namespace

Command register_trace(CLI::App& parent) {
  auto o = std::make_shared<TraceShowOptions>();
  CLI::App* app = parent.add_subcommand("trace", "Look at an execution trace of tpbisa run --trace (docs/trace.md)");
  app->require_subcommand(1);
  CLI::App* show = app->add_subcommand(
      "show", "One readable block per record: core and engine (a NEFF run), word, status and its effects");
  show->add_option("FILE", o->file, "The trace (- reads stdin)")->required()->type_name("FILE.jsonl");
  show->add_option("--limit", o->limit, "At most N entries per effect list of a record, 0 for all (default: 8)")
      ->type_name("N");
  show->footer(
      "Exit codes: 0 success, 2 usage error, 3 input or output error (unreadable FILE, a line that is not a "
      "trace record, stdout cannot be written).");
  return {app, [o] { return run_trace_show(*o); }};
}

}  // namespace tpbisa::cli
