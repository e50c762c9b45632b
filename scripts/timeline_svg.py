#!/usr/bin/env python3
"""Draws the timeline of `tpbisa run PROG.neff --timeline FILE.json` as an SVG (one row per track, a box per slice,
waits hatched grey, flow arrows as lines), for documents where a trace viewer is not at hand.

Usage: scripts/timeline_svg.py TIMELINE.json OUT.svg [--core N]"""
import json
import sys
from html import escape

ROW, LABEL, WIDTH = 22, 170, 1100
COLOURS = {"PE": "#4e79a7", "ACT": "#59a14f", "POOL": "#f28e2b", "DVE": "#b07aa1", "SP": "#76b7b2", "dma": "#e15759"}


def main() -> None:
    args = sys.argv[1:]
    core = int(args[args.index("--core") + 1]) if "--core" in args else 0
    events = [e for e in json.load(open(args[0]))["traceEvents"] if e["pid"] == core]
    names = {e["tid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    tracks = sorted(names)
    row = {tid: i for i, tid in enumerate(tracks)}
    slices = [e for e in events if e["ph"] == "X"]
    end = max(e["ts"] + e["dur"] for e in slices)
    scale = (WIDTH - LABEL - 10) / end
    x = lambda t: LABEL + t * scale  # noqa: E731
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{ROW * len(tracks) + 30}" '
           'font-family="monospace" font-size="11">']
    for tid in tracks:
        y = row[tid] * ROW + 4
        out.append(f'<text x="4" y="{y + 14}">{escape(names[tid])}</text>')
        out.append(f'<line x1="{LABEL}" y1="{y + ROW - 2}" x2="{WIDTH - 10}" y2="{y + ROW - 2}" stroke="#ddd"/>')
    for e in slices:
        y = row[e["tid"]] * ROW + 4
        fill = "#bbb" if e["cat"] == "wait" else COLOURS.get(e["cat"], "#999")
        w = max(e["dur"] * scale, 1)
        out.append(f'<rect x="{x(e["ts"]):.1f}" y="{y}" width="{w:.1f}" height="{ROW - 6}" fill="{fill}" '
                   f'stroke="white"><title>{escape(e["name"])} {escape(e["args"]["word"])} '
                   f'[{e["ts"]}, +{e["dur"]}]</title></rect>')
        if w > 7 * len(e["name"]):
            out.append(f'<text x="{x(e["ts"]) + 2:.1f}" y="{y + 12}" fill="white">{escape(e["name"])}</text>')
    flows = {}
    for e in events:
        if e["ph"] in "sf":
            flows.setdefault(e["id"], {})[e["ph"]] = e
    for f in flows.values():
        if "s" in f and "f" in f and f["s"]["tid"] in row and f["f"]["tid"] in row:
            y1, y2 = row[f["s"]["tid"]] * ROW + ROW / 2, row[f["f"]["tid"]] * ROW + ROW / 2
            out.append(f'<line x1="{x(f["s"]["ts"]):.1f}" y1="{y1}" x2="{x(f["f"]["ts"]):.1f}" y2="{y2}" '
                       'stroke="#333" stroke-width="0.8" marker-end="url(#a)"/>')
    out.insert(1, '<defs><marker id="a" markerWidth="6" markerHeight="6" refX="6" refY="3" orient="auto">'
                  '<path d="M0,0 L6,3 L0,6 z" fill="#333"/></marker></defs>')
    out.append(f'<text x="{LABEL}" y="{ROW * len(tracks) + 24}">core {core}: {end} model cycles '
               '(a cost model, not silicon timing)</text></svg>')
    open(args[1], "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
