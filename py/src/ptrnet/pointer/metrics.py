"""The paper's metrics, one point set at a time and summed up over a test set: the offline evaluation, the
browser's experiment runner and the companion page's verdicts score through these same functions.

Hull: exact match, and the output polygon's area over the true hull's (simple polygons only; FAIL when over
1 % of outputs are not simple). TSP: tour length against a reference length, valid tours only; an answer is
correct when it is as short as the reference. Delaunay: exact triangle sets and the share of true triangles found.

A summary is made from sums (counts and totals) that chunks of a test set add up key by key (merge_sums), so a
run measured a chunk at a time is summed up without its sets' outcomes.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from ptrnet.geometry.tsp import tour_length
from ptrnet.pointer.tasks import as_triangles

AREA_FAIL_SHARE = 0.01  # the paper's FAIL: more than this share of outputs are not simple polygons
OPTIMAL_SLACK = 1e-9  # relative length by which a tour may exceed the reference and still be optimal (rounding)

Points = NDArray[np.float64]  # (n, 2)


def _cross(o: Points, a: Points, b: Points) -> NDArray[np.float64]:
    """z of (a - o) x (b - o), row by row."""
    return (a[..., 0] - o[..., 0]) * (b[..., 1] - o[..., 1]) - (a[..., 1] - o[..., 1]) * (b[..., 0] - o[..., 0])


def _within(p: Points, a: Points, b: Points) -> NDArray[np.bool_]:
    """Whether each p (already collinear with a-b) lies within the segment's bounding box."""
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    return np.all((lo <= p) & (p <= hi), axis=-1)


def is_simple_ring(ring: Points) -> bool:
    """Whether the closed polygon through these distinct vertices (m >= 3, not repeated) has no self-intersection:
    no two non-adjacent edges meet, touching included, and no edge folds back over the next one."""
    a = np.asarray(ring, dtype=np.float64)  # (m, 2) edge k runs a[k] -> b[k]
    b = np.roll(a, -1, axis=0)
    m = len(a)
    nxt = np.roll(b, -1, axis=0)  # (m, 2) the end of the edge after k
    if np.any((_cross(a, b, nxt) == 0) & (np.sum((b - a) * (nxt - b), axis=1) < 0)):
        return False  # two consecutive edges overlap
    i, j = np.triu_indices(m, k=2)
    keep = ~((i == 0) & (j == m - 1))  # the last edge is adjacent to the first
    p1, p2, q1, q2 = a[i[keep]], b[i[keep]], a[j[keep]], b[j[keep]]  # (pairs, 2)
    d1, d2 = _cross(q1, q2, p1), _cross(q1, q2, p2)
    d3, d4 = _cross(p1, p2, q1), _cross(p1, p2, q2)
    crossing = (d1 * d2 < 0) & (d3 * d4 < 0)
    touching = (
        ((d1 == 0) & _within(p1, q1, q2))
        | ((d2 == 0) & _within(p2, q1, q2))
        | ((d3 == 0) & _within(q1, p1, p2))
        | ((d4 == 0) & _within(q2, p1, p2))
    )
    return not bool(np.any(crossing | touching))


def polygon_area(ring: Points) -> float:
    """Unsigned area of a simple polygon through these vertices (shoelace)."""
    a = np.asarray(ring, dtype=np.float64)  # (m, 2)
    b = np.roll(a, -1, axis=0)
    return float(abs(np.sum(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0])) / 2)


def hull_outcome(points: Points, truth: Sequence[int], output: Sequence[int]) -> dict:
    """One hull answer: exact match, whether it is a simple polygon of the inputs, and its area over the true
    hull's (None where it is not simple)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    ring = list(output[:-1]) if len(output) > 1 and output[0] == output[-1] else list(output)
    area = None
    if len(ring) >= 3 and len(set(ring)) == len(ring) and all(1 <= j <= len(pts) for j in ring):
        coords = pts[np.array(ring) - 1]  # (m, 2)
        area = polygon_area(coords) if is_simple_ring(coords) else None
    simple = area is not None and area > 0
    true_area = polygon_area(pts[np.array(truth[:-1], dtype=np.int64) - 1]) if len(truth) > 3 else 0.0
    ratio = area / true_area if simple and true_area > 0 else None
    return {"correct": list(output) == list(truth), "simple": bool(simple), "area_ratio": ratio}


def hull_sums(outcomes: Sequence[dict]) -> dict:
    """What a hull summary adds up: sets, exact answers, outputs not simple, and the area ratios of simple ones."""
    ratios = [o["area_ratio"] for o in outcomes if o["simple"] and o["area_ratio"] is not None]
    return {
        "sets": len(outcomes),
        "correct": sum(bool(o["correct"]) for o in outcomes),
        "not_simple": sum(not o["simple"] for o in outcomes),
        "area_ratio": float(np.sum(ratios)),
        "area_ratios": len(ratios),
    }


def hull_from_sums(sums: dict) -> dict:
    """Accuracy, mean area ratio over simple outputs, the share not simple and the paper's FAIL."""
    sets = sums["sets"]
    not_simple = sums["not_simple"] / max(sets, 1)
    return {
        "accuracy": sums["correct"] / sets if sets else 0.0,
        "area_coverage": sums["area_ratio"] / sums["area_ratios"] if sums["area_ratios"] else None,
        "not_simple": not_simple,
        "area_fail": not_simple > AREA_FAIL_SHARE,
    }


