"""The training side's LKH-3 tours (py/training/data/lkh.py) and the LKH-3-labelled TSP test sets in tests/data: the
same lengths as our Held-Karp where both run, and no tour of a test set that a 2-opt move or A2/A3 would beat."""

import numpy as np
import pytest

from ptrnet.geometry import baselines
from ptrnet.geometry.notation import tsp_sequence
from ptrnet.geometry.tsp import tour_length
from ptrnet.limits import HELD_KARP_MAX
from ptrnet.pointer import metrics, tasks
from training.data import datasets, lkh


@pytest.mark.parametrize("n", [12, 13, 14])
def test_lkh_tours_have_held_karp_length(n):
    points, _ = tasks.generate("tsp", n, 70, 5150 + n)
    for p in points:
        exact = tour_length(p, np.array(tsp_sequence(p)[:-1]) - 1)
        tour = lkh.lkh_tour(p)
        assert metrics.is_tour(tour, n) and tour[1] < tour[-2]
        assert tour_length(p, np.array(tour[:-1]) - 1) == pytest.approx(exact, rel=1e-9)


def test_training_labels_switch_to_lkh_above_held_karp_sizes():
    p = tasks.random_points(np.random.default_rng(3), HELD_KARP_MAX)
    assert lkh.tsp_label(p) == tsp_sequence(p)
    p = tasks.random_points(np.random.default_rng(3), HELD_KARP_MAX + 1)
    assert lkh.tsp_label(p) == lkh.lkh_tour(p)


def _two_opt_gain(points: np.ndarray, tour: list[int]) -> float:
    """The largest length saved by reversing one segment of a closed tour (0-based cities)."""
    path = points[np.array(tour)]  # (n, 2)
    nxt = np.roll(path, -1, axis=0)
    d = lambda a, b: np.sqrt(((a - b) ** 2).sum(-1))  # noqa: E731
    # replacing edges (i, i+1) and (j, j+1) by (i, j) and (i+1, j+1)
    old = d(path, nxt)[:, None] + d(path, nxt)[None, :]
    new = d(path[:, None], path[None, :]) + d(nxt[:, None], nxt[None, :])
    i, j = np.indices(old.shape)
    two_edges_apart = (j > i + 1) & ~((i == 0) & (j == len(tour) - 1))  # edges that share no city
    return float((old - new)[two_edges_apart].max())


@pytest.mark.parametrize("name", sorted(datasets.LKH_SETS))
def test_lkh_test_sets_are_valid_and_not_beaten_locally(name):
    examples = datasets.official(name)
    n = len(examples[0][0])
    assert len(examples) == lkh.TEST_SETS[n] and name == lkh.test_file_name(n)
    for points, seq in examples[:200]:
        assert metrics.is_tour(seq, n) and seq[1] < seq[-2]
        tour = [j - 1 for j in seq[:-1]]
        assert _two_opt_gain(points, tour) < 1e-9
        length = tour_length(points, tour)
        for name_ in ("A2", "A3"):
            assert length <= tour_length(points, baselines.ALGORITHMS[name_](points)) + 1e-9


def test_square_symmetries_keep_optimal_tours_and_points_in_the_square():
    from training.trainers.ptr_data import square_symmetry

    points, labels = tasks.generate("tsp", 8, 40, 77)
    x = np.stack(points)  # (40, 8, 2)
    moved = square_symmetry(np.random.default_rng(5), x)
    assert moved.dtype == x.dtype and moved.min() >= 0.0 and moved.max() <= 1.0
    images = square_symmetry(np.random.default_rng(1), np.repeat(x[:1], 400, axis=0))  # one set, 400 draws
    assert len({tuple(np.round(image[0], 9)) for image in images}) == 8
    for before, after, label in zip(x, moved, labels, strict=True):
        tour = np.array(label[:-1]) - 1
        assert tour_length(after, tour) == pytest.approx(tour_length(before, tour), rel=1e-12)
        exact = tour_length(after, np.array(tsp_sequence(after)[:-1]) - 1)
        assert tour_length(after, tour) == pytest.approx(exact, rel=1e-9)  # still an optimal tour
