"""Runs ACTIVATE exp(scale*x + bias) with a per-partition pointer bias and the accumulators (LOAD_ACCUMULATE, then
ACCUMULATE, then ACTIVATION_READ_ACCUMULATOR) with `tpbisa run --act-tables` on the real NEFF's tables, and compares
every output bit for bit with an independent NumPy model of act-index-ops.md §3.6 / §4.3 that reads the table blobs
from the NEFF itself. Usage: python3 e2e_exp_accumulate.py path/to/tpbisa SOURCE_DIR (exit 77: NEFF absent)."""

import gzip
import io
import json
import os
import struct
import subprocess
import sys
import tarfile
import tempfile

import numpy as np

F32, F64 = np.float32, np.float64


def neff_members(path):
    """The members of a NEFF (1024-byte header, then a gzip or plain tar), by name."""
    data = open(path, "rb").read()[1024:]
    if data[:2] == b"\x1f\x8b":
        data = gzip.GzipFile(fileobj=io.BytesIO(data)).read()
    with tarfile.open(fileobj=io.BytesIO(data)) as t:
        return {m.name.lstrip("./"): t.extractfile(m).read() for m in t.getmembers() if m.isfile()}


def load_set(members, sg="sg00"):
    """The first set Activation.json lists: its profiles by func_id, BUCKET records and CONTROL words."""
    aj = json.loads(members[f"{sg}/Activation.json"])
    name = aj["activation_function_sets"][0]
    man = json.loads(members[f"{sg}/{name}.json"])
    bkt = members[f"{sg}/{man['bkt_bin']}"]
    ctl = members[f"{sg}/{man['ctl_bin']}"]
    buckets = [struct.unpack_from("<5I", bkt, 32 * i) for i in range(man["bkt_entry_cnt"])]
    stride = len(ctl) // man["ctl_entry_cnt"]
    control = [struct.unpack_from("<I", ctl, stride * i)[0] for i in range(man["ctl_entry_cnt"])]
    return {p["func_id"]: p for p in man["profile_meta_data"]}, buckets, control


def f32(bits):
    return np.array([bits], dtype=np.uint32).view(np.float32)[0]


def bits_of(x):
    return int(np.array([x], dtype=np.float32).view(np.uint32)[0])


def pwp_eval(P, buckets, control, vb):
    """§3.6 step by step (PROJ-CONV-A2 schedule, A3 NaN result)."""
    mag = vb & 0x7FFFFFFF
    if mag > 0x7F800000:
        return P["fnan_result"]
    if mag == 0:
        return P["fzero_result"]
    if vb == 0x7F800000:
        return P["fpinf_result"]
    if vb == 0xFF800000:
        return P["fninf_result"]
    sel = vb
    if P["symmetry_opt_en"]:
        sel = mag | 0x80000000 if P["symmetry_opt_use_neg_region"] else mag
    side = "neg" if sel >> 31 else "pos"
    e, m = (sel >> 23) & 0xFF, sel & 0x7FFFFF
    le, lm = P[f"large_{side}_signal_exp_threshold"], P[f"large_{side}_signal_mantissa_threshold"]
    se = P[f"small_{side}_signal_exp_threshold"]
    if e > le or (e == le and m >= lm):
        rec = P[f"{side}_large_signal_pwl_control"]
    elif e < se or (e == se and m == 0):
        rec = P[f"{side}_small_signal_pwl_control"]
    else:
        w = control[P[f"pwl_control_base_{side}"] + (e - 127 - P["exp_offset"])]
        rec = (w & 0x7FF) + (m >> ((w >> 11) & 31))
    d0, d1, d2, d3, x0 = (f32(b) for b in buckets[rec])
    t = F32(f32(sel) - x0)
    a = F32(F32(t * d1) + d0)
    td = F64(t)
    t2 = td * td
    r = F64(a) + t2 * F64(d2)
    r = r + (t2 * td) * F64(d3)
    res = F32(r)
    if P["symmetry_opt_en"] and (vb >> 31) and mag <= 0x7F800000:
        if P["sym_invert_sign_point"]:
            res = -res
        res = F32(res + f32(P["symmetry_point"]))
    return bits_of(res)


