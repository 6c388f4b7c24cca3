"""The canonical 1-based output sequences of SPEC section 2 and their display strings."""

import numpy as np
from numpy.typing import ArrayLike

from ptrnet.delaunay import delaunay
from ptrnet.hull import convex_hull
from ptrnet.tsp import held_karp


def hull_sequence(points: ArrayLike) -> list[int]:
    """Hull vertices 1-based, counter-clockwise from the smallest index, start repeated: [3, 6, 4, 5, 3]."""
    hull = (convex_hull(points) + 1).tolist()
    return hull + hull[:1]


def tsp_sequence(points: ArrayLike) -> list[int]:
    """Optimal tour 1-based from city 1 back to 1, second city smaller than the second-to-last."""
    tour = (held_karp(points)[0] + 1).tolist()
    return tour + tour[:1]


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


def format_sequence(seq: list[int]) -> str:
    """Display form of an index sequence: '⇒ 3 → 6 → 4 → 5 → 3 ⇐'."""
    return " ".join(["⇒", " → ".join(map(str, seq)), "⇐"]) if seq else "⇒ ⇐"


def format_partial(output: list[int]) -> str:
    """Display form of a decoding so far (0 stands for ⇐): '⇒ 3 → 6 → 4', then '⇒ 3 → 6 → 4 → 5 → 3 ⇐'."""
    points = [j for j in output if j != 0]
    return " ".join(["⇒", *([" → ".join(map(str, points))] if points else []), *(["⇐"] if 0 in output else [])])


def format_triangles(tris: list[list[int]]) -> str:
    """Display form of a triangle list: '⇒ (1,3,5), (1,5,7) ⇐'."""
    return " ".join(["⇒", ", ".join("(" + ",".join(map(str, t)) + ")" for t in tris), "⇐"]) if tris else "⇒ ⇐"
