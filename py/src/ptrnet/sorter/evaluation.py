"""The sorter's greedy decoding measured: accuracy per length (demo 6) and one sequence's heat map (demo 5)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ptrnet.sorter.model import Params, decode

EVAL_SEED = 2015  # test sequences for evaluate/accuracy, apart from training seeds
EVAL_LENGTHS = range(5, 51)  # demo 6: every length it evaluates
EVAL_COUNT = 150  # demo 6: random sequences per length


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
