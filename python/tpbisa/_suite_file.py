"""Suite files (docs/suites.md): reading a TOML or JSON suite, checking it, and expanding its entries (globs,
parameter sweeps, schedules) into cases, each a plain dict a worker process can run on its own."""

from __future__ import annotations

import copy
import glob
import itertools
import json
import os
import pathlib
import re
import shlex
import tomllib
from typing import Any

# Keys a [defaults] table or a [[case]] entry may hold; anything else is a typo the reader names.
ENTRY_KEYS = {
    "name", "program", "inputs", "expect", "options", "tags", "sweep", "skip_if_absent", "description",
}
OPTION_KEYS = {"schedules", "check_races", "max_steps", "max_memory", "timeout"}
RECIPE_KINDS = {"integers", "uniform", "normal", "fill"}
SUITE_KEYS = {"suite", "defaults", "case"}
_PLACEHOLDER = re.compile(r"^\{(\w+)\}$")
_ANY_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_LATER = {"out", "stem"}  # filled later: the generator's NEFF, the stem of a file a glob matched
_SIZE = re.compile(r"^\s*(\d+)\s*(|K|M|G|T)(?:i?B)?\s*$", re.I)


class SuiteError(ValueError):
    """A suite file that cannot be read or does not follow docs/suites.md; the message names the file and the key."""


def parse_size(value: Any, where: str) -> int:
    """A byte count: an int, or a string with a binary suffix K, M, G, T (also KiB, MB, ...), as --max-memory."""
    if isinstance(value, bool):
        raise SuiteError(f"{where}: expected a byte count, not {value!r}")
    if isinstance(value, int) and value > 0:
        return value
    m = _SIZE.match(value) if isinstance(value, str) else None
    if not m or int(m.group(1)) == 0:
        raise SuiteError(f"{where}: expected a byte count such as 1073741824 or '1G', not {value!r}")
    return int(m.group(1)) << (10 * " KMGT".index(m.group(2).upper() or " "))


def read_document(path: pathlib.Path) -> dict[str, Any]:
    """The suite's document: TOML (Python's tomllib) unless the file name ends in .json."""
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise SuiteError(f"{path}: {e.strerror}") from None
    try:
        doc = json.loads(raw) if path.suffix == ".json" else tomllib.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        raise SuiteError(f"{path}: {e}") from None
    if not isinstance(doc, dict):
        raise SuiteError(f"{path}: the document is not a table")
    return doc


def _substitute(value: Any, params: dict[str, Any], where: str) -> Any:
    """Fills {name} placeholders from a sweep's parameters in every string of `value`; a string that is exactly one
    placeholder takes the parameter's own value (so `seed = "{seed}"` stays an int)."""
    if isinstance(value, str):
        whole = _PLACEHOLDER.match(value)
        if whole and whole.group(1) in params:
            return params[whole.group(1)]
        def fill(m: re.Match[str]) -> str:
            if m.group(1) in params:
                return str(params[m.group(1)])
            if m.group(1) in _LATER:
                return m.group(0)
            raise SuiteError(f"{where}: placeholder '{m.group(1)}' in {value!r} is not a sweep parameter")

        return _ANY_PLACEHOLDER.sub(fill, value)
    if isinstance(value, list):
        return [_substitute(v, params, where) for v in value]
    if isinstance(value, dict):
        return {k: _substitute(v, params, where) for k, v in value.items()}
    return value


