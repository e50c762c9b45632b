#!/usr/bin/env python3
"""End-to-end check of the stt family: a small program (ScalarTensorTensor with ZERO_ACCUMULATE, the scan,
SelectReduce, TensorScalarSelect) assembled and run with `tpbisa run`, its memory compared bit for bit with an
independent model written here (alu-ops.md §6; NumPy when installed, else Python's struct-rounded fp32).

Usage: e2e_program.py TPBISA_BINARY [SOURCE_DIR]   (exit 0 when every value agrees)."""

import json
import os
import random
import struct
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:  # the fp32 model below does not need it
    np = None


def f32(x):
    """x rounded to fp32 (round to nearest even), as a Python float."""
    if np is not None:
        return float(np.float32(x))
    return struct.unpack("<f", struct.pack("<f", x))[0]


def bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


N, C = 8, 4  # elements per channel, channels
PROGRAM = f"""\
; gen: cayman
ScalarTensorTensorArith src0.start_addr=sbuf[p0]+0x0 src0.step_elem={{1,0}} src0.num_elem={{{N},1}} src1.start_addr=sbuf[p0]+0x100 src1.step_elem={{1,0}} src1.num_elem={{{N},1}} op0=MULT op1=ADD imm0_src=INSTRUCTION_IMMEDIATE in0_in1_dtype=0xaa out_dtype=fp32 num_active_channels={C} imm0_dtype=fp32 accumulator_cmd=ZERO_ACCUMULATE dst.start_addr=sbuf[p0]+0x200 dst.step_elem={{1,0}} dst.num_elem={{{N},1}} imm0=0.75
TensorTensorScanArith src0.start_addr=sbuf[p0]+0x0 src0.step_elem={{1,0}} src0.num_elem={{{N},1}} src1.start_addr=sbuf[p0]+0x100 src1.step_elem={{1,0}} src1.num_elem={{{N},1}} op0=MULT op1=ADD imm0_src=INSTRUCTION_IMMEDIATE in0_in1_dtype=0xaa out_dtype=bf16 num_active_channels={C} imm0_dtype=fp32 dst.start_addr=sbuf[p0]+0x300 dst.step_elem={{1,0}} dst.num_elem={{{N},1}} imm0=0.5
SelectReduce src0.start_addr=sbuf[p0]+0x400 src0.step_elem={{1,0}} src0.num_elem={{{N},1}} src1.start_addr=sbuf[p0]+0x200 src1.step_elem={{1,0}} src1.num_elem={{{N},1}} op0=BYPASS op1=MAX imm0_src=INSTRUCTION_IMMEDIATE in0_in1_dtype=0xa3 out_dtype=fp32 num_active_channels={C} imm0_dtype=fp32 accumulator_cmd=ACCUMULATE dst.start_addr=sbuf[p0]+0x500 dst.step_elem={{1,0}} dst.num_elem={{{N},1}} imm0=-2.0
TensorScalarSelect src0.start_addr=sbuf[p0]+0x500 src0.step_elem={{1,0,0}} src0.num_elem={{{N},1,1}} num_active_channels={C} dtype=fp32 pred_imm_dtype=u32 src1_imm_src=INSTRUCTION_IMMEDIATE pred_imm_src=POINTER_IMMEDIATE src1_imm=9.0 pred_imm=sbuf[p0]+0x600 dst.start_addr=sbuf[p0]+0x700 dst.step_elem={{1,0,0}} dst.num_elem={{{N},1,1}}
"""


