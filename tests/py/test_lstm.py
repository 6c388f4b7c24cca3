"""The package's one LSTM cell (ptrnet.nn.lstm): PyTorch's gate order, the step against PyTorch's formula,
the backward pass against central differences."""

from __future__ import annotations

import numpy as np
import pytest

from ptrnet.learn.cell import cell_backward
from ptrnet.nn import lstm


def test_torch_gate_order_maps_to_ours_and_back() -> None:
    H = 3
    torch_layout = np.concatenate([np.full((H, 2), k) for k in range(4)])  # blocks i=0, f=1, g=2, o=3
    ours = lstm.from_torch_gates(torch_layout)
    assert [int(b[0, 0]) for b in np.split(ours, 4)] == [0, 1, 3, 2]  # i, f, o, g
    rng = np.random.default_rng(0)
    for shape in ((4 * H,), (4 * H, 5)):
        a = rng.normal(size=shape)
        assert np.array_equal(lstm.to_torch_gates(lstm.from_torch_gates(a)), a)
        assert np.array_equal(lstm.from_torch_gates(lstm.to_torch_gates(a)), a)


def test_an_lstm_step_with_mapped_gates_equals_the_torch_formula() -> None:
    """nn.LSTM's documented step (gates i, f, g, o stacked in weight_ih) computed by hand, against ours."""
    rng = np.random.default_rng(1)
    H, d = 4, 2
    w_ih, w_hh, b = rng.normal(size=(4 * H, d)), rng.normal(size=(4 * H, H)), rng.normal(size=4 * H)
    x, h, c = rng.normal(size=(3, d)), rng.normal(size=(3, H)), rng.normal(size=(3, H))
    z = x @ w_ih.T + h @ w_hh.T + b
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    i, f, g, o = sig(z[:, :H]), sig(z[:, H : 2 * H]), np.tanh(z[:, 2 * H : 3 * H]), sig(z[:, 3 * H :])
    c_ref = f * c + i * g
    h_ref = o * np.tanh(c_ref)
    xz = x @ lstm.from_torch_gates(w_ih).T + lstm.from_torch_gates(b)
    h_ours, c_ours, _ = lstm.step(xz, h, c, lstm.from_torch_gates(w_hh).T)
    assert np.allclose(h_ours, h_ref, atol=1e-12) and np.allclose(c_ours, c_ref, atol=1e-12)


@pytest.mark.parametrize("seed", [0, 1])
def test_the_cells_backward_matches_central_differences(seed: int) -> None:
    rng = np.random.default_rng(seed)
    B, H = 3, 4
    xz, h, c, Wh = (
        rng.normal(size=(B, 4 * H)),
        rng.normal(size=(B, H)),
        rng.normal(size=(B, H)),
        rng.normal(size=(H, 4 * H)),
    )
    wh_, wc = rng.normal(size=(B, H)), rng.normal(size=(B, H))  # the loss is wh_ . h' + wc . c'

    def loss(xz, h, c, Wh):
        hn, cn, _ = lstm.step(xz, h, c, Wh)
        return float((wh_ * hn).sum() + (wc * cn).sum())

    _, _, cache = lstm.step(xz, h, c, Wh)
    gWh = np.zeros_like(Wh)
    dz, dh, dc = cell_backward(cache, wh_, wc, Wh, gWh)
    for name, value, grad in (("xz", xz, dz), ("h", h, dh), ("c", c, dc), ("Wh", Wh, gWh)):
        num = np.zeros_like(value)
        for idx in np.ndindex(value.shape):
            old = value[idx]
            value[idx] = old + 1e-6
            up = loss(xz, h, c, Wh)
            value[idx] = old - 1e-6
            down = loss(xz, h, c, Wh)
            value[idx] = old
            num[idx] = (up - down) / 2e-6
        assert np.allclose(grad, num, atol=1e-7), name


@pytest.mark.parametrize("einsum", [False, True])
def test_the_product_of_rows_and_a_matrix_is_matmul_with_or_without_blas(monkeypatch, einsum: bool) -> None:
    """lstm.times takes einsum where numpy has no BLAS (Pyodide); both ways it is x @ W, rows of any rank."""
    monkeypatch.setattr(lstm, "_EINSUM_PRODUCTS", einsum)
    rng = np.random.default_rng(4)
    W = np.asfortranarray(rng.normal(size=(16, 12)))  # as weights.load gives it
    for shape in ((1, 16), (5, 16), (3, 7, 16)):
        x = rng.normal(size=shape)
        by_hand = (x[..., :, None] * W).sum(axis=-2)  # sum_i x[..., i] W[i, j]
        np.testing.assert_allclose(lstm.times(x, W), by_hand, rtol=1e-12, atol=1e-12)
