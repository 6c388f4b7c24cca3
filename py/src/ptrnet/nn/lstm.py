"""The one LSTM cell of the package, used by the Ptr-Net, the seq2seq baseline and the prelude's language model.

The four gate blocks lie along the 4H axis in the order GATES (i, f, o, g); from_torch_gates() maps
PyTorch's nn.LSTM order (i, f, g, o), in which the shipped Ptr-Nets were trained.
"""

from __future__ import annotations

import sys
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.floating]

# numpy without BLAS (Pyodide's) multiplies a few rows by a matrix about twice as fast with einsum as with
# matmul once the rows are 128 or more wide (measured in node: 256 x 1024, one row, 144 us against 257 us);
# with BLAS, matmul is far faster on the large batches of training and evaluation.
_EINSUM_PRODUCTS = sys.platform == "emscripten"

GATES = "ifog"  # order of the gate blocks along the 4H axis of every LSTM matrix of the package
TORCH_GATES = "ifgo"  # PyTorch's nn.LSTM order


class Cache(NamedTuple):
    """One step's values: what ptrnet.learn.cell.cell_backward needs, and what the language-model demo shows."""

    h: Array  # (B, H) state before the step
    c: Array  # (B, H) memory before the step
    z: Array  # (B, 4H) the gates' pre-activation
    i: Array  # (B, H) input gate
    f: Array  # (B, H) forget gate
    o: Array  # (B, H) output gate
    g: Array  # (B, H) candidate memory
    tc: Array  # (B, H) tanh of the new memory


def sigmoid(z: Array) -> Array:
    """Logistic function via tanh (no overflow)."""
    out: Array = 0.5 * (1.0 + np.tanh(0.5 * z))
    return out


def times(x: Array, W: Array) -> Array:
    """x @ W for rows x (..., d) and a matrix W (d, k), by whichever product is faster in this numpy."""
    return np.einsum("...i,ij->...j", x, W) if _EINSUM_PRODUCTS else x @ W


def times_transposed(x: Array, W: Array) -> Array:
    """x @ W.T for rows x (..., k) and a matrix W (d, k): backprop through times() (2-5x faster as einsum without
    BLAS: matmul copies the transposed operand)."""
    return np.einsum("...k,ik->...i", x, W) if _EINSUM_PRODUCTS else x @ W.T


def batch_outer(a: Array, b: Array) -> Array:
    """a.T @ b for a (B, d) and b (B, k): a weight's gradient summed over the batch (up to 5x faster as einsum
    without BLAS)."""
    return np.einsum("bi,bj->ij", a, b) if _EINSUM_PRODUCTS else a.T @ b


def step(xz: Array, h: Array, c: Array, Wh: Array) -> tuple[Array, Array, Cache]:
    """One LSTM step from the input's pre-activation xz (B, 4H): the new h and c, and the step's Cache."""
    return step_from(xz + times(h, Wh), h, c)


def step_from(z: Array, h: Array, c: Array) -> tuple[Array, Array, Cache]:
    """One LSTM step from the gates' whole pre-activation z = xz + h Wh (B, 4H), for callers that share h Wh
    between rows: the new h and c, and the step's Cache."""
    H = h.shape[1]
    ifo = sigmoid(z[:, : 3 * H])  # (B, 3H)
    i, f, o = ifo[:, :H], ifo[:, H : 2 * H], ifo[:, 2 * H :]
    g = np.tanh(z[:, 3 * H :])  # (B, H)
    cn = f * c + i * g
    tc = np.tanh(cn)
    return o * tc, cn, Cache(h, c, z, i, f, o, g, tc)


def _reorder_gates(a: Array, src: str, dst: str) -> Array:
    """Gate blocks along axis 0 (length 4H) moved from order src to order dst."""
    blocks = np.split(np.asarray(a), 4, axis=0)
    return np.concatenate([blocks[src.index(gate)] for gate in dst], axis=0)


def from_torch_gates(a: Array) -> Array:
    """A PyTorch LSTM weight (4H, d) or bias (4H,) with its gate blocks in our order."""
    return _reorder_gates(a, TORCH_GATES, GATES)


def to_torch_gates(a: Array) -> Array:
    """Inverse of from_torch_gates."""
    return _reorder_gates(a, GATES, TORCH_GATES)
