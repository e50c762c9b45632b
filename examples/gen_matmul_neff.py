#!/usr/bin/env python3
"""Writes a NEFF that computes out = x @ y (x fp16 [128, K], y fp16 [K, N]) in the program shape of a compiled
CAYMAN matmul kernel (spec: real-programs.md §1 and §13, neff.md, sequencer.md §2), for any K (a multiple of 128)
and N (a multiple of 512 per core).

Per core (one subgraph; LNC 2 gives each of two cores half of the output columns):
  * transpose phase, per 128-column K-tile of x: Pool DMAs the x tile to SBUF; PE loads it as stationary
    weights (transpose_mode 1) and streams the identity (SP DMAs the constant) into a PSUM slot as FP16; the
    Activation engine COPYs the slot to SBUF as raw INT32 words and spills the xT tile to a `virtual` DRAM
    variable with its own 0xd4 DMA;
  * matmul phase, per 512-column N-tile: K-split accumulation groups of --group K-tiles into a PSUM bank
    (MULTI_START, MULTI_MID..., MULTI_END; banks reused round-robin across groups, --banks of them): SP reloads
    each xT tile from the spill, Pool DMAs the y tile (alternating two queues), PE runs LDWEIGHTS + MATMUL; DVE
    zeroes an FP32 accumulator (MEMSET), adds every finished bank into it (TENSOR_TENSOR ADD, src0 = the bank,
    src1 = dst = the accumulator), CASTs it to FP16, and Pool DMAs it to output0.
Every buffer is a ring; each semaphore has one producer (an engine's event update, or one DMA queue's completion,
+16 per transfer) and counts monotonically; a consumer waits `S >= count` exactly where a correct asynchronous
machine needs it (read after write, and write after read of every ring slot, DMA completion before use). An
instruction with two waits is preceded by an EVENT_SEMAPHORE that carries both (its two lanes).

The words are written as assembly text (docs/asm.md) and assembled with `tpbisa asm`; the folder is packed with
`tpbisa neff pack`. Before writing, the generator replays its own synchronisation model (every engine in order,
0xd4 synchronous at issue) and stops with an error if the program would deadlock or if two accesses of different
engines or DMA queues to one buffer are not ordered by program order and semaphore edges -- except where asked:
--drop-increment SEM must deadlock, --drop-wait must race. Usage: see --help and docs/generator.md.
"""
import argparse
import bisect
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

M = 128  # rows of x and of the output: one PE column (output partition) each
KTILE = 128  # contraction rows per PE pass (SBUF partitions)
NTILE = 512  # output columns per PSUM bank (2 KiB of FP32)
PART = 0x40000  # SBUF partition stride (a PartitionOffset's partition unit)
SB_ACTIVE = 0x37FF8  # SBUF bytes per partition below the runtime's reservation (def.json)
DMA_INC = 16  # a dynamic queue set's completion increment (= num_queues)
# The sparse spill layout of --sparse-big: row r of every xT tile lives at r * SPARSE_ROW_STRIDE, so each spill
# and reload walks past byte 2^32 of a variable larger than 4 GiB while touching only K * 256 bytes per row.
SPARSE_ROW_STRIDE = (1 << 25) + (1 << 21)  # 34 MiB: row 127 starts at 4318 MiB
SPILL_VAR_BYTES = 512 * 1024  # the compiler's spill granule: sixteen 32 KiB xT tiles per variable

ENGINES = ["PE", "Activation", "Pool", "DVE", "SP"]  # engine indices 0..4 (neff.md §7.1)
ENGINE_KEYS = {"PE": "pe", "Activation": "act", "Pool": "pool", "DVE": "dve", "SP": "sp"}

# Semaphores (per core). Engine-updated ones below the first queue set; each DMA stream has its queue set's
# semaphores (qSPDynamicHW 8..23 owned by SP, qPoolDynamic 24..39 by Pool, qActDynamicHW 40..55 by Activation).
SEM_ACT_COPY = 4  # Activation: xT tiles copied out of PSUM
SEM_PE_T = 5  # PE: transposes done
SEM_PE_MM = 6  # PE: matmul-phase MATMULs done
SEM_DVE_ADD = 7  # DVE: PSUM banks added into an accumulator (bank free again)
SEM_DVE_CAST = 56  # DVE: accumulators cast to FP16 (output tile ready)
DMA_STREAMS = {  # name -> (issuing engine, semaphores used round-robin)
    "identity": ("SP", [8]),
    "reload": ("SP", [9, 10]),
    "x": ("Pool", [24]),
    "y": ("Pool", [25, 26]),
    "out": ("Pool", [27]),
    "spill": ("Activation", [40]),
}
QUEUE_SETS = [("qSPDynamicHW", "sp", 8), ("qPoolDynamic", "pool", 24), ("qActDynamicHW", "act", 40)]

FLAG_MID, FLAG_START, FLAG_END, FLAG_SINGLE = 0, 1, 2, 3


class GenError(Exception):
    pass


def sb(off):
    return f"sbuf[p0]+{off:#x}"


