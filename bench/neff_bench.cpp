// Reading a NEFF (tpbisa::neff::read) beside the same process listing its payload the way `gunzip | tar -t` does.
#include <archive.h>
#include <archive_entry.h>
#include <benchmark/benchmark.h>
#include <zlib.h>

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
    if (s > 0) kelf += ",";
    kelf += R"({"definition": ")" + sg + R"(/def.json", "name": ")" + sg + "\"}";
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

/// `gunzip`: inflate the payload and compute its CRC-32, as gunzip does to check the trailer; the tar lister reads
/// the inflater's own blocks (no copy, the cheapest way libarchive offers).
struct Gunzip {
  archive* gz = nullptr;
  uLong crc = crc32(0L, Z_NULL, 0);
};

la_ssize_t gunzip_pull(archive*, void* client, const void** buffer) {
  auto* g = static_cast<Gunzip*>(client);
  const void* block = nullptr;
  size_t n = 0;
  la_int64_t at = 0;
  if (archive_read_data_block(g->gz, &block, &n, &at) != ARCHIVE_OK) return 0;
  g->crc = crc32_z(g->crc, static_cast<const Bytef*>(block), n);
  if (buffer != nullptr) *buffer = block;
  return static_cast<la_ssize_t>(n);
}

/// The baseline, `gunzip | tar -t`: inflate the payload with its CRC-32 computed (gunzip checks the trailer; the
/// libarchive gzip filter alone does not) and walk the tar headers, skipping the data.
void BM_NeffGunzipTarList(benchmark::State& state) {
  const std::vector<uint8_t>& f = neff_bytes();
  const uint64_t data_size = tpbisa::load_le<uint64_t>(f.data() + 0x10);
  for (auto _ : state) {
    archive* gz = archive_read_new();
    archive_read_support_filter_gzip(gz);
    archive_read_support_format_raw(gz);
    archive_read_open_memory(gz, f.data() + tpbisa::neff::kPayloadOffset, data_size);
    archive_entry* e = nullptr;
    archive_read_next_header(gz, &e);
    Gunzip g;
    g.gz = gz;
    archive* tar = archive_read_new();
    archive_read_support_format_tar(tar);
    archive_read_open(tar, &g, nullptr, gunzip_pull, nullptr);
    size_t n = 0;
    while (archive_read_next_header(tar, &e) == ARCHIVE_OK) {
      benchmark::DoNotOptimize(archive_entry_pathname(e));
      archive_read_data_skip(tar);
      ++n;
    }
    archive_read_free(tar);
    // gunzip inflates to the end of its input, past the tar's last block.
    while (gunzip_pull(nullptr, &g, nullptr) > 0) {
    }
    archive_read_free(gz);
    benchmark::DoNotOptimize(n);
    benchmark::DoNotOptimize(g.crc);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(f.size()));
}
BENCHMARK(BM_NeffGunzipTarList);

/// The earlier baseline, kept for comparison: libarchive's gzip filter under its tar reader, skipping the data.
/// It never computes the CRC-32 (the filter does not check the gzip trailer), so it does less than gunzip does.
void BM_NeffTarListNoCrc(benchmark::State& state) {
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
BENCHMARK(BM_NeffTarListNoCrc);

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
