"""The evaluation of the trained models: metrics on hand-made cases, the TSP baselines against brute force,
the paper's released files and generated test sets."""

from __future__ import annotations

import gzip
import itertools
import math
from pathlib import Path

import numpy as np
import pytest

from ptrnet.geometry import baselines
from ptrnet.geometry.notation import canonical_hull, delaunay_sequence, tsp_sequence
from ptrnet.geometry.tsp import tour_length
from ptrnet.pointer import metrics, tasks
from training.data import datasets
from training.reports import evaluation


def _brute_force_optimum(points: np.ndarray) -> float:
    """Shortest closed tour by trying every order of cities 1..n-1 after city 0."""
    n = len(points)
    return min(tour_length(points, [0, *perm]) for perm in itertools.permutations(range(1, n)))


@pytest.mark.parametrize("seed", range(12))
def test_baselines_are_tours_no_shorter_than_the_brute_force_optimum(seed: int) -> None:
    rng = np.random.default_rng(seed)
    points = rng.random((int(rng.integers(3, 9)), 2))
    n = len(points)
    best = _brute_force_optimum(points)
    for name, algorithm in baselines.ALGORITHMS.items():
        tour = algorithm(points)
        assert tour[0] == 0 and sorted(tour.tolist()) == list(range(n)), name
        assert tour_length(points, tour) >= best - 1e-12, name
    assert tour_length(points, baselines.christofides(points)) <= 1.5 * best + 1e-12
    bound = math.ceil(math.log2(n)) + 1  # Rosenkrantz, Stearns & Lewis (1977): any insertion order
    assert tour_length(points, baselines.farthest_insertion(points)) <= bound * best


def test_nearest_neighbour_always_moves_to_the_closest_unvisited_city() -> None:
    points = np.random.default_rng(3).random((30, 2))
    tour = baselines.nearest_neighbour(points).tolist()
    for k in range(1, len(tour)):
        here, left = points[tour[k - 1]], [points[j] for j in tour[k:]]
        assert np.linalg.norm(points[tour[k]] - here) == min(np.linalg.norm(p - here) for p in left)


def test_farthest_insertion_inserts_the_farthest_city_at_the_cheapest_place() -> None:
    points = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, 0.9], [0.5, 0.1]])
    # start 0 -> 1 (farthest from 0); then P2 is farthest from the tour; P3 goes between 0 and 1 at no extra turn
    assert baselines.farthest_insertion(points).tolist() == [0, 3, 1, 2]


def test_baselines_on_the_released_tsp_file_rank_between_optimum_and_nearest_neighbour() -> None:
    examples = datasets.official("tsp_10_test_exact.txt", limit=1000)
    means = evaluation.baseline_lengths(examples)
    optimal = np.mean([tour_length(p, np.array(s[:-1]) - 1) for p, s in examples])
    assert optimal == pytest.approx(2.87, abs=0.03)
    assert optimal <= means["A3"] <= means["A1"] and optimal <= means["A2"] <= means["A1"]


def test_tour_metrics_count_invalid_tours_and_measure_valid_ones() -> None:
    points = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    examples = [(points, [1, 2, 3, 4, 1])] * 2
    res = evaluation.tour_metrics(examples, [[1, 2, 3, 4, 1], [1, 3, 2, 4, 1]])
    assert res["valid"] == 1.0 and res["optimal"] == pytest.approx(4.0)
    assert res["mean_length"] == pytest.approx((4.0 + 2 + 2 * math.sqrt(2)) / 2)
    assert not metrics.is_tour([1, 2, 2, 4, 1], 4) and not metrics.is_tour([2, 1, 3, 4, 2], 4)
    assert evaluation.tour_metrics(examples, [[1, 2, 3, 1], [1, 2, 3, 4, 1]])["valid"] == 0.5


def test_triangle_metrics_compare_sets_and_count_covered_triangles() -> None:
    truth = [1, 2, 3, 1, 3, 4]  # two triangles
    examples = [(np.zeros((4, 2)), truth)] * 4
    outputs = [[3, 1, 4, 2, 1, 3], [1, 2, 3], [1, 2, 3, 1, 3, 4, 1], [1, 2, 4, 2, 3, 4]]
    res = evaluation.triangle_metrics(examples, outputs)
    assert res["accuracy"] == 0.25  # order inside and between triangles is free; a stray pointer is wrong
    assert res["triangle_coverage"] == pytest.approx((1 + 0.5 + 1 + 0) / 4)


def test_labels_are_the_spec_notation_of_each_problem(reference: dict) -> None:
    pts = np.array(reference["points"])
    assert tasks.SPECS["tsp"].label(pts) == tsp_sequence(pts) == reference["tsp"]
    assert tasks.SPECS["hull"].label(pts) == reference["hull"]
    # Delaunay: the notation's triangles in its order; the model names each one's corners counter-clockwise
    # from the leftmost, which reads back as the notation's ascending triple.
    flat = tasks.SPECS["delaunay"].label(pts)
    assert tasks.as_triangles(flat) == delaunay_sequence(pts) == reference["delaunay"]
    for a, b, c in (np.array(flat).reshape(-1, 3) - 1).tolist():
        assert pts[a, 0] < min(pts[b, 0], pts[c, 0])
        (ux, uy), (vx, vy) = pts[b] - pts[a], pts[c] - pts[a]
        assert ux * vy - uy * vx > 0  # counter-clockwise