def psum(bank, off=0):
    return f"psum[p0].bank{bank}+{off:#x}"


def lst(*v):
    return "{" + ",".join(str(int(x)) for x in v) + "}"


class Program:
    """One core's five streams, with the synchronisation model the self-check replays."""

    def __init__(self, sg, drop=None):
        self.sg = sg  # the subgraph's name, for labels
        self.lines = {e: ["SetOrderingMode ordering_mode=0", "PseudoBranchLabel label_id=0"] for e in ENGINES}
        # ops[e]: waits [(sem, value)], incs [(sem, amount)], acc [(buffer key, 'r'|'w')], dma (its semaphore)
        self.ops = {e: [self._op(text="SetOrderingMode"), self._op(text="PseudoBranchLabel")] for e in ENGINES}
        self.count = {}  # sem -> value after the last increment emitted
        self.producer = {}  # sem -> engine (or DMA stream) that raises it
        self.waited = {e: {} for e in ENGINES}  # highest value each engine already waited for, per semaphore
        self.rr = {name: 0 for name in DMA_STREAMS}
        self.drop = drop  # (sem, n): leave out the n-th increment (from 0) of S[sem]
        self.raised = {}  # sem -> increments emitted
        self.dropped = None  # label of the word whose increment was left out

    @staticmethod
    def _op(waits=(), incs=(), acc=(), dma=None, text=""):
        return {"waits": list(waits), "incs": list(incs), "acc": list(acc), "dma": dma, "text": text}

    def raise_sem(self, sem, amount, who):
        """Records an increment; returns (sem, value reached) -- the token a consumer waits for."""
        owner = self.producer.setdefault(sem, who)
        if owner != who:
            raise GenError(f"$S[{sem}] would have two producers ({owner}, {who})")
        self.count[sem] = self.count.get(sem, 0) + amount
        self.raised[sem] = self.raised.get(sem, 0) + 1
        return (sem, self.count[sem])

    def _needed(self, engine, waits):
        out = []
        for sem, value in waits:
            if value <= 0 or self.waited[engine].get(sem, 0) >= value:
                continue  # nothing to wait for, or already ordered by an earlier wait of this engine
            if any(s == sem for s, _ in out):
                out = [(s, max(v, value)) if s == sem else (s, v) for s, v in out]
                continue
            out.append((sem, value))
        return out

    def _wait_tokens(self, engine, waits):
        """Returns the wait text for the instruction itself; emits an EventSemaphore for each pair beyond one."""
        need = self._needed(engine, waits)
        for sem, value in need:
            self.waited[engine][sem] = max(self.waited[engine].get(sem, 0), value)
        while len(need) >= 2:
            (s0, v0), (s1, v1) = need[0], need[1]
            need = need[2:]
            self.lines[engine].append(
                f"EventSemaphore $S[{s0}]>={v0} ext.wait_mode=SEM_GE_IMM ext.wait_idx={s1} ext.sem_wait_value={v1}")
            self.ops[engine].append(self._op(waits=[(s0, v0), (s1, v1)], text="EventSemaphore"))
        if need:
            return f"$S[{need[0][0]}]>={need[0][1]} ", need
        return "", []

    def _dropping(self, sem):
        """True for the increment --drop-increment leaves out (called right after raise_sem)."""
        return self.drop is not None and self.drop == (sem, self.raised[sem] - 1)

    def engine_op(self, engine, mnemonic, operands, waits=(), update=None, acc=(), drop_wait=False):
        """An instruction of `engine`; `update` is a semaphore it increments by one on completion."""
        wait_text, model_waits = self._wait_tokens(engine, [] if drop_wait else waits)
        upd = ""
        incs = []
        token = None
        if update is not None:
            token = self.raise_sem(update, 1, engine)
            label = f"{engine}#{len(self.lines[engine])}"
            if self._dropping(update):
                self.dropped = f"{self.sg}/{label}"
            else:
                upd = f"$S[{update}]++@complete "
                incs = [(update, 1)]
        self.lines[engine].append(f"{mnemonic} {wait_text}{upd}{operands}".replace("  ", " ").rstrip())
        self.ops[engine].append(self._op(waits=model_waits, incs=incs, acc=acc, text=mnemonic))
        return token

    def dma(self, stream, src, dst, nbytes_row, src_step, dst_step, src_dtype="fp16", dst_dtype="fp16", waits=(),
            acc=()):
        """A PseudoDmaDirect2d of 128 rows of `nbytes_row` contiguous bytes; src/dst = (mode, id, offset)."""
        engine, sems = DMA_STREAMS[stream]
        sem = sems[self.rr[stream] % len(sems)]
        self.rr[stream] += 1
        wait_text, model_waits = self._wait_tokens(engine, waits)
        token = self.raise_sem(sem, DMA_INC, f"{stream} DMA")
        inc = DMA_INC
        if self._dropping(sem):
            self.dropped = f"{self.sg}/{engine}#{len(self.lines[engine])}"
            inc = 0
        (smode, sid, soff), (dmode, did, doff) = src, dst
        for off in (soff, doff):
            if not 0 <= off < 1 << 32:
                raise GenError(f"a DMA offset {off:#x} does not fit the 32-bit offset field")
        self.lines[engine].append(
            f"PseudoDmaDirect2d {wait_text}semaphore={sem} sem_increment={inc} "
            f"src.offset={soff} src.id={sid:#x} src.mode={smode:#x} src_step={lst(src_step, 1)} src_num={{128,1}} "
            f"src_elem_size={nbytes_row} dst.offset={doff} dst.id={did:#x} dst.mode={dmode:#x} "
            f"dst_step={lst(dst_step, 1)} dst_num={{128,1}} dst_elem_size={nbytes_row} "
            f"src_dtype={src_dtype} dst_dtype={dst_dtype}")
        self.ops[engine].append(
            self._op(waits=model_waits, incs=[(sem, inc)] if inc else [], acc=acc, dma=sem,
                     text=f"PseudoDmaDirect2d ({stream})"))
        return token


