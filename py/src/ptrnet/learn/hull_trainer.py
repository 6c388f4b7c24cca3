"""The reader's hull Ptr-Net: trained from scratch with Adam, in chunks, on n = 5–10 convex hulls.

The page's trainer demo keeps one per demo instance; training.trainers.hull_recipe runs the same class in
CPython to choose the Recipe's defaults. A batch is a function of (seed, update) only, so a snapshot (weights,
Adam's moments, the update count) continues a run bit for bit in another worker.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from io import BytesIO
from typing import Any

import numpy as np

from ptrnet.learn import grad as G
from ptrnet.nn.adam import Adam
from ptrnet.pointer import answers, tasks, weights
from ptrnet.pointer.lstm_ptr import Params

VAL_NS = (5, 10, 20)  # the sizes the demo measures exact-match accuracy at (trained on 5–10 only)
VAL_SEED = 9100  # validation sets: seed VAL_SEED + n, never a training batch's
VAL_COUNT = 200  # point sets per validation size
EVAL_CHUNK = 20  # validation sets per measuring step, so that the page's worker answers a drag in between


@dataclass(frozen=True)
class Recipe:
    """How the reader's model trains; the defaults got through the first plateau fastest (the model's note)."""

    hidden: int = 32  # LSTM width of encoder and decoder
    seed: int = 0  # initial weights and the training data stream
    batch: int = 32  # point sets per update (one n per batch)
    lr: float = 1e-2  # Adam step size at the first update
    lr_final: float = 1e-3  # step size reached after decay_steps updates, kept after
    decay_steps: int = 6000  # updates of the exponential decay from lr to lr_final
    clip: float = 2.0  # gradient L2-norm clipping, as in the paper
    min_n: int = 5  # fewest points in a training set
    max_n: int = 10  # most points in a training set
    warmup: int = 0  # first updates trained at n = min_n only (a curriculum)
    init_scale: float = 0.08  # uniform init range, as in the paper
    forget_bias: float = 1.0  # added to the forget-gate biases at init
    leftmost: bool = True  # teach each hull from its leftmost vertex (False: from its smallest index, the notation)


class Trainer:
    """One reader's model: its weights, Adam's moments and the number of updates so far."""

    def __init__(self, recipe: Recipe | None = None) -> None:
        """A fresh model from the recipe's seed and width."""
        self.reset(recipe or Recipe())

    def reset(self, recipe: Recipe) -> None:
        """Start again from fresh weights."""
        self.recipe = recipe
        self.params = G.init_params(
            "ptrnet", recipe.hidden, recipe.seed, recipe.init_scale, recipe.forget_bias, np.float64
        )
        self.adam = Adam(self.params, clip=recipe.clip)
        self.iteration = 0
        self.last_loss: float | None = None
        self.imported = False  # weights read from a file (the recipe's seed did not make them)

    def lr(self) -> float:
        """The step size of the next update."""
        r = self.recipe
        return r.lr * (r.lr_final / r.lr) ** min(self.iteration / r.decay_steps, 1.0)

    def batch(self, update: int) -> G.Batch:
        """The update-th training batch: point sets and their hulls, from (seed, update) alone."""
        r = self.recipe
        rng = np.random.default_rng([r.seed, update])
        n = r.min_n if update < r.warmup else int(rng.integers(r.min_n, r.max_n + 1))
        points, seqs = tasks.generate("hull", n, r.batch, int(rng.integers(2**62)), taught=r.leftmost)
        return G.make_batch(points, seqs, dtype=np.float64)

    def train(self, k: int) -> list[float]:
        """Run k Adam updates; returns their batch losses."""
        losses = []
        for _ in range(k):
            loss, grads = G.loss_and_grads(self.params, self.batch(self.iteration))
            self.adam.step(self.params, grads, self.lr())
            self.iteration += 1
            losses.append(loss)
        self.last_loss = losses[-1] if losses else self.last_loss
        return losses

    def accuracy(self, count: int = VAL_COUNT) -> dict[int, float]:
        """Greedy exact-match shares on the fixed validation sets, n -> share."""
        measuring = Evaluation(self, count)
        while not measuring.step():
            pass
        return measuring.shares()

    def load(self, params: Params) -> None:
        """Use imported weights (a Ptr-Net's, any width); Adam starts afresh, the update count at 0."""
        hidden = params["dec_Wh"].shape[0]
        self.reset(replace(self.recipe, hidden=hidden))
        self.params = {k: np.array(v, dtype=np.float64) for k, v in params.items()}
        self.adam = Adam(self.params, clip=self.recipe.clip)
        self.imported = True

    def export(self) -> bytes:
        """The weights as a .npz in the shipped format (ptrnet.pointer.weights: int8 matrices)."""
        out = BytesIO()
        weights.save(out, self.params)
        return out.getvalue()

    def import_npz(self, data: bytes) -> None:
        """Use the hull Ptr-Net a .npz holds; ValueError (the model kept) where it holds none."""
        try:
            params = weights.load(data)
        except Exception as err:  # noqa: BLE001 — np.load raises many kinds on a file that is no .npz
            raise ValueError("not an npz") from err
        hidden = params["dec_Wh"].shape[0] if params.get("dec_Wh", np.zeros(0)).ndim == 2 else 0
        like = G.init_params("ptrnet", max(hidden, 1), 0) if hidden else {}
        if not hidden or params.keys() != like.keys() or any(params[k].shape != like[k].shape for k in like):
            raise ValueError("not a hull Ptr-Net")
        if not all(np.isfinite(v).all() for v in params.values()):
            raise ValueError("weights not finite")
        self.load(params)

    def snapshot(self) -> dict[str, Any]:
        """Everything needed to continue this run elsewhere, as plain JSON-ready values."""
        arrays = {"p": self.params, "m": self.adam.m, "v": self.adam.v}
        return {
            "recipe": {"seed": self.recipe.seed, "hidden": self.recipe.hidden},
            "iteration": self.iteration,
            "adam_t": self.adam.t,
            "last_loss": self.last_loss,
            "imported": self.imported,
            "arrays": {kind: {k: a.tolist() for k, a in d.items()} for kind, d in arrays.items()},
        }

    def restore(self, snap: dict[str, Any]) -> None:
        """Continue the run a snapshot() describes, bit for bit."""
        self.reset(replace(self.recipe, seed=int(snap["recipe"]["seed"]), hidden=int(snap["recipe"]["hidden"])))
        loaded = {kind: _arrays(snap["arrays"][kind], self.params) for kind in ("p", "m", "v")}
        self.params, self.adam.m, self.adam.v = loaded["p"], loaded["m"], loaded["v"]
        self.adam.t, self.iteration = int(snap["adam_t"]), int(snap["iteration"])
        self.last_loss = None if snap["last_loss"] is None else float(snap["last_loss"])
        self.imported = bool(snap["imported"])


