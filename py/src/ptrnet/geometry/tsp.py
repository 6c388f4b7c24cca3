"""Exact travelling-salesman tours by Held-Karp dynamic programming over subsets."""

from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike


def tour_length(points: ArrayLike, tour: ArrayLike) -> float:
    """Length of the closed tour that visits `points` in the order `tour` and returns to the start."""
    return float(tour_lengths(np.asarray(points, dtype=np.float64).reshape(-1, 2), tour))


def tour_lengths(points: ArrayLike, tours: ArrayLike) -> np.ndarray:
    """Lengths (...) of closed tours (..., m) over point sets (..., n, 2) that broadcast against them."""
    pts = np.asarray(points, dtype=np.float64)
    path = np.take_along_axis(pts, np.asarray(tours, dtype=np.int64)[..., None], axis=-2)  # (..., m, 2)
    return np.sqrt(((path - np.roll(path, -1, axis=-2)) ** 2).sum(axis=-1)).sum(axis=-1)


def held_karp(points: ArrayLike) -> tuple[np.ndarray, float]:
    """Optimal closed tour from city 0 (not repeated) and its length (notation.tsp_sequence fixes its direction)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)  # (n, 2)
    n = len(pts)
    if n < 2:
        return np.arange(n, dtype=np.int64), 0.0
    dist = np.sqrt(((pts[:, None, :] - pts[None, :, :]) ** 2).sum(axis=2))  # (n, n)
    k = n - 1  # cities 1..n-1 are the bits 0..k-1 of a subset mask
    bits = 1 << np.arange(k, dtype=np.int64)  # (k,)
    step = dist[1:, 1:].T  # (k, k) step[j, i]: from city i+1 to city j+1
    cost = np.full((1 << k, k), np.inf)  # cost[S, j]: shortest path from 0 through all of S, ending at j in S
    prev = np.zeros((1 << k, k), dtype=np.int64)  # prev[S, j]: the city before j on that path
    cost[bits, np.arange(k)] = dist[0, 1:]
    for subsets in _subsets_by_size(k):  # (m,) all subsets of one size, in increasing size
        # via[s, j, i]: reach j last through S - {j} ending at i; inf where j or i is not allowed (not yet filled)
        via = cost[subsets[:, None] ^ bits] + step  # (m, k, k)
        best = via.argmin(axis=2)  # (m, k) smallest i wins ties
        cost[subsets] = np.take_along_axis(via, best[..., None], axis=2)[..., 0]
        prev[subsets] = best
    subset, j = (1 << k) - 1, int(np.argmin(cost[-1] + dist[1:, 0]))
    backwards = []
    while subset:
        backwards.append(j + 1)
        subset, j = subset ^ (1 << j), int(prev[subset, j])
    tour = [0] + backwards[::-1]
    return np.array(tour, dtype=np.int64), tour_length(pts, tour)


@lru_cache(maxsize=32)
def _subsets_by_size(k: int) -> tuple[np.ndarray, ...]:
    """Bitmasks of all subsets of k cities with at least two members, grouped by size 2..k."""
    masks = np.arange(1 << k, dtype=np.int64)  # (2^k,)
    sizes = sum((masks >> b) & 1 for b in range(k))  # (2^k,)
    return tuple(masks[sizes == s] for s in range(2, k + 1))
