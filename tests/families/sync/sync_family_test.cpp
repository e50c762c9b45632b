// Sync family: EventSemaphore 0xa0, SetOrderingMode 0xb1, PseudoBranchLabel 0xcc, PseudoDmaDirect2d 0xd4 -- layouts
// at the spec's offsets, the real words of matmul_small.neff field by field, conventions, meanings and syntax.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "../../support/test_util.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

namespace fs = std::filesystem;
using test::kCa;

Instruction sync_dec(const Word& w, Generation g = kCa) {
  return decode(std::span<const uint8_t, kWordBytes>(w), g);
}

// ---- The real words as real-programs.md tabulates them (sg00; §3.4, §5, §6, §7.4) ----

const std::string kPE02 = "a0100000051800001000000000000000" + std::string(96, '0');
const std::string kPE07 = "a0100000051900001000000000000000" + std::string(96, '0');
const std::string kSom = "b1100000" + std::string(120, '0');
const std::string kLabel = "cc100000" + std::string(120, '0');
const std::string kSP02 =
    "d4100000000000000000000000081000 00000000040000100001000001000000 8000010000010000007b030000000010 "
    "00000400010000008000010000010707";
const std::string kPool02 =
    "d4100000000000000000000000181000 00000000000000200002000001000000 8000010000020000007c030000000010 "
    "00000400010000008000010000020707";
const std::string kPool03 =
    "d4100000000000000000000000191000 00000000010000200001000001000000 8000010080000000007f030000000010 "
    "00000400010000008000010080000707";
const std::string kPool04 =
    "d41000000000000000000000001a1000 00800000010000200001000001000000 8000010080000000007e030000000010 "
    "00000400010000008000010080000707";
const std::string kPool05 =
    "d41000000504000002000000001b1000 00420000000000100000040001000000 80000100000100000000000002000020 "
    "00010000010000008000010080000a07";

/// A word whose every byte is distinct: byte i = 0x80 + i, then the opcode in byte 0.
Word distinct_word(uint8_t opcode) {
  Word w{};
  for (size_t i = 0; i < kWordBytes; ++i) w[i] = static_cast<uint8_t>(0x80 + i);
  w[0] = opcode;
  return w;
}

TEST(SyncLayout, CtrlEsFieldsAtSpecOffsets) {
  const Instruction inst = sync_dec(distinct_word(0xA0));
  const CtrlEs* s = inst.as<CtrlEs>();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(inst.format_name(), "CTRL_ES");
  EXPECT_EQ(s->events.wait_mode, 0x84);
  EXPECT_EQ(s->events.semaphore_value, 0x8B8A8988U);
  for (size_t k = 0; k < 20; ++k) EXPECT_EQ(s->reserved0[k], 0x8C + k);
  EXPECT_EQ(s->ext.wait_mode, 0xA0);  // byte 32
  EXPECT_EQ(s->ext.wait_idx, 0xA1);
  EXPECT_EQ(s->ext.update_mode, 0xA2);
  EXPECT_EQ(s->ext.update_idx, 0xA3);
  EXPECT_EQ(s->ext.sem_wait_value, 0xA7A6A5A4U);    // bytes 36-39
  EXPECT_EQ(s->ext.sem_update_value, 0xABAAA9A8U);  // bytes 40-43
  for (size_t k = 0; k < 20; ++k) EXPECT_EQ(s->reserved1[k], 0xAC + k);
  EXPECT_EQ(encode(inst), distinct_word(0xA0));
}

