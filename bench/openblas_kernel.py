#!/usr/bin/env python3
# The OpenBLAS kernel NumPy runs on, and the one this CPU's flags support: a baseline on a generic fallback kernel
# (OpenBLAS taking an AVX-512 CPU for a Prescott) is several times slower and flatters whatever is compared with it.
#
# usage: openblas_kernel.py            prints "kernel: NAME (CPU supports: BEST)"
#        openblas_kernel.py --pin      prints the OPENBLAS_CORETYPE value to set for a comparison, or nothing when
#                                      the kernel OpenBLAS picked is as wide as the CPU's flags allow
# Imported: corename() and pin_for(corename) for scripts that time NumPy themselves.
import ctypes
import sys

# The widest vector extension a kernel uses: 0 SSE, 1 AVX, 2 AVX2/FMA, 3 AVX-512. Names from OpenBLAS's
# dynamic.c (x86-64); a name missing here counts as SSE, so it is pinned when the CPU supports more.
_WIDTH = {
    "Sandybridge": 1, "Bulldozer": 1, "Piledriver": 1, "Steamroller": 1, "Excavator": 1,
    "Haswell": 2, "Zen": 2,
    "SkylakeX": 3, "Cooperlake": 3, "SapphireRapids": 3,
}


def cpu_flags():
    """The flags of the first processor in /proc/cpuinfo (empty when there is none)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def best_kernel(flags):
    """The widest OpenBLAS kernel the flags support, with its width; (None, 0) for SSE only."""
    if {"avx512f", "avx512bw", "avx512dq", "avx512vl"} <= flags:
        return ("Cooperlake", 3) if "avx512_bf16" in flags else ("SkylakeX", 3)
    if {"avx2", "fma"} <= flags:
        return "Haswell", 2
    if "avx" in flags:
        return "Sandybridge", 1
    return None, 0


def corename():
    """openblas_get_corename() of the OpenBLAS that NumPy loaded ("" when NumPy uses another BLAS)."""
    import numpy  # noqa: F401  (loads its BLAS)

    with open("/proc/self/maps") as f:
        libs = sorted({line.split()[-1] for line in f if "blas" in line.split()[-1].lower()})
    for path in sorted(libs, key=lambda p: "openblas" not in p.rsplit("/", 1)[-1]):
        try:
            fn = ctypes.CDLL(path).openblas_get_corename
        except (OSError, AttributeError):
            continue
        fn.restype = ctypes.c_char_p
        return fn().decode()
    return ""


def pin_for(name):
    """The OPENBLAS_CORETYPE to run with when `name` is narrower than the CPU supports, else ""."""
    best, width = best_kernel(cpu_flags())
    if not name or best is None:
        return ""
    return best if _WIDTH.get(name, 0) < width else ""


if __name__ == "__main__":
    name = corename()
    if sys.argv[1:] == ["--pin"]:
        print(pin_for(name))
    else:
        print(f"kernel: {name or 'none (NumPy does not use OpenBLAS)'} (CPU supports: {best_kernel(cpu_flags())[0]})")
