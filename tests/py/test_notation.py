"""Canonical 1-based notation: the spec's example exactly, the ordering rules, degenerate forms, display strings."""

import numpy as np
import pytest

from ptrnet import formats
from ptrnet.geometry.delaunay import delaunay
from ptrnet.geometry.notation import delaunay_sequence, hull_sequence, in_triangle_order, tsp_sequence


def incenter(pts, tri) -> tuple[float, float]:
    """Incenter of a 1-based triangle: corners weighted by the opposite side lengths."""
    a, b, c = (np.asarray(pts[i - 1], dtype=float) for i in tri)
    la, lb, lc = np.linalg.norm(b - c), np.linalg.norm(c - a), np.linalg.norm(a - b)
    x, y = (la * a + lb * b + lc * c) / (la + lb + lc)
    return float(x), float(y)


def test_reference_example_matches_the_spec_exactly(reference):
    pts = reference["points"]
    assert hull_sequence(pts) == reference["hull"]
    assert tsp_sequence(pts) == reference["tsp"]
    assert delaunay_sequence(pts) == reference["delaunay"]


def test_sequences_are_plain_python_ints(reference):
    pts = reference["points"]
    values = hull_sequence(pts) + tsp_sequence(pts) + [i for t in delaunay_sequence(pts) for i in t]
    assert all(type(v) is int for v in values)


@pytest.mark.parametrize("seed", range(10))
def test_delaunay_triangles_are_sorted_by_incenter(seed):
    pts = np.random.default_rng(seed).random((12, 2)).tolist()
    seq = delaunay_sequence(pts)
    assert sorted(seq) == (delaunay(pts) + 1).tolist()
    assert all(t == sorted(t) for t in seq)
    centers = [incenter(pts, t) for t in seq]
    assert centers == sorted(centers)


@pytest.mark.parametrize("seed", range(5))
def test_any_triangle_list_is_put_in_notation_order(seed):
    rng = np.random.default_rng(seed)
    pts = rng.random((10, 2)).tolist()
    truth = delaunay_sequence(pts)
    shuffled = [rng.permutation(t).tolist() for t in rng.permutation(np.array(truth))]
    assert in_triangle_order(pts, shuffled) == truth
    # a model may name a corner twice or repeat a triangle: still ordered (by its corners' incenter), kept as given
    odd = [[4, 4, 4], [2, 9, 2], *truth[:2], truth[0]]
    ordered = in_triangle_order(pts, odd)
    assert sorted(ordered) == sorted(sorted(t) for t in odd)
    centers = [incenter_or_point(pts, t) for t in ordered]
    assert centers == sorted(centers)


def incenter_or_point(pts, tri) -> tuple[float, float]:
    """incenter, or the point itself when all three corners are one point."""
    return tuple(pts[tri[0] - 1]) if len(set(tri)) == 1 else incenter(pts, tri)


@pytest.mark.parametrize("seed", range(10))
def test_tsp_direction_rule_and_closing(seed):
    pts = np.random.default_rng(seed).random((9, 2)).tolist()
    seq = tsp_sequence(pts)
    assert seq[0] == seq[-1] == 1 and sorted(seq[:-1]) == list(range(1, 10))
    assert seq[1] < seq[-2], "of the two directions, the one whose second city is smaller"


def test_hull_sequence_starts_at_smallest_index_and_repeats_it():
    pts = np.random.default_rng(0).random((10, 2)).tolist()
    seq = hull_sequence(pts)
    assert seq[0] == seq[-1] == min(seq)


def test_degenerate_forms():
    assert hull_sequence([]) == [] and tsp_sequence([]) == [] and delaunay_sequence([]) == []
    assert hull_sequence([[0.5, 0.5]]) == [1, 1] and tsp_sequence([[0.5, 0.5]]) == [1, 1]
    two = [[0.8, 0.1], [0.2, 0.3]]
    assert hull_sequence(two) == [1, 2, 1] and tsp_sequence(two) == [1, 2, 1] and delaunay_sequence(two) == []
    collinear = [[0.5, 0.5], [0.25, 0.25], [0.75, 0.75]]
    assert hull_sequence(collinear) == [2, 3, 2] and delaunay_sequence(collinear) == []
    assert hull_sequence([[0.3, 0.3]] * 3) == [1, 1]


def test_display_strings():
    assert formats.sequence([3, 6, 4, 5, 3]) == "⇒ 3 → 6 → 4 → 5 → 3 ⇐"
    assert formats.sequence([1, 1]) == "⇒ 1 → 1 ⇐"
    assert formats.sequence([]) == "⇒ ⇐"
    assert formats.triangles([[1, 3, 5], [1, 5, 7]]) == "⇒ (1,3,5), (1,5,7) ⇐"
    assert formats.triangles([]) == "⇒ ⇐"


def test_reference_display_strings(reference):
    pts = reference["points"]
    assert formats.sequence(hull_sequence(pts)) == "⇒ 3 → 6 → 4 → 5 → 3 ⇐"
    assert formats.sequence(tsp_sequence(pts)) == "⇒ 1 → 2 → 6 → 4 → 7 → 5 → 3 → 1 ⇐"
    assert formats.triangles(delaunay_sequence(pts)) == (
        "⇒ (1,3,5), (1,5,7), (1,2,3), (1,2,7), (4,5,7), (2,3,6), (2,4,7), (2,4,6) ⇐"
    )
