"""The `mlp` kernel of tpbisa.gen: output0 = act(x @ w1) @ w2 with act GELU (erf form) or SiLU on the ACT engine
(docs/kernels.md has the engine plan).

Per row tile of 128 tokens: PE transposes x through the identity (xT, d on partitions); PE computes hT = w1^T xT
directly (w1 blocks as the stationary matrix, xT streamed), so h never needs a transpose; ACT evacuates each finished
PSUM block through the activation into SBUF (hT, f on partitions); PE computes y = h w2 (hT blocks stationary, w2
tiles streamed) into one PSUM accumulation group per 512 output columns; DVE casts each finished bank and Pool
stores it.
"""

from __future__ import annotations

from typing import Any

from . import _gen_pe as pe
from .gen import DTYPES, PARTITIONS, Core, GenError, _chunks, _earlier, _finish, _load_tile, sb

GROUP = 4  # hT blocks (128 f-rows each) computed together: one PSUM bank of 4 x 512 bytes
T_BANK = 7  # PSUM bank of the x transposes (4 slots)
H_BANKS = (0, 1)  # the hT groups alternate between two banks
Y_BANKS = (2, 3)  # the output N-tiles alternate between two banks
W_RING = 3  # slots of the w1 and w2 rings


def configure(k: Any, opts: dict[str, Any]) -> None:
    """Signature and option checks: x [R, d], w1 [d, f], w2 [f, d] -> output0 [R, d], all in --dtype."""
    r, d, f, dt, act = opts["rows"], opts["cols"], opts["hidden"], opts["dtype"], opts["act"]
    if d % PARTITIONS or f % PARTITIONS or f <= 0:
        raise GenError(f"--cols {d} and --hidden {f}: multiples of {PARTITIONS} (the contraction runs over "
                       "128 SBUF partitions)")
    if act not in ("gelu", "silu"):
        raise GenError(f"--act {act}: gelu or silu")
    k.inputs = [("x", dt, [r, d]), ("w1", dt, [d, f]), ("w2", dt, [f, d])]
    k.outputs = [("output0", dt, [r, d])]


def table_func(opts: dict[str, Any]) -> str:
    return str(opts["act"])


def random_inputs(k: Any, rng: Any) -> dict[str, Any]:
    """x normal; the weights normal / sqrt(fan-in), so h and y stay of order 1."""
    d, f = k.opts["cols"], k.opts["hidden"]
    return {"x": rng.standard_normal(k.shape_of("x")), "w1": rng.standard_normal((d, f)) / d ** 0.5,
            "w2": rng.standard_normal((f, d)) / f ** 0.5}


def _load_rows(core: Core, k: Any, name: str, queue: str, engine: str, row0: int, col0: int, ncols: int,
               region: str, i: int, waits: Any) -> tuple[int, int]:
    """A DMA of 128 rows x ncols of matrix `name` from (row0, col0) into slot i of `region`, row r on partition r."""
    dt = k.dtype_of(name)
    es = DTYPES[dt][1]
    width = k.shape_of(name)[1] * es
    off, key = core.sbuf.at(region, i)
    return core.dma(queue, engine, (0x20, k.dge(name), row0 * width + col0 * es), (0x10, 0, off), ncols * es,
                    width, 0x40000, dt, waits=waits, acc=[(("var", name, row0, col0), "r"), (key, "w")])