TEST(SyncLayout, SetOrderingModeAndLabelFieldsAtSpecOffsets) {
  const Instruction som = sync_dec(distinct_word(0xB1));
  ASSERT_NE(som.as<SetOrderingMode>(), nullptr);
  EXPECT_EQ(som.format_name(), "SET_ORDERING_MODE");
  EXPECT_EQ(som.as<SetOrderingMode>()->ordering_mode, 0x8C);  // byte 12
  EXPECT_EQ(som.as<SetOrderingMode>()->reserved[0], 0x8D);
  EXPECT_EQ(som.as<SetOrderingMode>()->reserved[50], 0xBF);
  const Instruction label = sync_dec(distinct_word(0xCC));
  ASSERT_NE(label.as<PseudoBranchLabel>(), nullptr);
  EXPECT_EQ(label.format_name(), "PSEUDO_BRANCH_LABEL");
  EXPECT_EQ(label.as<PseudoBranchLabel>()->label_id, 0x8F8E8D8CU);  // u32 at byte 12 (PROJ-CONV-F7)
  EXPECT_EQ(label.as<PseudoBranchLabel>()->payload[0], 0x90);
}

TEST(SyncLayout, PseudoDmaDirect2dFieldsAtSpecOffsets) {
  const Instruction inst = sync_dec(distinct_word(0xD4));
  const PseudoDmaDirect2d* d = inst.as<PseudoDmaDirect2d>();
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(inst.format_name(), "PSEUDO_DMA_DIRECT2D");
  EXPECT_EQ(d->qos_flags, 0x8C);
  EXPECT_EQ(d->semaphore, 0x8D);
  EXPECT_EQ(d->sem_increment, 0x8E);
  EXPECT_EQ(d->command, 0x8F);
  EXPECT_EQ(d->src.offset, 0x93929190U);
  EXPECT_EQ(d->src.id, 0x9594);
  EXPECT_EQ(d->src.id_hi, 0x96);
  EXPECT_EQ(d->src.mode, 0x97);
  EXPECT_EQ(d->src_step[0], static_cast<int32_t>(0x9B9A9998U));
  EXPECT_EQ(d->src_step[1], static_cast<int32_t>(0x9F9E9D9CU));
  EXPECT_EQ(d->src_num[0], 0xA1A0);
  EXPECT_EQ(d->src_num[1], 0xA3A2);
  EXPECT_EQ(d->src_elem_size, 0xA5A4);
  EXPECT_EQ(d->src_offset_reg, 0xA6);
  EXPECT_EQ(d->dst_offset_reg, 0xA7);
  EXPECT_EQ(d->dst.offset, 0xABAAA9A8U);
  EXPECT_EQ(d->dst.id, 0xADAC);
  EXPECT_EQ(d->dst.id_hi, 0xAE);
  EXPECT_EQ(d->dst.mode, 0xAF);
  EXPECT_EQ(d->dst_step[0], static_cast<int32_t>(0xB3B2B1B0U));
  EXPECT_EQ(d->dst_step[1], static_cast<int32_t>(0xB7B6B5B4U));
  EXPECT_EQ(d->dst_num[0], 0xB9B8);
  EXPECT_EQ(d->dst_num[1], 0xBBBA);
  EXPECT_EQ(d->dst_elem_size, 0xBDBC);
  EXPECT_EQ(d->src_dtype, 0xBE);
  EXPECT_EQ(d->dst_dtype, 0xBF);
}

// ---- Real words: every field value real-programs.md §3.4 and §7.4 tabulate ----

struct DmaExpect {
  std::string hex;
  uint8_t wait_mode, wait_idx;
  uint32_t wait_value;
  uint8_t semaphore;
  uint8_t src_mode;
  uint16_t src_id;
  uint32_t src_offset;
  int32_t src_step0;
  uint16_t src_esz;
  uint8_t dst_mode;
  uint16_t dst_id;
  uint32_t dst_offset;
  int32_t dst_step0;
  uint16_t dst_esz;
  uint8_t src_dtype, dst_dtype;
};

