"""Tests of the sorter's evaluation: length curves and the heat map by definition, and what demos 5 and 6 show
after training."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ptrnet.sorter import evaluation as sorter_eval
from ptrnet.sorter import model as sorter
from ptrnet.sorter import trainer as sorter_trainer

Curves = dict[str, list[Any]]

# ---------------------------------------------------------------- evaluation


def test_evaluate_counts_by_definition() -> None:
    params = sorter.init_params(3)
    out = sorter_eval.evaluate(params, [4, 7], count=50, mask=False, seed=1)
    assert set(out) == {"lengths", "seq_acc", "pos_acc", "invalid"} and out["lengths"] == [4, 7]
    rng = np.random.default_rng(1)
    for k, n in enumerate([4, 7]):
        x = rng.random((50, n))
        choices, _ = sorter.decode(params, x, False)
        right = choices == np.argsort(x, axis=1)
        assert out["seq_acc"][k] == right.all(axis=1).mean()
        assert out["pos_acc"][k] == right.mean()
        assert out["invalid"][k] == np.mean([len(set(c)) < n for c in choices.tolist()])
    assert sorter_eval.accuracy(params, n=7, count=50, mask=False, seed=1) == out["seq_acc"][1]


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
