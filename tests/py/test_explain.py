"""Demos 1, 3, 4 and 7 answer in plain JSON values; demo 1 [slots] against an independent count of scipy hulls."""

import json

import numpy as np
import pytest
from checks import assert_korean_error, assert_plain
from scipy.spatial import ConvexHull

from ptrnet import explain
from ptrnet.api import dispatch
from ptrnet.views.models import model_outputs


@pytest.mark.parametrize(
    ("demo", "params"),
    [
        ("slots", {"n": 7, "seed": 1}),
        ("mix-vs-point", {"d": [1, 0.5]}),
        ("hull-steps", {"step": 5, "mask": True}),
        ("pointer-generator", {"p_gen": 0.3}),
    ],
)
def test_handlers_return_plain_json_values(demo, params):
    out = dispatch(demo, "solve", params)
    assert_plain(out)
    assert json.loads(json.dumps(out)) == out


# --- demo 1 [slots]


def scipy_hull_1based(points: list[list[float]]) -> list[int]:
    """Hull vertices by Qhull, 1-based, counter-clockwise (scipy's order in 2-D)."""
    return [int(v) + 1 for v in ConvexHull(np.array(points)).vertices]


@pytest.mark.parametrize("n", range(3, 13))
def test_slot_counts_match_an_independent_count_on_random_sets(n):
    for seed in range(40):
        out = dispatch("slots", "solve", {"n": n, "seed": seed})
        expected_points = np.round(np.random.default_rng(seed).random((n, 2)), 3)
        assert np.array_equal(np.array(out["points"]), expected_points)
        ring = scipy_hull_1based(out["points"])
        start = ring.index(min(ring))
        assert out["hull"] == ring[start:] + ring[:start] + [min(ring)]
        too_big = sum(i > 5 for i in ring) + (min(ring) > 5)  # the repeated start counts again
        assert out["seq2seq_missing"] == too_big
        assert out["ptr_slots"] == n + 1 == len(out["ptr_labels"])
        assert out["ptr_labels"] == [f"P{i}" for i in range(1, n + 1)] + ["⇐"]
        assert out["answer"] == ["⇒", *map(str, out["hull"]), "⇐"]
        assert out["emittable"] == [t in {"1", "2", "3", "4", "5", "⇒", "⇐"} for t in out["answer"]]
        assert out["seq2seq_vocab"] == ["1", "2", "3", "4", "5", "⇒", "⇐"]
        if n <= 5:
            assert out["seq2seq_missing"] == 0


def test_slot_counts_count_repeated_tokens_each_time():
    assert explain.slot_counts([6, 7, 8, 6], n=8)["seq2seq_missing"] == 4  # 6, 7, 8 and the closing 6
    assert explain.slot_counts([3, 6, 4, 7, 3], n=7)["seq2seq_missing"] == 2
    assert explain.slot_counts([1, 2, 5, 1], n=5)["seq2seq_missing"] == 0
    assert explain.slot_counts([1, 2, 3, 1], n=4, trained_n=2)["emittable"] == [True, True, True, False, True, True]


def test_slots_points_are_rounded_to_three_decimals_and_reproducible():
    a, b = dispatch("slots", "solve", {"n": 12, "seed": 9}), dispatch("slots", "solve", {"n": 12, "seed": 9})
    assert a == b
    assert all(0 <= v <= 1 and round(v, 3) == v for p in a["points"] for v in p)
    assert dispatch("slots", "solve", {"n": 12, "seed": 10})["points"] != a["points"]


def test_slots_without_models_answers_the_same_but_the_models_row():
    full = dispatch("slots", "solve", {"n": 8, "seed": 3})
    bare = dispatch("slots", "solve", {"n": 8, "seed": 3, "models": False})
    assert bare["real"] is None and full["real"] == model_outputs(full["points"])
    assert {k: v for k, v in full.items() if k != "real"} == {k: v for k, v in bare.items() if k != "real"}


@pytest.mark.parametrize("params", [{"n": 2}, {"n": 13}, {"n": 7.5}, {"n": "7"}, {"n": True}, {"seed": -1}])
def test_slots_rejects_bad_params_in_korean(params):
    assert_korean_error("slots", params)
