#!/usr/bin/env python3
"""Prints a tpbisa JSON-Lines trace (docs/trace.md) as one readable block per instruction."""
import json
import sys


def where(m):
    if m.get('region') in ('sbuf', 'psum'):
        return f"{m['region']}[p{m['partition']}]+{m['offset']:#x}"
    return f"dev:{m['addr']}"


def main(path):
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            print(f"#{r['index']} {r['opcode']} {r['name']}: {r['status']}")
            for w in r['regs']:
                print(f"    r{w['reg']:<3} {w['before']} -> {w['after']}")
            for w in r['mem']:
                print(f"    {where(w):<22} {w['before']} -> {w['after']}")
            dve = r['dve']
            for w in dve[:8]:
                print(f"    dve[{w['channel']}].{w['field']}[{w['slot']}] {w['before']} -> {w['after']}")
            if len(dve) > 8:
                print(f"    ... {len(dve) - 8} more DVE writes")
            for s in r['sems']:
                kind = 'semaphore' if 'semaphore' in s else 'event'
                print(f"    {kind} {s.get(kind)}: {s['before']} -> {s['after']}")
            for d in r['diagnostics']:
                print(f"    note: {d['kind']}")
            if r['fault']:
                print(f"    FAULT {r['fault']['kind']}: {r['fault']['detail']}")


if __name__ == '__main__':
    main(sys.argv[1])
