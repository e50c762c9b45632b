#!/usr/bin/env python3
"""Python disasm_lite against `tpbisa disasm` writing to /dev/null, on the same 10^6 words (the shared vectors of
tests/vectors/validate.tsv repeated). Prints both times and the ratio (Python speed / command speed; goal >= 0.3).

Usage: /usr/bin/python3 bench/python_disasm_lite.py [--build build] [--words 1000000] [--gen cayman]
"""

from __future__ import annotations

import argparse
import os
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]


def vector_words() -> list[bytes]:
    words = []
    for line in (ROOT / "tests" / "vectors" / "validate.tsv").read_text().splitlines():
        if line and not line.startswith("#"):
            words.append(bytes.fromhex(line.split("\t")[5]))
    return words


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=str(ROOT / "build"), help="the build folder (tpbisa and python/)")
    ap.add_argument("--words", type=int, default=1_000_000)
    ap.add_argument("--gen", default="cayman")
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs of each")
    args = ap.parse_args()
    build = pathlib.Path(args.build).resolve()
    sys.path.insert(0, str(build / "python"))
    import tpbisa

    base = vector_words()
    data = b"".join(base[k % len(base)] for k in range(args.words))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "words.bin")
        with open(path, "wb") as f:
            f.write(data)
        cli_best = py_best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            with open(os.devnull, "wb") as null:
                subprocess.run([str(build / "tpbisa"), "disasm", "--gen", args.gen, path], stdout=null, check=True)
            cli_best = min(cli_best, time.perf_counter() - start)
            start = time.perf_counter()
            n = 0
            for _offset, _mnemonic, _text in tpbisa.disasm_lite(data, gen=args.gen):
                n += 1
            py_best = min(py_best, time.perf_counter() - start)
            assert n == args.words
    print(f"words: {args.words} on {args.gen}")
    print(f"tpbisa disasm > /dev/null: {cli_best:.3f} s ({args.words / cli_best:,.0f} words/s)")
    print(f"python disasm_lite:        {py_best:.3f} s ({args.words / py_best:,.0f} words/s)")
    print(f"ratio (python / command speed): {cli_best / py_best:.2f}x (goal >= 0.3x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
