"""Delaunay triangulation by Bowyer-Watson insertion with exact predicates and ghost triangles."""

from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

from ptrnet.geometry.hull import orient

_EPS = 2.0**-53
_INCIRCLE_ERR = (10 + 96 * _EPS) * _EPS  # Shewchuk's iccerrboundA: relative error of the float determinant
_TINY = 1e-300  # absolute slack that covers underflow in the float determinant
_GHOST = -1  # the vertex at infinity: (u, v, _GHOST) is the outside of hull edge v -> u (outside left of u -> v)

Point = tuple[float, float]
Triangle = tuple[int, int, int]


def incircle(a: Point, b: Point, c: Point, d: Point) -> int:
    """Exact sign: +1 if d lies strictly inside the circle through counter-clockwise a, b, c, -1 outside, 0 on it."""
    adx, ady, bdx, bdy, cdx, cdy = a[0] - d[0], a[1] - d[1], b[0] - d[0], b[1] - d[1], c[0] - d[0], c[1] - d[1]
    alift, blift, clift = adx * adx + ady * ady, bdx * bdx + bdy * bdy, cdx * cdx + cdy * cdy
    det = alift * (bdx * cdy - cdx * bdy) + blift * (cdx * ady - adx * cdy) + clift * (adx * bdy - bdx * ady)
    size = (
        alift * (abs(bdx * cdy) + abs(cdx * bdy))
        + blift * (abs(cdx * ady) + abs(adx * cdy))
        + clift * (abs(adx * bdy) + abs(bdx * ady))
    )
    if abs(det) > _INCIRCLE_ERR * size + _TINY:
        return 1 if det > 0 else -1
    ax, ay, bx, by, cx, cy, dx, dy = map(Fraction, (*a, *b, *c, *d))  # floats are exact rationals: redo it exactly
    adx, ady, bdx, bdy, cdx, cdy = ax - dx, ay - dy, bx - dx, by - dy, cx - dx, cy - dy
    alift, blift, clift = adx * adx + ady * ady, bdx * bdx + bdy * bdy, cdx * cdx + cdy * cdy
    det = alift * (bdx * cdy - cdx * bdy) + blift * (cdx * ady - adx * cdy) + clift * (adx * bdy - bdx * ady)
    return (det > 0) - (det < 0)


def distinct_places(xy: list[Point]) -> list[int]:
    """The smallest index at each distinct place, ascending: a repeated point keeps its smallest index."""
    first: dict[Point, int] = {}
    for i, p in enumerate(xy):
        first.setdefault(p, i)
    return sorted(first.values())


def delaunay(points: ArrayLike) -> np.ndarray:
    """Delaunay triangles as ascending index triples in lexicographic order; (0, 3) if there is no triangle."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)  # (n, 2)
    xy = [tuple(p) for p in pts.tolist()]
    order = distinct_places(xy)
    start = next((k for k in range(2, len(order)) if orient(xy[order[0]], xy[order[1]], xy[order[k]])), None)
    if start is None:  # fewer than 3 distinct points, or all on one line
        return np.zeros((0, 3), dtype=np.int64)
    a, b, c = order[0], order[1], order[start]
    if orient(xy[a], xy[b], xy[c]) < 0:
        b, c = c, b
    triangles: list[Triangle] = [(a, b, c), (b, a, _GHOST), (c, b, _GHOST), (a, c, _GHOST)]
    for p in order[2:start] + order[start + 1 :]:
        hit = [_conflicts(t, xy[p], xy) for t in triangles]
        cavity = [t for t, h in zip(triangles, hit, strict=True) if h]
        edges = [(t[k], t[(k + 1) % 3]) for t in cavity for k in range(3)]
        inner = set(edges)
        triangles = [t for t, h in zip(triangles, hit, strict=True) if not h]
        triangles += [_fan(u, v, p) for u, v in edges if (v, u) not in inner]
    real = sorted(tuple(sorted(t)) for t in triangles if _GHOST not in t)
    return np.array(real, dtype=np.int64).reshape(-1, 3)


def _conflicts(t: Triangle, p: Point, xy: list[Point]) -> bool:
    """Whether p invalidates triangle t: strictly inside its circumcircle, or for a ghost, strictly beyond its edge."""
    u, v, w = t
    if w != _GHOST:
        return incircle(xy[u], xy[v], xy[w], p) > 0
    side = orient(xy[u], xy[v], p)
    return side > 0 or (side == 0 and _strictly_between(xy[u], xy[v], p))


def _strictly_between(a: Point, b: Point, p: Point) -> bool:
    """For p on the line through distinct a and b: whether p lies on the open segment ab."""
    axis = 0 if a[0] != b[0] else 1
    return min(a[axis], b[axis]) < p[axis] < max(a[axis], b[axis])


def _fan(u: int, v: int, p: int) -> Triangle:
    """The new triangle joining cavity edge u -> v to p, with a ghost vertex kept last."""
    if u == _GHOST:
        return (v, p, _GHOST)
    if v == _GHOST:
        return (p, u, _GHOST)
    return (u, v, p)
