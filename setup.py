# The Python package's build step for pip and `python -m build`: CMake builds the extension tpbisa._tpbisa.
"""setuptools glue for pyproject.toml: the package's metadata is there; this file only builds the extension.

The extension is the CMake target ``tpbisa_python`` (python/CMakeLists.txt). By default a CMake tree of its own is
configured under setuptools' build folder with the library, the tool, the tests and the benchmarks left out, and
only that target is built. ``TPBISA_CMAKE_BUILD_DIR=DIR`` uses an existing, configured tree instead (one made with
``-DTPBISA_BUILD_PYTHON=ON``, as ``make python`` makes it): the target is brought up to date there and its module
copied, so nothing is compiled twice. ``TPBISA_CMAKE_ARGS`` adds arguments to the configure step (space-separated).
"""

from __future__ import annotations

import os
import pathlib
import re
import shlex
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


def project_version() -> str:
    # One version for the library, the tool and the package: the project() line of CMakeLists.txt.
    text = (ROOT / "CMakeLists.txt").read_text()
    found = re.search(r"project\(tpbisa\s+VERSION\s+([0-9.]+)", text)
    if not found:
        raise RuntimeError("CMakeLists.txt: no project(tpbisa VERSION ...) line")
    return found.group(1)


class CMakeExtension(Extension):
    """The extension CMake builds: no sources of its own for setuptools to compile."""

    def __init__(self, name: str) -> None:
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    """Builds tpbisa_python with CMake and copies the module where setuptools expects the extension."""

    def build_extension(self, ext: Extension) -> None:
        target = pathlib.Path(self.get_ext_fullpath(ext.name)).resolve()
        tree = os.environ.get("TPBISA_CMAKE_BUILD_DIR")
        if tree:
            build_dir = pathlib.Path(tree).resolve()
            if not (build_dir / "CMakeCache.txt").exists():
                raise RuntimeError(f"TPBISA_CMAKE_BUILD_DIR={tree}: not a configured CMake tree (no CMakeCache.txt)")
        else:
            build_dir = pathlib.Path(self.build_temp).resolve() / "cmake"
            build_dir.mkdir(parents=True, exist_ok=True)
            self.configure(build_dir)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 2)
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "tpbisa_python", "-j", jobs], check=True)
        built = sorted((build_dir / "python" / "tpbisa").glob("_tpbisa*.so"))
        if not built:
            raise RuntimeError(f"{build_dir}: the target tpbisa_python left no python/tpbisa/_tpbisa*.so")
        target.parent.mkdir(parents=True, exist_ok=True)
        self.copy_file(str(built[-1]), str(target))

    def configure(self, build_dir: pathlib.Path) -> None:
        args = [
            "cmake", "-S", str(ROOT), "-B", str(build_dir),
            "-DCMAKE_BUILD_TYPE=Release",
            "-DTPBISA_BUILD_PYTHON=ON", f"-DTPBISA_PYTHON_EXECUTABLE={sys.executable}",
            "-DTPBISA_BUILD_TESTS=OFF", "-DTPBISA_BUILD_BENCH=OFF", "-DTPBISA_BUILD_CLI=OFF",
        ]  # fmt: skip
        try:  # pybind11 from PyPI (an isolated build) carries its CMake files; Debian's are found without help
            import pybind11

            args.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
        except ImportError:
            pass
        if os.environ.get("TPBISA_CMAKE_ARGS"):
            args += shlex.split(os.environ["TPBISA_CMAKE_ARGS"])
        subprocess.run(args, check=True)


setup(
    version=project_version(),
    package_dir={"": "python"},
    packages=["tpbisa"],
    package_data={"tpbisa": ["*.pyi", "py.typed"]},
    ext_modules=[CMakeExtension("tpbisa._tpbisa")],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
    # Beside the CMake tree build/, not inside it.
    options={"build": {"build_base": "build-python"}},
)
