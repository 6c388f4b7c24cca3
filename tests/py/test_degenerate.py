"""Degenerate point sets: each finding checked against a brute-force oracle in exact rational arithmetic
(independent of the package's predicates), on grid points where degeneracies are common and exact."""

from fractions import Fraction
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from ptrnet.api import dispatch
from ptrnet.geometry.degenerate import cocircular, notes, on_hull_edges, on_one_line, repeated

GRID = [k / 4 for k in range(5)]  # exact binary fractions: collinear, repeated and co-circular sets are frequent
POINTS = st.lists(st.tuples(st.sampled_from(GRID), st.sampled_from(GRID)).map(list), min_size=0, max_size=12)


def exact(points):
    return [tuple(map(Fraction, p)) for p in points]


def cross(a, b, c):
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def places(points):
    """Smallest index per distinct place."""
    pts = exact(points)
    return [i for i, p in enumerate(pts) if pts.index(p) == i]


def circle(a, b, c):
    """Centre and squared radius of the circle through three non-collinear exact points."""
    d = 2 * cross(a, b, c)
    sa, sb, sc = (p[0] ** 2 + p[1] ** 2 for p in (a, b, c))
    x = (sa * (b[1] - c[1]) + sb * (c[1] - a[1]) + sc * (a[1] - b[1])) / d
    y = (sa * (c[0] - b[0]) + sb * (a[0] - c[0]) + sc * (b[0] - a[0])) / d
    return (x, y), (a[0] - x) ** 2 + (a[1] - y) ** 2


def edge_points_oracle(points):
    """Places strictly inside a segment between two places that has every point on one side of its line."""
    pts, idx = exact(points), places(points)
    found = set()
    for a, b in combinations(idx, 2):
        sides = {(cross(pts[a], pts[b], pts[p]) > 0) - (cross(pts[a], pts[b], pts[p]) < 0) for p in idx}
        if sides <= {0, 1} or sides <= {0, -1}:  # ab lies on the hull's boundary
            for p in idx:
                between = all(min(pts[a][k], pts[b][k]) <= pts[p][k] <= max(pts[a][k], pts[b][k]) for k in (0, 1))
                if p not in (a, b) and cross(pts[a], pts[b], pts[p]) == 0 and between:
                    found.add(p)
    return sorted(found)


def cocircular_oracle(points):
    """Every set of 4+ places on one circle with no place strictly inside it."""
    pts, idx = exact(points), places(points)
    groups = set()
    for a, b, c in combinations(idx, 3):
        if cross(pts[a], pts[b], pts[c]) == 0:
            continue
        (x, y), r2 = circle(pts[a], pts[b], pts[c])
        dist = {p: (pts[p][0] - x) ** 2 + (pts[p][1] - y) ** 2 for p in idx}
        on = tuple(sorted(p for p in idx if dist[p] == r2))
        if len(on) > 3 and all(dist[p] >= r2 for p in idx):
            groups.add(on)
    return sorted(list(g) for g in groups)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(POINTS)
def test_each_finding_matches_its_brute_force_oracle(points):
    pts, idx = exact(points), places(points)
    groups = [[i for i, p in enumerate(pts) if p == pts[k]] for k in idx]
    assert repeated(points) == [g for g in groups if len(g) > 1]
    line = len(idx) < 3 or all(cross(pts[idx[0]], pts[idx[1]], pts[c]) == 0 for c in idx[2:])
    assert on_one_line(points) == line
    if not line:
        assert on_hull_edges(points) == edge_points_oracle(points)
        assert cocircular(points) == cocircular_oracle(points)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(POINTS, st.booleans())
def test_notes_name_every_finding_in_korean(points, triangulation):
    said = " ".join(notes(points, triangulation))
    assert bool(said) == bool(
        repeated(points) or on_one_line(points) or on_hull_edges(points) or (triangulation and cocircular(points))
    )
    for group in repeated(points):
        assert " = ".join(f"P{i + 1}" for i in group) in said
    if not on_one_line(points):
        for i in on_hull_edges(points):
            assert f"P{i + 1}" in said
    if triangulation and not on_one_line(points):
        for group in cocircular(points):
            assert ", ".join(f"P{i + 1}" for i in group) in said
    if not triangulation:
        assert "삼각" not in said and "들로네" not in said, "a page without Delaunay hears nothing of it"
    assert ("삼각형은 하나도" in said) == (triangulation and bool(points) and on_one_line(points))


def test_general_position_gets_no_note():
    reference = [[0.45, 0.45], [0.1, 0.9], [0.9, 0.9], [0.3, 0.2], [0.75, 0.3], [0.6, 0.65], [0.15, 0.5]]
    assert notes(reference, triangulation=True) == []


def test_the_solvers_answer_with_their_notes():
    edge = [[0.25, 0.25], [0.75, 0.25], [0.75, 0.75], [0.25, 0.75], [0.5, 0.25]]
    seq = dispatch("sequences", "solve", {"points": edge})
    assert seq["notes"] == notes(edge) == ["볼록 껍질의 변 위에 놓인 점(P5)은 꼭짓점으로 세지 않습니다."]
    square = edge[:4]
    both = dispatch("three-problems", "solve", {"points": square})
    assert both["notes"] == notes(square, triangulation=True)
    assert any("(P1, P2, P3, P4)" in n and "들로네" in n for n in both["notes"]), "the corners share a circle"
