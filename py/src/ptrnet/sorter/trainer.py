"""Training the sorter for demo 5: weights, Adam state and the data stream, run in chunks and continued
bit for bit from a snapshot."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np

from ptrnet.nn import rng_state
from ptrnet.nn.adam import adam_update
from ptrnet.sorter.backprop import batch_loss_and_grad
from ptrnet.sorter.model import PARAM_NAMES, SorterConfig, init_theta, unflatten


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
        self.theta = init_theta(self.rng, self.config)  # (P,) all parameters
        self.params = unflatten(self.theta)  # named views into theta
        self.m = np.zeros_like(self.theta)  # (P,) Adam first moment
        self.v = np.zeros_like(self.theta)  # (P,) Adam second moment
        self.iteration = 0
        self.loss_avg: float | None = None
        self.diverged = False

    def snapshot(self) -> dict[str, Any]:
        """Everything needed to continue this run elsewhere, as plain JSON-ready values."""
        return {
            "theta": self.theta.tolist(),
            "m": self.m.tolist(),
            "v": self.v.tolist(),
            "iteration": self.iteration,
            "loss_avg": self.loss_avg,
            "diverged": self.diverged,
            "seed": self.config.seed,
            "mask": self.config.mask,
            "rng": rng_state.to_json(self.rng),
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
        self.rng = rng_state.from_json(snap["rng"])

    def set_mask(self, mask: bool) -> None:
        """Switch the mask for further training, keeping weights and Adam state."""
        self.config = replace(self.config, mask=mask)

    def train(self, k: int) -> dict[str, Any]:
        """Run up to k iterations; a non-finite loss or update stops training until reset."""
        cfg = self.config
        losses: list[float] = []
        grad = np.empty_like(self.theta)  # (P,) written by every iteration
        with np.errstate(all="ignore"):  # non-finite results are caught below
            for _ in range(0 if self.diverged else k):
                n = int(self.rng.integers(cfg.min_len, cfg.max_len + 1))
                x = self.rng.random((cfg.batch, n))  # (batch, n)
                loss = batch_loss_and_grad(self.theta, x, cfg.mask, grad)
                step = self.iteration + 1
                theta, m, v = adam_update(self.theta, grad, self.m, self.v, step, cfg.lr, cfg.beta1, cfg.beta2, cfg.eps)
                if not (math.isfinite(loss) and np.isfinite(theta).all()):
                    self.diverged = True
                    break
                self.theta[:] = theta
                self.m, self.v = m, v
                self.iteration = step
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
