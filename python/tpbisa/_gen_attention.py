"""The `attention` kernel of tpbisa.gen: one causal attention tile per 128 queries,
output0 = softmax(mask(q k^T / sqrt(dh))) v, the query row r at position S - R + r of the S keys (docs/kernels.md has
the engine plan).

K and V are loaded once and K transposed (KT, dh on partitions). Per query tile: PE transposes q (qT); PE computes the
scores q k^T per 512 keys into PSUM (qT stationary, KT streamed); DVE copies them out scaled by 1/sqrt(dh); Pool applies
the causal mask (TensorScalarAffineSelect, -inf above the diagonal); softmax as the softmax kernel's (DVE max, ACT exp
with the row sum, DVE reciprocal), the probabilities P written in the input dtype; PE transposes P per 128 keys; PE
accumulates P V over the key blocks in one PSUM group; DVE scales by 1/sum into the output dtype and Pool stores.
"""

from __future__ import annotations

import math
from typing import Any

from . import _gen_pe as pe
from .gen import (DTYPES, PARTITIONS, Core, GenError, _chunks, _earlier, _finish, _imm, _load_tile, _store_tile,
                  pattern, sb)

T_BANK = 7  # PSUM bank of the transposes (4 slots)
S_BANKS = (0, 1)  # the score chunks alternate between two banks
O_BANKS = (2, 3)  # P V of successive query tiles alternates between two banks


def configure(k: Any, opts: dict[str, Any]) -> None:
    """q [R, dh], k [S, dh], v [S, dh] -> output0 [R, dh], in --dtype; R <= S, S a multiple of 128, dh <= 128."""
    r, s, dh, dt = opts["rows"], opts["cols"], opts["head_dim"], opts["dtype"]
    if not 1 <= dh <= PARTITIONS or dh * DTYPES[dt][1] % 4:
        raise GenError(f"--head-dim {dh}: 1 to {PARTITIONS}, a whole number of 4-byte words per row")
    if s % PARTITIONS or r > s:
        raise GenError(f"--cols {s} (keys): a multiple of {PARTITIONS}, at least --rows {r} (the queries are the "
                       "last R positions)")
    k.inputs = [("q", dt, [r, dh]), ("k", dt, [s, dh]), ("v", dt, [s, dh])]
    k.outputs = [("output0", dt, [r, dh])]


def table_func(opts: dict[str, Any]) -> str:
    return "exp"


def random_inputs(k: Any, rng: Any) -> dict[str, Any]:
    """Normal q, k, v (scores of order 1 after the 1/sqrt(dh) scale)."""
    return {n: rng.standard_normal(sh) for n, _, sh in k.inputs}


def scale_of(dh: int) -> float:
    """The score scale 1/sqrt(dh), as the fp32 immediate the program carries."""
    return 1.0 / math.sqrt(dh)


