// Activation-table rows per SIMD target: the input widened and scaled, the lookup, the BUCKET records fetched and the
// cubic in binary32 and binary64 lanes in the reference's order (act_row.hpp).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/act_row.cpp"
#include "kernels/hwy_targets.hpp"
// clang-format off: foreach_target must come before highway.h
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
// clang-format on

#include "kernels/act_row.hpp"

HWY_BEFORE_NAMESPACE();
namespace tpbisa::kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL || HWY_TARGET == HWY_AVX2

/// Two 16-byte halves side by side in a 256-bit register: a load and an insert from memory, no shuffle.
HWY_INLINE __m256 halves(const void* lo, const void* hi) {
  return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(static_cast<const float*>(lo))),
                              _mm_load_ps(static_cast<const float*>(hi)), 1);
}

/// x0, d0 and d1 of eight lanes from their BUCKET records' first halves (the AVX-512 and AVX2 kernels' second pass):
/// records j and j + 4 side by side, so the transpose stays within 128-bit lanes and lane 0 holds elements 0..3,
/// lane 1 elements 4..7. `record(r)` is lane r's record.
template <class Record>
HWY_INLINE void first_halves(const Record& record, __m256& x0, __m256& d0, __m256& d1) {
  const __m256 a0 = halves(record(0), record(4)), a1 = halves(record(1), record(5));
  const __m256 a2 = halves(record(2), record(6)), a3 = halves(record(3), record(7));
  const __m256 u0 = _mm256_unpacklo_ps(a0, a1), u1 = _mm256_unpacklo_ps(a2, a3);
  const __m256 h0 = _mm256_unpackhi_ps(a0, a1), h1 = _mm256_unpackhi_ps(a2, a3);
  x0 = _mm256_shuffle_ps(u0, u1, 0x44);
  d0 = _mm256_shuffle_ps(u0, u1, 0xEE);
  d1 = _mm256_shuffle_ps(h0, h1, 0x44);
}

/// Step 7 for the negative inputs of a symmetric function (the sign bit of v selects): the result reflected about the
/// symmetry point.
HWY_INLINE __m256 reconstruct(const ActRowTables& t, __m256 res, __m256i v, __m256 point, __m256 sign) {
  if (!t.symmetric) return res;
  const __m256 back = _mm256_add_ps(t.invert ? _mm256_xor_ps(res, sign) : res, point);
  return _mm256_blendv_ps(res, back, _mm256_castsi256_ps(v));
}

/// The first pass's results over a chunk of a row, read by the second: per element the byte offset of its BUCKET
/// record, the folded input and the input after the affine step; per vector of kLanes, its zero, Inf and NaN lanes.
constexpr size_t kActChunk = 256;
template <class Mask, size_t kLanes>
struct alignas(64) ActChunk {
  uint32_t offset[kActChunk];
  uint32_t sel[kActChunk];
  uint32_t v[kActChunk];
  Mask special[kActChunk / kLanes];
};

#endif

#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL

