"""PE and PSUM pieces of the kernel generator (tpbisa.gen): the identity, PE transposes, LDWEIGHTS + MATMUL into a PSUM
accumulation group, and the copies out of PSUM, as the mlp and attention programs use them (docs/kernels.md)."""

from __future__ import annotations

from typing import Any

from .gen import DTYPES, PARTITIONS, Core, _imm, sb

BANK = 0x800  # bytes of one PSUM bank per partition (512 fp32)
NTILE = 512  # fp32 elements of a PSUM bank: the widest MATMUL output
FLAGS = {(True, True): 3, (True, False): 1, (False, False): 0, (False, True): 2}  # (first, last) -> accumulate flags


def psum(bank: int, off: int = 0) -> str:
    return f"psum[p0].bank{bank}+{off:#x}"


def fp32_mode(dt: str) -> int:
    """FP32 operands are used at full precision (Low_High, PROJ-CONV-F17); 2-byte ones need None."""
    return 3 if dt == "fp32" else 0


def build_identity(core: Core, dt: str, region: str = "ident") -> tuple[int, int]:
    """The 128x128 identity in dtype `dt` (the moving tile of every PE transpose): DVE fills a row of fp32 ones, Pool
    keeps element j of partition p where j - p == 0 (TensorScalarAffineSelect EQ), else r5 = +0."""
    s = core.sbuf
    s.ring("ones", 1, PARTITIONS * 4)
    s.ring(region, 1, PARTITIONS * DTYPES[dt][1])
    ones_off, ones_key = s.at("ones")
    id_off, id_key = s.at(region)
    ones = core.op("DVE", "Memset",
                   f"dst_element_count={PARTITIONS} dtype=fp32 num_active_channels=128 serialization_mode=0 "
                   f"set_value=1.0 dst.start_addr={sb(ones_off)} dst.step_elem={{1,1,1,1}} "
                   f"dst.num_elem={{{PARTITIONS},1,1,1}}", signal="dve_ones", acc=[(ones_key, "w")])
    core.op("Pool", "Move", "num_mov=1 dtype=u32 move_source=IMMEDIATE src_registers={0,0,0,0,0,0,0,0} "
            "dst_registers={5,0,0,0,0,0,0,0} immediate={0x0,0,0,0,0,0,0,0}")
    pair = DTYPES[dt][2] * 0x10 + DTYPES["fp32"][2]
    return core.op("Pool", "TensorScalarAffineSelect",
                   f"num_active_channels=128 in_out_dtype={pair:#x} fill_mode=EQ fill_reg=5 mask.base=0 "
                   f"mask.step_elem={{1,0,0,0}} mask.num_elem={{{PARTITIONS},1,1,1}} "
                   f"src.start_addr={sb(ones_off)} src.step_elem={{1,0}} src.num_elem={{{PARTITIONS},1}} "
                   f"dst.start_addr={sb(id_off)} dst.step_elem={{1,0}} dst.num_elem={{{PARTITIONS},1}} "
                   "channel_multiplier=-1", waits=[ones], signal="pool_ident", acc=[(ones_key, "r"), (id_key, "w")])


def ldweights(core: Core, src: int, cols: int, dt: str, key: Any, waits: Any = (), transpose: bool = False,
              tag: str | None = None, rows: int = PARTITIONS) -> None:
    """LDWEIGHTS: W[k][m] = element m of partition k < rows of `src` (cols elements); the row is walked backwards
    from its last element, as the compiler does (the PE fills its last column first)."""
    es = DTYPES[dt][1]
    core.op("PE", "Ldweights",
            f"src.start_addr={sb(src + (cols - 1) * es)} src.step_elem={{-1,0,0}} src.num_elem={{{cols},1,1}} "
            f"in_dtype={dt} fp32_mode={fp32_mode(dt)} transpose_mode={int(transpose)} perf_opt=0 "
            f"num_active_rows={rows} num_active_cols={cols} row_grp={_grp(rows)} col_grp={_grp(cols)}",
            waits=waits, acc=[(key, "r")], tag=tag)


def _grp(n: int) -> int:
    """The quadrant mask covering n columns (1, 3 or 15)."""
    return 1 if n <= 32 else 3 if n <= 64 else 15


