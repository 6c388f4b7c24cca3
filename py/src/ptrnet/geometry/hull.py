"""Convex hull by Andrew's monotone chain with exact orientation tests."""

from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

_EPS = 2.0**-53
_ORIENT_ERR = (3 + 16 * _EPS) * _EPS  # Shewchuk's ccwerrboundA: relative error of the float determinant
_TINY = 1e-300  # absolute slack that covers underflow in the float determinant


def orient(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> int:
    """Exact sign of the turn a -> b -> c: +1 counter-clockwise (left), -1 clockwise, 0 collinear."""
    left = (b[0] - a[0]) * (c[1] - a[1])
    right = (b[1] - a[1]) * (c[0] - a[0])
    det = left - right
    if abs(det) > _ORIENT_ERR * (abs(left) + abs(right)) + _TINY:
        return 1 if det > 0 else -1
    ax, ay, bx, by, cx, cy = map(Fraction, (*a, *b, *c))  # floats are exact rationals: redo it exactly
    det = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    return (det > 0) - (det < 0)


def convex_hull(points: ArrayLike) -> np.ndarray:
    """Indices of the hull vertices, counter-clockwise from the leftmost (then lowest) one; edge points are not
    vertices (notation.hull_sequence reads them from the smallest index)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)  # (n, 2)
    xy = [tuple(p) for p in pts.tolist()]
    order = np.lexsort((np.arange(len(xy)), pts[:, 1], pts[:, 0])).tolist()  # by x, then y, then index
    distinct = [i for k, i in enumerate(order) if k == 0 or xy[i] != xy[order[k - 1]]]  # smallest index per point
    if len(distinct) < 2:
        return np.array(distinct, dtype=np.int64)
    lower, upper = _chain(distinct, xy), _chain(distinct[::-1], xy)
    return np.array(lower[:-1] + upper[:-1], dtype=np.int64)  # counter-clockwise, from the leftmost point


def _chain(order: list[int], xy: list[tuple[float, float]]) -> list[int]:
    """One half of the monotone chain: keep only strict left turns."""
    chain: list[int] = []
    for i in order:
        while len(chain) >= 2 and orient(xy[chain[-2]], xy[chain[-1]], xy[i]) <= 0:
            chain.pop()
        chain.append(i)
    return chain


def near_collinearity(points: ArrayLike) -> float:
    """How nearly collinear a point set is where it matters for its hull: the smallest distance from any point
    to the line through a hull edge it is not an end of (0 when a point lies on such a line)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)  # (n, 2)
    ring = convex_hull(pts)
    if len(ring) < 3:
        return 0.0
    a, b = pts[ring], pts[np.roll(ring, -1)]  # (m, 2) each edge a -> b
    d = b - a
    cross = d[:, None, 0] * (pts[None, :, 1] - a[:, None, 1]) - d[:, None, 1] * (pts[None, :, 0] - a[:, None, 0])
    dist = np.abs(cross) / np.linalg.norm(d, axis=1)[:, None]  # (m, n) each point to each edge's line
    ends = np.zeros_like(dist, dtype=bool)
    ends[np.arange(len(ring)), ring] = True
    ends[np.arange(len(ring)), np.roll(ring, -1)] = True
    return float(dist[~ends].min()) if (~ends).any() else 0.0
