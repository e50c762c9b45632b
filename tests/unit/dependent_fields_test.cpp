// A field whose reading depends on another is decided once: the validator, the descriptions and the disassembler
// agree with that decision (the family's, or core's for ADDR4 / ADDR8) on every word of tests/vectors/validate.tsv.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tpbisa/address.hpp"
#include "tpbisa/describe.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/location.hpp"
#include "tpbisa/text.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

struct VectorWord {
  std::string id;
  std::vector<Generation> gens;
  Word word{};
};

std::vector<VectorWord> vectors() {
  std::ifstream in(TPBISA_SOURCE_DIR "/tests/vectors/validate.tsv");
  std::vector<VectorWord> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    std::istringstream s(line);
    for (std::string c; std::getline(s, c, '\t');) cols.push_back(c);
    if (cols.size() != 6) continue;
    VectorWord v;
    v.id = cols[0];
    std::istringstream gens(cols[1]);
    for (std::string g; std::getline(gens, g, ',');)
      if (const auto gen = parse_generation(g)) v.gens.push_back(*gen);
    HexError e;
    if (parse_hex_word(cols[5], v.word, e)) out.push_back(v);
  }
  return out;
}

/// The value the disassembler writes for `name=` on the line.
std::string operand(const std::string& line, std::string_view name) {
  const std::string key = " " + std::string(name) + "=";
  const size_t at = line.find(key);
  if (at == std::string::npos) return "";
  const size_t from = at + key.size();
  return line.substr(from, line.find(' ', from) - from);
}

bool is_location(const std::string& v) {
  return v.starts_with("sbuf[") || v.starts_with("psum[");
}
bool is_register(const std::string& v) {
  return v.size() > 1 && v[0] == 'r' && v.find_first_not_of("0123456789", 1) == std::string::npos;
}

TEST(DependentFields, ImmZeroReadingAgreesInValidatorDescriptionAndDisassembly) {
  const std::vector<VectorWord> all = vectors();
  ASSERT_GT(all.size(), 300U) << "validate.tsv was not read";
  std::array<unsigned, 3> seen{};  // per ImmReading
  unsigned validator_checks = 0;
  for (const VectorWord& v : all)
    for (Generation g : v.gens) {
      const Instruction inst = decode(v.word, g);
      const S2Bn* s = inst.as<S2Bn>();
      if (s == nullptr) continue;
      SCOPED_TRACE(v.id + " on " + std::string(to_string(g)));
      const ImmReading reading = family::s2bn::imm0_reading(*s);
      ++seen[static_cast<size_t>(reading)];

      // The description.
      std::string meaning;
      for (const DescribedField& f : describe_fields(inst))
        if (f.name == "imm0_ptr") meaning = f.meaning;
      EXPECT_EQ(meaning.find("; pointer ") != std::string::npos, reading == ImmReading::Pointer) << meaning;
      EXPECT_EQ(meaning.find("; register pointer ") != std::string::npos, reading == ImmReading::Register) << meaning;

      // The disassembly.
      const std::string value = operand(disassemble(inst, g), "imm0_ptr");
      if (is_location(value)) {
        EXPECT_EQ(reading, ImmReading::Pointer) << value;
      }
      if (is_register(value)) {
        EXPECT_EQ(reading, ImmReading::Register) << value;
      }
      if (reading == ImmReading::Pointer && (s->imm0_ptr.raw >> 29) == 0 &&
          decode_partition_offset(s->imm0_ptr.raw, g).region != Region::Outside) {
        EXPECT_TRUE(is_location(value)) << value;
      }
      if (reading == ImmReading::Register && s->imm0_ptr.reg_reserved() == 0) {
        EXPECT_EQ(value, fmt::format("r{}", s->imm0_ptr.regnum()));
      }

      // The validator: a failing ParamLoad pointer check names the branch the reading selects.
      const CheckContext ctx{g, {}};
      const Verdict verdict = validate(inst, g);
      for (const Predicate* p : verdict.failures()) {
        if (p->name != "has_valid_bn_param_load_imm0") continue;
        const std::string_view via = report(*p, inst, ctx).via;
        if (via.empty()) continue;  // only the N-finiteness part failed
        ++validator_checks;
        EXPECT_EQ(via, reading == ImmReading::Register ? "is_valid_imm_reg" : "tpb_addr_active_channels");
        EXPECT_NE(reading, ImmReading::Value);
      }
    }
  // Every reading occurs among the vectors, and the validator's branch was observed.
  for (unsigned n : seen) EXPECT_GT(n, 0U);
  EXPECT_GT(validator_checks, 0U);
}

