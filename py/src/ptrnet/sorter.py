"""A 96-parameter pointer that learns to sort numbers in [0, 1] (demos 5 and 6).

Model (hidden size H = 16, parameters A, a0, B, b0, s, v in R^H):

    u_ij = v . tanh(A x_j + a0 + q_i),   q_1 = s,   q_i = B x_prev + b0 (i > 1)
    p_i  = softmax_j(u_ij), already chosen positions get -inf when the mask is on.

Training uses teacher forcing (x_prev is the true previous number), mean
cross-entropy over steps and batch, hand-written backprop and Adam. Each
training batch has one length drawn uniformly from min_len..max_len, so a batch
is a dense (batch, n) array and needs no padding.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ptrnet.adam import adam_update

Array = NDArray[np.float64]
Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]
Params = dict[str, Array]

PARAM_NAMES = ("A", "a0", "B", "b0", "s", "v")
EVAL_SEED = 2015  # test sequences for evaluate/accuracy, apart from training seeds
EVAL_LENGTHS = range(5, 51)  # demo 6: every length it evaluates
EVAL_COUNT = 150  # demo 6: random sequences per length
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


def _init_theta(rng: np.random.Generator, config: SorterConfig) -> Array:
    """Draw the initial (6H,) parameter vector from rng."""
    return rng.normal(0.0, config.init_scale, len(PARAM_NAMES) * config.hidden)


def init_params(seed: int, config: SorterConfig | None = None) -> Params:
    """Initial parameters for a seed (the same ones a Trainer with that seed starts from)."""
    return unflatten(_init_theta(np.random.default_rng(seed), config or SorterConfig()))


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


class Trainer:
    """Holds weights, Adam state and the data stream; trains in chunks for the UI."""

    def __init__(self, config: SorterConfig | None = None) -> None:
        """Start from the config's seed."""
        self.config = config or SorterConfig()
        self.reset(self.config.seed)

    def reset(self, seed: int | None = None) -> None:
        """Re-initialise weights, Adam state and data stream (seed defaults to the config's)."""
        if seed is not None:
            self.config = replace(self.config, seed=seed)
        self.rng = np.random.default_rng(self.config.seed)
        self.theta = _init_theta(self.rng, self.config)  # (P,) all parameters
        self.params = unflatten(self.theta)  # named views into theta
        self.m = np.zeros_like(self.theta)  # (P,) Adam first moment
        self.v = np.zeros_like(self.theta)  # (P,) Adam second moment
        self.iteration = 0
        self.loss_avg: float | None = None
        self.diverged = False

    def snapshot(self) -> dict[str, Any]:
        """Everything needed to continue this run elsewhere, as plain JSON-ready values."""
        rng = self.rng.bit_generator.state  # PCG64: 128-bit integers, kept as strings for JS
        return {
            "theta": self.theta.tolist(),
            "m": self.m.tolist(),
            "v": self.v.tolist(),
            "iteration": self.iteration,
            "loss_avg": self.loss_avg,
            "diverged": self.diverged,
            "seed": self.config.seed,
            "mask": self.config.mask,
            "rng": {
                "state": str(rng["state"]["state"]),
                "inc": str(rng["state"]["inc"]),
                "has_uint32": rng["has_uint32"],
                "uinteger": rng["uinteger"],
            },
        }

    def restore(self, snap: dict[str, Any]) -> None:
        """Continue the run a snapshot() describes, bit for bit."""
        self.config = replace(self.config, seed=int(snap["seed"]), mask=bool(snap["mask"]))
        self.theta = np.array(snap["theta"], dtype=np.float64)  # (P,)
        if self.theta.shape != (len(PARAM_NAMES) * self.config.hidden,):
            raise ValueError("snapshot has the wrong number of parameters")
        self.params = unflatten(self.theta)
        self.m = np.array(snap["m"], dtype=np.float64)  # (P,)
        self.v = np.array(snap["v"], dtype=np.float64)  # (P,)
        self.iteration = int(snap["iteration"])
        self.loss_avg = None if snap["loss_avg"] is None else float(snap["loss_avg"])
        self.diverged = bool(snap["diverged"])
        r = snap["rng"]
        self.rng = np.random.default_rng()
        self.rng.bit_generator.state = {
            "bit_generator": "PCG64",
            "state": {"state": int(r["state"]), "inc": int(r["inc"])},
            "has_uint32": int(r["has_uint32"]),
            "uinteger": int(r["uinteger"]),
        }

    def set_mask(self, mask: bool) -> None:
        """Switch the mask for further training, keeping weights and Adam state."""
        self.config = replace(self.config, mask=mask)

    def train(self, k: int) -> dict[str, Any]:
        """Run up to k iterations; a non-finite loss or update stops training until reset."""
        cfg = self.config
        losses: list[float] = []
        for _ in range(0 if self.diverged else k):
            n = int(self.rng.integers(cfg.min_len, cfg.max_len + 1))
            x = self.rng.random((cfg.batch, n))  # (batch, n)
            with np.errstate(all="ignore"):  # non-finite results are caught just below
                loss, grads = loss_and_grads(self.params, x, cfg.mask)
                theta, m, v = adam_update(
                    self.theta,
                    flatten(grads),
                    self.m,
                    self.v,
                    self.iteration + 1,
                    cfg.lr,
                    cfg.beta1,
                    cfg.beta2,
                    cfg.eps,
                )
            if not (np.isfinite(loss) and np.isfinite(theta).all()):
                self.diverged = True
                break
            self.theta[:] = theta
            self.m, self.v = m, v
            self.iteration += 1
            losses.append(loss)
            d = cfg.avg_decay
            self.loss_avg = loss if self.loss_avg is None else d * self.loss_avg + (1.0 - d) * loss
        return {
            "iteration": self.iteration,
            "loss": losses[-1] if losses else None,
            "loss_avg": self.loss_avg,
            "losses": losses,
            "diverged": self.diverged,
            "mask": cfg.mask,
        }


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


