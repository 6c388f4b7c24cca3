"""The paper's three problems as pointer-sequence tasks: labels, decoding rules and random examples."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ptrnet.geometry.hull import orient
from ptrnet.geometry.notation import canonical_hull, canonical_tour, delaunay_sequence, hull_sequence, tsp_sequence

Points = NDArray[np.float64]  # (n, 2)


def _flat_triangles(points: Points) -> list[int]:
    """Delaunay triangles in our notation's order as one flat pointer sequence (i, j, k, i', j', k', ...), each
    triangle counter-clockwise from its leftmost corner.

    The set is the notation's; only the corners' order inside a triangle differs. A Ptr-Net learns this
    geometric order far faster than ascending indices (n = 5, same run otherwise: 33 % exact sets after
    5,000 updates against 2 %), and as_triangles reads either back as the same ascending triples.
    """
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)  # (n, 2)
    return [j for tri in delaunay_sequence(pts) for j in _counter_clockwise_from_leftmost(pts, tri)]


def _counter_clockwise_from_leftmost(pts: Points, tri: list[int]) -> list[int]:
    """A 1-based triangle's corners counter-clockwise, starting at the leftmost (then lowest) one."""
    a = _leftmost(pts, tri)
    b, c = (j for j in tri if j != a)
    return [a, b, c] if orient(*(tuple(pts[j - 1]) for j in (a, b, c))) > 0 else [a, c, b]


def _leftmost(pts: Points, indices: Sequence[int]) -> int:
    """The 1-based index, of those given, of the leftmost point (the lowest of equally left ones)."""
    return min(indices, key=lambda j: (pts[j - 1, 0], pts[j - 1, 1]))


def _hull_from_leftmost(points: Points) -> list[int]:
    """Hull vertices counter-clockwise from the leftmost (then lowest) one, start repeated: the order the hull
    Ptr-Net is taught.

    The notation starts at the smallest index, which the network can only find once it knows every point's
    place on the hull: the shipped notation-taught model (hidden 192, greedy, 2,000 unseen sets) went from
    57.7 % to 69.6 % exact at n = 50, and from 84.0 % to 90.9 % at n = 10, when only its first choice was
    forced to the right vertex. The leftmost point is always a vertex and is found from x alone; the polygon
    is the same, and notation.canonical_hull reads it back.
    """
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)  # (n, 2)
    ring = hull_sequence(pts)[:-1]
    if not ring:
        return []
    return _closed_from(ring, _leftmost(pts, ring))


def _closed_from(ring: list[int], first: int) -> list[int]:
    """A polygon's vertex ring read from (the first occurrence of) first, start repeated at the end."""
    k = ring.index(first)
    return ring[k:] + ring[:k] + [first]


def _unchanged(seq: Sequence[int]) -> list[int]:
    """A Ptr-Net answer already in its label's form."""
    return list(seq)


def as_triangles(seq: Sequence[int]) -> list[list[int]]:
    """A flat pointer sequence read back as ascending triples in its order; a leftover part-triple is dropped."""
    return [sorted(seq[k : k + 3]) for k in range(0, len(seq) - len(seq) % 3, 3)]


@dataclass(frozen=True)
class Task:
    """One problem: its target pointer sequence and how a Ptr-Net decodes it."""

    name: str  # "hull", "tsp" or "delaunay"
    label: Callable[[Points], list[int]]  # points -> 1-based answer sequence as scored, without the final ⇐
    taught: Callable[[Points], list[int]]  # points -> the sequence the Ptr-Net is trained to emit, without ⇐
    read: Callable[[Sequence[int]], list[int]]  # a Ptr-Net's emitted sequence -> the label's (canonical) form
    constrained: bool  # decode only valid tours (TSP), as the paper's beam search did
    val_ns: tuple[int, ...]  # sizes the trainer validates on
    steps_per_point: int  # output steps per input point at most (for a decoding cap)
    beam_width: int  # beams of the search the evaluation reports beside greedy decoding
    page_width: int  # beams the companion page uses live (1: greedy), to answer within a frame or two
    beam_pick: str = "probable"  # which finished beam answers: the most probable (the paper's) or the "shortest" tour

    def max_steps(self, n: int) -> int:
        """Decoding cap for n points: the longest target plus ⇐ and some slack for wrong answers."""
        return self.steps_per_point * n + 2


SPECS = {
    "hull": Task(
        "hull",
        hull_sequence,
        _hull_from_leftmost,
        canonical_hull,
        constrained=False,
        val_ns=(5, 10, 50),
        steps_per_point=2,
        beam_width=4,
        page_width=1,
    ),
    "tsp": Task(
        "tsp",
        tsp_sequence,
        tsp_sequence,
        canonical_tour,
        constrained=True,
        val_ns=(5, 10, 20),
        steps_per_point=1,
        beam_width=10,
        page_width=10,
        beam_pick="shortest",  # the beams are valid tours: answer with the shortest, as later TSP work does
    ),
    "delaunay": Task(
        "delaunay",
        _flat_triangles,
        _flat_triangles,
        _unchanged,
        constrained=False,
        val_ns=(5, 10),
        steps_per_point=6,
        beam_width=4,
        page_width=1,
    ),
}


def random_points(rng: np.random.Generator, n: int) -> Points:
    """n points uniform in [0, 1]^2, rounded to 8 decimals as in the paper's text files."""
    return rng.random((n, 2)).round(8)


def generate(
    task: str, n: int | Sequence[int], count: int, seed: int, taught: bool = False
) -> tuple[list[Points], list[list[int]]]:
    """count random point sets (n points, or n drawn from a list) and their labels, or with taught the
    sequences a Ptr-Net is trained on (the same points either way)."""
    rng = np.random.default_rng(seed)
    sizes = np.full(count, n) if isinstance(n, int) else rng.choice(np.asarray(n), count)
    points = [random_points(rng, k) for k in sizes.tolist()]
    spec = SPECS[task]
    return points, [(spec.taught if taught else spec.label)(p) for p in points]
