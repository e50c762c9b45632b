"""NumPy references of the example suites' programs (docs/suites.md): each takes the program's inputs by name and
returns its output (or a dict output name -> array)."""

import numpy as np


def matmul(x, y):
    """output0 = x @ y for fp16 x [M, K] and y [K, N], accumulated in fp32 and rounded to fp16 once, as the
    generated and the compiled matmul kernels do (docs/generator.md)."""
    return (np.asarray(x, np.float32) @ np.asarray(y, np.float32)).astype(np.float16)


def layernorm(x, gamma, beta):
    """output0 = (x - mean) / sqrt(var + 1e-5) * gamma + beta per row, in float64 (the generated layernorm computes in
    fp32: compare with a tolerance, docs/kernels.md)."""
    x = np.asarray(x, np.float64)
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    return ((x - mean) / np.sqrt(var + 1e-5) * np.asarray(gamma, np.float64) + np.asarray(beta, np.float64)).astype(
        np.float32)


def topk8(x):
    """values, indices = the 8 largest elements of each row, largest first, ties in index order (tpbisa gen topk,
    --k 8): exact."""
    order = np.argsort(-np.asarray(x), axis=1, kind="stable")[:, :8]
    return {"values": np.take_along_axis(np.asarray(x), order, axis=1), "indices": order.astype(np.uint32)}


def causal_mask(x):
    """output0 = x where column <= row, else -inf; relpos = column - row (int32): exact."""
    rows, cols = np.indices(np.shape(x))
    return {"output0": np.where(cols <= rows, x, np.float32(-np.inf)).astype(np.float32),
            "relpos": (cols - rows).astype(np.int32)}


def softmax(x):
    """output0 = exp(x - max) / sum exp(x - max) per row, in float64 (the generated softmax's exp is a table fit:
    compare with a tolerance, docs/kernels.md)."""
    x = np.asarray(x, np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


def _erf(v):
    import math

    return np.vectorize(math.erf)(v)


def mlp_gelu(x, w1, w2):
    """output0 = gelu(x @ w1) @ w2, GELU in its erf form, in float64."""
    h = np.asarray(x, np.float64) @ np.asarray(w1, np.float64)
    return ((0.5 * h * (1 + _erf(h / np.sqrt(2)))) @ np.asarray(w2, np.float64)).astype(np.float32)


def mlp_silu(x, w1, w2):
    """output0 = silu(x @ w1) @ w2, in float64."""
    h = np.asarray(x, np.float64) @ np.asarray(w1, np.float64)
    return ((h / (1 + np.exp(-h))) @ np.asarray(w2, np.float64)).astype(np.float32)


def attention(q, k, v):
    """output0 = softmax(q k^T / sqrt(dh), causal) v, query row r at position S - R + r of the S keys, in float64."""
    q, k, v = (np.asarray(a, np.float64) for a in (q, k, v))
    rows, keys = q.shape[0], k.shape[0]
    s = q @ k.T / np.sqrt(q.shape[1])
    s = np.where(np.arange(keys)[None, :] <= keys - rows + np.arange(rows)[:, None], s, -np.inf)
    p = np.exp(s - s.max(axis=1, keepdims=True))
    return ((p / p.sum(axis=1, keepdims=True)) @ v).astype(np.float32)
