"""Tests of the 96-parameter pointer sorter (demos 5 and 6): its parameters, loss, gradients and greedy decoding."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ptrnet.sorter import backprop
from ptrnet.sorter import model as sorter
from ptrnet.sorter import trainer as sorter_trainer

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
            backprop.loss_and_grads(sorter.unflatten(up), x, mask)[0]
            - backprop.loss_and_grads(sorter.unflatten(down), x, mask)[0]
        ) / (2 * h)
    return sorter.unflatten(num)


def _assert_finite_differences_agree(grads: sorter.Params, params: sorter.Params, x: sorter.Array, mask: bool) -> None:
    """Each parameter's gradient within 1e-5 (relative) of central finite differences."""
    num = _numeric_grad(params, x, mask)
    for name in sorter.PARAM_NAMES:
        err = np.linalg.norm(grads[name] - num[name]) / (np.linalg.norm(grads[name]) + np.linalg.norm(num[name]))
        assert err < 1e-5, (name, err)


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
@pytest.mark.parametrize("n", [1, 2, 7])
def test_loss_is_the_spec_formula(mask: bool, n: int) -> None:
    """Also at the shortest lengths, where the masked layout leaves out a last step with one position."""
    params = sorter.unflatten(np.random.default_rng(n).normal(0.0, 1.0, 96))
    x = np.random.default_rng(1).random((3, n))
    loss, _ = backprop.loss_and_grads(params, x, mask)
    assert loss == pytest.approx(_reference_loss(params, x, mask), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("mask", [True, False])
@pytest.mark.parametrize("seed", [0, 1])
def test_gradients_match_finite_differences(mask: bool, seed: int) -> None:
    rng = np.random.default_rng(seed)
    params = sorter.unflatten(rng.normal(0.0, 1.0, 96))
    x = rng.random((4, 6))
    _, grads = backprop.loss_and_grads(params, x, mask)
    _assert_finite_differences_agree(grads, params, x, mask)


def test_gradients_match_finite_differences_with_large_weights() -> None:
    """Weights beyond the exp-product range take the np.tanh path; gradients stay right."""
    rng = np.random.default_rng(7)
    params = sorter.unflatten(rng.normal(0.0, 1.0, 96))
    params["A"][0], params["B"][0] = 200.0, -200.0  # |e| + |q| > 300 for the first unit
    x = rng.random((3, 5))
    _, grads = backprop.loss_and_grads(params, x, True)
    _assert_finite_differences_agree(grads, params, x, True)


@pytest.mark.parametrize("mask", [True, False])
def test_loss_and_gradients_stay_right_with_scores_far_above_the_target(mask: bool) -> None:
    """Scores over EXP_LIMIT above their step's target's are shifted by the step's largest; else exp would overflow."""
    rng = np.random.default_rng(9)
    params = sorter.unflatten(rng.normal(0.0, 1.0, 96))
    params["A"][:], params["v"][:] = -20.0, -1000.0 / 16  # the larger x_j, the nearer u_j to +1000: backwards
    x = rng.random((3, 5))
    scores = np.array([_reference_scores(params, row, None) for row in x])  # (3, 5): step 1
    assert (scores.max(axis=1) - scores[np.arange(3), x.argmin(axis=1)]).max() > 710  # exp(710) overflows
    with np.errstate(over="raise", invalid="raise"):
        loss, grads = backprop.loss_and_grads(params, x, mask)
    assert loss == pytest.approx(_reference_loss(params, x, mask), rel=1e-12)
    _assert_finite_differences_agree(grads, params, x, mask)


@pytest.mark.parametrize("scale", [0.5, 20.0, 200.0])
def test_pair_r_is_half_of_one_minus_tanh(scale: float) -> None:
    """r = (1 - tanh(e + q)) / 2 on both paths: the exponential product, and np.tanh past the bound."""
    rng = np.random.default_rng(3)
    two_e = rng.normal(0.0, 2 * scale, (4, 5, 16))  # (rows, batch, H)
    two_q = rng.normal(0.0, 2 * scale, (3, 5, 16))
    want = (1.0 - np.tanh((two_e[None] + two_q[:, None]) / 2)) / 2  # (3, 4, 5, 16): every q row with every e row
    # two blocks, as the sorter lays them out: broadcast rows, and one q row against a block of e rows
    out = np.empty((3 * 4 + 2, 5, 16))
    full, last = out[:12].reshape(3, 4, 5, 16), out[12:]

    def blocks(e, q):
        return [(e[None], q[:, None], full), (e[2:], q[1], last)]

    exp_form = float(np.abs(two_e).max() + np.abs(two_q).max()) <= sorter.EXP_LIMIT
    assert exp_form == (scale != 200.0)
    tolerance = {"rtol": 1e-13, "atol": 1e-15 * max(1.0, 8 * scale)}  # e + q rounds to ulp(|e|)
    assert sorter.pair_r(blocks(-two_e, two_q), out, False) is out  # the position rows hold -2e
    assert np.allclose(full, want, **tolerance) and np.allclose(last, want[1, 2:], **tolerance)
    if exp_form:  # exp(-2e) / (exp(-2e) + exp(2q)) is exact to a few ulp
        assert sorter.pair_r(blocks(np.exp(-two_e), np.exp(two_q)), out, True) is out
        assert np.allclose(full, want, **tolerance) and np.allclose(last, want[1, 2:], **tolerance)


def test_exp_bound_bounds_the_pre_activations() -> None:
    rng = np.random.default_rng(5)
    theta = rng.normal(0.0, 3.0, 96)
    p = sorter.unflatten(theta)
    x = rng.random((6, 9))
    e = x[:, :, None] * p["A"] + p["a0"]
    q = np.concatenate([(x[:, :, None] * p["B"] + p["b0"]).reshape(-1, 16), p["s"][None]])
    assert 2 * (np.abs(e).max() + np.abs(q).max()) <= sorter.exp_bound(2.0 * theta.reshape(6, 16), x)


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


# ---------------------------------------------------------------- greedy decoding


@pytest.mark.parametrize("mask", [True, False])
def test_decode_equals_step_by_step_reference(mask: bool) -> None:
    trainer = sorter_trainer.Trainer(sorter.SorterConfig(mask=mask, seed=2))
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


def test_buffers_reused_after_a_non_finite_batch_give_the_same_results() -> None:
    """Batches of one shape share buffers (backprop.workspace); a diverged batch must not leave NaN in them."""
    rng = np.random.default_rng(6)
    params, x = sorter.init_params(6), rng.random((32, 7))
    before = backprop.loss_and_grads(params, x, True)
    broken = {k: v.copy() for k, v in params.items()}
    broken["v"][2] = np.inf
    with np.errstate(all="ignore"):
        backprop.loss_and_grads(broken, x, True)
    after = backprop.loss_and_grads(params, x, True)
    assert after[0] == before[0]
    assert all(np.array_equal(after[1][k], before[1][k]) for k in sorter.PARAM_NAMES)
