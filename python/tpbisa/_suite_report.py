"""Suite reports (docs/suites.md): the JSON Lines file of case records, the JUnit XML file, the terminal summary
table, and the difference between two runs' results."""

from __future__ import annotations

import json
import os
import pathlib
import tempfile
import xml.etree.ElementTree as ET
from typing import Any, Iterable

PASSING = ("pass", "skipped")
VERDICTS = ("pass", "fail", "error", "timeout", "crash", "skipped")


def _atomic_write(path: pathlib.Path, text: str) -> None:
    """Writes `text` to a temporary file beside `path`, then renames it into place (never half a report)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def record_line(rec: dict[str, Any]) -> str:
    return json.dumps(rec, sort_keys=False, allow_nan=False, default=str)


def write_jsonl(path: pathlib.Path, records: Iterable[dict[str, Any]]) -> None:
    _atomic_write(path, "".join(record_line(r) + "\n" for r in records))


def read_jsonl(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    out = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.strip():
                try:
                    out.append(json.loads(line))
                except ValueError as e:
                    raise ValueError(f"{path}:{number}: {e}") from None
    return out


def junit_xml(suite_name: str, records: list[dict[str, Any]]) -> str:
    """One <testsuite> of one <testcase> per case: fail -> <failure>, error, timeout and crash -> <error>, skipped ->
    <skipped>; the case's details (status, differing elements, races, worker) in its <system-out>."""
    count = {v: sum(r["verdict"] == v for r in records) for v in VERDICTS}
    total = sum(r["time"] or 0 for r in records)
    top = ET.Element("testsuites", name=suite_name, tests=str(len(records)), failures=str(count["fail"]),
                     errors=str(count["error"] + count["timeout"] + count["crash"]), skipped=str(count["skipped"]),
                     time=f"{total:.3f}")
    suite = ET.SubElement(top, "testsuite", name=suite_name, tests=top.get("tests"), failures=top.get("failures"),
                          errors=top.get("errors"), skipped=top.get("skipped"), time=top.get("time"))
    for r in records:
        case = ET.SubElement(suite, "testcase", classname=f"{suite_name}.{r['name']}", name=r["id"],
                             time=f"{r['time'] or 0:.3f}")
        message = r.get("reason") or r["verdict"]
        if r["verdict"] == "fail":
            ET.SubElement(case, "failure", message=message, type="fail").text = message
        elif r["verdict"] in ("error", "timeout", "crash"):
            ET.SubElement(case, "error", message=message, type=r["verdict"]).text = message
        elif r["verdict"] == "skipped":
            ET.SubElement(case, "skipped", message=message)
        details = {k: r.get(k) for k in ("status", "differing", "max_abs_diff", "races", "deadlock", "worker",
                                         "attempts", "peak_memory")}
        ET.SubElement(case, "system-out").text = json.dumps(details)
    ET.indent(top)
    return ET.tostring(top, encoding="unicode", xml_declaration=True) + "\n"


def _mib(n: Any) -> str:
    return f"{n / 2**20:.0f}" if isinstance(n, (int, float)) else "-"


def _num(x: Any) -> str:
    return "-" if x is None else f"{x:g}" if isinstance(x, float) else str(x)


def summary_table(records: list[dict[str, Any]], wall: float | None = None, limit: int = 40) -> str:
    """The terminal summary: one row per case (only the cases that did not pass beyond `limit` cases), then the
    count of each verdict."""
    rows = records if len(records) <= limit else [r for r in records if r["verdict"] not in PASSING]
    head = ("case", "verdict", "differing", "max error", "races", "time s", "peak MiB")
    table = [head] + [
        (r["id"], r["verdict"], _num(r["differing"]), _num(r["max_abs_diff"]), _num(r["races"]),
         f"{r['time'] or 0:.2f}", _mib(r["peak_memory"]))
        for r in rows
    ]
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))).rstrip()
             for row in table]
    lines.insert(1, "  ".join("-" * w for w in widths))
    if len(rows) < len(records):
        lines.append(f"({len(records) - len(rows)} passing or skipped cases not shown)")
    for r in rows:
        if r["verdict"] not in PASSING and r.get("reason"):
            lines.append(f"{r['id']}: {r['verdict']}: {r['reason']}")
    counts = ", ".join(f"{sum(r['verdict'] == v for r in records)} {v}" for v in VERDICTS
                       if any(r["verdict"] == v for r in records))
    tail = f"{len(records)} cases: {counts}" + (f" in {wall:.1f} s" if wall is not None else "")
    return "\n".join(lines + [tail]) + "\n"


def diff(old: list[dict[str, Any]], new: list[dict[str, Any]], threshold: float = 0.25,
         min_time: float = 0.05) -> dict[str, list[dict[str, Any]]]:
    """What changed from `old` to `new` (records by case id): new failures (a case that passed, or is new, and does not
    pass now), fixed cases, other verdict changes, cases added or removed, and time changes of more than `threshold`
    (a fraction of the old time) where either time is at least `min_time` seconds."""
    before = {r["id"]: r for r in old}
    after = {r["id"]: r for r in new}
    out: dict[str, list[dict[str, Any]]] = {"new_failures": [], "fixed": [], "changed": [], "added": [],
                                             "removed": [], "slower": [], "faster": []}
    for cid, r in after.items():
        o = before.get(cid)
        if o is None:
            out["added"].append({"id": cid, "verdict": r["verdict"]})
            if r["verdict"] not in PASSING:
                out["new_failures"].append({"id": cid, "old": None, "new": r["verdict"], "reason": r.get("reason")})
            continue
        change = {"id": cid, "old": o["verdict"], "new": r["verdict"], "reason": r.get("reason")}
        if o["verdict"] in PASSING and r["verdict"] not in PASSING:
            out["new_failures"].append(change)
        elif o["verdict"] not in PASSING and r["verdict"] in PASSING:
            out["fixed"].append(change)
        elif o["verdict"] != r["verdict"]:
            out["changed"].append(change)
        t0, t1 = o.get("time") or 0.0, r.get("time") or 0.0
        if max(t0, t1) >= min_time and "pass" == o["verdict"] == r["verdict"] and t0 > 0:
            ratio = t1 / t0 - 1
            if abs(ratio) > threshold:
                out["slower" if ratio > 0 else "faster"].append({"id": cid, "old": t0, "new": t1,
                                                                 "change": round(ratio, 4)})
    out["removed"] = [{"id": cid, "verdict": o["verdict"]} for cid, o in before.items() if cid not in after]
    return out


def diff_text(changes: dict[str, list[dict[str, Any]]]) -> str:
    lines = []
    titles = {"new_failures": "new failures", "fixed": "fixed", "changed": "verdict changed", "added": "added",
              "removed": "removed", "slower": "slower", "faster": "faster"}
    for key, title in titles.items():
        items = changes[key]
        if not items:
            continue
        lines.append(f"{title} ({len(items)}):")
        for c in items:
            if key in ("slower", "faster"):
                lines.append(f"  {c['id']}: {c['old']:.3f} s -> {c['new']:.3f} s ({c['change']:+.0%})")
            elif key in ("added", "removed"):
                lines.append(f"  {c['id']}: {c['verdict']}")
            else:
                reason = f" ({c['reason']})" if c.get("reason") and c["new"] not in PASSING else ""
                lines.append(f"  {c['id']}: {c['old'] or 'absent'} -> {c['new']}{reason}")
    return "\n".join(lines or ["no changes"]) + "\n"