def build(core: Core, k: Any, tiles: list[int]) -> None:
    d, f, dt = k.opts["cols"], k.opts["hidden"], k.opts["dtype"]
    es = DTYPES[dt][1]
    kd, kf = d // PARTITIONS, f // PARTITIONS  # 128-row tiles of the two contractions
    s = core.sbuf
    s.ring("x", 2, d * es)
    s.ring("xT", 1, d * es)  # xT: partition = d mod 128, element kt*128 + token
    s.ring("hT", 1, f * es)  # hT: partition = f mod 128, element fb*128 + token
    s.ring("w1", W_RING, GROUP * PARTITIONS * es)
    s.ring("w2", W_RING, pe.NTILE * es)
    s.ring("y", 2, pe.NTILE * es)
    pe.table_load(core, k.tables["index"])
    ident = pe.build_identity(core, dt)
    fid = k.tables["func_id"]
    t_slot = PARTITIONS * es  # bytes of one transpose in PSUM
    n_tiles = _chunks(d, pe.NTILE)
    groups = _chunks(kf, GROUP)
    x_done: list[Any] = []  # the last transpose of each tile (the x slot's last reader)
    copies: list[Any] = []  # every xT copy out of PSUM
    w1_used: list[Any] = []  # the last MATMUL reading each w1 slot
    w2_used: list[Any] = []
    h_evac: list[Any] = []  # ACT done with each hT group's bank
    y_mm: list[Any] = []  # the last MATMUL of each N-tile (its bank complete; the last reader of hT)
    y_cast: list[Any] = []
    stores: list[Any] = []
    transposes = 0
    for i, t in enumerate(tiles):
        x_off, x_key = s.at("x", i)
        xT_off, xT_key = s.at("xT")
        hT_off, hT_key = s.at("hT")
        x_tok = _load_tile(core, k, "x", t, "x", i, _earlier(x_done, i))
        # x -> xT, 128 columns at a time, through PSUM bank 7.
        tile_copies = []
        for kt in range(kd):
            slot = transposes % 4
            key = ("psum", "t", slot)
            done = pe.transpose(core, x_off + kt * PARTITIONS * es, dt, s.at("ident")[0], T_BANK, slot * t_slot,
                                x_key, key, waits=[x_tok, ident] + _earlier(copies, transposes, 4),
                                signal="pe_transpose", tag="transpose" if kt == 0 else None)
            tile_copies.append(pe.copy_raw(core, "Activation", T_BANK, slot * t_slot,
                                           xT_off + kt * PARTITIONS * es, t_slot, key, (*xT_key, kt),
                                           waits=[done] + (y_mm[-1:] if kt == 0 and i else []), signal="act_copy"))
            copies.append(tile_copies[-1])
            transposes += 1
        x_done.append(done)
        # hT = w1^T xT, GROUP blocks of 128 f-rows per PSUM bank, accumulated over the d tiles.
        group_done = []
        for g0, nb in groups:
            gi = len(h_evac)
            bank = H_BANKS[gi % 2]
            bank_key = ("psum", "h", gi % 2)
            for kt in range(kd):
                c = len(w1_used)
                w_off, w_key = s.at("w1", c)
                w_tok = _load_rows(core, k, "w1", "in_w1", "SP", kt * PARTITIONS, g0 * PARTITIONS,
                                   nb * PARTITIONS, "w1", c, _earlier(w1_used, c, W_RING))
                last = None
                for b in range(nb):
                    pe.ldweights(core, w_off + b * PARTITIONS * es, PARTITIONS, dt, w_key, waits=[w_tok])
                    first_mm = kt == 0 and b == 0
                    last = pe.matmul(core, xT_off + kt * PARTITIONS * es, PARTITIONS, dt, bank, b * 4 * PARTITIONS,
                                     pe.FLAGS[(kt == 0, kt == kd - 1)], (*xT_key, kt), bank_key,
                                     waits=([tile_copies[kt]] + (_earlier(h_evac, gi, 2) if first_mm else [])),
                                     signal="pe_h" if b == nb - 1 else None, tag="h" if first_mm else None)
                w1_used.append(last)
            evac = None
            for b in range(nb):
                evac = pe.activate(core, fid, pe.psum(bank, b * 4 * PARTITIONS),
                                   sb(hT_off + (g0 + b) * PARTITIONS * es), PARTITIONS, "fp32", dt,
                                   acc=[(bank_key, "r"), ((*hT_key, g0 + b), "w")],
                                   waits=[last] + (y_mm[-1:] if g0 == 0 and i else []),
                                   signal="act_h" if b == nb - 1 else None, tag="act" if b == 0 else None)
            h_evac.append(evac)
            group_done += [evac] * nb
        # y = h w2, one accumulation group over the f tiles per 512 output columns.
        for n0, n in n_tiles:
            ni = len(y_mm)
            bank = Y_BANKS[ni % 2]
            bank_key = ("psum", "y", ni % 2)
            last = None
            for fb in range(kf):
                c = len(w2_used)
                w_off, w_key = s.at("w2", c)
                w_tok = _load_rows(core, k, "w2", "in_w2", "Pool", fb * PARTITIONS, n0, n, "w2", c,
                                   _earlier(w2_used, c, W_RING))
                pe.ldweights(core, hT_off + fb * PARTITIONS * es, PARTITIONS, dt, (*hT_key, fb),
                            waits=[group_done[fb]])
                last = pe.matmul(core, w_off, n, dt, bank, 0, pe.FLAGS[(fb == 0, fb == kf - 1)], w_key, bank_key,
                                 waits=[w_tok] + (_earlier(y_cast, ni, 2) if fb == 0 else []), signal="pe_y")
                w2_used.append(last)
            y_mm.append(last)
            y_off, y_key = s.at("y", ni)
            y_cast.append(core.op(
                "DVE", "Cast",
                f"src.start_addr={pe.psum(bank)} src.step_elem={{1,1,1,1}} src.num_elem={{{n},1,1,1}} "
                f"in_dtype=fp32 out_dtype={dt} num_active_channels=128 op=BYPASS op_dim=UNUSED "
                f"dst.start_addr={sb(y_off)} dst.step_elem={{1,1,1,1}} dst.num_elem={{{n},1,1,1}}",
                waits=[last] + _earlier(stores, ni), signal="dve_y", tag="cast" if ni == 0 else None,
                acc=[(bank_key, "r"), (y_key, "w")]))
            width = d * es
            stores.append(core.dma("out_output0", "Pool", (0x10, 0, y_off),
                                   (0x20, k.dge("output0"), t * PARTITIONS * width + n0 * es), n * es, 0x40000,
                                   width, dt, waits=[y_cast[-1]], acc=[(y_key, "r"), (("var", "output0", t, n0), "w")]))
    _finish(core, stores[-1:])
