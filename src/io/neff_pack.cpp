// A NEFF container packed from a folder and written under the output-file policy.
#include "tpbisa/io/neff_pack.hpp"

#include <filesystem>
#include <fstream>
#include <vector>

#include <fmt/format.h>

#include "tpbisa/io/neff_text.hpp"
#include "tpbisa/io/output_file.hpp"

namespace tpbisa::io {
namespace {

/// The header: read from r.header_from, or a fresh one named after the output; then the fields the request sets.
Expected<neff::Header> pack_header(const NeffPackRequest& r) {
  neff::Header h;
  if (!r.header_from.empty()) {
    std::ifstream in(r.header_from, std::ios::binary);
    std::vector<uint8_t> head(neff::kHeaderBytes);
    if (!in || !in.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size())))
      return Error{ErrorKind::Read,
                   fmt::format("{}: cannot read a {}-byte NEFF header", r.header_from, neff::kHeaderBytes)};
    h = neff::parse_header(std::span<const uint8_t, neff::kHeaderBytes>(head.data(), neff::kHeaderBytes));
  } else {
    h.set_name(std::filesystem::path(r.out).filename().string());
    h.tpb_per_node[0] = 1;
  }
  h.pkg_version = r.pkg_version;
  if (r.name) h.set_name(*r.name);
  if (r.lnc_size) h.lnc_size = static_cast<uint32_t>(*r.lnc_size);
  if (r.feature_bits) h.feature_bits = *r.feature_bits;
  if (r.num_tpb) h.num_tpb = static_cast<uint32_t>(*r.num_tpb);
  return h;
}

}  // namespace

Expected<std::string> pack_neff_folder(const NeffPackRequest& r, const neff::ReadOptions& read) {
  neff::PackOptions p;
  auto header = pack_header(r);
  if (!header) return header.error();
  p.header = *header;
  p.hash_order = r.hash_order;
  p.padding = r.padding.value_or(0);
  neff::Result<std::vector<neff::PackMember>> members = neff::collect_directory(r.dir, read);
  if (!members) return neff_read_error(members.error());
  neff::Result<std::vector<uint8_t>> bytes = neff::pack(*members, p);
  if (!bytes) return neff_read_error(bytes.error());
  std::vector<std::string> inputs{r.dir};
  if (!r.header_from.empty()) inputs.push_back(r.header_from);
  auto sink = OutputFile::open(r.out, OutputOptions{inputs, false});
  if (!sink) return sink.error();
  (*sink)->write(std::span<const uint8_t>(*bytes));
  if (const auto done = (*sink)->commit(); !done) return done.error();
  const size_t n = members->size(), size = bytes->size();
  return fmt::format("packed {} member{} from {} into {} ({} byte{}, pkg_version {}, {} hash)\n", n, n == 1 ? "" : "s",
                     r.dir, r.out, size, size == 1 ? "" : "s", r.pkg_version, to_string(r.hash_order));
}

}  // namespace tpbisa::io
