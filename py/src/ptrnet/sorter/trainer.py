"""Training the sorter for demo 5: weights, Adam state and the data stream, run in chunks and continued
bit for bit from a snapshot."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np

from ptrnet.nn import rng_state
from ptrnet.nn.adam import StackedAdam
from ptrnet.sorter.backprop import batch_loss_and_grad
from ptrnet.sorter.model import PARAM_NAMES, Array, SorterConfig, init_theta, unflatten


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
        theta = init_theta(self.rng, self.config)  # (P,)
        self._hold(np.stack([theta, np.zeros_like(theta), np.zeros_like(theta)]))
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
        state = np.array([snap["theta"], snap["m"], snap["v"]], dtype=np.float64)  # (3, P)
        if state.shape != (3, len(PARAM_NAMES) * self.config.hidden):
            raise ValueError("snapshot has the wrong number of parameters")
        self._hold(state)
        self.iteration = int(snap["iteration"])
        self.loss_avg = None if snap["loss_avg"] is None else float(snap["loss_avg"])
        self.diverged = bool(snap["diverged"])
        self.rng = rng_state.from_json(snap["rng"])

    def _hold(self, state: Array) -> None:
        """Keep weights and Adam moments as the rows of state (3, P), which Adam updates in one piece."""
        self.state = state  # (3, P): theta, m, v
        self.theta, self.m, self.v = state  # (P,) views
        self.params = unflatten(self.theta)  # named views into theta

    def set_mask(self, mask: bool) -> None:
        """Switch the mask for further training, keeping weights and Adam state."""
        self.config = replace(self.config, mask=mask)

    def train(self, k: int) -> dict[str, Any]:
        """Run up to k iterations; a non-finite loss or update stops training until reset."""
        cfg = self.config
        losses: list[float] = []
        grad = np.empty_like(self.theta)  # (P,) written by every iteration
        zero = np.zeros_like(self.theta)  # (P,): x . 0 is 0 for finite x and nan otherwise
        adam = StackedAdam(self.state, cfg.beta1, cfg.beta2, cfg.eps)
        with np.errstate(all="ignore"):  # non-finite results are caught below
            for _ in range(0 if self.diverged else k):
                n = int(self.rng.integers(cfg.min_len, cfg.max_len + 1))
                x = self.rng.random((cfg.batch, n))  # (batch, n)
                loss = batch_loss_and_grad(self.theta, x, cfg.mask, grad)
                step = self.iteration + 1
                new = adam.step(grad, step, cfg.lr)  # (3, P): theta, m, v
                if not math.isfinite(loss + float(new[0] @ zero)):  # loss and every new weight finite
                    self.diverged = True
                    break
                self.state[...] = new
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
