#!/usr/bin/env bash
# The whole command line against cat: `tpbisa validate --quiet --gen cayman FILE` vs `cat FILE > /dev/null` on a
# generated file of valid words (min/median/max wall time of repeated runs and the median CPU-time ratio, same file,
# warm page cache), then a scaling check of validate from 10^4 to 10^7 words (time per word and peak RSS). Every
# command runs pinned to one core (taskset -c $CPU, default 1, when taskset exists), since the machine may be shared. With PROFILE=1 and perf
# installed, the 10^7-word run is also sampled and the symbols that take the time are listed. validate's default
# --jobs is the CPUs it may run on, so the default pinning measures one thread; CPU=0,1 lets it use two (cat uses one
# either way).
# Usage: [CPU=1] [PROFILE=1] bench/cli_vs_cat.sh TPBISA [WORDS=10000000] [RUNS=5] [DIR=a temporary directory]
set -euo pipefail
tpbisa=${1:?usage: cli_vs_cat.sh TPBISA [WORDS] [RUNS] [DIR]}
words=${2:-10000000}
runs=${3:-5}
dir=${4:-$(mktemp -d)}
mkdir -p "$dir"  # a DIR that does not exist yet is created
here=$(cd "$(dirname "$0")" && pwd)
tsv="$here/../tests/vectors/validate.tsv"
py=/usr/bin/python3
pin=()
if command -v taskset >/dev/null; then pin=(taskset -c "${CPU:-1}"); fi

# A file of N words: the verdict vectors valid on CAYMAN without options, repeated (every word valid).
make_file() {
  "$py" - "$tsv" "$1" "$2" <<'PY'
import sys
tsv, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
block = b""
for line in open(tsv):
    if line.startswith("#"):
        continue
    f = line.rstrip("\n").split("\t")
    if len(f) >= 6 and f[2] == "valid" and "cayman" in f[1].split(",") and f[4] == "-":
        block += bytes.fromhex(f[5])
per = len(block) // 64
with open(out, "wb") as o:
    full, rest = divmod(n, per)
    chunk = block * 4096
    for _ in range(full // 4096):
        o.write(chunk)
    o.write(block * (full % 4096))
    o.write(block[: rest * 64])
PY
}

# Wall seconds, peak RSS (KiB) and CPU seconds (user + system) of one command, stdout to /dev/null:
# "SECONDS KIB CPU" (exit 0 or 1 accepted).
measure() {
  "$py" - "$@" <<'PY'
import resource, subprocess, sys, time
t = time.perf_counter()
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
t = time.perf_counter() - t
if rc not in (0, 1):
    sys.exit(f"{sys.argv[1]} exited {rc}")
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{t:.6f} {u.ru_maxrss} {u.ru_utime + u.ru_stime:.6f}")
PY
}
# The same, pinned.
run_pinned() { measure "${pin[@]}" "$@"; }

# min/median/max of the numbers on stdin.
stats() {
  sort -g | "$py" -c 'import sys; v=[float(x) for x in sys.stdin]; print(f"{min(v):.4f} {v[len(v)//2]:.4f} {max(v):.4f}")'
}

file="$dir/words_$words.bin"
[ -f "$file" ] || make_file "$words" "$file"
bytes=$(stat -c %s "$file")
cat "$file" > /dev/null  # warm the page cache
# Every word must be valid: the run checks it once (exit 0), so the timing is of the valid-word path.
"$tpbisa" validate --quiet --gen cayman "$file" > "$dir/summary.txt"
echo "file: $words words ($bytes bytes); $(cat "$dir/summary.txt")"
echo "pinned: ${pin[*]:-no} (validate's threads: $("${pin[@]}" nproc))"

: > "$dir/cat.txt"
: > "$dir/validate.txt"
for _ in $(seq "$runs"); do
  run_pinned cat "$file" >> "$dir/cat.txt"
  run_pinned "$tpbisa" validate --quiet --gen cayman "$file" >> "$dir/validate.txt"
done
read -r cmin cmed cmax < <(cut -d' ' -f1 < "$dir/cat.txt" | stats)
read -r vmin vmed vmax < <(cut -d' ' -f1 < "$dir/validate.txt" | stats)
read -r _ ccpu _ < <(cut -d' ' -f3 < "$dir/cat.txt" | stats)
read -r _ vcpu _ < <(cut -d' ' -f3 < "$dir/validate.txt" | stats)
echo "cat FILE > /dev/null:                    min/median/max $cmin / $cmed / $cmax s (median CPU $ccpu s)"
echo "tpbisa validate --quiet --gen cayman:    min/median/max $vmin / $vmed / $vmax s (median CPU $vcpu s)"
"$py" -c "c=$cmed; v=$vmed; print(f'validate throughput / cat throughput (medians): {c / v if v > 0 else float(\"inf\"):.3f}x')"
# CPU time (user + system) is less disturbed than wall time by a neighbour on a shared machine.
"$py" -c "c=$ccpu; v=$vcpu; print(f'the same in CPU time (medians): {c / v if v > 0 else float(\"inf\"):.3f}x')"

echo "scaling (validate --quiet --gen cayman; median of $runs runs):"
echo "  words       seconds     ns/word   peak RSS KiB"
for n in 10000 100000 1000000 10000000; do
  [ "$n" -le "$words" ] || break
  f="$dir/words_$n.bin"
  [ -f "$f" ] || make_file "$n" "$f"
  cat "$f" > /dev/null
  : > "$dir/scale.txt"
  for _ in $(seq "$runs"); do run_pinned "$tpbisa" validate --quiet --gen cayman "$f" >> "$dir/scale.txt"; done
  t=$(cut -d' ' -f1 < "$dir/scale.txt" | sort -g | sed -n "$(( (runs + 1) / 2 ))p")
  rss=$(cut -d' ' -f2 < "$dir/scale.txt" | sort -g | tail -1)
  "$py" -c "print(f'  {$n:<10}  {$t:<10.4f}  {$t * 1e9 / $n:<8.1f}  $rss')"
done

# Where the time goes: self time by symbol of one pinned run (perf samples of the CPU clock).
if [ "${PROFILE:-0}" = 1 ] && command -v perf >/dev/null; then
  echo "profile (perf, self time by symbol, $words words):"
  perf record -q -F 4999 -o "$dir/perf.data" -- "${pin[@]}" "$tpbisa" validate --quiet --gen cayman "$file" \
    > /dev/null 2>&1 || true
  perf report -q -i "$dir/perf.data" --stdio --sort dso,symbol 2> /dev/null | grep -v '^$' |
    sed 's/  *-  *- *$//' > "$dir/profile.txt"
  # The shares: the command line's own code (tpbisa::cli, main), the library under it, the kernel, the rest.
  awk '{ p = $1; sub("%", "", p); d = $2; s = $4
         if (d == "[kernel.kallsyms]") k += p
         else if (s ~ /^tpbisa::cli::/ || s == "main") c += p
         else if (d == "tpbisa") l += p
         else o += p }
       END { printf "  shares: command line %.1f %%, library %.1f %%, kernel %.1f %%, other %.1f %%\n", c, l, k, o }' \
    "$dir/profile.txt"
  head -15 "$dir/profile.txt" | cut -c1-120
fi
