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

// Outside the engine-placement rule no predicate depends on the engine: naming one changes no verdict.
TEST(ValidateContext, KnownEngineChangesNoVerdictOfTheSliceFormats) {
  Word w{};
  for (unsigned op = 0; op < 256; ++op)
    for (Generation g : kAllGenerations) {
      w[0] = static_cast<uint8_t>(op);
      w[1] = 16;
      const Instruction inst = decode(w, g);
      // Validators with the engine-placement rule (PROJ-CONV-F1) are tested with their family.
      bool placed = false;
      for (const Predicate* p : validator_for(inst.opcode(), g).conjuncts)
        placed = placed || p->name == "engine_placement";
      if (placed) continue;
      const Verdict unknown = validate(inst);
      for (StreamEngine e : kStreamEngines) {
        ValidateOptions options;
        options.engine = e;
        const Verdict known = validate(inst, options);
        EXPECT_EQ(known.valid, unknown.valid) << op << " " << to_string(g) << " " << to_string(e);
        EXPECT_EQ(known.n_failed, unknown.n_failed) << op << " " << to_string(g) << " " << to_string(e);
      }
    }
}

}  // namespace
}  // namespace tpbisa
