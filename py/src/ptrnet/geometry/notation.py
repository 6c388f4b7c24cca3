"""The canonical 1-based output sequences of SPEC section 2 (ptrnet.formats writes them for the reader)."""

import numpy as np
from numpy.typing import ArrayLike

from ptrnet.geometry.delaunay import delaunay
from ptrnet.geometry.hull import convex_hull
from ptrnet.geometry.tsp import held_karp


def hull_sequence(points: ArrayLike) -> list[int]:
    """Hull vertices 1-based, counter-clockwise from the smallest index, start repeated: [3, 6, 4, 5, 3]."""
    ring = (convex_hull(points) + 1).tolist()
    return canonical_hull(ring + ring[:1])


def canonical_hull(seq: list[int]) -> list[int]:
    """A closed polygon's sequence read from its smallest index, the notation's start (the polygon unchanged), for
    exact and model answers alike; a sequence that does not end where it began is left as it is."""
    if len(seq) < 2 or seq[0] != seq[-1]:
        return list(seq)
    ring = list(seq[:-1])
    k = ring.index(min(ring))
    return ring[k:] + ring[:k] + [ring[k]]


def tsp_sequence(points: ArrayLike) -> list[int]:
    """Optimal tour 1-based from city 1 back to 1, second city smaller than the second-to-last."""
    tour = (held_karp(points)[0] + 1).tolist()
    return canonical_tour(tour + tour[:1])


def canonical_tour(seq: list[int]) -> list[int]:
    """A closed tour from P1 in the notation's direction (second city smaller than the second-to-last), for exact
    and model answers alike."""
    return [seq[0], *seq[-2:0:-1], seq[0]] if len(seq) > 3 and seq[1] > seq[-2] else list(seq)


def delaunay_sequence(points: ArrayLike) -> list[list[int]]:
    """Delaunay triangles as ascending 1-based triples, sorted by incenter (x, then y)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)  # (n, 2)
    return in_triangle_order(pts, (delaunay(pts) + 1).tolist())


def in_triangle_order(points: ArrayLike, tris: list[list[int]]) -> list[list[int]]:
    """1-based triangles as ascending triples sorted by incenter (x, then y): the notation's order for any
    triangle list, such as a model's answer (a degenerate triple stands at its corners' mean)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)  # (n, 2)
    triples = [sorted(t) for t in tris]
    if not triples:
        return []
    corners = pts[np.array(triples) - 1]  # (m, 3, 2)
    opposite = np.roll(corners, -1, axis=1) - np.roll(corners, -2, axis=1)  # (m, 3, 2) the side facing each corner
    sides = np.sqrt((opposite**2).sum(axis=2))  # (m, 3)
    weights = np.where(sides.sum(axis=1, keepdims=True) > 0, sides, 1.0)  # (m, 3) all-equal corners: their mean
    centers = (weights[..., None] * corners).sum(axis=1) / weights.sum(axis=1, keepdims=True)  # (m, 2)
    order = sorted(range(len(triples)), key=lambda t: (centers[t, 0], centers[t, 1], triples[t]))
    return [triples[t] for t in order]
