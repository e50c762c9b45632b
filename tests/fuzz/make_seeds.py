#!/usr/bin/env python3
"""Builds the committed seed corpora of the fuzz targets from the validation vectors (deterministic)."""
import glob
import hashlib
import os
import struct

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


def main():
    ws = words()
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
