"""Tests of the prelude's LSTM language model (ptrnet.prelude.lm): one step's shapes, gates and temperature, the prefix,
gradients and a short training run."""

from __future__ import annotations

import numpy as np
import pytest
from checks import numeric_grads, rel_err

from ptrnet.nn import lstm
from ptrnet.prelude import lm
from ptrnet.prelude.corpus import BOS, EOS
from training.trainers import lm_train

# ---------------------------------------------------------------- references


def _sigmoid(z: np.ndarray) -> np.ndarray:
    """1 / (1 + e^-z), written out."""
    return 1.0 / (1.0 + np.exp(-z))


def _random_lm(V: int, D: int, H: int, seed: int) -> lm.Params:
    """LSTM LM weights drawn as N(0, 0.5^2)."""
    rng = np.random.default_rng(seed)
    shapes = {"E": (V, D), "W_x": (D, 4 * H), "W_h": (H, 4 * H), "b": (4 * H,), "W_s": (H, V), "b_s": (V,)}
    return {k: rng.normal(0.0, 0.5, s) for k, s in shapes.items()}


# ---------------------------------------------------------------- the LSTM step


@pytest.mark.parametrize(("N", "D", "H", "V"), [(1, 8, 16, 34), (3, 2, 5, 7), (4, 6, 1, 2)])
def test_step_shapes(N: int, D: int, H: int, V: int) -> None:
    params = _random_lm(V, D, H, 0)
    rng = np.random.default_rng(1)
    out = lm.step(params, rng.integers(0, V, N), rng.normal(size=(N, H)), rng.normal(size=(N, H)))
    want = {"x": (N, D), "h_prev": (N, H), "c_prev": (N, H), "A": (N, 4 * H), "s": (N, V), "p": (N, V)}
    want |= {k: (N, H) for k in ("f", "g", "i", "o", "c", "h")}
    assert list(out) == list(lm.TENSORS)
    assert {k: v.shape for k, v in out.items()} == want


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gate_order_and_cell_update_match_separate_gates(seed: int) -> None:
    """f, g, i, o from four separate (D, H) / (H, H) matrices, then c and h as written in the article."""
    N, D, H, V = 3, 4, 5, 6
    rng = np.random.default_rng(seed)
    Wx = {k: rng.normal(size=(D, H)) for k in "fgio"}
    Wh = {k: rng.normal(size=(H, H)) for k in "fgio"}
    b = {k: rng.normal(size=H) for k in "fgio"}
    E, W_s, b_s = rng.normal(size=(V, D)), rng.normal(size=(H, V)), rng.normal(size=V)
    ids, h_prev, c_prev = rng.integers(0, V, N), rng.normal(size=(N, H)), rng.normal(size=(N, H))
    x = E[ids]
    f = _sigmoid(x @ Wx["f"] + h_prev @ Wh["f"] + b["f"])
    g = np.tanh(x @ Wx["g"] + h_prev @ Wh["g"] + b["g"])
    i = _sigmoid(x @ Wx["i"] + h_prev @ Wh["i"] + b["i"])
    o = _sigmoid(x @ Wx["o"] + h_prev @ Wh["o"] + b["o"])
    c = f * c_prev + i * g
    h = o * np.tanh(c)
    s = h @ W_s + b_s
    p = np.exp(s) / np.exp(s).sum(axis=1, keepdims=True)
    order = lstm.GATES  # the package's one gate order
    params = {
        "E": E,
        "W_x": np.hstack([Wx[k] for k in order]),
        "W_h": np.hstack([Wh[k] for k in order]),
        "b": np.concatenate([b[k] for k in order]),
        "W_s": W_s,
        "b_s": b_s,
    }
    out = lm.step(params, ids, h_prev, c_prev)
    for name, want in {"x": x, "f": f, "g": g, "i": i, "o": o, "c": c, "h": h, "s": s, "p": p}.items():
        np.testing.assert_allclose(out[name], want, rtol=1e-12, atol=1e-14, err_msg=name)
    # A is laid out as the prelude's source lays it out: A[:, :H] -> f, [H:2H] -> g, [2H:3H] -> i, [3H:] -> o.
    assert lm.GATES == "fgio"
    A = np.hstack([x @ Wx[k] + h_prev @ Wh[k] + b[k] for k in "fgio"])
    np.testing.assert_allclose(out["A"], A, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(out["f"], _sigmoid(out["A"][:, :H]), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(out["g"], np.tanh(out["A"][:, H : 2 * H]), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(out["i"], _sigmoid(out["A"][:, 2 * H : 3 * H]), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(out["o"], _sigmoid(out["A"][:, 3 * H :]), rtol=1e-12, atol=1e-14)


def test_shown_step_is_the_shared_cells_step_on_the_shipped_weights() -> None:
    """The f | g | i | o step gives the shared cell's h, c and p (to 1e-12) along greedy and sampled sentences."""
    vocab, params = lm.load()
    H = params["W_h"].shape[0]
    for seed, greedy in ((0, True), (1, False), (2, False)):
        tokens = [vocab.index(BOS)]
        h, c = np.zeros((1, H)), np.zeros((1, H))
        while vocab[tokens[-1]] != EOS and len(tokens) < lm.MAX_TOKENS:
            ids = np.array([tokens[-1]])
            shown = lm.step(params, ids, h, c)
            x, h, c, k = lm.cell(params, ids, h, c)  # the shared cell, weights as stored (lstm.GATES)
            p = lm.softmax(h @ params["W_s"] + params["b_s"])
            for name, want in {"x": x, "c": c, "h": h, "p": p, "f": k.f, "g": k.g, "i": k.i, "o": k.o}.items():
                np.testing.assert_allclose(shown[name], want, rtol=0, atol=1e-12, err_msg=name)
            want_A = np.hstack([k.z[:, lstm.GATES.index(gate) * H :][:, :H] for gate in lm.GATES])
            np.testing.assert_allclose(shown["A"], want_A, rtol=0, atol=1e-12)
            tokens.append(lm.choose(shown["p"].reshape(-1), greedy, seed, len(tokens)))
            assert tokens[-1] == lm.choose(p.reshape(-1), greedy, seed, len(tokens) - 1)


def test_temperature_divides_the_scores() -> None:
    params = _random_lm(9, 3, 4, 5)
    zeros = np.zeros((2, 4))
    s = lm.step(params, np.array([1, 2]), zeros, zeros)["s"]
    for temperature in (0.1, 1.0, 3.0):
        p = lm.step(params, np.array([1, 2]), zeros, zeros, temperature)["p"]
        np.testing.assert_allclose(p, np.exp(s / temperature) / np.exp(s / temperature).sum(axis=1, keepdims=True))
        np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=1e-12)


def test_prefix_is_run_step_by_step() -> None:
    params = _random_lm(7, 3, 4, 6)
    tokens = [0, 3, 5, 2]
    h, c = np.zeros((1, 4)), np.zeros((1, 4))
    for t in tokens[:-1]:
        out = lm.step(params, np.array([t]), h, c)
        h, c = out["h"], out["c"]
    last = lm.last_step(params, tokens)
    np.testing.assert_array_equal(last["h_prev"], h)
    np.testing.assert_array_equal(last["c_prev"], c)
    np.testing.assert_array_equal(last["x"], params["E"][[tokens[-1]]])


def test_lm_gradients_match_finite_differences() -> None:
    params = _random_lm(6, 3, 4, 3)
    rng = np.random.default_rng(4)
    ids = rng.integers(0, 6, (3, 5))
    mask = np.ones((3, 4))
    mask[0, 2:] = 0.0  # a shorter sentence
    _, grads = lm_train.loss_and_grads(params, ids, mask)
    num = numeric_grads(lambda: lm_train.loss_and_grads(params, ids, mask)[0], params)
    for name in lm.PARAM_NAMES:
        assert rel_err(grads[name], num[name]) < 1e-5, name


def test_short_training_is_seeded_and_lowers_the_loss() -> None:
    config = lm_train.LMConfig(iterations=30)
    a, losses = lm_train.train(config)
    b, _ = lm_train.train(config)
    assert all(np.array_equal(a[k], b[k]) for k in lm.PARAM_NAMES)
    assert losses[-1] < 0.8 * losses[0]
