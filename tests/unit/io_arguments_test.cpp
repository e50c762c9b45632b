// The shared value grammars: byte sizes, schedules, NAME=VALUE pairs and trace filters, each accepted and refused
// form spelled out.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "tpbisa/io/arguments.hpp"

namespace tpbisa::io {
namespace {

TEST(IoArguments, ByteSizesTakeBinarySuffixesInAnyCase) {
  EXPECT_EQ(parse_size("0"), 0U);
  EXPECT_EQ(parse_size("1073741824"), uint64_t{1} << 30);
  EXPECT_EQ(parse_size("0x100"), 256U);
  EXPECT_EQ(parse_size("12b"), 12U);
  EXPECT_EQ(parse_size("1K"), 1024U);
  EXPECT_EQ(parse_size("1k"), 1024U);
  EXPECT_EQ(parse_size("2KB"), 2048U);
  EXPECT_EQ(parse_size("3KiB"), 3072U);
  EXPECT_EQ(parse_size("512M"), uint64_t{512} << 20);
  EXPECT_EQ(parse_size("1GiB"), uint64_t{1} << 30);
  EXPECT_EQ(parse_size("1gb"), uint64_t{1} << 30);
  EXPECT_EQ(parse_size("2T"), uint64_t{2} << 40);
  EXPECT_EQ(parse_size("0x1k"), 1024U);  // the hex digits end where the suffix starts
  EXPECT_EQ(parse_size("0x1b"), 0x1BU);  // b is a hex digit there, not the byte suffix
  EXPECT_EQ(parse_size("16777215T"), uint64_t{16777215} << 40);
}

TEST(IoArguments, ByteSizesRefuseWhatIsNotOne) {
  for (const char* text :
       {"", "M", "1.5G", "-1", "1 G", "1KiBB", "1P", "1Ki", "1x", "0x", "16777216T", "18446744073709551616"})
    EXPECT_EQ(parse_size(text), std::nullopt) << text;
}

TEST(IoArguments, SchedulesAreDefaultReverseOrRandomWithASeed) {
  MachineOptions o;
  ASSERT_TRUE(parse_schedule("reverse", o));
  EXPECT_EQ(o.schedule, Schedule::ReverseRoundRobin);
  ASSERT_TRUE(parse_schedule("random:0x10", o));
  EXPECT_EQ(o.schedule, Schedule::Random);
  EXPECT_EQ(o.seed, 16U);
  ASSERT_TRUE(parse_schedule("default", o));
  EXPECT_EQ(o.schedule, Schedule::RoundRobin);
  for (const char* text : {"", "Default", "random", "random:", "random:x", "random:-1", "rr"}) {
    MachineOptions untouched;
    untouched.seed = 5;
    EXPECT_FALSE(parse_schedule(text, untouched)) << text;
    EXPECT_EQ(untouched.seed, 5U);
  }
}

TEST(IoArguments, PairsNeedBothSides) {
  std::string name, value;
  ASSERT_TRUE(split_pair("x=in=1.npy", name, value));
  EXPECT_EQ(name, "x");
  EXPECT_EQ(value, "in=1.npy");
  for (const char* text : {"x", "=a", "a=", "="}) EXPECT_FALSE(split_pair(text, name, value)) << text;
}

StepResult step(EngineId e, unsigned core, uint8_t opcode, std::string_view name) {
  StepResult r;
  r.engine = e;
  r.core = core;
  r.opcode = opcode;
  r.name = name;
  return r;
}

TEST(IoArguments, TraceFiltersCombineKeysAndAlternatives) {
  TraceFilter f;
  EXPECT_TRUE(f.empty());
  EXPECT_TRUE(f.pass(step(EngineId::Sp, 3, 0x41, "Nop")));
  ASSERT_EQ(f.add("engine=pe"), std::nullopt);
  ASSERT_EQ(f.add("engine=DVE"), std::nullopt);
  ASSERT_EQ(f.add("opcode=MATMUL"), std::nullopt);
  ASSERT_EQ(f.add("opcode=0x1"), std::nullopt);  // 0x1 is 0x01
  ASSERT_EQ(f.add("core=0"), std::nullopt);
  EXPECT_FALSE(f.empty());
  EXPECT_TRUE(f.pass(step(EngineId::Pe, 0, 0x02, "Matmul")));
  EXPECT_TRUE(f.pass(step(EngineId::Dve, 0, 0x01, "LdWeights")));
  EXPECT_FALSE(f.pass(step(EngineId::Act, 0, 0x02, "Matmul")));  // engine
  EXPECT_FALSE(f.pass(step(EngineId::Pe, 1, 0x02, "Matmul")));   // core
  EXPECT_FALSE(f.pass(step(EngineId::Pe, 0, 0x41, "Nop")));      // opcode
}

TEST(IoArguments, TraceFiltersNameWhatIsWrong) {
  TraceFilter f;
  EXPECT_EQ(f.add("engine"), "'engine' is not KEY=VALUE (engine=PE, opcode=Matmul, core=0)");
  EXPECT_EQ(f.add("engine=tpu"),
            "engine 'tpu' is not an engine (pe, act, pool, dve, sp, or the stream names, any case)");
  EXPECT_EQ(f.add("core=256"), "core '256' is not a core number");
  EXPECT_EQ(f.add("core=x"), "core 'x' is not a core number");
  EXPECT_EQ(f.add("stream=sg00"), "key 'stream' is not engine, opcode or core");
  EXPECT_TRUE(f.empty());
}

}  // namespace
}  // namespace tpbisa::io
