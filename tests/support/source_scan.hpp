// The project's own C++ sources, for the tests that scan them (field_table_test, catalog_lint_test).
#pragma once

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

namespace tpbisa::test {

/// Every .cpp and .hpp file below the given folders of the source tree (TPBISA_SOURCE_DIR).
inline std::vector<std::filesystem::path> source_files(std::initializer_list<const char*> dirs) {
  std::vector<std::filesystem::path> out;
  for (const char* dir : dirs)
    for (const auto& e : std::filesystem::recursive_directory_iterator(std::filesystem::path(TPBISA_SOURCE_DIR) / dir))
      if (e.is_regular_file() && (e.path().extension() == ".cpp" || e.path().extension() == ".hpp"))
        out.push_back(e.path());
  return out;
}

/// The whole text of a file.
inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

}  // namespace tpbisa::test
