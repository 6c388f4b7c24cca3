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