bool is_register_pair(const std::string& v) {
  const size_t colon = v.find(':');
  return colon != std::string::npos && is_register(v.substr(0, colon)) && is_register(v.substr(colon + 1));
}

/// The location printer's spelling of a decoded on-chip address (the disassembler must write exactly this).
std::string location_text(const PartitionAddress& p, Generation g) {
  Location loc;
  loc.kind = p.region == Region::Psum ? Location::Kind::Psum : Location::Kind::Sbuf;
  loc.partition = p.partition;
  loc.offset = p.offset;
  loc.address = p.masked;
  return to_string(loc, g);
}

/// The predicates of the word's validator that read the field at `path`.
std::vector<const Predicate*> readers(const Instruction& inst, Generation g, const std::string& path) {
  std::vector<const Predicate*> out;
  for (const Predicate* p : validator_for(inst.header().opcode, g).conjuncts)
    for (const FieldRef& f : p->fields)
      if (f.name == path) out.push_back(p);
  return out;
}

struct AddrSeen {
  unsigned fields = 0, registers = 0, locations = 0, raw = 0, validator = 0;
};

void check_addr4(const Instruction& inst, const DescribedField& f, Generation g, const std::string& value,
                 AddrSeen& seen) {
  const Addr4Meaning m = describe(Addr4{static_cast<uint32_t>(f.u)}, g);
  // The description starts with the reading's rendering (a family may add what the operand covers).
  EXPECT_TRUE(f.meaning.starts_with(to_string(m))) << f.meaning << " | " << to_string(m);
  EXPECT_EQ(f.meaning.find("(address from register") != std::string::npos, m.from_register) << f.meaning;
  EXPECT_EQ(f.meaning.starts_with("indirect"), m.indirect) << f.meaning;
  // The disassembly writes the spelling of that reading, or the raw bits.
  if (m.register_form) {
    ++seen.registers;
    EXPECT_EQ(value, "r" + std::to_string(m.regnum));
  } else if (m.plain_immediate && m.target.region != Region::Outside) {
    ++seen.locations;
    EXPECT_EQ(value, location_text(m.target, g));
  } else {
    ++seen.raw;
    EXPECT_TRUE(value.starts_with("0x")) << value;
  }
  // The validator's predicates read it the same way: a register base is placed at run time, an immediate
  // outside SBUF and PSUM is rejected wherever it is judged.
  const CheckContext ctx{g, {}};
  for (const Predicate* p : readers(inst, g, f.name)) {
    const bool holds = p->holds(inst, ctx);
    if (p->name == "start_addr_active_channels") {
      ++seen.validator;
      if (m.from_register) {
        EXPECT_TRUE(holds) << p->name;
      } else if (m.target.region == Region::Outside) {
        EXPECT_FALSE(holds) << p->name;
      }
    }
    if ((p->name == "tensor2d_valid" || p->name == "tensor4d_valid") && !m.placed_at_run_time() &&
        m.target.region == Region::Outside) {
      ++seen.validator;
      EXPECT_FALSE(holds) << p->name;
    }
  }
}