/// Eight lanes of step 6 and 7: the records rec[0..7] (byte offsets) loaded in 16-byte halves and transposed into
/// their five fields, the cubic of the folded inputs `x` and the reconstruction for the negative inputs `v`.
HWY_INLINE __m256 cubic8(const ActRowTables& t, const uint32_t* rec, __m256 x, __m256i v, __m256 point, __m256 sign) {
  const auto* base = reinterpret_cast<const uint8_t*>(t.records);
  // The eight offsets as four 64-bit loads (fewer loads; the split is integer work, which has room).
  uint64_t q[4];
  std::memcpy(q, rec, sizeof q);
  const auto record = [&](unsigned r) { return base + static_cast<uint32_t>(q[r / 2] >> (32 * (r % 2))); };
  __m256 x0, d0, d1;
  first_halves(record, x0, d0, d1);
  // d2 and d3, binary64 in the second halves: records 0, 2, 4, 6 and 1, 3, 5, 7 side by side, then one unpack each
  // gives the eight elements in order, already widened.
  const auto quad = [&](unsigned j) {
    const __m256 lo = halves(record(j) + 16, record(j + 2) + 16);
    const __m256 hi = halves(record(j + 4) + 16, record(j + 6) + 16);
    return _mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_castps_pd(lo)), _mm256_castps_pd(hi), 1);
  };
  const __m512d p0 = quad(0), p1 = quad(1);
  const __m512d d2 = _mm512_unpacklo_pd(p0, p1), d3 = _mm512_unpackhi_pd(p0, p1);
  // Step 6 (PROJ-CONV-A2): t and d0 + d1·t in binary32, the rest in binary64, one final rounding.
  const __m256 tf = _mm256_sub_ps(x, x0);
  const __m256 a = _mm256_add_ps(_mm256_mul_ps(tf, d1), d0);
  const __m512d td = _mm512_cvtps_pd(tf);
  const __m512d t2d = _mm512_mul_pd(td, td);
  __m512d sum = _mm512_add_pd(_mm512_cvtps_pd(a), _mm512_mul_pd(t2d, d2));
  sum = _mm512_add_pd(sum, _mm512_mul_pd(_mm512_mul_pd(t2d, td), d3));
  return reconstruct(t, _mm512_cvtpd_ps(sum), v, point, sign);
}

