"""Held-Karp: brute force for small n, the paper's 10,000 exact tours, convex position and local search at n = 16."""

import functools
import itertools
import math

import numpy as np
import pytest

from ptrnet.geometry.notation import canonical_tour
from ptrnet.geometry.tsp import held_karp, tour_length, tour_lengths


def closed_length(pts, tour) -> float:
    """Closed tour length with plain math, independent of the package."""
    return sum(math.dist(pts[a], pts[b]) for a, b in itertools.pairwise(tour + tour[:1]))


def brute_force(pts) -> float:
    """Shortest closed tour over every permutation of cities 1..n-1."""
    return min(closed_length(pts, [0, *rest]) for rest in itertools.permutations(range(1, len(pts))))


def assert_is_tour(tour, n) -> None:
    """A permutation of 0..n-1 from city 0."""
    assert sorted(tour.tolist()) == list(range(n))
    assert n == 0 or tour[0] == 0


@pytest.mark.parametrize("n", range(2, 9))
def test_length_equals_brute_force_for_small_n(n):
    for seed in range(6):
        pts = np.random.default_rng([n, seed]).random((n, 2)).tolist()
        tour, length = held_karp(pts)
        assert_is_tour(tour, n)
        assert length == pytest.approx(brute_force(pts), abs=1e-9)
        assert length == pytest.approx(closed_length(pts, tour.tolist()), abs=1e-12)


def test_every_tour_in_the_papers_10_city_file_is_matched_in_length(read_data):
    lines = read_data("tsp_10_test_exact.txt")
    assert len(lines) == 10_000
    ours, theirs = [], []
    for pts, want in lines:
        tour, length = held_karp(pts)
        assert_is_tour(tour, 10)
        ours.append(length)
        theirs.append(closed_length(pts, [i - 1 for i in want[:-1]]))
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-6)
    assert np.mean(ours) == pytest.approx(2.8669, abs=1e-4)


def test_reference_example_tour_and_length(reference):
    tour, length = held_karp(reference["points"])
    assert canonical_tour([*(tour + 1).tolist(), 1]) == reference["tsp"]
    assert length == pytest.approx(reference["tsp_length"], abs=5e-5)


def test_convex_position_at_n16_gives_the_polygon_order():
    # For points in convex position the optimal tour is the polygon itself (no crossing can be optimal).
    rng = np.random.default_rng(16)
    angles = np.sort(rng.uniform(0, 2 * np.pi, 16))
    polygon = np.stack([0.5 + 0.45 * np.cos(angles), 0.5 + 0.3 * np.sin(angles)], axis=1)  # (16, 2) ellipse
    perm = rng.permutation(16)  # point i of the input is polygon[perm[i]]
    tour, length = held_karp(polygon[perm])
    assert_is_tour(tour, 16)
    steps = np.diff(perm[tour.tolist() + [tour[0]]]) % 16
    assert set(steps.tolist()) in ({1}, {15}), "consecutive tour cities must be polygon neighbours"
    assert length == pytest.approx(closed_length(polygon.tolist(), list(range(16))), abs=1e-9)


def two_opt_or_opt(pts, tour) -> float:
    """Local search (2-opt reversals and moves of 1-3 city segments) to a local optimum; returns its length."""
    n, tour, improved = len(tour), list(tour), True
    while improved:
        improved = False
        for i, j in itertools.combinations(range(1, n), 2):
            candidate = tour[:i] + tour[i : j + 1][::-1] + tour[j + 1 :]
            if closed_length(pts, candidate) < closed_length(pts, tour) - 1e-12:
                tour, improved = candidate, True
        for size in (1, 2, 3):
            for i in range(1, n - size + 1):
                segment, rest = tour[i : i + size], tour[:i] + tour[i + size :]
                for k in range(1, len(rest) + 1):
                    candidate = rest[:k] + segment + rest[k:]
                    if closed_length(pts, candidate) < closed_length(pts, tour) - 1e-12:
                        tour, improved = candidate, True
                        break
    return closed_length(pts, tour)


