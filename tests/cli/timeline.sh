#!/usr/bin/env bash
# `tpbisa run PROG.neff --timeline FILE.json` on the real matmul_small.neff (skipped when ../shared/data is absent):
# the file is trace-event JSON as ui.perfetto.dev and chrome://tracing read it (docs/trace.md, "Timeline"), with one
# slice per retired word on its core's engine track, waits, flows from release to wait and DMA queue tracks; the
# same rules on a generated program's timeline; and `tpbisa neff sems --dot`, rendered by Graphviz where installed.
set -u
tool=${1:?usage: timeline.sh TPBISA_BINARY SOURCE_DIR}
src=${2:?usage: timeline.sh TPBISA_BINARY SOURCE_DIR}
tool=$(realpath "$tool")
src=$(realpath "$src")
# Exit 77: ctest reports the script as skipped (SKIP_RETURN_CODE, tests/CMakeLists.txt).
neff="${TPBISA_SHARED_DATA_DIR:-$src/../shared/data}/matmul_small.neff"
if [ ! -f "$neff" ]; then
  echo "SKIP: the shared data folder is absent"
  exit 77
fi
py=/usr/bin/python3
if ! "$py" -c 'import numpy' 2>/dev/null; then
  echo "SKIP: NumPy is not installed"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$py" -c "
import numpy as np
r = np.random.default_rng(0)
np.save('x.npy', r.integers(-2, 3, (128, 256)).astype(np.float16))
np.save('y.npy', r.integers(-2, 3, (256, 128)).astype(np.float16))"
"$tool" run "$neff" --input x=x.npy --input y=y.npy --timeline tl.json >out.txt 2>err.txt
rc=$?
[ "$rc" -eq 0 ] || fail "run --timeline: exit $rc ($(cat err.txt))"
"$py" - tl.json <<'PY' || fail "the timeline is not the trace-event document expected"
import json, sys
from collections import defaultdict
doc = json.load(open(sys.argv[1]))
assert set(doc) == {"traceEvents", "displayTimeUnit", "otherData"}, set(doc)
assert "cost model, not silicon" in doc["otherData"]["time"]
events = doc["traceEvents"]
for e in events:
    assert e["ph"] in {"X", "M", "s", "f"}, e
    assert isinstance(e["pid"], int) and e["pid"] in (0, 1), e
    if e["ph"] != "M" or "tid" in e:
        assert isinstance(e["tid"], int), e
    if e["ph"] == "X":
        assert isinstance(e["ts"], int) and e["ts"] >= 0 and isinstance(e["dur"], int) and e["dur"] > 0, e
        assert e["name"] and e["cat"] and "word" in e["args"], e
names = {(e["pid"], e.get("tid")): e["args"]["name"] for e in events if e["ph"] == "M" and e["name"].endswith("_name")}
assert names[(0, None)] == "core 0 (sg00)" and names[(1, None)] == "core 1 (sg01)", names
assert [names[(0, t)] for t in range(5)] == ["PE", "ACT", "POOL", "DVE", "SP"], names
queues = sorted(v for (p, t), v in names.items() if p == 0 and t is not None and t >= 100)
assert queues == ["DMA queue $S[24]", "DMA queue $S[25]", "DMA queue $S[26]", "DMA queue $S[27]", "DMA queue $S[8]"], queues
slices = [e for e in events if e["ph"] == "X"]
words = [e for e in slices if e["cat"] not in ("wait", "dma")]
# One slice per retired word: 58 words, each label once.
assert len(words) == 58 and len({e["args"]["word"] for e in words}) == 58, len(words)
assert len([e for e in slices if e["cat"] == "dma"]) == 10
# Slices on one track never overlap (a track is one engine or one queue).
tracks = defaultdict(list)
for e in slices:
    tracks[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"]))
for spans in tracks.values():
    spans.sort()
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), spans
# Waits: PE waits for the DMAs of x and y; each flow starts in a slice and ends in a wait slice.
waits = [e for e in slices if e["cat"] == "wait"]
assert any(e["name"] == "wait $S[24]>=16" and e["tid"] == 0 for e in waits), waits
starts = {e["id"]: e for e in events if e["ph"] == "s"}
ends = {e["id"]: e for e in events if e["ph"] == "f"}
assert starts and set(starts) == set(ends)
def inside(ev, cats):
    return any(s["pid"] == ev["pid"] and s["tid"] == ev["tid"] and s["ts"] <= ev["ts"] < s["ts"] + s["dur"]
               and s["cat"] in cats for s in slices)