const std::vector<DmaExpect>& dma_table() {
  static const std::vector<DmaExpect> t{
      {kSP02, 0, 0, 0, 8, 0x10, 4, 0, 256, 256, 0x10, 0, 0x37b00, 0x40000, 256, 0x07, 0x07},
      {kPool02, 0, 0, 0, 24, 0x20, 0, 0, 512, 512, 0x10, 0, 0x37c00, 0x40000, 512, 0x07, 0x07},
      {kPool03, 0, 0, 0, 25, 0x20, 1, 0, 256, 128, 0x10, 0, 0x37f00, 0x40000, 128, 0x07, 0x07},
      {kPool04, 0, 0, 0, 26, 0x20, 1, 0x8000, 256, 128, 0x10, 0, 0x37e00, 0x40000, 128, 0x07, 0x07},
      {kPool05, 0x05, 4, 2, 27, 0x10, 0, 0x4200, 0x40000, 256, 0x20, 2, 0, 256, 128, 0x0A, 0x07},
  };
  return t;
}

TEST(SyncRealWords, DmaWordsDecodeToTheTabulatedFields) {
  for (const DmaExpect& e : dma_table()) {
    SCOPED_TRACE(e.hex);
    const Instruction inst = sync_dec(test::hex_word_of(e.hex));
    const PseudoDmaDirect2d* d = inst.as<PseudoDmaDirect2d>();
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->events.wait_mode, e.wait_mode);
    EXPECT_EQ(d->events.wait_idx, e.wait_idx);
    EXPECT_EQ(d->events.semaphore_value, e.wait_value);
    EXPECT_EQ(d->events.update_mode, 0);  // no real word carries an update here
    EXPECT_EQ(d->qos_flags, 0);
    EXPECT_EQ(d->semaphore, e.semaphore);
    EXPECT_EQ(d->sem_increment, 16);
    EXPECT_EQ(d->command, 0);
    EXPECT_EQ(d->src.mode, e.src_mode);
    EXPECT_EQ(d->src.id, e.src_id);
    EXPECT_EQ(d->src.id_hi, 0);
    EXPECT_EQ(d->src.offset, e.src_offset);
    EXPECT_EQ(d->src_step[0], e.src_step0);
    EXPECT_EQ(d->src_step[1], 1);
    EXPECT_EQ(d->src_num[0], 128);
    EXPECT_EQ(d->src_num[1], 1);
    EXPECT_EQ(d->src_elem_size, e.src_esz);
    EXPECT_EQ(d->src_offset_reg, 0);
    EXPECT_EQ(d->dst_offset_reg, 0);
    EXPECT_EQ(d->dst.mode, e.dst_mode);
    EXPECT_EQ(d->dst.id, e.dst_id);
    EXPECT_EQ(d->dst.offset, e.dst_offset);
    EXPECT_EQ(d->dst_step[0], e.dst_step0);
    EXPECT_EQ(d->dst_step[1], 1);
    EXPECT_EQ(d->dst_num[0], 128);
    EXPECT_EQ(d->dst_num[1], 1);
    EXPECT_EQ(d->dst_elem_size, e.dst_esz);
    EXPECT_EQ(d->src_dtype, e.src_dtype);
    EXPECT_EQ(d->dst_dtype, e.dst_dtype);
    for (Generation g : kAllGenerations) EXPECT_TRUE(validate(inst, g).valid) << to_string(g);
  }
}

TEST(SyncRealWords, EventSemaphoreSetOrderingModeAndLabelDecodeAsTabulated) {
  for (const auto& [hex, sem] : {std::pair{kPE02, 24}, std::pair{kPE07, 25}}) {
    const Instruction inst = sync_dec(test::hex_word_of(hex));
    const CtrlEs* s = inst.as<CtrlEs>();
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->events.wait_mode, 0x05);  // SEM_GE_IMM
    EXPECT_EQ(s->events.wait_idx, sem);
    EXPECT_EQ(s->events.semaphore_value, 16U);
    EXPECT_EQ(s->events.update_mode, 0);
    EXPECT_EQ(s->ext, EventsExtended{});  // extended lane NONE
    EXPECT_EQ(render_instruction_events(inst), "$S[" + std::to_string(sem) + "]>=16");
    EXPECT_TRUE(validate(inst, kCa).valid);
    EXPECT_EQ(validate(inst, kCa).validator->name, "is_valid_ctrl_es");
  }
  const Instruction som = sync_dec(test::hex_word_of(kSom));
  ASSERT_NE(som.as<SetOrderingMode>(), nullptr);
  EXPECT_EQ(som.as<SetOrderingMode>()->ordering_mode, 0);
  EXPECT_TRUE(validate(som, kCa).valid);
  const Instruction label = sync_dec(test::hex_word_of(kLabel));
  ASSERT_NE(label.as<PseudoBranchLabel>(), nullptr);
  EXPECT_EQ(label.as<PseudoBranchLabel>()->label_id, 0U);
  EXPECT_TRUE(validate(label, kCa).valid);
}

