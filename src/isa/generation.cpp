// Parsing of generation names given on the command line or in data files.
#include "tpbisa/generation.hpp"

#include <cctype>
#include <string>

namespace tpbisa {

std::optional<Generation> parse_generation(std::string_view text) {
  std::string lower;
  lower.reserve(text.size());
  for (char c : text) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  for (Generation g : kAllGenerations) {
    if (lower == to_string(g) || lower == version_label(g)) return g;
  }
  if (lower == "nc-v2") return Generation::Sunda;
  if (lower == "nc-v3") return Generation::Cayman;
  if (lower == "nc-v4") return Generation::Mariana;
  if (lower == "nc-v5") return Generation::Maverick;
  return std::nullopt;
}

}  // namespace tpbisa