def memo_dp(pts) -> float:
    """Top-down Held-Karp in plain Python, memoised on (unvisited bitmask, current city): an independent method."""
    n = len(pts)
    dist = [[math.dist(p, q) for q in pts] for p in pts]

    @functools.cache
    def rest_of_tour(unvisited: int, here: int) -> float:
        if not unvisited:
            return dist[here][0]
        return min(dist[here][j] + rest_of_tour(unvisited & ~(1 << j), j) for j in range(n) if unvisited >> j & 1)

    return rest_of_tour((1 << n) - 2, 0)


def test_n16_length_equals_an_independent_memoised_dp():
    pts = np.random.default_rng(1616).random((16, 2)).tolist()
    tour, length = held_karp(pts)
    assert_is_tour(tour, 16)
    assert length == pytest.approx(memo_dp(pts), abs=1e-9)
    assert length == pytest.approx(closed_length(pts, tour.tolist()), abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_local_search_never_beats_held_karp_at_n16(seed):
    rng = np.random.default_rng([16, seed])
    pts = rng.random((16, 2)).tolist()
    length = held_karp(pts)[1]
    for _ in range(3):
        start = [0, *(rng.permutation(15) + 1).tolist()]
        assert two_opt_or_opt(pts, start) >= length - 1e-9


def test_degenerate_inputs_have_defined_answers():
    tour, length = held_karp(np.zeros((0, 2)))
    assert tour.tolist() == [] and length == 0.0
    tour, length = held_karp([[0.3, 0.4]])
    assert tour.tolist() == [0] and length == 0.0
    tour, length = held_karp([[0.1, 0.1], [0.4, 0.5]])
    assert tour.tolist() == [0, 1] and length == pytest.approx(1.0, abs=1e-12)
    tour, length = held_karp([[0.5, 0.5]] * 5)
    assert_is_tour(tour, 5)
    assert length == 0.0
    collinear = [[0.5, 0.5], [0.0, 0.0], [1.0, 1.0], [0.25, 0.25], [0.75, 0.75]]
    tour, length = held_karp(collinear)
    assert_is_tour(tour, 5)
    assert length == pytest.approx(2 * math.sqrt(2), abs=1e-12)


def test_duplicates_cost_nothing_extra():
    pts = np.random.default_rng(3).random((6, 2))
    doubled = np.concatenate([pts, pts[[1, 4]]])  # (8, 2)
    assert held_karp(doubled)[1] == pytest.approx(held_karp(pts)[1], abs=1e-12)


def test_same_input_same_tour_even_with_ties():
    square = [[0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]  # symmetric: several optimal tours
    first = held_karp(square)[0].tolist()
    assert all(held_karp(square)[0].tolist() == first for _ in range(3))
    assert_is_tour(np.array(first), 5)


def test_tour_length_closes_the_tour():
    pts = [[0.0, 0.0], [0.3, 0.0], [0.3, 0.4]]
    assert tour_length(pts, [0, 1, 2]) == pytest.approx(1.2, abs=1e-12)
    assert tour_length(pts, [2, 0]) == pytest.approx(1.0, abs=1e-12)
    assert tour_length(pts, []) == 0.0


def test_tour_lengths_measures_a_batch_of_tours_as_a_loop_of_edges_does():
    rng = np.random.default_rng(3)
    pts = rng.random((4, 7, 2))  # (sets, n, 2)
    tours = np.stack([[rng.permutation(7) for _ in range(5)] for _ in range(4)])  # (sets, tours, n)
    got = tour_lengths(pts[:, None], tours)  # (sets, tours)
    for b, k in np.ndindex(got.shape):
        ring = [pts[b, j] for j in tours[b, k]]
        expected = sum(math.dist(ring[i], ring[(i + 1) % 7]) for i in range(7))
        assert got[b, k] == pytest.approx(expected, abs=1e-12)
        assert tour_length(pts[b], tours[b, k]) == pytest.approx(expected, abs=1e-12)
