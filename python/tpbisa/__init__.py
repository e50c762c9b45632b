"""tpbisa: the TPB instruction set toolkit for Python -- decode, disassemble, assemble and validate 64-byte
instruction words, inspect NEFF containers and run them (or single streams) on the simulator.

Every function is a thin conversion over the C++ library the ``tpbisa`` command uses, so both give the same
results. Reference: docs/python.md.
"""

from __future__ import annotations

import os as _os
from collections.abc import Callable as _Callable
from collections.abc import Iterator
from collections.abc import Mapping as _Mapping
from typing import Any

import numpy as _np

from . import catalog
from ._dtypes import numpy_dtype
from ._tpbisa import (
    AsmError,
    Error,
    Failure,
    Field,
    InputError,
    Instruction,
    Neff,
    NeffError,
    UsageError,
    Verdict,
    __version__,
    _Machine,
    asm,
    decode,
    disasm,
    disasm_lite,
    validate,
    validate_stream,
)

__all__ = [
    "BlockedWait",
    "Deadlock",
    "Race",
    "RaceAccess",
    "RaceLocation",
    "Races",
    "Result",
    "AsmError",
    "Error",
    "Failure",
    "Field",
    "InputError",
    "Instruction",
    "Machine",
    "Neff",
    "NeffError",
    "UsageError",
    "Verdict",
    "asm",
    "catalog",
    "decode",
    "disasm",
    "disasm_lite",
    "numpy_dtype",
    "validate",
    "validate_stream",
]


class BlockedWait:
    """One wait of a deadlock: the blocked word, the condition it waits for, and the words that could still raise
    its semaphore with their state (``tpbisa run PROG.neff --json``, "deadlock")."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.core: int = doc["core"]
        self.stream: str = doc["stream"]
        self.index: int = doc["index"]
        self.instruction: str = doc["instruction"]
        self.condition: str = doc["condition"]
        self.value: int = doc["value"]
        self.engine: str = doc["engine"]
        self.semaphore: int | None = doc.get("semaphore")
        # A root wait is where the hang starts: nothing still to come on a blocked engine could raise its semaphore.
        self.root: bool = doc["root"]
        self.could_raise: list[dict[str, Any]] = [dict(r) for r in doc["could_raise"]]

    def __repr__(self) -> str:
        return f"<BlockedWait {self.stream}#{self.index} waits for {self.condition} (now {self.value})>"


class Deadlock:
    """The deadlock report of a run: every engine that has not finished is blocked; ``waits`` lists them."""

    def __init__(self, docs: list[dict[str, Any]]) -> None:
        self.waits: list[BlockedWait] = [BlockedWait(d) for d in docs]

    def __len__(self) -> int:
        return len(self.waits)

    def __iter__(self) -> Any:
        return iter(self.waits)

    def __repr__(self) -> str:
        return f"<Deadlock: {len(self.waits)} blocked wait(s)>"


class RaceAccess:
    """One access of a race: the word (``core``, ``engine``, ``stream``, ``index``, ``offset``, ``opcode``, ``name``,
    ``instruction``), ``access`` (``"read"`` or ``"write"``) and ``text``, the line the command line prints."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.core: int = doc["core"]
        self.engine: str = doc["engine"]
        self.stream: str = doc["stream"]
        self.index: int = doc["index"]
        self.offset: int = doc["offset"]
        self.opcode: str | None = doc["opcode"]
        self.name: str | None = doc["name"]
        self.instruction: str = doc["instruction"]
        self.access: str = doc["access"]
        self.text: str = doc["text"]

    def __repr__(self) -> str:
        return f"<RaceAccess {self.text}>"


class RaceLocation:
    """Where a race is: ``memory`` (``"sbuf"``, ``"psum"``, ``"dev"``, ``"dram"``), ``core`` (on-chip, else None),
    ``partition`` (sbuf and psum, else None), ``variable`` (dram, else None), ``offset`` (the byte in the partition
    or variable), ``bytes`` (conflicting from there on) and ``text``."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.memory: str = doc["memory"]
        self.core: int | None = doc["core"]
        self.partition: int | None = doc["partition"]
        self.variable: str | None = doc["variable"]
        self.offset: int = doc["offset"]
        self.bytes: int = doc["bytes"]
        self.text: str = doc["text"]

    def __repr__(self) -> str:
        return f"<RaceLocation {self.text}, {self.bytes} bytes>"


class Race:
    """Two accesses of one location by different engines, at least one a write, with no happens-before order:
    ``earlier`` and ``later`` (RaceAccess, in stream order) and ``location`` (RaceLocation)."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.earlier = RaceAccess(doc["earlier"])
        self.later = RaceAccess(doc["later"])
        self.location = RaceLocation(doc["location"])

    def __repr__(self) -> str:
        return f"<Race {self.earlier.text} / {self.later.text} at {self.location.text}>"


