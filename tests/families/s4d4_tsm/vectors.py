"""S4D4_TSM vectors: TensorScalarPtrMulti 0x4F / 0x5F and the SUNDA Dual pair 0x87 / 0x88 (edge-cases.md §0,
§8-§11, s4d4-tsm.md §3), and the derived corners of their common predicates.

Added to tests/vectors/validate.tsv by tests/vectors/make_validate_vectors.py. Every expected failing set is
derived by hand from the spec's predicate bodies, never from running the library (see vectorlib.py).
"""

import struct

from vectorlib import *  # noqa: F401,F403  (the generations, enum values, predicate names and vec())

# ---- predicate names (the validators' conjuncts) ----
SLICES = "has_valid_src_slices_tsm_singular"
SLICES_DUAL = "has_valid_src_slices_tsm_dual"
DUAL_OP = "has_tensor_scalar_ptr_multi_dual_opcode"
OPS = "tensor_scalar_ptr_multi_valid_ops"
TYPES = "tensor_scalar_ptr_multi_valid_types"
REV = "tensor_scalar_ptr_multi_reverse_chk"
RES4 = "s4d4_tsm_reserved_zero"
ALUOP = "is_valid_aluop"
SUBDIM = "is_valid_tsm_subdim"
CHR_TILE = "has_valid_active_channel_range_with_tile"
SAME = "same_element_count_t4d"


def s4d4(opcode=0x4F, src=0x0, src_step=(1, 8, 8, 8), src_num=(8, 1, 1, 4), dst=0x1000, dst_step=(1, 8, 8, 8),
         dst_num=None, in_dt=FP32, out_dt=FP32, nac=128, op=ADD, op_dim=XYZ, rev=0, hdr=None, pokes=()):
    """S4D4_TSM (s4d4-tsm.md §2.1); src/dst are raw ADDR4 start addresses of the TENSOR4D patterns."""
    w = bytearray(64)
    header(w, opcode, **(hdr or {}))
    struct.pack_into("<I4h4H", w, 12, src, *src_step, *src_num)
    struct.pack_into("<BBBBBBB", w, 32, in_dt, out_dt, nac, 0, op, op_dim, rev)
    struct.pack_into("<I4h4H", w, 44, dst, *dst_step, *(src_num if dst_num is None else dst_num))
    for off, val in pokes:
        w[off] = val
    return w


# Named baselines of edge-cases.md §0.
def PM(**kw):
    return s4d4(**{"opcode": 0x4F, **kw})


def PMB(**kw):
    return s4d4(**{"opcode": 0x5F, "in_dt": U32, "out_dt": U32, "op": BITWISE_AND, **kw})