def activate_word(cmd, scale, imm, nac, n, func=7):
    """ACTIVATE (§4.1): scale and imm instruction immediates, a pointer FP32 bias at SB 0x3000, FP32 in and out,
    src SB 0x1000 and dst SB 0x2000 of n elements."""
    w = bytearray(64)
    w[0], w[1] = 0x21, 0x10
    w[12], w[13], w[14], w[15] = 0, 0, cmd, 0  # imm_src, scale_src, accumulator_cmd, bias_src_n = 0 (pointer)
    struct.pack_into("<IhhhHHH", w, 16, 0x1000, 1, 0, 0, n, 1, 1)
    w[32], w[33], w[34], w[35] = 0xAA, 0x0A, nac, func
    struct.pack_into("<fIf", w, 36, scale, 0x3000, imm)
    struct.pack_into("<IhhhHHH", w, 48, 0x2000, 1, 0, 0, n, 1, 1)
    return w.hex()


def main(tool, source):
    neff = os.path.join(source, "..", "shared", "data", "matmul_small.neff")
    if not os.path.exists(neff):
        print(f"{neff} is absent: skipped")
        return 77
    profiles, buckets, control = load_set(neff_members(neff))
    P = profiles[7]  # exp
    assert P["func_name"].startswith("exp")

    rng = np.random.default_rng(39)
    nac, n = 4, 16
    x = (rng.standard_normal((nac, n)) * 3).astype(np.float32)
    x[0, :4] = [0.0, -0.0, 40.0, -30.0]  # fzero_result, a large and a saturating input
    bias = np.array([0.5, -1.0, 0.0, 2.25], dtype=np.float32)
    scale, seed = np.float32(0.5), np.float32(0.25)
    load = "23100000" + "00" * 60
    read = "24100000" + "00" * 24 + "01000000" + "0a00" + f"{nac:02x}" + "00" * 9 + "00400000" + "01000100" + "00" * 12
    words = [load, activate_word(4, float(scale), float(seed), nac, n), activate_word(2, float(scale), 0.0, nac, n),
             read]

    init = {"memory": [{"at": f"sbuf:{p}:0x1000", "dtype": "fp32", "values": [float(v) for v in x[p]]}
                       for p in range(nac)] +
            [{"at": f"sbuf:{p}:0x3000", "dtype": "fp32", "values": [float(bias[p])]} for p in range(nac)]}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(init, f)
    args = [tool, "run", "--gen", "cayman", "--engine", "act", "--act-tables", neff, "--init", f.name, "--json"]
    for w in words:
        args += ["--hex", w]
    for p in range(nac):
        args += ["--dump", f"sbuf:{p}:0x2000:fp32:{n}", "--dump", f"sbuf:{p}:0x4000:fp32:1"]
    out = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    dumps = [[int(b, 16) for b in d["bits"]] for d in out["dumps"]]

    ok = True
    for p in range(nac):
        want, acc = [], seed
        for _ in range(2):  # LOAD_ACCUMULATE from the seed, then ACCUMULATE on top
            want = []
            for k in range(n):
                y = F32(F32(x[p, k] * scale) + bias[p])
                fb = pwp_eval(P, buckets, control, bits_of(y))
                want.append(fb)
                acc = F32(acc + f32(fb))
        if dumps[2 * p] != want:
            ok = False
            print(f"partition {p}: got {[hex(v) for v in dumps[2 * p]]}, want {[hex(v) for v in want]}")
        if dumps[2 * p + 1] != [bits_of(acc)]:
            ok = False
            print(f"partition {p} accumulator: got {hex(dumps[2 * p + 1][0])}, want {hex(bits_of(acc))}")
    # The tables approximate exp: close to libm, not equal to it.
    y = (x[1] * scale + bias[1]).astype(np.float64)
    got = np.array(dumps[2], dtype=np.uint32).view(np.float32).astype(np.float64)
    if not np.all(np.abs(got - np.exp(y)) <= 1.2e-5 * np.exp(y)):
        ok = False
        print("exp differs from libm by more than the stated bound")
    print("ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
