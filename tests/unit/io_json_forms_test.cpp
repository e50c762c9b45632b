// One JSON shape for verdicts and faults: the trace's fault object is exactly io::fault_json.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../support/machine_builders.hpp"
#include "tpbisa/io/verdict_json.hpp"
#include "tpbisa/machine.hpp"
#include "tpbisa/trace.hpp"

namespace tpbisa {
namespace {

using ojson = nlohmann::ordered_json;

TEST(IoJsonForms, TheTraceFaultIsTheLibrarysFaultObject) {
  Mem2d bad = test::tl();
  bad.num_elem = {6, 6};  // 36 elements: two predicates fail
  Machine m(Generation::Mariana, {test::word(bad)});
  const StepResult r = m.step();
  ASSERT_EQ(r.status, StepResult::Status::Faulted);
  const ojson line = ojson::parse(trace_line(r, m.instruction(0), m.options().validate));
  const ojson fault = io::fault_json(r.fault, m.instruction(0), m.options().validate);
  EXPECT_EQ(line["fault"], fault);
  std::vector<std::string> keys;
  for (const auto& [k, v] : fault.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"kind", "index", "offset", "opcode", "name", "detail", "address",
                                            "register", "verdict"}));
  // The verdict inside is the verdict object validate --json prints for the same word.
  const Verdict v = validate(m.instruction(0), Generation::Mariana);
  EXPECT_EQ(fault["verdict"], io::verdict_json(v, m.instruction(0), {}));
  ASSERT_EQ(fault["verdict"]["failed"].size(), 2U);
  EXPECT_EQ(fault["verdict"]["failed"][1]["predicate"], "mem2d_32_elem_check");
  EXPECT_EQ(fault["verdict"]["failed"][1]["fields"][0]["bytes"], ojson::array({14, 15}));
}

TEST(IoJsonForms, OtherFaultsCarryNoVerdict) {
  Mem2d load = test::tl();
  load.start_addr = test::addr8_imm(0x2004000);  // PSUM, beyond the backed bytes
  Machine m(Generation::Mariana, {test::word(load)});
  const StepResult r = m.step();
  ASSERT_EQ(r.status, StepResult::Status::Faulted);
  const ojson fault = io::fault_json(r.fault, m.instruction(0), {});
  EXPECT_FALSE(fault.contains("verdict"));
  EXPECT_EQ(fault["offset"], 0);
  EXPECT_EQ(fault["name"], "TensorLoad");
  EXPECT_TRUE(fault["address"].is_string());
}

}  // namespace
}  // namespace tpbisa
