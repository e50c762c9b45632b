// Baseline words of the sequencer family (sequencer.md §4-§10), built byte by byte at the spec's offsets.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#include "tpbisa/catalog.hpp"
#include "tpbisa/fields.hpp"

namespace tpbisa::seq_words {

inline Word with_header(uint8_t opcode) {
  Word w{};
  w[0] = opcode;
  w[1] = 16;
  return w;
}

/// WRITE: wr_size 4, address 0x1000, value 0xdeadbeef.
inline Word write_word() {
  Word w = with_header(opcode::kWrite);
  w[12] = 4;
  store_le<uint64_t>(&w[16], 0x1000);
  store_le<uint32_t>(&w[24], 0xDEADBEEF);
  return w;
}

/// MOVE: two register moves, INT32, R1 -> R3 and R2 -> R4.
inline Word move_word() {
  Word w = with_header(opcode::kMove);
  w[12] = 2;
  w[13] = dtype::kInt32;
  w[14] = 0;
  w[16] = 1;
  w[17] = 2;
  w[24] = 3;
  w[25] = 4;
  return w;
}

/// sequencer.md §10.2 #1 (synthetic): MOVE 1, UINT32, IMMEDIATE, dst R0, uint32[0] = 0.
inline Word spec_move_word() {
  Word w = with_header(opcode::kMove);
  w[12] = 1;
  w[13] = dtype::kUint32;
  w[14] = 1;
  return w;
}

/// sequencer.md §10.2 #4 (synthetic): ALU_OP ADD, INT32, IMMEDIATE, src0 R0, dst R0, immediate 1.
inline Word alu_word() {
  Word w = with_header(opcode::kAluOp);
  w[12] = aluop::kAdd;
  w[13] = dtype::kInt32;
  w[14] = 1;
  store_le<uint64_t>(&w[24], 1);
  return w;
}

/// sequencer.md §10.2 #2 (synthetic): COMPARE_BRANCH cmp 13 (REG GE), INT32, mode 3, R0 vs R1, +0x100.
inline Word branch_word() {
  Word w = with_header(opcode::kCompareBranch);
  w[12] = 13;
  w[13] = dtype::kInt32;
  w[14] = 3;
  w[32] = 0;
  w[33] = 1;
  store_le<uint64_t>(&w[48], 0x100);
  return w;
}

/// sequencer.md §10.2 #5 (synthetic): cmp 9 (REG LT), INT32, mode 3, R0 vs R1, br_immediate 0xFFFFFF80 (-128).
inline Word back_branch_word() {
  Word w = branch_word();
  w[12] = 9;
  store_le<uint64_t>(&w[48], 0xFFFFFF80);
  return w;
}

/// EVENT_SEMAPHORE_RANGE_CLEAR: mode 1, semaphores 8..23.
inline Word range_clear_word() {
  Word w = with_header(opcode::kEventSemaphoreRangeClear);
  w[12] = 1;
  w[13] = 8;
  w[14] = 23;
  return w;
}

/// POLL_SEM: 1 value at 0x1000 combined with MIN into R5, no write-back.
inline Word poll_word() {
  Word w = with_header(opcode::kPollSem);
  w[12] = 1;
  w[13] = 5;
  w[14] = aluop::kMin;
  store_le<uint64_t>(&w[16], 0x1000);
  return w;
}

/// BRANCH_PREFETCH_HINT (0xb5) or its pseudo twin (0xdd): target +0x100.
inline Word hint_word(uint8_t opcode) {
  Word w = with_header(opcode);
  store_le<uint64_t>(&w[48], 0x100);
  return w;
}

/// PSEUDO_FUNCTION_CALL: callee "main_fn", args table variable 3.
inline Word call_word() {
  Word w = with_header(opcode::kPseudoFunctionCall);
  constexpr std::string_view kName = "main_fn";
  std::memcpy(&w[12], kName.data(), kName.size());
  store_le<uint32_t>(&w[48], 3);
  return w;
}

/// PSEUDO_INST exit (byte 12 = 1).
inline Word exit_word() {
  Word w = with_header(opcode::kPseudoInst);
  w[12] = 1;
  return w;
}

}  // namespace tpbisa::seq_words
