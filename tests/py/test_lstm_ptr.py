"""Tests of the LSTM hull models (issue 6): gradients, inference, training, shipped weights, handlers."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from ptrnet import api, hull_data
from ptrnet import lstm_ptr as L
from ptrnet import train as T
from ptrnet.notation import hull_sequence

HANGUL = re.compile("[가-힣]")


@pytest.fixture
def card() -> dict:
    """The packaged model card."""
    return json.loads(resources.files("ptrnet").joinpath("data/hull_model_card.json").read_text("utf-8"))


def _mixed_batch(model: str, seed: int) -> L.Batch:
    """Three examples of different sizes (seq2seq: all n = 5) in one padded float64 batch."""
    rng = np.random.default_rng(seed)
    sizes = (5, 5, 5) if model == "seq2seq" else (4, 7, 5)
    points = [rng.random((n, 2)) for n in sizes]
    return L.make_batch(points, [hull_sequence(p) for p in points], dtype=np.float64)


# ---------------------------------------------------------------- gradients


@pytest.mark.parametrize(("model", "mask"), [("ptrnet", False), ("ptrnet", True), ("seq2seq", False)])
def test_gradients_match_central_differences(model: str, mask: bool) -> None:
    params = L.init_params(model, 4, seed=1, scale=0.5, dtype=np.float64)
    batch = _mixed_batch(model, 2)
    assert not batch.valid.all() or model == "seq2seq"  # padding in the encoder
    assert not batch.live.all()  # padding in the decoder
    _, grads = L.loss_and_grads(params, batch, mask)
    eps = 1e-5
    for name, p in params.items():
        flat, num = p.reshape(-1), np.zeros(p.size)
        for i in range(p.size):
            old = flat[i]
            flat[i] = old + eps
            up = L.forward(params, batch, mask)[0]
            flat[i] = old - eps
            down = L.forward(params, batch, mask)[0]
            flat[i] = old
            num[i] = (up - down) / (2 * eps)
        ana = grads[name].reshape(-1)
        assert np.linalg.norm(ana) > 0, name
        assert np.linalg.norm(ana - num) / (np.linalg.norm(ana) + np.linalg.norm(num)) < 1e-5, name


def test_padding_leaves_each_example_unchanged() -> None:
    params = L.init_params("ptrnet", 8, seed=3, scale=0.3, dtype=np.float64)
    batch = _mixed_batch("ptrnet", 4)
    _, probs, _ = L.forward(params, batch)
    for b in range(3):
        n, t = int(batch.valid[b].sum()), int(batch.live[b].sum())
        alone = L.Batch(batch.x[b : b + 1, :n], batch.valid[b : b + 1, :n], batch.target[b : b + 1, :t],
                        batch.live[b : b + 1, :t])
        _, p_alone, _ = L.forward(params, alone)
        assert np.allclose(probs[b, :t, : n + 1], p_alone[0], atol=1e-12)
        assert np.all(probs[b, :t, n + 1 :] == 0.0)  # padded slots are never pointed at


# ---------------------------------------------------------------- inference = training forward


@pytest.mark.parametrize("mask", [False, True])
def test_ptrnet_decoding_equals_the_training_forward_bit_for_bit(mask: bool) -> None:
    params = L.shipped("ptrnet")
    x = np.random.default_rng(5).random((16, 8, 2))
    choices, probs = L.decode(params, x, mask=mask)
    live = choices >= 0
    batch = L.Batch(x, np.ones(x.shape[:2], dtype=bool), np.where(live, choices, 0), live)
    _, forward_probs, _ = L.forward(params, batch, mask)
    assert np.array_equal(forward_probs[live], probs[live])


def test_seq2seq_decoding_equals_the_training_forward_bit_for_bit() -> None:
    params = L.shipped("seq2seq")
    x = np.random.default_rng(6).random((16, 5, 2))
    choices, probs = L.decode(params, x)
    live = choices >= 0
    target = np.where(live & (choices < L.S2S_N), choices + 1, 0)  # tokens 1..5 as 1-based indices, ⇐ as 0
    assert not (live & (choices == L.GO)).any()
    _, forward_probs, _ = L.forward(params, L.Batch(x, np.ones((16, 5), dtype=bool), target, live))
    assert np.array_equal(forward_probs[live], probs[live])


def test_mask_blocks_chosen_points_except_the_first() -> None:
    params = L.init_params("ptrnet", 8, seed=0, scale=0.5, dtype=np.float64)
    choices, probs = L.decode(params, np.random.default_rng(1).random((32, 6, 2)), mask=True)
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
    toy = hull_data.generate(5, 32, seed=seed)
    batch = L.make_batch([p for p, _ in toy], [s for _, s in toy])
    params = L.init_params(model, 16, seed)
    opt = L.Adam(params)
    losses = []
    for _ in range(150):
        loss, grads = L.loss_and_grads(params, batch)
        assert opt.step(params, grads, 1e-2) > 0
        losses.append(loss)
    assert np.mean(losses[-10:]) < 0.8 * np.mean(losses[:10])


def test_interrupted_and_resumed_training_equals_one_run(tmp_path: Path) -> None:
    config = T.TrainConfig(model="seq2seq", hidden=8, batch=16, steps=12, val_every=6, ckpt_every=4)
    T.train(config, out_dir=tmp_path / "one", cache=tmp_path / "c1", progress=False)
    part = T.train(config, out_dir=tmp_path / "two", cache=tmp_path / "c2", progress=False, until=7)
    assert part["stopped_at"] == 7 and not (tmp_path / "two" / "hull_seq2seq.npz").exists()
    T.train(config, resume=True, out_dir=tmp_path / "two", cache=tmp_path / "c2", progress=False)
    one = L.load_params(tmp_path / "one" / "hull_seq2seq.npz")
    two = L.load_params(tmp_path / "two" / "hull_seq2seq.npz")
    assert all(np.array_equal(one[k], two[k]) for k in one)


def test_data_lines_round_trip_and_match_the_official_file(data_dir: Path) -> None:
    lines = (data_dir / "convex_hull_5_test.txt").read_text().splitlines()[:200]
    for line in lines:
        points, seq = hull_data.parse_line(line)
        assert hull_data.format_line(points, seq) == line.rstrip()
        assert hull_sequence(points) == seq
    gen = hull_data.generate(7, 20, seed=3)
    assert [hull_data.parse_line(hull_data.format_line(p, s))[1] for p, s in gen] == [s for _, s in gen]
    assert all(np.array_equal(hull_data.parse_line(hull_data.format_line(p, s))[0], p) for p, s in gen)


def test_area_coverage_counts_only_simple_polygons() -> None:
    square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.5, 0.9]])
    truth = [1, 2, 3, 4, 1]
    examples = [(square, truth)] * 4
    outputs = [truth, [1, 2, 3, 5, 4, 1], [1, 3, 2, 4, 1], [1, 2, 1]]  # exact, inside vertex, bow-tie, degenerate
    res = T.area_coverage(examples, outputs)
    assert res["not_simple"] == 0.5 and res["area_fail"]
    assert res["area_coverage"] == pytest.approx((1.0 + (1.0 - 0.5 * 1.0 * 0.1)) / 2)


# ---------------------------------------------------------------- shipped weights and model card


def test_saved_weights_come_back_within_half_an_int8_step_of_each_row(tmp_path: Path) -> None:
    params = L.init_params("ptrnet", 8, 0, 0.08, 1.0)
    L.save_params(tmp_path / "w.npz", params)
    back = L.load_params(tmp_path / "w.npz")
    assert back.keys() == params.keys()
    for k, v in params.items():
        if v.ndim < 2:
            assert np.array_equal(back[k], v.astype(np.float64))
            continue
        step = np.abs(v).max(axis=1, keepdims=True).astype(np.float64) / 127  # (rows, 1)
        assert np.all(np.abs(back[k] - v) <= step / 2 * (1 + 1e-5))
        assert not np.array_equal(back[k], v.astype(np.float64))  # it really was rounded


def test_shipped_weights_are_small_int8_matrices_and_described(card: dict) -> None:
    for model in ("ptrnet", "seq2seq"):
        data = resources.files("ptrnet").joinpath(f"data/hull_{model}.npz").read_bytes()
        assert len(data) <= 256 * 1024
        with np.load(__import__("io").BytesIO(data)) as f:
            matrices = [k for k in f.files if f[k].ndim == 2 and not k.endswith(L.SCALE)]
            assert matrices and all(f[k].dtype == np.int8 and f[k + L.SCALE].shape == (f[k].shape[0], 1) for k in matrices)
            assert all(f[k].dtype == np.float32 for k in f.files if f[k].ndim < 2 or k.endswith(L.SCALE))
        assert card["models"][model]["bytes"] == len(data)
        assert card["models"][model]["wall_seconds"] <= 3600


def test_shipped_ptrnet_reproduces_the_model_card_on_the_official_set(card: dict, read_data) -> None:
    subset = card["test_subset"]
    examples = [(np.array(p), s) for p, s in read_data("convex_hull_5_test.txt")[: subset["first_lines"]]]
    acc, _ = T.accuracy(L.shipped("ptrnet"), examples)
    assert acc == subset["ptrnet_accuracy"]


# ---------------------------------------------------------------- handlers


def test_hull_steps_real_is_a_valid_greedy_decoding(reference: dict) -> None:
    for mask in (False, True):
        res = api.dispatch("hull-steps", "real", {"points": reference["points"], "mask": mask})
        n = len(reference["points"])
        assert res["hull"] == reference["hull"] and res["model"]["illustrative"] is False
        assert 1 <= len(res["steps"]) <= 2 * n + 2
        prev, chosen = 0, []
        for step in res["steps"]:
            p = np.array(step["probs"])
            assert len(p) == n + 1 and abs(p.sum() - 1.0) < 1e-9 and (p >= 0).all()
            assert step["input"] == prev
            choice = step["choice"]
            assert (choice if choice > 0 else n + 1) - 1 == int(p.argmax())
            if mask and chosen:
                assert all(p[j - 1] == 0.0 for j in set(chosen) - {chosen[0], 0})
            chosen.append(choice)
            prev = choice
        ended = res["steps"][-1]["choice"] == 0
        assert res["ended"] == ended
        assert res["output"] == (chosen[:-1] if ended else chosen)


def test_hull_steps_real_solves_the_reference_example(reference: dict) -> None:
    res = api.dispatch("hull-steps", "real", {"points": reference["points"]})
    assert res["output"] == reference["hull"] and res["ended"]


def test_slots_real_answers_with_both_models_at_five_points() -> None:
    points = [[0.1, 0.1], [0.9, 0.2], [0.5, 0.5], [0.8, 0.9], [0.2, 0.8]]
    res = api.dispatch("slots", "real", {"points": points})
    assert res["hull"] == [1, 2, 4, 5, 1]
    assert res["ptrnet"] == res["hull"]
    assert all(t in L.VOCAB for t in res["seq2seq"]) and res["seq2seq_reason"] is None
    seven = api.dispatch("slots", "real", {"points": [*points, [0.3, 0.3], [0.6, 0.1]]})
    assert seven["seq2seq"] is None and HANGUL.search(seven["seq2seq_reason"])
    assert all(1 <= j <= 7 for j in seven["ptrnet"])


@pytest.mark.parametrize(
    ("demo", "params"),
    [
        ("hull-steps", {}),
        ("hull-steps", {"points": []}),
        ("hull-steps", {"points": [[0.5, 0.5]] * 13}),
        ("hull-steps", {"points": [[0.5, 0.5]], "mask": "yes"}),
        ("hull-steps", {"points": [[0.5, 1.5]]}),
        ("slots", {"points": [[0.1, 0.1], [0.2, 0.2]]}),
        ("slots", {"points": [[0.1, 0.1], [0.2, 0.2], [0.3, float("nan")]]}),
    ],
)
def test_real_handlers_reject_bad_input_in_korean(demo: str, params: dict) -> None:
    with pytest.raises(api.InputError) as err:
        api.dispatch(demo, "real", params)
    assert HANGUL.search(str(err.value))
