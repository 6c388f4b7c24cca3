"""Delaunay: scipy as an oracle in general position, exact validity and empty circumcircles on degenerate sets."""

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial import Delaunay

from ptrnet.geometry.delaunay import delaunay, incircle


def cross(a, b, c) -> Fraction:
    """Exact (b - a) x (c - a), independent of the package."""
    ax, ay, bx, by, cx, cy = map(Fraction, (*a, *b, *c))
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


def in_circle(a, b, c, d) -> Fraction:
    """Exact incircle determinant: > 0 iff d is strictly inside the circle through counter-clockwise a, b, c."""
    rows = [[Fraction(p[0]) - Fraction(d[0]), Fraction(p[1]) - Fraction(d[1])] for p in (a, b, c)]
    (ax, ay), (bx, by), (cx, cy) = rows
    return (
        (ax * ax + ay * ay) * (bx * cy - cx * by)
        - (bx * bx + by * by) * (ax * cy - cx * ay)
        + (cx * cx + cy * cy) * (ax * by - bx * ay)
    )


def hull_ring(pts) -> list:
    """Counter-clockwise hull corners (strict), by an exact gift wrap, independent of the package."""
    distinct = sorted(set(pts))
    ring, here = [], distinct[0]
    while True:
        ring.append(here)
        nxt = next(p for p in distinct if p != here)
        for p in distinct:
            side = cross(here, nxt, p)
            if p != here and (side < 0 or (side == 0 and _farther(here, nxt, p))):
                nxt = p
        here = nxt
        if here == ring[0]:
            return ring


def _farther(o, a, b) -> bool:
    """For collinear o, a, b: whether b is farther from o than a."""
    return (Fraction(b[0]) - Fraction(o[0])) ** 2 + (Fraction(b[1]) - Fraction(o[1])) ** 2 > (
        Fraction(a[0]) - Fraction(o[0])
    ) ** 2 + (Fraction(a[1]) - Fraction(o[1])) ** 2


def polygon_area(ring) -> Fraction:
    """Exact area of a counter-clockwise polygon."""
    return sum((cross(ring[0], ring[k], ring[k + 1]) for k in range(1, len(ring) - 1)), Fraction(0)) / 2


def assert_valid_delaunay(points, tris) -> None:
    """Exact check: a triangulation of all distinct points (smallest index each), covering the hull once, Delaunay."""
    pts = [tuple(map(float, p)) for p in points]
    tris = tris.tolist()
    keep = sorted({p: pts.index(p) for p in pts}.values())  # the smallest index of each distinct point
    if len(keep) < 3 or all(cross(pts[keep[0]], pts[keep[1]], pts[k]) == 0 for k in keep):
        assert tris == []
        return
    assert all(t == sorted(t) and len(set(t)) == 3 for t in tris)
    assert tris == sorted(tris)
    assert sorted({i for t in tris for i in t}) == keep, "every distinct point is a vertex, duplicates are not"
    ccw = [(a, b, c) if cross(pts[a], pts[b], pts[c]) > 0 else (a, c, b) for a, b, c in tris]
    assert all(cross(pts[a], pts[b], pts[c]) > 0 for a, b, c in ccw), "a flat triangle"
    edges = Counter((t[k], t[(k + 1) % 3]) for t in ccw for k in range(3))
    assert max(edges.values()) == 1, "two triangles on the same side of an edge: they overlap"
    ring = hull_ring(pts)
    for (u, v), _ in edges.items():
        if (v, u) not in edges:  # a boundary edge must lie on the hull boundary, with the hull on its left
            assert all(cross(pts[u], pts[v], p) >= 0 for p in pts), "a hole or a boundary edge inside the hull"
    area = sum((cross(pts[a], pts[b], pts[c]) for a, b, c in ccw), Fraction(0)) / 2
    assert area == polygon_area(ring), "the triangles do not cover the hull exactly once"
    for a, b, c in ccw:
        assert all(in_circle(pts[a], pts[b], pts[c], pts[k]) <= 0 for k in keep), "a point inside a circumcircle"


def scipy_triangles(pts) -> set:
    """scipy's (Qhull's) Delaunay triangles as a set of ascending triples."""
    return {tuple(sorted(t)) for t in Delaunay(pts).simplices.tolist()}


