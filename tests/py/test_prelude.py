"""Tests of the prelude demos: the LSTM LM's generation step (lm-shapes) and Bengio et al.'s NPLM (nplm)."""

from __future__ import annotations

import json
import math
from itertools import pairwise

import numpy as np
import pytest

from ptrnet import api, lm, lstm, nplm

# ---------------------------------------------------------------- references


def _sigmoid(z: np.ndarray) -> np.ndarray:
    """1 / (1 + e^-z), written out."""
    return 1.0 / (1.0 + np.exp(-z))


def _random_lm(V: int, D: int, H: int, seed: int) -> lm.Params:
    """LSTM LM weights drawn as N(0, 0.5^2)."""
    rng = np.random.default_rng(seed)
    shapes = {"E": (V, D), "W_x": (D, 4 * H), "W_h": (H, 4 * H), "b": (4 * H,), "W_s": (H, V), "b_s": (V,)}
    return {k: rng.normal(0.0, 0.5, s) for k, s in shapes.items()}


def _rel_err(a: np.ndarray, b: np.ndarray) -> float:
    """|a - b| / (|a| + |b|) in the Euclidean norm."""
    return float(np.linalg.norm(a - b) / (np.linalg.norm(a) + np.linalg.norm(b)))


def _numeric_grads(loss, params: dict[str, np.ndarray], h: float = 1e-6) -> dict[str, np.ndarray]:
    """Central finite differences of loss() for every entry of every parameter."""
    out = {}
    for name, p in params.items():
        g = np.zeros_like(p)
        for idx in np.ndindex(p.shape):
            old = p[idx]
            p[idx] = old + h
            up = loss()
            p[idx] = old - h
            down = loss()
            p[idx] = old
            g[idx] = (up - down) / (2 * h)
        out[name] = g
    return out


def _hangul(text: str) -> bool:
    """Whether text contains Korean syllables."""
    return any("\uac00" <= ch <= "\ud7a3" for ch in text)


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
    _, grads = lm.loss_and_grads(params, ids, mask)
    num = _numeric_grads(lambda: lm.loss_and_grads(params, ids, mask)[0], params)
    for name in lm.PARAM_NAMES:
        assert _rel_err(grads[name], num[name]) < 1e-5, name


def test_short_training_is_seeded_and_lowers_the_loss() -> None:
    config = lm.LMConfig(iterations=30)
    a, losses = lm.train(config)
    b, _ = lm.train(config)
    assert all(np.array_equal(a[k], b[k]) for k in lm.PARAM_NAMES)
    assert losses[-1] < 0.8 * losses[0]


# ---------------------------------------------------------------- the shipped LM and the lm-shapes handler


def _step(tokens: list[int], **kw: object) -> dict:
    """The lm-shapes handler, sampling at temperature 1 with seed 0 unless told otherwise."""
    return api.dispatch("lm-shapes", "step", {"tokens": tokens, "mode": "sample", "temperature": 1.0, "seed": 0} | kw)


def test_lm_shapes_contract() -> None:
    vocab, params = lm.load()
    r = _step([0])
    json.dumps(r)
    V = len(vocab)
    D, H = params["E"].shape[1], params["W_h"].shape[0]
    assert 30 <= V <= 40 and (D, H) == (8, 16) and vocab[0] == "<s>" and "</s>" in vocab
    assert r["vocab"] == vocab and r["dims"] == {"N": 1, "D": D, "H": H, "V": V}
    assert r["step"] == 1 and r["input"] == {"id": 0, "word": "<s>"}
    want = {"x": [1, D], "h_prev": [1, H], "c_prev": [1, H], "A": [1, 4 * H], "s": [1, V], "p": [1, V]}
    want |= {k: [1, H] for k in ("f", "g", "i", "o", "c", "h")}
    for name, shape in want.items():
        t = r["tensors"][name]
        assert t["shape"] == shape == r["shapes"][name]
        assert [len(t["values"]), len(t["values"][0])] == shape
    assert r["shapes"] == want | {"E": [V, D], "W_x": [D, 4 * H], "W_h": [H, 4 * H], "W_s": [H, V], "p_flat": [V]}
    assert len(r["probs"]) == V and math.isclose(sum(r["probs"]), 1.0, rel_tol=1e-12)
    assert r["probs"] == r["tensors"]["p"]["values"][0]
    assert r["tensors"]["h_prev"]["values"] == [[0.0] * H]
    assert r["token"]["word"] == vocab[r["token"]["id"]]


def _sentence(seed: int, mode: str = "sample", temperature: float = 1.0) -> list[str]:
    """Generate with the handler until done."""
    tokens = [0]
    while True:
        r = _step(tokens, seed=seed, mode=mode, temperature=temperature)
        tokens.append(r["token"]["id"])
        assert r["step"] == len(tokens) - 1
        if r["done"]:
            return [r["vocab"][t] for t in tokens]


def test_sampling_is_reproducible_per_seed() -> None:
    first = [_sentence(seed) for seed in range(6)]
    assert first == [_sentence(seed) for seed in range(6)]
    assert len({" ".join(s) for s in first}) > 1
    assert all(s[-1] == "</s>" and len(s) <= lm.MAX_TOKENS for s in first)