def model(a, b, pred, sel):
    """Per channel: the four instructions of PROGRAM, in fp32 (alu-ops.md §6.2-§6.5, PROJ-CONV-K12/K13/K20)."""
    stt, scan, sr, ts, acc = [], [], [], [], []
    for c in range(C):
        r = [f32(f32(a[c][k] * 0.75) + b[c][k]) for k in range(N)]
        total = 0.0
        for v in r:
            total = f32(total + v)
        state, s = 0.5, []
        for k in range(N):
            state = f32(f32(a[c][k] * state) + b[c][k])
            s.append(state)
        picked = [r[k] if pred[c][k] != 0 else -2.0 for k in range(N)]
        for v in picked:
            total = max(total, v)
        stt.append(r)
        scan.append(s)
        sr.append(picked)
        ts.append(picked if sel[c] != 0 else [9.0] * N)
        acc.append(total)
    return stt, scan, sr, ts, acc


def bf16_bits(x):
    """fp32 -> BF16, round to nearest even (memory-and-numerics.md §8.3); no NaN in this program."""
    u = bits(x)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF


def main():
    tool = sys.argv[1]
    rng = random.Random(38)
    a = [[f32(rng.uniform(-2, 2)) for _ in range(N)] for _ in range(C)]
    b = [[f32(rng.uniform(-2, 2)) for _ in range(N)] for _ in range(C)]
    pred = [[rng.choice([0, 1, 7]) for _ in range(N)] for _ in range(C)]
    sel = [1, 0, 1, 0]
    memory = []
    for c in range(C):
        memory.append({"at": f"sbuf:{c}:0x0", "dtype": "fp32", "bits": [hex(bits(v)) for v in a[c]]})
        memory.append({"at": f"sbuf:{c}:0x100", "dtype": "fp32", "bits": [hex(bits(v)) for v in b[c]]})
        memory.append({"at": f"sbuf:{c}:0x400", "dtype": "u8", "values": pred[c]})
        memory.append({"at": f"sbuf:{c}:0x600", "dtype": "u32", "values": [sel[c]]})
    with tempfile.TemporaryDirectory() as tmp:
        src, binary, state = (os.path.join(tmp, n) for n in ("prog.tasm", "prog.bin", "state.json"))
        with open(src, "w") as f:
            f.write(PROGRAM)
        with open(state, "w") as f:
            json.dump({"memory": memory}, f)
        subprocess.run([tool, "asm", "--gen", "cayman", src, "-o", binary], check=True)
        dumps = []
        for c in range(C):
            for off, dt in ((0x200, "fp32"), (0x300, "bf16"), (0x500, "fp32"), (0x700, "fp32")):
                dumps += ["--dump", f"sbuf:{c}:{off:#x}:{dt}:{N}"]
            dumps += ["--dump", f"dve:{c}"]
        out = subprocess.run([tool, "run", "--gen", "cayman", binary, "--init", state, "--json", *dumps],
                             check=True, capture_output=True, text=True).stdout
    d = json.loads(out)
    assert d["status"] == "ok", d
    stt, scan, sr, ts, acc = model(a, b, pred, sel)
    failures = 0
    dumps = d["dumps"]
    for c in range(C):
        got = dumps[5 * c: 5 * c + 5]
        want = [[hex(bits(v)) for v in stt[c]], [f"{bf16_bits(v):#06x}" for v in scan[c]],
                [hex(bits(v)) for v in sr[c]], [hex(bits(v)) for v in ts[c]]]
        for name, g, w in zip(("stt", "scan", "select_reduce", "select"), got[:4], want):
            gb = [int(x, 16) for x in g["bits"]]
            wb = [int(x, 16) for x in w]
            if gb != wb:
                failures += 1
                print(f"channel {c} {name}: got {g['bits']}, want {w}")
        acc_bits = got[4].get("acc", {}).get("bits") if isinstance(got[4].get("acc"), dict) else None
        if acc_bits is not None and int(acc_bits, 16) != bits(acc[c]):
            failures += 1
            print(f"channel {c} accumulator: got {acc_bits}, want {bits(acc[c]):#x}")
    print(f"stt program: {C} channels x {N} elements, {'OK' if failures == 0 else f'{failures} mismatches'}"
          f" (model: {'NumPy' if np is not None else 'struct fp32'})")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