class Races:
    """The race report of ``check_races=True``. Two counts: ``pairs``, the pairs of words that race (what
    ``reported`` lists, its first 50 in stream order), and ``cells``, the unordered conflicting accesses (each
    2-byte location once per pair of accesses); ``count`` is ``cells`` and ``len()`` too."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.count: int = doc["count"]
        self.cells: int = doc["cells"]
        self.pairs: int = doc["pairs"]
        self.reported: list[Race] = [Race(d) for d in doc["reported"]]
        self.incomplete: str | None = doc.get("incomplete")

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Any:
        return iter(self.reported)

    def __repr__(self) -> str:
        return f"<Races: {self.cells} unordered conflicting access(es) in {self.pairs} pair(s) of words>"


class Result(_Mapping):  # type: ignore[type-arg]
    """What ``Neff.run`` returns: ``outputs`` (name -> NumPy array), ``report`` (the document of
    ``tpbisa run PROG.neff --json``), ``status``, ``deadlock`` and ``races`` (objects, or None) and ``ok``.
    It is a read-only mapping of the outputs: ``result["output0"]`` is ``result.outputs["output0"]``, and
    ``len``, iteration, ``keys``, ``items``, ``values`` and ``get`` are the outputs'."""

    def __init__(self, outputs: dict[str, _np.ndarray], report: dict[str, Any]) -> None:
        self.outputs = outputs
        self.report = report
        self.status: str = report["status"]
        self.deadlock: Deadlock | None = Deadlock(report["deadlock"]) if "deadlock" in report else None
        self.races: Races | None = Races(report["races"]) if "races" in report else None

    @property
    def ok(self) -> bool:
        """True when the run finished (no fault, deadlock or step limit), without races or reservation violations:
        the command line's exit code 0."""
        return (
            self.status == "ok"
            and (self.races is None or self.races.count == 0)
            and not self.report["reservation_violations"]
        )

    def __getitem__(self, name: str) -> _np.ndarray:
        return self.outputs[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.outputs)

    def __len__(self) -> int:
        return len(self.outputs)

    def __repr__(self) -> str:
        return f"<Result {self.status}: {', '.join(self.outputs)}>"


# The catalog dtype of each signature dtype (the library's mapping; numpy_dtype decides the array type: an
# ml_dtypes reading of the raw bits for bfloat16 and FP8, when installed). A signature dtype the catalog does not
# map (float8_e4m3, IEEE-like with infinities, is not FP8_EXP4) stays as the raw array.
_SIGNATURE_DTYPES = catalog.signature_dtypes()