def check_program(prog):
    """Replays the synchronisation model: engines in program order, a wait blocks until its semaphore reaches the
    value, 0xd4 moves its data and signals at issue. Happens-before: program order per engine; each DMA queue
    (one per semaphore) is an actor ordered after the issuing engine's earlier instructions and after its own
    earlier transfers, whose completion increment carries its clock. Returns (deadlock text or None, races, sems)."""
    actors = list(ENGINES) + sorted({f"dma{s}" for _, (_, sems) in DMA_STREAMS.items() for s in sems})
    index = {a: i for i, a in enumerate(actors)}
    n = len(actors)
    vc = {a: [0] * n for a in actors}
    sem_val = {}
    releases = {}  # sem -> ([value after each increment], [clock of its releasing actor])
    pc = {e: 0 for e in ENGINES}
    last_write = {}  # key -> (actor, epoch, label)
    reads = {}  # key -> {actor: (epoch, label)}
    races = []

    def joined(clock, sem, value):
        # The release that first took the count to `value` (counts never decrease: one producer, adds only).
        values, clocks = releases[sem]
        rel = clocks[bisect.bisect_left(values, value)]
        return [max(a, b) for a, b in zip(clock, rel)]

    def access(actor, clock, key, kind, label):
        me = index[actor]
        w = last_write.get(key)
        if w and w[0] != actor and clock[index[w[0]]] < w[1]:
            races.append((w[2], label, " ".join(map(str, key))))
        if kind == "w":
            for ra, (ep, rl) in reads.get(key, {}).items():
                if ra != actor and clock[index[ra]] < ep:
                    races.append((rl, label, " ".join(map(str, key))))
            last_write[key] = (actor, clock[me], label)
            reads[key] = {}
        else:
            reads.setdefault(key, {})[actor] = (clock[me], label)

    progress = True
    while progress:
        progress = False
        for e in ENGINES:
            ops = prog.ops[e]
            while pc[e] < len(ops):
                op = ops[pc[e]]
                if any(sem_val.get(s, 0) < v for s, v in op["waits"]):
                    break
                clock = vc[e]
                for s, v in op["waits"]:
                    clock = joined(clock, s, v)
                clock[index[e]] += 1
                vc[e] = clock
                label = f"{prog.sg}/{e}#{pc[e]} {op['text']}"
                if op["dma"] is not None:
                    q = f"dma{op['dma']}"
                    qc = [max(a, b) for a, b in zip(vc[q], clock)]
                    qc[index[q]] += 1
                    vc[q] = qc
                    for key, kind in op["acc"]:
                        access(q, qc, key, kind, label)
                    rel = qc
                else:
                    for key, kind in op["acc"]:
                        access(e, clock, key, kind, label)
                    rel = clock
                for s, amount in op["incs"]:
                    sem_val[s] = sem_val.get(s, 0) + amount
                    values, clocks = releases.setdefault(s, ([], []))
                    values.append(sem_val[s])
                    clocks.append(list(rel))
                pc[e] += 1
                progress = True
    blocked = [e for e in ENGINES if pc[e] < len(prog.ops[e])]
    deadlock = None
    if blocked:
        parts = []
        for e in blocked:
            op = prog.ops[e][pc[e]]
            w = ", ".join(f"$S[{s}]>={v} (is {sem_val.get(s, 0)})" for s, v in op["waits"] if sem_val.get(s, 0) < v)
            parts.append(f"{prog.sg}/{e}#{pc[e]} {op['text']} waits {w}")
        deadlock = "; ".join(parts)
    return deadlock, races, sem_val


