#!/usr/bin/env python3
"""Runs the shell examples of the docs and compares their output: every fenced block whose first line starts
with "$ " (a block right after a line "<!-- not run ... -->" is skipped). Commands run with bash in a scratch copy
of the repository's docs, examples and test data, stdout and stderr merged, `tpbisa` / `build/tpbisa` being the
binary under test. In the expected output a line "..." stands for any number of lines and a line ending in "…"
for any line that starts with what precedes it.

Usage: docs_examples.py TPBISA_BINARY SOURCE_DIR [DOC ...]   (default: README.md docs/cli.md docs/asm.md
docs/robustness.md)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

tool, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
docs = sys.argv[3:] or ["README.md", "docs/cli.md", "docs/asm.md", "docs/robustness.md"]
scratch = tempfile.mkdtemp(prefix="tpbisa-docs.")
for part in ["README.md", "docs", "examples", "tests/cli/data", "tests/golden", "scripts"]:
    from_, to = os.path.join(src, part), os.path.join(scratch, part)
    if os.path.isdir(from_):
        shutil.copytree(from_, to)
    elif os.path.exists(from_):
        os.makedirs(os.path.dirname(to), exist_ok=True)
        shutil.copy(from_, to)

def blocks(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            j = i + 1
            body = []
            while j < len(lines) and not lines[j].startswith("```"):
                body.append(lines[j])
                j += 1
            skipped = i > 0 and lines[i - 1].startswith("<!-- not run")
            if body and body[0].startswith("$ ") and not skipped:
                yield i + 1, body
            i = j + 1
        else:
            i += 1

def matches(expected, actual):
    """Expected lines in order; a line '...' (or an indented one) stands for any number of lines; a line
    ending in '…' matches any line starting with what precedes it."""
    def line_ok(x, y):
        if x.endswith("…"):
            return y.startswith(x[:-1])
        return x == y
    def rec(e, a):
        if e == len(expected):
            return a == len(actual)
        if expected[e].strip() == "...":
            return any(rec(e + 1, k) for k in range(a, len(actual) + 1))
        return a < len(actual) and line_ok(expected[e], actual[a]) and rec(e + 1, a + 1)
    return rec(0, 0)

failed = 0
ran = 0
for doc in docs:
    for line_no, body in blocks(os.path.join(src, doc)):
        cmds = []
        open_cmd = False  # a command continues while a quote is open or a line ends in a backslash
        for l in body:
            if open_cmd:
                cmds[-1][0] += "\n" + l
            elif l.startswith("$ "):
                cmds.append([l[2:], []])
            else:
                cmds[-1][1].append(l)
                continue
            c = cmds[-1][0]
            open_cmd = c.count("'") % 2 == 1 or c.endswith("\\")
        for cmd, expected in cmds:
            shell = re.sub(r'(^|\| |; |&& )(build/)?tpbisa ', lambda m: m.group(1) + tool + " ", cmd)
            p = subprocess.run(["bash", "-c", shell], cwd=scratch, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, errors="replace", env=dict(os.environ, LC_ALL="C", LANG="C"))
            actual = p.stdout.rstrip("\n").split("\n") if p.stdout else []
            ran += 1
            if not matches(expected, actual):
                failed += 1
                print(f"FAIL: {doc}:{line_no}: $ {cmd}")
                for x in actual[:40]:
                    print("   got: " + x)
                for x in expected[:40]:
                    print("  want: " + x)
shutil.rmtree(scratch, ignore_errors=True)
print(f"{ran} examples run, {failed} failed")
sys.exit(1 if failed else 0)
