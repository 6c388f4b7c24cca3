"""A small LSTM language model for the prelude demo "one generation step, shape by shape".

One step for a batch of N word ids (row-vector convention), with the gate layout of the source the prelude
teaches: the four gates' pre-activations lie side by side along A's 4H columns as f | g | i | o.

    x_t = E[id]                                         (N, D)
    A   = x_t W_x + h_{t-1} W_h + b                     (N, 4H)
    f = sigma(A[:, :H])   g = tanh(A[:, H:2H])   i = sigma(A[:, 2H:3H])   o = sigma(A[:, 3H:])
    c_t = f * c_{t-1} + i * g,   h_t = o * tanh(c_t)    (N, H)
    s_t = h_t W_s + b_s                                 (N, V)
    p_t = softmax(s_t / temperature)                    (N, V)

The weights are stored, trained and shipped in the shared cell's order (ptrnet.nn.lstm, GATES = i, f, o, g);
step() moves the gate columns of W_x, W_h and b into this module's GATES (f, g, i, o) in one place,
shown_gates(), so every tensor sent to the page is laid out f | g | i | o; its h, c and p are those of the
shared cell. Sentences start from h_0 = c_0 = 0 with the input <s> and end when </s> is chosen. Training
(`python -m training.trainers.lm_train`) is full-batch BPTT with Adam on the corpus in data/prelude_corpus.json and
writes data/lm_weights.json."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ptrnet.nn import lstm
from ptrnet.prelude.corpus import EOS

Array = NDArray[np.float64]
Ints = NDArray[np.int64]
Params = dict[str, Array]

PARAM_NAMES = ("E", "W_x", "W_h", "b", "W_s", "b_s")
GATES = "fgio"  # the gate blocks along A's 4H axis as the demo shows them (the weights keep lstm.GATES)
TENSORS = ("x", "h_prev", "c_prev", "A", "f", "g", "i", "o", "c", "h", "s", "p")  # one step, in order
MAX_TOKENS = 20  # a generated sentence (with <s>) is at most this long
MODES = ("sample", "greedy")  # how a step chooses the next word: by its probability, or the most likely
TEMPERATURE = (0.1, 3.0)  # the softmax temperature's range
WEIGHTS_FILE = "lm_weights.json"


def softmax(s: Array) -> Array:
    """Softmax over the last axis."""
    e: Array = np.exp(s - s.max(axis=-1, keepdims=True))
    z: Array = e.sum(axis=-1, keepdims=True)
    return e / z


def cell(params: Params, ids: Ints, h_prev: Array, c_prev: Array) -> tuple[Array, Array, Array, lstm.Cache]:
    """The embedding x (N, D) of ids and one step of the package's LSTM cell: x, h, c and the cell's cache."""
    x = params["E"][ids]  # (N, D)
    return x, *lstm.step(x @ params["W_x"] + params["b"], h_prev, c_prev, params["W_h"])


def shown_gates(params: Params) -> tuple[Array, Array, Array]:
    """W_x, W_h and b with their gate columns moved from the stored order lstm.GATES to the shown order GATES."""
    # the cell's own helper moves blocks along axis 0: the matrices go through it transposed (b is 1-D)
    W_x, W_h, b = (lstm._reorder_gates(params[k].T, lstm.GATES, GATES).T for k in ("W_x", "W_h", "b"))
    return W_x, W_h, b


def step(params: Params, ids: Ints, h_prev: Array, c_prev: Array, temperature: float = 1.0) -> dict[str, Array]:
    """One LSTM step and its output distribution, A split as f | g | i | o; every tensor of TENSORS, each (N, ·)."""
    W_x, W_h, b = shown_gates(params)
    H = W_h.shape[0]
    x = params["E"][ids]  # (N, D)
    A = x @ W_x + h_prev @ W_h + b  # (N, 4H)
    f = lstm.sigmoid(A[:, :H])
    g = np.tanh(A[:, H : 2 * H])
    i = lstm.sigmoid(A[:, 2 * H : 3 * H])
    o = lstm.sigmoid(A[:, 3 * H :])
    c = f * c_prev + i * g  # (N, H)
    h = o * np.tanh(c)  # (N, H)
    s = h @ params["W_s"] + params["b_s"]  # (N, V)
    p = softmax(s / temperature)  # (N, V)
    return {
        "x": x,
        "h_prev": h_prev,
        "c_prev": c_prev,
        "A": A,
        "f": f,
        "g": g,
        "i": i,
        "o": o,
        "c": c,
        "h": h,
        "s": s,
        "p": p,
    }


def last_step(params: Params, tokens: Sequence[int], temperature: float = 1.0) -> dict[str, Array]:
    """The step whose input is tokens[-1], after running the LSTM over the rest of the prefix (N = 1)."""
    H = params["W_h"].shape[0]
    h, c = np.zeros((1, H)), np.zeros((1, H))
    for t in tokens[:-1]:
        out = step(params, np.array([t]), h, c)
        h, c = out["h"], out["c"]
    return step(params, np.array([tokens[-1]]), h, c, temperature)


def choose(p: Array, greedy: bool, seed: int, position: int) -> int:
    """The next id from p (V,): its argmax, or a draw from default_rng([seed, position])."""
    if greedy:
        return int(np.argmax(p))
    return int(np.random.default_rng([seed, position]).choice(len(p), p=p))


@cache
def load() -> tuple[list[str], Params]:
    """The shipped vocabulary and trained weights."""
    data = json.loads((resources.files("ptrnet") / "data" / WEIGHTS_FILE).read_text(encoding="utf-8"))
    return list(data["vocab"]), {k: np.array(data["params"][k], dtype=np.float64) for k in PARAM_NAMES}


def _shape(a: Array) -> list[int]:
    """A tensor's shape as a plain list."""
    return [int(n) for n in a.shape]


def generation_step(tokens: Sequence[int], greedy: bool, temperature: float, seed: int) -> dict[str, Any]:
    """One generation step of the shipped model after the prefix tokens, every tensor as plain lists."""
    vocab, params = load()
    out = last_step(params, tokens, temperature)
    p_flat = out["p"].reshape(-1)  # (V,)
    chosen = choose(p_flat, greedy, seed, len(tokens))
    V, D = params["E"].shape
    return {
        "vocab": vocab,
        "dims": {"N": 1, "D": int(D), "H": int(params["W_h"].shape[0]), "V": int(V)},
        "step": len(tokens),
        "input": {"id": int(tokens[-1]), "word": vocab[tokens[-1]]},
        "tensors": {k: {"shape": _shape(out[k]), "values": out[k].tolist()} for k in TENSORS},
        "shapes": {
            **{k: _shape(out[k]) for k in TENSORS},
            **{k: _shape(params[k]) for k in ("E", "W_x", "W_h", "W_s")},
            "p_flat": _shape(p_flat),
        },
        # the same step as part of a sequence: (batch, time) ids in, (batch, time, V) scores out
        "sequence": {"ids": _shape(np.array([[tokens[-1]]])), "scores": _shape(out["s"][:, None, :])},
        "probs": p_flat.tolist(),
        "token": {"id": chosen, "word": vocab[chosen]},
        "done": vocab[chosen] == EOS or len(tokens) + 1 >= MAX_TOKENS,
    }