// AVX-512: sixteen elements per step, in two passes over a chunk of the row. The first computes each element's lookup
// and record offset; the second loads the records and evaluates the cubic. Each record load then depends on a load
// from the chunk rather than on the long chain before it, so the core keeps several vectors' loads and arithmetic in
// flight (one pass holding both chains ran 1.5 times as long, bound by that chain's latency). The lookup is a
// register permute when the function's window fits (no memory access), and each lane's BUCKET record is read as two
// 16-byte halves, transposed into the five fields: the gathers this replaces cost several times as much per element.
size_t eval_row(const ActRowTables& t, const ActRowInput& in, uint32_t* out, size_t n) {
  const auto* in32 = static_cast<const uint32_t*>(in.data);
  const auto* in16 = static_cast<const uint16_t*>(in.data);
  const __m512 scale = _mm512_set1_ps(in.scale), bias = _mm512_set1_ps(in.bias);
  const __m512i abs_mask = _mm512_set1_epi32(0x7FFFFFFF);
  const __m512i fold = _mm512_set1_epi32(t.fold_negative ? static_cast<int>(0x80000000U) : 0);
  const __m512i one = _mm512_set1_epi32(1), max_finite = _mm512_set1_epi32(0x7F7FFFFF);
  const __m512i record_mask = _mm512_set1_epi32(static_cast<int>(kActLutRecordMask));
  const __m512i last = _mm512_set1_epi32(static_cast<int>(kActWindow) - 1);
  const __m512i nine = _mm512_set1_epi32(9);
  const bool window = t.window != nullptr;
  const uint32_t* w = window ? t.window : t.lut;  // a valid address either way; only read when `window`
  const __m512i pos_lo = _mm512_loadu_si512(w), pos_hi = _mm512_loadu_si512(w + 16);
  const __m512i neg_lo = window ? _mm512_loadu_si512(w + kActWindow) : pos_lo;
  const __m512i neg_hi = window ? _mm512_loadu_si512(w + kActWindow + 16) : pos_hi;
  // The window index of biased exponent e is min(e - base, 31) saturated at 0: the sign's base, the negative one
  // raised by 256 as the sign bit lands there in sel >> 23.
  const __m512i pos_base = _mm512_set1_epi32(t.window_base[0]), neg_base = _mm512_set1_epi32(t.window_base[1] + 256);
  const __m256 point = _mm256_set1_ps(t.point), sign = _mm256_set1_ps(-0.0F);
  const auto* lut = reinterpret_cast<const int*>(t.lut);
  const bool given = t.specials && window;
  const __m512i zero_result = _mm512_set1_epi32(static_cast<int>(t.zero_result));
  const __m512i pos_inf_result = _mm512_set1_epi32(static_cast<int>(t.pos_inf_result));
  const __m512i neg_inf_result = _mm512_set1_epi32(static_cast<int>(t.neg_inf_result));
  const __m512i nan_result = _mm512_set1_epi32(static_cast<int>(t.nan_result));
  const __m512i pos_inf = _mm512_set1_epi32(0x7F800000), neg_inf = _mm512_set1_epi32(static_cast<int>(0xFF800000U));
  ActChunk<__mmask16, 16> c;
  size_t i = 0;
  while (i + 16 <= n) {
    // Pass 1: the lookups of up to kActChunk elements, up to the first vector that must stop.
    const size_t chunk = std::min(kActChunk, (n - i) / 16 * 16);
    size_t done = 0;
    for (; done < chunk; done += 16) {
      const size_t at = i + done;
      __m512i v = in.bf16
                      ? _mm512_slli_epi32(
                            _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in16 + at))), 16)
                      : _mm512_loadu_si512(in32 + at);
      if (in.affine)  // two roundings (PROJ-CONV-A8): the kernels are compiled without contraction
        v = _mm512_castps_si512(_mm512_add_ps(_mm512_mul_ps(_mm512_castsi512_ps(v), scale), bias));
      const __m512i mag = _mm512_and_si512(v, abs_mask);
      const __m512i sel = t.symmetric ? _mm512_or_si512(mag, fold) : v;
      // Zero, Inf and NaN: mag - 1 wraps for zero.
      const __mmask16 special = _mm512_cmpge_epu32_mask(_mm512_sub_epi32(mag, one), max_finite);
      const __m512i e9 = _mm512_srli_epi32(sel, 23);  // sign and biased exponent
      __m512i entry;
      if (window) {
        const __mmask16 negative = _mm512_movepi32_mask(sel);
        const __m512i base = _mm512_mask_mov_epi32(pos_base, negative, neg_base);
        // e9 < 512 and base >= 0 fit the low 16 bits: the saturating 16-bit subtraction is max(e9 - base, 0).
        const __m512i k = _mm512_min_epu32(_mm512_subs_epu16(e9, base), last);
        entry = _mm512_mask_mov_epi32(_mm512_permutex2var_epi32(pos_lo, k, pos_hi), negative,
                                      _mm512_permutex2var_epi32(neg_lo, k, neg_hi));
      } else {
        entry = _mm512_i32gather_epi32(e9, lut, 4);
      }
      // Bit 31: the reference procedure. Zero, Inf and NaN take step 1's results in pass 2 when the set gave them
      // (their lookup, through the window's end entries, stays inside the records).
      const __mmask16 reference = _mm512_movepi32_mask(entry);
      if (_kor_mask16(reference, given ? 0 : special) != 0) break;
      // The record's byte offset: (first record + (mantissa >> shift)) · 32. The mantissa is taken as sel << 9
      // shifted right by shift + 9; a shift count of 32 or more gives 0 (the saturation slots' shift of 31).
      const __m512i shift = _mm512_add_epi32(_mm512_srli_epi32(entry, kActLutShiftAt), nine);
      const __m512i m = _mm512_srlv_epi32(_mm512_slli_epi32(sel, 9), shift);
      _mm512_store_si512(c.offset + done,
                         _mm512_slli_epi32(_mm512_add_epi32(_mm512_and_si512(entry, record_mask), m), 5));
      _mm512_store_si512(c.sel + done, sel);
      _mm512_store_si512(c.v + done, v);
      c.special[done / 16] = special;
    }
    // Pass 2: the records and the cubic, then step 1's results, which come before everything else.
    for (size_t k = 0; k < done; k += 16) {
      uint32_t* o = out + i + k;
      for (size_t h = 0; h < 16; h += 8)
        _mm256_storeu_ps(reinterpret_cast<float*>(o + h),
                         cubic8(t, c.offset + k + h, _mm256_load_ps(reinterpret_cast<const float*>(c.sel + k + h)),
                                _mm256_load_si256(reinterpret_cast<const __m256i*>(c.v + k + h)), point, sign));
      if (const __mmask16 special = c.special[k / 16]; special != 0) {
        const __m512i v = _mm512_load_si512(c.v + k);
        __m512i r = _mm512_mask_mov_epi32(nan_result, _mm512_cmpeq_epi32_mask(v, pos_inf), pos_inf_result);
        r = _mm512_mask_mov_epi32(r, _mm512_cmpeq_epi32_mask(v, neg_inf), neg_inf_result);
        r = _mm512_mask_mov_epi32(r, _mm512_testn_epi32_mask(v, abs_mask), zero_result);
        _mm512_mask_storeu_epi32(o, special, r);
      }
    }
    i += done;
    if (done < chunk) break;  // a vector the caller takes element by element
  }
  return i;
}

