"""Greedy decoding and beam search (ptrnet.pointer.decoding) against brute force, greedy and the decoding rules."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from ptrnet.learn import grad as G
from ptrnet.pointer import decoding
from ptrnet.pointer import lstm_ptr as L
from ptrnet.pointer.slot_rules import blocked_slots


def _random_model(seed: int, hidden: int = 8, scale: float = 0.8) -> L.Params:
    """A float64 Ptr-Net with large random weights, so that its distributions are far from uniform."""
    return G.init_params("ptrnet", hidden, seed, scale=scale, dtype=np.float64)


def _sequence_logp(params: L.Params, x: np.ndarray, seq: list[int], rule: str) -> float:
    """Log-probability of a whole choice sequence (ending in ⇐) by the teacher-forced step functions."""
    valid = np.ones((1, x.shape[1]), dtype=bool)
    keys, h, c = L.encode(params, x, valid)
    inputs = L.decoder_inputs(params, x)
    chosen = np.zeros((1, x.shape[1] + 1), dtype=bool)
    total, prev = 0.0, None
    for t, j in enumerate(seq):
        first = np.array([seq[0]]) if t else None
        h, c = L.decoder_state(params, inputs, prev, h, c)
        logp = L.step_scores(params, keys, h, blocked_slots(rule, valid, chosen, first, t))
        total += float(logp[0, j])
        chosen[0, j] |= j > 0
        prev = np.array([j])
    return total


@pytest.mark.parametrize("rule", ["free", "mask", "tour"])
def test_beam_width_one_is_greedy(rule: str) -> None:
    params = _random_model(0)
    x = np.random.default_rng(1).random((40, 6, 2))
    greedy, probs = decoding.greedy(params, x, rule=rule, max_steps=14)
    beam, logp = decoding.beam_search(params, x, 1, rule=rule, max_steps=14)
    assert np.array_equal(beam, greedy)
    picked = np.where(greedy >= 0, np.take_along_axis(probs, np.maximum(greedy, 0)[..., None], axis=2)[..., 0], 1.0)
    ended = (greedy == 0).any(axis=1)
    assert np.allclose(logp[ended], np.log(picked).sum(axis=1)[ended], atol=1e-12)


@pytest.mark.parametrize(("n", "seed"), [(2, 0), (3, 1), (3, 2), (4, 3)])
def test_a_wide_beam_finds_the_most_probable_sequence_of_brute_force_enumeration(n: int, seed: int) -> None:
    params = _random_model(seed, scale=1.5)
    x = np.random.default_rng(seed + 10).random((1, n, 2))
    max_steps = 4
    finished = [[*body, 0] for k in range(max_steps) for body in itertools.product(range(1, n + 1), repeat=k)]
    scores = {tuple(s): _sequence_logp(params, x, s, "free") for s in finished}
    best = max(scores, key=scores.get)
    width = sum(n**k for k in range(max_steps + 1))  # every prefix fits: the search is exhaustive
    choices, logp = decoding.beam_search(params, x, width, max_steps=max_steps)
    got = tuple(j for j in choices[0].tolist() if j >= 0)
    assert got == best
    assert logp[0] == pytest.approx(scores[best], abs=1e-12)


@pytest.mark.parametrize("width", [1, 3, 8])
def test_the_tour_rule_always_returns_a_closed_permutation(width: int) -> None:
    for seed, n in enumerate((1, 2, 3, 5, 8, 12)):
        params = _random_model(seed, scale=2.0)
        x = np.random.default_rng(seed).random((16, n, 2))
        choices, logp = decoding.beam_search(params, x, width, rule="tour", max_steps=n + 2)
        for seq in decoding.sequences(params, choices):
            assert seq[0] == seq[-1] == 1 and sorted(seq[:-1]) == list(range(1, n + 1))
        assert np.isfinite(logp).all()


def test_beam_search_keeps_padding_out() -> None:
    params = _random_model(4, scale=2.0)
    x = np.random.default_rng(4).random((6, 7, 2))
    valid = np.arange(7)[None, :] < np.array([3, 4, 5, 6, 7, 7])[:, None]
    for rule in ("free", "tour"):
        choices, _ = decoding.beam_search(params, x, 5, valid=valid, rule=rule)
        for row, ok in zip(choices, valid, strict=True):
            assert all(j <= ok.sum() for j in row.tolist())


def test_wider_beams_never_find_a_less_probable_sequence_on_these_inputs() -> None:
    params = _random_model(5, scale=1.5)
    x = np.random.default_rng(5).random((64, 5, 2))
    scores = [decoding.beam_search(params, x, w, max_steps=8)[1] for w in (1, 4, 16)]
    assert (scores[1] >= scores[0] - 1e-12).mean() > 0.9 and scores[1].mean() > scores[0].mean()
    assert scores[2].mean() >= scores[1].mean()


@pytest.mark.parametrize(("n", "seed"), [(4, 0), (5, 1)])
def test_wide_enough_beams_hold_every_valid_tour_with_its_teacher_forced_probability(n: int, seed: int) -> None:
    params = _random_model(seed, scale=1.5)
    x = np.random.default_rng(seed + 20).random((1, n, 2))
    tours = [[1, *p, 1, 0] for p in itertools.permutations(range(2, n + 1))]
    expected = {tuple(s): _sequence_logp(params, x, s, "tour") for s in tours}
    choices, logp, finished = decoding.beams(params, x, len(tours) + 3, rule="tour", max_steps=n + 2)
    assert finished[0].sum() == len(tours) and not np.isfinite(logp[0, len(tours) :]).any()
    got = {tuple(row[row >= 0].tolist()): s for row, s, ok in zip(choices[0], logp[0], finished[0], strict=True) if ok}
    assert got.keys() == expected.keys()
    assert all(got[s] == pytest.approx(expected[s], abs=1e-12) for s in got)
    assert np.all(np.diff(logp[0, finished[0]]) <= 0)  # most probable first


@pytest.mark.parametrize("rule", ["free", "tour"])
def test_beam_search_answers_with_the_most_probable_finished_beam(rule: str) -> None:
    params = _random_model(6, scale=1.5)
    x = np.random.default_rng(6).random((32, 6, 2))
    choices, logp = decoding.beam_search(params, x, 5, rule=rule, max_steps=14)
    every, scores, finished = decoding.beams(params, x, 5, rule=rule, max_steps=14)
    best = np.where(finished, scores, -np.inf).argmax(axis=1)
    for b in range(len(x)):
        assert logp[b] == pytest.approx(scores[b, best[b]], abs=1e-12)
        row = every[b, best[b]]
        assert choices[b][choices[b] >= 0].tolist() == row[row >= 0].tolist()


def _plain_beams(params: L.Params, x: np.ndarray, valid: np.ndarray, width: int, rule: str, steps: int) -> list:
    """One example's beam search with no shortcut: every beam runs the whole model at every step, candidates in
    (beam, slot) order, sorted stably. Finite-score beams as (choices, score), most probable first."""
    keys, h0, c0 = L.encode(params, x, valid)
    inputs = L.decoder_inputs(params, x)
    beams = [([], 0.0, h0, c0)]  # (choices, score, h, c)
    for t in range(steps):
        cands = []
        for seq, score, h, c in beams:
            if seq and seq[-1] <= 0:  # reached ⇐: stays, at no cost
                cands.append((score, seq + [-1], h, c))
                continue
            chosen = np.zeros((1, x.shape[1] + 1), dtype=bool)
            chosen[0, [j for j in seq if j > 0]] = True
            first = np.array(seq[:1]) if t else None
            prev = np.array(seq[-1:]) if t else None
            hn, cn = L.decoder_state(params, inputs, prev, h, c)
            logp = L.step_scores(params, keys, hn, blocked_slots(rule, valid, chosen, first, t))
            cands += [(score + float(lp), seq + [j], hn, cn) for j, lp in enumerate(logp[0]) if np.isfinite(lp)]
        beams = [(s, sc, h, c) for sc, s, h, c in sorted(cands, key=lambda cand: -cand[0])[:width]]
        if all(s[-1] <= 0 for s, *_ in beams):
            break
    return [(s, sc) for s, sc, *_ in beams]


@pytest.mark.parametrize("rule", ["free", "mask", "tour"])
def test_the_search_keeps_the_beams_of_a_plain_search_that_runs_the_model_on_every_beam_at_every_step(
    rule: str,
) -> None:
    # the search skips forced steps (one open slot) and rows whose score is -inf or that reached ⇐
    params = _random_model(7, scale=1.5)
    rng = np.random.default_rng(7)
    x = rng.random((6, 6, 2))
    valid = np.arange(6)[None, :] < np.array([6, 3, 5, 1, 6, 4])[:, None]  # (6, 6): mixed sizes, padded
    for width in (3, 8):
        choices, logp, _ = decoding.beams(params, x, width, valid=valid, rule=rule, max_steps=14)
        for b in range(len(x)):
            plain = _plain_beams(params, x[b : b + 1], valid[b : b + 1], width, rule, 14)
            got = [(row[row >= 0].tolist(), s) for row, s in zip(choices[b], logp[b], strict=True) if np.isfinite(s)]
            assert [s for s, _ in got] == [[j for j in s if j >= 0] for s, _ in plain]
            assert [s for _, s in got] == pytest.approx([s for _, s in plain], abs=1e-12)


@pytest.mark.parametrize("model", ["ptrnet", "seq2seq"])
def test_the_decoders_input_table_holds_each_readable_choices_input_times_the_input_weights(model: str) -> None:
    params = G.init_params(model, 8, 3, scale=0.8, dtype=np.float64)
    x = np.random.default_rng(3).random((2, 5, 2))
    table = L.decoder_inputs(params, x)  # (2, rows, 4H): every choice, then the start
    for j in range(table.shape[1]):
        prev = None if j == table.shape[1] - 1 else np.full(2, j)
        plain = L.decoder_input(params, x, prev) @ params["dec_Wx"] + params["dec_b"]  # one-hot / coordinates
        assert np.abs(table[:, j] - plain).max() < 1e-12, j


def test_rows_that_share_a_state_share_its_product_and_get_the_same_step_as_alone() -> None:
    params = _random_model(5)
    x = np.random.default_rng(5).random((6, 4, 2))
    keys, h, c = L.encode(params, x[:2], np.ones((2, 4), dtype=bool))
    back = np.array([0, 1, 1, 0, 1, 0])  # six beams extending two: rows 0 and 1 hold the distinct states
    inputs, prev = L.decoder_inputs(params, x[back]), np.array([1, 2, 3, 4, 0, 2])
    shared = L.decoder_state(params, inputs, prev, h[back], c[back], twins=(np.array([0, 1]), back))
    alone = L.decoder_state(params, inputs, prev, h[back], c[back])
    assert all(np.abs(a - b).max() < 1e-12 for a, b in zip(shared, alone, strict=True))
