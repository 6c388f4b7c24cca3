"""Tests of the 96-parameter pointer sorter (demos 5 and 6)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ptrnet import sorter
from ptrnet.adam import adam_update

Curves = dict[str, list[Any]]

# ---------------------------------------------------------------- references


def _reference_scores(params: sorter.Params, x: sorter.Array, prev: float | None) -> sorter.Array:
    """u_j = v . tanh(A x_j + a0 + q) for one sequence, written as in the spec."""
    q = params["s"] if prev is None else params["B"] * prev + params["b0"]
    return np.array([params["v"] @ np.tanh(params["A"] * xj + params["a0"] + q) for xj in x])


def _reference_loss(params: sorter.Params, x: sorter.Array, mask: bool) -> float:
    """Teacher-forced mean cross-entropy, one sequence and one step at a time."""
    total, steps = 0.0, 0
    for row in x:
        order = sorted(range(len(row)), key=lambda j: row[j])
        for i, target in enumerate(order):
            u = _reference_scores(params, row, None if i == 0 else row[order[i - 1]])
            if mask:
                u[order[:i]] = -np.inf
            total += math.log(np.exp(u - u.max()).sum()) + u.max() - u[target]
            steps += 1
    return total / steps


def _reference_decode(params: sorter.Params, row: sorter.Array, mask: bool) -> tuple[list[int], sorter.Array]:
    """Greedy decoding of one sequence, feeding back the model's own choice."""
    chosen: list[int] = []
    rows = []
    for _ in range(len(row)):
        u = _reference_scores(params, row, row[chosen[-1]] if chosen else None)
        if mask:
            u[chosen] = -np.inf
        p = np.exp(u - u.max())
        rows.append(p / p.sum())
        chosen.append(int(np.argmax(u)))
    return chosen, np.array(rows)


def _numeric_grad(params: sorter.Params, x: sorter.Array, mask: bool, h: float = 1e-6) -> sorter.Params:
    """Central finite differences of the loss for every parameter."""
    theta = sorter.flatten(params)
    num = np.zeros_like(theta)
    for i in range(theta.size):
        up, down = theta.copy(), theta.copy()
        up[i] += h
        down[i] -= h
        num[i] = (
            sorter.loss_and_grads(sorter.unflatten(up), x, mask)[0]
            - sorter.loss_and_grads(sorter.unflatten(down), x, mask)[0]
        ) / (2 * h)
    return sorter.unflatten(num)


# ---------------------------------------------------------------- the model


def test_ninety_six_parameters() -> None:
    params = sorter.init_params(0)
    assert list(params) == ["A", "a0", "B", "b0", "s", "v"]
    assert all(p.shape == (16,) for p in params.values())
    theta = sorter.flatten(params)
    assert theta.shape == (96,) and theta.dtype == np.float64
    views = sorter.unflatten(theta)
    theta[0] = 123.0
    assert views["A"][0] == 123.0  # views share the vector's memory


@pytest.mark.parametrize("mask", [True, False])
def test_loss_is_the_spec_formula(mask: bool) -> None:
    params = sorter.init_params(4)
    x = np.random.default_rng(1).random((3, 7))
    loss, _ = sorter.loss_and_grads(params, x, mask)
    assert loss == pytest.approx(_reference_loss(params, x, mask), rel=1e-12)


@pytest.mark.parametrize("mask", [True, False])
@pytest.mark.parametrize("seed", [0, 1])
def test_gradients_match_finite_differences(mask: bool, seed: int) -> None:
    rng = np.random.default_rng(seed)
    params = sorter.unflatten(rng.normal(0.0, 1.0, 96))
    x = rng.random((4, 6))
    _, grads = sorter.loss_and_grads(params, x, mask)
    num = _numeric_grad(params, x, mask)
    for name in sorter.PARAM_NAMES:
        err = np.linalg.norm(grads[name] - num[name]) / (np.linalg.norm(grads[name]) + np.linalg.norm(num[name]))
        assert err < 1e-5, (name, err)