#elif HWY_TARGET == HWY_AVX2

/// Eight lanes of step 6 and 7 on AVX2: the records rec[0..7] (byte offsets) loaded in 16-byte halves and transposed
/// into their five fields, the cubic of the folded inputs `x` and the reconstruction for the negative inputs `v`
/// (the AVX-512 kernel's cubic8 with the binary64 part in two vectors of four).
HWY_INLINE __m256 cubic8(const ActRowTables& t, const uint32_t* rec, __m256 x, __m256i v, __m256 point, __m256 sign) {
  const auto* base = reinterpret_cast<const uint8_t*>(t.records);
  // The eight offsets as four 64-bit loads (fewer loads; the split is integer work, which has room).
  uint64_t q[4];
  std::memcpy(q, rec, sizeof q);
  const auto record = [&](unsigned r) { return base + static_cast<uint32_t>(q[r / 2] >> (32 * (r % 2))); };
  __m256 x0, d0, d1;
  first_halves(record, x0, d0, d1);
  // Step 6 (PROJ-CONV-A2): t and d0 + d1·t in binary32, the rest in binary64, one final rounding.
  const __m256 tf = _mm256_sub_ps(x, x0);
  const __m256 a = _mm256_add_ps(_mm256_mul_ps(tf, d1), d0);
  // d2 and d3 of elements j..j+3, binary64 in the records' second halves: records j, j + 2 and j + 1, j + 3 side by
  // side, so one unpack each gives the four in order.
  const auto cubic4 = [&](unsigned j, __m128 tq, __m128 aq) {
    const __m256d p0 = _mm256_castps_pd(halves(record(j) + 16, record(j + 2) + 16));
    const __m256d p1 = _mm256_castps_pd(halves(record(j + 1) + 16, record(j + 3) + 16));
    const __m256d d2 = _mm256_unpacklo_pd(p0, p1), d3 = _mm256_unpackhi_pd(p0, p1);
    const __m256d td = _mm256_cvtps_pd(tq);
    const __m256d t2d = _mm256_mul_pd(td, td);
    __m256d sum = _mm256_add_pd(_mm256_cvtps_pd(aq), _mm256_mul_pd(t2d, d2));
    sum = _mm256_add_pd(sum, _mm256_mul_pd(_mm256_mul_pd(t2d, td), d3));
    return _mm256_cvtpd_ps(sum);
  };
  const __m128 lo = cubic4(0, _mm256_castps256_ps128(tf), _mm256_castps256_ps128(a));
  const __m128 hi = cubic4(4, _mm256_extractf128_ps(tf, 1), _mm256_extractf128_ps(a, 1));
  return reconstruct(t, _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1), v, point, sign);
}

/// Lanes of x at or above c, unsigned (AVX2 compares signed only).
HWY_INLINE __m256i at_least_u32(__m256i x, __m256i c) {
  return _mm256_cmpeq_epi32(_mm256_max_epu32(x, c), x);
}

