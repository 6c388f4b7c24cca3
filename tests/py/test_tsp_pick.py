"""The TSP beam's answer: the shortest of its finished tours (answers.decode), against brute force and the beams."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from ptrnet.geometry.tsp import tour_length
from ptrnet.pointer import answers, decoding, tasks, weights

TOL = 1e-9


def _brute_force_length(points: np.ndarray) -> float:
    """The optimal closed tour by trying every order of the points after the first."""
    n = len(points)
    return min(tour_length(points, [0, *p]) for p in itertools.permutations(range(1, n)))


def _length(points: np.ndarray, seq: list[int]) -> float:
    return tour_length(points, np.array(seq[:-1]) - 1)


def test_the_tsp_beam_answers_with_the_shortest_tour() -> None:
    assert tasks.SPECS["tsp"].beam_pick == "shortest"
    assert {tasks.SPECS[t].beam_pick for t in ("hull", "delaunay")} == {"probable"}


@pytest.mark.parametrize("n", [4, 5, 6])
def test_a_beam_wide_enough_for_every_tour_answers_with_an_optimal_one(n: int) -> None:
    params = weights.shipped("tsp_ptrnet")
    points = list(np.random.default_rng(n).random((20, n, 2)))
    width = int(np.prod(range(1, n)))  # (n - 1)! orders after P1: every tour fits
    for p, seq in zip(points, answers.decode(params, "tsp", points, "beam", width), strict=True):
        assert sorted(seq[:-1]) == list(range(1, n + 1)) and seq[0] == seq[-1] == 1
        assert _length(p, seq) == pytest.approx(_brute_force_length(p), abs=TOL)


def test_the_shortest_pick_is_the_shortest_finished_beam_and_never_longer_than_the_most_probable() -> None:
    params = weights.shipped("tsp_ptrnet")
    points = list(np.random.default_rng(7).random((40, 12, 2)))
    shortest = answers.decode(params, "tsp", points, "beam", 6)
    probable = answers.decode(params, "tsp", points, "beam", 6, pick="probable")
    every, _, finished = decoding.beams(params, np.stack(points), 6, rule="tour", max_steps=14)
    gained = 0
    for b, p in enumerate(points):
        lengths = [_length(p, answers.read(params, "tsp", every[b, k][None])[0]) for k in np.flatnonzero(finished[b])]
        assert _length(p, shortest[b]) == pytest.approx(min(lengths), abs=TOL)
        assert _length(p, shortest[b]) <= _length(p, probable[b]) + TOL
        gained += _length(p, shortest[b]) < _length(p, probable[b]) - TOL
    assert gained > 0  # the pick matters on these sets


def test_the_shortest_pick_is_refused_where_beams_are_not_tours() -> None:
    with pytest.raises(ValueError, match="shortest"):
        answers.decode(
            weights.shipped("hull_ptrnet"), "hull", [np.random.default_rng(0).random((6, 2))], "beam", 4, "shortest"
        )


@pytest.mark.parametrize("task", ["hull", "tsp"])
def test_decoding_in_chunks_bounded_by_memory_gives_the_answers_of_one_chunk(task: str, monkeypatch) -> None:
    params = weights.shipped(f"{task}_ptrnet")
    points = list(np.random.default_rng(7).random((9, 8, 2)))
    whole = {m: answers.decode(params, task, points, m) for m in ("greedy", "beam")}
    hidden = params["dec_Wh"].shape[0]
    monkeypatch.setattr(answers, "CHUNK_FLOATS", 2 * tasks.SPECS[task].beam_width * 9 * hidden)  # two sets a chunk
    assert answers._chunk(params, 8, tasks.SPECS[task].beam_width) == 2
    assert {m: answers.decode(params, task, points, m) for m in ("greedy", "beam")} == whole
