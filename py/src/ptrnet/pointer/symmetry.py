"""Symmetry voting: one Ptr-Net asked about the 8 images of its points under the unit square's symmetries.

Mirroring or quarter-turning the points leaves their hull and Delaunay triangles the same index sets, but
the network sees other numbers and may answer otherwise. Each image is decoded greedily, its answer read
back in the original frame, and the answer most images give wins (pointer.answers.vote): test-time augmentation. The paper
decoded once, so the evaluation reports this beside greedy and beam decoding, never in their place.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from itertools import product

import numpy as np

from ptrnet.pointer import tasks
from ptrnet.pointer.lstm_ptr import Array

TASKS = ("hull", "delaunay")  # whose answers are the same sets in every image (TSP decodes under its tour rule)
IMAGES = tuple(product((False, True), repeat=3))  # (swap x and y, flip x, flip y); the identity first


def image(x: Array, swap: bool, flip_x: bool, flip_y: bool) -> Array:
    """Points (..., 2) of [0, 1]^2 mapped by one symmetry of the square: flips first, then the swap."""
    a = 1.0 - x[..., 0] if flip_x else x[..., 0]
    b = 1.0 - x[..., 1] if flip_y else x[..., 1]
    return np.stack([b, a] if swap else [a, b], axis=-1)


def mirrors(swap: bool, flip_x: bool, flip_y: bool) -> bool:
    """Whether the symmetry reverses orientation (counter-clockwise becomes clockwise)."""
    return swap ^ flip_x ^ flip_y


def in_original_frame(task: str, seq: list[int], mirrored: bool) -> list[int]:
    """An image's answer (already read into the notation) as the original points' answer in our notation.

    Hull: a mirror turns the counter-clockwise polygon clockwise, so its answer is read backwards; the
    start (the smallest index) stays first. Delaunay: a set of triangles, the same in every image.
    """
    return seq[::-1] if task == "hull" and mirrored else seq


def _ballot(task: str, seq: list[int]) -> Hashable:
    """What two answers must share to count as the same vote: the hull's sequence, the triangle set."""
    if task == "hull":
        return tuple(seq)
    return len(seq), tuple(sorted(tuple(t) for t in tasks.as_triangles(seq)))


def majority(task: str, answers: Sequence[list[int]]) -> tuple[list[int], int]:
    """The most frequent of the images' answers (already in the original frame) and how many gave it; a tie goes
    to the earliest image, the identity first."""
    ballots = [_ballot(task, a) for a in answers]
    tally = Counter(ballots)
    most = max(tally.values())
    return answers[next(k for k, b in enumerate(ballots) if tally[b] == most)], most
