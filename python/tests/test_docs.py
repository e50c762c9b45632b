"""Every ```python block of docs/python.md runs (in order, one namespace per page, in a scratch folder holding
matmul_small.neff when the shared data have it; blocks that read it are skipped otherwise)."""

from __future__ import annotations

import os
import pathlib
import re

import pytest

from conftest import MATMUL_NEFF, SOURCE_DIR

PAGE = SOURCE_DIR / "docs" / "python.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def blocks() -> list[str]:
    found = BLOCK.findall(PAGE.read_text())
    assert len(found) >= 5, "docs/python.md has lost its examples"
    return found


def test_every_example_runs(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    have_neff = MATMUL_NEFF.exists()
    if have_neff:
        (tmp_path / "matmul_small.neff").symlink_to(MATMUL_NEFF)
    (tmp_path / "demo.tasm").write_text((SOURCE_DIR / "examples" / "demo.tasm").read_text())
    cwd = os.getcwd()
    os.chdir(tmp_path)
    ran = 0
    try:
        namespace: dict = {"__name__": "__docs__"}
        for k, code in enumerate(blocks(), 1):
            if "matmul_small.neff" in code and not have_neff:
                continue
            exec(compile(code, f"{PAGE.name} python block {k}", "exec"), namespace)  # noqa: S102
            ran += 1
    finally:
        os.chdir(cwd)
    assert ran >= 4


def test_install_lines_run() -> None:
    # The one-liners the README and docs/python.md give after `make python`, run with the package under test (those
    # reading the installed metadata run in test_install.py, against a package pip installed).
    import shlex
    import subprocess
    import sys

    lines = []
    for page in (SOURCE_DIR / "README.md", PAGE):
        lines += [
            line
            for line in page.read_text().splitlines()
            if line.startswith(".venv/bin/python -c ") and "importlib.metadata" not in line
        ]
    assert len(lines) >= 2
    for line in lines:
        argv = shlex.split(line)
        r = subprocess.run([sys.executable, *argv[1:]], capture_output=True, text=True, check=False)
        assert r.returncode == 0 and r.stdout.strip() and not r.stderr, (line, r.stderr)
