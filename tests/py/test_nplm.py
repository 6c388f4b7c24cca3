"""Tests of the nplm demo: Bengio et al.'s NPLM (ptrnet.prelude.nplm), its gradients, training, summary and handlers."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from checks import HANGUL, numeric_grads, rel_err

from ptrnet import api
from ptrnet.prelude import corpus as prelude_corpus
from ptrnet.prelude import nplm, trigram

# ---------------------------------------------------------------- NPLM


@pytest.mark.parametrize("direct", [True, False])
@pytest.mark.parametrize("decay", [0.0, 0.01])
def test_nplm_gradients_match_finite_differences(direct: bool, decay: float) -> None:
    rng = np.random.default_rng(3)
    params = nplm.init_params(7, nplm.NPLMConfig(direct=direct, hidden=5), rng)
    for p in params.values():
        p += rng.normal(0.0, 0.5, p.shape)  # biases away from 0 too
    ctx, target = rng.integers(0, 7, (9, 2)), rng.integers(0, 7, 9)
    assert ("W" in params) == direct
    _, grads = nplm.loss_and_grads(params, ctx, target, decay)
    num = numeric_grads(lambda: nplm.loss_and_grads(params, ctx, target, decay)[0], params)
    for name in params:
        assert rel_err(grads[name], num[name]) < 1e-5, name


def test_weight_decay_covers_weights_not_biases() -> None:
    rng = np.random.default_rng(0)
    params = nplm.init_params(5, nplm.NPLMConfig(), rng)
    ctx, target = rng.integers(0, 5, (4, 2)), rng.integers(0, 5, 4)
    base = nplm.loss_and_grads(params, ctx, target, 0.0)[0]
    penalty = sum(float(np.sum(params[k] ** 2)) for k in ("C", "H", "U", "W"))
    assert nplm.loss_and_grads(params, ctx, target, 0.1)[0] == pytest.approx(base + 0.1 * penalty, rel=1e-12)


def _reference_logp(params: nplm.Params, context: list[int], w: int) -> float:
    """log P(w | context) for one example, the paper's formula written out."""
    x = np.concatenate([params["C"][j] for j in context])
    y = params["b"] + params["U"].T @ np.tanh(params["d"] + params["H"].T @ x)
    if "W" in params:
        y = y + params["W"].T @ x
    return float(y[w] - math.log(sum(math.exp(v) for v in y)))


def _sentence_contexts(words: list[str], vocab: list[str]) -> list[tuple[list[int], int]]:
    """(context nearest first, target) for each predicted word of a sentence, </s> included."""
    ids = [vocab.index(w) for w in ["<s>", "<s>", *words, "</s>"]]
    return [([ids[t - 1], ids[t - 2]], ids[t]) for t in range(2, len(ids))]


def test_perplexity_and_sentence_probability_are_computed_independently() -> None:
    t = nplm.Trainer(nplm.NPLMConfig(seed=4))
    t.train(200)
    s = nplm.summary(t)
    data = prelude_corpus.corpus_data()["nplm"]
    vocab = data["vocab"]
    nll = [
        -_reference_logp(t.params, c, w) for sent in data["heldout"] for c, w in _sentence_contexts(sent.split(), vocab)
    ]
    assert s["perplexity"]["model"] == pytest.approx(math.exp(sum(nll) / len(nll)), rel=1e-10)
    lps = [_reference_logp(t.params, c, w) for c, w in _sentence_contexts(data["unseen"].split(), vocab)]
    assert s["sentence_logprobs"]["model"] == pytest.approx(lps, rel=1e-10)
    assert s["sentence_prob"]["model"] == pytest.approx(math.exp(sum(lps)), rel=1e-10)
    assert s["sentence_words"] == data["unseen"].split() + ["</s>"]
    tri = trigram.trigram()
    tri_lps = [math.log(tri.dist(*c)[w]) for c, w in _sentence_contexts(data["unseen"].split(), vocab)]
    assert s["sentence_logprobs"]["trigram"] == pytest.approx(tri_lps, rel=1e-12)