def matmul(core: Core, src: int, n: int, dt: str, bank: int, off: int, flags: int, key: Any, dst_key: Any,
           waits: Any = (), signal: str | None = None, cols: int = PARTITIONS, transpose: bool = False,
           tag: str | None = None, rows: int = PARTITIONS) -> tuple[int, int] | None:
    """MATMUL: PSUM[m][off + n] (+)= sum over the partitions k < rows of W[k][m] * src[k][n] (m < cols); a transpose
    writes the input width."""
    acc = [(key, "r"), (dst_key, "w")] if flags & 1 or transpose else [(key, "r"), (dst_key, "r"), (dst_key, "w")]
    return core.op("PE", "Matmul",
                   f"src.start_addr={sb(src)} src.step_elem={{1,0,0}} src.num_elem={{{n},1,1}} in_dtype={dt} "
                   f"fp32_mode={fp32_mode(dt)} transpose_mode={int(transpose)} perf_opt=0 num_active_rows={rows} "
                   f"num_active_cols={cols} out_dtype=0 psum_accumulate_flags={flags} row_grp={_grp(rows)} "
                   f"col_grp={_grp(cols)} active_row_mode=0 psum_zero_region=0 dst.start_addr={psum(bank, off)} "
                   f"dst.step_elem={{1,0,0}} dst.num_elem={{{n},1,1}}",
                   waits=waits, signal=signal, acc=acc, tag=tag)


def transpose(core: Core, src: int, dt: str, ident: int, bank: int, off: int, src_key: Any, dst_key: Any,
              waits: Any = (), signal: str | None = None, tag: str | None = None,
              cols: int = PARTITIONS) -> tuple[int, int] | None:
    """The PE transpose of a 128 x cols block at `src` (cols elements per partition) into PSUM at the input width
    (cols partitions of 128 elements): LDWEIGHTS in transpose mode, then the identity streamed through it (SINGLE)."""
    ldweights(core, src, cols, dt, src_key, waits=waits, transpose=True, tag=tag)
    return matmul(core, ident, PARTITIONS, dt, bank, off, 3, ("sb", "ident", 0), dst_key, signal=signal,
                  transpose=True, cols=cols)


def copy_raw(core: Core, engine: str, bank: int, off: int, dst: int, nbytes: int, src_key: Any, dst_key: Any,
             waits: Any = (), signal: str | None = None, channels: int = PARTITIONS) -> tuple[int, int] | None:
    """COPY of nbytes per partition (the first `channels` partitions) from PSUM to SBUF as raw INT32 words (a
    transpose's bits unchanged)."""
    n = nbytes // 4
    return core.op(engine, "Copy",
                   f"src.start_addr={psum(bank, off)} src.step_elem={{1,1,1,1}} src.num_elem={{{n},1,1,1}} "
                   f"in_dtype=i32 out_dtype=i32 num_active_channels={channels} op=BYPASS op_dim=UNUSED "
                   f"dst.start_addr={sb(dst)} dst.step_elem={{1,1,1,1}} dst.num_elem={{{n},1,1,1}}",
                   waits=waits, signal=signal, acc=[(src_key, "r"), (dst_key, "w")])


def activate(core: Core, func_id: int, src: str, dst: str, n: int, in_dt: str, out_dt: str, acc: Any,
             waits: Any = (), signal: str | None = None, scale: float = 1.0, tag: str | None = None,
             accumulate: bool = False, bias: str | None = None) -> tuple[int, int] | None:
    """ACTIVATE func(scale * x + bias) of n elements per partition, src and dst given as addresses; the bias 0.0, or
    a per-partition fp32 pointer; `accumulate`: the row sum from +0 into the accumulators."""
    pair = DTYPES["fp32"][2] * 0x10 + DTYPES[in_dt][2]
    cmd = "ZERO_ACCUMULATE" if accumulate else "IDLE"
    bias_src, bias_val = (0, bias) if bias else (1, "0.0")
    return core.op("Activation", "Activate",
                   f"imm_src=INSTRUCTION_IMMEDIATE scale_src=INSTRUCTION_IMMEDIATE accumulator_cmd={cmd} "
                   f"bias_src_n={bias_src} src.start_addr={src} src.step_elem={{1,0,0}} src.num_elem={{{n},1,1}} "
                   f"in_bias_dtype={pair:#x} out_dtype={out_dt} num_active_channels=128 activation_func={func_id} "
                   f"scale_value={_imm(scale)} bias={bias_val} imm=0.0 dst.start_addr={dst} dst.step_elem={{1,0,0}} "
                   f"dst.num_elem={{{n},1,1}}", waits=waits, signal=signal, acc=acc, tag=tag)


def table_load(core: Core, index: int) -> None:
    """ACTIVATION_TABLE_LOAD of set `index` of act_info.json (byte 35, PROJ-CONV-A6)."""
    b = [0] * 27
    b[23] = index
    core.op("Activation", "ActivationTableLoad", "reserved0={" + ",".join(f"{v:#x}" for v in b) + "}")
