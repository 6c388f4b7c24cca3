"""Tests of the lm-shapes demo: the shipped LM, one generation step through its handler, sampling and bad input."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from checks import HANGUL

from ptrnet import api
from ptrnet.prelude import lm

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
    assert HANGUL.search(str(err.value))


def test_shipped_weights_are_small() -> None:
    from importlib import resources

    assert len((resources.files("ptrnet") / "data" / lm.WEIGHTS_FILE).read_bytes()) < 200_000
    assert len((resources.files("ptrnet") / "data" / "prelude_corpus.json").read_bytes()) < 200_000
