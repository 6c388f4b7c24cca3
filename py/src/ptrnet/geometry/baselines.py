"""The paper's approximate TSP algorithms: A1 nearest neighbour, A2 farthest insertion (both O(n^2)),
A3 Christofides (networkx, CPython only). Tours are 0-based, start at city 0, not repeated."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

Tour = NDArray[np.int64]


def _distances(points: ArrayLike) -> NDArray[np.float64]:
    """Pairwise Euclidean distances (n, n)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return np.sqrt(((pts[:, None, :] - pts[None, :, :]) ** 2).sum(axis=2))


def nearest_neighbour(points: ArrayLike) -> Tour:
    """A1: from city 0, always go to the closest unvisited city (lowest index on ties)."""
    dist = _distances(points)
    n = len(dist)
    tour, seen = [0], np.zeros(n, dtype=bool)
    seen[0] = True
    for _ in range(n - 1):
        nxt = int(np.argmin(np.where(seen, np.inf, dist[tour[-1]])))
        tour.append(nxt)
        seen[nxt] = True
    return np.array(tour, dtype=np.int64)


def farthest_insertion(points: ArrayLike) -> Tour:
    """A2: start with city 0 and the city farthest from it; repeatedly take the city farthest from the tour
    and insert it where it lengthens the tour least. O(n^2) with a running distance-to-tour array."""
    dist = _distances(points)
    n = len(dist)
    if n < 3:
        return np.arange(n, dtype=np.int64)
    tour = [0, int(np.argmax(dist[0]))]
    to_tour = np.minimum(dist[0], dist[tour[1]])  # (n,) distance of each city to the tour
    to_tour[tour] = -1.0
    for _ in range(n - 2):
        city = int(np.argmax(to_tour))
        a = np.array(tour)
        b = np.roll(a, -1)
        k = int(np.argmin(dist[a, city] + dist[city, b] - dist[a, b]))
        tour.insert(k + 1, city)
        to_tour = np.minimum(to_tour, dist[city])
        to_tour[tour] = -1.0
    return np.array(tour, dtype=np.int64)


def christofides(points: ArrayLike) -> Tour:
    """A3: Christofides' 1.5-approximation (minimum spanning tree + minimum-weight perfect matching), via networkx."""
    import networkx as nx
    from networkx.algorithms.approximation import christofides as nx_christofides

    dist = _distances(points)
    n = len(dist)
    if n < 3:
        return np.arange(n, dtype=np.int64)
    graph = nx.Graph()
    graph.add_weighted_edges_from((i, j, dist[i, j]) for i in range(n) for j in range(i + 1, n))
    cycle = nx_christofides(graph)[:-1]  # closed walk, start repeated
    k = cycle.index(0)
    return np.array(cycle[k:] + cycle[:k], dtype=np.int64)


ALGORITHMS = {"A1": nearest_neighbour, "A2": farthest_insertion, "A3": christofides}