def evaluate(
    params: Params,
    lengths: Sequence[int],
    count: int = 150,
    mask: bool = True,
    seed: int = EVAL_SEED,
) -> dict[str, list[Any]]:
    """Greedy results on count random sequences per length: {lengths, seq_acc, pos_acc, invalid}."""
    rng = np.random.default_rng(seed)
    out: dict[str, list[Any]] = {"lengths": [], "seq_acc": [], "pos_acc": [], "invalid": []}
    for n in lengths:
        x = rng.random((count, n))  # (count, n)
        choices, _ = decode(params, x, mask)  # (count, n)
        hit = choices == np.argsort(x, axis=1, kind="stable")  # (count, n)
        repeated = (np.sort(choices, axis=1) != np.arange(n)).any(axis=1)  # (count,)
        out["lengths"].append(int(n))
        out["seq_acc"].append(float(hit.all(axis=1).mean()))
        out["pos_acc"].append(float(hit.mean()))
        out["invalid"].append(float(repeated.mean()))
    return out


def accuracy(params: Params, n: int = 10, count: int = 150, mask: bool = True, seed: int = EVAL_SEED) -> float:
    """Sequence accuracy (whole order right) of greedy decoding at length n."""
    return float(evaluate(params, [n], count, mask, seed)["seq_acc"][0])


def heatmap(params: Params, x: Sequence[float], mask: bool) -> dict[str, Any]:
    """Greedy decoding of one sequence as plain lists for the heat map (rows = steps)."""
    xs = np.asarray(x, dtype=np.float64)[None, :]  # (1, n)
    choices, probs = decode(params, xs, mask)
    correct = np.argsort(xs[0], kind="stable")  # (n,)
    return {
        "x": xs[0].tolist(),
        "probs": probs[0].tolist(),
        "correct": correct.tolist(),
        "choices": choices[0].tolist(),
        "solved": bool((choices[0] == correct).all()),
        "valid": bool((np.sort(choices[0]) == np.arange(xs.shape[1])).all()),
    }
