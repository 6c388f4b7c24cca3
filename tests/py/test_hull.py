"""Convex hull: the paper's 10,000 test lines, scipy as an oracle, and exact validity on degenerate sets."""

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial import ConvexHull

from ptrnet.geometry.hull import convex_hull, orient
from ptrnet.geometry.notation import canonical_hull, hull_sequence


def cross(a, b, c) -> Fraction:
    """Exact (b - a) x (c - a), independent of the package."""
    ax, ay, bx, by, cx, cy = map(Fraction, (*a, *b, *c))
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


def assert_valid_hull(points, hull) -> None:
    """Exact check: hull is the strictly convex, counter-clockwise polygon of all points, from its leftmost vertex."""
    pts = [tuple(map(float, p)) for p in points]
    hull = hull.tolist()
    assert len(set(hull)) == len(hull)
    assert all(pts.index(pts[i]) == i for i in hull), "a duplicate point must use its smallest index"
    if not pts:
        assert hull == []
        return
    assert pts[hull[0]] == min(pts[i] for i in hull)  # leftmost, then lowest
    if len(hull) == 1:
        assert all(p == pts[hull[0]] for p in pts)
    elif len(hull) == 2:
        a, b = pts[hull[0]], pts[hull[1]]
        assert a != b
        assert all(cross(a, b, p) == 0 for p in pts), "two vertices only when all points are collinear"
        assert all(min(a[k], b[k]) <= p[k] <= max(a[k], b[k]) for p in pts for k in (0, 1)), "not the extremes"
    else:
        ring = [pts[i] for i in hull]
        for k in range(len(ring)):
            a, b, c = ring[k], ring[(k + 1) % len(ring)], ring[(k + 2) % len(ring)]
            assert cross(a, b, c) > 0, "every vertex a strict left turn"
            assert all(cross(a, b, p) >= 0 for p in pts), "a point outside the hull"


def test_reproduces_every_line_of_the_papers_5_point_test_file(read_data):
    lines = read_data("convex_hull_5_test.txt")
    assert len(lines) == 10_000
    mismatches = [(pts, want) for pts, want in lines if hull_sequence(pts) != want]
    assert mismatches == []


def test_reference_example_hull_is_3_6_4_5(reference):
    assert hull_sequence(reference["points"]) == reference["hull"]


def test_degenerate_inputs_have_defined_answers():
    assert convex_hull(np.zeros((0, 2))).tolist() == []
    assert convex_hull([[0.3, 0.7]]).tolist() == [0]
    assert convex_hull([[0.5, 0.5]] * 4).tolist() == [0]
    assert convex_hull([[0.9, 0.1], [0.2, 0.4]]).tolist() == [1, 0]  # from the leftmost point
    assert hull_sequence([[0.9, 0.1], [0.2, 0.4]]) == [1, 2, 1]  # the notation: from the smallest index
    collinear = [[0.5, 0.5], [0.25, 0.25], [0.75, 0.75], [0.0, 0.0]]
    assert hull_sequence(collinear) == [3, 4, 3]  # the two extremes, smallest index first
    assert hull_sequence([[0.2, 0.2], [0.2, 0.2], [0.8, 0.2], [0.5, 0.9], [0.8, 0.2]]) == [1, 3, 4, 1]


def test_the_canonical_hull_reads_any_rotation_of_a_polygon_from_its_smallest_index():
    assert canonical_hull([4, 2, 7, 4]) == canonical_hull([2, 7, 4, 2]) == canonical_hull([7, 4, 2, 7]) == [2, 7, 4, 2]
    assert canonical_hull([4, 2, 7]) == [4, 2, 7]  # not closed: left as it is


def test_points_on_an_edge_are_not_vertices():
    square = [[0.5, 0.0], [0, 0], [1, 0], [1, 0.5], [1, 1], [0.5, 1], [0, 1], [0, 0.5], [0.5, 0.5]]  # + midpoints
    assert convex_hull(square).tolist() == [1, 2, 4, 6]


def test_orient_is_exact_where_floats_round():
    a, b = (0.1, 0.1), (0.3, 0.3)
    assert orient(a, b, (0.2, 0.2)) == 0  # on y = x whatever the rounding
    tiny = np.nextafter(0.2, 1.0)  # one ulp above the line
    assert orient(a, b, (0.2, tiny)) == 1 and orient(b, a, (0.2, tiny)) == -1


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 60))
def test_vertex_set_matches_scipy_in_general_position(seed, n):
    pts = np.random.default_rng(seed).random((n, 2))  # (n, 2)
    hull = convex_hull(pts)
    assert set(hull.tolist()) == set(ConvexHull(pts).vertices.tolist())
    assert_valid_hull(pts, hull)


dyadic = st.integers(0, 16).map(lambda k: k / 16)  # exact in binary, so collinearity and duplicates are exact
grid_points = st.lists(st.tuples(dyadic, dyadic), max_size=30)
unit_points = st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), max_size=20)


@st.composite
def collinear_points(draw):
    """Points a + t (b - a) on one line, with exact dyadic coordinates, duplicates allowed."""
    a, b = draw(st.tuples(dyadic, dyadic)), draw(st.tuples(dyadic, dyadic))
    ts = draw(st.lists(st.integers(-8, 8).map(lambda k: k / 8), max_size=12))
    return [(a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])) for t in ts]


@st.composite
def with_duplicates(draw):
    """A few distinct points each repeated, shuffled."""
    base = draw(st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=1, max_size=6))
    return draw(st.permutations([p for p in base for _ in range(draw(st.integers(1, 3)))]))


@settings(max_examples=150, deadline=None)
@given(points=st.one_of(grid_points, unit_points, collinear_points(), with_duplicates()))
def test_result_is_valid_on_duplicates_collinear_and_small_sets(points):
    assert_valid_hull(points, convex_hull(points))


def test_same_input_same_answer():
    pts = np.random.default_rng(7).integers(0, 5, size=(40, 2)) / 4  # many duplicates and collinear points
    assert convex_hull(pts).tolist() == convex_hull(pts.copy()).tolist()
    assert_valid_hull(pts, convex_hull(pts))
