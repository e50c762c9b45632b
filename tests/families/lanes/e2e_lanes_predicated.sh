#!/usr/bin/env bash
# End-to-end `tpbisa run` of the lanes and predicated families (alu-ops.md §3.6, §3.7, §4): a small program per family
# is assembled, run on one stream with random NumPy inputs, and its memory compared bit for bit with an independent
# NumPy model written here (never the tool's output); the mask register shows in `--dump mask:0` and `--json`.
set -u
tool=${1:?usage: lanes_predicated.sh TPBISA_BINARY SOURCE_DIR}
py=/usr/bin/python3
"$py" -c 'import numpy' 2>/dev/null || { echo "SKIP: NumPy is not installed for $py"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# ---- The lanes program: a lane map (some lanes unmodified), a 64-channel FP32 shuffle, a 64 x 64 BF16 transpose ----
cat >"$tmp/lanes.tasm" <<'EOF'
LoadMaskSelect mask={3,0,40,1,31,30,255,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,2,32}
StreamShuffle src.start_addr=sbuf[p0]+0x0 src.step_elem={1,1,1,1} src.num_elem={8,1,1,1} in_dtype=fp32 out_dtype=fp32 num_active_channels=64 op=BYPASS op_dim=UNUSED dst.start_addr=sbuf[p0]+0x100 dst.step_elem={1,1,1,1} dst.num_elem={8,1,1,1}
StreamTranspose src.start_addr=sbuf[p0]+0x200 src.step_elem={1,1,1,1} src.num_elem={64,1,1,1} in_dtype=bf16 out_dtype=bf16 num_active_channels=64 mask_enable=1 op=BYPASS op_dim=UNUSED dst.start_addr=sbuf[p0]+0x400 dst.step_elem={1,1,1,1} dst.num_elem={64,1,1,1}
EOF
# ---- The predicated program: UINT32 XOR, COPY_PREDICATED on FP32 and CAST_PREDICATED FP32 -> BF16 (RNE) ----
cat >"$tmp/pred.tasm" <<'EOF'
TensorTensorBitvecOp in0_in1_dtype={u32,u32} out_dtype=u32 op=BITWISE_XOR num_active_channels=32 src0.start_addr=sbuf[p0]+0x0 src0.step_elem={1,0,0} src0.num_elem={16,1,1} src1.start_addr=sbuf[p0]+0x100 src1.step_elem={1,0,0} src1.num_elem={16,1,1} dst.start_addr=sbuf[p0]+0x200 dst.step_elem={1,0,0} dst.num_elem={16,1,1}
CopyPredicated in0_in1_dtype={u8,fp32} out_dtype=fp32 op=BYPASS num_active_channels=32 src0.start_addr=sbuf[p0]+0x300 src0.step_elem={1,0,0} src0.num_elem={16,1,1} src1.start_addr=sbuf[p0]+0x400 src1.step_elem={1,0,0} src1.num_elem={16,1,1} dst.start_addr=sbuf[p0]+0x500 dst.step_elem={1,0,0} dst.num_elem={16,1,1}
CastPredicated in0_in1_dtype={u8,fp32} out_dtype=bf16 op=BYPASS num_active_channels=32 src0.start_addr=sbuf[p0]+0x300 src0.step_elem={1,0,0} src0.num_elem={16,1,1} src1.start_addr=sbuf[p0]+0x400 src1.step_elem={1,0,0} src1.num_elem={16,1,1} dst.start_addr=sbuf[p0]+0x600 dst.step_elem={1,0,0} dst.num_elem={16,1,1}
EOF
for p in lanes pred; do
  "$tool" asm --gen cayman "$tmp/$p.tasm" -o "$tmp/$p.bin" >"$tmp/asm.out" 2>&1 || fail "asm $p: $(cat "$tmp/asm.out")"
done

# inputs.py DIR: the random inputs (seeded), their STATE.json files and the --dump lists of both programs.
"$py" - "$tmp" <<'PY' || fail "inputs not written"
import json, sys
import numpy as np
d = sys.argv[1]
rng = np.random.default_rng(38)
def mem(at, dtype, bits):
    return {"at": at, "dtype": dtype, "bits": [hex(int(b)) for b in bits]}
# lanes: src FP32 64 x 8 at 0x0, the shuffle destination pre-set at 0x100, BF16 64 x 64 at 0x200.
shuf = rng.integers(0, 2**32, (64, 8), dtype=np.uint64).astype(np.uint32)
pre = rng.integers(0, 2**32, (64, 8), dtype=np.uint64).astype(np.uint32)
tsrc = rng.integers(0, 2**16, (64, 64)).astype(np.uint16)
np.savez(f"{d}/lanes_in.npz", shuf=shuf, pre=pre, tsrc=tsrc)
memory = []
for p in range(64):
    memory += [mem(f"sbuf:{p}:0x0", "u32", shuf[p]), mem(f"sbuf:{p}:0x100", "u32", pre[p]),
               mem(f"sbuf:{p}:0x200", "u16", tsrc[p])]
json.dump({"memory": memory}, open(f"{d}/lanes_state.json", "w"))
open(f"{d}/lanes_dumps", "w").write("".join(f"sbuf:{p}:0x100:u32:8\nsbuf:{p}:0x400:u16:64\n" for p in range(64)))
# predicated: u32 pairs, a u8 predicate with zeros, FP32 data (finite), destinations pre-set.
a = rng.integers(0, 2**32, (32, 16), dtype=np.uint64).astype(np.uint32)
b = rng.integers(0, 2**32, (32, 16), dtype=np.uint64).astype(np.uint32)
pred = (rng.integers(0, 3, (32, 16)) * rng.integers(1, 256, (32, 16))).astype(np.uint8)
data = rng.normal(0, 1000, (32, 16)).astype(np.float32)
pre_f = rng.normal(0, 1, (32, 16)).astype(np.float32)
pre_h = rng.integers(0, 2**16, (32, 16)).astype(np.uint16)
np.savez(f"{d}/pred_in.npz", a=a, b=b, pred=pred, data=data, pre_f=pre_f, pre_h=pre_h)
memory = []
for p in range(32):
    memory += [mem(f"sbuf:{p}:0x0", "u32", a[p]), mem(f"sbuf:{p}:0x100", "u32", b[p]),
               mem(f"sbuf:{p}:0x300", "u8", pred[p]), mem(f"sbuf:{p}:0x400", "u32", data[p].view(np.uint32)),
               mem(f"sbuf:{p}:0x500", "u32", pre_f[p].view(np.uint32)), mem(f"sbuf:{p}:0x600", "u16", pre_h[p])]
json.dump({"memory": memory}, open(f"{d}/pred_state.json", "w"))
open(f"{d}/pred_dumps", "w").write(
    "".join(f"sbuf:{p}:0x200:u32:16\nsbuf:{p}:0x500:u32:16\nsbuf:{p}:0x600:u16:16\n" for p in range(32)))
PY

for p in lanes pred; do
  dumps=()
  while read -r spec; do dumps+=(--dump "$spec"); done <"$tmp/${p}_dumps"
  [ "$p" = lanes ] && dumps+=(--dump mask:0)
  "$tool" run --gen cayman "$tmp/$p.bin" --init "$tmp/${p}_state.json" "${dumps[@]}" --json >"$tmp/$p.json" \
    2>"$tmp/$p.err" || fail "run $p: $(cat "$tmp/$p.err")"
done

# The NumPy models, compared bit for bit with the dumps.
"$py" - "$tmp" <<'PY' || fail "the runs differ from the NumPy models"
import json, sys
import numpy as np
d = sys.argv[1]
def dumps(name):
    doc = json.load(open(f"{d}/{name}.json"))
    assert doc["status"] == "ok", doc["status"]
    return doc["dumps"]
def bits(dump):
    return np.array([int(x, 16) for x in dump["bits"]], dtype=np.uint64)
ok = True
def check(what, got, want):
    global ok
    if not np.array_equal(got.astype(np.uint64), want.astype(np.uint64)):
        ok = False
        bad = np.argwhere(got.astype(np.uint64) != want.astype(np.uint64))[:4]
        print(f"{what}: differs at {bad.tolist()}")
# lanes
x = np.load(f"{d}/lanes_in.npz")
mask = [3, 0, 40, 1, 31, 30, 255, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
        29, 2, 32]
want_shuf = x["pre"].copy()
for c in range(64):
    m = mask[c % 32]
    if m < 32:
        want_shuf[c] = x["shuf"][32 * (c // 32) + m]
want_t = np.empty_like(x["tsrc"])
for g in range(2):
    block = x["tsrc"][32 * g:32 * g + 32].reshape(32, 2, 32)  # [i, b, j] = S[32g + i][32b + j]
    want_t[32 * g:32 * g + 32] = block.transpose(2, 1, 0).reshape(32, 64)  # T[32g + j][32b + i]
ds = dumps("lanes")
check("shuffle", np.stack([bits(ds[2 * p]) for p in range(64)]), want_shuf)
check("transpose", np.stack([bits(ds[2 * p + 1]) for p in range(64)]), want_t)
unit = ds[-1]
assert unit["at"] == "mask:0", unit
assert [l["value"] for l in unit["lanes"]] == mask, unit
assert unit["lanes"][2]["source"] is None and unit["lanes"][0]["source"] == 3 and unit["identity"] is False, unit
# predicated
y = np.load(f"{d}/pred_in.npz")
want_xor = y["a"] ^ y["b"]
take = y["pred"] != 0
want_copy = np.where(take, y["data"].view(np.uint32), y["pre_f"].view(np.uint32))
u = y["data"].view(np.uint32).astype(np.uint64)
bf16 = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)  # round to nearest even (finite data)
want_cast = np.where(take, bf16, y["pre_h"])
ds = dumps("pred")
check("xor", np.stack([bits(ds[3 * p]) for p in range(32)]), want_xor)
check("copy_predicated", np.stack([bits(ds[3 * p + 1]) for p in range(32)]), want_copy)
check("cast_predicated", np.stack([bits(ds[3 * p + 2]) for p in range(32)]), want_cast)
sys.exit(0 if ok else 1)
PY

# The mask register in the text dump: lanes 0..15 of the loaded map, a dash for an unmodified lane.
"$tool" run --gen cayman "$tmp/lanes.bin" --init "$tmp/lanes_state.json" --dump mask:0 >"$tmp/text" 2>&1 ||
  fail "run --dump mask:0: $(cat "$tmp/text")"
grep -qF "lane  0..15  3  0  -  1 31 30  -  7" "$tmp/text" || fail "text dump of the mask register: $(cat "$tmp/text")"
"$tool" run --gen cayman "$tmp/lanes.bin" --dump mask:1 >"$tmp/text" 2>&1
[ $? -eq 2 ] || fail "--dump mask:1 is a usage error (one register)"

[ "$failures" -eq 0 ] || exit 1
echo "lanes_predicated.sh: ok"