def _merge(defaults: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """An entry over the suite's defaults: tables merge key by key (one level), anything else is replaced."""
    out = copy.deepcopy(defaults)
    for key, value in entry.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = {**out[key], **copy.deepcopy(value)}
        else:
            out[key] = copy.deepcopy(value)
    return out


def _check_keys(table: dict[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise SuiteError(f"{where}: unknown key {unknown[0]!r} (expected {', '.join(sorted(allowed))})")


def is_command(program: str) -> bool:
    """A program is a NEFF file (no blank, ends in .neff; glob patterns allowed) or else a generator command line."""
    return not (program.endswith(".neff") and not any(c.isspace() for c in program))


def _sweep_points(sweep: Any, where: str) -> list[dict[str, Any]]:
    if sweep is None:
        return [{}]
    if not isinstance(sweep, dict) or not all(isinstance(v, list) and v for v in sweep.values()):
        raise SuiteError(f"{where}: sweep must be a table of non-empty lists (parameter -> values)")
    names = list(sweep)
    return [dict(zip(names, values)) for values in itertools.product(*(sweep[n] for n in names))]


def _check_recipe(name: str, recipe: Any, where: str) -> None:
    if isinstance(recipe, str):
        return
    if not isinstance(recipe, dict):
        raise SuiteError(f"{where}: input {name}: expected a .npy path or a recipe table, not {recipe!r}")
    kinds = [k for k in ("random", "fill") if k in recipe]
    if len(kinds) != 1:
        raise SuiteError(f"{where}: input {name}: a recipe has either random = KIND or fill = VALUE")
    if "random" in recipe and recipe["random"] not in RECIPE_KINDS - {"fill"}:
        raise SuiteError(f"{where}: input {name}: random = {recipe['random']!r} is not integers, uniform or normal")
    _check_keys(recipe, {"random", "fill", "seed", "low", "high", "mean", "std"}, f"{where}: input {name}")


def _check_expect(expect: Any, where: str) -> None:
    if not isinstance(expect, dict):
        raise SuiteError(f"{where}: expect must be a table")
    tolerance = {"atol", "rtol"}
    if "reference" in expect:  # one function for every output
        _check_keys(expect, {"reference"} | tolerance, f"{where}: expect")
        return
    for out, spec in expect.items():
        if out in tolerance:
            continue
        if isinstance(spec, dict):
            _check_keys(spec, {"npy", "reference"} | tolerance, f"{where}: expect.{out}")
            if ("npy" in spec) == ("reference" in spec):
                raise SuiteError(f"{where}: expect.{out}: give npy = FILE or reference = MODULE.FUNCTION")
        elif not isinstance(spec, str):
            raise SuiteError(f"{where}: expect.{out}: expected a .npy path or a table, not {spec!r}")


def _options(options: Any, where: str) -> dict[str, Any]:
    if not isinstance(options, dict):
        raise SuiteError(f"{where}: options must be a table")
    _check_keys(options, OPTION_KEYS, f"{where}: options")
    out = dict(options)
    schedules = out.get("schedules", ["default"])
    if isinstance(schedules, str):
        schedules = [schedules]
    if not schedules or not all(isinstance(s, str) for s in schedules):
        raise SuiteError(f"{where}: options.schedules must be a schedule or a non-empty list of them")
    out["schedules"] = schedules
    if "max_memory" in out:
        out["max_memory"] = parse_size(out["max_memory"], f"{where}: options.max_memory")
    for key in ("max_steps",):
        if key in out and (isinstance(out[key], bool) or not isinstance(out[key], int) or out[key] < 0):
            raise SuiteError(f"{where}: options.{key} must be an integer >= 0")
    if "timeout" in out and (isinstance(out["timeout"], bool) or not isinstance(out["timeout"], (int, float))
                             or out["timeout"] <= 0):
        raise SuiteError(f"{where}: options.timeout must be a number of seconds above 0")
    if "check_races" in out and not isinstance(out["check_races"], bool):
        raise SuiteError(f"{where}: options.check_races must be true or false")
    return out


def _programs(program: str, folder: pathlib.Path) -> list[tuple[str, dict[str, str]]]:
    """The NEFF files a program names (a glob pattern gives one per match, sorted), each with the placeholders its
    name may use ({stem}); a name without matches stays, to be reported missing (or skipped)."""
    if is_command(program):
        return [(program, {})]
    pattern = os.path.normpath(folder / os.path.expandvars(program))
    if glob.has_magic(pattern):
        matches = sorted(glob.glob(pattern))
        return [(m, {"stem": pathlib.Path(m).stem}) for m in matches]
    return [(pattern, {"stem": pathlib.Path(pattern).stem})]


def expand(path: str | os.PathLike[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Reads the suite file at `path` and returns (its [suite] table, its cases in file order). Every case has an
    `id` unique in the suite: NAME, or NAME@SCHEDULE when the entry runs under several schedules."""
    file = pathlib.Path(path).resolve()
    doc = read_document(file)
    _check_keys(doc, SUITE_KEYS, str(file))
    head = doc.get("suite", {})
    if not isinstance(head, dict):
        raise SuiteError(f"{file}: [suite] must be a table")
    _check_keys(head, {"name", "description"}, f"{file}: [suite]")
    defaults = doc.get("defaults", {})
    if not isinstance(defaults, dict):
        raise SuiteError(f"{file}: [defaults] must be a table")
    _check_keys(defaults, ENTRY_KEYS - {"name", "sweep"}, f"{file}: [defaults]")
    entries = doc.get("case", [])
    if not isinstance(entries, list) or not entries:
        raise SuiteError(f"{file}: no [[case]] entries")
    cases: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for number, entry in enumerate(entries, 1):
        where = f"{file}: case {number}"
        if not isinstance(entry, dict):
            raise SuiteError(f"{where}: not a table")
        _check_keys(entry, ENTRY_KEYS, where)
        merged = _merge(defaults, entry)
        if not isinstance(merged.get("program"), str) or not merged["program"].strip():
            raise SuiteError(f"{where}: program is missing (a .neff file or a generator command line)")
        for params in _sweep_points(entry.get("sweep"), where):
            filled = _substitute({k: v for k, v in merged.items() if k not in ("sweep", "name")}, params, where)
            filled["name"] = merged.get("name")
            for program, extra in _programs(filled["program"], file.parent):
                all_params = {**params, **extra}
                cases += _entry_cases(filled, program, all_params, file, where, number)
    for case in cases:
        if case["id"] in seen:
            raise SuiteError(f"{file}: case id {case['id']!r} appears twice (entries {seen[case['id']]} and "
                             f"{case['entry']}); give the entries distinct names")
        seen[case["id"]] = case["entry"]
    return {"name": head.get("name", file.stem), "file": str(file), **head}, cases


def _entry_cases(filled: dict[str, Any], program: str, params: dict[str, Any], file: pathlib.Path, where: str,
                 number: int) -> list[dict[str, Any]]:
    inputs = filled.get("inputs", {})
    if not isinstance(inputs, dict):
        raise SuiteError(f"{where}: inputs must be a table (input name -> .npy path or recipe)")
    for name, recipe in inputs.items():
        _check_recipe(name, recipe, where)
    expect = filled.get("expect", {})
    _check_expect(expect, where)
    options = _options(filled.get("options", {}), where)
    tags = filled.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise SuiteError(f"{where}: tags must be a list of strings")
    name = filled.get("name")
    if name is None:
        name = (pathlib.Path(program).stem if not is_command(program) else shlex.split(program)[0]) + "".join(
            f"-{k}{v}" for k, v in params.items() if k != "stem")
    else:
        name = _substitute(str(name), params, where)
    schedules = options.pop("schedules")
    out = []
    for schedule in schedules:
        out.append({
            "id": name if len(schedules) == 1 else f"{name}@{schedule}",
            "name": name,
            "entry": number,
            "suite_dir": str(file.parent),
            "program": program,
            "command": is_command(program),
            "skip_if_absent": bool(filled.get("skip_if_absent", False)),
            "inputs": inputs,
            "expect": expect,
            "options": {"schedule": schedule, "check_races": False, **options},
            "tags": sorted(set(tags)),
            "params": params,
        })
    return out


def select(cases: list[dict[str, Any]], tags: list[str] | None) -> list[dict[str, Any]]:
    """The cases with any of `tags` (all when None or empty); a tag written `!TAG` leaves out the cases having it."""
    if not tags:
        return cases
    want = {t for t in tags if not t.startswith("!")}
    drop = {t[1:] for t in tags if t.startswith("!")}
    return [c for c in cases if (not want or want & set(c["tags"])) and not drop & set(c["tags"])]