def hull_summary(outcomes: Sequence[dict]) -> dict:
    """hull_from_sums of these outcomes."""
    return hull_from_sums(hull_sums(outcomes))


def is_tour(seq: Sequence[int], n: int) -> bool:
    """A closed tour in our notation: P1, every other point once, P1 again."""
    return len(seq) == n + 1 and seq[0] == seq[-1] == 1 and sorted(seq[:-1]) == list(range(1, n + 1))


def tour_outcome(points: Points, reference: float, output: Sequence[int]) -> dict:
    """One TSP answer: whether it is a valid tour, its length (NaN if not), the reference tour's length, and whether
    it is correct: a valid tour as short as the reference (whichever of equally short tours)."""
    valid = is_tour(output, len(points))
    length = tour_length(points, np.array(output[:-1]) - 1) if valid else float("nan")
    correct = valid and length <= reference * (1 + OPTIMAL_SLACK)
    return {"valid": valid, "length": length, "reference": reference, "correct": bool(correct)}


def tour_sums(outcomes: Sequence[dict]) -> dict:
    """What a TSP summary adds up: sets, valid tours, and the totals of lengths (NaN if any is invalid), reference
    lengths and their ratios."""
    ours = np.array([o["length"] for o in outcomes], dtype=np.float64)
    best = np.array([o["reference"] for o in outcomes], dtype=np.float64)
    return {
        "sets": len(outcomes),
        "valid": sum(bool(o["valid"]) for o in outcomes),
        "length": float(np.sum(ours)),
        "reference": float(np.sum(best)),
        "ratio": float(np.sum(ours / best)),
    }


def tour_from_sums(sums: dict) -> dict:
    """Mean tour length (NaN if any is invalid), mean reference length, share of valid tours, mean ratio."""
    sets = sums["sets"]
    return {
        "mean_length": sums["length"] / sets,
        "optimal": sums["reference"] / sets,
        "valid": sums["valid"] / sets,
        "ratio": sums["ratio"] / sets,
    }


def tour_summary(outcomes: Sequence[dict]) -> dict:
    """tour_from_sums of these outcomes."""
    return tour_from_sums(tour_sums(outcomes))


def _triangle_set(seq: Sequence[int]) -> set[tuple[int, ...]]:
    """The set of triangles a flat pointer sequence names, as ascending triples."""
    return {tuple(t) for t in as_triangles(seq)}


def triangle_outcome(truth: Sequence[int], output: Sequence[int]) -> dict:
    """One Delaunay answer: exactly the true set of triangles, and the share of the true triangles it names."""
    want, got = _triangle_set(truth), _triangle_set(output)
    exact = got == want and len(output) % 3 == 0 and len(output) == 3 * len(want)
    return {"correct": exact, "coverage": len(want & got) / max(len(want), 1)}


def triangle_sums(outcomes: Sequence[dict]) -> dict:
    """What a Delaunay summary adds up: sets, exact sets and the total triangle coverage."""
    return {
        "sets": len(outcomes),
        "correct": sum(bool(o["correct"]) for o in outcomes),
        "coverage": float(np.sum([o["coverage"] for o in outcomes])),
    }


def triangle_from_sums(sums: dict) -> dict:
    """Exact-set accuracy and mean triangle coverage."""
    return {"accuracy": sums["correct"] / sums["sets"], "triangle_coverage": sums["coverage"] / sums["sets"]}


def triangle_summary(outcomes: Sequence[dict]) -> dict:
    """triangle_from_sums of these outcomes."""
    return triangle_from_sums(triangle_sums(outcomes))


def merge_sums(a: dict, b: dict) -> dict:
    """Two chunks' sums as one: key by key, numbers added and lists added element by element."""
    return {k: [x + y for x, y in zip(a[k], b[k], strict=True)] if isinstance(a[k], list) else a[k] + b[k] for k in a}


def _edges(seq: Sequence[int]) -> set[frozenset[int]]:
    """Undirected edges between consecutive indices of a closed sequence."""
    return {frozenset(e) for e in zip(seq, seq[1:], strict=False) if e[0] != e[1]}


def wrong_edges(truth: Sequence[int], output: Sequence[int]) -> list[list[int]]:
    """The edges of a closed answer (hull or tour) that the true one does not have, as sorted pairs."""
    return sorted(sorted(e) for e in _edges(output) - _edges(truth))


def wrong_triangles(truth: Sequence[Sequence[int]], output: Sequence[Sequence[int]]) -> list[list[int]]:
    """The triangles of an answer (ascending triples) that the true triangulation does not have."""
    want = {tuple(t) for t in truth}
    return [list(t) for t in output if tuple(t) not in want]