for i, f in ends.items():
    assert f["bp"] == "e" and inside(f, {"wait"}), f
    assert inside(starts[i], {"dma", "PE", "ACT", "POOL", "DVE", "SP"}), starts[i]
# A Matmul costs more than the issue time: its MACs are counted.
mm = [e for e in words if e["name"] == "Matmul"]
assert mm and all(e["args"]["macs"] > 0 and e["dur"] > 64 for e in mm), mm
PY

# ---- a generated program (examples/gen_matmul_neff.py, one core, 4 x 2 tiles): the same rules of the format ----
TPBISA="$tool" "$py" "$src/examples/gen_matmul_neff.py" --out gen.neff --k 512 --n 1024 --lnc 1 --write-inputs gen \
  >gen.txt 2>&1 ||
  fail "gen_matmul_neff.py: $(cat gen.txt)"
"$tool" run gen.neff --input x=gen/x.npy --input y=gen/y.npy --expect output0=gen/ref.npy --json --timeline gen.json \
  >gen-run.json 2>err.txt || fail "run --timeline of the generated program: exit $? ($(cat err.txt))"
"$py" - gen.json gen-run.json <<'PY' || fail "the generated program's timeline"
import json, sys
from collections import defaultdict
doc, run = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
events = doc["traceEvents"]
assert all(e["ph"] in {"X", "M", "s", "f"} and e["pid"] == 0 for e in events)
slices = [e for e in events if e["ph"] == "X"]
assert all(isinstance(e["ts"], int) and isinstance(e["dur"], int) and e["dur"] > 0 for e in slices)
words = [e for e in slices if e["cat"] not in ("wait", "dma")]
assert len(words) == run["retired"] and len({e["args"]["word"] for e in words}) == len(words), (len(words), run["retired"])
assert sum(1 for e in words if e["name"] == "PseudoDmaDirect2d") == sum(1 for e in slices if e["cat"] == "dma")
tracks = defaultdict(list)
for e in slices:
    tracks[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"]))
for spans in tracks.values():
    spans.sort()
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), spans
starts = {e["id"] for e in events if e["ph"] == "s"}
assert starts and starts == {e["id"] for e in events if e["ph"] == "f"}
assert any(e["cat"] == "wait" for e in slices)
PY

# The SVG drawing of docs/images/matmul-timeline.svg: one box per slice of core 0.
"$py" "$src/scripts/timeline_svg.py" tl.json tl.svg || fail "timeline_svg.py failed"
[ "$(grep -c '<rect ' tl.svg)" -ge 40 ] || fail "timeline_svg.py drew $(grep -c '<rect ' tl.svg) slices"

# ---- usage: NEFF only, a file name, one order of steps ----
"$tool" run --gen cayman "$src/examples/demo.bin" --timeline t.json >/dev/null 2>err.txt
[ $? -eq 2 ] && grep -q -- "--timeline" err.txt || fail "--timeline with a word stream: $(cat err.txt)"
"$tool" run "$neff" --input x=x.npy --input y=y.npy --timeline - >/dev/null 2>err.txt
[ $? -eq 2 ] || fail "--timeline - is not a usage error"
"$tool" run "$neff" --input x=x.npy --input y=y.npy --threads --timeline t.json >/dev/null 2>err.txt
[ $? -eq 2 ] || fail "--threads with --timeline is not a usage error"
"$tool" run "$neff" --input x=x.npy --input y=y.npy --timeline x.npy >/dev/null 2>err.txt
[ $? -eq 3 ] || fail "--timeline over an input is not refused: $(cat err.txt)"

# ---- neff sems --dot ----
"$tool" neff sems --dot "$neff" >sems.dot 2>err.txt || fail "neff sems --dot: exit $?"
head -1 sems.dot | grep -qx 'digraph semaphores {' || fail "not a digraph: $(head -1 sems.dot)"
grep -qF '"sg00/Pool" -> "sg00/PE" [label="$S[24]  #2 -> #2"];' sems.dot || fail "no Pool -> PE edge for S[24]"
grep -qF '"sg00/PE" -> "sg00/Activation" [label="$S[5]  #4,#6,#9,#11 -> #3,#4"];' sems.dot || fail "no PE -> ACT edge"
"$tool" neff sems --dot --json "$neff" >/dev/null 2>&1
[ $? -eq 2 ] || fail "--dot with --json is not a usage error"
if command -v dot >/dev/null; then
  dot -Tsvg sems.dot >sems.svg || fail "dot -Tsvg failed"
  grep -q '<svg' sems.svg || fail "dot wrote no SVG"
else
  echo "note: Graphviz is not installed; the .dot file is not rendered"
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures failed"
  exit 1
fi
echo "timeline: all passed"
