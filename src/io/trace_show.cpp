// `tpbisa trace show`'s layout of a trace record (docs/trace.md): a compact record read in the JSON record's shape, so
// one printer reads both.
#include "tpbisa/io/trace_show.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace tpbisa::io {
namespace {

using json = nlohmann::json;

constexpr uint64_t kPsumBankBytes = 2048;  // the matmul-visible bank of every generation (conventions.md)

/// A memory entry's location: sbuf[pP]+OFF, psum[pP].bankB+OFF (location.hpp's spelling), dev:ADDR.
std::string trace_where(const json& m) {
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
void trace_list(std::string& out, const json& r, const char* key, const char* what, size_t limit, Line line) {
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
std::string trace_hex(const json& v) {
  return "0x" + v.get<std::string>();
}

/// A compact record's location (`s3+1a0`, `p0+800`, `d+80100`) as the JSON record's location keys.
json trace_location(const json& place) {
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
    return json{{"reg", e.at(0)}, {"before", trace_hex(e.at(1))}, {"after", trace_hex(e.at(2))}};
  });
  r["mem"] = each("w", [](const json& e) {
    json m = trace_location(e.at(0));
    m.update(json{{"size", e.at(1)}, {"before", trace_hex(e.at(2))}, {"after", trace_hex(e.at(3))}});
    return m;
  });
  r["reads"] = each("m", [](const json& e) {
    json m = trace_location(e.at(0));
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
                {"before", trace_hex(e.at(3))},
                {"after", trace_hex(e.at(4))}};
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

std::string record_block(const json& r, size_t limit) {
  std::string out;
  if (r.contains("core"))
    out += fmt::format("core {} {} ", r.at("core").get<unsigned>(), r.at("engine").get<std::string>());
  out += fmt::format("#{} {} {}: {}\n", r.at("index").get<uint64_t>(), r.value("opcode", "?"), r.value("name", "?"),
                     r.value("status", "?"));
  trace_list(out, r, "regs", "register writes", limit, [](const json& w) {
    return fmt::format("r{:<3} {} -> {}", w.at("reg").get<unsigned>(), w.value("before", ""), w.value("after", ""));
  });
  trace_list(out, r, "mem", "memory writes", limit, [](const json& w) {
    return fmt::format("write {:<24} {} -> {}", trace_where(w), w.value("before", ""), w.value("after", ""));
  });
  trace_list(out, r, "reads", "memory reads", limit, [](const json& w) {
    return fmt::format("read  {:<24} ({} bytes{})", trace_where(w), w.value("size", 0U),
                       w.value("initialized", true) ? "" : ", never written");
  });
  trace_list(out, r, "dram", "DRAM ranges", limit, [](const json& d) {
    const std::string var = d.value("variable", "");
    return fmt::format("dram {:<5} {}+{:#x} ({} bytes)", d.value("access", ""), var.empty() ? "dram" : var,
                       d.value("offset", uint64_t{0}), d.value("size", uint64_t{0}));
  });
  trace_list(out, r, "dve", "DVE writes", limit, [](const json& w) {
    return fmt::format("dve[{}].{}[{}] {} -> {}", w.value("channel", 0U), w.value("field", ""), w.value("slot", 0U),
                       w.value("before", ""), w.value("after", ""));
  });
  trace_list(out, r, "sems", "semaphore updates", limit, [](const json& s) {
    const bool sem = s.contains("semaphore");
    return fmt::format("{}[{}] {} -> {}", sem ? "$S" : "$E", s.at(sem ? "semaphore" : "event").get<unsigned>(),
                       s.at("before").dump(), s.at("after").dump());
  });
  trace_list(out, r, "diagnostics", "diagnostics", limit,
             [](const json& d) { return fmt::format("note: {}", d.value("kind", d.dump())); });
  if (const auto f = r.find("fault"); f != r.end() && f->is_object())
    out += fmt::format("    FAULT {}: {}\n", f->value("kind", "?"), f->value("detail", ""));
  return out;
}

}  // namespace

std::optional<std::string> trace_record_block(std::string_view line, size_t limit) {
  const json r = json::parse(line, nullptr, false);
  const bool compact = r.is_object() && r.contains("i");
  if (r.is_discarded() || !r.is_object() || !(r.contains("index") || compact)) return std::nullopt;
  try {
    return record_block(compact ? expand_compact(r) : r, limit);
  } catch (const std::exception&) {  // a key missing or of another type, a malformed location
    return std::nullopt;
  }
}

std::optional<std::string> show_trace(const std::string& path, size_t limit, TextOut& out) {
  const bool from_stdin = path == "-";
  const std::string label = from_stdin ? "<stdin>" : path;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> owned(from_stdin ? nullptr : std::fopen(path.c_str(), "rb"),
                                                        [](std::FILE* f) { return f != nullptr ? std::fclose(f) : 0; });
  std::FILE* in = from_stdin ? stdin : owned.get();
  if (in == nullptr) return fmt::format("{}: cannot open: {}", label, std::strerror(errno));
  std::string line;
  uint64_t number = 0;
  for (int c = std::fgetc(in);; c = std::fgetc(in)) {
    if (c != EOF && c != '\n') {
      line += static_cast<char>(c);
      continue;
    }
    if (!line.empty()) {
      ++number;
      const std::optional<std::string> block = trace_record_block(line, limit);
      if (!block) return fmt::format("{}: line {}: not a trace record (docs/trace.md)", label, number);
      out.write(*block);
      line.clear();
    }
    if (c == EOF) break;
  }
  if (std::ferror(in) != 0) return fmt::format("{}: read error after line {}", label, number);
  return std::nullopt;
}

}  // namespace tpbisa::io
