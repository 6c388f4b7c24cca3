"""Adam (Kingma & Ba 2015), the one optimiser of the package, with optional gradient-norm clipping."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.floating]


def adam_update(
    p: Array,
    g: Array,
    m: Array,
    v: Array,
    t: int,
    lr: float,
    beta1: float = 0.9,
    beta2: float = 0.999,
    eps: float = 1e-8,
) -> tuple[Array, Array, Array]:
    """One bias-corrected Adam update at step t >= 1; returns new (p, m, v) and leaves the inputs alone."""
    m = beta1 * m + (1.0 - beta1) * g
    v = beta2 * v + (1.0 - beta2) * g * g
    m_hat = m / (1.0 - beta1**t)
    v_hat = v / (1.0 - beta2**t)
    return p - lr * m_hat / (np.sqrt(v_hat) + eps), m, v


class StackedAdam:
    """adam_update, bit for bit, on a vector whose p, m, v are the rows of one (3, P) array, in ten numpy calls.

    Each numpy call costs microseconds in Pyodide, so the moments share every operation, the
    buffers and their views are made once, and outputs are passed positionally (not as out=).
    """

    def __init__(self, pmv: Array, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8) -> None:
        """Buffers for updating pmv (3, P): p, m, v."""
        self.p, self.mv = pmv[0], pmv[1:]  # (P,), (2, P)
        self.betas, self.eps = (beta1, beta2), eps
        self.decay = np.array([[beta1], [beta2]])  # (2, 1)
        self.gain = 1.0 - self.decay  # (2, 1): 1 - beta1, 1 - beta2
        self.correction = np.empty((2, 1))  # (2, 1): 1 - beta1^t, 1 - beta2^t
        self.corrections = self.correction[:, 0]  # (2,) view to write into
        self.new = np.empty_like(pmv)  # (3, P): updated p, m, v
        self.new_p, self.new_mv, self.new_v = self.new[0], self.new[1:], self.new[2]
        self.hat = np.empty_like(self.mv)  # (2, P): scratch, then m_hat, v_hat
        self.m_hat, self.v_hat = self.hat

    def step(self, g: Array, t: int, lr: float) -> Array:
        """The update at step t >= 1 with gradient g (P,), into a (3, P) buffer; pmv stays as it is."""
        beta1, beta2 = self.betas
        np.multiply(g, self.gain, self.new_mv)  # (1 - beta1) g, (1 - beta2) g
        self.new_v *= g
        self.new_mv += np.multiply(self.mv, self.decay, self.hat)  # + beta1 m, + beta2 v
        self.corrections[0] = 1.0 - beta1**t
        self.corrections[1] = 1.0 - beta2**t
        np.divide(self.new_mv, self.correction, self.hat)  # m_hat, v_hat
        np.sqrt(self.v_hat, self.v_hat)
        self.v_hat += self.eps
        self.m_hat *= lr
        self.m_hat /= self.v_hat
        np.subtract(self.p, self.m_hat, self.new_p)
        return self.new


def global_norm(grads: dict[str, Array]) -> float:
    """L2 norm of all gradients together."""
    return float(np.sqrt(sum(float((g.astype(np.float64) ** 2).sum()) for g in grads.values())))


class Adam:
    """Adam over a dict of arrays, updated in place; clips the gradients' global L2 norm when clip is set."""

    def __init__(
        self,
        params: dict[str, Array],
        beta1: float = 0.9,
        beta2: float = 0.999,
        eps: float = 1e-8,
        clip: float | None = None,
    ) -> None:
        """Zero moments shaped like params."""
        self.m = {k: np.zeros_like(p) for k, p in params.items()}
        self.v = {k: np.zeros_like(p) for k, p in params.items()}
        self.t = 0
        self.beta1, self.beta2, self.eps, self.clip = beta1, beta2, eps, clip

    def step(self, params: dict[str, Array], grads: dict[str, Array], lr: float) -> float:
        """Update params in place and return the gradients' norm before clipping."""
        norm = global_norm(grads)
        scale = 1.0 if self.clip is None else min(1.0, self.clip / (norm + 1e-12))
        self.t += 1
        for k, p in params.items():
            g = grads[k] * p.dtype.type(scale)
            new, self.m[k], self.v[k] = adam_update(
                p, g, self.m[k], self.v[k], self.t, lr, self.beta1, self.beta2, self.eps
            )
            p[...] = new
        return norm
