#!/usr/bin/env python3
"""Generates validate.tsv: per-generation validator verdicts from every family's vectors -- the numbered cases of
spec/edge-cases.md, and for each predicate one accepting and one rejecting word per generation."""
#
# Usage: python3 tests/vectors/make_validate_vectors.py [OUT]   (default: validate.tsv next to this file)
#
# Each family's vectors are in tests/families/<family>/vectors.py, whose add() calls vectorlib.vec(); the families
# are read in the order of their folder names, so a new family's folder needs no line here. The shared part
# (generations, enum values, predicate names, the word header, the file's format) is vectorlib.py.

import glob
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import vectorlib  # noqa: E402


def add_families():
    """Runs add() of every tests/families/<family>/vectors.py, in folder-name order."""
    for path in sorted(glob.glob(os.path.join(HERE, "..", "families", "*", "vectors.py"))):
        family = os.path.basename(os.path.dirname(path))
        spec = importlib.util.spec_from_file_location(f"vectors_{family}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.add()


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "validate.tsv")
    add_families()
    text = vectorlib.render()
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print(f"{len(vectorlib.VECTORS)} vectors written to {out}")


if __name__ == "__main__":
    main()