// ---- matmul_small.neff: every word of these opcodes is one the spec tabulates, modeled and valid ----

std::vector<uint8_t> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

using test::quoted;

/// The NEFF payload (a gzip tar after the 1024-byte header, neff.md §1) unpacked into a private directory.
class SyncNeff : public ::testing::Test {
 protected:
  void SetUp() override {
    const fs::path neff = fs::path(TPBISA_SHARED_DATA_DIR) / "matmul_small.neff";
    if (!fs::exists(neff)) GTEST_SKIP() << neff << " is absent (shared data not available)";
    std::string tmpl = (fs::temp_directory_path() / "tpbisa_sync_neff_XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    const std::string cmd = "tail -c +1025 " + quoted(neff.string()) + " | tar -xzf - -C " + quoted(dir_.string());
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    const std::set<std::string> engines{"SP", "PE", "Pool", "DVE", "Activation"};
    for (const auto& e : fs::recursive_directory_iterator(dir_)) {
      const fs::path& p = e.path();
      if (!e.is_regular_file() || p.extension() != ".bin") continue;
      if (!p.parent_path().filename().string().starts_with("sg") || !engines.count(p.stem().string())) continue;
      streams_[p.parent_path().filename().string() + "/" + p.stem().string()] = p;
    }
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }
  fs::path dir_;
  std::map<std::string, fs::path> streams_;
};

/// The word real-programs.md gives for `sgNN/Engine#k`, or "" when it tabulates none there.
std::string tabulated(const std::string& sg, const std::string& engine, size_t k) {
  if (k == 0) return kSom;  // every stream begins with 0xb1 then 0xcc (§1)
  if (k == 1) return kLabel;
  const bool sg1 = sg == "sg01";  // sg01 differs only in Pool#03, #04 (source +0x80) and #05 (destination +0x80)
  auto shifted = [](std::string hex, size_t byte, uint8_t add) {
    hex.erase(std::remove(hex.begin(), hex.end(), ' '), hex.end());
    const auto v = static_cast<unsigned>(std::stoul(hex.substr(2 * byte, 2), nullptr, 16) + add);
    static const char* const kDigits = "0123456789abcdef";
    hex[2 * byte] = kDigits[(v >> 4) & 0xF];
    hex[2 * byte + 1] = kDigits[v & 0xF];
    return hex;
  };
  if (engine == "PE" && k == 2) return kPE02;
  if (engine == "PE" && k == 7) return kPE07;
  if (engine == "SP" && k == 2) return kSP02;
  if (engine == "Pool" && k == 2) return kPool02;
  if (engine == "Pool" && k == 3) return sg1 ? shifted(kPool03, 16, 0x80) : kPool03;
  if (engine == "Pool" && k == 4) return sg1 ? shifted(kPool04, 16, 0x80) : kPool04;
  if (engine == "Pool" && k == 5) return sg1 ? shifted(kPool05, 40, 0x80) : kPool05;
  return "";
}

TEST_F(SyncNeff, EveryWordOfTheFamilyIsTabulatedModeledAndValidOnCayman) {
  ASSERT_EQ(streams_.size(), 10U);
  std::map<uint8_t, size_t> count;
  for (const auto& [name, path] : streams_) {
    const std::string sg = name.substr(0, name.find('/'));
    const std::string engine = name.substr(name.find('/') + 1);
    const std::vector<uint8_t> bytes = read_bytes(path);
    ASSERT_EQ(bytes.size() % kWordBytes, 0U);
    for (size_t k = 0; k < bytes.size() / kWordBytes; ++k) {
      Word w{};
      std::copy_n(bytes.begin() + static_cast<std::ptrdiff_t>(k * kWordBytes), kWordBytes, w.begin());
      const uint8_t op = w[0];
      if (op != 0xA0 && op != 0xB1 && op != 0xCC && op != 0xD4) continue;
      SCOPED_TRACE(name + "#" + std::to_string(k) + " " + test::to_hex(w));
      ++count[op];
      const std::string want = tabulated(sg, engine, k);
      ASSERT_FALSE(want.empty()) << "a word the spec does not tabulate";
      EXPECT_EQ(w, test::hex_word_of(want));
      const Instruction inst = sync_dec(w);
      EXPECT_EQ(inst.status, DecodeStatus::Modeled);
      const Verdict v = validate(inst, kCa);
      EXPECT_TRUE(v.valid);
      EXPECT_EQ(v.checked, Checked::Full);
      const AsmResult back = assemble(disassemble(inst, kCa), "neff", kCa);
      ASSERT_TRUE(back.ok());
      ASSERT_EQ(back.words.size(), 1U);
      EXPECT_EQ(back.words[0], w);
    }
  }
  // Per subgraph: 2 EVENT_SEMAPHORE (PE), 5 SET_ORDERING_MODE, 5 PSEUDO_BRANCH_LABEL, 5 PSEUDO_DMA_DIRECT2D (§1).
  EXPECT_EQ(count, (std::map<uint8_t, size_t>{{0xA0, 4}, {0xB1, 10}, {0xCC, 10}, {0xD4, 10}}));
}

// ---- Conventions (docs/conventions.md, sync family) ----

bool fails_only(const Word& w, std::string_view predicate, Generation g = kCa) {
  const Verdict v = validate(sync_dec(w, g), g);
  return !v.valid && v.n_failed == 1 && v.failures()[0]->name == predicate;
}

TEST(SyncConventions, SetOrderingModeByte12TakesAnyValue) {  // PROJ-CONV-F6
  for (unsigned b = 0; b < 256; ++b) {
    Word w = test::hex_word_of(kSom);
    w[12] = static_cast<uint8_t>(b);
    EXPECT_TRUE(validate(sync_dec(w), kCa).valid) << b;
  }
  Word w = test::hex_word_of(kSom);
  w[40] = 1;
  EXPECT_TRUE(fails_only(w, "set_ordering_mode_reserved_zero"));
}

TEST(SyncConventions, BranchLabelPayloadIsNotInspected) {  // PROJ-CONV-F7
  Word w = test::hex_word_of(kLabel);
  for (size_t i = 12; i < kWordBytes; ++i) w[i] = static_cast<uint8_t>(i * 7 + 1);
  for (Generation g : kAllGenerations) EXPECT_TRUE(validate(sync_dec(w, g), g).valid) << to_string(g);
}

TEST(SyncConventions, ElementCountsAreComparedOnlyWhenBothAreDefined) {
  Word zero = test::hex_word_of(kSP02);
  store_le<uint16_t>(&zero[34], 0);  // src_num[1] = 0: no element count
  EXPECT_TRUE(fails_only(zero, "pseudo_dma_counts_nonzero"));
  Word unsized = test::hex_word_of(kSP02);
  unsized[63] = 0;  // INVALID has no size
  EXPECT_TRUE(fails_only(unsized, "is_valid_dtype"));
  Word sized = test::hex_word_of(kSP02);
  sized[63] = 0x0C;  // INT64: sized, so the counts are compared (32768 / 2 vs 32768 / 8)
  const Verdict v = validate(sync_dec(sized), kCa);
  EXPECT_TRUE(v.fails("is_valid_dtype"));
  EXPECT_TRUE(v.fails("pseudo_dma_same_element_count"));
}

TEST(SyncConventions, ElemSizeZeroMeans65536Bytes) {
  Word w = test::hex_word_of(kSP02);
  store_le<uint16_t>(&w[32], 1);  // 1 x 1 x 65536 bytes on both sides
  store_le<uint16_t>(&w[36], 0);
  store_le<uint16_t>(&w[56], 1);
  store_le<uint16_t>(&w[60], 0);
  EXPECT_TRUE(validate(sync_dec(w), kCa).valid);
  store_le<uint16_t>(&w[60], 0xFFFF);  // 65535 bytes is odd: not whole FP16 elements
  EXPECT_TRUE(fails_only(w, "pseudo_dma_whole_elements"));
}

TEST(SyncConventions, MaverickHasNoEventModesInTheExtendedLane) {
  Word w = test::hex_word_of(kPE02);
  w[34] = 0x01;  // EVT_SET_READ
  EXPECT_TRUE(validate(sync_dec(w, Generation::Mariana), Generation::Mariana).valid);
  EXPECT_TRUE(fails_only(w, "ctrl_es_valid_extended_events", Generation::Maverick));
}

TEST(SyncConventions, BodiesWithoutAHeaderStructNameAreNamedAfterTheirOpcode) {
  EXPECT_EQ(find_opcode(0xB1)->struct_name, find_opcode(0xB1)->enum_name);
  EXPECT_EQ(find_opcode(0xCC)->struct_name, find_opcode(0xCC)->enum_name);
  EXPECT_EQ(to_string(find_opcode(0xD4)->format), "PSEUDO_DMA_DIRECT2D");
  EXPECT_EQ(to_string(find_opcode(0xA0)->format), "CTRL_ES");
}

TEST(SyncConventions, FailuresNameTheFieldsTheyReadFromTheDeclarations) {
  Word w = test::hex_word_of(kSP02);
  w[47] = 0x30;  // dst.mode
  const Instruction inst = sync_dec(w);
  const Verdict v = validate(inst, kCa);
  ASSERT_EQ(v.n_failed, 1U);
  const FailureReport r = report(*v.failures()[0], inst, CheckContext{kCa, {}});
  EXPECT_EQ(r.basis, Basis::Convention);
  EXPECT_EQ(r.convention, "PROJ-CONV-F8");
  ASSERT_EQ(r.n_fields, 1U);
  EXPECT_EQ(r.fields[0].name, "dst.mode");
  EXPECT_EQ(r.fields[0].first_byte, 47);
  EXPECT_EQ(r.fields[0].last_byte, 47);
  EXPECT_NE(r.message.find("dst.mode 0x30"), std::string::npos) << r.message;
}

// ---- Meaning ----

std::map<std::string, std::string> meanings(const Instruction& inst) {
  std::map<std::string, std::string> m;
  for (const DescribedField& f : describe_fields(inst)) m[f.name] = f.meaning;
  return m;
}

TEST(SyncMeaning, BothWaitLanesAndTheUpdateInNeuronNotation) {
  Word w = test::hex_word_of(kPE02);
  w[32] = 0x05;  // second wait S[25] >= 16
  w[33] = 25;
  store_le<uint32_t>(&w[36], 16);
  w[34] = 0x13;  // extended update S[5]++ at completion
  w[35] = 5;
  const Instruction inst = sync_dec(w);
  EXPECT_EQ(render_instruction_events(inst), "$S[24]>=16 $S[25]>=16 $S[5]++@complete");
  const auto m = meanings(inst);
  EXPECT_EQ(m.at("ext.wait_mode"), "second wait lane: $S[25]>=16 (both waits must hold, PROJ-CONV-F3)");
  EXPECT_EQ(m.at("ext.wait_idx"), "semaphore 25 (second wait)");
  EXPECT_EQ(m.at("ext.sem_wait_value"), "second wait comparand 16");
  EXPECT_EQ(m.at("ext.update_idx"), "semaphore 5 (extended update)");
  EXPECT_EQ(m.at("ext.sem_update_value"), "ignored by this update mode");
  w[32] = 0x42;  // not a WAIT_MODE: the summary says so
  EXPECT_EQ(render_instruction_events(sync_dec(w)), "$S[24]>=16 ext.wait_mode=0x42(invalid) $S[5]++@complete");
}

TEST(SyncMeaning, DmaSourceDestinationAndCompletion) {
  const Instruction sp = sync_dec(test::hex_word_of(kSP02));
  EXPECT_EQ(render_instruction_events(sp), "$S[8]+=16@dma-complete");
  auto m = meanings(sp);
  EXPECT_EQ(m.at("src.id"), "variable id 4 (a def.json var_id)");
  EXPECT_EQ(m.at("dst.id"), "variable id 0: the state buffer (a def.json var_id)");
  EXPECT_EQ(m.at("src_elem_size"),
            "256 contiguous bytes per chunk; reads 128 x 1 chunks = 32768 bytes (16384 elements): bytes 0x0-0x7fff "
            "of variable 4");
  EXPECT_EQ(m.at("dst_elem_size"),
            "256 contiguous bytes per chunk; writes 128 x 1 chunks = 32768 bytes (16384 elements): SBUF partitions "
            "0-127, bytes 0x37b00-0x37bff of each");
  EXPECT_EQ(m.at("semaphore"), "semaphore 8 is increased by sem_increment when the transfer completes");
  const Instruction pool5 = sync_dec(test::hex_word_of(kPool05));
  EXPECT_EQ(render_instruction_events(pool5), "$S[4]>=2 $S[27]+=16@dma-complete");
  m = meanings(pool5);
  EXPECT_EQ(m.at("dst.id"), "DGE-table entry 2 of the subgraph's dge-table list (PROJ-CONV-F12)");
  EXPECT_EQ(m.at("dst.mode"), "DGE_IMM: id is a DGE-table entry");
  EXPECT_NE(m.at("dst_dtype").find("the DMA converts"), std::string::npos) << m.at("dst_dtype");
  EXPECT_NE(m.at("src_elem_size").find("SBUF partitions 0-127, bytes 0x4200-0x42ff of each"), std::string::npos)
      << m.at("src_elem_size");
}

// The dependent readings are decided once (src/families/sync/reading.hpp): on every sync word of validate.tsv the
// description agrees with the validator's verdict on the same fields.
TEST(SyncMeaning, DescriptionAndValidatorAgreeOnEveryVectorWord) {
  std::ifstream in(TPBISA_SOURCE_DIR "/tests/vectors/validate.tsv");
  size_t checked = 0;
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("sync-")) continue;
    const Word w = test::hex_word_of(line.substr(line.rfind('\t') + 1));
    for (Generation g : kAllGenerations) {
      const Instruction inst = sync_dec(w, g);
      const Verdict v = validate(inst, g);
      const auto m = meanings(inst);
      if (inst.as<PseudoDmaDirect2d>() != nullptr) {
        const bool src_known = m.at("src.mode").find("not a PSEUDO_ADDR8 mode") == std::string::npos;
        const bool dst_known = m.at("dst.mode").find("not a PSEUDO_ADDR8 mode") == std::string::npos;
        EXPECT_EQ(!(src_known && dst_known), v.fails("pseudo_addr8_mode_known")) << line;
        const bool counted = m.at("src_elem_size").find(" elements)") != std::string::npos &&
                             m.at("dst_elem_size").find(" elements)") != std::string::npos;
        if (v.fails("pseudo_dma_same_element_count")) {
          EXPECT_TRUE(counted) << line;
        }
        ++checked;
      }
      if (inst.as<CtrlEs>() != nullptr) {
        const bool shown_invalid = render_instruction_events(inst).find("ext.") != std::string::npos;
        EXPECT_EQ(shown_invalid, v.fails("ctrl_es_valid_extended_events")) << line << " on " << to_string(g);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100U);
}

// ---- Syntax ----

TEST(SyncSyntax, CanonicalLinesOfTheRealWordsAndBothLanes) {
  EXPECT_EQ(disassemble(sync_dec(test::hex_word_of(kPE02)), kCa), "EventSemaphore $S[24]>=16");
  EXPECT_EQ(disassemble(sync_dec(test::hex_word_of(kSom)), kCa), "SetOrderingMode ordering_mode=0");
  EXPECT_EQ(disassemble(sync_dec(test::hex_word_of(kLabel)), kCa), "PseudoBranchLabel label_id=0");
  Word w = test::hex_word_of(kPE02);
  w[32] = 0x05;
  w[33] = 25;
  store_le<uint32_t>(&w[36], 16);
  const std::string both = disassemble(sync_dec(w), kCa);
  EXPECT_EQ(both, "EventSemaphore $S[24]>=16 ext.wait_mode=SEM_GE_IMM ext.wait_idx=25 ext.sem_wait_value=16");
  const AsmResult r = assemble(both, "t", kCa);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.words[0], w);
}