void check_addr8(const Instruction& inst, const DescribedField& f, Generation g, const std::string& value,
                 AddrSeen& seen) {
  const Addr8Meaning m = describe(Addr8{f.u}, g);
  EXPECT_EQ(f.meaning, to_string(m));
  EXPECT_EQ(f.meaning.starts_with("dev:"), m.mode == Addr8Mode::Immediate) << f.meaning;
  EXPECT_EQ(f.meaning.find("(register pair") != std::string::npos, m.mode == Addr8Mode::RegisterPair) << f.meaning;
  if (m.register_form) {
    ++seen.registers;
    EXPECT_EQ(m.mode, Addr8Mode::RegisterPair);
    EXPECT_EQ(value, "r" + std::to_string(m.reg_lo) + ":r" + std::to_string(m.reg_hi));
  } else if (m.plain_immediate) {
    ++seen.locations;
    EXPECT_EQ(m.mode, Addr8Mode::Immediate);
    if (m.region != Region::Outside) {
      EXPECT_EQ(value, location_text(m.on_chip, g));
    } else {
      EXPECT_EQ(value, fmt::format("dev:{:#x}", m.address));
    }
  } else {
    ++seen.raw;
    EXPECT_TRUE(value.starts_with("0x")) << value;
    EXPECT_FALSE(is_register_pair(value)) << value;
  }
  // valid_start_addr aligns immediates only: any other reading holds whatever the dtype.
  const CheckContext ctx{g, {}};
  for (const Predicate* p : readers(inst, g, f.name))
    if (p->name == "valid_start_addr" && m.mode != Addr8Mode::Immediate) {
      ++seen.validator;
      EXPECT_TRUE(p->holds(inst, ctx));
    }
}

// ADDR4 / ADDR8 markers are read once (describe in include/tpbisa/address.hpp): on every vector word, each ADDR
// field's description, disassembly and validator predicates follow that reading.
TEST(DependentFields, AddrReadingAgreesInValidatorDescriptionAndDisassembly) {
  const std::vector<VectorWord> all = vectors();
  ASSERT_GT(all.size(), 300U) << "validate.tsv was not read";
  AddrSeen seen4, seen8;
  for (const VectorWord& v : all)
    for (Generation g : v.gens) {
      const Instruction inst = decode(v.word, g);
      const std::string line = disassemble(inst, g);
      for (const DescribedField& f : describe_fields(inst)) {
        if (f.role != Role::Addr4 && f.role != Role::Addr8) continue;
        // The leaves of a MEM_PATTERN operand read as its indirect arm are the datapath family's one reading
        // (datapath::indirect_arm), checked by datapath_indirect_test.
        if (f.name.ends_with(".index") || f.name.ends_with(".data")) continue;
        SCOPED_TRACE(v.id + " on " + std::string(to_string(g)) + ": " + f.name);
        const std::string value = operand(line, f.name);
        if (f.role == Role::Addr4) {
          ++seen4.fields;
          check_addr4(inst, f, g, value, seen4);
        } else {
          ++seen8.fields;
          check_addr8(inst, f, g, value, seen8);
        }
      }
    }
  // Every spelling occurs among the vectors, and the validator's readings were observed.
  for (const AddrSeen& s : {seen4, seen8}) {
    EXPECT_GT(s.fields, 0U);
    EXPECT_GT(s.registers, 0U);
    EXPECT_GT(s.locations, 0U);
    EXPECT_GT(s.raw, 0U);
    EXPECT_GT(s.validator, 0U);
  }
}

std::string data_meaning_of(const Instruction& inst) {
  for (const DescribedField& f : describe_fields(inst))
    if (f.name == "data") return f.meaning;
  return "";
}

/// The items of a `{a,b,c}` list operand.
std::vector<std::string> list_items(const std::string& value) {
  std::vector<std::string> out;
  if (value.size() < 2 || value.front() != '{' || value.back() != '}') return out;
  std::istringstream s(value.substr(1, value.size() - 2));
  for (std::string item; std::getline(s, item, ',');) out.push_back(item);
  return out;
}

