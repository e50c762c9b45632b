// Reading a NEFF (tpbisa::neff::read) beside the same process listing its payload the way `gunzip | tar -t` does.
#include <archive.h>
#include <archive_entry.h>
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tpbisa/neff.hpp"

namespace {

namespace fs = std::filesystem;

/// A synthetic program of the real file's shape (two subgraphs, five streams each, tables and constants) for
/// machines without the shared data.
std::vector<uint8_t> synthetic_neff() {
  std::vector<tpbisa::neff::PackMember> m;
  std::string kelf = R"({"graphs": [)";
  for (int s = 0; s < 2; ++s) {
    const std::string sg = "sg0" + std::to_string(s);
    kelf += (s ? "," : "") + std::string(R"({"definition": ")") + sg + R"(/def.json", "name": ")" + sg + "\"}";
    std::string def = R"({"version": "0.6", "var": {"SB": {"type": "state-buffer", "var_id": 0}}, "dma_queue": {})";
    for (const char* e : {"pe", "act", "pool", "dve", "sp"}) {
      def += std::string(R"(, ")") + e + R"(": ")" + e + R"(.json", ")" + e + R"(_instr": ")" + e + R"(.bin")";
      m.push_back({sg + "/" + e + ".json", std::vector<uint8_t>{'{', '}'}});
      std::vector<uint8_t> words(12 * 64, 0);
      for (size_t w = 0; w < 12; ++w) words[w * 64] = 0xA4, words[w * 64 + 1] = 16;
      m.push_back({sg + "/" + e + ".bin", words});
    }
    def += "}";
    m.push_back({sg + "/def.json", std::vector<uint8_t>(def.begin(), def.end())});
    std::vector<uint8_t> table(64 * 1024);
    for (size_t i = 0; i < table.size(); ++i) table[i] = static_cast<uint8_t>((i * 2654435761U) >> 13);
    m.push_back({sg + "/table.bin", table});
  }
  kelf += R"(], "target": "cayman"})";
  m.push_back({"kelf-0.json", std::vector<uint8_t>(kelf.begin(), kelf.end())});
  tpbisa::neff::PackOptions p;
  return *tpbisa::neff::pack(m, p);
}

const std::vector<uint8_t>& neff_bytes() {
  static const std::vector<uint8_t> bytes = [] {
    const fs::path real = fs::path(TPBISA_SHARED_DATA_DIR) / "matmul_small.neff";
    if (fs::exists(real)) {
      std::ifstream in(real, std::ios::binary);
      return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    return synthetic_neff();
  }();
  return bytes;
}

/// The baseline: inflate the payload and walk the tar headers, skipping the data (gunzip | tar -t).
void BM_NeffGunzipTarList(benchmark::State& state) {
  const std::vector<uint8_t>& f = neff_bytes();
  const uint64_t data_size = tpbisa::load_le<uint64_t>(f.data() + 0x10);
  for (auto _ : state) {
    archive* a = archive_read_new();
    archive_read_support_filter_gzip(a);
    archive_read_support_format_tar(a);
    archive_read_open_memory(a, f.data() + tpbisa::neff::kPayloadOffset, data_size);
    archive_entry* e = nullptr;
    size_t n = 0;
    while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
      benchmark::DoNotOptimize(archive_entry_pathname(e));
      archive_read_data_skip(a);
      ++n;
    }
    archive_read_free(a);
    benchmark::DoNotOptimize(n);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(f.size()));
}
BENCHMARK(BM_NeffGunzipTarList);

/// The whole reader: header and hash, inflate, tar, JSON, model.
void BM_NeffRead(benchmark::State& state) {
  const std::vector<uint8_t>& f = neff_bytes();
  for (auto _ : state) {
    auto r = tpbisa::neff::read(f, "bench.neff");
    if (!r) state.SkipWithError(r.error().to_string().c_str());
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(f.size()));
}
BENCHMARK(BM_NeffRead);

}  // namespace