def test_gradients_match_finite_differences_with_large_weights() -> None:
    """Weights beyond the exp-product range take the np.tanh path; gradients stay right."""
    rng = np.random.default_rng(7)
    params = sorter.unflatten(rng.normal(0.0, 1.0, 96))
    params["A"][0], params["B"][0] = 200.0, -200.0  # |e| + |q| > 300 for the first unit
    x = rng.random((3, 5))
    _, grads = sorter.loss_and_grads(params, x, True)
    num = _numeric_grad(params, x, True)
    for name in sorter.PARAM_NAMES:
        err = np.linalg.norm(grads[name] - num[name]) / (np.linalg.norm(grads[name]) + np.linalg.norm(num[name]))
        assert err < 1e-5, (name, err)


@pytest.mark.parametrize("scale", [0.5, 20.0, 200.0])
def test_tanh_sum_equals_tanh(scale: float) -> None:
    rng = np.random.default_rng(3)
    e = rng.normal(0.0, scale, (5, 1, 4, 16))
    q = rng.normal(0.0, scale, (5, 3, 1, 16))
    # exp(2e) exp(2q) is exact to a few ulp; e + q itself rounds to ulp(|e|)
    assert np.allclose(sorter._tanh_sum(e, q), np.tanh(e + q), rtol=0.0, atol=1e-15 * max(1.0, 8 * scale))


def test_masked_softmax_blocked_entries_are_zero_and_full_rows_are_not_nan() -> None:
    u = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 7.0], [1.0, 1.0, 1.0]])
    blocked = np.array([[False, True, False], [True, True, True], [False, False, False]])
    with np.errstate(all="raise"):
        p = sorter.masked_softmax(u, blocked)
    assert not np.isnan(p).any()
    assert p[0, 1] == 0.0 and (p[1] == 0.0).all()  # a fully blocked row is all 0
    assert p[0].sum() == pytest.approx(1.0) and p[0, 2] > p[0, 0]
    assert np.allclose(p[2], 1 / 3)
    with np.errstate(all="raise"):
        assert (sorter.masked_softmax(np.full((2, 4), -np.inf)) == 0.0).all()


def test_trainer_iteration_is_teacher_forced_adam_on_one_sampled_batch() -> None:
    cfg = sorter.SorterConfig(seed=11)
    trainer = sorter.Trainer(cfg)
    rng = np.random.default_rng(11)
    theta = rng.normal(0.0, cfg.init_scale, 96)
    assert np.array_equal(trainer.theta, theta)
    n = int(rng.integers(5, 11))
    x = rng.random((32, n))
    loss, grads = sorter.loss_and_grads(sorter.unflatten(theta), x, True)
    expected, _, _ = adam_update(theta, sorter.flatten(grads), np.zeros(96), np.zeros(96), 1, cfg.lr)
    report = trainer.train(1)
    assert np.array_equal(trainer.theta, expected)
    assert report["losses"] == [loss] and report["iteration"] == 1


# ---------------------------------------------------------------- determinism


def test_same_seed_is_bit_identical_and_chunking_does_not_matter() -> None:
    a, b, c = (
        sorter.Trainer(sorter.SorterConfig(seed=5)),
        sorter.Trainer(sorter.SorterConfig(seed=5)),
        sorter.Trainer(sorter.SorterConfig(seed=6)),
    )
    ra = a.train(60)
    rb = [b.train(k) for k in (1, 19, 40)]
    c.train(60)
    assert np.array_equal(a.theta, b.theta)
    assert ra["losses"] == rb[0]["losses"] + rb[1]["losses"] + rb[2]["losses"]
    assert not np.array_equal(a.theta, c.theta)


def test_reset_and_set_mask() -> None:
    trainer = sorter.Trainer()
    trainer.train(5)
    before = trainer.theta.copy()
    trainer.set_mask(False)
    assert trainer.config.mask is False and np.array_equal(trainer.theta, before)
    report = trainer.train(3)
    assert report["mask"] is False and report["iteration"] == 8
    trainer.reset(9)
    assert trainer.iteration == 0 and trainer.loss_avg is None and trainer.config.seed == 9
    assert np.array_equal(sorter.flatten(trainer.params), sorter.flatten(sorter.init_params(9)))
    assert trainer.config.mask is False  # the mask setting survives a reset


def test_train_report() -> None:
    trainer = sorter.Trainer()
    report = trainer.train(10)
    assert set(report) == {"iteration", "loss", "loss_avg", "losses", "diverged", "mask"}
    assert report["iteration"] == 10 and len(report["losses"]) == 10
    assert report["loss"] == report["losses"][-1]
    assert all(isinstance(v, float) for v in report["losses"])
    assert report["diverged"] is False
    assert trainer.train(0)["losses"] == []


