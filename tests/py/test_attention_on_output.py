"""How much of the attention seq2seq's attention lies on the point it emits (ptrnet.pointer.attention): the
evaluation's test-set measure against a brute-force count, one set and one step at a time, on a tiny random model;
the kept weights of a run measured step by step; and the facts the article states from them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ptrnet.pointer import attention, decoding, tasks, weights
from ptrnet.pointer import lstm_ptr as L
from training.paths import RECORDS
from training.reports import evaluation, facts, over_training

MAX_N = 10  # the tiny model's output layer names points 1..10, like the shipped one


def _tiny_attention_model(seed: int, hidden: int = 4, scale: float = 1.5) -> L.Params:
    """A float64 attention seq2seq with large random weights: peaked attention, and tokens for absent points."""
    rng = np.random.default_rng(seed)
    H, V = hidden, MAX_N + 2
    shapes = {
        "enc_Wx": (2, 4 * H),
        "enc_Wh": (H, 4 * H),
        "enc_b": (4 * H,),
        "dec_Wx": (V, 4 * H),
        "dec_Wh": (H, 4 * H),
        "dec_b": (4 * H,),
        "att_W1": (H, H),
        "att_W2": (H, H),
        "att_v": (H,),
        "out_W": (2 * H, V),
        "out_b": (V,),
    }
    return {k: rng.uniform(-scale, scale, s) for k, s in shapes.items()}


def _brute_force(params: L.Params, examples: list) -> dict[str, float]:
    """One set at a time, one step at a time: decode greedily with the step functions, and count by hand."""
    go, stop = L.go_id(params), L.stop_id(params)
    steps, peak, mass, chance = 0, 0, 0.0, 0.0
    for points, _ in examples:
        x = np.asarray(points)[None]
        n = x.shape[1]
        keys, h, c = L.encode(params, x, np.ones((1, n), dtype=bool))
        inputs, prev = L.decoder_inputs(params, x), None
        for _ in range(tasks.SPECS["hull"].max_steps(n)):
            h, c = L.decoder_state(params, inputs, prev, h, c)
            logp = L.step_scores(params, keys, h, None)
            weights_now = [float(w) for w in L.attention_weights(params, keys, h)[0]]
            token = int(np.argmax(logp[0]))
            if token < go:  # a point's token: 1-based point token + 1, which the set may lack
                steps += 1
                peak += max(range(n), key=lambda j: weights_now[j]) == token
                mass += weights_now[token] if token < n else 0.0
                chance += 1 / n if token < n else 0.0
            if token == stop:
                break
            prev = np.array([token])
    return {"peak": peak / steps, "mass": mass / steps, "chance": chance / steps}


@pytest.mark.parametrize(("n", "seed"), [(5, 0), (5, 1), (7, 2), (10, 3)])
def test_the_test_set_measure_is_a_brute_force_count_over_every_step(n: int, seed: int) -> None:
    params = _tiny_attention_model(seed)
    points, labels = tasks.generate("hull", n, 40, seed)
    examples = list(zip(points, labels, strict=True))
    measured = evaluation.attention_on_output(params, examples)
    assert measured == pytest.approx(_brute_force(params, examples), abs=1e-12)


def test_a_random_model_emits_absent_points_which_hold_no_attention_and_no_chance() -> None:
    """The tiny model at n = 5 names points 6..10 at times: the measure must cover that case."""
    params = _tiny_attention_model(1)
    x = np.stack(tasks.generate("hull", 5, 40, 1)[0])
    choices, _, weights_now = decoding.greedy_attention(params, x, tasks.SPECS["hull"].max_steps(5))
    steps = attention.on_output(weights_now, choices, L.go_id(params))
    absent = steps["named"] & (choices >= 5)
    assert absent.any()
    assert (steps["mass"][absent] == 0).all() and (steps["chance"][absent] == 0).all()
    assert not steps["peak"][absent].any()


def test_steps_that_emit_no_point_do_not_count() -> None:
    go = MAX_N
    weights_now = np.array([[[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.2, 0.5, 0.3], [1 / 3, 1 / 3, 1 / 3]]])
    choices = np.array([[0, 1, go + 1, -1]])  # P1, P2, ⇐, after the end
    steps = attention.on_output(weights_now, choices, go)
    assert steps["named"].tolist() == [[True, True, False, False]]
    assert steps["mass"][0, :2].tolist() == [0.7, 0.3] and steps["peak"][0, :2].tolist() == [True, False]
    assert attention.summary(attention.sums(weights_now, choices, go)) == pytest.approx(
        {"peak": 0.5, "mass": 0.5, "chance": 1 / 3}
    )


def test_kept_weights_are_measured_in_step_order_like_the_shipped_rows(tmp_path) -> None:
    examples = {n: list(zip(*tasks.generate("hull", n, 20, 50 + n), strict=True)) for n in over_training.SIZES}
    models = {1000: _tiny_attention_model(4), 0: _tiny_attention_model(5)}
    for step, params in models.items():
        weights.save(tmp_path / f"hull_attention_{step:07d}.npz", params)
    run = {"config": {"seed": 4}, "keep_every": 1000, "from": "uniform init", "history": []}
    (tmp_path / "run.json").write_text(json.dumps(run))
    run = over_training.measure(tmp_path, {n: (sets, f"set {n}") for n, sets in examples.items()})
    assert [row["step"] for row in run["rows"]] == [0, 1000]
    assert run["test_sets"] == {str(n): f"set {n}" for n in over_training.SIZES}
    for row in run["rows"]:
        kept = weights.load(tmp_path / f"hull_attention_{row['step']:07d}.npz")  # int8, as kept
        for n, sets in examples.items():
            expected = evaluation.attention_on_output(kept, sets)
            expected["accuracy"] = evaluation.measure(kept, "hull", sets, 1)["accuracy"]
            assert row[f"n{n}"] == expected


def test_a_runs_log_matches_another_up_to_the_first_row_that_differs_wall_times_aside() -> None:
    shipped = [{"step": 1000, "loss": 1.1, "wall": 24.0}, {"step": 2000, "loss": 1.0, "wall": 48.0}]
    assert over_training.same_log_until([{"step": 1000, "loss": 1.1, "wall": 90.0}], shipped) == 1000
    assert over_training.same_log_until([{**shipped[0]}, {"step": 2000, "loss": 0.9, "wall": 48.0}], shipped) == 1000
    assert over_training.same_log_until([{"step": 1000, "loss": 1.2, "wall": 24.0}], shipped) == 0


def test_the_article_states_the_results_jsons_attention_measures() -> None:
    stated = facts.page_facts()
    results = json.loads((RECORDS / "hull_results.json").read_text())
    for n in (5, 10):
        row = results["ours"][f"attention_{n}"]
        for measure in ("peak", "mass", "chance"):
            assert stated[f"hull.attention.{measure}.n{n}"] == f"{100 * row[f'attention_{measure}']:.1f}\u00a0%"
    assert stated["paper.hull.attention.accuracy.n50"] == "38.9\u00a0%"
    assert stated["paper.hull.seq2seq_50.accuracy.n50"] == "1.9\u00a0%"
    last = results["attention_over_training"]["rows"][-1]
    assert stated["hull.attention.short_run.steps"] == f"{last['step']:,}"
    assert stated["hull.attention.short_run.mass.n10"] == f"{100 * last['n10']['mass']:.1f}\u00a0%"
