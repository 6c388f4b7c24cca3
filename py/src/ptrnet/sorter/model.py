"""A 96-parameter pointer that learns to sort numbers in [0, 1] (demos 5 and 6).

Model (hidden size H = 16, parameters A, a0, B, b0, s, v in R^H):

    u_ij = v . tanh(A x_j + a0 + q_i),   q_1 = s,   q_i = B x_prev + b0 (i > 1)
    p_i  = softmax_j(u_ij), already chosen positions get -inf when the mask is on.

Training uses teacher forcing (x_prev is the true previous number), mean
cross-entropy over steps and batch, hand-written backprop and Adam. Each
training batch has one length drawn uniformly from min_len..max_len, so a batch
is a dense (batch, n) array and needs no padding. The training loop is
ptrnet.sorter.trainer; the length curves and the heat map are ptrnet.sorter.evaluation.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.float64]
Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]
Params = dict[str, Array]

PARAM_NAMES = ("A", "a0", "B", "b0", "s", "v")
_TABLE_CHUNK = 1 << 18  # elements of the (sequences, n+1, n, H) tanh block built at once


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


def _tanh_sum(e: Array, q: Array) -> Array:
    """tanh(e + q) broadcast, as 1 - 2 / (exp(2e) exp(2q) + 1): exp runs on the operands only."""
    # np.tanh has no SIMD in Pyodide (~20 ns per element); here each pair costs a
    # product, a sum and a division. Beyond |e| + |q| = 300 the exponentials
    # could leave the float64 range, so use np.tanh there.
    if np.abs(e).max() + np.abs(q).max() > 300.0:
        z = e + q
        np.tanh(z, out=z)
        return z
    r: Array = np.exp(2.0 * e) * np.exp(2.0 * q)
    r += 1.0
    np.divide(2.0, r, out=r)
    np.subtract(1.0, r, out=r)
    return r


def _teacher(x: Array) -> tuple[Ints, Array, Bools]:
    """Correct positions per step, previous true numbers, and the teacher-forced mask."""
    n = x.shape[1]
    order = np.argsort(x, axis=1, kind="stable")  # (batch, steps) position to point at
    prev = np.take_along_axis(x, order[:, :-1], axis=1)  # (batch, steps-1) x_prev for steps 2..n
    rank = np.argsort(order, axis=1)  # (batch, n) step at which each position is due
    blocked = rank[:, None, :] < np.arange(n)[None, :, None]  # (batch, steps, n) chosen earlier
    return order, prev, blocked


def loss_and_grads(params: Params, x: Array, mask: bool) -> tuple[float, Params]:
    """Teacher-forced mean cross-entropy on x (batch, n) and its analytic gradients."""
    A, a0, B, b0, s, v = (params[k] for k in PARAM_NAMES)
    batch, n = x.shape
    order, prev, blocked = _teacher(x)
    # forward
    enc = x[:, :, None] * A + a0  # (batch, n, H)
    q = np.concatenate([np.broadcast_to(s, (batch, 1, s.size)), prev[:, :, None] * B + b0], axis=1)  # (batch, steps, H)
    h = _tanh_sum(enc[:, None, :, :], q[:, :, None, :])  # (batch, steps, n, H)
    u = h @ v  # (batch, steps, n)
    shifted = _shifted(u, blocked if mask else None)  # (batch, steps, n)
    e = np.exp(shifted)  # (batch, steps, n)
    z = e.sum(axis=-1)  # (batch, steps), >= 1: the row maximum contributes exp(0)
    target = np.take_along_axis(shifted, order[:, :, None], axis=2)[:, :, 0]  # (batch, steps)
    loss = float(np.mean(np.log(z) - target))
    # backward: d loss / d u = (p - onehot(target)) / (batch * steps)
    du = e / z[:, :, None]  # (batch, steps, n)
    du[np.arange(batch)[:, None], np.arange(n)[None, :], order] -= 1.0
    du /= batch * n
    dv = du.reshape(-1) @ h.reshape(-1, v.size)  # (H,)
    dpre = h * h  # (batch, steps, n, H), becomes d loss / d (pre-activation)
    np.subtract(1.0, dpre, out=dpre)
    dpre *= v
    dpre *= du[:, :, :, None]
    denc = dpre.sum(axis=1)  # (batch, n, H)
    dq = dpre.sum(axis=2)  # (batch, steps, H)
    grads = {
        "A": x.reshape(-1) @ denc.reshape(-1, v.size),
        "a0": denc.sum(axis=(0, 1)),
        "B": prev.reshape(-1) @ dq[:, 1:].reshape(-1, v.size),
        "b0": dq[:, 1:].sum(axis=(0, 1)),
        "s": dq[:, 0].sum(axis=0),
        "v": dv,
    }
    return loss, grads


def _score_table(params: Params, x: Array) -> Array:
    """Scores u[b, k, j] of position j after choosing position k - 1 (k = 0: the first step)."""
    A, a0, B, b0, s, v = (params[k] for k in PARAM_NAMES)
    batch, n = x.shape
    enc = x[:, :, None] * A + a0  # (batch, n, H)
    q = np.concatenate(
        [np.broadcast_to(s, (batch, 1, s.size)), x[:, :, None] * B + b0], axis=1
    )  # (batch, n+1, H) every query decoding can meet
    rows = max(1, _TABLE_CHUNK // ((n + 1) * n * s.size))  # sequences per chunk
    return np.concatenate(
        [_tanh_sum(enc[i : i + rows, None, :, :], q[i : i + rows, :, None, :]) @ v for i in range(0, batch, rows)]
    )  # (batch, n+1, n)


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
