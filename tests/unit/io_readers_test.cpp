// The JSON readers of the library: bounded, strict (duplicates, trailing bytes), every refusal naming its key.
#include <gtest/gtest.h>

#include <string>

#include "tpbisa/io/json.hpp"
#include "tpbisa/io/state.hpp"
#include "tpbisa/io/vars.hpp"

namespace tpbisa::io {
namespace {

std::string state_error(const std::string& text, Generation g = Generation::Mariana) {
  MachineState s(g, uint64_t{1} << 24);
  const auto r = parse_state(text, "s.json", s, {});
  EXPECT_FALSE(r.ok()) << text;
  return r.ok() ? "" : r.error().message;
}

TEST(IoReaders, NothingButWhitespaceFollowsTheDocument) {
  // A NUL used to end the document for the parser: everything after it was ignored (issue 10, B7).
  EXPECT_EQ(state_error(std::string("{\"regs\":{\"r0\":1}}\0{\"regs\":{\"r0\":2}}}}", 36)),
            "s.json: malformed JSON: a NUL byte at byte 17");
  EXPECT_NE(state_error("{\"regs\":{\"r0\":1}} x").find("malformed JSON"), std::string::npos);
  MachineState s(Generation::Mariana);
  EXPECT_TRUE(parse_state("{\"regs\":{\"r0\":1}} \n\t", "s.json", s, {}).ok());
  EXPECT_EQ(s.regs[0], 1U);
}

TEST(IoReaders, VariableIdsThatAreTheSameNumberAreDuplicates) {
  // "7" and "0000000007" are two keys to JSON but one variable: one would silently win (issue 10, B6).
  const auto r =
      parse_vars(R"({"vars": {"7": {"base": 0, "size": 64}, "0000000007": {"base": 4096, "size": 64}}})", "v.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "v.json: vars.\"7\": variable 7 is defined twice (also as vars.\"0000000007\")");
  EXPECT_EQ(r.error().kind, ErrorKind::Invalid);
  const auto ok = parse_vars(R"({"vars": {"7": {"base": "0x80100", "size": 64}, "70": {"base": 0, "size": 1}}})", "v");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->at(7).base, 0x80100U);
  EXPECT_EQ(ok->size(), 2U);
}

TEST(IoReaders, LocationsInStateTakeBothSpellings) {
  MachineState a(Generation::Mariana), b(Generation::Mariana);
  ASSERT_TRUE(parse_state(R"({"memory": [{"at": "sbuf:2:0x100", "dtype": "u8", "values": [7]}]})", "s", a, {}).ok());
  ASSERT_TRUE(parse_state(R"({"memory": [{"at": "sbuf[p2]+0x100", "dtype": "u8", "values": [7]}]})", "s", b, {}).ok());
  EXPECT_EQ(a.memory.read(0x80100, 1), 7U);
  EXPECT_EQ(b.memory.read(0x80100, 1), 7U);
  EXPECT_EQ(state_error(R"({"memory": [{"at": "sbuf:2:0x3fffc", "dtype": "u32", "values": [1, 2]}]})"),
            "s.json: memory[0]: 8 bytes at sbuf[p2]+0x3fffc run past SBUF partition 2's 0x40000 backed bytes on "
            "mariana");
}

TEST(IoReaders, ErrorsAreValuesWithAKind) {
  EXPECT_EQ(parse_json_text("{\"a\": 1, \"a\": 2}", "x").error().message, "x: malformed JSON: duplicate key \"a\"");
  EXPECT_EQ(parse_json_text(std::string(40, '['), "x").error().message,
            "x: malformed JSON: nesting deeper than 32 levels");
  const auto missing = read_json_file("/no/such/file.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().kind, ErrorKind::Open);
  EXPECT_EQ(to_string(ErrorKind::TooLarge), "too-large");
}

}  // namespace
}  // namespace tpbisa::io