// AVX2: eight elements per step in the AVX-512 kernel's two passes. The lookup is a gather from the window (or the
// full table), from a few cache lines (eight permutes and seven blends over the window in registers were no faster);
// the records are read as 16-byte halves as there.
size_t eval_row(const ActRowTables& t, const ActRowInput& in, uint32_t* out, size_t n) {
  const auto* in32 = static_cast<const uint32_t*>(in.data);
  const auto* in16 = static_cast<const uint16_t*>(in.data);
  const __m256 scale = _mm256_set1_ps(in.scale), bias = _mm256_set1_ps(in.bias);
  const __m256i abs_mask = _mm256_set1_epi32(0x7FFFFFFF);
  const __m256i fold = _mm256_set1_epi32(t.fold_negative ? static_cast<int>(0x80000000U) : 0);
  const __m256i one = _mm256_set1_epi32(1), max_finite = _mm256_set1_epi32(0x7F7FFFFF);
  const __m256i record_mask = _mm256_set1_epi32(static_cast<int>(kActLutRecordMask));
  const __m256i last = _mm256_set1_epi32(static_cast<int>(kActWindow) - 1);
  const __m256i nine = _mm256_set1_epi32(9);
  const bool window = t.window != nullptr;
  const auto* table = reinterpret_cast<const int*>(window ? t.window : t.lut);
  // The window index as in the AVX-512 kernel, the negative sign's entries kActWindow further on.
  const __m256i pos_base = _mm256_set1_epi32(t.window_base[0]), neg_base = _mm256_set1_epi32(t.window_base[1] + 256);
  const __m256i neg_offset = _mm256_set1_epi32(static_cast<int>(kActWindow));
  const __m256 point = _mm256_set1_ps(t.point), sign = _mm256_set1_ps(-0.0F);
  const bool given = t.specials && window;
  const __m256i zero_result = _mm256_set1_epi32(static_cast<int>(t.zero_result));
  const __m256i pos_inf_result = _mm256_set1_epi32(static_cast<int>(t.pos_inf_result));
  const __m256i neg_inf_result = _mm256_set1_epi32(static_cast<int>(t.neg_inf_result));
  const __m256i nan_result = _mm256_set1_epi32(static_cast<int>(t.nan_result));
  const __m256i pos_inf = _mm256_set1_epi32(0x7F800000), neg_inf = _mm256_set1_epi32(static_cast<int>(0xFF800000U));
  ActChunk<uint8_t, 8> c;
  size_t i = 0;
  while (i + 8 <= n) {
    const size_t chunk = std::min(kActChunk, (n - i) / 8 * 8);
    size_t done = 0;
    for (; done < chunk; done += 8) {
      const size_t at = i + done;
      __m256i v = in.bf16 ? _mm256_slli_epi32(
                                _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in16 + at))), 16)
                          : _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in32 + at));
      if (in.affine)  // two roundings (PROJ-CONV-A8): the kernels are compiled without contraction
        v = _mm256_castps_si256(_mm256_add_ps(_mm256_mul_ps(_mm256_castsi256_ps(v), scale), bias));
      const __m256i mag = _mm256_and_si256(v, abs_mask);
      const __m256i sel = t.symmetric ? _mm256_or_si256(mag, fold) : v;
      const __m256i special = at_least_u32(_mm256_sub_epi32(mag, one), max_finite);  // zero, Inf, NaN
      const __m256i e9 = _mm256_srli_epi32(sel, 23);
      __m256i index = e9;
      if (window) {
        const __m256i negative = _mm256_srai_epi32(sel, 31);
        const __m256i base = _mm256_blendv_epi8(pos_base, neg_base, negative);
        const __m256i k = _mm256_min_epu32(_mm256_subs_epu16(e9, base), last);
        index = _mm256_add_epi32(k, _mm256_and_si256(negative, neg_offset));
      }
      const __m256i entry = _mm256_i32gather_epi32(table, index, 4);
      const int stop = _mm256_movemask_ps(_mm256_castsi256_ps(given ? entry : _mm256_or_si256(entry, special)));
      if (stop != 0) break;
      const __m256i shift = _mm256_add_epi32(_mm256_srli_epi32(entry, kActLutShiftAt), nine);
      const __m256i m = _mm256_srlv_epi32(_mm256_slli_epi32(sel, 9), shift);
      _mm256_store_si256(reinterpret_cast<__m256i*>(c.offset + done),
                         _mm256_slli_epi32(_mm256_add_epi32(_mm256_and_si256(entry, record_mask), m), 5));
      _mm256_store_si256(reinterpret_cast<__m256i*>(c.sel + done), sel);
      _mm256_store_si256(reinterpret_cast<__m256i*>(c.v + done), v);
      c.special[done / 8] = static_cast<uint8_t>(_mm256_movemask_ps(_mm256_castsi256_ps(special)));
    }
    for (size_t k = 0; k < done; k += 8) {
      const __m256i v = _mm256_load_si256(reinterpret_cast<const __m256i*>(c.v + k));
      __m256 res = cubic8(t, c.offset + k, _mm256_load_ps(reinterpret_cast<const float*>(c.sel + k)), v, point, sign);
      if (c.special[k / 8] != 0) {  // step 1's results, which come before everything else
        __m256i r = _mm256_blendv_epi8(nan_result, pos_inf_result, _mm256_cmpeq_epi32(v, pos_inf));
        r = _mm256_blendv_epi8(r, neg_inf_result, _mm256_cmpeq_epi32(v, neg_inf));
        const __m256i mag = _mm256_and_si256(v, abs_mask);
        r = _mm256_blendv_epi8(r, zero_result, _mm256_cmpeq_epi32(mag, _mm256_setzero_si256()));
        const __m256i special = at_least_u32(_mm256_sub_epi32(mag, one), max_finite);
        res = _mm256_blendv_ps(res, _mm256_castsi256_ps(r), _mm256_castsi256_ps(special));
      }
      _mm256_storeu_ps(reinterpret_cast<float*>(out + i + k), res);
    }
    i += done;
    if (done < chunk) break;  // a vector the caller takes element by element
  }
  return i;
}

