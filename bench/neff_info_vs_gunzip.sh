#!/usr/bin/env bash
# Whole-command speed of `tpbisa neff info` against `gunzip | tar -t` of the same NEFF's payload (issue figure).
# Usage: bench/neff_info_vs_gunzip.sh TPBISA NEFF [RUNS]. Runs the two commands alternately RUNS times (default 31),
# each through `sh -c` (the pipeline needs a shell; the same shell start is in both), and prints min/median/max of
# the wall time and of the CPU time (user + system of the command and its children) of each, and the ratios of the
# medians. Wall time is the issue's measure on an idle machine; CPU time is the one a loaded machine does not
# disturb (the pipeline's three processes run side by side, so its wall time is below its CPU time).
set -euo pipefail
tool=${1:?usage: neff_info_vs_gunzip.sh TPBISA NEFF [RUNS]}
neff=${2:?usage: neff_info_vs_gunzip.sh TPBISA NEFF [RUNS]}
runs=${3:-31}
payload_offset=1024 # the gzip payload starts at 0x400 (docs/neff.md)

exec /usr/bin/python3 - "$tool" "$neff" "$runs" "$payload_offset" <<'EOF'
import resource, statistics, subprocess, sys, time

tool, neff, runs, offset = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
commands = {
    "tpbisa neff info": ['"$0" neff info "$1" >/dev/null', tool, neff],
    "gunzip | tar -t": [f'tail -c +{offset + 1} "$1" | gunzip | tar -t >/dev/null', "sh", neff],
}

def run(script):
    """Wall and CPU milliseconds of one `sh -c script`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(["sh", "-c"] + script, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall * 1e3, cpu * 1e3

samples = {name: ([], []) for name in commands}
for _ in range(runs):
    for name, script in commands.items():
        wall, cpu = run(script)
        samples[name][0].append(wall)
        samples[name][1].append(cpu)

print(f"runs: {runs}")
for name, (wall, cpu) in samples.items():
    print(f"{name + ':':<19}  wall min {min(wall):.3f} median {statistics.median(wall):.3f} max {max(wall):.3f} ms"
          f"   cpu min {min(cpu):.3f} median {statistics.median(cpu):.3f} max {max(cpu):.3f} ms")
ours, base = samples["tpbisa neff info"], samples["gunzip | tar -t"]
print(f"ratio (median wall): {statistics.median(ours[0]) / statistics.median(base[0]):.2f}x")
print(f"ratio (median cpu):  {statistics.median(ours[1]) / statistics.median(base[1]):.2f}x")
EOF
