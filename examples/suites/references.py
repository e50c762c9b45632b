"""NumPy references of the example suites' programs (docs/suites.md): each takes the program's inputs by name and
returns its output (or a dict output name -> array)."""

import numpy as np


def matmul(x, y):
    """output0 = x @ y for fp16 x [M, K] and y [K, N], accumulated in fp32 and rounded to fp16 once, as the
    generated and the compiled matmul kernels do (docs/generator.md)."""
    return (np.asarray(x, np.float32) @ np.asarray(y, np.float32)).astype(np.float16)