class Evaluation:
    """One measurement of the exact-match shares, a chunk of validation sets per step, on the weights as they were
    when it began (training may go on between steps)."""

    def __init__(self, trainer: Trainer, count: int = VAL_COUNT) -> None:
        """Freeze the trainer's weights and plan the chunks."""
        self.params = {k: v.copy() for k, v in trainer.params.items()}
        self.iteration, self.count = trainer.iteration, count
        self.chunks = [(n, start) for n in VAL_NS for start in range(0, count, EVAL_CHUNK)]
        self.correct = dict.fromkeys(VAL_NS, 0)

    def step(self) -> bool:
        """Measure the next chunk; True once every chunk is measured."""
        n, start = self.chunks.pop(0)
        points, truth = validation(n, self.count)
        stop = start + EVAL_CHUNK
        self.correct[n] += exact_count(self.params, points[start:stop], truth[start:stop])
        return not self.chunks

    def shares(self) -> dict[int, float]:
        """n -> share of the validation sets answered exactly."""
        return {n: c / self.count for n, c in self.correct.items()}


def _arrays(saved: dict[str, Any], like: Params) -> Params:
    """Saved lists as float64 arrays shaped like the model's; ValueError where they are not."""
    arrays = {k: np.array(v, dtype=np.float64) for k, v in saved.items()}
    if arrays.keys() != like.keys() or any(arrays[k].shape != like[k].shape for k in like):
        raise ValueError("snapshot has other parameters")
    return arrays


_VALIDATION: dict[tuple[int, int], tuple[list, list]] = {}  # (n, count) -> point sets and exact hulls


def validation(n: int, count: int) -> tuple[list, list]:
    """The fixed validation set of size n: point sets and their exact hulls in the notation."""
    if (n, count) not in _VALIDATION:
        _VALIDATION[(n, count)] = tasks.generate("hull", n, count, VAL_SEED + n)
    return _VALIDATION[(n, count)]


def exact_count(params: Params, points: list, truth: list) -> int:
    """How many point sets' greedy answers are exactly their hulls."""
    outputs = answers.decode(params, "hull", points)
    return sum(o == s for o, s in zip(outputs, truth, strict=True))


def exact_share(params: Params, points: list, truth: list) -> float:
    """Share of point sets whose greedy answer is exactly the hull."""
    return exact_count(params, points, truth) / len(points)
