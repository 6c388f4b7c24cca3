"""The paper's metrics as the wheel computes them (numpy only, shared by the offline evaluation and the browser's
experiment runner) against shapely's simple-polygon test and areas, and against hand-made cases."""

from __future__ import annotations

import numpy as np
import pytest
from shapely.geometry import LinearRing, Polygon

from ptrnet.geometry.notation import hull_sequence
from ptrnet.pointer import metrics


def _shapely_simple(coords: np.ndarray) -> bool:
    ring = [tuple(p) for p in coords]
    return LinearRing(ring).is_simple and Polygon(ring).area > 0


@pytest.mark.parametrize("seed", range(6))
def test_the_simple_polygon_test_agrees_with_shapely_on_random_rings(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(300):
        n = int(rng.integers(3, 12))
        points = rng.random((n, 2)).round(int(rng.integers(1, 3)))  # coarse grids: many touching and collinear cases
        order = rng.permutation(n)[: int(rng.integers(3, n + 1))]
        coords = points[order]
        if len({tuple(p) for p in coords}) < len(coords):
            continue  # the metric refuses repeated vertices before this test
        ours = metrics.is_simple_ring(coords) and metrics.polygon_area(coords) > 0
        assert ours == _shapely_simple(coords), coords.tolist()


def test_the_simple_polygon_test_agrees_with_shapely_on_near_hull_answers() -> None:
    rng = np.random.default_rng(11)
    agree = 0
    for _ in range(200):
        points = rng.random((30, 2))
        ring = hull_sequence(points)[:-1]
        k = int(rng.integers(len(ring)))
        ring[k] = int(rng.integers(1, 31))  # one vertex swapped for another point: often a crossing
        if len(set(ring)) < len(ring):
            continue
        coords = points[np.array(ring) - 1]
        assert metrics.is_simple_ring(coords) == LinearRing([tuple(p) for p in coords]).is_simple
        agree += 1
    assert agree > 100


def test_areas_are_shapelys() -> None:
    rng = np.random.default_rng(5)
    for _ in range(100):
        points = rng.random((12, 2))
        coords = points[np.array(hull_sequence(points)[:-1]) - 1]
        assert metrics.polygon_area(coords) == pytest.approx(Polygon([tuple(p) for p in coords]).area, rel=1e-12)


def test_a_hull_outcome_scores_match_simplicity_and_area() -> None:
    square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.5, 0.9]])
    truth = [1, 2, 3, 4, 1]
    assert metrics.hull_outcome(square, truth, truth) == {"correct": True, "simple": True, "area_ratio": 1.0}
    inside = metrics.hull_outcome(square, truth, [1, 2, 3, 5, 4, 1])
    assert not inside["correct"] and inside["simple"] and inside["area_ratio"] == pytest.approx(0.95)
    for bad in ([1, 3, 2, 4, 1], [1, 2, 1], [1, 2, 3, 9, 1], []):  # bow-tie, degenerate, no such point, nothing
        assert metrics.hull_outcome(square, truth, bad)["simple"] is False


def test_the_hull_summary_fails_the_area_above_one_percent_not_simple() -> None:
    good = {"correct": True, "simple": True, "area_ratio": 1.0}
    bad = {"correct": False, "simple": False, "area_ratio": None}
    assert metrics.hull_summary([bad] + [good] * 99)["area_fail"] is False
    summary = metrics.hull_summary([bad] * 2 + [good] * 98)
    assert summary["area_fail"] is True and summary["accuracy"] == 0.98 and summary["area_coverage"] == 1.0


def test_tour_outcomes_against_a_hand_measured_square() -> None:
    square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    around = metrics.tour_outcome(square, 4.0, [1, 2, 3, 4, 1])
    crossed = metrics.tour_outcome(square, 4.0, [1, 3, 2, 4, 1])
    assert around["valid"] and around["length"] == pytest.approx(4.0)
    assert crossed["length"] == pytest.approx(2 + 2 * np.sqrt(2))
    summary = metrics.tour_summary([around, crossed])
    assert summary["ratio"] == pytest.approx((1 + (2 + 2 * np.sqrt(2)) / 4) / 2)
    assert not metrics.tour_outcome(square, 4.0, [1, 2, 2, 4, 1])["valid"]


def test_triangle_outcomes_count_sets_not_orders() -> None:
    truth = [1, 2, 3, 2, 3, 4]
    assert metrics.triangle_outcome(truth, [3, 1, 2, 4, 3, 2]) == {"correct": True, "coverage": 1.0}
    assert metrics.triangle_outcome(truth, [1, 2, 3, 1, 2, 4]) == {"correct": False, "coverage": 0.5}
    assert metrics.triangle_outcome(truth, [1, 2, 3, 2, 3, 4, 1])["correct"] is False  # a stray part-triple


def test_a_tour_is_correct_when_valid_and_as_short_as_the_reference() -> None:
    square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    around = [1, 2, 3, 4, 1]
    assert metrics.tour_outcome(square, 4.0, around)["correct"] is True
    assert metrics.tour_outcome(square, 4.0 * (1 - 1e-12), around)["correct"] is True  # equal but for rounding
    assert metrics.tour_outcome(square, 4.0 * (1 - 1e-6), around)["correct"] is False  # a shorter tour exists
    assert metrics.tour_outcome(square, 4.0, [1, 3, 2, 4, 1])["correct"] is False
    assert metrics.tour_outcome(square, 9.0, [1, 2, 2, 4, 1])["correct"] is False  # not a tour, however short


def test_summaries_come_from_sums_that_chunks_merge_key_by_key() -> None:
    hull = [{"correct": k % 3 == 0, "simple": k != 4, "area_ratio": None if k == 4 else 1 - k / 16} for k in range(8)]
    merged = metrics.merge_sums(metrics.hull_sums(hull[:3]), metrics.hull_sums(hull[3:]))
    assert merged == metrics.hull_sums(hull) and metrics.hull_from_sums(merged) == metrics.hull_summary(hull)
    assert metrics.hull_summary(hull) == {
        "accuracy": 3 / 8,
        "area_coverage": np.mean([1 - k / 16 for k in range(8) if k != 4]),
        "not_simple": 1 / 8,
        "area_fail": True,
    }
    triangles = [{"correct": k == 1, "coverage": k / 4} for k in range(4)]
    merged = metrics.merge_sums(metrics.triangle_sums(triangles[:1]), metrics.triangle_sums(triangles[1:]))
    assert metrics.triangle_from_sums(merged) == {"accuracy": 0.25, "triangle_coverage": 0.375}
    assert metrics.merge_sums({"sets": 1, "bins": [1, 0]}, {"sets": 2, "bins": [3, 4]}) == {"sets": 3, "bins": [4, 4]}
