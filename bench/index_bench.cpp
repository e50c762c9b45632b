// The index, select, statistics and search opcodes over long rows (act-index-ops.md §9-§15): IOTA, AFFINE_SELECT,
// RANGE_SELECT, BATCH_NORM_STATS2 / _AGGREGATE, MAX8, FIND_INDEX8 and MATCH_REPLACE8, untraced, each beside memcpy of
// the bytes it reads (IOTA: writes) in the same run.
#include <benchmark/benchmark.h>

#include <bit>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "memcpy_baseline.hpp"
#include "run_loop.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/machine.hpp"

namespace tpbisa::index_bench {
namespace {

constexpr unsigned kChannels = 128;
constexpr uint16_t kRow = 2048;              // elements per channel
constexpr uint16_t kStats2Row = 512;         // STATS2's largest valid row (has_bnstats2_src_element_cnt)
constexpr uint16_t kTriples = kRow / 3 * 3;  // AGGREGATE's whole (count, mean, M2) tuples
constexpr uint32_t kSrc = 0x0, kDst = 0x8000, kAux = 0x10000;

/// A worked word of act-index-ops.md in hex, its missing trailing bytes zero.
Word word_of(std::string_view hex) {
  std::string digits(hex);
  digits.resize(2 * kWordBytes, '0');
  Word w{};
  HexError error;
  parse_hex_word(digits, w, error);
  return w;
}

/// Source element k of channel p: fp32 values with repeats, in no order.
uint64_t mixed(uint64_t p, uint64_t k) {
  return std::bit_cast<uint32_t>(static_cast<float>((p * 977 + k * 131) % 4099) * 0.5F);
}
/// Source element k: the fp32 value k.
uint64_t ascending(uint64_t, uint64_t k) {
  return std::bit_cast<uint32_t>(static_cast<float>(k));
}

/// The shared setup: the worked word `hex` decoded as T, on kChannels channels, changed by `edit` (its operands'
/// places and counts), run on `engine` of MARIANA over fp32 source rows of `count` elements at kSrc (from `value`,
/// none when it is null) once per iteration; `bytes` per run for the throughput.
template <class T, class Edit>
void run_word(benchmark::State& state, std::string_view hex, EngineId engine, uint16_t count,
              uint64_t (*value)(uint64_t, uint64_t), uint64_t bytes, const Edit& edit) {
  auto t = *decode(word_of(hex), Generation::Mariana).as<T>();
  t.num_active_channels = kChannels;
  edit(t);
  MachineOptions mo;
  mo.engine = engine;
  Machine m(Generation::Mariana, std::vector<Word>{encode(t)}, mo);
  const uint64_t stride = geometry(Generation::Mariana).sbuf_partition_size;
  for (uint64_t p = 0; value != nullptr && p < kChannels; ++p)
    for (uint64_t k = 0; k < count; ++k) m.mutable_state().memory.write(p * stride + kSrc + 4 * k, 4, value(p, k));
  bench::run_rewound(state, m, bytes, uint64_t{kChannels} * count);
}

/// A source of `count` elements at kSrc and a destination of as many at `dst`, of a T whose operands are src/dst.
template <class T, class Src, class Dst>
void rows_of(T& t, Src src_count, Dst dst_count, uint32_t dst) {
  t.src.start_addr.raw = kSrc;
  t.src.num_elem = src_count;
  t.dst.start_addr.raw = dst;
  t.dst.num_elem = dst_count;
}

constexpr uint64_t kRowBytes = uint64_t{kChannels} * kRow * 4;

/// IOTA (§9.5 X9) writing kRow int32 elements per channel.
void BM_IotaRows(benchmark::State& state) {
  run_word<D4Iota>(state,
                   "7e10000000000000000000000500000001000a00000000000300020001000100"
                   "0008020064000000000000000010000001000000000000000600010001000100",
                   EngineId::Pool, kRow, nullptr, kRowBytes, [](D4Iota& t) {
                     t.src.num_elem = {kRow, 1, 1, 1};
                     t.src.step_elem = {1, 0, 0, 0};
                     t.dst.start_addr.raw = kDst;
                     t.dst.num_elem = {kRow, 1, 1, 1};
                     t.dst.step_elem = {1, 0, 0, 0};
                     t.out_dtype = dtype::kInt32;
                   });
}
BENCHMARK(BM_IotaRows);

/// AFFINE_SELECT (§10.5 X10) over fp32 rows: the causal mask of a kRow-wide tile.
void BM_AffineSelectRows(benchmark::State& state) {
  run_word<S2d2TsAs>(state,
                     "92100000000000000000000004aa010500000000ffff00000000000004000100"
                     "0100010000100000010000000400010000200000010000000400010001000000",
                     EngineId::Pool, kRow, ascending, kRowBytes, [](S2d2TsAs& t) {
                       t.mask.num_elem = {kRow, 1, 1, 1};
                       rows_of(t, decltype(t.src.num_elem){kRow, 1}, decltype(t.dst.num_elem){kRow, 1}, kDst);
                     });
}
BENCHMARK(BM_AffineSelectRows);

/// RANGE_SELECT (§11.5 X11) over fp32 rows, half of each row kept.
void BM_RangeSelectRows(benchmark::State& state) {
  run_word<S2d2Rs>(state,
                   "bc100000000000000000000001aa030800000000ffff7fff0010000001000000"
                   "0800010014160000000000400000a04000200000010000000800010000000000",
                   EngineId::Dve, kRow, ascending, kRowBytes, [](S2d2Rs& t) {
                     rows_of(t, decltype(t.src.num_elem){kRow, 1}, decltype(t.dst.num_elem){kRow, 1}, kDst);
                     t.bound1.raw = std::bit_cast<uint32_t>(static_cast<float>(kRow / 2));
                   });
}
BENCHMARK(BM_RangeSelectRows);

/// One S4D2_BN word (§14.4, §15.4) over `count` fp32 source elements per channel, its results at kAux.
void run_bn(benchmark::State& state, std::string_view hex, uint16_t count, uint64_t (*value)(uint64_t, uint64_t)) {
  run_word<S4d2Bn>(state, hex, EngineId::Dve, count, value, uint64_t{kChannels} * count * 4, [count](S4d2Bn& t) {
    t.src.start_addr.raw = kSrc;
    t.src.num_elem = {count, 1, 1, 1};
    t.dst.start_addr.raw = kAux;
    t.dst.num_elem[1] = 1;  // the worked words' second count (bytes 58-59)
  });
}

void BM_BatchNormStats2Rows(benchmark::State& state) {
  run_bn(state,
         "61100000000000000000000000100000010000000000000005000100010001000a0a010000000000000040400000004000200000"
         "0100000006",
         kStats2Row, mixed);
}
BENCHMARK(BM_BatchNormStats2Rows);

/// BATCH_NORM_AGGREGATE (§14.4 X15) over kTriples / 3 (count 4, mean, M2) tuples per channel.
void BM_BatchNormAggregateRows(benchmark::State& state) {
  run_bn(state,
         "62100000000000000000000000200000010000000000000006000100010001000a0a010000000000000000000000000000300000"
         "010000000200010000000000",
         kTriples, [](uint64_t, uint64_t k) -> uint64_t {
           return std::bit_cast<uint32_t>(k % 3 == 0 ? 4.0F : static_cast<float>(k % 7));
         });
}
BENCHMARK(BM_BatchNormAggregateRows);

void BM_Max8Rows(benchmark::State& state) {
  run_bn(state,
         "6c10000000000000000000000010000001000000000000000a000100010001000a0a010000000000000000000000000000200000"
         "0100000008",
         kRow, mixed);
}
BENCHMARK(BM_Max8Rows);

void BM_FindIndex8Rows(benchmark::State& state) {
  run_bn(state,
         "6e10000000000000000000000010000001000000000000000a000100010001000a09010000000000000000000000000000300000"
         "0100000008",
         kRow, mixed);
}
BENCHMARK(BM_FindIndex8Rows);

/// MATCH_REPLACE8 (§15.4 X19) over fp32 rows, after MAX8 loaded nothing: the keys are the reset values.
void BM_MatchReplace8Rows(benchmark::State& state) {
  run_word<S4d4Mr>(state,
                   "6f10000000000000000000000010000001000000000000000a000100010001000a0a0100000000"
                   "00000080ff0040000001000000000000000a",
                   EngineId::Dve, kRow, ascending, kRowBytes, [](S4d4Mr& t) {
                     rows_of(t, decltype(t.src.num_elem){kRow, 1, 1, 1}, decltype(t.dst.num_elem){kRow, 1, 1, 1}, kDst);
                   });
}
BENCHMARK(BM_MatchReplace8Rows);

/// memcpy of kChannels rows of `elements` fp32 elements, row by row (the bytes each benchmark above reads or
/// writes).
void copy_rows(benchmark::State& state, size_t elements) {
  const size_t row = elements * 4, total = kChannels * row;
  bench::CopyBuffers b(total, 1);
  for (auto _ : state) {
    for (size_t off = 0; off < total; off += row) std::memcpy(b.dst() + off, b.src() + off, row);
    benchmark::DoNotOptimize(b.dst());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * total));
}

void BM_MemcpyIndexRowBytes(benchmark::State& state) {
  copy_rows(state, kRow);
}
BENCHMARK(BM_MemcpyIndexRowBytes);

void BM_MemcpyIndexStats2Bytes(benchmark::State& state) {
  copy_rows(state, kStats2Row);
}
BENCHMARK(BM_MemcpyIndexStats2Bytes);

void BM_MemcpyIndexAggregateBytes(benchmark::State& state) {
  copy_rows(state, kTriples);
}
BENCHMARK(BM_MemcpyIndexAggregateBytes);

}  // namespace
}  // namespace tpbisa::index_bench
