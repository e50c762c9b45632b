// PE matmul family syntax: operands follow their roles; decode's plain meaning of the PE fields is decided here.
#include <string>

#include <fmt/format.h>

#include "families/common.hpp"
#include "families/matmul/meaning.hpp"
#include "tpbisa/describe.hpp"

namespace tpbisa::family {
namespace {

using matmul::PeView;

std::string partitions(unsigned first, unsigned n) {
  if (n == 0) return "no partition";
  return n == 1 ? fmt::format("partition {}", first) : fmt::format("partitions {}..{}", first, first + n - 1);
}

/// "SBUF partitions 0..127, bytes 0x37b00..0x37bff of each (128 elements of 2 bytes)": the operand's footprint,
/// the one the NEFF program checks judge (matmul::Footprint, PROJ-CONV-G5).
std::string operand_reach(const Tensor3d& t, const matmul::Footprint& f, unsigned elem_bytes, Generation g,
                          std::string_view what) {
  const Addr4Meaning m = describe(t.start_addr, g);
  std::string at = to_string(m);
  if (m.from_register) return at + fmt::format("; {}: placed by register at run time", what);
  if (m.indirect) return at + fmt::format("; {}: an indirect start, placed at run time", what);
  if (m.shape_from_register) return at + fmt::format("; {}: its shape comes from a register at run time", what);
  if (!matmul::place_of(t.start_addr, g).known || elem_bytes == 0) return at;
  if (!f.known) return at + fmt::format("; {}: the pattern has no element", what);
  std::string text =
      fmt::format("{}; {}: {} {}, bytes {:#x}..{:#x} of each ({} elements of {} byte{})", at, what,
                  f.region == Region::Psum ? "PSUM" : "SBUF", partitions(f.first_partition, f.partitions), f.first,
                  f.last, t.elements(), elem_bytes, elem_bytes == 1 ? "" : "s");
  if (f.region == Region::Psum) {
    const int64_t bank = geometry(g).psum_bank_size;
    if (f.first >= 0 && f.first / bank == f.last / bank)
      text += fmt::format(", bank {} offset {:#x}", f.first / bank, f.first % bank);
    else
      text += " (crosses a PSUM bank)";
  }
  return text;
}

std::string flags_accumulate(const PeView& v) {
  const uint8_t f = v.accumulate;
  const std::string_view mode = matmul::accumulate_mode_name(f);
  std::string text = fmt::format("{}: ", mode);
  if (mode == "MULTI_START") text += "opens an accumulation group, overwrites the addressed PSUM elements";
  if (mode == "MULTI_MID") text += "inside an accumulation group, adds into PSUM";
  if (mode == "MULTI_END") text += "closes the accumulation group, adds into PSUM";
  if (mode == "SINGLE") text += "a group of one: overwrites the addressed PSUM elements";
  if ((f & 4U) != 0) text += v.accumulate_max >= 7 ? "; BEGIN_ACCUM (bit 2)" : "; bit 2 set (no such flag here)";
  if (f > 7) text += "; bits above 2 set (no such flags)";
  return text;
}

std::string group_meaning(uint8_t mask, std::string_view what) {
  if (mask == 0) return fmt::format("no {} quadrant", what);
  std::string q;
  for (unsigned k = 0; k < 8; ++k)
    if ((mask >> k) & 1U) q += (q.empty() ? "" : ", ") + std::to_string(k);
  return fmt::format("{} quadrants {} (32 {}s each){}", what, q, what,
                     matmul::group_ok(mask, 0) ? "" : "; not a mask of the quadrant table");
}

std::string bits_lw_mariana(uint8_t f) {
  return fmt::format("LD_WEIGHT_FLAGS: xpose {}, scalar {}, seed {}, load_order {}{}", f & 1U, (f >> 1) & 3U,
                     (f >> 3) & 3U, (f >> 5) & 1U ? "FIRST_COL_FIRST" : "LAST_COL_FIRST",
                     (f & 0xC0) != 0 ? "; bits 6-7 set (no such flags)" : "");
}

std::string bits_mm_mariana(uint8_t f) {
  return fmt::format("MATMUL_FLAGS: scalar {}, seed {}, accumulate {}, xpose {}{}", f & 3U, (f >> 2) & 3U,
                     (f >> 4) & 1U, (f >> 5) & 1U, (f & 0xC0) != 0 ? "; bits 6-7 set (no such flags)" : "");
}

std::string out_dtype_meaning(uint8_t d, Generation g) {
  if (d == 0) return "0: FP32 accumulate (the default)";
  const std::string name = describe_dtype(d, g);
  return matmul::mm_out_dtype_ok(d, g) ? name : name + fmt::format(": not an output type on {}", to_string(g));
}

std::string meaning(const Instruction& inst, std::string_view path) {
  const PeView v = matmul::view(inst);
  const Generation g = inst.gen;
  const bool maverick = g == Generation::Maverick;
  if (path == "src.start_addr")
    return operand_reach(v.src, matmul::src_footprint(v, g), dtype_size(v.in_dtype), g,
                         v.matmul ? "moving tile read from" : "stationary tile read from");
  if (path == "dst.start_addr")
    return operand_reach(v.dst, matmul::dst_footprint(v, g), matmul::dst_elem_bytes(v), g,
                         matmul::dst_elem_bytes(v) == 4 ? "FP32 results written to" : "transposed results written to");
  if (path == "fp32_mode") {
    const std::string_view name = matmul::fp32_mode_name(v.fp32_mode);
    return name.empty() ? "not a PE_FP32MODE value"
                        : fmt::format("{}{}", name, v.fp32_mode == 0 ? " (single pass)" : " (multi-pass FP32)");
  }
  if (path == "transpose_mode") {
    if (v.transpose_mode == 0) return v.matmul ? "0: matrix multiply (out = W^T * X)" : "0: weights for a matmul";
    if (v.transpose_mode == 1)
      return v.matmul ? "1: PE transpose: out[m][n] = W[n][m], written at the input width"
                      : "1: the tile is loaded for a PE transpose";
    return "not 0 or 1";
  }
  if (path == "perf_opt" || path == "perf_mode")
    return v.perf == 0 ? "0: off" : fmt::format("performance mode {} (for 1-byte inputs)", v.perf);
  if (path == "num_active_rows") return fmt::format("K = {} PE rows = SBUF partitions read per column", v.rows);
  if (path == "num_active_cols") {
    const std::string n = maverick && v.cols == 256 ? "0 = 256" : std::to_string(v.cols);
    return v.matmul ? fmt::format("M = {} PE columns = output partitions", n)
                    : fmt::format("M = {} PE columns loaded = elements per row", n);
  }
  if (path == "row_grp") return group_meaning(v.row_grp, "row");
  if (path == "col_grp") return group_meaning(v.col_grp, "column");
  if (path == "out_dtype") return out_dtype_meaning(v.out_dtype, g);
  if (path == "psum_accumulate_flags" || (path == "flags" && v.matmul && maverick)) return flags_accumulate(v);
  if (path == "psum_zero_region") {
    constexpr std::array<std::string_view, 4> sizes{"SIZE2048 (2 KiB)", "SIZE4096 (4 KiB)", "SIZE8192 (8 KiB)",
                                                    "SIZE16384 (16 KiB)"};
    const unsigned max = g == Generation::Mariana ? 3U : 0U;
    if (v.zero_region > 3) return "not a MATMUL_ZERO_REGION value";
    return std::string(sizes[v.zero_region]) + (v.zero_region > max ? ": not on this generation" : "") +
           "; BEGIN does not clear it (PROJ-CONV-F16)";
  }
  if (path == "active_row_mode") return "named after S4D3_MM; meaning UNKNOWN, 0 in every known word";
  if (path == "bg_xpose_mode") return "background transpose mode (values not documented)";
  if (path == "flags" && !v.matmul && g == Generation::Mariana) return bits_lw_mariana(body<S3LwMariana>(inst).flags);
  if (path == "flags" && !v.matmul) return "load flags (bits not documented; load order reversed by default)";
  if (path == "matmul_flags") return bits_mm_mariana(body<S3d3MmMariana>(inst).matmul_flags);
  if (path == "tile_size") return "PE tile size code (values not documented)";
  if (path == "tile_sel") return "PE tile selection (values not documented)";
  return "";
}

constexpr Syntax kSyntax{
    .note = "none: every field follows its role; decode's meaning of the PE fields is the family's",
    .meaning = meaning};

}  // namespace

const Syntax& MatmulFamily::syntax() {
  return kSyntax;
}

}  // namespace tpbisa::family
