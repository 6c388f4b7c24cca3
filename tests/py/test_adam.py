"""The package's one Adam: the update against hand computation, clipping, and the dict wrapper."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ptrnet.nn.adam import Adam, StackedAdam, adam_update, global_norm


def test_adam_update_equals_hand_computation() -> None:
    theta = np.array([1.0, -2.0])
    g1 = np.array([0.5, -0.1])
    # t = 1: m = 0.1 g, v = 0.001 g^2, m_hat = g, v_hat = g^2
    theta1, m1, v1 = adam_update(theta, g1, np.zeros(2), np.zeros(2), 1, 0.01)
    assert m1 == pytest.approx([0.05, -0.01], rel=1e-15)
    assert v1 == pytest.approx([0.00025, 0.00001], rel=1e-12)
    assert theta1 == pytest.approx([1.0 - 0.01 * 0.5 / (0.5 + 1e-8), -2.0 + 0.01 * 0.1 / (0.1 + 1e-8)], rel=1e-15)
    # t = 2 with gradient g2
    g2 = np.array([-0.2, 0.3])
    theta2, m2, v2 = adam_update(theta1, g2, m1, v1, 2, 0.01)
    m_ref = [0.9 * 0.05 + 0.1 * -0.2, 0.9 * -0.01 + 0.1 * 0.3]  # [0.025, 0.021]
    v_ref = [
        0.999 * 0.00025 + 0.001 * 0.04,
        0.999 * 0.00001 + 0.001 * 0.09,
    ]  # [0.00028975, 0.00009999]
    step = [0.01 * (m / 0.19) / (math.sqrt(v / 0.001999) + 1e-8) for m, v in zip(m_ref, v_ref, strict=True)]
    assert m2 == pytest.approx(m_ref, rel=1e-12)
    assert v2 == pytest.approx(v_ref, rel=1e-12)
    assert theta2 == pytest.approx([theta1[0] - step[0], theta1[1] - step[1]], rel=1e-12)


def test_stacked_adam_is_adam_update_bit_for_bit() -> None:
    rng = np.random.default_rng(3)
    pmv = np.stack([rng.normal(size=96), np.zeros(96), np.zeros(96)])
    adam = StackedAdam(pmv, 0.8, 0.99, 1e-6)
    for t in range(1, 6):
        g = rng.normal(size=96) * 10.0 ** rng.integers(-8, 3, size=96)
        expected = adam_update(*pmv[:1], g, *pmv[1:], t, 0.03, 0.8, 0.99, 1e-6)
        before = pmv.copy()
        new = adam.step(g, t, 0.03)
        assert np.array_equal(pmv, before)  # the input stays as it is
        assert all(np.array_equal(a, b) for a, b in zip(new, expected, strict=True))
        pmv[...] = new


def test_adam_class_applies_adam_update_to_every_array_in_place() -> None:
    rng = np.random.default_rng(0)
    params = {"a": rng.normal(size=(3, 4)), "b": rng.normal(size=5)}
    grads = [{k: rng.normal(size=v.shape) for k, v in params.items()} for _ in range(3)]
    expected = {k: (v.copy(), np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    opt, views = Adam(params), {k: v for k, v in params.items()}
    for t, g in enumerate(grads, start=1):
        opt.step(params, g, 0.05)
        expected = {k: adam_update(*expected[k][:1], g[k], *expected[k][1:], t, 0.05) for k in params}
    for k, v in params.items():
        assert v is views[k]  # updated in place: views into the arrays stay valid
        assert np.array_equal(v, expected[k][0])


def test_clipping_scales_the_gradients_to_the_clip_norm() -> None:
    grads = {"a": np.array([3.0, 0.0]), "b": np.array([[4.0]])}
    assert global_norm(grads) == pytest.approx(5.0)
    clipped, free = {"a": np.zeros(2), "b": np.zeros((1, 1))}, {"a": np.zeros(2), "b": np.zeros((1, 1))}
    a, b = Adam(clipped, clip=1.0), Adam(free)
    assert a.step(clipped, grads, 0.1) == pytest.approx(5.0)
    b.step(free, {k: g / 5.0 for k, g in grads.items()}, 0.1)
    assert all(np.allclose(clipped[k], free[k], rtol=1e-12) for k in grads)
    assert np.allclose(a.m["a"], [0.1 * 3.0 / 5.0, 0.0])