@pytest.mark.parametrize("n", [3, 4, 5, 7, 10, 20, 30, 40])
def test_same_triangles_as_scipy_in_general_position(n):
    for seed in range(5):
        pts = np.random.default_rng([n, seed]).random((n, 2))  # (n, 2)
        tris = delaunay(pts)
        assert {tuple(t) for t in tris.tolist()} == scipy_triangles(pts)
        assert_valid_delaunay(pts, tris)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 40))
def test_same_triangles_as_scipy_for_any_seed(seed, n):
    pts = np.random.default_rng(seed).random((n, 2))  # (n, 2)
    assert {tuple(t) for t in delaunay(pts).tolist()} == scipy_triangles(pts)


def test_reference_example_has_the_specs_8_triangles(reference):
    assert sorted((delaunay(reference["points"]) + 1).tolist()) == sorted(reference["delaunay"])


def test_fewer_than_3_points_or_all_collinear_give_no_triangles():
    for pts in ([], [[0.5, 0.5]], [[0.1, 0.2], [0.3, 0.4]], [[0.5, 0.5]] * 6, [[k / 8, k / 8] for k in range(9)]):
        tris = delaunay(pts)
        assert tris.shape == (0, 3) and tris.dtype == np.int64


def test_later_duplicates_are_ignored():
    pts = np.random.default_rng(5).random((8, 2))
    doubled = np.concatenate([pts, pts[[6, 0, 3]]])  # (11, 2) indices 8, 9, 10 repeat 6, 0, 3
    assert delaunay(doubled).tolist() == delaunay(pts).tolist()
    first_copy_later = np.concatenate([pts[[2]], pts])  # index 0 and index 3 are the same point
    tris = delaunay(first_copy_later)
    assert 3 not in tris and 0 in tris
    assert_valid_delaunay(first_copy_later, tris)


def test_square_corners_give_two_triangles_deterministically():
    square = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
    tris = delaunay(square)
    assert len(tris) == 2
    assert_valid_delaunay(square, tris)
    assert delaunay(square).tolist() == tris.tolist()


def test_exactly_cocircular_points_give_a_valid_triangulation():
    # (±3, ±4), (±4, ±3), (±5, 0), (0, ±5) lie exactly on a circle of radius 5; scaled by 1/16 they stay exact.
    offsets = {(3, 4), (4, 3), (5, 0), (0, 5)}
    offsets = sorted({(sx * x, sy * y) for x, y in offsets for sx in (1, -1) for sy in (1, -1)})
    pts = [[0.5 + x / 16, 0.5 + y / 16] for x, y in offsets]  # 12 points
    tris = delaunay(pts)
    assert len(tris) == 10
    assert_valid_delaunay(pts, tris)
    assert_valid_delaunay(pts + [[0.5, 0.5]], delaunay(pts + [[0.5, 0.5]]))


def test_nearly_cocircular_regular_polygon_is_valid_exactly():
    angles = 2 * np.pi * np.arange(24) / 24
    pts = np.stack([0.5 + 0.4 * np.cos(angles), 0.5 + 0.4 * np.sin(angles)], axis=1)  # (24, 2) rounded onto a circle
    assert_valid_delaunay(pts, delaunay(pts))


dyadic = st.integers(0, 8).map(lambda k: k / 8)  # a coarse exact grid: duplicates, collinear and co-circular sets
grid_points = st.lists(st.tuples(dyadic, dyadic), max_size=25)
unit_points = st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), max_size=12)


@settings(max_examples=150, deadline=None)
@given(points=st.one_of(grid_points, unit_points))
def test_valid_on_degenerate_sets(points):
    tris = delaunay(points)
    assert_valid_delaunay(points, tris)
    assert delaunay(points).tolist() == tris.tolist()


def test_full_grid_is_valid():
    pts = [[i / 6, j / 6] for i in range(7) for j in range(7)]  # 49 points, every square co-circular
    tris = delaunay(pts)
    assert len(tris) == 2 * 36
    assert_valid_delaunay(pts, tris)


def test_incircle_is_exact_where_floats_round():
    a, b, c = (0.0, 0.0), (1.0, 0.0), (0.0, 1.0)
    assert incircle(a, b, c, (1.0, 1.0)) == 0  # the fourth corner of the square
    assert incircle(a, b, c, (1.0, np.nextafter(1.0, 0.0))) == 1
    assert incircle(a, b, c, (1.0, np.nextafter(1.0, 2.0))) == -1
