// The validation context: the engine of the word's stream is optional, unknown by default, and names the five engines.
#include <gtest/gtest.h>

#include <string>

#include "tpbisa/catalog.hpp"
#include "tpbisa/validate.hpp"

namespace tpbisa {
namespace {

TEST(ValidateContext, EngineIsUnknownByDefault) {
  const ValidateOptions options;
  EXPECT_FALSE(options.engine.has_value());
  const CheckContext ctx{Generation::Cayman, options};
  EXPECT_FALSE(ctx.engine().has_value());
  ValidateOptions on_pe;
  on_pe.engine = StreamEngine::Pe;
  const CheckContext pe_ctx{Generation::Cayman, on_pe};
  EXPECT_EQ(pe_ctx.engine(), StreamEngine::Pe);
}

TEST(ValidateContext, StreamEnginesInSequencerOrder) {
  const char* names[] = {"PE", "ACT", "POOL", "DVE", "SP"};  // sequencer.md §2: PE 0, ACT 1, POOL 2, DVE 3, SP 4
  ASSERT_EQ(kStreamEngines.size(), 5U);
  for (size_t i = 0; i < kStreamEngines.size(); ++i) {
    EXPECT_EQ(static_cast<size_t>(kStreamEngines[i]), i);
    EXPECT_EQ(to_string(kStreamEngines[i]), names[i]);
  }
}

bool datapath_opcode(unsigned op) {
  return op == opcode::kCopy || op == opcode::kCast || op == opcode::kTensorTensorArith || op == opcode::kMemset;
}

/// Whether the placement table refuses `op` on some engine (the datapath and PE matmul opcodes).
bool placed_opcode(unsigned op) {
  for (StreamEngine e : kStreamEngines)
    if (!engine_may_issue(static_cast<uint8_t>(op), e)) return true;
  return false;
}

// Outside the opcodes the placement table restricts no predicate depends on the engine: naming one changes no
// verdict (the sync and seq validators hold engine_placement, which lets every engine issue their words).
TEST(ValidateContext, KnownEngineChangesNoVerdictOutsideThePlacedOpcodes) {
  Word w{};
  for (unsigned op = 0; op < 256; ++op) {
    if (placed_opcode(op)) continue;
    for (Generation g : kAllGenerations) {
      w[0] = static_cast<uint8_t>(op);
      w[1] = 16;
      const Instruction inst = decode(w, g);
      const Verdict unknown = validate(inst);
      for (StreamEngine e : kStreamEngines) {
        ValidateOptions options;
        options.engine = e;
        const Verdict known = validate(inst, options);
        EXPECT_EQ(known.valid, unknown.valid) << op << " " << to_string(g) << " " << to_string(e);
        EXPECT_EQ(known.n_failed, unknown.n_failed) << op << " " << to_string(g) << " " << to_string(e);
        EXPECT_FALSE(known.fails("engine_placement")) << op << " " << to_string(g) << " " << to_string(e);
      }
    }
  }
}

// One table for every family: the datapath opcodes on ACT, DVE and POOL, LDWEIGHTS and MATMUL on PE, and the
// sync and seq validators carry the same predicate.
TEST(ValidateContext, OnePlacementTableForEveryFamily) {
  for (StreamEngine e : kStreamEngines) {
    const bool datapath = e == StreamEngine::Act || e == StreamEngine::Dve || e == StreamEngine::Pool;
    for (uint8_t op : {opcode::kCopy, opcode::kCast, opcode::kMemset, opcode::kTensorTensorArith})
      EXPECT_EQ(engine_may_issue(op, e), datapath) << int{op} << " " << to_string(e);
    for (uint8_t op : {opcode::kLdWeights, opcode::kMatmul})
      EXPECT_EQ(engine_may_issue(op, e), e == StreamEngine::Pe) << int{op} << " " << to_string(e);
    for (uint8_t op : {uint8_t{0xA0}, uint8_t{0xB1}, uint8_t{0xCC}, uint8_t{0xD4}, opcode::kWrite, opcode::kMove,
                       opcode::kAluOp, opcode::kCompareBranch})
      EXPECT_TRUE(engine_may_issue(op, e)) << int{op} << " " << to_string(e);
  }
  const Predicate* shared = nullptr;
  for (uint8_t op : {opcode::kCopy, opcode::kLdWeights, opcode::kMatmul, uint8_t{0xA0}, uint8_t{0xD4}, opcode::kMove,
                     opcode::kCompareBranch})
    for (Generation g : kAllGenerations) {
      const Predicate* found = nullptr;
      for (const Predicate* p : validator_for(op, g).conjuncts)
        if (p->name == "engine_placement") found = p;
      ASSERT_NE(found, nullptr) << int{op} << " " << to_string(g);
      if (shared == nullptr) shared = found;
      EXPECT_EQ(found, shared) << "a second engine_placement predicate in " << validator_for(op, g).name;
    }
}

// LDWEIGHTS and MATMUL: refused on every engine but PE, with the table's sentence.
TEST(ValidateContext, PeOpcodesArePlacedOnPe) {
  Word w{};
  for (uint8_t op : {opcode::kLdWeights, opcode::kMatmul})
    for (Generation g : kAllGenerations) {
      w[0] = op;
      w[1] = 16;
      const Instruction inst = decode(w, g);
      for (StreamEngine e : kStreamEngines) {
        ValidateOptions options;
        options.engine = e;
        const Verdict known = validate(inst, options);
        EXPECT_EQ(known.fails("engine_placement"), e != StreamEngine::Pe) << int{op} << " " << to_string(e);
        if (e == StreamEngine::Pe) continue;
        for (const Predicate* p : known.failures()) {
          if (p->name != "engine_placement") continue;
          EXPECT_NE(report(*p, inst, CheckContext{g, options}).message.find("runs on PE only"), std::string::npos);
        }
      }
    }
}

// PROJ-CONV-F1: on the datapath opcodes a known engine adds engine_placement exactly on PE and SP; an unknown
// engine never does (the predicate is not applied).
TEST(ValidateContext, DatapathOpcodesArePlacedOnActDveAndPool) {
  Word w{};
  for (unsigned op = 0; op < 256; ++op) {
    if (!datapath_opcode(op)) continue;
    for (Generation g : kAllGenerations) {
      w[0] = static_cast<uint8_t>(op);
      w[1] = 16;
      const Instruction inst = decode(w, g);
      const Verdict unknown = validate(inst);
      EXPECT_FALSE(unknown.fails("engine_placement")) << op << " " << to_string(g);
      for (StreamEngine e : kStreamEngines) {
        ValidateOptions options;
        options.engine = e;
        const Verdict known = validate(inst, options);
        const bool refused = e == StreamEngine::Pe || e == StreamEngine::Sp;
        EXPECT_EQ(known.fails("engine_placement"), refused) << op << " " << to_string(g) << " " << to_string(e);
        EXPECT_EQ(known.n_failed, unknown.n_failed + (refused ? 1 : 0)) << op << " " << to_string(e);
        if (refused) {
          const Predicate* p = known.failures()[known.n_failed - 1];
          const FailureReport r = report(*p, inst, CheckContext{g, options});
          EXPECT_EQ(r.basis, Basis::Convention);
          EXPECT_EQ(r.convention, "PROJ-CONV-F1");
          EXPECT_NE(r.message.find(to_string(e)), std::string::npos) << r.message;
        }
      }
    }
  }
}

}  // namespace
}  // namespace tpbisa
