// Sequencer family validators: Write, Move, AluOp, CompareBranch, 0xb0/0xb3/0xb5 and the pseudo control words
// (sequencer.md §4-§8; PROJ-CONV-Q6, Q9, Q11 and tpbisa's SQ1-SQ6 where the spec gives no predicate).
#include <algorithm>

#include "families/common.hpp"
#include "families/seq/seq.hpp"
#include "families/validator_table.hpp"
#include "tpbisa/numerics.hpp"

namespace tpbisa::family {
namespace {

template <class S>
const S& as(const Instruction& i) {
  return body<S>(i);
}

/// "reserved1 byte 3 (word byte 31) is 0x01": the first non-zero byte of the reserved fields named.
template <class S, size_t N>
std::string reserved_text(const Instruction& i, const FieldRef (&fields)[N]) {
  const Word w = encode(i);
  for (const FieldRef& f : fields)
    for (unsigned b = f.offset; b < f.offset + f.size; ++b)
      if (w[b] != 0)
        return fmt::format("{} byte {} (word byte {}) is {:#04x}; reserved bytes must be zero", f.name, b - f.offset, b,
                           w[b]);
  return "a reserved byte is not zero";
}

/// A "reserved bytes are zero" clause over S's reserved fields F, its sentence naming the first non-zero byte.
template <class S, const auto& F>
constexpr Predicate reserved_clause(PredicateSpec p) {
  p.explain = [](const Instruction& i, const CheckContext&) { return reserved_text<S>(i, F); };
  return reserved_rule<S, F>(p);
}

/// A body over the header, Body(const Header&) -> bool: `holds` on the decoded header, the raw form on the header
/// of the typed raw word.
template <auto Body>
bool holds_on_header(const Instruction& i, const CheckContext&) {
  return Body(i.header());
}
template <auto Body>
bool header_view_accepts(const uint8_t* w, const CheckContext&) {
  return Body(view<RawWord>(w).header);
}

// The opcode clause every validator lists (opcode_is); it never fails through dispatch (the opcode selects the
// validator).
constexpr FieldRef fOpcode[] = {field_ref<CtrlWr>("header.opcode")};

/// The opcode clause of a validator whose words have the one opcode `Op`.
template <uint8_t Op>
constexpr Predicate opcode_clause(std::string_view name, std::string_view convention, std::string_view meaning) {
  return {.name = name,
          .convention = convention,
          .meaning = meaning,
          .gens = kGensAll,
          .fields = fOpcode,
          .holds = holds_on_header<opcode_is<Op>>,
          .explain = explain_opcode,
          .accepts = header_view_accepts<opcode_is<Op>>};
}

// ================================================================ WRITE 0xa5 (PROJ-CONV-Q6)

constexpr FieldRef fWrSize[] = {field_ref<CtrlWr>("wr_size")};
constexpr FieldRef fWrAddress[] = {field_ref<CtrlWr>("address")};
constexpr FieldRef fWrReserved[] = {field_ref<CtrlWr>("reserved0"), field_ref<CtrlWr>("reserved1")};

constexpr Predicate kWriteOpcode =
    opcode_clause<opcode::kWrite>("has_write_opcode", "PROJ-CONV-Q6", "header.opcode is 0xa5 (WRITE)");

constexpr auto kWrSizeBody = [](const CtrlWr& x, const CheckContext&) { return x.wr_size == 4; };

constexpr Predicate kWrSize = rule<CtrlWr, kWrSizeBody>(
    {.name = "ctrl_wr_valid_size",
     .convention = "PROJ-CONV-Q6",
     .meaning = "wr_size is 4 (the runtime's 32-bit store)",
     .gens = kGensAll,
     .fields = fWrSize,
     .explain = [](const Instruction& i, const CheckContext&) {
       return fmt::format("wr_size is {}; a WRITE stores exactly 4 bytes", as<CtrlWr>(i).wr_size);
     }});

constexpr auto kWrAlignedBody = [](const CtrlWr& x, const CheckContext&) { return x.address % 4 == 0; };

constexpr Predicate kWrAligned =
    rule<CtrlWr, kWrAlignedBody>({.name = "ctrl_wr_aligned_address",
                                  .convention = "PROJ-CONV-Q6",
                                  .meaning = "address is a multiple of 4",
                                  .gens = kGensAll,
                                  .fields = fWrAddress,
                                  .explain = [](const Instruction& i, const CheckContext&) {
                                    return fmt::format("address {:#x} is not 4-byte aligned", as<CtrlWr>(i).address);
                                  }});

constexpr Predicate kWrReserved = reserved_clause<CtrlWr, fWrReserved>(
    {.name = "ctrl_wr_reserved_zero", .convention = "PROJ-CONV-Q6", .meaning = "bytes 13-15 and 28-63 are zero"});

constexpr const Predicate* kWrite[] = {
    &kHasValidNeuronHeader, &kHasValidNeuronEvents, &kWriteOpcode, &kWrSize, &kWrAligned,
    &kWrReserved,           &kEnginePlacement};

// ================================================================ MOVE 0xa7 (ctrl_mv.h, H/O)

constexpr FieldRef fMvNum[] = {field_ref<CtrlMv>("num_mov")};
constexpr FieldRef fMvReserved[] = {field_ref<CtrlMv>("reserved0")};
constexpr FieldRef fMvDtype[] = {field_ref<CtrlMv>("dtype")};
constexpr FieldRef fMvSource[] = {field_ref<CtrlMv>("move_source")};

constexpr Predicate kMoveOpcode = opcode_clause<opcode::kMove>("has_move_opcode", "", "header.opcode is 0xa7 (MOVE)");

constexpr auto kMvNumBody = [](const CtrlMv& x, const CheckContext&) {
  const unsigned n = x.num_mov;
  return n > 0 && n <= CtrlMv::kSlots;
};

constexpr Predicate kMvNum =
    rule<CtrlMv, kMvNumBody>({.name = "ctrl_mv_valid_num",
                              .convention = "",
                              .meaning = "0 < num_mov <= 8",
                              .gens = kGensAll,
                              .fields = fMvNum,
                              .explain = [](const Instruction& i, const CheckContext&) {
                                return fmt::format("num_mov is {}; a MOVE makes 1 to 8 moves", as<CtrlMv>(i).num_mov);
                              }});

constexpr Predicate kMvReserved = reserved_clause<CtrlMv, fMvReserved>(
    {.name = "ctrl_mv_reserved_zero", .convention = "", .meaning = "reserved0 (byte 15) is zero"});

constexpr bool mv_dtype(uint8_t d) {
  return d == dtype::kFp32 || d == dtype::kUint32 || d == dtype::kInt32;
}

constexpr auto kMvDtypeBody = [](const CtrlMv& x, const CheckContext&) { return mv_dtype(x.dtype); };

constexpr Predicate kMvDtype = rule<CtrlMv, kMvDtypeBody>(
    {.name = "ctrl_mv_has_valid_dtype",
     .convention = "",
     .meaning = "dtype is FP32, UINT32 or INT32",
     .gens = kGensAll,
     .fields = fMvDtype,
     .explain = [](const Instruction& i, const CheckContext& c) {
       return fmt::format("dtype {} is not FP32, UINT32 or INT32", dtype_label(as<CtrlMv>(i).dtype, c.gen));
     }});

constexpr auto kMvSourceBody = [](const CtrlMv& x, const CheckContext&) { return x.move_source <= 1; };

constexpr Predicate kMvSource = rule<CtrlMv, kMvSourceBody>(
    {.name = "is_valid_enum(DataSrc)",
     .convention = "",
     .meaning = "move_source is a member of DATA_SRC (REGISTER 0, IMMEDIATE 1)",
     .gens = kGensAll,
     .fields = fMvSource,
     .explain = [](const Instruction& i, const CheckContext&) {
       return fmt::format("move_source is {}; DATA_SRC has REGISTER (0) and IMMEDIATE (1)", as<CtrlMv>(i).move_source);
     }});

// The fields each register slot's predicate reads, one row per slot (written out: clang 14 does not evaluate a
// consteval call that depends on a template parameter).
inline constexpr FieldRef kMvSlotFields[8][3] = {
    {field_ref<CtrlMv>("src_registers[0]"), field_ref<CtrlMv>("dst_registers[0]"), field_ref<CtrlMv>("num_mov")},
    {field_ref<CtrlMv>("src_registers[1]"), field_ref<CtrlMv>("dst_registers[1]"), field_ref<CtrlMv>("num_mov")},
    {field_ref<CtrlMv>("src_registers[2]"), field_ref<CtrlMv>("dst_registers[2]"), field_ref<CtrlMv>("num_mov")},
    {field_ref<CtrlMv>("src_registers[3]"), field_ref<CtrlMv>("dst_registers[3]"), field_ref<CtrlMv>("num_mov")},
    {field_ref<CtrlMv>("src_registers[4]"), field_ref<CtrlMv>("dst_registers[4]"), field_ref<CtrlMv>("num_mov")},
    {field_ref<CtrlMv>("src_registers[5]"), field_ref<CtrlMv>("dst_registers[5]"), field_ref<CtrlMv>("num_mov")},
    {field_ref<CtrlMv>("src_registers[6]"), field_ref<CtrlMv>("dst_registers[6]"), field_ref<CtrlMv>("num_mov")},
    {field_ref<CtrlMv>("src_registers[7]"), field_ref<CtrlMv>("dst_registers[7]"), field_ref<CtrlMv>("num_mov")}};

std::string register_text(uint8_t r) {
  if (seq::is_general_register(r)) return fmt::format("R{}", r);
  if (r == seq::kPcLow) return "128 (PC low half)";
  if (r == seq::kPcHigh) return "129 (PC high half)";
  return fmt::format("{} (no register)", r);
}

template <unsigned K>
std::string explain_mv_slot(const Instruction& i, const CheckContext&) {
  const CtrlMv& m = as<CtrlMv>(i);
  if (!seq::move_slot(m, K).used)
    return fmt::format(
        "slot {} is unused (num_mov {}) but src_registers[{}] is {}; an unused slot's source byte must "
        "be 0",
        K, m.num_mov, K, m.src_registers[K]);
  return fmt::format(
      "slot {}: source {} and destination {}; a source is R0-R63, 128 or 129, a destination R0-R63 "
      "(128/129 accepted and ignored, PROJ-CONV-Q7)",
      K, register_text(m.src_registers[K]), register_text(m.dst_registers[K]));
}

template <unsigned K>
constexpr bool mv_slot_ok(const CtrlMv& x, const CheckContext&) {
  return seq::ctrl_mv_valid_register(x, K);
}

template <unsigned K>
constexpr Predicate kMvSlot = rule<CtrlMv, mv_slot_ok<K>>(
    {.name = "ctrl_mv_valid_register",
     .convention = "",
     .meaning =
         "slot k: unused (k >= num_mov) with source byte 0, or a readable source (R0-R63, 128, 129) and a writable "
         "destination (R0-R63; 128/129 accepted, PROJ-CONV-Q7); one conjunct per slot 0-7",
     .gens = kGensAll,
     .fields = kMvSlotFields[K],
     .explain = explain_mv_slot<K>});

constexpr const Predicate* kMove[] = {&kHasValidNeuronHeader,
                                      &kHasValidNeuronEvents,
                                      &kHasTileIdxZero,
                                      &kMoveOpcode,
                                      &kMvNum,
                                      &kMvReserved,
                                      &kMvDtype,
                                      &kMvSource,
                                      &kMvSlot<0>,
                                      &kMvSlot<1>,
                                      &kMvSlot<2>,
                                      &kMvSlot<3>,
                                      &kMvSlot<4>,
                                      &kMvSlot<5>,
                                      &kMvSlot<6>,
                                      &kMvSlot<7>,
                                      &kEnginePlacement};

// ================================================================ ALU_OP 0xa8 (PROJ-CONV-Q9)

constexpr FieldRef fAlOp[] = {field_ref<CtrlAl>("op")};
constexpr FieldRef fAlDtype[] = {field_ref<CtrlAl>("dtype")};
constexpr FieldRef fAlSource[] = {field_ref<CtrlAl>("src1_datasrc")};
constexpr FieldRef fAlDst[] = {field_ref<CtrlAl>("dst_dtype"), field_ref<CtrlAl>("dtype")};
constexpr FieldRef fAlRegs[] = {field_ref<CtrlAl>("src0_lo"), field_ref<CtrlAl>("src1_lo"), field_ref<CtrlAl>("dst_lo"),
                                field_ref<CtrlAl>("src0_hi")};
constexpr FieldRef fAlLegal[] = {field_ref<CtrlAl>("op"), field_ref<CtrlAl>("dtype")};
constexpr FieldRef fAlReserved[] = {field_ref<CtrlAl>("reserved1"), field_ref<CtrlAl>("reserved2")};

constexpr bool al_dtype(uint8_t d) {
  return d == dtype::kUint8 || d == dtype::kInt8 || d == dtype::kUint16 || d == dtype::kInt16 || d == dtype::kUint32 ||
         d == dtype::kInt32 || d == dtype::kFp32 || d == dtype::kUint64 || d == dtype::kInt64;
}

/// alu_dtype_legal(op, dtype): enums.md §5.2 over the dtypes ALU_OP admits.
constexpr bool alu_dtype_legal(uint8_t op, uint8_t d) {
  const AluOpInfo* row = find_aluop(op);
  const DtypeInfo* dt = find_dtype(d);
  // An op or dtype outside ALU_OP's sets is reported by is_valid_aluop / ctrl_al_valid_dtype alone.
  if (row == nullptr || dt == nullptr || !al_dtype(d)) return true;
  const bool is_float = d == dtype::kFp32;
  const bool wide = dtype_size(d) == 8;
  const bool is_signed = dt->kind == DtypeKind::SInt;
  switch (op) {
    case aluop::kBypass: return true;
    case aluop::kDivide:
    case aluop::kPow:
    case aluop::kRsqrt: return is_float;
    case aluop::kMod: return !is_float && !wide;
    case aluop::kCrc32: return d == dtype::kUint16 || d == dtype::kInt16 || d == dtype::kUint32 || d == dtype::kInt32;
    default: break;
  }
  if (op >= 0xC4) {  // the integer band: ints of the op's signedness; 64-bit only for is_valid_int_aluop members
    if (is_float) return false;
    const bool sign_ok = is_signed ? row->is(kAluSigned) : row->is(kAluUnsigned);
    return sign_ok && (!wide || row->is(kAluInt));
  }
  if (row->is(kAluBitvec)) return !is_float;  // bitwise ops and shifts: ints, 64-bit included
  return !wide;                               // arithmetic, logical, compares: 8/16/32-bit ints and FP32
}

/// alu_dtype_legal tabulated from its definition at compile time: per op, a bit per dtype code below 32 (every dtype
/// ALU_OP admits is one; the rule holds for any other). One look-up where the definition takes two catalog searches.
struct AluDtypeLegalTable {
  static constexpr unsigned kCodes = 32;
  std::array<uint32_t, 256> legal{};
  constexpr bool holds(uint8_t op, uint8_t d) const { return d >= kCodes || ((legal[op] >> d) & 1U) != 0; }
};
constexpr AluDtypeLegalTable make_alu_dtype_legal_table() {
  AluDtypeLegalTable t;
  for (unsigned op = 0; op < 256; ++op)
    for (unsigned d = 0; d < AluDtypeLegalTable::kCodes; ++d)
      if (alu_dtype_legal(static_cast<uint8_t>(op), static_cast<uint8_t>(d))) t.legal[op] |= 1U << d;
  return t;
}
constexpr AluDtypeLegalTable kAluDtypeLegal = make_alu_dtype_legal_table();
constexpr bool no_alu_dtype_from(unsigned d) {
  for (; d < 256; ++d)
    if (al_dtype(static_cast<uint8_t>(d))) return false;
  return true;
}
static_assert(no_alu_dtype_from(AluDtypeLegalTable::kCodes), "every dtype ALU_OP admits has a bit in the table");

constexpr Predicate kAlOpcode =
    opcode_clause<opcode::kAluOp>("has_alu_op_opcode", "PROJ-CONV-Q9", "header.opcode is 0xa8 (ALU_OP)");

constexpr auto kAlOpEnumBody = [](const CtrlAl& x, const CheckContext& c) { return aluop_in(x.op, c.gen); };

constexpr Predicate kAlOpEnum = rule<CtrlAl, kAlOpEnumBody>(
    {.name = "is_valid_aluop",
     .convention = "PROJ-CONV-Q9",
     .meaning = "op is a member of the generation's ALU_OP enum",
     .gens = kGensAll,
     .fields = fAlOp,
     .explain = [](const Instruction& i, const CheckContext& c) {
       return fmt::format("op {} is not an ALU op of {}", aluop_label(as<CtrlAl>(i).op, c.gen), to_string(c.gen));
     }});

constexpr auto kAlDtypeBody = [](const CtrlAl& x, const CheckContext&) { return al_dtype(x.dtype); };

constexpr Predicate kAlDtype = rule<CtrlAl, kAlDtypeBody>(
    {.name = "ctrl_al_valid_dtype",
     .convention = "PROJ-CONV-Q9",
     .meaning = "dtype is UINT8, INT8, UINT16, INT16, UINT32, INT32, FP32, UINT64 or INT64",
     .gens = kGensAll,
     .fields = fAlDtype,
     .explain = [](const Instruction& i, const CheckContext& c) {
       return fmt::format("dtype {} is not an 8/16/32/64-bit integer or FP32", dtype_label(as<CtrlAl>(i).dtype, c.gen));
     }});

constexpr auto kAlSourceBody = [](const CtrlAl& x, const CheckContext&) { return x.src1_datasrc <= 1; };

constexpr Predicate kAlSource =
    rule<CtrlAl, kAlSourceBody>({.name = "is_valid_enum(DataSrc)",
                                 .convention = "PROJ-CONV-Q9",
                                 .meaning = "src1_datasrc is a member of DATA_SRC (REGISTER 0, IMMEDIATE 1)",
                                 .gens = kGensAll,
                                 .fields = fAlSource,
                                 .explain = [](const Instruction& i, const CheckContext&) {
                                   return fmt::format("src1_datasrc is {}; DATA_SRC has REGISTER (0) and IMMEDIATE (1)",
                                                      as<CtrlAl>(i).src1_datasrc);
                                 }});

constexpr auto kAlDstBody = [](const CtrlAl& a, const CheckContext&) {
  return a.dst_dtype == 0 || a.dst_dtype == a.dtype;
};

constexpr Predicate kAlDst =
    rule<CtrlAl, kAlDstBody>({.name = "ctrl_al_valid_dst_dtype",
                              .convention = "PROJ-CONV-Q10",
                              .meaning = "dst_dtype is 0 (the result has the operand type) or equals dtype",
                              .gens = kGensAll,
                              .fields = fAlDst,
                              .explain = [](const Instruction& i, const CheckContext& c) {
                                const CtrlAl& a = as<CtrlAl>(i);
                                return fmt::format("dst_dtype {} differs from dtype {}; it must be 0 or equal dtype",
                                                   dtype_label(a.dst_dtype, c.gen), dtype_label(a.dtype, c.gen));
                              }});

constexpr auto kAlRegsBody = [](const CtrlAl& x, const CheckContext&) { return seq::ctrl_al_registers_valid(x); };

constexpr Predicate kAlRegs = rule<CtrlAl, kAlRegsBody>(
    {.name = "ctrl_al_valid_registers",
     .convention = "PROJ-CONV-Q9",
     .meaning =
         "src0_lo, dst_lo and (register source) src1_lo are R0-R63; for 64-bit dtypes the _hi registers read and "
         "written are R0-R63 too",
     .gens = kGensAll,
     .fields = fAlRegs,
     .explain = [](const Instruction& i, const CheckContext&) {
       const CtrlAl& a = as<CtrlAl>(i);
       const seq::AluOperands o = seq::alu_operands(a);
       std::string text = fmt::format("src0_lo {}, dst_lo {}", a.src0_lo, a.dst_lo);
       if (!o.src1_immediate) text += fmt::format(", src1_lo {}", a.src1_lo);
       if (o.wide) {
         text += fmt::format(", src0_hi {}, dst_hi {}", a.src0_hi, a.dst_hi);
         if (!o.src1_immediate) text += fmt::format(", src1_hi {}", a.src1_hi);
       }
       return text + ": every register the word reads or writes must be R0-R63";
     }});

constexpr auto kAlLegalBody = [](const CtrlAl& a, const CheckContext&) { return kAluDtypeLegal.holds(a.op, a.dtype); };

constexpr Predicate kAlLegal = rule<CtrlAl, kAlLegalBody>(
    {.name = "alu_dtype_legal",
     .convention = "PROJ-CONV-Q9",
     .meaning =
         "op is legal on dtype (enums.md §5.2): bitwise ops and shifts need integers, DIVIDE/POW/RSQRT need FP32, "
         "MOD 8/16/32-bit integers, CRC32 16/32-bit integers, 64-bit dtypes only on the bit-vector and integer-band "
         "paths",
     .gens = kGensAll,
     .fields = fAlLegal,
     .explain = [](const Instruction& i, const CheckContext& c) {
       const CtrlAl& a = as<CtrlAl>(i);
       return fmt::format("op {} is not legal on dtype {} (enums.md §5.2)", aluop_label(a.op, c.gen),
                          dtype_label(a.dtype, c.gen));
     }});

constexpr Predicate kAlReserved =
    reserved_clause<CtrlAl, fAlReserved>({.name = "ctrl_al_reserved_zero",
                                          .convention = "PROJ-CONV-Q9",
                                          .meaning = "reserved1 (bytes 22-23) and reserved2 (bytes 32-63) are zero"});

constexpr const Predicate* kAlu[] = {&kHasValidNeuronHeader,
                                     &kHasValidNeuronEvents,
                                     &kAlOpcode,
                                     &kAlOpEnum,
                                     &kAlDtype,
                                     &kAlSource,
                                     &kAlDst,
                                     &kAlRegs,
                                     &kAlLegal,
                                     &kAlReserved,
                                     &kEnginePlacement};

// ================================================================ COMPARE_BRANCH 0xa9 (PROJ-CONV-Q11)

constexpr FieldRef fBrCmp[] = {field_ref<CtrlBr>("cmp_op")};
constexpr FieldRef fBrDtype[] = {field_ref<CtrlBr>("dtype"), field_ref<CtrlBr>("cmp_op")};
constexpr FieldRef fBrMode[] = {field_ref<CtrlBr>("target_mode")};
constexpr FieldRef fBrCmpRegs[] = {field_ref<CtrlBr>("cmp_reg0"), field_ref<CtrlBr>("cmp_reg1"),
                                   field_ref<CtrlBr>("cmp_op")};
constexpr FieldRef fBrTargetRegs[] = {field_ref<CtrlBr>("target_reg_lo"), field_ref<CtrlBr>("target_reg_hi"),
                                      field_ref<CtrlBr>("target_mode")};
constexpr FieldRef fBrReserved[] = {field_ref<CtrlBr>("reserved0"), field_ref<CtrlBr>("reserved1"),
                                    field_ref<CtrlBr>("reserved2"), field_ref<CtrlBr>("reserved3")};

constexpr bool br_dtype(uint8_t d) {
  return d == dtype::kUint8 || d == dtype::kInt8 || d == dtype::kUint16 || d == dtype::kInt16 || d == dtype::kUint32 ||
         d == dtype::kInt32 || d == dtype::kFp32;
}

bool br_cmp_registers_valid(const CtrlBr& b) {
  const seq::BranchReading r = seq::branch_reading(b);
  const bool reg0 = r.compare == seq::BrCompare::Always || seq::is_general_register(b.cmp_reg0);
  const bool reg1 = r.compare != seq::BrCompare::Register || seq::is_general_register(b.cmp_reg1);
  return reg0 && reg1;
}

bool br_target_registers_valid(const CtrlBr& b) {
  return seq::branch_reading(b).target == seq::BrTarget::RelImmediate ||
         (seq::is_general_register(b.target_reg_lo) && seq::is_general_register(b.target_reg_hi));
}

constexpr Predicate kBrOpcode = opcode_clause<opcode::kCompareBranch>("has_compare_branch_opcode", "PROJ-CONV-Q11",
                                                                      "header.opcode is 0xa9 (COMPARE_BRANCH)");

constexpr auto kBrCmpBody = [](const CtrlBr& x, const CheckContext&) {
  return seq::branch_reading(x).compare != seq::BrCompare::Invalid;
};

constexpr Predicate kBrCmp = rule<CtrlBr, kBrCmpBody>(
    {.name = "ctrl_br_valid_cmp_op",
     .convention = "PROJ-CONV-Q11",
     .meaning = "cmp_op is 0 (always), 1-6 (against cmp_immediate) or 9-14 (against R[cmp_reg1])",
     .gens = kGensAll,
     .fields = fBrCmp,
     .explain = [](const Instruction& i, const CheckContext&) {
       return fmt::format("cmp_op is {}; BR_CMP_OP has 0, 1-6 and 9-14", as<CtrlBr>(i).cmp_op);
     }});

constexpr auto kBrDtypeBody = [](const CtrlBr& b, const CheckContext&) { return b.cmp_op == 0 || br_dtype(b.dtype); };

constexpr Predicate kBrDtype = rule<CtrlBr, kBrDtypeBody>(
    {.name = "ctrl_br_valid_dtype",
     .convention = "PROJ-CONV-Q11",
     .meaning = "a conditional branch compares UINT8, INT8, UINT16, INT16, UINT32, INT32 or FP32",
     .gens = kGensAll,
     .fields = fBrDtype,
     .explain = [](const Instruction& i, const CheckContext& c) {
       return fmt::format(
           "dtype {} cannot be compared (cmp_op {}); the comparison types are u8, s8, u16, s16, "
           "u32, s32 and f32",
           dtype_label(as<CtrlBr>(i).dtype, c.gen), as<CtrlBr>(i).cmp_op);
     }});

constexpr auto kBrModeBody = [](const CtrlBr& x, const CheckContext&) {
  return seq::branch_reading(x).target != seq::BrTarget::Invalid;
};

constexpr Predicate kBrMode = rule<CtrlBr, kBrModeBody>(
    {.name = "ctrl_br_valid_target_mode",
     .convention = "PROJ-CONV-Q11",
     .meaning = "target_mode is REGISTER 1, REL_IMMEDIATE 3 or REL_REGISTER 4 (0 and 2 are UNKNOWN, refused)",
     .gens = kGensAll,
     .fields = fBrMode,
     .explain = [](const Instruction& i, const CheckContext&) {
       return fmt::format("target_mode is {}; BR_TARGET_MODE has 1, 3 and 4", as<CtrlBr>(i).target_mode);
     }});

constexpr auto kBrCmpRegsBody = [](const CtrlBr& x, const CheckContext&) { return br_cmp_registers_valid(x); };

constexpr Predicate kBrCmpRegs = rule<CtrlBr, kBrCmpRegsBody>(
    {.name = "ctrl_br_valid_cmp_registers",
     .convention = "PROJ-CONV-Q11",
     .meaning = "a conditional branch reads cmp_reg0 in R0-R63; a register comparison (9-14) also cmp_reg1",
     .gens = kGensAll,
     .fields = fBrCmpRegs,
     .explain = [](const Instruction& i, const CheckContext&) {
       const CtrlBr& b = as<CtrlBr>(i);
       return fmt::format("cmp_op {} reads cmp_reg0 {} and cmp_reg1 {}; compared registers must be R0-R63", b.cmp_op,
                          b.cmp_reg0, b.cmp_reg1);
     }});

constexpr auto kBrTargetRegsBody = [](const CtrlBr& x, const CheckContext&) { return br_target_registers_valid(x); };

constexpr Predicate kBrTargetRegs = rule<CtrlBr, kBrTargetRegsBody>(
    {.name = "ctrl_br_valid_target_registers",
     .convention = "PROJ-CONV-Q11",
     .meaning = "target modes 1 and 4 take the target from target_reg_lo/target_reg_hi, both R0-R63",
     .gens = kGensAll,
     .fields = fBrTargetRegs,
     .explain = [](const Instruction& i, const CheckContext&) {
       const CtrlBr& b = as<CtrlBr>(i);
       return fmt::format("target_mode {} reads target_reg_lo {} and target_reg_hi {}; both must be R0-R63",
                          b.target_mode, b.target_reg_lo, b.target_reg_hi);
     }});

constexpr Predicate kBrReserved =
    reserved_clause<CtrlBr, fBrReserved>({.name = "ctrl_br_reserved_zero",
                                          .convention = "PROJ-CONV-Q11",
                                          .meaning = "bytes 15, 20-31, 36-47 and 56-63 are zero"});

constexpr const Predicate* kBranch[] = {
    &kHasValidNeuronHeader, &kHasValidNeuronEvents, &kBrOpcode,       &kBrCmp, &kBrDtype, &kBrMode, &kBrCmpRegs,
    &kBrTargetRegs,         &kBrReserved,           &kEnginePlacement};

// ================================================================ EVENT_SEMAPHORE_RANGE_CLEAR 0xb0 (PROJ-CONV-SQ1)

constexpr FieldRef fErMode[] = {field_ref<CtrlEr>("clear_mode")};
constexpr FieldRef fErRange[] = {field_ref<CtrlEr>("range_first"), field_ref<CtrlEr>("range_last"),
                                 field_ref<CtrlEr>("clear_mode")};
constexpr FieldRef fErUnused[] = {field_ref<CtrlEr>("clear_mode"), field_ref<CtrlEr>("range_first"),
                                  field_ref<CtrlEr>("range_last"), field_ref<CtrlEr>("mask")};
constexpr FieldRef fErReserved[] = {field_ref<CtrlEr>("reserved0")};

bool er_unused_zero(const CtrlEr& e) {
  switch (seq::clear_mode(e)) {
    case seq::ClearMode::Range: return std::all_of(e.mask.begin(), e.mask.end(), [](uint32_t m) { return m == 0; });
    case seq::ClearMode::Mask: return e.range_first == 0 && e.range_last == 0;
    case seq::ClearMode::Invalid: break;
  }
  return true;
}

constexpr Predicate kErOpcode = opcode_clause<opcode::kEventSemaphoreRangeClear>(
    "has_event_semaphore_range_clear_opcode", "PROJ-CONV-SQ1", "header.opcode is 0xb0 (EVENT_SEMAPHORE_RANGE_CLEAR)");

constexpr auto kErModeBody = [](const CtrlEr& x, const CheckContext&) {
  return seq::clear_mode(x) != seq::ClearMode::Invalid;
};

constexpr Predicate kErMode = rule<CtrlEr, kErModeBody>(
    {.name = "ctrl_er_valid_mode",
     .convention = "PROJ-CONV-SQ1",
     .meaning = "clear_mode is 1 (a range of semaphores) or 2 (a 256-bit mask)",
     .gens = kGensAll,
     .fields = fErMode,
     .explain = [](const Instruction& i, const CheckContext&) {
       return fmt::format("clear_mode is {}; 1 clears a range, 2 a mask", as<CtrlEr>(i).clear_mode);
     }});

constexpr auto kErRangeBody = [](const CtrlEr& e, const CheckContext&) {
  return seq::clear_mode(e) != seq::ClearMode::Range || e.range_first <= e.range_last;
};

constexpr Predicate kErRange = rule<CtrlEr, kErRangeBody>(
    {.name = "ctrl_er_valid_range",
     .convention = "PROJ-CONV-SQ1",
     .meaning = "a range clear (mode 1) has range_first <= range_last",
     .gens = kGensAll,
     .fields = fErRange,
     .explain = [](const Instruction& i, const CheckContext&) {
       const CtrlEr& e = as<CtrlEr>(i);
       return fmt::format("range_first {} is above range_last {}; the range is inclusive and ascending", e.range_first,
                          e.range_last);
     }});

constexpr auto kErUnusedBody = [](const CtrlEr& x, const CheckContext&) { return er_unused_zero(x); };

constexpr Predicate kErUnused = rule<CtrlEr, kErUnusedBody>(
    {.name = "ctrl_er_unused_operand_zero",
     .convention = "PROJ-CONV-SQ1",
     .meaning = "the operand the mode does not use is zero: the mask for a range clear, the range for a mask clear",
     .gens = kGensAll,
     .fields = fErUnused,
     .explain = [](const Instruction& i, const CheckContext&) {
       const CtrlEr& e = as<CtrlEr>(i);
       return seq::clear_mode(e) == seq::ClearMode::Range
                  ? std::string("a range clear (mode 1) has a non-zero mask; the mask must be zero")
                  : fmt::format("a mask clear (mode 2) has range_first {} and range_last {}; both must be zero",
                                e.range_first, e.range_last);
     }});

constexpr Predicate kErReserved = reserved_clause<CtrlEr, fErReserved>(
    {.name = "ctrl_er_reserved_zero", .convention = "PROJ-CONV-SQ1", .meaning = "bytes 15-31 are zero"});

constexpr const Predicate* kRangeClear[] = {
    &kHasValidNeuronHeader, &kHasValidNeuronEvents, &kErOpcode, &kErMode, &kErRange, &kErUnused,
    &kErReserved,           &kEnginePlacement};

// ================================================================ POLL_SEM 0xb3 (PROJ-CONV-SQ3)

constexpr FieldRef fPsCount[] = {field_ref<PollSem>("n_read")};
constexpr FieldRef fPsReg[] = {field_ref<PollSem>("result_reg")};
constexpr FieldRef fPsOp[] = {field_ref<PollSem>("combine_op")};
constexpr FieldRef fPsAddr[] = {field_ref<PollSem>("address"), field_ref<PollSem>("writeback_address")};
constexpr FieldRef fPsReserved[] = {field_ref<PollSem>("reserved0"), field_ref<PollSem>("reserved1")};

constexpr Predicate kPsOpcode =
    opcode_clause<opcode::kPollSem>("has_poll_sem_opcode", "PROJ-CONV-SQ3", "header.opcode is 0xb3 (POLL_SEM)");

constexpr auto kPsCountBody = [](const PollSem& x, const CheckContext&) {
  const unsigned n = x.n_read;
  return n >= 1 && n <= seq::kPollMaxReads;
};

constexpr Predicate kPsCount = rule<PollSem, kPsCountBody>(
    {.name = "poll_sem_valid_count",
     .convention = "PROJ-CONV-SQ3",
     .meaning = "1 <= n_read <= 16",
     .gens = kGensAll,
     .fields = fPsCount,
     .explain = [](const Instruction& i, const CheckContext&) {
       return fmt::format("n_read is {}; a poll reads 1 to 16 values", as<PollSem>(i).n_read);
     }});

constexpr auto kPsRegBody = [](const PollSem& x, const CheckContext&) {
  return seq::is_general_register(x.result_reg);
};

constexpr Predicate kPsReg = rule<PollSem, kPsRegBody>(
    {.name = "poll_sem_valid_register",
     .convention = "PROJ-CONV-SQ3",
     .meaning = "result_reg is R0-R63",
     .gens = kGensAll,
     .fields = fPsReg,
     .explain = [](const Instruction& i, const CheckContext&) {
       return fmt::format("result_reg is {}; the result goes to one of R0-R63", as<PollSem>(i).result_reg);
     }});

constexpr auto kPsOpBody = [](const PollSem& x, const CheckContext& c) { return aluop_in(x.combine_op, c.gen); };

constexpr Predicate kPsOp =
    rule<PollSem, kPsOpBody>({.name = "poll_sem_valid_combine_op",
                              .convention = "PROJ-CONV-SQ3",
                              .meaning = "combine_op is a member of the generation's ALU_OP enum",
                              .gens = kGensAll,
                              .fields = fPsOp,
                              .explain = [](const Instruction& i, const CheckContext& c) {
                                return fmt::format("combine_op {} is not an ALU op of {}",
                                                   aluop_label(as<PollSem>(i).combine_op, c.gen), to_string(c.gen));
                              }});

constexpr auto kPsAddrBody = [](const PollSem& p, const CheckContext&) {
  return p.address % 4 == 0 && p.writeback_address % 4 == 0;
};

constexpr Predicate kPsAddr = rule<PollSem, kPsAddrBody>(
    {.name = "poll_sem_aligned_addresses",
     .convention = "PROJ-CONV-SQ3",
     .meaning = "address and writeback_address are multiples of 4 (the values are u32)",
     .gens = kGensAll,
     .fields = fPsAddr,
     .explain = [](const Instruction& i, const CheckContext&) {
       const PollSem& p = as<PollSem>(i);
       return fmt::format("address {:#x} and writeback_address {:#x} must both be 4-byte aligned", p.address,
                          p.writeback_address);
     }});

constexpr Predicate kPsReserved = reserved_clause<PollSem, fPsReserved>(
    {.name = "poll_sem_reserved_zero", .convention = "PROJ-CONV-SQ3", .meaning = "byte 15 and bytes 32-63 are zero"});

constexpr const Predicate* kPoll[] = {
    &kHasValidNeuronHeader, &kHasValidNeuronEvents, &kPsOpcode, &kPsCount, &kPsReg, &kPsOp, &kPsAddr,
    &kPsReserved,           &kEnginePlacement};

// ================================================================ BRANCH_PREFETCH_HINT 0xb5 / 0xdd (PROJ-CONV-SQ2)

constexpr FieldRef fHintTarget[] = {field_ref<BranchPrefetchHint>("target")};

constexpr Predicate kHintOpcode = opcode_clause<opcode::kBranchPrefetchHint>(
    "has_branch_prefetch_hint_opcode", "PROJ-CONV-SQ2", "header.opcode is 0xb5 (BRANCH_PREFETCH_HINT)");
constexpr Predicate kPseudoHintOpcode = opcode_clause<opcode::kPseudoBranchPrefetchHint>(
    "has_pseudo_branch_prefetch_hint_opcode", "PROJ-CONV-SQ2", "header.opcode is 0xdd (PSEUDO_BRANCH_PREFETCH_HINT)");

constexpr auto kHintTargetBody = [](const BranchPrefetchHint& x, const CheckContext&) { return (x.target >> 32) == 0; };

constexpr Predicate kHintTarget = rule<BranchPrefetchHint, kHintTargetBody>(
    {.name = "branch_prefetch_hint_target_range",
     .convention = "PROJ-CONV-SQ2",
     .meaning =
         "the target is stored zero-extended from 32 bits (bytes 52-55 zero; the runtime asserts |offset| < 2^31)",
     .gens = kGensAll,
     .fields = fHintTarget,
     .explain = [](const Instruction& i, const CheckContext&) {
       return fmt::format("target {:#x} has bits above 31 set; the target is a 32-bit value zero-extended to 64",
                          as<BranchPrefetchHint>(i).target);
     }});

constexpr const Predicate* kHint[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kHintOpcode, &kHintTarget,
                                      &kEnginePlacement};
constexpr const Predicate* kPseudoHint[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kPseudoHintOpcode,
                                            &kHintTarget, &kEnginePlacement};

// ================================================================ pseudo function words 0xd1-0xd3 (PROJ-CONV-SQ4)

constexpr FieldRef fCallee[] = {field_ref<PseudoFunctionCall>("callee")};

constexpr Predicate kBeginOpcode =
    opcode_clause<opcode::kPseudoFunctionBegin>("has_pseudo_function_begin_opcode", "PROJ-CONV-SQ4",
                                                "header.opcode is 0xd1 (PSEUDO_FUNCTION_BEGIN); the payload is opaque");
constexpr Predicate kReturnOpcode = opcode_clause<opcode::kPseudoFunctionReturn>(
    "has_pseudo_function_return_opcode", "PROJ-CONV-SQ4",
    "header.opcode is 0xd2 (PSEUDO_FUNCTION_RETURN); the payload is opaque");
constexpr Predicate kCallOpcode = opcode_clause<opcode::kPseudoFunctionCall>(
    "has_pseudo_function_call_opcode", "PROJ-CONV-SQ4", "header.opcode is 0xd3 (PSEUDO_FUNCTION_CALL)");

constexpr auto kCalleeBody = [](const PseudoFunctionCall& x, const CheckContext&) { return seq::callee_name_valid(x); };

constexpr Predicate kCallee = rule<PseudoFunctionCall, kCalleeBody>(
    {.name = "pseudo_function_call_valid_callee",
     .convention = "PROJ-CONV-SQ4",
     .meaning = "callee is 1-35 printable ASCII characters, NUL-terminated, with zero bytes after the terminator",
     .gens = kGensAll,
     .fields = fCallee,
     .explain = [](const Instruction& i, const CheckContext&) {
       const PseudoFunctionCall& c = as<PseudoFunctionCall>(i);
       const std::string_view name = seq::callee_name(c);
       if (name.empty()) return std::string("the callee name is empty");
       if (name.size() == PseudoFunctionCall::kNameBytes)
         return std::string("the callee name has no NUL terminator within its 36 bytes");
       return fmt::format(
           "the callee name ({} bytes) has a non-printable character or non-zero bytes after its "
           "terminator",
           name.size());
     }});

constexpr const Predicate* kBegin[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kBeginOpcode,
                                       &kEnginePlacement};
constexpr const Predicate* kReturn[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kReturnOpcode,
                                        &kEnginePlacement};
constexpr const Predicate* kCall[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kCallOpcode, &kCallee,
                                      &kEnginePlacement};

// ================================================================ PSEUDO_INST 0xdf (PROJ-CONV-SQ5)

constexpr FieldRef fKind[] = {field_ref<PseudoInst>("kind")};

constexpr Predicate kPseudoInstOpcode = opcode_clause<opcode::kPseudoInst>("has_pseudo_inst_opcode", "PROJ-CONV-SQ5",
                                                                           "header.opcode is 0xdf (PSEUDO_INST)");

constexpr auto kPseudoInstKindBody = [](const PseudoInst& x, const CheckContext&) {
  return x.kind == seq::kPseudoInstExit;
};

constexpr Predicate kPseudoInstKind = rule<PseudoInst, kPseudoInstKindBody>(
    {.name = "pseudo_inst_valid_kind",
     .convention = "PROJ-CONV-SQ5",
     .meaning = "kind is 1 (exit execution), the only pseudo instruction known; the payload is opaque",
     .gens = kGensAll,
     .fields = fKind,
     .explain = [](const Instruction& i, const CheckContext&) {
       return fmt::format("kind is {}; the only known PSEUDO_INST is 1 (exit execution)", as<PseudoInst>(i).kind);
     }});

constexpr const Predicate* kPseudoInstList[] = {&kHasValidNeuronHeader, &kHasValidNeuronEvents, &kPseudoInstOpcode,
                                                &kPseudoInstKind, &kEnginePlacement};

// ================================================================ the validators

constexpr Validator kValidators[] = {
    full_validator<kWrite>("is_valid_ctrl_wr"),
    full_validator<kMove>("is_valid_ctrl_mv"),
    full_validator<kAlu>("is_valid_ctrl_al"),
    full_validator<kBranch>("is_valid_ctrl_br"),
    full_validator<kRangeClear>("is_valid_ctrl_er"),
    full_validator<kPoll>("is_valid_poll_sem"),
    full_validator<kHint>("is_valid_branch_prefetch_hint"),
    full_validator<kPseudoHint>("is_valid_pseudo_branch_prefetch_hint"),
    full_validator<kBegin>("is_valid_pseudo_function_begin"),
    full_validator<kReturn>("is_valid_pseudo_function_return"),
    full_validator<kCall>("is_valid_pseudo_function_call"),
    full_validator<kPseudoInstList>("is_valid_pseudo_inst"),
};
static_assert(std::all_of(std::begin(kValidators), std::end(kValidators),
                          [](const Validator& v) { return v.accept != nullptr; }),
              "every seq predicate has a raw form");

constexpr ValidatorRow kRows[] = {
    {opcode::kWrite, &kValidators[0]},
    {opcode::kMove, &kValidators[1]},
    {opcode::kAluOp, &kValidators[2]},
    {opcode::kCompareBranch, &kValidators[3]},
    {opcode::kEventSemaphoreRangeClear, &kValidators[4]},
    {opcode::kPollSem, &kValidators[5]},
    {opcode::kBranchPrefetchHint, &kValidators[6]},
    {opcode::kPseudoBranchPrefetchHint, &kValidators[7]},
    {opcode::kPseudoFunctionBegin, &kValidators[8]},
    {opcode::kPseudoFunctionReturn, &kValidators[9]},
    {opcode::kPseudoFunctionCall, &kValidators[10]},
    {opcode::kPseudoInst, &kValidators[11]},
};
constexpr Validation kValidation = validator_table<SeqFamily, kRows>();

}  // namespace

const Validation& SeqFamily::validation() {
  return kValidation;
}

}  // namespace tpbisa::family
