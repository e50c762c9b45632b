"""Kernel NEFFs written by tpbisa itself: layernorm, rmsnorm, softmax, top-k, a causal mask, an MLP and a causal
attention tile (docs/kernels.md; the last two in their own modules, _gen_mlp.py and _gen_attention.py).

Each program has the shape of a compiled kernel: per core five engine streams (PE, Activation, Pool, DVE, SP) written
as assembly (docs/asm.md), semaphores between them, DMA queues for the loads and stores, the inputs and outputs of a
signature, one core or two (LNC 2: each core takes half of the row tiles). The row tiles of 128 rows (one row per SBUF
partition) are double-buffered: the load of tile i+1 runs while tile i is computed and tile i-1 stored.

Before anything is written the program's synchronisation is replayed (every engine in program order, a wait blocking
until its semaphore reaches the value, a DMA moving its data and signalling at issue): a deadlock, or two accesses of
different engines or DMA queues to one buffer with no order between them (one a write), stops the generator -- unless
a negative control asked for it (`--drop-wait TAG`, which then reports the race).

Front ends: `tpbisa gen KERNEL ...` (the command runs this module), `python -m tpbisa.gen KERNEL ...`, and the
functions `layernorm(...)`, `rmsnorm(...)`, `softmax(...)`, `topk(...)`, `causal_mask(...)`, `mlp(...)`,
`attention(...)`, which write a NEFF and return it opened as a `tpbisa.Neff`. A kernel that uses the activation engine
(softmax, mlp, attention) carries activation tables:
tpbisa's own piecewise-cubic fits (_act_fit.py), or those of a NEFF the user names (`--tables-from F.neff`).
"""

from __future__ import annotations

import argparse
import bisect
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Any, Callable

import numpy as np

from ._act_fit import own_tables

PARTITIONS = 128  # rows per tile: one row per SBUF partition
PART = 0x40000  # SBUF partition stride (a PartitionOffset's partition unit)
SB_ACTIVE = 0x37FF8  # SBUF bytes per partition below the runtime's reservation
DMA_INC = 16  # a dynamic queue set's completion increment (= its num_queues)
BN_FMAX = 512  # elements per BatchNormStats2 (the public kernels' chunk)
ENGINES = ["PE", "Activation", "Pool", "DVE", "SP"]  # engine indices 0..4
ENGINE_KEYS = {"PE": "pe", "Activation": "act", "Pool": "pool", "DVE": "dve", "SP": "sp"}
# Queue sets (name, owner key, first semaphore): each DMA of an engine completes on a semaphore of its own set.
QUEUE_SETS = [("qSPDynamicHW", "SP", 8), ("qPoolDynamic", "Pool", 24), ("qActDynamicHW", "Activation", 40)]
ENGINE_SEMS = [4, 5, 6, 7] + list(range(56, 128))  # semaphores raised by engine instructions
# dtype name -> (signature dtype, bytes, DTYPE code of the words)
DTYPES = {"fp32": ("float32", 4, 0xA), "bf16": ("bfloat16", 2, 0x6), "fp16": ("float16", 2, 0x7),
          "u32": ("uint32", 4, 0x9), "i32": ("int32", 4, 0x8)}
KERNELS = ["layernorm", "rmsnorm", "softmax", "topk", "causal_mask", "mlp", "attention"]
# Kernels in their own modules: configure(kernel, opts) sets the signature, build(core, kernel, tiles) the streams,
# table_func(opts) names the activation function, random_inputs(kernel, rng) the inputs' scale.
PLUGINS = {"mlp": "_gen_mlp", "attention": "_gen_attention"}
TABLE_KERNELS = {"softmax": "exp"}  # kernel -> the activation function it needs from the tables (PLUGINS: table_func)


class GenError(Exception):
    """A program the generator refuses (a shape, a deadlock, a race it was not asked for, a tool failure)."""


def sb(off: int) -> str:
    return f"sbuf[p0]+{off:#x}"


def lst(*v: int) -> str:
    return "{" + ",".join(str(int(x)) for x in v) + "}"


def pattern(prefix: str, off: int, n: int, dims: int, step: int = 1) -> str:
    """An access pattern of `n` consecutive elements (`dims` step/num entries), as the families write it."""
    steps = [step] + [0] * (dims - 1)
    nums = [n] + [1] * (dims - 1)
    return f"{prefix}.start_addr={sb(off)} {prefix}.step_elem={lst(*steps)} {prefix}.num_elem={lst(*nums)}"