def test_the_untrained_network_is_the_seeds_initial_weights_and_guesses_about_uniformly() -> None:
    """The sentence view's second score: the same network before training, which gives every word about 1/V and
    so beats the trigram on the unseen sentence (the trigram backs off to a tiny share of the unigram)."""
    t = nplm.Trainer()
    t.reset(5, True)
    start = nplm.summary(t)
    assert start["sentence_logprobs"]["untrained"] == start["sentence_logprobs"]["model"]
    t.train(400)
    s = nplm.summary(t)
    data = prelude_corpus.corpus_data()["nplm"]
    vocab = data["vocab"]
    initial = nplm.init_params(len(vocab), nplm.NPLMConfig(seed=5), np.random.default_rng(5))
    lps = [_reference_logp(initial, c, w) for c, w in _sentence_contexts(data["unseen"].split(), vocab)]
    assert s["sentence_logprobs"]["untrained"] == pytest.approx(lps, rel=1e-10)
    assert s["sentence_logprob_sum"]["untrained"] == pytest.approx(sum(lps), rel=1e-10)
    assert s["sentence_logprobs"]["model"] != pytest.approx(lps, rel=1e-3)
    assert lps == pytest.approx([-math.log(len(vocab))] * len(lps), abs=0.25)
    assert s["sentence_logprob_sum"]["untrained"] > s["sentence_logprob_sum"]["trigram"]


def test_same_seed_is_bit_identical() -> None:
    a, b, c = nplm.Trainer(), nplm.Trainer(), nplm.Trainer()
    a.reset(7, True)
    b.reset(7, True)
    c.reset(8, True)
    a.train(300)
    b.train(100)
    b.train(200)
    c.train(300)
    assert all(np.array_equal(a.params[k], b.params[k]) for k in a.params)
    assert not np.array_equal(a.params["C"], c.params["C"])
    assert a.lr() == pytest.approx(a.config.lr0 / (1.0 + a.config.lr_decay * 300))


@pytest.mark.parametrize("direct", [True, False])
def test_trained_model_beats_the_trigram(direct: bool) -> None:
    t = nplm.Trainer()
    t.reset(0, direct)
    t.train(5000)
    s = nplm.summary(t)
    assert s["perplexity"]["model"] < s["perplexity"]["trigram"]
    assert s["sentence_prob"]["model"] > 1000 * s["sentence_prob"]["trigram"]


def test_nplm_handlers() -> None:
    s = api.dispatch("nplm", "reset", {"seed": 3, "direct": False})
    json.dumps(s)
    assert s["iteration"] == 0 and s["loss"] is None and s["direct"] is False and s["seed"] == 3
    vocab = prelude_corpus.load_corpus().vocab
    assert list(s["vectors"]) == vocab and all(len(v) == 2 for v in s["vectors"].values())
    assert set(s["roles"]) == set(vocab) and s["roles"]["cat"] == "animal" and s["roles"]["room"] == "place"
    assert s["sentence"] == "a dog was running in a room"
    assert len(s["sentence_logprobs"]["model"]) == len(s["sentence_logprobs"]["trigram"]) == 8
    s = api.dispatch("nplm", "train", {"iterations": 50})
    json.dumps(s)
    assert s["iteration"] == 50 and isinstance(s["loss"], float) and s["direct"] is False
    assert api.dispatch("nplm", "view", {}) == s


@pytest.mark.parametrize(
    ("fn", "bad"),
    [
        ("reset", {"seed": -1}),
        ("reset", {"seed": 1.5}),
        ("reset", {"direct": "yes"}),
        ("train", {"iterations": 0}),
        ("train", {"iterations": 2001}),
        ("train", {"iterations": "10"}),
    ],
)
def test_nplm_rejects_bad_params(fn: str, bad: dict) -> None:
    with pytest.raises(api.InputError) as err:
        api.dispatch("nplm", fn, bad)
    assert HANGUL.search(str(err.value))
