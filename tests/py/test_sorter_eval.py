"""Tests of the sorter's evaluation: length curves and the heat map by definition, and what demos 5 and 6 show
after training."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from ptrnet.sorter import evaluation as sorter_eval
from ptrnet.sorter import model as sorter
from ptrnet.sorter import trainer as sorter_trainer

Curves = dict[str, list[Any]]

# ---------------------------------------------------------------- evaluation


def _reference_choices(params: sorter.Params, x: list[float], mask: bool) -> list[int]:
    """Greedy decoding one step and one number at a time, from the model's definition (SPEC §5):
    u_k = sum_h v_h tanh(A_h x_k + a0_h + q_h), q = s at step 1, then B x_prev + b0 with x_prev the
    number the model chose; with the mask, chosen positions are out; the first largest u wins."""
    p = {k: [float(t) for t in params[k]] for k in sorter.PARAM_NAMES}
    hidden, chosen = len(p["v"]), []
    query = p["s"]
    for _ in x:
        scores = [
            -math.inf
            if mask and k in chosen
            else sum(p["v"][h] * math.tanh(p["A"][h] * xk + p["a0"][h] + query[h]) for h in range(hidden))
            for k, xk in enumerate(x)
        ]
        pick = scores.index(max(scores))
        chosen.append(pick)
        query = [p["B"][h] * x[pick] + p["b0"][h] for h in range(hidden)]
    return chosen


@pytest.mark.parametrize("mask", [True, False])
def test_evaluate_matches_a_one_number_at_a_time_reference_decoder(mask: bool) -> None:
    trainer = sorter_trainer.Trainer(sorter.SorterConfig(mask=mask, seed=0))
    # Masked, one update already sorts these: the untrained model gets some steps right and most wrong.
    # Unmasked, 1,000 updates make a mix of sequences right, wrong and with repeated positions.
    trainer.train(0 if mask else 1000)
    lengths, count = [7, 12], 40
    out = sorter_eval.evaluate(trainer.params, lengths, count=count, mask=mask, seed=1)
    assert out["lengths"] == lengths
    rng = np.random.default_rng(1)  # evaluate's documented test sequences: count per length, in order
    for k, n in enumerate(lengths):
        sequences = rng.random((count, n)).tolist()
        solved = hits = invalid = 0
        for x in sequences:
            choices = _reference_choices(trainer.params, x, mask)
            order = sorted(range(n), key=lambda i: x[i])
            solved += choices == order
            hits += sum(c == o for c, o in zip(choices, order, strict=True))
            invalid += len(set(choices)) < n
        assert out["seq_acc"][k] == pytest.approx(solved / count, abs=1e-12)
        assert out["pos_acc"][k] == pytest.approx(hits / (count * n), abs=1e-12)
        assert out["invalid"][k] == pytest.approx(invalid / count, abs=1e-12)
    assert 0 < sum(out["pos_acc"]) < len(lengths)  # the reference had something to disagree with
    assert sorter_eval.accuracy(trainer.params, n=7, count=count, mask=mask, seed=1) == out["seq_acc"][0]


def test_heatmap_plain_lists() -> None:
    x = [0.7, 0.1, 0.5, 0.9, 0.3]
    view = sorter_eval.heatmap(sorter.init_params(0), x, True)
    assert set(view) == {"x", "probs", "correct", "choices", "solved", "valid"}
    assert view["x"] == x and view["correct"] == [1, 4, 2, 0, 3]
    assert len(view["probs"]) == 5 and all(len(r) == 5 and type(r[0]) is float for r in view["probs"])
    assert all(type(c) is int for c in view["choices"]) and view["valid"] is True
    assert view["solved"] == (view["choices"] == view["correct"])
    assert all(abs(sum(r) - 1.0) < 1e-12 for r in view["probs"])


# ---------------------------------------------------------------- behaviour (demos 5 and 6)

BUDGET = 1000  # training iterations for the behaviour tests


@pytest.fixture(scope="module")
def trained() -> dict[bool, Curves]:
    """Length curves after BUDGET iterations from a fresh seed-0 init, with and without the mask."""
    curves: dict[bool, Curves] = {}
    for mask in (True, False):
        trainer = sorter_trainer.Trainer(sorter.SorterConfig(mask=mask, seed=0))
        assert trainer.train(BUDGET)["diverged"] is False
        curves[mask] = sorter_eval.evaluate(trainer.params, range(5, 51), count=150, mask=mask)
    return curves


def _at(curves: Curves, key: str, n: int) -> float:
    return float(curves[key][curves["lengths"].index(n)])


def test_with_mask_it_sorts_and_generalises_to_fifty(trained: dict[bool, Curves]) -> None:
    curves = trained[True]
    assert _at(curves, "seq_acc", 10) >= 0.95
    assert _at(curves, "seq_acc", 50) >= 0.9
    assert max(curves["invalid"]) == 0.0


def test_without_mask_invalid_outputs_appear_and_grow_with_n(
    trained: dict[bool, Curves],
) -> None:
    curves = trained[False]
    assert _at(curves, "invalid", 50) >= 0.5
    assert _at(curves, "seq_acc", 10) < _at(trained[True], "seq_acc", 10)  # worse even at a training length
    assert _at(curves, "invalid", 5) < _at(curves, "invalid", 10) <= _at(curves, "invalid", 50)
