// Every assembler error path with its message and place pinned, the diagnostic format, and robustness on any input.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "tpbisa/text.hpp"

namespace tpbisa {
namespace {

// The optimised build mutates many lines; the Debug+ASan build a sample, as it runs each line ~20x slower.
#if defined(NDEBUG) && !defined(TPBISA_ASAN)
constexpr int kFuzzLines = 20'000;
#else
constexpr int kFuzzLines = 2'000;
#endif
constexpr Generation kMariana = Generation::Mariana;
constexpr Generation kMaverick = Generation::Maverick;

struct ErrorCase {
  const char* name;
  Generation gen;
  const char* source;
  size_t line;
  size_t column;
  size_t length;
  const char* message;
};

void PrintTo(const ErrorCase& c, std::ostream* os) {
  *os << c.name;
}

// clang-format off
const ErrorCase kCases[] = {
    {"BadLabel", kMariana, "1x: TensorLoad", 1, 1, 3,
     "bad label `1x`: a label is a letter or `_` followed by letters, digits or `_`"},
    {"DuplicateLabel", kMariana, "a:\na: TensorLoad", 2, 1, 2,
     "duplicate label `a` (first defined on line 1)"},
    {"LineStartsWithPunctuation", kMariana, "= TensorLoad", 1, 1, 1,
     "expected a mnemonic or .raw, got `=`"},
    {"UnknownDirective", kMariana, ".word 5", 1, 1, 5,
     "unknown directive `.word` (the one directive is .raw)"},
    {"RawTooFewDigits", kMariana, ".raw aa10", 1, 6, 4,
     "`.raw` takes 128 hex digits, got 4"},
    {"RawNoDigits", kMariana, ".raw", 1, 1, 4,
     "`.raw` takes 128 hex digits, got 0"},
    {"RawBadDigit", kMariana, ".raw aa1g", 1, 9, 1,
     "`.raw`: `g` is not a hex digit"},
    {"RawTooManyDigits", kMariana, ".raw 00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000ff", 1, 134, 2,
     "`.raw` takes 128 hex digits; more follow the 128th"},
    {"UnknownMnemonic", kMariana, "TensorLod dtype=u8", 1, 1, 9,
     "unknown mnemonic `TensorLod`; did you mean `TensorLoad`?"},
    {"UnknownMnemonicFarFromEveryName", kMariana, "Qqqqqqqqqqqq dtype=u8", 1, 1, 12,
     "unknown mnemonic `Qqqqqqqqqqqq` (`tpbisa catalog` lists them)"},
    {"EnumNameInsteadOfMnemonic", kMariana, "TENSOR_LOAD dtype=u8", 1, 1, 11,
     "unknown mnemonic `TENSOR_LOAD`; did you mean `TensorLoad`?"},
    {"MnemonicOfAnotherGeneration", kMariana, "TensorScalarPtrMultiDualArith", 1, 1, 29,
     "TensorScalarPtrMultiDualArith is not an opcode of mariana (it is of sunda); assemble for that generation or write the word with .raw"},
    {"MnemonicNotModeled", kMariana, "EngineNop", 1, 1, 9,
     "EngineNop: layout not public; write the word with .raw <128 hex digits>"},
    {"PunctuationForOperand", kMariana, "TensorLoad , dtype=u8", 1, 12, 1,
     "expected an operand name=value, got `,`"},
    {"MissingEquals", kMariana, "TensorLoad dtype u8", 1, 17, 1,
     "missing `=` after operand `dtype` (operands are written name=value)"},
    {"StrayWord", kMariana, "TensorLoad bogus", 1, 12, 5,
     "unexpected `bogus`: expected an event token ($S[..], $E[..], unordered) or an operand name=value"},
    {"UnknownOperand", kMariana, "TensorLoad dtyp=u8", 1, 12, 4,
     "unknown operand `dtyp` for TensorLoad (did you mean `dtype`?); operands: header.inst_word_len, header.debug_cmd, header.debug_hint, events.wait_mode, events.wait_idx, events.update_mode, events.update_idx, events.semaphore_value, dtype, src_datasrc, num_elem, start_addr, step_elem, data"},
    {"OpcodeOperand", kMariana, "TensorLoad header.opcode=0xab", 1, 12, 13,
     "`header.opcode` is set by the mnemonic"},
    {"DuplicateOperand", kMariana, "TensorLoad dtype=u8 dtype=u16", 1, 21, 5,
     "duplicate operand `dtype` (first given at column 12)"},
    {"DuplicateThroughAlias", kMaverick, "TensorLoad header.debug_hint=1 header.inst_flags=2", 1, 32, 17,
     "duplicate operand `header.inst_flags` (first given at column 12)"},
    {"MissingValue", kMariana, "TensorLoad dtype=", 1, 18, 1,
     "missing value after `dtype=`"},
    {"PunctuationForValue", kMariana, "TensorLoad dtype=,", 1, 18, 1,
     "expected a value after `dtype=`, got `,`"},
    {"UnterminatedList", kMariana, "TensorLoad num_elem={1,2", 1, 21, 1,
     "unterminated `{`: expected `}` before the end of the line"},
    {"EmptyListItem", kMariana, "TensorLoad num_elem={1,}", 1, 24, 1,
     "expected a value in the list, got `}`"},
    {"MissingComma", kMariana, "TensorLoad num_elem={1 2}", 1, 24, 1,
     "expected `,` or `}` in the list, got `2`"},
    {"EventTokensAndFields", kMariana, "TensorLoad $S[1]>0 events.update_mode=0x13", 1, 20, 18,
     "write the events either as event tokens or as events.* operands, not both"},
    {"BadEventToken", kMariana, "TensorLoad $S[1]>>0", 1, 12, 8,
     "bad event token `$S[1]>>0`: expected a wait ($S[i] with == < <= > >= and a number, rN or rN+OFF; $E[i] with ?set ?set!clear ?clear ?clear!set; unordered) or an update ($S[i] with ++ -- +=v -=v =v, v a number or rN; $E[i] with =1 =0; then @read or @complete)"},
    {"WaitModeOfAnotherGeneration", kMariana, "TensorLoad $S[4]>=r5+0x10", 1, 12, 14,
     "`$S[4]>=r5+0x10`: WAIT_MODE SEM_GE_REG_OFFSET (0x95) does not exist on mariana (it does on maverick); write the events.* fields to encode it anyway"},
    {"EventWaitOnMaverick", kMaverick, "TensorLoad $E[3]?set", 1, 12, 9,
     "`$E[3]?set`: WAIT_MODE EVT_SET (0x06) does not exist on maverick (it does on sunda, cayman, mariana); write the events.* fields to encode it anyway"},
    {"SecondWait", kMariana, "TensorLoad $S[1]>0 $S[2]<1", 1, 20, 7,
     "a second wait `$S[2]<1`: the instruction already waits on `$S[1]>0` (column 12)"},
    {"SecondUpdate", kMariana, "TensorLoad $S[1]++@read $S[2]--@complete", 1, 25, 16,
     "a second update `$S[2]--@complete`: the instruction already updates with `$S[1]++@read` (column 12)"},
    {"ConflictingSemaphoreValue", kMariana, "TensorLoad $S[1]>=2 $S[2]+=5@read", 1, 21, 13,
     "`$S[1]>=2` and `$S[2]+=5@read` need different values of the one semaphore_value they share"},
    {"ListForScalar", kMariana, "TensorLoad dtype={u8}", 1, 18, 1,
     "`dtype` takes one value, not a list"},
    {"ScalarForList", kMariana, "TensorLoad num_elem=4", 1, 21, 1,
     "`num_elem` is a list of 2 values; write it as {a,b}"},
    {"ListTooLong", kMariana, "TensorLoad num_elem={1,2,3}", 1, 26, 1,
     "`num_elem` has 2 values, got 3"},
    {"UnknownDtype", kMariana, "TensorLoad dtype=u9", 1, 18, 2,
     "unknown dtype `u9` for `dtype` (did you mean `u8`?); expected invalid, u64, i8, u8, i16, u16, bf16, fp16, i32, u32, fp32, fp32r, i64, fp8e3, fp8e4, fp8e5, fp4e2, fp8e2, i4, sfp8e8, sfp8e7, sfp8e6, sfp8e5, cptc1, cptc2, cptc3, cptc4, cptc5, cptc6, cptc7 (fp8e2, i4, sfp8e8, sfp8e7, sfp8e6 and sfp8e5 are not dtypes of mariana) or a number 0..255"},
    {"UnknownAluOp", kMariana, "TensorScalarPtrMultiArith op=ADDD", 1, 30, 4,
     "unknown ALU op `ADDD` for `op` (did you mean `ADD`?); expected a name from `tpbisa catalog --gen mariana aluops` or a number 0..255"},
    {"UnknownDataSrc", kMariana, "TensorLoad src_datasrc=REG", 1, 24, 3,
     "unknown DATA_SRC value `REG` for `src_datasrc`; expected REGISTER, IMMEDIATE or a number 0..255"},
    {"NotANumber", kMariana, "TensorLoad num_elem={a,1}", 1, 22, 1,
     "`num_elem[0]` expects a number 0..255, got `a`"},
    {"OutOfRangeUnsigned", kMariana, "TensorLoad num_elem={300,1}", 1, 22, 3,
     "`num_elem[0]`: 300 is out of range 0..255"},
    {"OutOfRangeSigned", kMariana, "TensorLoad step_elem={-2147483649,0}", 1, 23, 11,
     "`step_elem[0]`: -2147483649 is out of range -2147483648..2147483647 (or 0x0..0xffffffff as bits)"},
    {"NumberTooLarge", kMariana, "TensorLoad step_elem={99999999999999999999999,0}", 1, 23, 23,
     "`step_elem[0]`: 99999999999999999999999 is out of range -2147483648..2147483647 (or 0x0..0xffffffff as bits)"},
    {"BadAddr4", kMariana, "TensorScalarPtrMultiArith src_mem_pattern.start_addr=foo", 1, 54, 3,
     "bad value `foo` for `src_mem_pattern.start_addr`: expected sbuf[pN]+OFF or psum[pN].bankB+OFF, a register rN, or raw 0x bits (ADDR4)"},
    {"BadLocation", kMariana, "TensorScalarPtrMultiArith src_mem_pattern.start_addr=sbuf[3]", 1, 54, 7,
     "bad location `sbuf[3]` for `src_mem_pattern.start_addr`: expected sbuf[pN]+OFF or psum[pN].bankB+OFF"},
    {"PartitionOutOfRange", kMariana, "TensorScalarPtrMultiArith src_mem_pattern.start_addr=sbuf[p128]", 1, 54, 10,
     "`src_mem_pattern.start_addr`: partition 128 is outside SBUF (partitions 0..127)"},
    {"OffsetBeyondPartition", kMariana, "TensorScalarPtrMultiArith src_mem_pattern.start_addr=sbuf[p1]+0x40000", 1, 54, 16,
     "`src_mem_pattern.start_addr`: offset 0x40000 is beyond SBUF partition 1's 0x40000-byte stride on mariana"},
    {"BankBeyondPartition", kMariana, "TensorScalarPtrMultiArith src_mem_pattern.start_addr=psum[p1].bank16", 1, 54, 15,
     "`src_mem_pattern.start_addr`: bank 16 is outside PSUM (banks 0..15)"},
    {"PsumOnMaverick", kMaverick, "TensorScalarPtrMultiArith src_mem_pattern.start_addr=psum[p1]", 1, 54, 8,
     "`src_mem_pattern.start_addr`: maverick has no PSUM"},
    {"RegisterPairInAddr4", kMariana, "TensorScalarPtrMultiArith src_mem_pattern.start_addr=r4:r5", 1, 54, 5,
     "bad value `r4:r5` for `src_mem_pattern.start_addr`: expected sbuf[pN]+OFF or psum[pN].bankB+OFF, a register rN, or raw 0x bits (ADDR4)"},
    {"Addr4RawOutOfRange", kMariana, "TensorScalarPtrMultiArith src_mem_pattern.start_addr=0x100000000", 1, 54, 11,
     "`src_mem_pattern.start_addr`: 0x100000000 is out of range 0..4294967295"},
    {"DeviceAddressTooWide", kMariana, "TensorLoad start_addr=dev:0x400000000000000", 1, 23, 21,
     "`start_addr`: device address 0x400000000000000 does not fit in 58 bits (bits 63..58 are the ADDR8 marker); write the raw 0x value instead"},
    {"BadDeviceAddress", kMariana, "TensorLoad start_addr=dev:xyz", 1, 23, 7,
     "bad device address `dev:xyz` for `start_addr`: expected dev:0xADDRESS"},
    {"SingleRegisterInAddr8", kMariana, "TensorLoad start_addr=r4", 1, 23, 2,
     "bad value `r4` for `start_addr`: expected sbuf[pN]+OFF or psum[pN].bankB+OFF, dev:0xADDRESS, a register pair rLO:rHI, or raw 0x bits (ADDR8)"},
    {"ListForAddress", kMariana, "TensorLoad start_addr={1}", 1, 23, 1,
     "`start_addr` takes one value, not a list"},
    {"BadImmediate", kMariana, "BatchNormParamLoad imm1=abc", 1, 25, 3,
     "bad immediate `abc` for `imm1`: expected a float (1.5, -2.0, inf), raw 0x bits, a pointer sbuf[pN]+OFF / psum[pN].bankB+OFF, or a register rN"},
    {"ImmediateOutOfFp32Range", kMariana, "BatchNormParamLoad imm1=1e39", 1, 25, 4,
     "`imm1`: 1e39 is out of the fp32 range"},
    {"ImmediateBitsOutOfRange", kMariana, "BatchNormParamLoad imm0_src=POINTER_IMMEDIATE imm0_ptr=0x100000000", 1, 56, 11,
     "`imm0_ptr`: 0x100000000 is out of range -2147483648..2147483647 (or 0x0..0xffffffff as bits)"},
    {"DataScalarNotBytes", kMariana, "TensorStore data=5", 1, 18, 1,
     "`data` takes a list {...} of registers or 0x followed by 64 hex digits, got `5`"},
    {"DataListWithoutDataSrc", kMariana, "TensorStore src_datasrc=2 data={1}", 1, 32, 1,
     "`data` cannot be a list: src_datasrc 2 is neither REGISTER nor IMMEDIATE; write 0x followed by 64 hex digits"},
    {"DataTooManyImmediates", kMariana, "TensorStore dtype=u32 src_datasrc=IMMEDIATE data={1,2,3,4,5,6,7,8,9}", 1, 67, 1,
     "`data` holds at most 8 u32 immediates, got 9"},
    {"DataRegisterExpected", kMariana, "TensorStore data={5}", 1, 19, 1,
     "`data[0]`: expected a register r0..r255 (src_datasrc is REGISTER), got `5`"},
    {"DataFloatNotANumber", kMariana, "TensorStore dtype=fp32 src_datasrc=IMMEDIATE data={1,x}", 1, 54, 1,
     "`data[1]`: `x` is not a number (dtype fp32: a number or 0x bits)"},
    {"DataFloatOutOfRange", kMariana, "TensorStore dtype=fp32 src_datasrc=IMMEDIATE data={1e39}", 1, 52, 4,
     "`data[0]`: 1e39 is out of the fp32 range"},
    {"DataIntOutOfRange", kMariana, "TensorStore dtype=u8 src_datasrc=IMMEDIATE data={256}", 1, 50, 3,
     "`data[0]`: 256 is out of range for u8 (0..255)"},
    {"DataIntNotANumber", kMariana, "TensorStore dtype=i16 src_datasrc=IMMEDIATE data={q}", 1, 51, 1,
     "`data[0]`: `q` is not a number (dtype i16)"},
    {"DataDtypeWithoutSize", kMariana, "TensorStore dtype=invalid src_datasrc=IMMEDIATE data={1}", 1, 54, 1,
     "`data` cannot be a list: dtype 0x00 has no element size; write 0x followed by 64 hex digits"},
};
// clang-format on

class AsmError : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(AsmError, MessageAndPlace) {
  const ErrorCase& c = GetParam();
  const AsmResult r = assemble(c.source, "t.tasm", c.gen);
  ASSERT_EQ(r.error_count, 1U) << c.source;
  ASSERT_EQ(r.errors.size(), 1U);
  const AsmDiagnostic& d = r.errors[0];
  EXPECT_EQ(d.message, c.message);
  EXPECT_EQ(d.file, "t.tasm");
  EXPECT_EQ(d.line, c.line);
  EXPECT_EQ(d.column, c.column);
  EXPECT_EQ(d.length, c.length);
  EXPECT_TRUE(r.words.empty() || c.line > 1);  // a line with an error gives no word
}

INSTANTIATE_TEST_SUITE_P(Paths, AsmError, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<ErrorCase>& p) { return std::string(p.param.name); });

TEST(AsmErrorFormat, FileLineColumnSourceAndCaret) {
  const AsmResult r = assemble("; header\nTensorLoad dtype=u9 num_elem={1,1}\n", "prog.tasm", kMariana);
  ASSERT_EQ(r.errors.size(), 1U);
  EXPECT_EQ(format_diagnostic(r.errors[0]),
            "prog.tasm:2:18: error: unknown dtype `u9` for `dtype` (did you mean `u8`?); "
            "expected invalid, u64, i8, u8, i16, u16, bf16, fp16, i32, u32, fp32, fp32r, i64, fp8e3, fp8e4, fp8e5, "
            "fp4e2, fp8e2, i4, sfp8e8, sfp8e7, sfp8e6, sfp8e5, cptc1, cptc2, cptc3, cptc4, cptc5, cptc6, cptc7 (fp8e2, "
            "i4, sfp8e8, sfp8e7, sfp8e6 and sfp8e5 are not dtypes of mariana) or a number 0..255\n"
            "TensorLoad dtype=u9 num_elem={1,1}\n"
            "                 ^~");
}

TEST(AsmErrorFormat, TheCaretLineKeepsTabsAndTheSourceLineKeepsItsComment) {
  const AsmResult r = assemble("\tTensorLoad\tdtype=u9 ; comment\r\n", "t.tasm", kMariana);
  ASSERT_EQ(r.errors.size(), 1U);
  EXPECT_EQ(r.errors[0].column, 19U);
  const std::string text = format_diagnostic(r.errors[0]);
  EXPECT_TRUE(text.ends_with("\n\tTensorLoad\tdtype=u9 ; comment\n\t          \t      ^~")) << text;
}

TEST(AsmErrors, EveryLineWithAnErrorIsReportedAndTheGoodLinesStillAssemble) {
  const AsmResult r = assemble("TensorLoad dtype=u9\nTensorLoad dtype=u8\nTensorLod\n", "t.tasm", kMariana);
  EXPECT_EQ(r.error_count, 2U);
  ASSERT_EQ(r.errors.size(), 2U);
  EXPECT_EQ(r.errors[0].line, 1U);
  EXPECT_EQ(r.errors[1].line, 3U);
  EXPECT_EQ(r.words.size(), 1U);
  EXPECT_EQ(r.word_lines, std::vector<size_t>{2});
}

TEST(AsmErrors, OnlyTheFirstErrorOfALineIsReported) {
  const AsmResult r = assemble("TensorLoad dtype=u9 num_elem={300,1}", "t.tasm", kMariana);
  ASSERT_EQ(r.error_count, 1U);
  EXPECT_EQ(r.errors[0].column, 18U);
}

TEST(AsmErrors, ErrorsBeyondTheCapAreCountedNotKept) {
  std::string source;
  for (size_t i = 0; i < kAsmMaxErrors + 5; ++i) source += "Bogus\n";
  const AsmResult r = assemble(source, "t.tasm", kMariana);
  EXPECT_EQ(r.error_count, kAsmMaxErrors + 5);
  EXPECT_EQ(r.errors.size(), kAsmMaxErrors);
  EXPECT_FALSE(r.ok());
}

TEST(AsmErrors, LineTooLong) {
  const std::string line = "TensorLoad " + std::string(kAsmMaxLineBytes, ' ');
  const AsmResult r = assemble(line, "t.tasm", kMariana);
  ASSERT_EQ(r.errors.size(), 1U);
  EXPECT_EQ(r.errors[0].message, "line of 4107 bytes; at most 4096 are allowed");
  EXPECT_EQ(r.errors[0].column, 1U);
  EXPECT_EQ(r.errors[0].source_line.size(), 84U);  // the first 80 bytes and " ..."
}

// Operands are bounded by the format: each field may be given once and there is one wait and one update.
TEST(AsmErrors, OperandsAreBoundedByTheFormat) {
  std::string line = "TensorLoad";
  for (int i = 0; i < 100; ++i) line += " dtype=u8";
  const AsmResult r = assemble(line, "t.tasm", kMariana);
  ASSERT_EQ(r.error_count, 1U);
  EXPECT_EQ(r.errors[0].message, "duplicate operand `dtype` (first given at column 12)");
  EXPECT_EQ(r.errors[0].column, 21U);
}

TEST(AsmErrors, TooManyValuesInAList) {
  std::string line = "TensorLoad num_elem={";
  for (size_t i = 0; i <= 64; ++i) line += i == 0 ? "1" : ",1";
  line += "}";
  const AsmResult r = assemble(line, "t.tasm", kMariana);
  ASSERT_EQ(r.errors.size(), 1U);
  EXPECT_EQ(r.errors[0].message, "too many values in one list (at most 64)");
  EXPECT_EQ(r.errors[0].column, 22U + 2 * 64);
}

// Robustness: random bytes, and canonical lines with bytes changed, inserted or cut. Each input either
// assembles or reports errors that point inside their line; nothing crashes, throws or hangs.
TEST(AsmErrors, NoInputCrashesTheAssembler) {
  std::mt19937_64 rng(0x61736d);
  const std::vector<std::string> seeds = {
      "TensorLoad $S[11]>0 $S[22]++@complete dtype=u32 src_datasrc=REGISTER num_elem={2,2} start_addr=sbuf[p2]+0x100 "
      "step_elem={1,2} data={r1,r2,r3,r4}",
      "TensorStore dtype=fp32 src_datasrc=IMMEDIATE num_elem={4,1} start_addr=psum[p0].bank2+0x10 data={1.0,-2.5}",
      "BatchNormParamLoad imm1=2.0 imm0_ptr=sbuf[p0]+0x80 imm0_src=POINTER_IMMEDIATE",
      ".raw aa100000040b13160000000009000202000108000000000001000000020000000102030400000000000000000000000000000000"
      "000000000000000000000000",
      "lbl: TensorScalarPtrMultiArith op=MULT op_dim=XYZ src_mem_pattern.num_elem={16,1,1,4}"};
  constexpr std::string_view kAlphabet = "$[]{}=,.:;#+-@?!<>rpx0123456789abcdefSEsbufpsum \t\r\x01\xff";
  for (int i = 0; i < kFuzzLines; ++i) {
    std::string s = seeds[rng() % seeds.size()];
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !s.empty(); ++e) {
      const size_t at = rng() % s.size();
      const char c = kAlphabet[rng() % kAlphabet.size()];
      switch (rng() % 3) {
        case 0: s[at] = c; break;
        case 1: s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), c); break;
        default: s.erase(at, 1 + rng() % 8); break;
      }
    }
    if (i % 4 == 0)
      for (auto& ch : s) ch = static_cast<char>(rng());
    const AsmResult r = assemble(s, "fuzz", static_cast<Generation>(rng() % 4));
    for (const AsmDiagnostic& d : r.errors) {
      ASSERT_GE(d.column, 1U) << s;
      ASSERT_LE(d.column, d.source_line.size() + 1) << s;
      ASSERT_FALSE(d.message.empty()) << s;
    }
  }
}

}  // namespace
}  // namespace tpbisa