def test_greedy_takes_the_argmax_and_ignores_the_seed() -> None:
    tokens = [0, 2]
    r = _step(tokens, mode="greedy", seed=5)
    assert r["token"]["id"] == int(np.argmax(r["probs"]))
    assert _sentence(1, "greedy") == _sentence(9, "greedy")


def test_length_cap_ends_the_sentence() -> None:
    vocab, _ = lm.load()
    the = vocab.index("the")
    assert _step([0] + [the] * (lm.MAX_TOKENS - 2))["done"]


@pytest.mark.parametrize(
    "bad",
    [
        {"tokens": []},
        {"tokens": [1]},
        {"tokens": [0, 99]},
        {"tokens": [0, 1.5]},
        {"tokens": "0"},
        {"tokens": [0] * (lm.MAX_TOKENS + 1)},
        {"tokens": [0], "mode": "beam"},
        {"tokens": [0], "temperature": 0.05},
        {"tokens": [0], "temperature": float("nan")},
        {"tokens": [0], "seed": -1},
        {"tokens": [0], "temperature": True},
    ],
)
def test_lm_shapes_rejects_bad_params(bad: dict) -> None:
    with pytest.raises(api.InputError) as err:
        api.dispatch("lm-shapes", "step", bad)
    assert _hangul(str(err.value))


def test_shipped_weights_are_small() -> None:
    from importlib import resources

    assert len((resources.files("ptrnet") / "data" / lm.WEIGHTS_FILE).read_bytes()) < 200_000
    assert len((resources.files("ptrnet") / "data" / "prelude_corpus.json").read_bytes()) < 200_000


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
    num = _numeric_grads(lambda: nplm.loss_and_grads(params, ctx, target, decay)[0], params)
    for name in params:
        assert _rel_err(grads[name], num[name]) < 1e-5, name


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
    data = nplm.corpus_data()["nplm"]
    vocab = data["vocab"]
    nll = [
        -_reference_logp(t.params, c, w) for sent in data["heldout"] for c, w in _sentence_contexts(sent.split(), vocab)
    ]
    assert s["perplexity"]["model"] == pytest.approx(math.exp(sum(nll) / len(nll)), rel=1e-10)
    lps = [_reference_logp(t.params, c, w) for c, w in _sentence_contexts(data["unseen"].split(), vocab)]
    assert s["sentence_logprobs"]["model"] == pytest.approx(lps, rel=1e-10)
    assert s["sentence_prob"]["model"] == pytest.approx(math.exp(sum(lps)), rel=1e-10)
    assert s["sentence_words"] == data["unseen"].split() + ["</s>"]
    tri = nplm.trigram()
    tri_lps = [math.log(tri.dist(*c)[w]) for c, w in _sentence_contexts(data["unseen"].split(), vocab)]
    assert s["sentence_logprobs"]["trigram"] == pytest.approx(tri_lps, rel=1e-12)


def test_trigram_distributions_sum_to_one_for_every_context() -> None:
    tri = nplm.trigram()
    vocab = nplm.load_corpus().vocab
    assert sum(tri.lambdas) == pytest.approx(1.0) and min(tri.lambdas) > 0.0
    for prev in range(len(vocab)):
        for prev2 in range(len(vocab)):
            p = tri.dist(prev, prev2)
            assert p.sum() == pytest.approx(1.0, abs=1e-12)
            assert p[vocab.index("<s>")] == 0.0 and (np.delete(p, vocab.index("<s>")) > 0.0).all()


def test_trigram_is_the_interpolation_of_counts() -> None:
    """P(is | cat, the) from raw counts of the training sentences."""
    corpus = nplm.load_corpus()
    tri = nplm.trigram()
    text = [["<s>", "<s>", *(corpus.vocab[i] for i in s), "</s>"] for s in corpus.train]
    grams = [tuple(s[k : k + 3]) for s in text for k in range(len(s) - 2)]
    c3 = sum(g == ("the", "cat", "is") for g in grams) / sum(g[:2] == ("the", "cat") for g in grams)
    c2 = sum(g[1:] == ("cat", "is") for g in grams) / sum(g[1] == "cat" for g in grams)
    n = len(grams)
    c1 = (sum(g[2] == "is" for g in grams) + 0.5) / (n + 0.5 * (len(corpus.vocab) - 1))
    l3, l2, l1 = tri.lambdas
    v = corpus.vocab.index
    assert tri.dist(v("cat"), v("the"))[v("is")] == pytest.approx(l3 * c3 + l2 * c2 + l1 * c1, rel=1e-12)


def test_unseen_sentence_is_not_in_the_training_data() -> None:
    data = nplm.corpus_data()["nplm"]
    unseen = data["unseen"].split()
    assert data["unseen"] not in data["train"] + data["heldout"]
    assert not set(data["train"]) & set(data["heldout"])
    assert "the cat is walking in the bedroom" in data["train"]
    train_bigrams = {p for s in data["train"] for p in pairwise(s.split())}
    assert {("a", "dog"), ("dog", "was"), ("was", "running"), ("a", "room")} & train_bigrams == set()
    assert set(unseen) <= set(data["vocab"])


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
    vocab = nplm.load_corpus().vocab
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
    assert _hangul(str(err.value))
