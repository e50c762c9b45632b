#!/usr/bin/env python3
"""Builds the committed seed corpora of the fuzz targets from the validation vectors (deterministic).

Usage: make_seeds.py [TPBISA_BINARY]   (default: $TPBISA, else build/tpbisa). The per-format corpora of fuzz_word
(corpus/formats/<FORMAT>/) group the vectors by the operand format the catalog gives their opcode, so every format
of the registry has its own; tests/unit/fuzz_seeds_test.cpp checks that none is missing."""
import glob
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.join(HERE, '..', 'vectors', 'validate.tsv')


def words():
    out = []
    with open(VECTORS) as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            out.append(bytes.fromhex(line.rstrip('\n').split('\t')[5]))
    return out


def write(target, blobs):
    d = os.path.join(HERE, 'corpus', target)
    os.makedirs(d, exist_ok=True)
    for name in os.listdir(d):
        os.remove(os.path.join(d, name))
    for b in blobs:
        with open(os.path.join(d, hashlib.sha1(b).hexdigest()[:16]), 'wb') as f:
            f.write(b)


def opcode_formats(tool):
    """Opcode value -> operand format name, from `tpbisa catalog --json` (the catalog's format column)."""
    out = subprocess.run([tool, 'catalog', '--json'], check=True, capture_output=True, text=True).stdout
    return {int(e['value'], 16): e['format'] for e in json.loads(out)['entries'] if e['format'] != 'not-modeled'}


def write_formats(formats, ws):
    """One corpus per operand format: the vectors of the opcodes the catalog gives that format."""
    shutil.rmtree(os.path.join(HERE, 'corpus', 'formats'), ignore_errors=True)
    by_format = {}
    for w in ws:
        f = formats.get(w[0])
        if f is not None:
            by_format.setdefault(f, []).append(w)
    for f, blobs in sorted(by_format.items()):
        write(os.path.join('formats', f), blobs)


def main():
    ws = words()
    tool = sys.argv[1] if len(sys.argv) > 1 else os.environ.get('TPBISA', os.path.join(HERE, '..', '..', 'build',
                                                                                          'tpbisa'))
    write_formats(opcode_formats(tool), ws)
    write('fuzz_decode_validate', ws)
    pseudo = [w for w in ws if w[0] in (0xce, 0xcd)]
    variables = struct.pack('<IQQ', 1, 0x1000, 0x1000) + struct.pack('<IQQ', 2, 0x2000000, 64)
    write('fuzz_lower', [w + variables for w in pseudo] + [ws[0] + variables])
    regs = bytes(256)
    runs = []
    for gen in range(4):
        for i in range(0, len(ws), 24):
            runs.append(bytes([gen, i % 2]) + regs + b''.join(ws[i:i + 4]))
    write('fuzz_machine', runs)
    sources = sorted(glob.glob(os.path.join(HERE, '..', 'asm', '*.tasm')))
    sources.append(os.path.join(HERE, '..', '..', 'examples', 'demo.tasm'))
    texts = []
    for i, path in enumerate(sources):
        with open(path, 'rb') as f:
            body = f.read()
        texts.append(bytes([i % 4]) + body)
        texts += [bytes([2]) + line for line in body.splitlines() if line.strip() and not line.startswith(b';')]
    write('fuzz_asm', texts)


if __name__ == '__main__':
    main()