# ---------------------------------------------------------------- divergence


def test_huge_learning_rate_is_reported_as_divergence() -> None:
    trainer = sorter.Trainer(sorter.SorterConfig(lr=1e308))
    report = trainer.train(50)
    assert report["diverged"] is True and report["iteration"] < 50
    assert np.isfinite(trainer.theta).all()  # the bad update was not applied
    assert all(math.isfinite(v) for v in report["losses"])
    stopped = trainer.train(10)
    assert stopped["diverged"] is True and stopped["losses"] == [] and stopped["iteration"] == report["iteration"]
    trainer.reset()
    assert trainer.diverged is False


def test_non_finite_weights_are_reported_as_divergence() -> None:
    trainer = sorter.Trainer()
    trainer.train(3)
    trainer.params["v"][2] = np.inf
    report = trainer.train(5)
    assert report["diverged"] is True and report["losses"] == [] and report["iteration"] == 3


# ---------------------------------------------------------------- decoding and evaluation


@pytest.mark.parametrize("mask", [True, False])
def test_decode_equals_step_by_step_reference(mask: bool) -> None:
    trainer = sorter.Trainer(sorter.SorterConfig(mask=mask, seed=2))
    trainer.train(40)
    x = np.random.default_rng(8).random((6, 9))
    choices, probs = sorter.decode(trainer.params, x, mask)
    assert choices.shape == (6, 9) and probs.shape == (6, 9, 9)
    for row, got, got_p in zip(x, choices, probs, strict=True):
        want, want_p = _reference_decode(trainer.params, row, mask)
        assert got.tolist() == want
        assert np.allclose(got_p, want_p, atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1, 12),
    scale=st.sampled_from([0.1, 1.0, 30.0, 400.0]),
)
def test_masked_decoding_is_a_permutation_and_probs_are_distributions(seed: int, n: int, scale: float) -> None:
    rng = np.random.default_rng(seed)
    params = sorter.unflatten(rng.normal(0.0, scale, 96))
    x = rng.random((4, n))
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        choices, probs = sorter.decode(params, x, True)
    assert (np.sort(choices, axis=1) == np.arange(n)).all()
    assert np.allclose(probs.sum(axis=2), 1.0)
    assert (np.take_along_axis(probs, choices[:, :, None], 2) > 0).all()
    blocked_later = np.take_along_axis(probs[:, 1:, :], choices[:, :-1, None], 2)  # first choice at step 2
    assert (blocked_later == 0.0).all()


def test_evaluate_counts_by_definition() -> None:
    params = sorter.init_params(3)
    out = sorter.evaluate(params, [4, 7], count=50, mask=False, seed=1)
    assert set(out) == {"lengths", "seq_acc", "pos_acc", "invalid"} and out["lengths"] == [4, 7]
    rng = np.random.default_rng(1)
    for k, n in enumerate([4, 7]):
        x = rng.random((50, n))
        choices, _ = sorter.decode(params, x, False)
        right = choices == np.argsort(x, axis=1)
        assert out["seq_acc"][k] == right.all(axis=1).mean()
        assert out["pos_acc"][k] == right.mean()
        assert out["invalid"][k] == np.mean([len(set(c)) < n for c in choices.tolist()])
    assert sorter.accuracy(params, n=7, count=50, mask=False, seed=1) == out["seq_acc"][1]


def test_heatmap_plain_lists() -> None:
    x = [0.7, 0.1, 0.5, 0.9, 0.3]
    view = sorter.heatmap(sorter.init_params(0), x, True)
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
        trainer = sorter.Trainer(sorter.SorterConfig(mask=mask, seed=0))
        assert trainer.train(BUDGET)["diverged"] is False
        curves[mask] = sorter.evaluate(trainer.params, range(5, 51), count=150, mask=mask)
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


def test_a_restored_snapshot_continues_the_run_bit_for_bit() -> None:
    import json

    a = sorter.Trainer(sorter.SorterConfig(seed=4))
    a.train(37)
    snap = json.loads(json.dumps(a.snapshot()))  # through JSON, as the page stores it
    b = sorter.Trainer(sorter.SorterConfig(seed=99, mask=False))
    b.restore(snap)
    assert b.iteration == 37 and b.config.mask is True
    assert a.train(20)["losses"] == b.train(20)["losses"]
    assert np.array_equal(a.theta, b.theta)