#else

/// The row's element i.. as fp32 bits in lanes of `du`: loaded, or widened from BF16 (exact; a NaN stays a NaN).
template <class DU>
hn::Vec<DU> load_bits(DU du, const ActRowInput& in, size_t i) {
  if (!in.bf16) return hn::LoadU(du, static_cast<const uint32_t*>(in.data) + i);
  const hn::Rebind<uint16_t, DU> d16;
  return hn::ShiftLeft<16>(hn::PromoteTo(du, hn::LoadU(d16, static_cast<const uint16_t*>(in.data) + i)));
}

/// RN32 of binary64 lanes, overflow giving ±Inf as a conversion does (Highway's emulated targets saturate instead).
template <class DF, class VD>
hn::Vec<DF> round_to_f32(DF df, VD r) {
#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_EMU128
  constexpr size_t kMax = 16;  // the emulated targets' largest binary64 vector
  static_assert(hn::MaxLanes(DF()) <= kMax);
  double wide[kMax];
  float narrow[kMax];
  hn::StoreU(r, hn::Rebind<double, DF>(), wide);
  for (size_t k = 0; k < hn::Lanes(df); ++k) narrow[k] = static_cast<float>(wide[k]);
  return hn::LoadU(df, narrow);
#else
  return hn::DemoteTo(df, r);
#endif
}

