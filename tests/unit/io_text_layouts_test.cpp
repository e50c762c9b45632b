// The library's command-line layouts and grammars that moved out of the tool: number options, fp32 operands,
// tolerances, dump bounds, word inputs, escaped assembly diagnostics, progress lines, catalog tables, summaries.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "tpbisa/io/arguments.hpp"
#include "tpbisa/io/catalog_tables.hpp"
#include "tpbisa/io/progress.hpp"
#include "tpbisa/io/source_text.hpp"
#include "tpbisa/io/text_out.hpp"
#include "tpbisa/io/validate_text.hpp"
#include "tpbisa/io/verdict_text.hpp"

namespace tpbisa::io {
namespace {

TEST(IoTextLayouts, NumberOptionsNameTheOptionAndTheRange) {
  std::string why;
  EXPECT_EQ(number_option("--jobs", "4", 1, 16, why), 4U);
  EXPECT_EQ(number_option("--jobs", "0x10", 1, 16, why), 16U);
  EXPECT_EQ(number_option("--jobs", "17", 1, 16, why), std::nullopt);
  EXPECT_EQ(why, "--jobs '17' is out of range 1..16");
  EXPECT_EQ(number_option("--jobs", "0", 1, 16, why), std::nullopt);
  EXPECT_EQ(why, "--jobs '0' is out of range 1..16");
  EXPECT_EQ(number_option("--max-steps", "ten", 0, UINT64_MAX, why), std::nullopt);
  EXPECT_EQ(why, "--max-steps 'ten' is not a number");
  EXPECT_EQ(number_option("--max-steps", "18446744073709551616", 0, 99, why), std::nullopt);
  EXPECT_EQ(why, "--max-steps '18446744073709551616' is out of range 0..99");
}

TEST(IoTextLayouts, Fp32OperandsAreNumbersOrBits) {
  EXPECT_EQ(parse_fp32_operand("1.5"), 0x3FC00000U);
  EXPECT_EQ(parse_fp32_operand("-2"), 0xC0000000U);
  EXPECT_EQ(parse_fp32_operand("inf"), 0x7F800000U);
  EXPECT_EQ(parse_fp32_operand("0x7fc00001"), 0x7FC00001U);
  EXPECT_EQ(parse_fp32_operand("0X1"), 1U);
  for (const char* bad : {"", "x", "1.5f", "0x100000000", "0xg"})
    EXPECT_EQ(parse_fp32_operand(bad), std::nullopt) << bad;
}

TEST(IoTextLayouts, TolerancesAreFiniteAndNotNegative) {
  double r = -1, a = -1;
  EXPECT_EQ(parse_tolerances("0.5", "1e-3", r, a), std::nullopt);
  EXPECT_EQ(r, 0.5);
  EXPECT_EQ(a, 0.001);
  EXPECT_EQ(parse_tolerances("-1", "0", r, a), "--rtol '-1' is not a number 0 or more");
  EXPECT_EQ(parse_tolerances("0", "nan", r, a), "--atol 'nan' is not a number 0 or more");
  EXPECT_EQ(parse_tolerances("", "0", r, a), "--rtol '' is not a number 0 or more");
  EXPECT_EQ(parse_tolerances("0", "1x", r, a), "--atol '1x' is not a number 0 or more");
}

TEST(IoTextLayouts, DumpSpecsAreBoundedTogether) {
  std::vector<DumpSpec> dumps;
  const std::vector<std::string> two{"dev:0x1000:u8:4", "dev:0x2000:u8:4"};
  EXPECT_EQ(parse_dump_specs(two, Generation::Mariana, 8, dumps), std::nullopt);
  EXPECT_EQ(dumps.size(), 2U);
  dumps.clear();
  EXPECT_EQ(parse_dump_specs(two, Generation::Mariana, 7, dumps),
            "--dump 'dev:0x2000:u8:4': the dumps show more than 7 elements in all (--max-dump-elements)");
  const std::vector<std::string> bad{"nowhere:u8:1"};
  const auto why = parse_dump_specs(bad, Generation::Mariana, 8, dumps);
  ASSERT_TRUE(why.has_value());
  EXPECT_EQ(why->rfind("--dump 'nowhere:u8:1': ", 0), 0U) << *why;
}

TEST(IoTextLayouts, WordInputsAreHexOrFilesNotBoth) {
  const std::vector<std::string> none, hex{"00"}, files{"a.bin"};
  EXPECT_EQ(check_word_inputs(none, none, false), "no input: give --hex HEX or FILE ('-' for stdin)");
  EXPECT_EQ(check_word_inputs(hex, files, false), "give either --hex words or FILE arguments, not both");
  EXPECT_EQ(check_word_inputs(hex, none, true), "--subgraph selects streams of a NEFF input, not --hex words");
  EXPECT_EQ(check_word_inputs(hex, none, false), std::nullopt);
  EXPECT_EQ(check_word_inputs(none, files, true), std::nullopt);
  // A file name after --hex (here this test's own folder) is named as a file.
  const std::vector<std::string> folder{"/"};
  EXPECT_EQ(check_word_inputs(folder, none, false),
            "'/' after --hex is a file; give either --hex words or FILE arguments, not both");
}

TEST(IoTextLayouts, UnreadableFilesSayWhy) {
  EXPECT_EQ(unreadable_file("/nonexistent/x.bin"), "/nonexistent/x.bin: cannot open: No such file or directory");
  EXPECT_EQ(unreadable_file("/"), "/: cannot open: Is a directory");
  EXPECT_EQ(unreadable_file("/dev/null"), std::nullopt);
}

TEST(IoTextLayouts, DiagnosticsAreEscapedWithTheCaretUnderTheirBytes) {
  AsmDiagnostic d;
  d.file = "in\x01.tasm";
  d.line = 3;
  d.column = 4;
  d.length = 2;
  d.message = "bad\x7f";
  d.source_line = std::string("\tx\0yz\xff", 6);
  // The tab is kept (and repeated in the caret line), the NUL and the byte that is no UTF-8 shown as \xNN.
  EXPECT_EQ(escaped_diagnostic(d), "in\\x01.tasm:3:4: error: bad\\x7f\n\tx\\x00yz\\xff\n\t     ^~\n");
  d.source_line = "ab\xc3\xa9z";  // a two-byte character stays as it is
  d.column = 3;
  d.length = 1;
  EXPECT_EQ(escaped_diagnostic(d), "in\\x01.tasm:3:3: error: bad\\x7f\nab\xc3\xa9z\n  ^\n");
  EXPECT_EQ(diagnostics_summary(1), "1 error");
  EXPECT_EQ(diagnostics_summary(20), "20 errors");
  EXPECT_EQ(diagnostics_summary(21), "21 errors (the first 20 shown)");
  const std::vector<AsmDiagnostic> many(25, d);
  const std::string text = diagnostics_text(many);
  size_t lines = 0;
  for (const char c : text) lines += c == '\n';
  EXPECT_EQ(lines, 60U);  // 20 diagnostics of three lines
}

TEST(IoTextLayouts, ProgressTextsGiveTheTotalThePercentageAndTheTimeLeft) {
  EXPECT_EQ(count_progress_text(250, 1000, 1.0), "250 of 1000 words (25%), 1.0 s, about 3 s left");
  EXPECT_EQ(count_progress_text(1000, 1000, 2.5), "1000 of 1000 words (100%), 2.5 s, about 0 s left");
  EXPECT_EQ(count_progress_text(250, 0, 1.0), "250 words, 1.0 s");
  EXPECT_EQ(count_progress_text(2000, 1000, 1.0), "2000 words, 1.0 s");
  EXPECT_EQ(run_progress_text(10, 40, 512, 2.0), "10 of 40 words (25%), 512 MACs, 2.0 s, about 6 s left");
  EXPECT_EQ(run_progress_text(50, 40, 0, 2.0), "50 words retired (40 in the streams: a loop runs), 0 MACs, 2.0 s");
}

TEST(IoTextLayouts, ProgressLineRedrawsInPlaceAndEndsWithANewline) {
  std::string shown;
  {
    // A log: a line from the start, and a last one at the end; a shorter line blanks what the longer one left.
    ProgressLine line([](uint64_t done, double) { return std::string(done, '#'); },
                      [&](std::string_view t) { shown += t; }, true);
    line(3);
    line.finish(1);
  }
  EXPECT_EQ(shown, "\r###\r#  \n");
  shown.clear();
  {
    // A terminal: nothing in the first second, nothing at the end when no line was up.
    ProgressLine line([](uint64_t, double) { return std::string("x"); }, [&](std::string_view t) { shown += t; },
                      false);
    line(1);
    line.finish(1);
  }
  EXPECT_EQ(shown, "");
}

TEST(IoTextLayouts, CatalogTablesAlignTheirColumns) {
  CatalogTable t;
  t.name = "things";
  t.columns = {"id", "name"};
  t.rows.push_back({{"0x1", "alpha"}, kGensAll, {}, {}});
  t.rows.push_back({{"0x22", "b"}, kGensSundaOnly, {}, {}});
  EXPECT_EQ(catalog_table_text(t, Generation::Sunda),
            "things: 2 on sunda\n"
            "id    name\n"
            "0x1   alpha\n"
            "0x22  b\n");
  EXPECT_EQ(catalog_table_text(t, Generation::Mariana),
            "things: 1 on mariana\n"
            "id   name\n"
            "0x1  alpha\n");
  EXPECT_EQ(catalog_table_text(t, std::nullopt),
            "things: 2 values (sunda 2, cayman 1, mariana 1, maverick 1)\n"
            "id    name   sunda  cayman  mariana  maverick\n"
            "0x1   alpha  x      x       x        x\n"
            "0x22  b      x      -       -        -\n");
}

TEST(IoTextLayouts, VerdictWordsAndSummaries) {
  Verdict v;
  EXPECT_EQ(verdict_word(v), "valid");
  ValidateSummary s;
  s.checked = 5;
  s.all.valid = 3;
  s.all.invalid = 1;
  s.all.header_only = 1;
  EXPECT_EQ(validate_summary_line(s), "5 checked, 3 valid, 1 invalid, 1 header-only");
}

TEST(IoTextLayouts, JsonValidateLayoutWritesOneDocument) {
  StringOut out;
  {
    const auto printer = make_validate_printer(ValidateLayout::Json, {}, false, out);
    printer->finish(ValidateSummary{});
  }
  EXPECT_EQ(out.text().rfind("{\"results\": [],\n\"summary\": {", 0), 0U) << out.text();
  EXPECT_EQ(out.text().substr(out.text().size() - 2), "}\n");
}

}  // namespace
}  // namespace tpbisa::io
