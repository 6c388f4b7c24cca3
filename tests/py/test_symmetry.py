"""Symmetry voting: the 8 images of the unit square, answers read back in the original frame, the majority."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import ConvexHull, Delaunay

from ptrnet import api
from ptrnet.geometry.hull import orient
from ptrnet.pointer import answers, symmetry, tasks, weights


def _dyadic_points(rng: np.random.Generator, n: int) -> np.ndarray:
    """Points on a 1/1024 grid, so that 1 - x is exact and an image of an image is bit-for-bit another image."""
    return rng.choice(1024, size=(n, 2), replace=False) / 1024.0


def test_the_eight_images_are_the_symmetries_of_the_unit_square() -> None:
    corners = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    probe = np.array([[0.1, 0.3]])
    seen = set()
    for sym in symmetry.IMAGES:
        assert {tuple(c) for c in symmetry.image(corners, *sym)} == {tuple(c) for c in corners}
        seen.add(tuple(symmetry.image(probe, *sym)[0]))
    assert len(seen) == 8 and symmetry.IMAGES[0] == (False, False, False)
    assert (symmetry.image(probe, *symmetry.IMAGES[0]) == probe).all()


def test_mirrors_says_which_images_turn_counter_clockwise_into_clockwise() -> None:
    triangle = np.array([[0.1, 0.1], [0.8, 0.2], [0.3, 0.7]])
    assert orient(*map(tuple, triangle)) > 0
    for sym in symmetry.IMAGES:
        turned = symmetry.image(triangle, *sym)
        assert (orient(*map(tuple, turned)) < 0) == symmetry.mirrors(*sym)


@pytest.mark.parametrize("seed", range(5))
def test_exact_answers_of_every_image_read_back_as_the_original_answer(seed: int) -> None:
    rng = np.random.default_rng(seed)
    points = _dyadic_points(rng, int(rng.integers(5, 13)))
    hull = [int(j) + 1 for j in ConvexHull(points).vertices]  # scipy: counter-clockwise
    start = hull.index(min(hull))
    want_hull = hull[start:] + hull[:start] + [min(hull)]
    want_triangles = sorted(tuple(sorted(t)) for t in (Delaunay(points).simplices + 1).tolist())
    for sym in symmetry.IMAGES:
        pts = symmetry.image(points, *sym)
        hull_there = tasks.SPECS["hull"].label(pts)
        assert symmetry.in_original_frame("hull", hull_there, symmetry.mirrors(*sym)) == want_hull
        flat = symmetry.in_original_frame("delaunay", tasks.SPECS["delaunay"].label(pts), symmetry.mirrors(*sym))
        assert sorted(tuple(t) for t in tasks.as_triangles(flat)) == want_triangles


def test_the_majority_wins_and_a_tie_goes_to_the_earliest_image() -> None:
    a, b, c = [1, 2, 3, 1], [1, 3, 2, 1], [1, 4, 2, 1]
    assert symmetry.majority("hull", [a, b, b, c, b, a, a, c]) == (a, 3)  # 3 a, 3 b: a came first
    assert symmetry.majority("hull", [c, b, b, a, b, a, a, b]) == (b, 4)
    assert symmetry.majority("hull", [c, a, b, [1, 5, 1], [2], [], [1], [3, 1]]) == (c, 1)


def test_delaunay_ballots_are_triangle_sets_whatever_the_order_of_triangles_and_corners() -> None:
    one = [1, 2, 3, 2, 4, 3]
    other = [4, 3, 2, 3, 1, 2]  # the same two triangles, other order, other corner order
    doubled = [1, 2, 3, 2, 4, 3, 3, 2, 4]  # the same set with a triangle named twice: another answer
    seen = [one, doubled, other, doubled, other, [1], [1, 2], [2]]
    assert symmetry.majority("delaunay", seen) == (one, 3)


@pytest.mark.parametrize("task", symmetry.TASKS)
def test_the_trained_models_vote_the_same_on_every_image_of_the_points(task: str) -> None:
    params = weights.shipped(f"{task}_ptrnet")
    rng = np.random.default_rng(11)
    sets = [_dyadic_points(rng, 6) for _ in range(40)]
    voted, counts = answers.vote(params, task, sets)
    for sym in symmetry.IMAGES[1:]:
        theirs, their_counts = answers.vote(params, task, [symmetry.image(p, *sym) for p in sets])
        assert their_counts == counts  # the same 8 images, decoded in another order
        for mine, other, count in zip(voted, theirs, counts, strict=True):
            if 2 * count > len(symmetry.IMAGES):  # a strict majority wins whatever the order
                back = symmetry.in_original_frame(task, other, symmetry.mirrors(*sym))
                assert symmetry._ballot(task, back) == symmetry._ballot(task, mine)
    assert sum(2 * c > 8 for c in counts) >= 25  # most sets are decided by a majority


def _ballot(task: str, seq: list[int]) -> tuple:
    """Written apart from ptrnet.pointer.symmetry's: the hull's sequence; the Delaunay answer's length and triangle set."""
    if task == "hull":
        return tuple(seq)
    return len(seq), frozenset(tuple(sorted(seq[j : j + 3])) for j in range(0, len(seq) - len(seq) % 3, 3))


@pytest.mark.parametrize("task", symmetry.TASKS)
def test_the_evaluations_vote_is_the_majority_of_eight_separate_greedy_decodings(task: str) -> None:
    from collections import Counter

    examples = tasks.generate(task, 7, 60, seed=5)[0]
    params = weights.shipped(f"{task}_ptrnet")
    voted = answers.decode(params, task, examples, "vote")
    ballots: list[list] = [[] for _ in examples]
    for sym in symmetry.IMAGES:  # one image at a time, as a reader would by mirroring the points
        for k, out in enumerate(answers.decode(params, task, [symmetry.image(p, *sym) for p in examples])):
            ballots[k].append(_ballot(task, out[::-1] if task == "hull" and symmetry.mirrors(*sym) else out))
    decided = 0
    for mine, theirs in zip(voted, ballots, strict=True):
        (first, top), *rest = Counter(theirs).most_common()
        if not rest or rest[0][1] < top:
            decided += 1
            assert _ballot(task, mine) == first
    assert decided >= 50


def test_three_problems_votes_on_request_and_says_how_many_images_agreed(reference: dict) -> None:
    points = reference["points"]
    plain = api.dispatch("three-problems", "solve", {"points": points})
    res = api.dispatch("three-problems", "solve", {"points": points, "vote": True})
    assert plain["model_votes"] == {} and set(res["model_votes"]) == {"hull", "delaunay"}
    params = {t: weights.shipped(f"{t}_ptrnet", np.float32) for t in symmetry.TASKS}
    for task in symmetry.TASKS:
        voted, counts = answers.vote(params[task], task, [np.array(points, dtype=np.float64)])
        assert res["model_votes"][task] == counts[0] and 1 <= counts[0] <= 8
    assert res["model_hull"] == answers.vote(params["hull"], "hull", [np.array(points)])[0][0]
    assert res["model_tsp"] == plain["model_tsp"]  # the tour search does not vote
    with pytest.raises(api.InputError, match="참"):
        api.dispatch("three-problems", "solve", {"points": points, "vote": "yes"})


def test_voting_is_refused_for_the_tsp() -> None:
    with pytest.raises(ValueError, match="tsp"):
        answers.vote(weights.shipped("tsp_ptrnet"), "tsp", [np.full((5, 2), 0.5)])