TEST(SyncSyntax, AnInvalidWordRoundTripsAndNamesItsFailure) {
  Word w = test::hex_word_of(kSP02);
  w[6] = 0x13;   // an update on a pseudo DMA
  w[23] = 0x30;  // unknown src mode
  DisasmOptions options;
  options.verdicts = true;
  const std::string text = disassemble(sync_dec(w), kCa, options);
  EXPECT_NE(text.find("; INVALID on cayman: pseudo_dma_update_none, pseudo_addr8_mode_known"), std::string::npos)
      << text;
  const AsmResult r = assemble(text, "t", kCa);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.words[0], w);
}

TEST(SyncSyntax, ErrorsNameTheOperandAndItsColumn) {
  struct Case {
    std::string_view line;
    size_t column;
    std::string_view says;
  };
  for (const Case& c : {Case{"EventSemaphore $S[24]>=16 ext.wait_mode=SEM_GE_IMMM", 41, "did you mean `SEM_GE_IMM`?"},
                        Case{"PseudoDmaDirect2d src_num={1,2,3}", 32, "`src_num` has 2 values, got 3"},
                        Case{"EventSemaphore ext.sem_wait_value=4294967296", 35, "out of range 0..4294967295"},
                        Case{"PseudoDmaDirect2d src.modee=0x10", 19, "src.mode"}}) {
    SCOPED_TRACE(std::string(c.line));
    const AsmResult r = assemble(c.line, "t", kCa);
    ASSERT_EQ(r.errors.size(), 1U);
    EXPECT_EQ(r.errors[0].column, c.column);
    EXPECT_NE(r.errors[0].message.find(c.says), std::string::npos) << r.errors[0].message;
  }
}

// ---- Execution outside a NEFF run: EventSemaphore and SetOrderingMode retire, pseudo words are refused ----

TEST(SyncExecution, EventsOnlyWordsRetirePseudoWordsAreRefused) {
  Word es = test::hex_word_of(kPE02);
  es[4] = 0;  // no wait: the word reaches its executor
  for (const Word& w : {es, test::hex_word_of(kSom)}) {
    Machine m(kCa, {w});
    const StepResult r = m.step();
    EXPECT_EQ(r.status, StepResult::Status::Retired) << r.fault.detail;
  }
  for (const std::string& hex : {kLabel, kSP02}) {  // pseudo words: NEFF mode only (PROJ-CONV-C12, F7, F9)
    Machine m(kCa, {test::hex_word_of(hex)});
    const StepResult r = m.step();
    EXPECT_EQ(r.status, StepResult::Status::Faulted);
    EXPECT_EQ(r.fault.kind, FaultKind::PseudoNotLowered);
  }
}

}  // namespace
}  // namespace tpbisa
