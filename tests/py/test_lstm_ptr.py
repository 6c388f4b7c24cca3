"""The numpy LSTM models (ptrnet.pointer.lstm_ptr): gradients, padding, decoding = training forward, gate order, training."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ptrnet.geometry.notation import hull_sequence
from ptrnet.learn import grad as G
from ptrnet.limits import SEQ2SEQ_N
from ptrnet.nn.adam import Adam
from ptrnet.pointer import decoding, tasks, weights
from ptrnet.pointer import lstm_ptr as L
from training.trainers import np_train as T


def _mixed_batch(model: str, seed: int) -> G.Batch:
    """Three examples of different sizes (seq2seq: all n = 5) in one padded float64 batch."""
    rng = np.random.default_rng(seed)
    sizes = (5, 5, 5) if model == "seq2seq" else (4, 7, 5)
    points = [rng.random((n, 2)) for n in sizes]
    return G.make_batch(points, [hull_sequence(p) for p in points], dtype=np.float64)


# ---------------------------------------------------------------- gradients


@pytest.mark.parametrize(("model", "mask"), [("ptrnet", False), ("ptrnet", True), ("seq2seq", False)])
def test_gradients_match_central_differences(model: str, mask: bool) -> None:
    params = G.init_params(model, 4, seed=1, scale=0.5, dtype=np.float64)
    batch = _mixed_batch(model, 2)
    assert not batch.valid.all() or model == "seq2seq"  # padding in the encoder
    assert not batch.live.all()  # padding in the decoder
    _, grads = G.loss_and_grads(params, batch, mask)
    eps = 1e-5
    for name, p in params.items():
        flat, num = p.reshape(-1), np.zeros(p.size)
        for i in range(p.size):
            old = flat[i]
            flat[i] = old + eps
            up = G.forward(params, batch, mask)[0]
            flat[i] = old - eps
            down = G.forward(params, batch, mask)[0]
            flat[i] = old
            num[i] = (up - down) / (2 * eps)
        ana = grads[name].reshape(-1)
        assert np.linalg.norm(ana) > 0, name
        assert np.linalg.norm(ana - num) / (np.linalg.norm(ana) + np.linalg.norm(num)) < 1e-5, name


def test_padding_leaves_each_example_unchanged() -> None:
    params = G.init_params("ptrnet", 8, seed=3, scale=0.3, dtype=np.float64)
    batch = _mixed_batch("ptrnet", 4)
    _, probs, _ = G.forward(params, batch)
    for b in range(3):
        n, t = int(batch.valid[b].sum()), int(batch.live[b].sum())
        alone = G.Batch(
            batch.x[b : b + 1, :n], batch.valid[b : b + 1, :n], batch.target[b : b + 1, :t], batch.live[b : b + 1, :t]
        )
        _, p_alone, _ = G.forward(params, alone)
        assert np.allclose(probs[b, :t, : n + 1], p_alone[0], atol=1e-12)
        assert np.all(probs[b, :t, n + 1 :] == 0.0)  # padded slots are never pointed at


# ---------------------------------------------------------------- inference = training forward


@pytest.mark.parametrize("mask", [False, True])
def test_ptrnet_decoding_equals_the_training_forward_bit_for_bit(mask: bool) -> None:
    params = weights.shipped("hull_ptrnet")
    x = np.random.default_rng(5).random((16, 8, 2))
    choices, probs = decoding.greedy(params, x, rule="mask" if mask else "free")
    live = choices >= 0
    batch = G.Batch(x, np.ones(x.shape[:2], dtype=bool), np.where(live, choices, 0), live)
    _, forward_probs, _ = G.forward(params, batch, mask)
    assert np.array_equal(forward_probs[live], probs[live])


def test_seq2seq_decoding_equals_the_training_forward_bit_for_bit() -> None:
    params = weights.shipped("hull_seq2seq")
    x = np.random.default_rng(6).random((16, 5, 2))
    choices, probs = decoding.greedy(params, x)
    live = choices >= 0
    target = np.where(live & (choices < SEQ2SEQ_N), choices + 1, 0)  # tokens 1..5 as 1-based indices, ⇐ as 0
    assert not (live & (choices == L.GO)).any()
    _, forward_probs, _ = G.forward(params, G.Batch(x, np.ones((16, 5), dtype=bool), target, live))
    assert np.array_equal(forward_probs[live], probs[live])


def test_mask_blocks_chosen_points_except_the_first() -> None:
    params = G.init_params("ptrnet", 8, seed=0, scale=0.5, dtype=np.float64)
    choices, probs = decoding.greedy(params, np.random.default_rng(1).random((32, 6, 2)), rule="mask")
    for row, p in zip(choices, probs, strict=True):
        for t in range(1, len(row)):
            if row[t] < 0:
                break
            for j in set(row[1:t].tolist()) - {0, int(row[0])}:
                assert p[t, j] == 0.0
            assert np.isclose(p[t].sum(), 1.0)


# ---------------------------------------------------------------- training


@pytest.mark.parametrize(("model", "seed"), [("ptrnet", 0), ("ptrnet", 1), ("seq2seq", 0)])
def test_tiny_training_run_on_a_toy_set_lowers_the_loss(model: str, seed: int) -> None:
    batch = G.make_batch(*tasks.generate("hull", 5, 32, seed=seed))
    params = G.init_params(model, 16, seed)
    opt = Adam(params, clip=2.0)
    losses = []
    for _ in range(150):
        loss, grads = G.loss_and_grads(params, batch)
        assert opt.step(params, grads, 1e-2) > 0
        losses.append(loss)
    assert np.mean(losses[-10:]) < 0.8 * np.mean(losses[:10])


def test_interrupted_and_resumed_training_equals_one_run(tmp_path: Path) -> None:
    config = T.TrainConfig(model="seq2seq", hidden=8, batch=16, steps=12, val_every=6, ckpt_every=4)
    T.train(config, out_dir=tmp_path / "one", records=tmp_path / "one", cache=tmp_path / "c1", progress=False)
    part = T.train(
        config, out_dir=tmp_path / "two", records=tmp_path / "two", cache=tmp_path / "c2", progress=False, until=7
    )
    assert part["stopped_at"] == 7 and not (tmp_path / "two" / "hull_seq2seq.npz").exists()
    T.train(
        config, resume=True, out_dir=tmp_path / "two", records=tmp_path / "two", cache=tmp_path / "c2", progress=False
    )
    one = weights.load(tmp_path / "one" / "hull_seq2seq.npz")
    two = weights.load(tmp_path / "two" / "hull_seq2seq.npz")
    assert all(np.array_equal(one[k], two[k]) for k in one)


# ---------------------------------------------------------------- weights on disk


def test_saved_weights_come_back_within_half_an_int8_step_of_each_row(tmp_path: Path) -> None:
    params = G.init_params("ptrnet", 8, 0, 0.08, 1.0)
    weights.save(tmp_path / "w.npz", params)
    back = weights.load(tmp_path / "w.npz")
    assert back.keys() == params.keys()
    for k, v in params.items():
        if v.ndim < 2:
            assert np.array_equal(back[k], v.astype(np.float64))
            continue
        step = np.abs(v).max(axis=1, keepdims=True).astype(np.float64) / 127  # (rows, 1)
        assert np.all(np.abs(back[k] - v) <= step / 2 * (1 + 1e-5))
        assert not np.array_equal(back[k], v.astype(np.float64))  # it really was rounded


def test_an_all_zero_row_comes_back_as_zeros(tmp_path: Path) -> None:
    params = {"W": np.array([[0.0, 0.0, 0.0], [0.5, -1.0, 0.25]])}
    weights.save(tmp_path / "w.npz", params)
    back = weights.load(tmp_path / "w.npz")["W"]
    assert np.array_equal(back[0], [0.0, 0.0, 0.0]) and np.allclose(back[1], params["W"][1], atol=1 / 127)
