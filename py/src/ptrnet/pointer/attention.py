"""Did the attention seq2seq's attention already point? How its attention weights meet the token its fixed output
layer emits, step by step and summed over a test set: the offline evaluation and demo 3-2 measure through these.

A step counts when its token names a point (not ⇒ or ⇐). Its mass is the attention weight on that point (0 when
the token names a point the set does not have, as a model trained on up to 10 points may with fewer); its chance
is what uniform attention would put there (1/n, or 0 for a point the set lacks); it peaks when the largest
attention weight sits on that point.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


def on_output(attention: NDArray[np.floating], choices: NDArray[np.integer], go: int) -> dict[str, NDArray]:
    """Per step of a batch of greedy decodings, attention (B, T, n) and token ids choices (B, T; -1 after the end;
    ids below go name points 1, 2, ...): named (B, T), whether the step counts, and its mass, chance and peak."""
    n = attention.shape[2]
    named = (choices >= 0) & (choices < go)
    present = named & (choices < n)
    index = np.clip(choices, 0, n - 1)[..., None]
    return {
        "named": named,
        "mass": np.where(present, np.take_along_axis(attention, index, axis=2)[..., 0], 0.0),
        "chance": np.where(present, 1.0 / n, 0.0),
        "peak": named & (attention.argmax(axis=2) == choices),
    }


def sums(attention: NDArray[np.floating], choices: NDArray[np.integer], go: int) -> dict[str, float]:
    """The counted steps of a batch and their summed mass, chance and peaks, to add up chunk by chunk."""
    steps = on_output(attention, choices, go)
    named = steps["named"]
    return {"steps": int(named.sum())} | {k: float(steps[k][named].sum()) for k in ("mass", "chance", "peak")}


def summary(totals: dict[str, float]) -> dict[str, float]:
    """Over a test set's counted steps: the share that peak on the emitted point, the mean attention mass on it,
    and the mean chance."""
    steps = max(totals["steps"], 1)
    return {"peak": totals["peak"] / steps, "mass": totals["mass"] / steps, "chance": totals["chance"] / steps}
