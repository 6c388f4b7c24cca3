"""A 96-parameter pointer that learns to sort numbers in [0, 1] (demos 5 and 6).

Model (hidden size H = 16, parameters A, a0, B, b0, s, v in R^H):

    u_ij = v . tanh(A x_j + a0 + q_i),   q_1 = s,   q_i = B x_prev + b0 (i > 1)
    p_i  = softmax_j(u_ij), already chosen positions get -inf when the mask is on.

Training uses teacher forcing (x_prev is the true previous number), mean cross-entropy over
steps and batch, hand-written backprop (ptrnet.sorter.backprop) and Adam; each training batch
has one length drawn uniformly from min_len..max_len, so a batch is a dense (batch, n) array.
The training loop is ptrnet.sorter.trainer; the length curves and the heat map are
ptrnet.sorter.evaluation. Both tanh layers here and in backprop run through pair_r.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.float64]
Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]
Params = dict[str, Array]

PARAM_NAMES = ("A", "a0", "B", "b0", "s", "v")
_TABLE_CHUNK = (
    1 << 17
)  # elements of the (sequences, n+1, n, H) block built at once; its operands (twice that) stay in cache
EXP_LIMIT = 600.0  # exp(+-600) is well inside float64 (about 1e+-261): arguments bounded by this need no guard


@dataclass(frozen=True)
class SorterConfig:
    """Settings of the sorter model and its training."""

    hidden: int = 16  # width of the tanh layer; 6 * 16 = 96 parameters
    init_scale: float = 0.1  # parameters start as N(0, init_scale^2)
    lr: float = 0.01  # Adam step size
    beta1: float = 0.9  # Adam decay of the gradient mean
    beta2: float = 0.999  # Adam decay of the squared-gradient mean
    eps: float = 1e-8  # Adam denominator guard
    batch: int = 32  # sequences per training iteration
    min_len: int = 5  # shortest training sequence
    max_len: int = 10  # longest training sequence
    mask: bool = True  # forbid pointing at an already chosen position
    seed: int = 0  # seeds the initial weights and the training data stream
    avg_decay: float = 0.95  # weight of the past in the loss moving average


def flatten(params: Params) -> Array:
    """Concatenate the parameters in PARAM_NAMES order into one (6H,) vector."""
    return np.concatenate([params[k] for k in PARAM_NAMES])


def unflatten(theta: Array) -> Params:
    """Split a (6H,) vector into named (H,) views that share its memory."""
    return dict(zip(PARAM_NAMES, np.split(theta, len(PARAM_NAMES)), strict=True))


def init_theta(rng: np.random.Generator, config: SorterConfig) -> Array:
    """Draw the initial (6H,) parameter vector from rng."""
    return rng.normal(0.0, config.init_scale, len(PARAM_NAMES) * config.hidden)


def init_params(seed: int, config: SorterConfig | None = None) -> Params:
    """Initial parameters for a seed (the same ones a Trainer with that seed starts from)."""
    return unflatten(init_theta(np.random.default_rng(seed), config or SorterConfig()))


def masked_softmax(u: Array, blocked: Bools | None = None) -> Array:
    """Softmax over the last axis; blocked entries get exactly 0, a fully blocked row is all 0."""
    e: Array = np.exp(_shifted(u, blocked))
    z: Array = e.sum(axis=-1, keepdims=True)
    z[z == 0.0] = 1.0  # fully blocked row: 0 / 1
    return e / z


def _shifted(u: Array, blocked: Bools | None) -> Array:
    """Scores minus their row maximum, blocked entries -inf (a fully blocked row is all -inf)."""
    if blocked is not None:
        u = np.where(blocked, -np.inf, u)
    top: Array = u.max(axis=-1, keepdims=True)
    top[~np.isfinite(top)] = 0.0  # fully blocked row: -inf - 0, not -inf - -inf
    return u - top


def exp_bound(t2: Array, x: Array) -> float:
    """A bound on max |2e| + max |2q| over the numbers x: (|2A| + |2B|) max |x| + |2a0| + |2b0| + |2s|.

    t2 (6, H): the parameters times 2 or -2, rows A, a0, B, b0, s, v (only their sizes count).
    """
    a, a0, b, b0, s = np.maximum.reduce(np.abs(t2[:5]), 1).tolist()  # the ufunc itself: .max() adds a Python call
    return (a + b) * float(np.maximum.reduce(np.abs(x), None)) + a0 + b0 + s


def pair_r(blocks: Iterable[tuple[Array, Array, Array]], out: Array, exp_form: bool) -> Array:
    """r = (1 - tanh(e + q)) / 2 into out, block by block: each (e, q, into) broadcasts e and q into a view of out.

    exp_form: e and q hold exp(-2e) and exp(2q), and r = 1 / (1 + exp(2e) exp(2q)) is taken as
    exp(-2e) / (exp(-2e) + exp(2q)): a sum and a quotient per pair (np.tanh has no SIMD in Pyodide,
    and the exponentials are taken once per row, not per pair). Otherwise they hold -2e and 2q and
    np.tanh runs: past EXP_LIMIT (exp_bound), where an exponential could leave float64.
    """
    if exp_form:
        for e, q, into in blocks:
            np.add(e, q, into)
            np.divide(e, into, into)
        return out
    for e, q, into in blocks:
        np.subtract(q, e, into)
    out *= 0.5
    np.tanh(out, out)
    np.subtract(1.0, out, out)
    out *= 0.5
    return out


def _score_table(params: Params, x: Array) -> Array:
    """Scores u[b, k, j] of position j after choosing position k - 1 (k = 0: the first step)."""
    theta = flatten(params)
    t2 = 2.0 * theta.reshape(len(PARAM_NAMES), -1)  # (6, H): 2A, 2a0, 2B, 2b0, 2s, 2v
    batch, n = x.shape
    hidden = t2.shape[1]
    grid = np.empty((batch, 2 * n + 1, hidden))  # (batch, 2n+1, H): -2e by position, then 2q after each choice
    np.multiply(x[:, :, None], -t2[0], out=grid[:, :n])
    grid[:, :n] -= t2[1]
    grid[:, n] = t2[4]
    np.multiply(x[:, :, None], t2[2], out=grid[:, n + 1 :])
    grid[:, n + 1 :] += t2[3]
    exp_form = exp_bound(t2, x) <= EXP_LIMIT
    if exp_form:
        np.exp(grid, grid)
    query, position = np.indices((n + 1, n)).reshape(2, -1)  # (P,) each, P = (n+1) n
    rows = np.concatenate([position, n + query])  # (2P,)
    pairs = query.size
    chunk = min(batch, max(1, _TABLE_CHUNK // (pairs * hidden)))  # sequences per block
    u = np.empty((batch, pairs))  # (batch, P)
    r = np.empty((chunk, pairs, hidden))  # (chunk, P, H), reused: fresh pages cost more than the work
    both = np.empty((chunk, 2 * pairs, hidden))  # (chunk, 2P, H): each pair's position row, then its query row
    for i in range(0, batch, chunk):
        m = min(chunk, batch - i)  # sequences in this block
        # a gathered copy is faster here than broadcasting the (n+1, n) pairs, which runs H at a time
        np.take(grid[i : i + m], rows, 1, both[:m], "clip")
        pair_r([(both[:m, :pairs], both[:m, pairs:], r[:m])], r[:m], exp_form)
        np.matmul(r[:m], t2[5], u[i : i + m])
    np.subtract(0.5 * float(t2[5].sum()), u, u)  # v . tanh = sum(v) - 2 r . v
    return u.reshape(batch, n + 1, n)


def decode(params: Params, x: Array, mask: bool) -> tuple[Ints, Array]:
    """Greedy decoding of x (batch, n), feeding back the model's own choice: (choices, probs)."""
    batch, n = x.shape
    rows = np.arange(batch)
    table = _score_table(params, x)  # (batch, n+1, n)
    prev = np.zeros(batch, dtype=np.int64)  # (batch,) table row of the current query
    blocked = np.zeros((batch, n), dtype=bool)  # (batch, n) chosen so far
    choices = np.empty((batch, n), dtype=np.int64)  # (batch, steps)
    scores = np.empty((batch, n, n))  # (batch, steps, n), -inf where masked
    for i in range(n):
        u = table[rows, prev]  # (batch, n)
        if mask:
            u = np.where(blocked, -np.inf, u)
        scores[:, i] = u
        choices[:, i] = np.argmax(u, axis=1)
        blocked[rows, choices[:, i]] = True
        prev = choices[:, i] + 1
    return choices, masked_softmax(scores)
