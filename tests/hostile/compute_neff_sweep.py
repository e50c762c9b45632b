#!/usr/bin/env python3
"""Crafted NEFFs over the compute opcodes (issue 36: a hostile run over the new formats).

Usage: compute_neff_sweep.py TPBISA_BINARY SOURCE_DIR [MAX_WORDS] [SEED]

Every word of the compute families' vectors in tests/vectors/validate.tsv (valid and invalid), and a byte-mutated
copy of each, is put alone into one engine stream of a small NEFF (the stream rotates over PE, ACT, POOL, DVE, SP),
packed by the fixtures' container writer, and given to `tpbisa run` (with a step bound), `validate`, `disasm` and
`neff sems`. Each command must end within its time bound with a documented exit code (0, 1 or 3): never a signal,
a hang or a usage error. MAX_WORDS bounds the vectors taken (default: all); prints the number of cases and runs.
"""
import os
import random
import subprocess
import sys
import tempfile

TOOL, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
LIMIT = int(sys.argv[3]) if len(sys.argv) > 3 else 0
SEED = int(sys.argv[4]) if len(sys.argv) > 4 else 1
sys.path.insert(0, os.path.join(SRC, "tests", "neff"))
import make_fixtures as f  # noqa: E402

# The vector id prefixes of the compute families (alu-ops.md, act-index-ops.md).
PREFIXES = ("ts-", "stt-", "scan-", "sel-", "sr-", "ln-", "pr-", "rd-", "bn-", "mr-", "ix-")
ENGINES = ["PE", "Activation", "Pool", "DVE", "SP"]


def words():
    out = []
    with open(os.path.join(SRC, "tests", "vectors", "validate.tsv")) as tsv:
        for line in tsv:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            if cols[0].startswith(PREFIXES):
                out.append(bytes.fromhex(cols[-1]))
    return out


def mutated(word, rng):
    w = bytearray(word)
    for _ in range(rng.randint(1, 4)):
        w[rng.randrange(12, 64)] = rng.randrange(256)  # the operands; the opcode and events stay
    return bytes(w)


def main():
    rng = random.Random(SEED)
    cases = []
    for w in words():
        cases.append(w)
        cases.append(mutated(w, rng))
    if LIMIT:
        rng.shuffle(cases)
        cases = cases[: 2 * LIMIT]
    base = f.program()
    failures, runs = 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        x = os.path.join(tmp, "x.npy")
        with open(x, "wb") as out:
            out.write(f.npy("<f2", (16, 16), bytes(512)))
        for k, w in enumerate(cases):
            engine = ENGINES[k % len(ENGINES)]
            streams = {f"sg00/{e}.bin": (w if e == engine else b"") for e in f.ENGINE_FILES.values()}
            members = [(n, streams.get(n, d)) for n, d in base]
            path = os.path.join(tmp, "case.neff")
            with open(path, "wb") as out:
                out.write(f.container(members))
            for cmd in (["run", path, "--input", "x=" + x, "--max-steps", "1000"], ["validate", path],
                        ["disasm", path], ["neff", "sems", path]):
                runs += 1
                try:
                    p = subprocess.run([TOOL] + cmd, capture_output=True, timeout=20)
                    code = p.returncode
                except subprocess.TimeoutExpired:
                    code = "timeout"
                if code not in (0, 1, 3):
                    failures += 1
                    print(f"FAIL: {' '.join(cmd[:2])} on {engine} word {w.hex()}: exit {code}")
    print(f"{len(cases)} crafted NEFFs, {runs} runs, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
