// NEFF inputs through the one input layer: detection by header, streams in order, filters, refusal, and the words
// equal to the container's streams (the real program and synthetic containers packed by the writer).
#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdio>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "tpbisa/io/words.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/text.hpp"

namespace tpbisa::io {
namespace {

namespace fs = std::filesystem;

const fs::path kRealNeff = fs::path(TPBISA_SHARED_DATA_DIR "/matmul_small.neff");

std::vector<uint8_t> text_bytes(std::string_view s) {
  return {s.begin(), s.end()};
}

/// A word with its opcode and one distinguishing byte.
std::vector<uint8_t> words(std::initializer_list<uint8_t> tags) {
  std::vector<uint8_t> out;
  for (uint8_t t : tags) {
    std::vector<uint8_t> w(kWordBytes, 0);
    w[0] = 0xA4;  // Nop
    w[1] = 16;
    w[20] = t;
    out.insert(out.end(), w.begin(), w.end());
  }
  return out;
}

/// Two subgraphs: sg00 with PE (2 words) and SP (1 word), sg01 with PE (1 word); target `target`.
std::vector<uint8_t> synthetic(const std::string& target = "cayman") {
  std::vector<neff::PackMember> m;
  m.push_back({"kelf-0.json", text_bytes(R"({"graphs": [{"definition": "sg00/def.json", "name": "sg00"},
    {"definition": "sg01/def.json", "name": "sg01"}], "target": ")" +
                                         target + "\"}")});
  m.push_back({"sg00/def.json", text_bytes(R"({"pe": "PE.json", "pe_instr": "PE.bin", "sp_instr": "SP.bin"})")});
  m.push_back({"sg00/PE.json", text_bytes("{}")});
  m.push_back({"sg00/PE.bin", words({1, 2})});
  m.push_back({"sg00/SP.bin", words({3})});
  m.push_back({"sg01/def.json", text_bytes(R"({"pe_instr": "PE.bin"})")});
  m.push_back({"sg01/PE.bin", words({4})});
  neff::PackOptions p;
  auto bytes = neff::pack(m, p);
  EXPECT_TRUE(bytes.ok()) << bytes.error().to_string();
  return *bytes;
}

/// Writes bytes to a fresh file under the test's temporary folder.
std::string write_temp(const std::string& name, const std::vector<uint8_t>& bytes) {
  const fs::path path = fs::temp_directory_path() / ("tpbisa-io-neff-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return path.string();
}

struct Seen {
  std::string label;
  uint64_t index;
  uint8_t tag;
  StreamEngine engine;
};

std::vector<Seen> read_all(WordSource& src, bool expect_ok = true) {
  std::vector<Seen> out;
  Word w{};
  for (;;) {
    const auto n = src.next(w);
    if (n != WordSource::Next::Word) {
      EXPECT_EQ(n == WordSource::Next::End, expect_ok) << src.error().message;
      return out;
    }
    EXPECT_NE(src.stream(), nullptr);
    if (src.stream() == nullptr) return out;
    out.push_back({src.stream()->label, src.index(), w[20], src.stream()->engine});
  }
}

InputOptions neff_options() {
  InputOptions o;
  o.neff = true;
  return o;
}

TEST(IoNeffInput, DetectedByItsHeaderNotItsName) {
  const std::vector<uint8_t> n = synthetic();
  EXPECT_EQ(input_kind("prog.bin", n), InputKind::Neff);
  EXPECT_EQ(input_kind("prog.tasm", n), InputKind::Tasm);
  const std::vector<uint8_t> word = words({0});
  EXPECT_EQ(input_kind("prog.neff", word), InputKind::Words);  // a word's byte 1 is 16: never a header
  const std::string path = write_temp("detect.bin", n);
  EXPECT_TRUE(is_neff_file(path));
  EXPECT_FALSE(is_neff_file(path + ".missing"));
  fs::remove(path);
}

TEST(IoNeffInput, StreamsInSubgraphThenEngineOrderWithTheirLabels) {
  const std::string path = write_temp("order.neff", synthetic());
  const auto src = open_input(path, neff_options());
  EXPECT_EQ(src->generation(), Generation::Cayman);
  ASSERT_NE(src->neff(), nullptr);
  const std::vector<Seen> seen = read_all(*src);
  ASSERT_EQ(seen.size(), 4U);
  EXPECT_EQ(seen[0].label, "sg00/PE");
  EXPECT_EQ(seen[0].index, 0U);
  EXPECT_EQ(seen[1].label, "sg00/PE");
  EXPECT_EQ(seen[1].index, 1U);  // counted within the stream
  EXPECT_EQ(seen[2].label, "sg00/SP");
  EXPECT_EQ(seen[2].index, 0U);
  EXPECT_EQ(seen[2].engine, StreamEngine::Sp);
  EXPECT_EQ(seen[3].label, "sg01/PE");
  EXPECT_EQ((std::vector<uint8_t>{seen[0].tag, seen[1].tag, seen[2].tag, seen[3].tag}),
            (std::vector<uint8_t>{1, 2, 3, 4}));
  fs::remove(path);
}

TEST(IoNeffInput, FiltersSelectSubgraphsAndEngines) {
  auto model = neff::read(synthetic(), "in.neff");
  ASSERT_TRUE(model.ok());
  const auto shared = std::make_shared<const neff::Neff>(std::move(*model));
  InputOptions o = neff_options();
  o.engines = {StreamEngine::Pe};
  auto pe = open_neff(shared, o);
  EXPECT_EQ(read_all(*pe).size(), 3U);
  o.subgraphs = {"sg01"};
  auto sg01_pe = open_neff(shared, o);
  const auto seen = read_all(*sg01_pe);
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(seen[0].label, "sg01/PE");

  o.subgraphs = {"sg09"};
  auto none = open_neff(shared, o);
  read_all(*none, false);
  EXPECT_EQ(none->error().message, "in.neff: --subgraph sg09: the NEFF has no such subgraph (it has sg00, sg01)");
  o.subgraphs = {"sg01"};
  o.engines = {StreamEngine::Dve};
  auto no_dve = open_neff(shared, o);
  read_all(*no_dve, false);
  EXPECT_NE(no_dve->error().message.find("no stream of that engine"), std::string::npos);
}

TEST(IoNeffInput, RefusedUnlessTheCommandReadsStreams) {
  const std::string path = write_temp("refused.neff", synthetic());
  InputOptions o;
  o.neff_refusal = "not here";
  const auto src = open_input(path, o);
  Word w{};
  EXPECT_EQ(src->next(w), WordSource::Next::Failed);
  EXPECT_EQ(src->error().kind, ErrorKind::Refused);
  EXPECT_EQ(src->error().message, path + ": a NEFF container: not here");
  EXPECT_EQ(src->next(w), WordSource::Next::Failed);  // stays failed
  fs::remove(path);
}

TEST(IoNeffInput, AContainerThatFailsNamesTheCheck) {
  std::vector<uint8_t> bad = synthetic();
  bad.resize(1000);
  const std::string path = write_temp("bad.neff", bad);
  const auto src = open_input(path, neff_options());
  EXPECT_EQ(src->generation(), std::nullopt);
  Word w{};
  EXPECT_EQ(src->next(w), WordSource::Next::Failed);
  EXPECT_EQ(src->error().message,
            path + ": 1000 bytes is too small for a NEFF: the header alone is 1024 bytes (check: too-small)");
  fs::remove(path);
}

TEST(IoNeffInput, SubgraphFilterOnPlainWordsIsAnError) {
  const std::string path = write_temp("plain.bin", words({7}));
  InputOptions o = neff_options();
  o.subgraphs = {"sg00"};
  const auto src = open_input(path, o);
  Word w{};
  EXPECT_EQ(src->next(w), WordSource::Next::Failed);
  EXPECT_NE(src->error().message.find("--subgraph selects streams of a NEFF"), std::string::npos);
  o.subgraphs.clear();
  o.engines = {StreamEngine::Pe};  // not a filter for plain words
  const auto plain = open_input(path, o);
  EXPECT_EQ(plain->next(w), WordSource::Next::Word);
  EXPECT_EQ(plain->stream(), nullptr);
  EXPECT_EQ(plain->generation(), std::nullopt);
  fs::remove(path);
}

TEST(IoNeffInput, StreamEngineIsTheNeffEngine) {
  static_assert(std::is_same_v<StreamEngine, neff::Engine>, "one engine enum (catalog.hpp)");
  EXPECT_EQ(neff::parse_engine("Activation"), std::optional<StreamEngine>(StreamEngine::Act));
}

/// The words the input layer hands out are the container's streams, and their canonical text assembles back to
/// the same bytes, stream by stream (what `disasm FILE.neff -o DIR` then `asm` does).
void expect_streams_roundtrip(const std::string& path) {
  const auto model = neff::read_file(path);
  ASSERT_TRUE(model.ok()) << model.error().to_string();
  const Generation gen = model->generation.value_or(kDefaultGeneration);
  const auto src = open_input(path, neff_options());
  std::map<std::string, std::vector<uint8_t>> got;
  Word w{};
  while (src->next(w) == WordSource::Next::Word)
    got[src->stream()->label].insert(got[src->stream()->label].end(), w.begin(), w.end());
  ASSERT_EQ(src->error().message, "");
  for (const neff::Stream* s : model->streams()) {
    SCOPED_TRACE(s->label());
    EXPECT_EQ(got[s->label()], s->bytes);
    std::string text;
    for (size_t i = 0; i < s->word_count(); ++i) text += disassemble(s->word(i), gen, {}) + "\n";
    const AsmResult r = assemble(text, s->label(), gen);
    ASSERT_TRUE(r.ok());
    std::vector<uint8_t> bytes;
    for (const Word& aw : r.words) bytes.insert(bytes.end(), aw.begin(), aw.end());
    EXPECT_EQ(bytes, s->bytes);
  }
}

TEST(IoNeffInput, SyntheticStreamsRoundTrip) {
  const std::string path = write_temp("roundtrip.neff", synthetic());
  expect_streams_roundtrip(path);
  fs::remove(path);
}

TEST(IoNeffInput, RealProgramStreamsRoundTrip) {
  if (!fs::exists(kRealNeff)) GTEST_SKIP() << kRealNeff << " is absent (shared data not available)";
  expect_streams_roundtrip(kRealNeff.string());
  const auto src = open_input(kRealNeff.string(), neff_options());
  EXPECT_EQ(src->generation(), Generation::Cayman);
  EXPECT_EQ(src->streams().size(), 10U);
}

}  // namespace
}  // namespace tpbisa::io