def build_core(args, core, spill_vars, drop=None):
    """The five streams of core `core`. Instructions are emitted in an interleaving of the engines' program
    orders in which every producer comes before its consumers, so each wait names a count already emitted."""
    K, N, lnc = args.k, args.n, args.lnc
    kt_count = K // KTILE
    n_core = N // lnc
    nt_count = n_core // NTILE
    col0 = core * n_core
    groups_per_nt = -(-kt_count // args.group)
    banks = args.banks

    # SBUF layout (bytes of every partition): rings of slots.
    rings = {"acc": (2, 4 * NTILE), "ob": (2, 2 * NTILE), "xs": (4, 2 * KTILE), "xts": (4, 2 * KTILE),
             "xr": (4, 2 * KTILE), "ys": (4, 2 * NTILE), "id": (1, 2 * KTILE)}
    base = {}
    off = 0
    for name, (slots, size) in rings.items():
        base[name] = off
        off += slots * size
    assert off <= SB_ACTIVE

    def slot(name, i):
        slots, size = rings[name]
        return base[name] + (i % slots) * size, ("sb", name, i % slots)

    def earlier(tokens, i, ring):
        """The write-after-read wait for slot reuse: the token of the use `ring` places back, if any."""
        return [tokens[i - ring]] if i >= ring else []

    t_slots, t_bank = 4, 7  # transposes: 256-byte FP16 slots of PSUM bank 7
    p = Program(f"sg{core:02d}", drop)
    sbvar = lambda o: (0x10, 0, o)  # noqa: E731 -- the state buffer, var 0: a PartitionOffset
    lw_walk = "src.step_elem={-1,0,-32} src.num_elem={32,1,4} in_dtype=fp16 fp32_mode=0"  # row backwards

    # The identity, moving operand of every transpose.
    id_off, id_key = slot("id", 0)
    identity = p.dma("identity", (0x10, 4, 0), sbvar(id_off), 2 * KTILE, 2 * KTILE, PART,
                     acc=[(("var", "identity"), "r"), (id_key, "w")])

    # Transpose phase: x tile -> PE transpose -> PSUM (FP16) -> COPY to SBUF -> spill to DRAM.
    t_done, copied, spilled = [], [], []
    for kt in range(kt_count):
        xs_off, xs_key = slot("xs", kt)
        x_tok = p.dma("x", (0x20, 0, kt * 2 * KTILE), sbvar(xs_off), 2 * KTILE, 2 * K, PART,
                      waits=earlier(t_done, kt, rings["xs"][0]), acc=[(("var", "x", kt), "r"), (xs_key, "w")])
        t_off = (kt % t_slots) * 2 * KTILE
        t_key = ("psum", "t", kt % t_slots)
        p.engine_op("PE", "Ldweights",
                    f"src.start_addr={sb(xs_off + 2 * KTILE - 2)} {lw_walk} transpose_mode=1 perf_opt=0 "
                    "num_active_rows=128 num_active_cols=128 row_grp=15 col_grp=15",
                    waits=[x_tok], acc=[(xs_key, "r")])
        t_done.append(p.engine_op(
            "PE", "Matmul",
            f"src.start_addr={sb(id_off)} src.step_elem={{1,0,0}} src.num_elem={{128,1,1}} in_dtype=fp16 "
            "fp32_mode=0 transpose_mode=1 perf_opt=0 num_active_rows=128 num_active_cols=128 out_dtype=0 "
            f"psum_accumulate_flags={FLAG_SINGLE} row_grp=15 col_grp=15 active_row_mode=0 psum_zero_region=0 "
            f"dst.start_addr={psum(t_bank, t_off)} dst.step_elem={{1,0,0}} dst.num_elem={{128,1,1}}",
            waits=[identity] + earlier(copied, kt, t_slots), update=SEM_PE_T,
            acc=[(id_key, "r"), (t_key, "w")]))
        xts_off, xts_key = slot("xts", kt)
        copied.append(p.engine_op(
            "Activation", "Copy",
            f"src.start_addr={psum(t_bank, t_off)} src.step_elem={{1,1,1,1}} src.num_elem={{64,1,1,1}} "
            "in_dtype=i32 out_dtype=i32 num_active_channels=128 op=BYPASS op_dim=UNUSED "
            f"dst.start_addr={sb(xts_off)} dst.step_elem={{1,1,1,1}} dst.num_elem={{64,1,1,1}}",
            waits=[t_done[kt]] + earlier(spilled, kt, rings["xts"][0]), update=SEM_ACT_COPY,
            acc=[(t_key, "r"), (xts_key, "w")]))
        var_id, var_off, row_step = spill_vars(kt)
        # No wait: a DMA starts after its engine's earlier instructions (the COPY) have completed.
        spilled.append(p.dma("spill", sbvar(xts_off), (0x10, var_id, var_off), 2 * KTILE, PART, row_step,
                             acc=[(xts_key, "r"), (("spill", kt), "w")]))

    # Matmul phase, one step per (N-tile, K-tile): SP reloads xT, Pool loads y, PE LDWEIGHTS + MATMUL into the
    # group's bank; after a group's last MATMUL, DVE adds the bank into the N-tile's accumulator; after an
    # N-tile's last group, DVE casts it and (a few y tiles later) Pool writes it out.
    mm_done, adds, casts, outs = [], [], [], []
    ys_ring, xr_ring, ob_ring = rings["ys"][0], rings["xr"][0], rings["ob"][0]

    def out_dma(nt):
        ob_off, ob_key = slot("ob", nt)
        outs.append(p.dma("out", sbvar(ob_off), (0x20, 2, (col0 + nt * NTILE) * 2), 2 * NTILE, PART, 2 * N,
                          waits=[casts[nt]], acc=[(ob_key, "r"), (("var", "output0", core, nt), "w")]))

    i = 0
    gidx = 0
    for nt in range(nt_count):
        acc_off, acc_key = slot("acc", nt)
        for g in range(groups_per_nt):
            kts = list(range(g * args.group, min(kt_count, (g + 1) * args.group)))
            bank = gidx % banks
            bank_key = ("psum", "bank", bank)
            for j, kt in enumerate(kts):
                first, last = j == 0, j == len(kts) - 1
                if nt > 0 and g == 0 and j == min(ys_ring, len(kts)) - 1:
                    out_dma(nt - 1)  # pipelined: the previous N-tile leaves once this one's loads are under way
                xr_off, xr_key = slot("xr", i)
                var_id, var_off, row_step = spill_vars(kt)
                reload = p.dma("reload", (0x10, var_id, var_off), sbvar(xr_off), 2 * KTILE, row_step, PART,
                               waits=[spilled[kt]] + earlier(mm_done, i, xr_ring),
                               acc=[(("spill", kt), "r"), (xr_key, "w")])
                ys_off, ys_key = slot("ys", i)
                y = p.dma("y", (0x20, 1, (kt * KTILE * N + col0 + nt * NTILE) * 2), sbvar(ys_off), 2 * NTILE,
                          2 * N, PART, waits=earlier(mm_done, i, ys_ring),
                          acc=[(("var", "y", kt, nt), "r"), (ys_key, "w")])
                p.engine_op("PE", "Ldweights",
                            f"src.start_addr={sb(xr_off + 2 * KTILE - 2)} {lw_walk} transpose_mode=0 perf_opt=0 "
                            "num_active_rows=128 num_active_cols=128 row_grp=15 col_grp=15",
                            waits=[reload], acc=[(xr_key, "r")])
                flags = (FLAG_SINGLE if last else FLAG_START) if first else (FLAG_END if last else FLAG_MID)
                mm_done.append(p.engine_op(
                    "PE", "Matmul",
                    f"src.start_addr={sb(ys_off)} src.step_elem={{1,0,0}} src.num_elem={{{NTILE},1,1}} "
                    "in_dtype=fp16 fp32_mode=0 transpose_mode=0 perf_opt=0 num_active_rows=128 "
                    f"num_active_cols=128 out_dtype=0 psum_accumulate_flags={flags} row_grp=15 col_grp=15 "
                    f"active_row_mode=0 psum_zero_region=0 dst.start_addr={psum(bank)} dst.step_elem={{1,0,0}} "
                    f"dst.num_elem={{{NTILE},1,1}}",
                    waits=[y] + (earlier(adds, gidx, banks) if first else []), update=SEM_PE_MM,
                    acc=[(ys_key, "r")] + ([(bank_key, "w")] if first else [(bank_key, "r"), (bank_key, "w")])))
                i += 1
            if g == 0:
                p.engine_op("DVE", "Memset",
                            f"dst_element_count={NTILE} dtype=fp32 num_active_channels=128 serialization_mode=0 "
                            f"set_value=0x0 dst.start_addr={sb(acc_off)} dst.step_elem={{1,1,1,1}} "
                            f"dst.num_elem={{{NTILE},1,1,1}}", acc=[(acc_key, "w")])
            adds.append(p.engine_op(
                "DVE", "TensorTensorArithOp",
                "in0_in1_dtype={fp32,fp32} out_dtype=fp32 op=ADD num_active_channels=128 "
                f"src0.start_addr={psum(bank)} src0.step_elem={{1,0,0}} src0.num_elem={{{NTILE},1,1}} "
                f"src1.start_addr={sb(acc_off)} src1.step_elem={{1,0,0}} src1.num_elem={{{NTILE},1,1}} "
                f"dst.start_addr={sb(acc_off)} dst.step_elem={{1,0,0}} dst.num_elem={{{NTILE},1,1}}",
                waits=[mm_done[-1]], update=SEM_DVE_ADD,
                acc=[(bank_key, "r"), (acc_key, "r"), (acc_key, "w")], drop_wait=args.drop_wait and gidx == 0))
            gidx += 1
        ob_off, ob_key = slot("ob", nt)
        casts.append(p.engine_op(
            "DVE", "Cast",
            f"src.start_addr={sb(acc_off)} src.step_elem={{1,1,1,1}} src.num_elem={{{NTILE},1,1,1}} "
            "in_dtype=fp32 out_dtype=fp16 num_active_channels=128 op=BYPASS op_dim=UNUSED "
            f"dst.start_addr={sb(ob_off)} dst.step_elem={{1,1,1,1}} dst.num_elem={{{NTILE},1,1,1}}",
            waits=earlier(outs, nt, ob_ring), update=SEM_DVE_CAST, acc=[(acc_key, "r"), (ob_key, "w")]))
    out_dma(nt_count - 1)
    # The Pool queue must not finish before the last output transfer has landed (matmul_small's Pool#06).
    p.engine_op("Pool", "Nop", "", waits=[outs[-1]])
    return p


def drop_one_increment(args, core, spill_vars, full):
    """Rebuilds the core without one increment of S[SEM] such that the program deadlocks: the first increment,
    else the one that reaches the highest value waited for, else the last. A producer that may run ahead of its
    waits (DVE's bank adds run up to --banks groups ahead of PE) can lose any one increment without a hang."""
    sem = args.drop_increment
    n = full.raised.get(sem, 0)
    if n == 0:
        raise GenError(f"--drop-increment {sem}: no word of core {core} raises $S[{sem}]")
    amount = full.count[sem] // n
    waited = [v for ops in full.ops.values() for op in ops for s, v in op["waits"] if s == sem]
    candidates = [0] + ([max(waited) // amount - 1] if waited else []) + [n - 1]
    for nth in dict.fromkeys(candidates):
        prog = build_core(args, core, spill_vars, drop=(sem, nth))
        deadlock, _, _ = check_program(prog)
        if deadlock:
            return prog, deadlock
    raise GenError(f"--drop-increment {sem}: without any one increment of $S[{sem}] the program still completes "
                   f"(its producer runs ahead of every wait on it); choose another semaphore (--print-sems)")


def spill_layout(args, core):
    """Returns (variables, spill_vars(kt) -> (var_id, offset, row step)) for core `core`."""
    kt_count = args.k // KTILE
    tile = KTILE * 2 * KTILE  # 32 KiB
    first_id = 6
    sg = f"sg{core:04d}"
    if args.sparse_big:
        size = KTILE * SPARSE_ROW_STRIDE
        if kt_count * 2 * KTILE > SPARSE_ROW_STRIDE:
            raise GenError("--sparse-big: K is too large for the sparse spill layout")
        variables = {f"xT_spill_big_{sg}": {"type": "virtual", "var_id": first_id, "size": size,
                                            "backing_variable_off": 0, "ops": []}}
        return variables, lambda kt: (first_id, kt * 2 * KTILE, SPARSE_ROW_STRIDE)
    per_var = SPILL_VAR_BYTES // tile
    nvars = -(-kt_count // per_var)
    variables = {}
    for v in range(nvars):
        variables[f"xT_spill_{sg}_{v}"] = {"type": "virtual", "var_id": first_id + v, "size": SPILL_VAR_BYTES,
                                           "backing_variable_off": v * SPILL_VAR_BYTES, "ops": []}
    return variables, lambda kt: (first_id + kt // per_var, (kt % per_var) * tile, 2 * KTILE)


def def_json(args, variables):
    var = {
        "SB": {"type": "state-buffer", "var_id": 0},
        "x": {"ops": [], "size": M * args.k * 2, "type": "input", "var_id": 1},
        "y": {"ops": [], "size": args.k * args.n * 2, "type": "input", "var_id": 2},
        "output0": {"ops": [], "size": M * args.n * 2, "type": "output", "var_id": 3},
        "identity_sg0000": {"alignment": 32768, "fabric_path": "main", "file_name": "value_identity_CRSM.npy",
                            "ops": [], "size": KTILE * KTILE * 2, "type": "file", "var_id": 4},
        "DGETable0": {"list": [1, 2, 3], "type": "dge-table", "var_id": 5},
    }
    var.update(variables)
    queues = {}
    for name, owner, first in QUEUE_SETS:
        queues[name] = {"fabric_path": "main", "num_queues": 16, "owner": owner,
                        "semaphore_set": list(range(first, first + 16)), "type": "dynamic"}
    d = {"version": "0.6", "name": "definition", "#rank_world_size": 0, "cc_streams": {"num_streams": 0},
         "debug_info": {}, "dma_queue": queues, "var": var,
         "fp8_conversion_config": {"emax_fp8_e4m3": 8, "emax_fp8_e5m2": 15, "fp8_range_extension": True,
                                   "fp8_sis": False, "fp8_sns": False, "ocp_sat": True},
         "neff_features": ["neff_feature_vnc"] if args.lnc == 2 else [],
         "runtime_event_count": 12, "runtime_semaphore_count": 3,
         "runtime_statebuffer_reservation": [{"base_partition": 0, "offset": SB_ACTIVE, "partitions": 128,
                                              "size": 8, "type": "evtaccel"}]}
    for e in ENGINES:
        d[ENGINE_KEYS[e]] = f"{e}.json"
        d[ENGINE_KEYS[e] + "_instr"] = f"{e}.bin"
    return d


def neff_json(args):
    outs = args.lnc
    return {
        "nodes": [
            {"op": "null", "name": "x", "inputs": [], "output_names": ["x"], "is_param": "0"},
            {"op": "null", "name": "y", "inputs": [], "output_names": ["y"], "is_param": "0"},
            {"op": "tvm_op", "name": "sg_coreV10",
             "attrs": {"func_name": "__kelf", "flatten_data": "0", "num_inputs": "2", "kelf": "kelf-0.json",
                       "num_outputs": str(outs)},
             "inputs": [[0, 0, 0], [1, 0, 0]], "output_names": ["output0"] * outs},
        ],
        "arg_nodes": [0, 1],
        "heads": [[2, i, 0] for i in range(outs)],
        "attrs": {"shape": ["list_shape", [[M, args.k], [args.k, args.n]] + [[M, args.n]] * outs],
                  "storage_id": ["list_int", list(range(2 + outs))],
                  "dltype": ["list_str", ["float16"] * (2 + outs)]},
        "node_row_ptr": [0, 1, 2, 2 + outs],
        "metadata": {"signatures": {"default": {
            "inputs": {"x": {"id": 0, "dtype": "float16", "shape": [M, args.k]},
                       "y": {"id": 1, "dtype": "float16", "shape": [args.k, args.n]}},
            "outputs": {}}}},
    }


def write_npy_identity(path):
    np.save(path, np.eye(KTILE, dtype=np.float16).reshape(KTILE, KTILE, 1, 1))


def find_tool(name):
    """--tpbisa, else $TPBISA, else tpbisa on PATH, else the build folder of this checkout."""
    if name:
        return name
    if os.environ.get("TPBISA"):
        return os.environ["TPBISA"]
    on_path = shutil.which("tpbisa")
    if on_path:
        return on_path
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "tpbisa")


def run_tool(tool, argv):
    try:
        p = subprocess.run([tool] + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        raise GenError(f"cannot run {tool} ({e.strerror}); name the binary with --tpbisa or $TPBISA")
    if p.returncode != 0:
        raise GenError(f"{os.path.basename(tool)} {' '.join(argv[:2])} failed (exit {p.returncode}):\n"
                       f"{p.stderr.strip()[:4000]}")
    return p.stdout


def write_inputs(args, out_dir):
    """x.npy, y.npy (random integers in [-2, 2], fp16) and ref.npy, in row blocks: never 4 GiB in memory."""
    os.makedirs(out_dir, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    x = rng.integers(-2, 3, size=(M, args.k), dtype=np.int8).astype(np.float16)
    np.save(os.path.join(out_dir, "x.npy"), x)
    y = np.lib.format.open_memmap(os.path.join(out_dir, "y.npy"), mode="w+", dtype=np.float16,
                                  shape=(args.k, args.n))
    x32 = x.astype(np.float32)
    acc = np.zeros((M, args.n), dtype=np.float32)
    rows = max(KTILE, (64 << 20) // (2 * args.n) // KTILE * KTILE)  # about 64 MiB of y per block
    for r0 in range(0, args.k, rows):
        r1 = min(args.k, r0 + rows)
        block = rng.integers(-2, 3, size=(r1 - r0, args.n), dtype=np.int8).astype(np.float16)
        y[r0:r1] = block
        acc += x32[:, r0:r1] @ block.astype(np.float32)  # exact: integer sums far below 2^24
    y.flush()
    del y
    np.save(os.path.join(out_dir, "ref.npy"), acc.astype(np.float16))


def parse_args(argv):
    ap = argparse.ArgumentParser(description="Write a compiled-style matmul NEFF: out = x @ y, x fp16 [128, K], "
                                 "y fp16 [K, N].")
    ap.add_argument("--k", type=int, default=256, help="contraction size, a multiple of 128 (default 256)")
    ap.add_argument("--n", type=int, default=1024, help="output columns, a multiple of 512 per core (default 1024)")
    ap.add_argument("--lnc", type=int, choices=[1, 2], default=1,
                    help="1: one core; 2: two cores (subgraphs sg00, sg01) each computing half of the columns")
    ap.add_argument("--group", type=int, default=8, help="K-tiles per PSUM accumulation group (default 8)")
    ap.add_argument("--banks", type=int, default=4, help="PSUM banks the groups rotate through (1..7, default 4)")
    ap.add_argument("--out", default="matmul.neff", help="the NEFF to write (default matmul.neff)")
    ap.add_argument("--write-inputs", metavar="DIR", help="also write x.npy, y.npy and ref.npy into DIR")
    ap.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default 0)")
    ap.add_argument("--drop-increment", type=int, metavar="SEM",
                    help="leave out the first increment of semaphore SEM (on every core): the program deadlocks")
    ap.add_argument("--drop-wait", action="store_true",
                    help="leave out the wait of the first DVE add on its PSUM group: the program has a race")
    ap.add_argument("--sparse-big", action="store_true",
                    help="spill into one virtual variable of 4.25 GiB whose rows lie 34 MiB apart, so every spill "
                    "and reload addresses bytes past 2^32 while touching only K*256 bytes per row")
    ap.add_argument("--tpbisa", help="the tpbisa binary (default: $TPBISA, else tpbisa on PATH, else build/tpbisa "
                    "of this checkout)")
    ap.add_argument("--keep", metavar="DIR", help="also keep the unpacked folder (assembly, streams, JSON) in DIR")
    ap.add_argument("--print-sems", action="store_true", help="print each core's semaphores and final values")
    a = ap.parse_args(argv)
    if a.k <= 0 or a.k % KTILE:
        ap.error(f"--k {a.k}: must be a positive multiple of {KTILE}")
    if a.n <= 0 or a.n % (NTILE * a.lnc):
        ap.error(f"--n {a.n}: must be a positive multiple of {NTILE * a.lnc} (512 columns per core)")
    if not 1 <= a.banks <= 7:
        ap.error(f"--banks {a.banks}: must be 1..7 (bank 7 holds the transposes)")
    if a.group < 1:
        ap.error("--group must be at least 1")
    if a.drop_increment is not None and not 0 <= a.drop_increment < 256:
        ap.error("--drop-increment: a semaphore 0..255")
    return a


def main(argv):
    args = parse_args(argv)
    tool = find_tool(args.tpbisa)
    work = tempfile.mkdtemp(prefix="gen_matmul_neff.")
    try:
        folder = os.path.join(work, "neff")
        os.makedirs(folder)
        with open(os.path.join(folder, "neff.json"), "w") as f:
            json.dump(neff_json(args), f, indent=1)
        with open(os.path.join(folder, "kelf-0.json"), "w") as f:
            json.dump({"graphs": [{"definition": f"sg{c:02d}/def.json", "name": f"sg{c:02d}"}
                                  for c in range(args.lnc)], "version": "0.5", "target": "cayman"}, f, indent=1)
        with open(os.path.join(folder, "info.json"), "w") as f:
            json.dump({"tool_version": "tpbisa examples/gen_matmul_neff.py", "name": os.path.basename(args.out),
                       "num_tpb": 1, "num_tpb_requested": 1, "num_tpb_per_node": [1] + [0] * 63}, f, indent=1)
        words = 0
        for core in range(args.lnc):
            sg = os.path.join(folder, f"sg{core:02d}")
            os.makedirs(sg)
            variables, spill_vars = spill_layout(args, core)
            prog = build_core(args, core, spill_vars)
            deadlock, races, sems = check_program(prog)
            if args.drop_increment is not None:
                prog, deadlock = drop_one_increment(args, core, spill_vars, prog)
            where = f"core {core} (sg{core:02d})"
            if args.drop_increment is not None:
                print(f"{where}: dropped the $S[{args.drop_increment}] increment of {prog.dropped}; "
                      f"the program deadlocks: {deadlock}")
            elif deadlock:
                raise GenError(f"{where}: the program deadlocks: {deadlock}")
            if args.drop_wait:
                if not races:
                    raise GenError(f"{where}: dropping the wait leaves no race")
                print(f"{where}: dropped the wait of the first DVE add; unordered accesses: {races[0][0]} and "
                      f"{races[0][1]} on {races[0][2]}" + (f" (and {len(races) - 1} more)" if len(races) > 1 else ""))
            elif races:
                raise GenError(f"{where}: unordered accesses: " + "; ".join(f"{a} and {b} on {k}" for a, b, k in races[:3]))
            if args.print_sems:
                print(f"{where}: final semaphores " + " ".join(f"$S[{s}]={v}" for s, v in sorted(sems.items())))
            with open(os.path.join(sg, "def.json"), "w") as f:
                json.dump(def_json(args, variables), f, indent=1)
            write_npy_identity(os.path.join(sg, "value_identity_CRSM.npy"))
            for e in ENGINES:
                with open(os.path.join(sg, f"{e}.json"), "w") as f:
                    json.dump({"dma": [], "instr": f"{e}.bin", "name": f"{e}.json"}, f)
                src = os.path.join(work, f"sg{core:02d}_{e}.tasm")
                with open(src, "w") as f:
                    f.write("; gen: cayman\n" + "\n".join(prog.lines[e]) + "\n")
                run_tool(tool, ["asm", "--gen", "cayman", src, "-o", os.path.join(sg, f"{e}.bin")])
                words += len(prog.lines[e])
                if args.keep:
                    shutil.copy(src, os.path.join(sg, f"{e}.tasm.txt"))
        pack = ["neff", "pack", "--lnc", str(args.lnc), "--name", os.path.basename(args.out), folder, args.out]
        if args.keep:
            if os.path.exists(args.keep):
                raise GenError(f"--keep {args.keep}: exists")
            shutil.copytree(folder, args.keep)
            for root, _, files in os.walk(folder):  # the assembly copies are for --keep only, not packed
                for name in files:
                    if name.endswith(".tasm.txt"):
                        os.remove(os.path.join(root, name))
        run_tool(tool, pack)
        macs = M * args.k * args.n
        print(f"wrote {args.out}: x fp16 [{M}, {args.k}] @ y fp16 [{args.k}, {args.n}], lnc {args.lnc}, "
              f"{words} words, {macs} MACs")
        if args.write_inputs:
            write_inputs(args, args.write_inputs)
            print(f"wrote {args.write_inputs}/x.npy, y.npy, ref.npy")
    except GenError as e:
        print(f"gen_matmul_neff: error: {e}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