// Binary64 lanes and binary32 lanes of the same count: a float vector is promoted whole and demoted back; the
// lookup and the five fields of each lane's record gathered.
size_t eval_row(const ActRowTables& t, const ActRowInput& in, uint32_t* out, size_t n) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const hn::Rebind<uint32_t, decltype(dd)> du;
  const hn::Rebind<int32_t, decltype(dd)> di;
  const size_t lanes = hn::Lanes(df);
  const auto abs_mask = hn::Set(du, 0x7FFFFFFFU);
  const auto fold = hn::Set(du, t.fold_negative ? 0x80000000U : 0U);
  const auto max_finite = hn::Set(di, 0x7F7FFFFF);
  const auto zero_i = hn::Zero(di);
  const auto mantissa = hn::Set(du, 0x7FFFFFU);
  const auto record_mask = hn::Set(du, kActLutRecordMask);
  const auto shift_mask = hn::Set(du, 31U);
  const auto point = hn::Set(df, t.point);
  const auto scale = hn::Set(df, in.scale), bias = hn::Set(df, in.bias);
  const auto* lut = reinterpret_cast<const int32_t*>(t.lut);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    auto v = load_bits(du, in, i);
    if (in.affine) v = hn::BitCast(du, hn::Add(hn::Mul(hn::BitCast(df, v), scale), bias));  // PROJ-CONV-A8
    const auto mag = hn::And(v, abs_mask);
    const auto sel = t.symmetric ? hn::Or(mag, fold) : v;
    const auto entry = hn::GatherIndex(di, lut, hn::BitCast(di, hn::ShiftRight<23>(sel)));
    // Zero, Inf, NaN (a magnitude of 0 or above the largest finite) and the reference entries (bit 31).
    const auto mag_i = hn::BitCast(di, mag);
    const auto special = hn::Or(hn::Or(hn::Eq(mag_i, zero_i), hn::Gt(mag_i, max_finite)), hn::Lt(entry, zero_i));
    if (!hn::AllFalse(di, special)) break;
    const auto e = hn::BitCast(du, entry);
    const auto shift = hn::And(hn::ShiftRight<kActLutShiftAt>(e), shift_mask);
    const auto rec = hn::Add(hn::And(e, record_mask), hn::And(sel, mantissa) >> shift);
    const auto at = hn::BitCast(di, hn::ShiftLeft<3>(rec));  // kActRecordFloats per record
    const auto x0 = hn::GatherIndex(df, t.records, at);
    const auto d0 = hn::GatherIndex(df, t.records + 1, at);
    const auto d1 = hn::GatherIndex(df, t.records + 2, at);
    // d2 and d3 are binary64 values at doubles 2 and 3 of the record.
    const hn::Rebind<int64_t, decltype(dd)> d64;
    const auto at64 = hn::PromoteTo(d64, hn::BitCast(di, hn::ShiftLeft<2>(rec)));
    const auto* record64 = reinterpret_cast<const double*>(t.records);
    const auto d2 = hn::GatherIndex(dd, record64 + 2, at64);
    const auto d3 = hn::GatherIndex(dd, record64 + 3, at64);
    // Step 6 (PROJ-CONV-A2): t and d0 + d1·t in binary32, the rest in binary64, one final rounding.
    const auto tf = hn::Sub(hn::BitCast(df, sel), x0);
    const auto a = hn::Add(hn::Mul(tf, d1), d0);
    const auto td = hn::PromoteTo(dd, tf);
    const auto t2 = hn::Mul(td, td);
    auto r = hn::Add(hn::PromoteTo(dd, a), hn::Mul(t2, d2));
    r = hn::Add(r, hn::Mul(hn::Mul(t2, td), d3));
    auto res = round_to_f32(df, r);
    if (t.symmetric) {  // step 7 for the negative inputs
      const auto negative = hn::RebindMask(df, hn::Lt(hn::BitCast(di, v), zero_i));
      const auto back = hn::Add(t.invert ? hn::Neg(res) : res, point);
      res = hn::IfThenElse(negative, back, res);
    }
    hn::StoreU(hn::BitCast(du, res), du, out + i);
  }
  return i;
}

#endif

}  // namespace HWY_NAMESPACE
}  // namespace tpbisa::kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tpbisa::kernels {

static_assert(kActRecordFloats == 8, "the kernels address a record as index << 3 (floats) or << 2 (doubles)");

HWY_EXPORT(eval_row);

size_t act_eval_row(const ActRowTables& t, const ActRowInput& in, uint32_t* out, size_t n) {
  return HWY_DYNAMIC_DISPATCH(eval_row)(t, in, out, n);
}

}  // namespace tpbisa::kernels
#endif  // HWY_ONCE
