// The sequencer control block's cases for the generic predicate tests: baselines, mutations, exemptions.
#include "../../support/seq_words.hpp"

#include "../../support/predicate_cases.hpp"

namespace tpbisa::test::seq_cases {
namespace {

/// The family's cases for tests/unit/validate_predicates_test.cpp.
PredicateCases family_cases() {
  return {
      .baselines =
          {
              {"is_valid_ctrl_wr", [] { return seq_words::write_word(); }},
              {"is_valid_ctrl_mv", [] { return seq_words::move_word(); }},
              {"is_valid_ctrl_al", [] { return seq_words::alu_word(); }},
              {"is_valid_ctrl_br", [] { return seq_words::branch_word(); }},
              {"is_valid_ctrl_er", [] { return seq_words::range_clear_word(); }},
              {"is_valid_poll_sem", [] { return seq_words::poll_word(); }},
              {"is_valid_branch_prefetch_hint", [] { return seq_words::hint_word(opcode::kBranchPrefetchHint); }},
              {"is_valid_pseudo_branch_prefetch_hint",
               [] { return seq_words::hint_word(opcode::kPseudoBranchPrefetchHint); }},
              {"is_valid_pseudo_function_begin", [] { return seq_words::with_header(opcode::kPseudoFunctionBegin); }},
              {"is_valid_pseudo_function_return", [] { return seq_words::with_header(opcode::kPseudoFunctionReturn); }},
              {"is_valid_pseudo_function_call", [] { return seq_words::call_word(); }},
              {"is_valid_pseudo_inst", [] { return seq_words::exit_word(); }},
          },
      .fail_cases =
          {
              // ---- WRITE ----
              {"is_valid_ctrl_wr", "ctrl_wr_valid_size", 0, [](Word& w, Generation) { w[12] = 8; }},
              {"is_valid_ctrl_wr", "ctrl_wr_aligned_address", 0, [](Word& w, Generation) { w[16] = 0x02; }},
              {"is_valid_ctrl_wr", "ctrl_wr_reserved_zero", 0, [](Word& w, Generation) { w[13] = 1; }},
              // ---- MOVE ----
              {"is_valid_ctrl_mv", "has_tile_idx_zero", 0, [](Word& w, Generation) { w[3] = 1; }},
              {"is_valid_ctrl_mv", "ctrl_mv_valid_num", 0,
               [](Word& w, Generation) { w[12] = 9; }},  // every slot used, all valid
              {"is_valid_ctrl_mv", "ctrl_mv_reserved_zero", 0, [](Word& w, Generation) { w[15] = 1; }},
              {"is_valid_ctrl_mv", "ctrl_mv_has_valid_dtype", 0, [](Word& w, Generation) { w[13] = dtype::kFp16; }},
              {"is_valid_ctrl_mv", "is_valid_enum(DataSrc)", 0, [](Word& w, Generation) { w[14] = 2; }},
              {"is_valid_ctrl_mv", "ctrl_mv_valid_register", 0,
               [](Word& w, Generation) { w[16] = 70; }},  // used: bad source
              {"is_valid_ctrl_mv", "ctrl_mv_valid_register", 1,
               [](Word& w, Generation) { w[25] = 130; }},  // used: bad destination
              {"is_valid_ctrl_mv", "ctrl_mv_valid_register", 2,
               [](Word& w, Generation) { w[18] = 1; }},  // unused slot, source set
              {"is_valid_ctrl_mv", "ctrl_mv_valid_register", 3, [](Word& w, Generation) { w[19] = 1; }},
              {"is_valid_ctrl_mv", "ctrl_mv_valid_register", 4, [](Word& w, Generation) { w[20] = 1; }},
              {"is_valid_ctrl_mv", "ctrl_mv_valid_register", 5, [](Word& w, Generation) { w[21] = 1; }},
              {"is_valid_ctrl_mv", "ctrl_mv_valid_register", 6, [](Word& w, Generation) { w[22] = 1; }},
              {"is_valid_ctrl_mv", "ctrl_mv_valid_register", 7, [](Word& w, Generation) { w[23] = 1; }},
              // ---- ALU_OP ----
              {"is_valid_ctrl_al", "is_valid_aluop", 0,
               [](Word& w, Generation) { w[12] = 0x1E; }},  // no generation has 0x1e
              {"is_valid_ctrl_al", "ctrl_al_valid_dtype", 0, [](Word& w, Generation) { w[13] = dtype::kFp16; }},
              {"is_valid_ctrl_al", "is_valid_enum(DataSrc)", 0, [](Word& w, Generation) { w[14] = 2; }},
              {"is_valid_ctrl_al", "ctrl_al_valid_dst_dtype", 0, [](Word& w, Generation) { w[15] = dtype::kUint32; }},
              {"is_valid_ctrl_al", "ctrl_al_valid_registers", 0, [](Word& w, Generation) { w[16] = 64; }},
              {"is_valid_ctrl_al", "alu_dtype_legal", 0,
               [](Word& w, Generation) { w[12] = aluop::kDivide; }},  // INT32 divide
              {"is_valid_ctrl_al", "ctrl_al_reserved_zero", 0, [](Word& w, Generation) { w[22] = 1; }},
              // ---- COMPARE_BRANCH ----
              {"is_valid_ctrl_br", "ctrl_br_valid_cmp_op", 0, [](Word& w, Generation) { w[12] = 7; }},
              {"is_valid_ctrl_br", "ctrl_br_valid_dtype", 0, [](Word& w, Generation) { w[13] = dtype::kFp16; }},
              {"is_valid_ctrl_br", "ctrl_br_valid_target_mode", 0, [](Word& w, Generation) { w[14] = 2; }},
              {"is_valid_ctrl_br", "ctrl_br_valid_cmp_registers", 0, [](Word& w, Generation) { w[33] = 64; }},
              {"is_valid_ctrl_br", "ctrl_br_valid_target_registers", 0,
               [](Word& w, Generation) {
                 w[14] = 4;  // REL_REGISTER reads the target registers
                 w[34] = 64;
               }},
              {"is_valid_ctrl_br", "ctrl_br_reserved_zero", 0, [](Word& w, Generation) { w[15] = 1; }},
              // ---- EVENT_SEMAPHORE_RANGE_CLEAR ----
              {"is_valid_ctrl_er", "ctrl_er_valid_mode", 0, [](Word& w, Generation) { w[12] = 3; }},
              {"is_valid_ctrl_er", "ctrl_er_valid_range", 0, [](Word& w, Generation) { w[13] = 30; }},
              {"is_valid_ctrl_er", "ctrl_er_unused_operand_zero", 0, [](Word& w, Generation) { w[32] = 1; }},
              {"is_valid_ctrl_er", "ctrl_er_reserved_zero", 0, [](Word& w, Generation) { w[15] = 1; }},
              // ---- POLL_SEM ----
              {"is_valid_poll_sem", "poll_sem_valid_count", 0, [](Word& w, Generation) { w[12] = 0; }},
              {"is_valid_poll_sem", "poll_sem_valid_register", 0, [](Word& w, Generation) { w[13] = 64; }},
              {"is_valid_poll_sem", "poll_sem_valid_combine_op", 0, [](Word& w, Generation) { w[14] = 0x1E; }},
              {"is_valid_poll_sem", "poll_sem_aligned_addresses", 0, [](Word& w, Generation) { w[16] = 0x02; }},
              {"is_valid_poll_sem", "poll_sem_reserved_zero", 0, [](Word& w, Generation) { w[15] = 1; }},
              // ---- hints and pseudo words ----
              {"is_valid_branch_prefetch_hint", "branch_prefetch_hint_target_range", 0,
               [](Word& w, Generation) { w[52] = 1; }},
              {"is_valid_pseudo_branch_prefetch_hint", "branch_prefetch_hint_target_range", 0,
               [](Word& w, Generation) { w[52] = 1; }},
              {"is_valid_pseudo_function_call", "pseudo_function_call_valid_callee", 0,
               [](Word& w, Generation) { w[12] = 0; }},
              {"is_valid_pseudo_inst", "pseudo_inst_valid_kind", 0, [](Word& w, Generation) { w[12] = 2; }},
          },
      .exempt =
          {
              // Opcode clauses of the sequencer family's validators: dispatch selects each validator by its opcode.
              {"is_valid_ctrl_wr", "has_write_opcode", "dispatch selects it by 0xa5"},
              {"is_valid_ctrl_mv", "has_move_opcode", "dispatch selects it by 0xa7"},
              {"is_valid_ctrl_al", "has_alu_op_opcode", "dispatch selects it by 0xa8"},
              {"is_valid_ctrl_br", "has_compare_branch_opcode", "dispatch selects it by 0xa9"},
              {"is_valid_ctrl_er", "has_event_semaphore_range_clear_opcode", "dispatch selects it by 0xb0"},
              {"is_valid_poll_sem", "has_poll_sem_opcode", "dispatch selects it by 0xb3"},
              {"is_valid_branch_prefetch_hint", "has_branch_prefetch_hint_opcode", "dispatch selects it by 0xb5"},
              {"is_valid_pseudo_branch_prefetch_hint", "has_pseudo_branch_prefetch_hint_opcode",
               "dispatch selects it by 0xdd"},
              {"is_valid_pseudo_function_begin", "has_pseudo_function_begin_opcode", "dispatch selects it by 0xd1"},
              {"is_valid_pseudo_function_return", "has_pseudo_function_return_opcode", "dispatch selects it by 0xd2"},
              {"is_valid_pseudo_function_call", "has_pseudo_function_call_opcode", "dispatch selects it by 0xd3"},
              {"is_valid_pseudo_inst", "has_pseudo_inst_opcode", "dispatch selects it by 0xdf"},
              // The sequencer words may be issued from any engine (the PROJ-CONV-F1 placement table has no row for
              // them).
              {"is_valid_ctrl_wr", "engine_placement", "any engine may issue it (PROJ-CONV-F1 table)"},
              {"is_valid_ctrl_mv", "engine_placement", "any engine may issue it (PROJ-CONV-F1 table)"},
              {"is_valid_ctrl_al", "engine_placement", "any engine may issue it (PROJ-CONV-F1 table)"},
              {"is_valid_ctrl_br", "engine_placement", "any engine may issue it (PROJ-CONV-F1 table)"},
              {"is_valid_ctrl_er", "engine_placement", "any engine may issue it (PROJ-CONV-F1 table)"},
              {"is_valid_poll_sem", "engine_placement", "any engine may issue it (PROJ-CONV-F1 table)"},
              {"is_valid_branch_prefetch_hint", "engine_placement", "any engine may issue it (PROJ-CONV-F1 table)"},
              {"is_valid_pseudo_branch_prefetch_hint", "engine_placement",
               "any engine may issue it (PROJ-CONV-F1 table)"},
              {"is_valid_pseudo_function_begin", "engine_placement", "any engine may issue it (PROJ-CONV-F1 table)"},
              {"is_valid_pseudo_function_return", "engine_placement", "any engine may issue it (PROJ-CONV-F1 table)"},
              {"is_valid_pseudo_function_call", "engine_placement", "any engine may issue it (PROJ-CONV-F1 table)"},
              {"is_valid_pseudo_inst", "engine_placement", "any engine may issue it (PROJ-CONV-F1 table)"},
          },
      .vector_covered = {"is_valid_ctrl_wr", "is_valid_ctrl_mv", "is_valid_ctrl_al", "is_valid_ctrl_br",
                         "is_valid_ctrl_er", "is_valid_poll_sem", "is_valid_branch_prefetch_hint",
                         "is_valid_pseudo_branch_prefetch_hint", "is_valid_pseudo_function_begin",
                         "is_valid_pseudo_function_return", "is_valid_pseudo_function_call", "is_valid_pseudo_inst"},
  };
}

[[maybe_unused]] const bool kRegistered = register_predicate_cases(family_cases());

}  // namespace
}  // namespace tpbisa::test::seq_cases
