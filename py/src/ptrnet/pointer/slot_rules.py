"""Which slots a step of the Ptr-Net may take: the decoding rules free, mask and tour, also used in training."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]

RULES = ("free", "mask", "tour")  # which slots a decoding step may take (see blocked_slots)


def blocked_slots(rule: str, valid: Bools, chosen: Bools, first: Ints | None, t: int) -> Bools:
    """Slots step t may not take (B, N+1); padding always.

    "free": any point or ⇐ (the paper's hull and Delaunay decoding). "mask": no point chosen earlier
    except the first, so the polygon can close (demo 4's toggle). "tour": a valid tour in our notation,
    P1 first, then every other point once, P1 again, then ⇐ (the paper's constrained TSP search).
    """
    B = valid.shape[0]
    padding = np.concatenate([np.zeros((B, 1), dtype=bool), ~valid], axis=1)  # (B, N+1)
    if rule == "free":
        return padding
    if rule == "mask":
        taken = chosen.copy()
        if first is not None:
            taken[np.arange(B), first] = False
        return padding | taken
    if rule != "tour":
        raise ValueError(f"unknown decoding rule {rule!r}")
    n = valid.sum(axis=1)[:, None]  # (B, 1) points per example
    slot = np.arange(valid.shape[1] + 1)[None, :]  # (1, N+1)
    if t == 0:
        return slot != 1
    return np.where(t < n, padding | chosen | (slot == 0), np.where(t == n, slot != 1, slot != 0))
