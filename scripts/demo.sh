#!/usr/bin/env bash
# make demo: assemble, validate and run the bundled example program, showing a readable trace and the results.
set -euo pipefail
tool=$(realpath "${1:-build/tpbisa}")
cd "$(dirname "$0")/.."
out=$(dirname "$tool")/demo
mkdir -p "$out"
step() { printf '\n== %s\n$ %s\n' "$1" "${*:2}"; "${@:2}"; }

step "Assemble examples/demo.tasm (CAYMAN)" "$tool" asm --gen cayman examples/demo.tasm -o "$out/demo.bin"
step "Disassemble it back: the canonical form" "$tool" disasm --gen cayman "$out/demo.bin"
step "Validate every word" "$tool" validate --gen cayman "$out/demo.bin"
step "Run it, writing a JSON-Lines trace" "$tool" run --gen cayman "$out/demo.bin" --trace "$out/demo-trace.jsonl" \
  --dump sbuf:0:0x400:fp32:8 --dump sbuf:1:0x400:fp32:8
step "The trace, readable (each register, memory, DVE and semaphore write)" "$tool" trace show "$out/demo-trace.jsonl"
printf '\nExpected: partition 0 holds 2 4 1.5 2 -5 -6 70 80, partition 1 holds 3 6 3 4 1.25 1.5 -14 -16.\n'