@pytest.mark.parametrize("n", [3, 5, 10, 50])
def test_the_hull_model_is_taught_the_scipy_hull_from_its_leftmost_vertex_counter_clockwise(n: int) -> None:
    from scipy.spatial import ConvexHull

    points, taught = tasks.generate("hull", n, 200, seed=40 + n, taught=True)
    _, labels = tasks.generate("hull", n, 200, seed=40 + n)
    for pts, seq, label in zip(points, taught, labels, strict=True):
        ring = [j - 1 for j in seq[:-1]]
        assert seq[0] == seq[-1] and sorted(ring) == sorted(ConvexHull(pts).vertices.tolist())
        assert ring[0] == min(ring, key=lambda j: (pts[j, 0], pts[j, 1]))  # the leftmost vertex first
        for a, b, c in zip(ring, ring[1:] + ring[:1], ring[2:] + ring[:2], strict=True):
            (ux, uy), (vx, vy) = pts[b] - pts[a], pts[c] - pts[b]
            assert ux * vy - uy * vx > 0  # every turn to the left: counter-clockwise
        assert tasks.SPECS["hull"].read(seq) == label


def test_the_hull_model_read_back_gives_every_line_of_the_papers_5_point_file() -> None:
    spec = tasks.SPECS["hull"]
    for pts, line in datasets.official("convex_hull_5_test.txt"):
        assert spec.read(spec.taught(pts)) == line


def test_a_hull_answer_is_read_from_its_smallest_index_only_when_it_closes() -> None:
    read = canonical_hull
    assert read([6, 4, 5, 3, 6]) == [3, 6, 4, 5, 3]
    assert read([3, 6, 4, 5, 3]) == [3, 6, 4, 5, 3]
    assert read([5, 3, 5, 2, 5]) == [2, 5, 3, 5, 2]  # a point named twice: read from the smallest index all the same
    assert read([6, 4, 5, 3]) == [6, 4, 5, 3]  # never closed: a wrong answer stays as the model gave it
    assert read([4]) == [4] and read([]) == [] and read([2, 2]) == [2, 2]
    assert tasks.SPECS["hull"].read is canonical_hull


def test_a_tour_answer_is_read_in_the_notations_direction() -> None:
    assert tasks.SPECS["tsp"].read([1, 3, 2, 4, 1]) == [1, 3, 2, 4, 1]
    assert tasks.SPECS["tsp"].read([1, 4, 2, 3, 1]) == [1, 3, 2, 4, 1]  # the same tour, the other way round
    assert tasks.SPECS["tsp"].read([1, 2, 1]) == [1, 2, 1]


def test_generated_test_sets_are_made_once_and_read_back(tmp_path: Path) -> None:
    first = datasets.generated("delaunay", 6, 20, 5, tmp_path)
    again = datasets.generated("delaunay", 6, 20, 5, tmp_path)
    points, seqs = tasks.generate("delaunay", 6, 20, 5)
    assert [s for _, s in first] == [s for _, s in again] == seqs
    assert all(np.array_equal(p, q) for (p, _), q in zip(first, points, strict=True))


def test_a_changed_copy_of_a_released_file_is_refused(tmp_path: Path) -> None:
    text = datasets.official_text("convex_hull_5_test.txt")
    (tmp_path / "convex_hull_5_test.txt.gz").write_bytes(gzip.compress(text.replace("0.", "1.", 1).encode()))
    with pytest.raises(ValueError, match="sha256"):
        datasets.official_text("convex_hull_5_test.txt", tmp_path)


def test_lines_round_trip_in_the_papers_format() -> None:
    for points, seq in datasets.official("convex_hull_5_test.txt", limit=200):
        assert datasets.parse_line(datasets.format_line(points, seq)) == (pytest.approx(points), seq)
    points, seqs = tasks.generate("hull", 7, 20, 3)
    for p, s in zip(points, seqs, strict=True):
        back, seq = datasets.parse_line(datasets.format_line(p, s))
        assert np.array_equal(back, p) and seq == s


def test_area_coverage_counts_only_simple_polygons() -> None:
    square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.5, 0.9]])
    truth = [1, 2, 3, 4, 1]
    examples = [(square, truth)] * 4
    outputs = [truth, [1, 2, 3, 5, 4, 1], [1, 3, 2, 4, 1], [1, 2, 1]]  # exact, inside vertex, bow-tie, degenerate
    res = evaluation.area_coverage(examples, outputs)
    assert res["not_simple"] == 0.5 and res["area_fail"]
    assert res["area_coverage"] == pytest.approx((1.0 + (1.0 - 0.5 * 1.0 * 0.1)) / 2)


@pytest.mark.parametrize(("bad", "fails"), [(1, False), (2, True)])
def test_area_fails_when_over_one_percent_of_outputs_are_not_simple(bad: int, fails: bool) -> None:
    square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    truth = [1, 2, 3, 4, 1]
    outputs = [[1, 3, 2, 4, 1]] * bad + [truth] * (100 - bad)
    assert evaluation.area_coverage([(square, truth)] * 100, outputs)["area_fail"] is fails