class Sbuf:
    """A bump allocator of SBUF bytes per partition: regions and rings of slots, below the runtime's reservation."""

    def __init__(self) -> None:
        self.top = 0
        self.regions: dict[str, tuple[int, int, int]] = {}  # name -> (base, slots, slot bytes)

    def ring(self, name: str, slots: int, size: int) -> None:
        size = -(-size // 64) * 64  # each slot on a 64-byte boundary
        self.regions[name] = (self.top, slots, size)
        self.top += slots * size
        if self.top > SB_ACTIVE:
            raise GenError(f"the buffers need {self.top} bytes per partition; SBUF has {SB_ACTIVE} below the "
                           "runtime's reservation (choose fewer columns or a narrower dtype)")

    def at(self, name: str, i: int = 0) -> tuple[int, tuple[str, str, int]]:
        """Offset of slot `i` (mod the ring) and its key for the replay."""
        base, slots, size = self.regions[name]
        return base + (i % slots) * size, ("sb", name, i % slots)


class Core:
    """One core's five streams, with the synchronisation model the replay checks."""

    def __init__(self, sg: str, drop_wait: str | None = None) -> None:
        self.sg = sg
        self.lines: dict[str, list[str]] = {
            e: ["SetOrderingMode ordering_mode=0", "PseudoBranchLabel label_id=0"] for e in ENGINES}
        self.ops: dict[str, list[dict[str, Any]]] = {e: [self._op("SetOrderingMode"), self._op("PseudoBranchLabel")]
                                                    for e in ENGINES}
        self.sbuf = Sbuf()
        self.count: dict[int, int] = {}  # semaphore -> value after the last increment written
        self.sem_names: dict[str, int] = {}  # engine semaphore name -> number
        self.sem_owner: dict[int, str] = {}
        self.queues: dict[str, tuple[str, int]] = {}  # DMA queue name -> (engine, semaphore)
        self.next_engine_sem = 0
        self.next_queue_sem = {owner: first for _, owner, first in QUEUE_SETS}
        self.waited: dict[str, dict[int, int]] = {e: {} for e in ENGINES}
        self.drop_wait = drop_wait  # tag of the instruction whose waits are left out (once)
        self.dropped: str | None = None  # its label

    @staticmethod
    def _op(text: str, waits: Any = (), incs: Any = (), acc: Any = (), dma: int | None = None) -> dict[str, Any]:
        return {"waits": list(waits), "incs": list(incs), "acc": list(acc), "dma": dma, "text": text}

    def _engine_sem(self, name: str, engine: str) -> int:
        if name not in self.sem_names:
            if self.next_engine_sem >= len(ENGINE_SEMS):
                raise GenError("out of engine semaphores")
            self.sem_names[name] = ENGINE_SEMS[self.next_engine_sem]
            self.next_engine_sem += 1
        sem = self.sem_names[name]
        owner = self.sem_owner.setdefault(sem, engine)
        if owner != engine:
            raise GenError(f"$S[{sem}] ({name}) would have two producers ({owner}, {engine})")
        return sem

    def _queue_sem(self, name: str, engine: str) -> int:
        if name not in self.queues:
            sem = self.next_queue_sem[engine]
            first = next(f for _, o, f in QUEUE_SETS if o == engine)
            if sem >= first + 16:
                raise GenError(f"out of {engine} queue semaphores")
            self.next_queue_sem[engine] = sem + 1
            self.queues[name] = (engine, sem)
        return self.queues[name][1]

    def _raise(self, sem: int, amount: int) -> tuple[int, int]:
        self.count[sem] = self.count.get(sem, 0) + amount
        return (sem, self.count[sem])

    def _wait_text(self, engine: str, waits: Any, tag: str | None) -> tuple[str, list[tuple[int, int]]]:
        """The instruction's own wait; an EventSemaphore (two lanes) for each further pair of waits."""
        if tag is not None and tag == self.drop_wait and self.dropped is None:
            self.dropped = f"{self.sg}/{engine}#{len(self.lines[engine])}"
            return "", []
        need: list[tuple[int, int]] = []
        for tok in waits:
            if tok is None:
                continue
            sem, value = tok
            if value <= 0 or self.waited[engine].get(sem, 0) >= value:
                continue  # nothing to wait for, or ordered by an earlier wait of this engine
            need = [(s, v) for s, v in need if s != sem] + [(sem, max([value] + [v for s, v in need if s == sem]))]
        for sem, value in need:
            self.waited[engine][sem] = max(self.waited[engine].get(sem, 0), value)
        while len(need) >= 2:
            (s0, v0), (s1, v1) = need[0], need[1]
            need = need[2:]
            self.lines[engine].append(
                f"EventSemaphore $S[{s0}]>={v0} ext.wait_mode=SEM_GE_IMM ext.wait_idx={s1} ext.sem_wait_value={v1}")
            self.ops[engine].append(self._op("EventSemaphore", waits=[(s0, v0), (s1, v1)]))
        if need:
            return f"$S[{need[0][0]}]>={need[0][1]} ", need
        return "", []

    def op(self, engine: str, mnemonic: str, operands: str, waits: Any = (), signal: str | None = None,
           acc: Any = (), tag: str | None = None) -> tuple[int, int] | None:
        """An instruction of `engine`; `signal` names the engine semaphore it raises by one on completion. Returns
        the token (semaphore, value) a consumer waits for."""
        wait_text, model_waits = self._wait_text(engine, waits, tag)
        upd, incs, token = "", [], None
        if signal is not None:
            sem = self._engine_sem(signal, engine)
            token = self._raise(sem, 1)
            upd, incs = f"$S[{sem}]++@complete ", [(sem, 1)]
        self.lines[engine].append(f"{mnemonic} {wait_text}{upd}{operands}".replace("  ", " ").rstrip())
        self.ops[engine].append(self._op(mnemonic, model_waits, incs, acc))
        return token

    def dma(self, queue: str, engine: str, src: tuple[int, int, int], dst: tuple[int, int, int], row_bytes: int,
            src_step: int, dst_step: int, dtype: str, waits: Any = (), acc: Any = (), tag: str | None = None,
            rows: int = PARTITIONS) -> tuple[int, int]:
        """A PseudoDmaDirect2d of `rows` rows of `row_bytes` contiguous bytes issued by `engine` on queue `queue`;
        src/dst = (mode, id, offset): mode 0x20 addresses the DGE table, 0x10 a variable (0 = the state buffer)."""
        if row_bytes > 0xFFFF:
            raise GenError(f"a DMA row of {row_bytes} bytes does not fit the 16-bit element size")
        sem = self._queue_sem(queue, engine)
        wait_text, model_waits = self._wait_text(engine, waits, tag)
        token = self._raise(sem, DMA_INC)
        (smode, sid, soff), (dmode, did, doff) = src, dst
        self.lines[engine].append(
            f"PseudoDmaDirect2d {wait_text}semaphore={sem} sem_increment={DMA_INC} "
            f"src.offset={soff} src.id={sid:#x} src.mode={smode:#x} src_step={lst(src_step, 1)} src_num={{{rows},1}} "
            f"src_elem_size={row_bytes} dst.offset={doff} dst.id={did:#x} dst.mode={dmode:#x} "
            f"dst_step={lst(dst_step, 1)} dst_num={{{rows},1}} dst_elem_size={row_bytes} "
            f"src_dtype={dtype} dst_dtype={dtype}")
        self.ops[engine].append(self._op(f"PseudoDmaDirect2d ({queue})", model_waits, [(sem, DMA_INC)], acc, sem))
        return token

    def words(self) -> int:
        return sum(len(v) for v in self.lines.values())


def replay(core: Core) -> tuple[str | None, list[tuple[str, str, str]], dict[int, int]]:
    """Replays the synchronisation model: engines in program order, a wait blocks until its semaphore reaches the
    value, a DMA moves its data and signals at issue. Happens-before: program order per engine, semaphore edges, and
    each DMA queue an actor ordered after its engine's earlier instructions and its own earlier transfers. Returns
    (deadlock text or None, unordered pairs, final semaphore values)."""
    queue_actors = sorted({f"dma{s}" for _, s in core.queues.values()})
    actors = ENGINES + queue_actors
    index = {a: i for i, a in enumerate(actors)}
    vc = {a: [0] * len(actors) for a in actors}
    sem_val: dict[int, int] = {}
    releases: dict[int, tuple[list[int], list[list[int]]]] = {}
    pc = {e: 0 for e in ENGINES}
    last_write: dict[Any, tuple[str, int, str]] = {}
    reads: dict[Any, dict[str, tuple[int, str]]] = {}
    races: list[tuple[str, str, str]] = []

    def joined(clock: list[int], sem: int, value: int) -> list[int]:
        values, clocks = releases[sem]
        rel = clocks[bisect.bisect_left(values, value)]  # the release that first reached `value`
        return [max(a, b) for a, b in zip(clock, rel)]

    def access(actor: str, clock: list[int], key: Any, kind: str, label: str) -> None:
        w = last_write.get(key)
        if w and w[0] != actor and clock[index[w[0]]] < w[1]:
            races.append((w[2], label, " ".join(map(str, key))))
        if kind == "w":
            for ra, (ep, rl) in reads.get(key, {}).items():
                if ra != actor and clock[index[ra]] < ep:
                    races.append((rl, label, " ".join(map(str, key))))
            last_write[key] = (actor, clock[index[actor]], label)
            reads[key] = {}
        else:
            reads.setdefault(key, {})[actor] = (clock[index[actor]], label)

    progress = True
    while progress:
        progress = False
        for e in ENGINES:
            ops = core.ops[e]
            while pc[e] < len(ops):
                op = ops[pc[e]]
                if any(sem_val.get(s, 0) < v for s, v in op["waits"]):
                    break
                clock = vc[e]
                for s, v in op["waits"]:
                    clock = joined(clock, s, v)
                clock[index[e]] += 1
                vc[e] = clock
                label = f"{core.sg}/{e}#{pc[e]} {op['text']}"
                actor, rel = e, clock
                if op["dma"] is not None:
                    actor = f"dma{op['dma']}"
                    rel = [max(a, b) for a, b in zip(vc[actor], clock)]
                    rel[index[actor]] += 1
                    vc[actor] = rel
                for key, kind in op["acc"]:
                    access(actor, rel, key, kind, label)
                for s, amount in op["incs"]:
                    sem_val[s] = sem_val.get(s, 0) + amount
                    values, clocks = releases.setdefault(s, ([], []))
                    values.append(sem_val[s])
                    clocks.append(list(rel))
                pc[e] += 1
                progress = True
    deadlock = None
    blocked = [e for e in ENGINES if pc[e] < len(core.ops[e])]
    if blocked:
        parts = []
        for e in blocked:
            op = core.ops[e][pc[e]]
            w = ", ".join(f"$S[{s}]>={v} (is {sem_val.get(s, 0)})" for s, v in op["waits"] if sem_val.get(s, 0) < v)
            parts.append(f"{core.sg}/{e}#{pc[e]} {op['text']} waits {w}")
        deadlock = "; ".join(parts)
    return deadlock, races, sem_val


# ---- The kernels. Each builds one core's streams for its row tiles; `io` maps a signature name to its DGE index. ----

def _chunks(n: int, size: int) -> list[tuple[int, int]]:
    return [(c, min(size, n - c)) for c in range(0, n, size)]


def _load_tile(core: Core, k: "Kernel", name: str, tile: int, region: str, i: int, waits: Any,
               tag: str | None = None) -> tuple[int, int]:
    """SP loads row tile `tile` of input `name` (rows on partitions) into slot i of `region`."""
    dt = k.dtype_of(name)
    row = k.shape_of(name)[1] * DTYPES[dt][1]
    off, key = core.sbuf.at(region, i)
    return core.dma(f"in_{name}", "SP", (0x20, k.dge(name), tile * PARTITIONS * row), (0x10, 0, off), row, row, PART,
                    dt, waits=waits, acc=[(("var", name, tile), "r"), (key, "w")], tag=tag)


def _store_tile(core: Core, k: "Kernel", name: str, tile: int, region: str, i: int, waits: Any) -> tuple[int, int]:
    """Pool stores slot i of `region` into row tile `tile` of output `name`."""
    dt = k.dtype_of(name)
    row = k.shape_of(name)[1] * DTYPES[dt][1]
    off, key = core.sbuf.at(region, i)
    return core.dma(f"out_{name}", "Pool", (0x10, 0, off), (0x20, k.dge(name), tile * PARTITIONS * row), row, PART,
                    row, dt, waits=waits, acc=[(key, "r"), (("var", name, tile), "w")])


def _load_broadcast(core: Core, k: "Kernel", name: str, region: str) -> tuple[int, int]:
    """SP loads the vector input `name` [D] into every partition (a source step of 0)."""
    dt = k.dtype_of(name)
    row = k.shape_of(name)[0] * DTYPES[dt][1]
    off, key = core.sbuf.at(region)
    return core.dma(f"in_{name}", "SP", (0x20, k.dge(name), 0), (0x10, 0, off), row, 0, PART, dt,
                    acc=[(("var", name), "r"), (key, "w")])


def _earlier(tokens: list[Any], i: int, ring: int = 2) -> list[Any]:
    """The write-after-read wait for reusing a ring slot: the token of the use `ring` tiles back."""
    return [tokens[i - ring]] if i >= ring else []


def _finish(core: Core, stores: list[Any]) -> None:
    """Pool's queue must not end before its last store has landed (as a compiled kernel's last Pool word does)."""
    core.op("Pool", "Nop", "", waits=[t for t in stores if t is not None])


def _stt(src0: int, src1: int, dst: int, n: int, op0: str, op1: str, imm0: int, dt0: str, dt1: str,
         dt_out: str) -> str:
    """ScalarTensorTensorArith operands: dst = (src0 op0 imm0) op1 src1, imm0 a per-partition fp32 pointer; the
    dtype pair holds src0's dtype in its low nibble, src1's in its high one."""
    pair = DTYPES[dt1][2] * 0x10 + DTYPES[dt0][2]
    return (f"{pattern('src0', src0, n, 2)} {pattern('src1', src1, n, 2)} op0={op0} op1={op1} "
            f"imm0_src=POINTER_IMMEDIATE in0_in1_dtype={pair:#x} out_dtype={dt_out} num_active_channels=128 "
            f"imm0_dtype=fp32 {pattern('dst', dst, n, 2)} imm0={sb(imm0)}")


def _imm(v: float) -> str:
    """An fp32 immediate as its shortest decimal (it reads back to the same fp32)."""
    return str(np.float32(v))


def _ts(src: int, dst: int, n: int, op0: str, imm0: float, op1: str = "BYPASS", imm1: float = 0.0,
        dt_in: str = "fp32", dt_out: str = "fp32") -> str:
    """TensorScalarArithOp operands with inline immediates: dst = (src op0 imm0) op1 imm1."""
    return (f"{pattern('src', src, n, 3)} in_dtype={dt_in} out_dtype={dt_out} num_active_channels=128 "
            f"imm0_src=INSTRUCTION_IMMEDIATE op0={op0} op1={op1} reverse_operands=NONE "
            f"imm1_src=INSTRUCTION_IMMEDIATE imm0={_imm(imm0)} imm1={_imm(imm1)} {pattern('dst', dst, n, 3)}")


def build_layernorm(core: Core, k: "Kernel", tiles: list[int]) -> None:
    """y = (x - mean) * gamma * rsqrt(var + eps) + beta per row (see docs/kernels.md for the engine plan)."""
    d, dt, eps = k.opts["cols"], k.opts["dtype"], k.opts["eps"]
    es = DTYPES[dt][1]
    chunks = _chunks(d, BN_FMAX)
    s = core.sbuf
    s.ring("gamma", 1, d * es)
    s.ring("beta", 1, d * es)
    s.ring("x", 2, d * es)
    if dt != "fp32":
        s.ring("t", 1, d * 4)  # the fp32 intermediate (in place in the x slot when x is fp32)
    s.ring("stats", 2, 6 * len(chunks) * 4)
    s.ring("agg", 2, 8)  # mean, var
    s.ring("rstd", 2, 4)
    s.ring("y", 2, d * es)
    g_tok = _load_broadcast(core, k, "gamma", "gamma")
    b_tok = _load_broadcast(core, k, "beta", "beta")
    normed: list[Any] = []
    stores: list[Any] = []
    for i, t in enumerate(tiles):
        x_off, x_key = s.at("x", i)
        st_off, st_key = s.at("stats", i)
        ag_off, ag_key = s.at("agg", i)
        rs_off, rs_key = s.at("rstd", i)
        y_off, y_key = s.at("y", i)
        t_off, t_key = s.at("t") if dt != "fp32" else (x_off, x_key)
        x_tok = _load_tile(core, k, "x", t, "x", i, _earlier(normed, i))
        for c, (c0, n) in enumerate(chunks):
            core.op("DVE", "BatchNormStats2",
                    f"{pattern('src', x_off + c0 * es, n, 4)} in_dtype={dt} out_dtype=fp32 num_active_channels=128 "
                    f"even_count={_imm((n + 1) // 2)} odd_count={_imm(n // 2)} "
                    f"{pattern('dst', st_off + 24 * c, 6, 2)}",
                    waits=[x_tok], acc=[(x_key, "r"), (st_key, "w")], tag="stats" if c == 0 else None)
        agg = core.op("DVE", "BatchNormAggregate",
                      f"{pattern('src', st_off, 6 * len(chunks), 4)} in_dtype=fp32 out_dtype=fp32 "
                      f"num_active_channels=128 {pattern('dst', ag_off, 2, 2)}",
                      signal="dve_stats", acc=[(st_key, "r"), (ag_key, "w")])
        core.op("Pool", "TensorScalarArithOp", _ts(ag_off + 4, rs_off, 1, "ADD", eps), waits=[agg],
                acc=[(ag_key, "r"), (rs_key, "w")], tag="eps")
        rstd = core.op("Pool", "TensorScalarArithOp", _ts(rs_off, rs_off, 1, "RSQRT", 0.0), signal="pool_rstd",
                       acc=[(rs_key, "r"), (rs_key, "w")])
        core.op("DVE", "ScalarTensorTensorArith",
                _stt(x_off, s.at("gamma")[0], t_off, d, "SUBTRACT", "MULT", ag_off, dt, dt, "fp32"),
                waits=[g_tok], acc=[(x_key, "r"), (("sb", "gamma", 0), "r"), (ag_key, "r"), (t_key, "w")])
        normed.append(core.op(
            "DVE", "ScalarTensorTensorArith", _stt(t_off, s.at("beta")[0], y_off, d, "MULT", "ADD", rs_off, "fp32", dt,
                                                   dt),
            waits=[rstd, b_tok] + _earlier(stores, i), signal="dve_norm", tag="norm",
            acc=[(t_key, "r"), (("sb", "beta", 0), "r"), (rs_key, "r"), (y_key, "w")]))
        stores.append(_store_tile(core, k, "output0", t, "y", i, [normed[-1]]))
    _finish(core, stores[-1:])


def build_rmsnorm(core: Core, k: "Kernel", tiles: list[int]) -> None:
    """y = x * rsqrt(mean(x^2) + eps) * gamma per row."""
    d, dt, eps = k.opts["cols"], k.opts["dtype"], k.opts["eps"]
    es = DTYPES[dt][1]
    s = core.sbuf
    s.ring("gamma", 1, d * es)
    s.ring("x", 2, d * es)
    s.ring("sq", 1, d * 4)
    s.ring("ss", 2, 4)
    s.ring("rstd", 2, 4)
    s.ring("y", 2, d * es)
    g_tok = _load_broadcast(core, k, "gamma", "gamma")
    scaled: list[Any] = []
    stores: list[Any] = []
    for i, t in enumerate(tiles):
        x_off, x_key = s.at("x", i)
        sq_off, sq_key = s.at("sq")
        ss_off, ss_key = s.at("ss", i)
        rs_off, rs_key = s.at("rstd", i)
        y_off, y_key = s.at("y", i)
        x_tok = _load_tile(core, k, "x", t, "x", i, _earlier(scaled, i))
        core.op("DVE", "TensorTensorArithOp",
                f"in0_in1_dtype={{{dt},{dt}}} out_dtype=fp32 op=MULT num_active_channels=128 "
                f"{pattern('src0', x_off, d, 3)} {pattern('src1', x_off, d, 3)} {pattern('dst', sq_off, d, 3)}",
                waits=[x_tok], acc=[(x_key, "r"), (sq_key, "w")], tag="square")
        ss = core.op("DVE", "TensorReduceArithOp",
                     f"{pattern('src', sq_off, d, 4)} in_dtype=fp32 out_dtype=fp32 num_active_channels=128 op=ADD "
                     f"op_dim=X {pattern('dst', ss_off, 1, 4)}",
                     signal="dve_sum", acc=[(sq_key, "r"), (ss_key, "w")])
        core.op("Pool", "TensorScalarArithOp", _ts(ss_off, rs_off, 1, "MULT", 1.0 / d, "ADD", eps),
                waits=[ss], acc=[(ss_key, "r"), (rs_key, "w")], tag="mean")
        rstd = core.op("Pool", "TensorScalarArithOp", _ts(rs_off, rs_off, 1, "RSQRT", 0.0), signal="pool_rstd",
                       acc=[(rs_key, "r"), (rs_key, "w")])
        scaled.append(core.op(
            "DVE", "ScalarTensorTensorArith",
            _stt(x_off, s.at("gamma")[0], y_off, d, "MULT", "MULT", rs_off, dt, dt, dt),
            waits=[rstd, g_tok] + _earlier(stores, i), signal="dve_scale", tag="scale",
            acc=[(x_key, "r"), (("sb", "gamma", 0), "r"), (rs_key, "r"), (y_key, "w")]))
        stores.append(_store_tile(core, k, "output0", t, "y", i, [scaled[-1]]))
    _finish(core, stores[-1:])


def build_topk(core: Core, k: "Kernel", tiles: list[int]) -> None:
    """values, indices = the k largest of each row, largest first (ties: the lower index first)."""
    n, kk = k.opts["cols"], k.opts["k"]
    s = core.sbuf
    s.ring("x", 2, n * 4)
    s.ring("vals", 2, kk * 4)
    s.ring("idx", 2, kk * 4)
    done: list[Any] = []
    stores_v: list[Any] = []
    stores_i: list[Any] = []
    for i, t in enumerate(tiles):
        x_off, x_key = s.at("x", i)
        v_off, v_key = s.at("vals", i)
        ix_off, ix_key = s.at("idx", i)
        x_tok = _load_tile(core, k, "x", t, "x", i, _earlier(done, i))
        tok = None
        for r in range(kk // 8):
            last = r == kk // 8 - 1
            core.op("DVE", "Max8",
                    f"{pattern('src', x_off, n, 4)} in_dtype=fp32 out_dtype=fp32 num_active_channels=128 "
                    f"{pattern('dst', v_off + 32 * r, 8, 2)}",
                    waits=[x_tok] + (_earlier(stores_v, i) if r == 0 else []), tag="max8" if r == 0 else None,
                    acc=[(x_key, "r"), (v_key, "w")])
            # The match values: the eight maxima, loaded from the 8th backwards (MV[s] = the s-th largest).
            core.op("DVE", "MatchValueLoad",
                    f"src_mem_pattern.start_addr={sb(v_off + 32 * r + 28)} src_mem_pattern.step_elem={{-1,0}} "
                    "src_mem_pattern.num_elem={8,1} imm1=0.0 dtype=fp32 num_active_channels=128 imm0_ptr=0.0 "
                    "imm0_src=INSTRUCTION_IMMEDIATE", acc=[(v_key, "r")])
            core.op("DVE", "FindIndex8",
                    f"{pattern('src', x_off, n, 4)} in_dtype=fp32 out_dtype=u32 num_active_channels=128 "
                    f"{pattern('dst', ix_off + 32 * r, 8, 2)}",
                    waits=_earlier(stores_i, i) if r == 0 else [], acc=[(x_key, "r"), (ix_key, "w")])
            tok = core.op("DVE", "MatchReplace8",
                          f"{pattern('src', x_off, n, 4)} in_dtype=fp32 out_dtype=fp32 num_active_channels=128 "
                          f"immediate=-inf {pattern('dst', x_off, n, 4)}",
                          signal="dve_round" if last else None, acc=[(x_key, "r"), (x_key, "w")])
        done.append(tok)
        stores_v.append(_store_tile(core, k, "values", t, "vals", i, [tok]))
        stores_i.append(_store_tile(core, k, "indices", t, "idx", i, [tok]))
    _finish(core, stores_v[-1:] + stores_i[-1:])


def build_causal_mask(core: Core, k: "Kernel", tiles: list[int]) -> None:
    """output0 = x where column j <= row r, else -inf; relpos = j - r (int32), for scores x [R, S]."""
    n = k.opts["cols"]
    s = core.sbuf
    s.ring("x", 2, n * 4)
    s.ring("y", 2, n * 4)
    s.ring("pos", 2, n * 4)
    # r5 = -inf, the fill value AFFINE_SELECT reads from Pool's register file.
    core.op("Pool", "Move", "num_mov=1 dtype=u32 move_source=IMMEDIATE src_registers={0,0,0,0,0,0,0,0} "
            "dst_registers={5,0,0,0,0,0,0,0} immediate={0xff800000,0,0,0,0,0,0,0}")
    masked: list[Any] = []
    stores_y: list[Any] = []
    stores_p: list[Any] = []
    for i, t in enumerate(tiles):
        x_off, x_key = s.at("x", i)
        y_off, y_key = s.at("y", i)
        p_off, p_key = s.at("pos", i)
        x_tok = _load_tile(core, k, "x", t, "x", i, _earlier(masked, i))
        row0 = t * PARTITIONS
        core.op("Pool", "Iota", k.iota_operands(p_off, n, -row0), waits=_earlier(stores_p, i),
                acc=[(p_key, "w")])
        masked.append(core.op("Pool", "TensorScalarAffineSelect", k.affine_select_operands(x_off, y_off, n, row0),
                              waits=[x_tok] + _earlier(stores_y, i), signal="pool_mask", tag="select",
                              acc=[(x_key, "r"), (y_key, "w")]))
        stores_y.append(_store_tile(core, k, "output0", t, "y", i, [masked[-1]]))
        stores_p.append(_store_tile(core, k, "relpos", t, "pos", i, [masked[-1]]))
    _finish(core, stores_y[-1:] + stores_p[-1:])


def build_softmax(core: Core, k: "Kernel", tiles: list[int]) -> None:
    """y = exp(x - max(x)) / sum(exp(x - max(x))) per row, exp from the NEFF's activation tables."""
    d = k.opts["cols"]
    s = core.sbuf
    s.ring("x", 2, d * 4)  # x, then exp(x - max) in place
    s.ring("negmax", 2, 4)
    s.ring("sum", 2, 4)
    s.ring("recip", 2, 4)
    s.ring("y", 2, d * 4)
    # The set the ACTIVATEs read: its index in act_info.json is byte 35 of the load (reserved0[23], PROJ-CONV-A6).
    index = [0] * 27
    index[23] = k.tables["index"]
    core.op("Activation", "ActivationTableLoad", "reserved0={" + ",".join(f"{b:#x}" for b in index) + "}")
    scaled: list[Any] = []
    stores: list[Any] = []
    for i, t in enumerate(tiles):
        x_off, x_key = s.at("x", i)
        nm_off, nm_key = s.at("negmax", i)
        sum_off, sum_key = s.at("sum", i)
        rc_off, rc_key = s.at("recip", i)
        y_off, y_key = s.at("y", i)
        x_tok = _load_tile(core, k, "x", t, "x", i, _earlier(scaled, i))
        negmax = core.op("DVE", "TensorReduceArithOp",
                         f"{pattern('src', x_off, d, 4)} in_dtype=fp32 out_dtype=fp32 num_active_channels=128 "
                         f"negated=1 op=MAX op_dim=X {pattern('dst', nm_off, 1, 4)}",
                         waits=[x_tok], signal="dve_max", acc=[(x_key, "r"), (nm_key, "w")])
        # exp(1.0 * x + (-max)), the bias a per-partition pointer; the accumulators sum the row from +0.
        core.op("Activation", "Activate",
                "imm_src=INSTRUCTION_IMMEDIATE scale_src=INSTRUCTION_IMMEDIATE accumulator_cmd=ZERO_ACCUMULATE "
                f"bias_src_n=0 {pattern('src', x_off, d, 3)} in_bias_dtype=0xaa out_dtype=fp32 "
                f"num_active_channels=128 activation_func={k.tables['func_id']} scale_value=1.0 bias={sb(nm_off)} "
                f"imm=0.0 {pattern('dst', x_off, d, 3)}",
                waits=[negmax], tag="exp", acc=[(x_key, "r"), (nm_key, "r"), (x_key, "w")])
        total = core.op("Activation", "ActivationReadAccumulator",
                        f"dst_element_count=1 dtype=fp32 num_active_channels=128 dst.start_addr={sb(sum_off)} "
                        "dst.step_elem=1 dst.num_elem=1", signal="act_sum", acc=[(sum_key, "w")])
        core.op("DVE", "Reciprocal",
                f"{pattern('src', sum_off, 1, 4)} in_dtype=fp32 out_dtype=fp32 num_active_channels=128 op=BYPASS "
                f"op_dim=UNUSED {pattern('dst', rc_off, 1, 4)}",
                waits=[total], tag="recip", acc=[(sum_key, "r"), (rc_key, "w")])
        scaled.append(core.op(
            "DVE", "TensorScalarPtrArithOp",
            f"{pattern('src', x_off, d, 3)} in_dtype=fp32 out_dtype=fp32 num_active_channels=128 "
            "imm0_src=INSTRUCTION_IMMEDIATE op0=MULT op1=BYPASS reverse_operands=NONE imm1_src=INSTRUCTION_IMMEDIATE "
            f"imm0={sb(rc_off)} imm1={sb(rc_off)} {pattern('dst', y_off, d, 3)}",
            waits=_earlier(stores, i), signal="dve_scale",
            acc=[(x_key, "r"), (rc_key, "r"), (y_key, "w")]))
        stores.append(_store_tile(core, k, "output0", t, "y", i, [scaled[-1]]))
    _finish(core, stores[-1:])


BUILDERS: dict[str, Callable[[Core, "Kernel", list[int]], None]] = {
    "layernorm": build_layernorm, "rmsnorm": build_rmsnorm, "softmax": build_softmax, "topk": build_topk,
    "causal_mask": build_causal_mask}


class Kernel:
    """A kernel program: its signature (inputs, outputs), options, and one Core per subgraph."""

    def __init__(self, kind: str, opts: dict[str, Any]) -> None:
        if kind not in KERNELS and kind not in BUILDERS:  # BUILDERS: a test's own program registered by name
            raise GenError(f"unknown kernel '{kind}' (known: {', '.join(KERNELS)})")
        self.kind, self.opts = kind, dict(opts)
        r, d, dt, lnc = opts["rows"], opts["cols"], opts["dtype"], opts["lnc"]
        if r <= 0 or r % (PARTITIONS * lnc):
            raise GenError(f"--rows {r}: must be a positive multiple of {PARTITIONS * lnc} "
                           "(128 rows per tile and core)")
        if d <= 0:
            raise GenError(f"--cols {d}: must be positive")
        if opts["gen"] not in GENERATIONS:
            raise GenError(f"--gen {opts['gen']}: {', '.join(GENERATIONS)}")
        if dt not in ("fp32", "bf16", "fp16"):
            raise GenError(f"--dtype {dt}: fp32, bf16 or fp16")
        if kind in ("topk", "causal_mask", "softmax") and dt != "fp32":  # mlp, attention: every dtype
            raise GenError(f"--dtype {dt}: {kind} is fp32 only (MAX8 / AFFINE_SELECT / ACTIVATE on fp32 scores)")
        if kind == "topk":
            kk = opts["k"]
            if kk <= 0 or kk % 8 or kk > d:
                raise GenError(f"--k {kk}: a positive multiple of 8, at most --cols")
        self.inputs: list[tuple[str, str, list[int]]] = [("x", dt, [r, d])]
        if kind == "layernorm":
            self.inputs += [("gamma", dt, [d]), ("beta", dt, [d])]
        elif kind == "rmsnorm":
            self.inputs += [("gamma", dt, [d])]
        if kind == "topk":
            self.outputs = [("values", "fp32", [r, opts["k"]]), ("indices", "u32", [r, opts["k"]])]
        elif kind == "causal_mask":
            self.outputs = [("output0", "fp32", [r, d]), ("relpos", "i32", [r, d])]
        else:
            self.outputs = [("output0", dt, [r, d])]
        if kind in PLUGINS:
            plugin(kind).configure(self, self.opts)
        self.cores: list[Core] = []
        self.notes: list[str] = []
        self.tables: dict[str, Any] = {}  # the activation members a kernel of TABLE_KERNELS carries

    def load_tables(self, tool: str | None = None) -> None:
        """The activation members of the set holding TABLE_KERNELS[kind]: tpbisa's own fitted set, or copied from the
        NEFF `--tables-from` names (its first subgraph): act_info.json, the set's manifest and its BUCKET and CONTROL
        blobs."""
        func = plugin(self.kind).table_func(self.opts) if self.kind in PLUGINS else TABLE_KERNELS.get(self.kind)
        if func is None or self.tables:
            return
        src = self.opts.get("tables_from")
        if not src:
            self.tables = own_tables(func)  # tpbisa's own fitted tables (_act_fit.py)
            return
        if not os.path.isfile(src):
            raise GenError(f"--tables-from {src}: no such file")
        work = tempfile.mkdtemp(prefix="tpbisa_gen_tables.")
        try:
            folder = os.path.join(work, "neff")
            run_tool(find_tool(tool), ["neff", "extract", src, folder])
            self.tables = _activation_members(src, folder, func)
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def names(self) -> list[str]:
        return [n for n, _, _ in self.inputs + self.outputs]

    def dge(self, name: str) -> int:
        return self.names().index(name)

    def dtype_of(self, name: str) -> str:
        return next(dt for n, dt, _ in self.inputs + self.outputs if n == name)

    def shape_of(self, name: str) -> list[int]:
        return next(sh for n, _, sh in self.inputs + self.outputs if n == name)

    @staticmethod
    def iota_operands(dst: int, n: int, base: int) -> str:
        """IOTA: dst[p][j] = base + j - p (int32), one row per partition."""
        return (f"src.base={base} src.step_elem={{1,0,0,0}} src.num_elem={lst(n, 1, 1, 1)} out_dtype=i32 "
                f"num_active_channels=128 channel_multiplier=-1 {pattern('dst', dst, n, 4)}")

    @staticmethod
    def affine_select_operands(src: int, dst: int, n: int, row0: int) -> str:
        """AFFINE_SELECT: keep x[p][j] where row0 + p - j >= 0, else the fill value (r5)."""
        return (f"num_active_channels=128 in_out_dtype=0xaa fill_mode=GREATER_THAN_EQ fill_reg=5 mask.base={row0} "
                f"mask.step_elem={{-1,0,0,0}} mask.num_elem={lst(n, 1, 1, 1)} {pattern('src', src, n, 2)} "
                f"{pattern('dst', dst, n, 2)} channel_multiplier=1")

    def build(self, tool: str | None = None) -> None:
        self.load_tables(tool)
        lnc = self.opts["lnc"]
        tiles = self.opts["rows"] // PARTITIONS
        per = tiles // lnc
        for c in range(lnc):
            core = Core(f"sg{c:02d}", self.opts.get("drop_wait"))
            build = plugin(self.kind).build if self.kind in PLUGINS else BUILDERS[self.kind]
            build(core, self, list(range(c * per, (c + 1) * per)))
            deadlock, races, _ = replay(core)
            where = f"core {c} ({core.sg})"
            if deadlock:
                raise GenError(f"{where}: the program deadlocks: {deadlock}")
            if self.opts.get("drop_wait"):
                if core.dropped is None:
                    raise GenError(f"--drop-wait {self.opts['drop_wait']}: no instruction of {self.kind} has that tag")
                if races:
                    self.notes.append(f"{where}: dropped the waits of {core.dropped}; unordered accesses: "
                                      f"{races[0][0]} and {races[0][1]} on {races[0][2]}")
                else:
                    self.notes.append(f"{where}: dropped the waits of {core.dropped}; the replay finds no race")
            elif races:
                raise GenError(f"{where}: unordered accesses: " +
                               "; ".join(f"{a} and {b} on {key}" for a, b, key in races[:3]))
            self.cores.append(core)

    # ---- The NEFF folder ----

    def _def_json(self) -> dict[str, Any]:
        var: dict[str, Any] = {"SB": {"type": "state-buffer", "var_id": 0}}
        undersize = self.opts.get("undersize")
        for vid, (name, dt, shape) in enumerate(self.inputs + self.outputs, start=1):
            size = int(np.prod(shape)) * DTYPES[dt][1]
            if name == undersize:
                size -= shape[-1] * DTYPES[dt][1]  # one row short: a transfer leaves the variable
            var[name] = {"ops": [], "size": size, "type": "input" if (name, dt, shape) in self.inputs else "output",
                         "var_id": vid}
        var["DGETable0"] = {"list": list(range(1, len(self.names()) + 1)), "type": "dge-table",
                            "var_id": len(self.names()) + 1}
        queues = {name: {"fabric_path": "main", "num_queues": 16, "owner": ENGINE_KEYS[owner],
                         "semaphore_set": list(range(first, first + 16)), "type": "dynamic"}
                  for name, owner, first in QUEUE_SETS}
        d: dict[str, Any] = {
            "version": "0.6", "name": "definition", "#rank_world_size": 0, "cc_streams": {"num_streams": 0},
            "debug_info": {}, "dma_queue": queues, "var": var,
            "fp8_conversion_config": {"emax_fp8_e4m3": 8, "emax_fp8_e5m2": 15, "fp8_range_extension": True,
                                      "fp8_sis": False, "fp8_sns": False, "ocp_sat": True},
            "neff_features": ["neff_feature_vnc"] if self.opts["lnc"] == 2 else [],
            "runtime_event_count": 12, "runtime_semaphore_count": 3,
            "runtime_statebuffer_reservation": [{"base_partition": 0, "offset": SB_ACTIVE, "partitions": 128,
                                                 "size": 8, "type": "evtaccel"}]}
        for e in ENGINES:
            d[ENGINE_KEYS[e]] = f"{e}.json"
            d[ENGINE_KEYS[e] + "_instr"] = f"{e}.bin"
        return d

    def _neff_json(self) -> dict[str, Any]:
        lnc, ni = self.opts["lnc"], len(self.inputs)
        outs = [o for _ in range(lnc) for o in self.outputs]
        nodes: list[dict[str, Any]] = [{"op": "null", "name": n, "inputs": [], "output_names": [n], "is_param": "0"}
                                       for n, _, _ in self.inputs]
        nodes.append({"op": "tvm_op", "name": "sg_coreV10",
                      "attrs": {"func_name": "__kelf", "flatten_data": "0", "num_inputs": str(ni),
                                "kelf": "kelf-0.json", "num_outputs": str(len(outs))},
                      "inputs": [[i, 0, 0] for i in range(ni)], "output_names": [n for n, _, _ in outs]})
        sig = lambda items: {n: {"id": i, "dtype": DTYPES[dt][0], "shape": sh}  # noqa: E731
                             for i, (n, dt, sh) in enumerate(items)}
        return {"nodes": nodes, "arg_nodes": list(range(ni)), "heads": [[ni, i, 0] for i in range(len(outs))],
                "attrs": {"shape": ["list_shape", [sh for _, _, sh in self.inputs + outs]],
                          "storage_id": ["list_int", list(range(ni + len(outs)))],
                          "dltype": ["list_str", [DTYPES[dt][0] for _, dt, _ in self.inputs + outs]]},
                "node_row_ptr": [0] + list(range(1, ni + 1)) + [ni + len(outs)],
                "metadata": {"signatures": {"default": {"inputs": sig(self.inputs), "outputs": {}}}}}

    def write(self, out: str, tool: str | None = None, keep: str | None = None) -> int:
        """Assembles the streams, writes the folder and packs it into `out`; returns the number of words."""
        from . import asm  # the package's assembler (the library the command uses)

        if not self.cores:
            self.build(tool)
        tool = find_tool(tool)
        gen, lnc = self.opts["gen"], self.opts["lnc"]
        work = tempfile.mkdtemp(prefix="tpbisa_gen.")
        try:
            folder = os.path.join(work, "neff")
            os.makedirs(folder)
            with open(os.path.join(folder, "neff.json"), "w") as f:
                json.dump(self._neff_json(), f, indent=1)
            with open(os.path.join(folder, "kelf-0.json"), "w") as f:
                json.dump({"graphs": [{"definition": f"sg{c:02d}/def.json", "name": f"sg{c:02d}"}
                                      for c in range(lnc)], "version": "0.5", "target": gen}, f, indent=1)
            with open(os.path.join(folder, "info.json"), "w") as f:
                json.dump({"tool_version": f"tpbisa gen {self.kind}", "name": os.path.basename(out), "num_tpb": 1,
                           "num_tpb_requested": 1, "num_tpb_per_node": [1] + [0] * 63}, f, indent=1)
            words = 0
            for c, core in enumerate(self.cores):
                sg = os.path.join(folder, f"sg{c:02d}")
                os.makedirs(sg)
                with open(os.path.join(sg, "def.json"), "w") as f:
                    json.dump(self._def_json(), f, indent=1)
                for e in ENGINES:
                    doc: dict[str, Any] = {"dma": [], "instr": f"{e}.bin", "name": f"{e}.json"}
                    if e == "Activation" and self.tables:
                        doc = {"act_info": self.tables["act_info"], "activation_function_sets": [self.tables["set"]],
                               **doc}
                    with open(os.path.join(sg, f"{e}.json"), "w") as f:
                        json.dump(doc, f)
                    text = "\n".join(core.lines[e]) + "\n"
                    with open(os.path.join(sg, f"{e}.bin"), "wb") as f:
                        f.write(asm(text, gen=gen, filename=f"{core.sg}/{e}.tasm"))
                    words += len(core.lines[e])
                    if keep:
                        with open(os.path.join(sg, f"{e}.tasm.txt"), "w") as f:
                            f.write(f"; gen: {gen}\n" + text)
                for name, data in self.tables.get("members", {}).items():
                    with open(os.path.join(sg, name), "wb") as f:
                        f.write(data)
            if keep:
                if os.path.exists(keep):
                    raise GenError(f"--keep {keep}: exists")
                shutil.copytree(folder, keep)
                for root, _, files in os.walk(folder):  # the assembly copies are for --keep only, not packed
                    for name in files:
                        if name.endswith(".tasm.txt"):
                            os.remove(os.path.join(root, name))
            run_tool(tool, ["neff", "pack", "--lnc", str(lnc), "--name", os.path.basename(out), folder, out])
            return words
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def listing(self) -> str:
        """Each core's streams as assembly, one section per engine (examples/kernels/)."""
        parts = []
        for core in self.cores:
            for e in ENGINES:
                parts.append(f"; ---- {core.sg}/{e} ----")
                parts += core.lines[e]
        return "\n".join(parts) + "\n"

    def random_inputs(self, seed: int = 0) -> dict[str, np.ndarray]:
        """Inputs for a run: normal values (top-k: a permutation per row, some ties), bf16 as raw uint16 words."""
        rng = np.random.default_rng(seed)
        out = {}
        given = plugin(self.kind).random_inputs(self, rng) if self.kind in PLUGINS else {}
        for name, dt, shape in self.inputs:
            if name in given:
                a = given[name]
            elif self.kind == "topk":
                a = np.stack([rng.permutation(shape[1]) for _ in range(shape[0])]).astype(np.float32)
                a = (a - shape[1] / 2) / 8 + rng.integers(0, 2, size=shape) / 64  # duplicates occur, some ties
            elif name == "gamma":
                a = 1 + rng.standard_normal(shape) / 4
            else:
                a = rng.standard_normal(shape) * (2 if name == "x" else 0.5)
            a32 = np.ascontiguousarray(a, dtype=np.float32)
            out[name] = to_bf16_bits(a32) if dt == "bf16" else a32.astype(np.float16) if dt == "fp16" else a32
        return out


def _activation_members(src: str, folder: str, func: str) -> dict[str, Any]:
    """From an extracted NEFF: the first set its first subgraph's Activation.json lists with a function named
    `func` -- the set's index in act_info.json, the function's id, and the members to copy (name -> bytes)."""
    sgs = sorted(n for n in os.listdir(folder) if os.path.isfile(os.path.join(folder, n, "Activation.json")))
    if not sgs:
        raise GenError(f"--tables-from {src}: no subgraph with an Activation.json")
    sg = os.path.join(folder, sgs[0])

    def read(name: str) -> bytes:
        try:
            with open(os.path.join(sg, name), "rb") as f:
                return f.read()
        except OSError as e:
            raise GenError(f"--tables-from {src}: {sgs[0]}/{name} is absent") from e

    try:
        act = json.loads(read("Activation.json"))
        info_name = act["act_info"]
        info = json.loads(read(info_name))
        catalog = [c["name"] for c in info["act_func_sets"]]
        for name in act.get("activation_function_sets", []):
            manifest_name = next(c["profile_json"] for c in info["act_func_sets"] if c["name"] == name)
            manifest = json.loads(read(manifest_name))
            ids = [p["func_id"] for p in manifest["profile_meta_data"] if p["func_name"].rsplit("_", 1)[0] == func]
            if ids:
                members = {"act_info.json": read(info_name), manifest_name: read(manifest_name)}
                for blob in (manifest["bkt_bin"], manifest["ctl_bin"]):
                    members[blob] = read(blob)
                return {"set": name, "index": catalog.index(name), "func_id": ids[0], "act_info": "act_info.json",
                        "members": members}
    except (KeyError, ValueError, StopIteration, TypeError) as e:
        raise GenError(f"--tables-from {src}: its activation members are not well-formed ({e!r})") from e
    raise GenError(f"--tables-from {src}: no activation set of {sgs[0]} has the function {func}")


def plugin(kind: str) -> Any:
    """The module of a kernel of PLUGINS (imported when first used: it builds on this module)."""
    return importlib.import_module(f".{PLUGINS[kind]}", __package__)


def to_bf16_bits(a: np.ndarray) -> np.ndarray:
    """fp32 -> bf16 words, round to nearest even (finite inputs)."""
    u = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def find_tool(name: str | None = None) -> str:
    """The command that packs: `name`, else $TPBISA, else tpbisa on PATH."""
    if name:
        return name
    if os.environ.get("TPBISA"):
        return os.environ["TPBISA"]
    on_path = shutil.which("tpbisa")
    if on_path:
        return on_path
    raise GenError("no tpbisa command to pack the NEFF: name it with --tpbisa or $TPBISA")


def run_tool(tool: str, argv: list[str]) -> str:
    try:
        p = subprocess.run([tool] + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=False)
    except OSError as e:
        raise GenError(f"cannot run {tool} ({e.strerror}); name the binary with --tpbisa or $TPBISA") from e
    if p.returncode != 0:
        raise GenError(f"{os.path.basename(tool)} {' '.join(argv[:2])} failed (exit {p.returncode}):\n"
                       f"{p.stderr.strip()[:4000]}")
    return p.stdout


# Generations whose word layouts take the same operands: the programs assemble, validate and run alike on each
# (MAVERICK re-packs the PE words and lays out SBUF partitions differently).
GENERATIONS = ["cayman", "sunda", "mariana"]
DEFAULTS = {"rows": 128, "cols": 512, "dtype": "fp32", "lnc": 1, "eps": 1e-5, "k": 8, "gen": "cayman", "hidden": 1024,
            "act": "gelu", "head_dim": 64}


def generate(kind: str, out: str, *, tool: str | None = None, keep: str | None = None, **opts: Any) -> Kernel:
    """Builds, checks and writes kernel `kind` to `out`; returns the Kernel (its cores, notes and inputs)."""
    o = dict(DEFAULTS)
    o.update(opts)
    k = Kernel(kind, o)
    k.build(tool)
    k.write(out, tool, keep)
    return k


def _open(kind: str, out: str, **opts: Any) -> Any:
    from . import Neff

    generate(kind, out, **opts)
    return Neff(out)


def layernorm(out: str = "layernorm.neff", **opts: Any) -> Any:
    """Writes a layernorm NEFF (rows, cols, dtype, lnc, eps) and returns it as a tpbisa.Neff."""
    return _open("layernorm", out, **opts)


def rmsnorm(out: str = "rmsnorm.neff", **opts: Any) -> Any:
    """Writes an RMSNorm NEFF (rows, cols, dtype, lnc, eps) and returns it as a tpbisa.Neff."""
    return _open("rmsnorm", out, **opts)


def softmax(out: str = "softmax.neff", **opts: Any) -> Any:
    """Writes a softmax NEFF (rows, cols, lnc; tables_from: a NEFF whose exp tables it carries instead of tpbisa's own)
    and returns it as a tpbisa.Neff."""
    return _open("softmax", out, **opts)


def topk(out: str = "topk.neff", **opts: Any) -> Any:
    """Writes a top-k NEFF (rows, cols, k, lnc) and returns it as a tpbisa.Neff."""
    return _open("topk", out, **opts)


def causal_mask(out: str = "causal_mask.neff", **opts: Any) -> Any:
    """Writes a causal-mask NEFF (rows, cols, lnc) and returns it as a tpbisa.Neff."""
    return _open("causal_mask", out, **opts)


def mlp(out: str = "mlp.neff", **opts: Any) -> Any:
    """Writes an MLP NEFF (rows, cols = d, hidden = f, act = "gelu" | "silu", dtype, lnc, tables_from) and returns it
    as a tpbisa.Neff."""
    return _open("mlp", out, **opts)


def attention(out: str = "attention.neff", **opts: Any) -> Any:
    """Writes a causal attention NEFF (rows = queries, cols = keys S, head_dim, dtype, lnc, tables_from) and returns
    it as a tpbisa.Neff."""
    return _open("attention", out, **opts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="tpbisa gen", description="Write a kernel NEFF (docs/kernels.md).")
    ap.add_argument("kernel", help=f"one of {', '.join(KERNELS)}")
    ap.add_argument("--rows", type=int, default=DEFAULTS["rows"], help="rows R, a multiple of 128 per core (128)")
    ap.add_argument("--cols", type=int, default=DEFAULTS["cols"], help="columns D per row (512)")
    ap.add_argument("--dtype", default="fp32", choices=["fp32", "bf16", "fp16"],
                    help="layernorm, rmsnorm, mlp, attention: the inputs and the output (fp32)")
    ap.add_argument("--k", type=int, default=8, help="topk: values per row, a multiple of 8 (8)")
    ap.add_argument("--hidden", type=int, default=DEFAULTS["hidden"],
                    help="mlp: hidden size f, a multiple of 128 (1024)")
    ap.add_argument("--act", default="gelu", choices=["gelu", "silu"], help="mlp: the activation (gelu, erf form)")
    ap.add_argument("--head-dim", type=int, default=DEFAULTS["head_dim"], help="attention: head dimension, at most 128 "
                    "(64)")
    ap.add_argument("--eps", type=float, default=1e-5, help="layernorm, rmsnorm: epsilon (1e-5)")
    ap.add_argument("--tables-from", metavar="F.neff",
                    help="softmax, mlp, attention: carry the activation tables of this NEFF instead of tpbisa's own")
    ap.add_argument("--lnc", type=int, choices=[1, 2], default=1, help="cores: 2 gives each half of the row tiles")
    ap.add_argument("--gen", default="cayman", choices=GENERATIONS, help="the generation (cayman)")
    ap.add_argument("--out", help="the NEFF to write (KERNEL.neff)")
    ap.add_argument("--write-inputs", metavar="DIR", help="also write one .npy per input (random, from --seed)")
    ap.add_argument("--seed", type=int, default=0, help="seed of --write-inputs (0)")
    ap.add_argument("--drop-wait", metavar="TAG", help="negative control: leave out the waits of the instruction "
                    "tagged TAG (docs/kernels.md lists the tags); the generator reports the race")
    ap.add_argument("--undersize", metavar="VAR", help="negative control: declare variable VAR one row short")
    ap.add_argument("--keep", metavar="DIR", help="also keep the unpacked folder, with each stream's assembly")
    ap.add_argument("--listing", action="store_true", help="print the streams' assembly")
    ap.add_argument("--tpbisa", help="the tpbisa command that packs (default: $TPBISA, else tpbisa on PATH)")
    a = ap.parse_args(argv)
    out = a.out or f"{a.kernel}.neff"
    try:
        opts = {"tables_from": a.tables_from, "rows": a.rows, "cols": a.cols, "dtype": a.dtype, "k": a.k,
                "eps": float(np.float32(a.eps)), "lnc": a.lnc, "gen": a.gen, "drop_wait": a.drop_wait,
                "undersize": a.undersize, "hidden": a.hidden, "act": a.act, "head_dim": a.head_dim}
        k = Kernel(a.kernel, {**DEFAULTS, **opts})
        if a.undersize and a.undersize not in k.names():
            raise GenError(f"--undersize {a.undersize}: not a variable of {a.kernel} ({', '.join(k.names())})")
        k.build(a.tpbisa)
        for note in k.notes:
            print(note)
        words = k.write(out, a.tpbisa, a.keep)
        if a.listing:
            sys.stdout.write(k.listing())
        shape = ", ".join(f"{n} {dt} {sh}" for n, dt, sh in k.inputs)
        print(f"wrote {out}: {a.kernel} of {shape}, lnc {a.lnc}, {words} words")
        if a.write_inputs:
            os.makedirs(a.write_inputs, exist_ok=True)
            for name, arr in k.random_inputs(a.seed).items():
                np.save(os.path.join(a.write_inputs, f"{name}.npy"), arr)
            print(f"wrote {a.write_inputs}/" + ", ".join(f"{n}.npy" for n, _, _ in k.inputs))
    except GenError as e:
        print(f"tpbisa gen: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    from tpbisa import gen as _module  # this module under its own name, whose classes the kernel modules share

    sys.exit(_module.main())