def add():
    """Adds the family's vectors through vec()."""
    # Baselines themselves (edge-cases.md §0); #117 restates one of them as a case.
    vec("base-PMB", ALL, [], PMB())

    # §8 TensorScalarPtrMulti 0x4F / 0x5F
    vec("117", ALL, [], PM())
    # DECISION (#118): the dst pattern follows W (dst num = {8,1,1,W}) so that only W is varied; otherwise
    # W = 1 and W = 8 could not be ACCEPT (same_element_count_t4d). With W = 0 both patterns have a zero count,
    # so tensor4d_valid fails for src and dst as well (same count 0 = 0 holds).
    vec("118a", ALL, [SLICES, T4D], PM(src_num=(8, 1, 1, 0)))
    vec("118b", ALL, [], PM(src_num=(8, 1, 1, 1)))
    vec("118c", ALL, [], PM(src_num=(8, 1, 1, 8)))
    vec("118d", ALL, [SLICES], PM(src_num=(8, 1, 1, 9)))
    vec("119a", ALL, [REV], PM(rev=1))
    vec("119b", ALL, [REV], PM(rev=2))
    vec("120", ALL, [], PM(rev=3))
    vec("121", ALL, [REV], PM(rev=4))
    for sfx, od in zip(letters(4), [0x00, 0x02, 0x03, 0x05]):
        vec("122" + sfx, ALL, [SUBDIM], PM(op_dim=od))
    sub = iter(letters(6))
    for op in (DIVIDE, POW, MOD):
        vec("123" + next(sub), ALL, [OPS], PM(op=op))
        vec("123" + next(sub), ALL, [OPS], PMB(op=op))
    for sfx, op in zip(letters(4), [RSQRT, CRC32, BITWISE_AND, LSL]):
        vec("124" + sfx, ALL, [OPS], PM(op=op))
    vec("125a", ALL, [OPS], PM(op=ADD_INT))
    # DECISION (#125b/c): "any int-band op, incl. AMAX_INT" on "all" gens -- AMAX_INT (0xDE) is not an ALU_OP
    # of SUNDA (present from CAYMAN on), so on SUNDA it also fails is_valid_aluop (valid_ops via is_valid_enum).
    vec("125b", CMV, [OPS], PM(op=AMAX_INT))
    vec("125c", S, [OPS, ALUOP], PM(op=AMAX_INT))
    vec("126", V, [OPS], PM(op=MAX_INT))
    vec("127", ALL, [], PMB(op=CRC32))
    for sfx, op in zip(letters(3), [ADD, LOGICAL_AND, MAX]):
        vec("128" + sfx, ALL, [OPS], PMB(op=op))
    vec("129a", ALL, [], PM(op=BYPASS))
    vec("129b", ALL, [], PMB(op=BYPASS))
    for sfx, op in zip(letters(4), [ABS_MAX, ABS_MIN, RE_LU, SQUARE]):
        vec("130" + sfx, SC, [OPS, ALUOP], PM(op=op))
        vec("131" + sfx, MV, [], PM(op=op))
    vec("132", V, [], PM(op=SYMMETRIC_CLAMP))
    vec("132/scm", SCM, [OPS, ALUOP], PM(op=SYMMETRIC_CLAMP))
    for sfx, op in zip(letters(3), [0x1E, 0x1F, 0x25]):
        vec("133" + sfx, ALL, [OPS, ALUOP], PM(op=op))
    vec("134", ALL, [], PMB(in_dt=U8, out_dt=U8))
    vec("135", ALL, [TYPES], PMB(in_dt=U8, out_dt=U16))
    for sfx, dt in zip(letters(3), [I8, I16, FP32]):
        vec("136" + sfx, ALL, [TYPES], PMB(in_dt=dt, out_dt=dt))
    vec("137", ALL, [VDT], PM(in_dt=FP32R))
    vec("138", ALL, [], PM(out_dt=FP32R))
    # #139: src 0x0 and dst 0x1000 are 8-aligned, so tensor4d_valid holds for the 8-byte dtypes.
    vec("139a", ALL, [VDT], PM(in_dt=U64))
    vec("139b", ALL, [VDT], PM(in_dt=I64))
    vec("139c", ALL, [VDT], PM(out_dt=U64))
    vec("139d", ALL, [VDT], PM(out_dt=I64))
    vec("140a", ALL, [], PM(out_dt=I16))
    vec("140b", ALL, [], PM(out_dt=U16))
    # DECISION (#141): every byte of reserved0 (35) and reserved1 (39..43) is covered, not only 35 and 43.
    for b in [35, 39, 40, 41, 42, 43]:
        vec(f"141-b{b}", ALL, [RES4], PM(pokes=[(b, 0x01)]))
    vec("142", ALL, [], PM(pokes=[(44, 0x04)]))
    # #143/#144: register-form ADDR4 = byte 3 0x80, reserved0 = 0, regnum 1 (src) / 2 (dst).
    vec("143a", SCM, [CHR], PM(nac=0))
    vec("143b", SCM, [CHR, SACH], PM(nac=129))
    vec("143c", SCM, [CHR], PM(nac=129, src=0x80000001, dst=0x80000002))
    # DECISION (#144): "some inst_flags" = header byte 3 (PROJ-CONV-C2) = 0x01.
    vec("144a", V, [CHR_TILE, SACH], PM(nac=129, hdr={"debug_hint": 0x01}))
    vec("144b", V, [CHR_TILE], PM(nac=129, src=0x80000001, dst=0x80000002, hdr={"debug_hint": 0x01}))
    vec("145", ALL, [SAME], PM(dst_num=(8, 1, 1, 3)))
    vec("146", ALL, [], PM(dst_num=(32, 1, 1, 1)))
    vec("147", ALL, [], PMB(op=LSL, in_dt=U8, out_dt=U8))
    vec("148b", ALL, [], PM())

    # §10 SUNDA Dual 0x87 / 0x88 and opcode-space traps
    vec("166", S, [], PM(opcode=0x87, src_num=(8, 1, 1, 4), rev=1))
    # DECISION (#167, #168b): as in #118 the dst pattern follows W, so same_element_count_t4d holds.
    vec("167", S, [SLICES_DUAL], PM(opcode=0x87, src_num=(8, 1, 1, 5)))
    vec("168a", S, [DUAL_OP], PMB(opcode=0x88))
    vec("168b", S, [DUAL_OP, SLICES_DUAL], PMB(opcode=0x88, src_num=(8, 1, 1, 5)))
    vec("169a", CMV, [HDR], PM(opcode=0x87))
    vec("169b", CMV, [HDR], PMB(opcode=0x88))
    vec("171", ALL, [], PM(hdr={"update_mode": 0x87}))

    # §11 Cross-cutting ALU / dtype traps
    vec("180", V, [], PM(in_dt=FP8E2))
    vec("181", M, [], PM(in_dt=FP4E2))
    for sfx, dt in zip(letters(3), [FP4E2, INT4, SFP8E8]):
        vec("182" + sfx, V, [VDT], PM(in_dt=dt))

    # ---- Derived boundaries (not numbered in edge-cases.md). Ids start with "d-". ----
    # PtrMulti dst at 0x2000000: PSUM partition 0 on SUNDA..MARIANA (written, so 4-byte dtypes only); SBUF
    # partition 32 on MAVERICK, where 32 + 128 channels overflow (PROJ-CONV-C15).
    vec("d-pm-dst-psum-fp32", SCM, [], PM(dst=0x2000000))
    vec("d-pm-dst-psum-fp16", SCM, [T4D], PM(dst=0x2000000, out_dt=FP16))
    vec("d-pm-dst-0x2000000/maverick", V, [SACH], PM(dst=0x2000000))
    vec("d-pm-dst-0x2000000-fp16/maverick", V, [SACH], PM(dst=0x2000000, out_dt=FP16))
