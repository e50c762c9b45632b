"""The package as pip installs it: `pip install --no-build-isolation .` into a fresh virtual environment of this
interpreter (offline, Debian's setuptools and pybind11), then import it with its metadata; and the wheel of
`python -m build --no-isolation --wheel`. Both reuse the extension of the build tree under test
(TPBISA_CMAKE_BUILD_DIR, setup.py), so nothing is compiled again."""

from __future__ import annotations

import importlib.util
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import zipfile

import pytest

from conftest import SOURCE_DIR

BUILD_DIR = os.environ.get("TPBISA_BUILD_DIR")
# What setup.py and pyproject.toml read: the rest of the tree is not needed when the extension is already built.
PACKAGE_FILES = ["pyproject.toml", "setup.py", "README.md", "CMakeLists.txt"]

pytestmark = pytest.mark.skipif(not BUILD_DIR, reason="TPBISA_BUILD_DIR (the CMake tree under test) is not set")


def project_version() -> str:
    found = re.search(r"project\(tpbisa\s+VERSION\s+([0-9.]+)", (SOURCE_DIR / "CMakeLists.txt").read_text())
    assert found, "CMakeLists.txt has no project version"
    return found.group(1)


@pytest.fixture()
def package_tree(tmp_path: pathlib.Path) -> pathlib.Path:
    """The package's sources copied out, so the build's own files land in a scratch folder."""
    tree = tmp_path / "src"
    (tree / "python").mkdir(parents=True)
    for name in PACKAGE_FILES:
        shutil.copy(SOURCE_DIR / name, tree / name)
    shutil.copytree(SOURCE_DIR / "python" / "tpbisa", tree / "python" / "tpbisa",
                    ignore=shutil.ignore_patterns("__pycache__", "_tpbisa*.so"))  # fmt: skip
    return tree


def build_env() -> dict[str, str]:
    env = dict(os.environ, TPBISA_CMAKE_BUILD_DIR=str(BUILD_DIR), PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PYTHONPATH", None)  # the installed package, not the build tree's, must be the one imported
    return env


def test_pip_install_into_a_fresh_venv(tmp_path: pathlib.Path, package_tree: pathlib.Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = venv / "bin" / "python"
    r = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-build-isolation", str(package_tree)],
                       env=build_env(), capture_output=True, text=True, check=False)  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    probe = (
        "import importlib.metadata as m, tpbisa\n"
        "print(m.version('tpbisa'), tpbisa.__version__, tpbisa.__file__)\n"
        "print(tpbisa.decode(tpbisa.asm('Nop', gen='cayman'), gen='cayman').text)\n"
    )
    r = subprocess.run([str(python), "-c", probe], env=build_env(), cwd="/", capture_output=True, text=True,
                       check=False)  # fmt: skip
    assert r.returncode == 0, r.stderr
    first, second = r.stdout.splitlines()[:2]
    version, module_version, location = first.split(" ", 2)
    assert version == module_version == project_version()
    assert pathlib.Path(location).resolve().is_relative_to(venv.resolve())
    assert second.startswith("Nop")
    # The README's own line after its pip install.
    lines = [line for line in (SOURCE_DIR / "README.md").read_text().splitlines() if "importlib.metadata" in line]
    assert len(lines) == 1 and lines[0].startswith(".venv/bin/python -c ")
    argv = shlex.split(lines[0])
    r = subprocess.run([str(python), *argv[1:]], env=build_env(), cwd="/", capture_output=True, text=True, check=False)
    assert r.returncode == 0 and r.stdout.strip() == project_version(), r.stderr


@pytest.mark.skipif(importlib.util.find_spec("build") is None, reason="python3-build is not installed")
def test_wheel_builds(tmp_path: pathlib.Path, package_tree: pathlib.Path) -> None:
    dist = tmp_path / "dist"
    r = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", str(dist),
                        str(package_tree)], env=build_env(), capture_output=True, text=True, check=False)  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    wheels = list(dist.glob("tpbisa-*.whl"))
    assert len(wheels) == 1, list(dist.iterdir())
    names = zipfile.ZipFile(wheels[0]).namelist()
    assert any(re.fullmatch(r"tpbisa/_tpbisa.*\.so", n) for n in names), names
    assert {"tpbisa/__init__.py", "tpbisa/py.typed", "tpbisa/catalog.pyi"} <= set(names)
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheels[0]).read(metadata).decode()
    assert "Name: tpbisa" in text and f"Version: {project_version()}" in text and "Requires-Dist: numpy" in text