def build(core: Core, k: Any, tiles: list[int]) -> None:
    r, n_keys, dh, dt = k.opts["rows"], k.opts["cols"], k.opts["head_dim"], k.opts["dtype"]
    es = DTYPES[dt][1]
    kb_count = n_keys // PARTITIONS
    chunks = _chunks(n_keys, pe.NTILE)
    s = core.sbuf
    s.ring("q", 2, dh * es)
    s.ring("k", 1, kb_count * dh * es)  # block kb: keys 128 kb .. 128 kb + 127 on the partitions
    s.ring("v", 1, kb_count * dh * es)
    s.ring("kT", 1, n_keys * es)  # partition c < dh, element = key
    s.ring("qT", 2, PARTITIONS * es)
    s.ring("scores", 2, n_keys * 4)
    s.ring("p", 2, n_keys * es)
    s.ring("pT", 1, n_keys * es)  # partition = key mod 128, element kb*128 + query
    s.ring("negmax", 2, 4)
    s.ring("sum", 2, 4)
    s.ring("recip", 2, 4)
    s.ring("o", 2, dh * es)
    pe.table_load(core, k.tables["index"])
    ident = pe.build_identity(core, dt)
    id_off = s.at("ident")[0]
    # r6 = -inf, the masked scores' fill value.
    core.op("Pool", "Move", "num_mov=1 dtype=u32 move_source=IMMEDIATE src_registers={0,0,0,0,0,0,0,0} "
            "dst_registers={6,0,0,0,0,0,0,0} immediate={0xff800000,0,0,0,0,0,0,0}")
    t_slot = PARTITIONS * es
    transposes: list[Any] = []  # every transpose copied out of PSUM (the slot's reader)

    def through_psum(src: int, src_key: Any, dst: int, dst_key: Any, cols: int, waits: Any, copy_waits: Any = (),
                     tag: str | None = None) -> Any:
        """A PE transpose of a 128 x cols block into a bank-7 slot, ACT copying it to dst (cols partitions)."""
        n = len(transposes)
        key = ("psum", "t", n % 4)
        done = pe.transpose(core, src, dt, id_off, T_BANK, (n % 4) * t_slot, src_key, key,
                            waits=list(waits) + _earlier(transposes, n, 4), signal="pe_transpose", cols=cols, tag=tag)
        transposes.append(pe.copy_raw(core, "Activation", T_BANK, (n % 4) * t_slot, dst, t_slot, key, dst_key,
                                      waits=[done] + list(copy_waits), signal="act_copy", channels=cols))
        return done, transposes[-1]

    k_off, k_key = s.at("k")
    v_off, v_key = s.at("v")
    kT_off, kT_key = s.at("kT")
    kT_ready = []
    v_tok = []
    for kb in range(kb_count):
        width = dh * es
        k_tok = core.dma("in_k", "SP", (0x20, k.dge("k"), kb * PARTITIONS * width), (0x10, 0, k_off + kb * width),
                         width, width, 0x40000, dt, acc=[(("var", "k", kb), "r"), ((*k_key, kb), "w")])
        v_tok.append(core.dma("in_v", "SP", (0x20, k.dge("v"), kb * PARTITIONS * width),
                              (0x10, 0, v_off + kb * width), width, width, 0x40000, dt,
                              acc=[(("var", "v", kb), "r"), ((*v_key, kb), "w")]))
        kT_ready.append(through_psum(k_off + kb * width, (*k_key, kb), kT_off + kb * t_slot, kT_key, dh,
                                     [k_tok, ident])[1])
    q_done: list[Any] = []
    s_used: list[Any] = []  # the last score MATMUL of each query tile (the qT slot's last reader)
    s_evac: list[Any] = []  # each score chunk copied out of its bank
    sums: list[Any] = []  # ACT done with the scores and P of each tile
    p_done: list[Any] = []  # the last P transpose of each tile (the P slot's last reader)
    o_mm: list[Any] = []  # the last P V MATMUL of each tile (pT's last reader, the O bank complete)
    outs: list[Any] = []
    stores: list[Any] = []
    scale = scale_of(dh)
    for i, t in enumerate(tiles):
        q_off, q_key = s.at("q", i)
        qT_off, qT_key = s.at("qT", i)
        sc_off, sc_key = s.at("scores", i)
        p_off, p_key = s.at("p", i)
        pT_off, pT_key = s.at("pT")
        nm_off, nm_key = s.at("negmax", i)
        sum_off, sum_key = s.at("sum", i)
        rc_off, rc_key = s.at("recip", i)
        o_off, o_key = s.at("o", i)
        q_tok = _load_tile(core, k, "q", t, "q", i, _earlier(q_done, i))
        done, qT_tok = through_psum(q_off, q_key, qT_off, qT_key, dh, [q_tok, ident], _earlier(s_used, i))
        q_done.append(done)
        # Scores, 512 keys per bank: qT (dh x 128 queries) stationary, kT streamed.
        last = None
        for c0, n in chunks:
            ci = len(s_evac)
            bank, bank_key = S_BANKS[ci % 2], ("psum", "s", ci % 2)
            pe.ldweights(core, qT_off, PARTITIONS, dt, qT_key, waits=[qT_tok] + kT_ready[-1:], rows=dh)
            last = pe.matmul(core, kT_off + c0 * es, n, dt, bank, 0, 3, kT_key, bank_key,
                             waits=_earlier(s_evac, ci, 2), signal="pe_scores", rows=dh)
            s_evac.append(core.op(
                "DVE", "TensorScalarArithOp",
                f"src.start_addr={pe.psum(bank)} src.step_elem={{1,0,0}} src.num_elem={{{n},1,1}} in_dtype=fp32 "
                "out_dtype=fp32 num_active_channels=128 imm0_src=INSTRUCTION_IMMEDIATE op0=MULT op1=BYPASS "
                f"reverse_operands=NONE imm1_src=INSTRUCTION_IMMEDIATE imm0={_imm(scale)} imm1=0.0 "
                f"{pattern('dst', sc_off + c0 * 4, n, 3)}",
                waits=[last] + _earlier(sums, i), signal="dve_scale", acc=[(bank_key, "r"), (sc_key, "w")]))
        s_used.append(last)
        # The causal mask in place: keep key j where (S - R + 128 t + p) - j >= 0, else r6 = -inf.
        masked = core.op("Pool", "TensorScalarAffineSelect",
                         f"num_active_channels=128 in_out_dtype=0xaa fill_mode=GREATER_THAN_EQ fill_reg=6 "
                         f"mask.base={n_keys - r + t * PARTITIONS} mask.step_elem={{-1,0,0,0}} "
                         f"mask.num_elem={{{n_keys},1,1,1}} {pattern('src', sc_off, n_keys, 2)} "
                         f"{pattern('dst', sc_off, n_keys, 2)} channel_multiplier=1",
                         waits=[s_evac[-1]], signal="pool_mask", tag="mask", acc=[(sc_key, "r"), (sc_key, "w")])
        negmax = core.op("DVE", "TensorReduceArithOp",
                         f"{pattern('src', sc_off, n_keys, 4)} in_dtype=fp32 out_dtype=fp32 num_active_channels=128 "
                         f"negated=1 op=MAX op_dim=X {pattern('dst', nm_off, 1, 4)}",
                         waits=[masked], signal="dve_max", acc=[(sc_key, "r"), (nm_key, "w")])
        pe.activate(core, k.tables["func_id"], sb(sc_off), sb(p_off), n_keys, "fp32", dt, accumulate=True,
                    bias=sb(nm_off), waits=[negmax] + _earlier(p_done, i), tag="exp",
                    acc=[(sc_key, "r"), (nm_key, "r"), (p_key, "w")])
        sums.append(core.op("Activation", "ActivationReadAccumulator",
                            f"dst_element_count=1 dtype=fp32 num_active_channels=128 dst.start_addr={sb(sum_off)} "
                            "dst.step_elem=1 dst.num_elem=1", signal="act_sum", acc=[(sum_key, "w")]))
        core.op("DVE", "Reciprocal",
                f"{pattern('src', sum_off, 1, 4)} in_dtype=fp32 out_dtype=fp32 num_active_channels=128 op=BYPASS "
                f"op_dim=UNUSED {pattern('dst', rc_off, 1, 4)}", waits=[sums[-1]], acc=[(sum_key, "r"), (rc_key, "w")])
        # P -> pT per 128 keys, then P V accumulated over the key blocks.
        pT_ready = []
        for kb in range(kb_count):
            done, tok = through_psum(p_off + kb * t_slot, p_key, pT_off + kb * t_slot, (*pT_key, kb), PARTITIONS,
                                     [sums[-1]], o_mm[-1:] if kb == 0 else [])
            pT_ready.append(tok)
        p_done.append(done)
        o_bank, o_bank_key = O_BANKS[i % 2], ("psum", "o", i % 2)
        for kb in range(kb_count):
            pe.ldweights(core, pT_off + kb * t_slot, PARTITIONS, dt, (*pT_key, kb), waits=[pT_ready[kb]],
                         tag="pv" if kb == 0 else None)
            last = pe.matmul(core, v_off + kb * dh * es, dh, dt, o_bank, 0, pe.FLAGS[(kb == 0, kb == kb_count - 1)],
                             (*v_key, kb), o_bank_key, waits=[v_tok[kb]] + (_earlier(outs, i) if kb == 0 else []),
                             signal="pe_pv" if kb == kb_count - 1 else None)
        o_mm.append(last)
        outs.append(core.op(
            "DVE", "TensorScalarPtrArithOp",
            f"src.start_addr={pe.psum(o_bank)} src.step_elem={{1,0,0}} src.num_elem={{{dh},1,1}} in_dtype=fp32 "
            f"out_dtype={dt} num_active_channels=128 imm0_src=INSTRUCTION_IMMEDIATE op0=MULT op1=BYPASS "
            f"reverse_operands=NONE imm1_src=INSTRUCTION_IMMEDIATE imm0={sb(rc_off)} imm1={sb(rc_off)} "
            f"{pattern('dst', o_off, dh, 3)}",
            waits=[last] + _earlier(stores, i), signal="dve_out", acc=[(o_bank_key, "r"), (rc_key, "r"), (o_key, "w")]))
        stores.append(_store_tile(core, k, "output0", t, "o", i, [outs[-1]]))
    _finish(core, stores[-1:])