// MEM_2D `data` is read once (family::mem2d::data_reading): on every vector word the description, the
// disassembly and the validator's UINT64 register rule follow that reading.
TEST(DependentFields, Mem2dDataReadingAgreesInValidatorDescriptionAndDisassembly) {
  const std::vector<VectorWord> all = vectors();
  ASSERT_GT(all.size(), 300U) << "validate.tsv was not read";
  std::array<unsigned, 3> seen{};  // per DataView
  unsigned pairs = 0, validator_checks = 0;
  for (const VectorWord& v : all)
    for (Generation g : v.gens) {
      const Instruction inst = decode(v.word, g);
      DataReading r;
      bool odd = false;
      if (const Mem2d* m = inst.as<Mem2d>()) {
        r = family::mem2d::data_reading(*m);
        for (uint8_t b : m->data.bytes) odd = odd || b % 2 != 0;
      } else if (const PseudoMem2d* p = inst.as<PseudoMem2d>()) {
        r = family::mem2d::data_reading(*p);
      } else {
        continue;
      }
      SCOPED_TRACE(v.id + " on " + std::string(to_string(g)));
      ++seen[static_cast<size_t>(r.view)];
      pairs += r.pairs ? 1 : 0;

      // The description.
      const std::string meaning = data_meaning_of(inst);
      EXPECT_EQ(meaning.starts_with("registers"), r.view == DataView::Registers) << meaning;
      EXPECT_EQ(meaning.starts_with("immediates"), r.view == DataView::Immediates) << meaning;
      if (r.view != DataView::Bytes) {
        EXPECT_NE(meaning.find(fmt::format("({} of {} slots used)", r.used, r.cap)), std::string::npos) << meaning;
      }
      EXPECT_EQ(meaning.find(":r") != std::string::npos, r.pairs && r.used > 0) << meaning;

      // The disassembly: a list of registers, a list of the dtype's immediates, or the bytes.
      const std::string value = operand(disassemble(inst, g), "data");
      const std::vector<std::string> items = list_items(value);
      switch (r.view) {
        case DataView::Registers:
          EXPECT_TRUE(value.front() == '{') << value;
          for (const std::string& item : items) EXPECT_TRUE(is_register(item)) << value;
          EXPECT_GE(items.size(), r.used) << value;
          break;
        case DataView::Immediates:
          EXPECT_TRUE(value.front() == '{') << value;
          for (const std::string& item : items) EXPECT_FALSE(is_register(item)) << value;
          EXPECT_LE(items.size(), r.cap) << value;
          EXPECT_GE(items.size(), r.used) << value;
          break;
        case DataView::Bytes: EXPECT_EQ(value.size(), 2 + 2 * family::mem2d::kDataBytes) << value; break;
      }

      // The validator: the UINT64 register rule applies exactly to the pair reading.
      const CheckContext ctx{g, {}};
      for (const Predicate* p : validator_for(inst.header().opcode, g).conjuncts)
        if (p->name == "mem2d_u64_register_check" && inst.as<Mem2d>() != nullptr) {
          ++validator_checks;
          EXPECT_EQ(p->holds(inst, ctx), !r.pairs || !odd);
        }
    }
  for (unsigned n : seen) EXPECT_GT(n, 0U);
  EXPECT_GT(pairs, 0U);
  EXPECT_GT(validator_checks, 0U);
}

// Edge case #107: BatchNormParamLoad reads imm0_src 0 as a pointer in the instruction; the other S2_BN opcodes read
// it as the value (and their validators require it to be 0.0).
TEST(DependentFields, ParamLoadReadsImmSrcZeroAsAPointer) {
  using family::s2bn::imm0_reading;
  EXPECT_EQ(imm0_reading(opcode::kBatchNormParamLoad, 0), ImmReading::Pointer);
  EXPECT_EQ(imm0_reading(opcode::kBatchNormParamLoad, 1), ImmReading::Pointer);
  EXPECT_EQ(imm0_reading(opcode::kBatchNormParamLoad, 2), ImmReading::Register);
  EXPECT_EQ(imm0_reading(opcode::kBatchNormParamLoad, 3), ImmReading::Value);  // PROJ-CONV-S11
  EXPECT_EQ(imm0_reading(opcode::kImmLdArith, 0), ImmReading::Value);
  EXPECT_EQ(imm0_reading(opcode::kMatchValueLoad, 1), ImmReading::Pointer);
}

}  // namespace
}  // namespace tpbisa