def _neff_run(
    self: Neff,
    given: _Mapping[str, Any] | None = None,  # type: ignore[type-arg]
    /,
    *,
    schedule: str = "default",
    check_races: bool = False,
    threads: int = 1,
    trace: str | _os.PathLike[str] | None = None,
    trace_format: str = "json",
    max_steps: int | None = None,
    max_memory: int | None = None,
    timeout: float | None = None,
    on_step: _Callable[[dict[str, Any]], bool | None] | None = None,
    **inputs: Any,
) -> Result:
    """Runs the whole NEFF on NumPy inputs given by name (``prog.run(x=x, y=y)``), as ``tpbisa run PROG.neff``:
    inputs are read in place (C-contiguous arrays are not copied) and checked against the signature (ValueError
    naming the input and the expected dtype and shape); the run releases the GIL, and Ctrl-C stops it with
    KeyboardInterrupt (no trace file is left). ``trace_format`` is ``json`` or ``compact`` (``--trace-format``).
    Without ``max_steps`` the run stops (status ``step-limit``) after 1,000 retired words per word of the program, at
    least 1,000,000. The inputs may also come as one mapping,
    ``prog.run({"x": x, "y": y})``, so that an input's name never collides with an option. ``max_memory`` bounds the
    run's simulated memory as ``--max-memory`` (default 1 GiB); ``timeout`` (seconds) stops the run at the next word
    after it with TimeoutError, on any thread. ``on_step`` is called for every retired (or faulting) word, in the
    order of the run, with its record: the trace record of docs/trace.md as a dict (``core``, ``engine``, ``index``,
    ``name``, the effects ``regs``, ``mem``, ``reads``, ``sems``, ``dram``, ...) plus ``stream`` (``"sg00/PE"``) and
    ``instruction`` (the word disassembled); returning False stops the run (status ``interrupted``), an exception
    stops it and is raised. Not with ``threads`` > 1. Returns a ``Result``."""
    if given is not None:
        if not isinstance(given, _Mapping):
            raise UsageError(f"inputs must be a mapping of input name to array, not {type(given).__name__}")
        for name in given:
            if name in inputs:
                raise UsageError(f"input {name} is given twice (in the mapping and by keyword)")
        inputs = {**dict(given), **inputs}
    if isinstance(trace, _os.PathLike):
        trace = _os.fspath(trace)
    for name, value in inputs.items():
        # An ml_dtypes array (bfloat16, fp8) is handed over as its raw bits: a view, not a copy.
        isa = _SIGNATURE_DTYPES.get(self.inputs.get(name, ("",))[0])
        if isa is not None and isinstance(value, _np.ndarray) and value.dtype.kind == "V":
            if value.dtype == numpy_dtype(isa):
                inputs[name] = value.view(_np.dtype(f"u{value.dtype.itemsize}"))
    raw = self._run(inputs, schedule=schedule, check_races=check_races, threads=threads, trace=trace,
                    trace_format=trace_format, max_steps=max_steps, max_memory=max_memory, timeout=timeout,
                    on_step=on_step)
    outputs = {}
    for name, array in raw["outputs"].items():
        isa = _SIGNATURE_DTYPES.get(self.outputs[name][0])
        typed = numpy_dtype(isa) if isa is not None else array.dtype
        outputs[name] = array.view(typed) if typed != array.dtype else array
    result = Result(outputs, raw["report"])
    result._input_addresses = raw["input_addresses"]  # where the library read each input (tests: no copy)
    return result


Neff.run = _neff_run  # type: ignore[attr-defined]


def _is_neff(data: Any) -> bool:
    """The header test of the library's is_neff: pkg_version 1 or 2 in the first 8 bytes, header_size below 2**32."""
    try:
        head = bytes(memoryview(data)[:16])
    except TypeError:
        return False
    return (
        len(head) == 16
        and int.from_bytes(head[:8], "little") in (1, 2)
        and int.from_bytes(head[8:], "little") < 2**32
    )


def _op_str(self: Instruction) -> str:
    """The operands as the disassembler writes them, after the mnemonic (Capstone's ``op_str``): the EVENTS text
    and the operand fields; empty for a word without operands."""
    return self.text.partition(" ")[2]


Instruction.op_str = property(_op_str)  # type: ignore[attr-defined]


def _neff_repr(self: Neff) -> str:
    words = sum(s["words"] for s in self.streams)
    subgraphs = len({s["subgraph"] for s in self.streams})
    return (
        f"<Neff {self.file} target {self.target} ({self.generation}): {subgraphs} subgraphs, {words} words; "
        f"inputs {', '.join(self.inputs) or '-'}; outputs {', '.join(self.outputs) or '-'}>"
    )


Neff.__repr__ = _neff_repr  # type: ignore[method-assign]


class Machine(_Machine):
    """One stream of words on one engine of one core: the machine ``tpbisa run`` steps.

    ``Machine(program, gen=None, *, engine="dve", ...)``; ``program`` is bytes-like (64-byte words) or assembly
    text (str), assembled for ``gen`` first.
    """

    def __init__(self, program: Any, gen: str | None = None, **options: Any) -> None:
        if isinstance(program, str):
            program = asm(program, gen)
        elif _is_neff(program):
            # A container's header is not instruction words: it runs whole, as tpbisa run does.
            raise UsageError("program is a NEFF container, not words: open it with tpbisa.Neff(path) and run it with "
                             "Neff.run (tpbisa run PROG.neff)")
        super().__init__(program, gen, **options)

    def read(self, location: str, dtype: str, count: int = 1) -> _np.ndarray:
        """``count`` elements of ``dtype`` (a catalog name or short name: fp32, bf16, u8, ...) from
        ``location`` (sbuf[p0]+0x100, psum:1:0, dev:0x1000, ...), as a NumPy array that owns its memory
        (bf16 and fp8 as ml_dtypes types when that package is importable, else as uint16/uint8)."""
        bits, name, _short, _initialized = self._read(location, dtype, count)
        return bits.view(numpy_dtype(name))

    def initialized(self, location: str, dtype: str = "u8", count: int = 1) -> bool:
        """True when every byte of the ``count`` elements at ``location`` has been written."""
        return bool(self._read(location, dtype, count)[3])
