"""A small LSTM language model for the prelude demo "one generation step, shape by shape".

One step for a batch of N word ids (row-vector convention), with the gate layout of the source the prelude
teaches: the four gates' pre-activations lie side by side along A's 4H columns as f | g | i | o.

    x_t = E[id]                                         (N, D)
    A   = x_t W_x + h_{t-1} W_h + b                     (N, 4H)
    f = sigma(A[:, :H])   g = tanh(A[:, H:2H])   i = sigma(A[:, 2H:3H])   o = sigma(A[:, 3H:])
    c_t = f * c_{t-1} + i * g,   h_t = o * tanh(c_t)    (N, H)
    s_t = h_t W_s + b_s                                 (N, V)
    p_t = softmax(s_t / temperature)                    (N, V)

The weights are stored, trained and shipped in the shared cell's order (ptrnet.lstm, GATES = i, f, o, g);
step() moves the gate columns of W_x, W_h and b into this module's GATES (f, g, i, o) in one place,
shown_gates(), so every tensor sent to the page is laid out f | g | i | o; its h, c and p are those of the
shared cell. Sentences start from h_0 = c_0 = 0 with the input <s> and end when </s> is chosen. Training
(`python -m ptrnet.lm train`) is full-batch BPTT with Adam on the corpus in
data/prelude_corpus.json and writes data/lm_weights.json."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ptrnet import lstm
from ptrnet.adam import Adam
from ptrnet.prelude_corpus import BOS, EOS, corpus_data

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


@dataclass(frozen=True)
class LMConfig:
    """Settings of the LSTM language model and its training."""

    embed: int = 8  # D: word vector size
    hidden: int = 16  # H: LSTM state size
    init_scale: float = 0.1  # weights start as U(-init_scale, init_scale)
    forget_bias: float = 1.0  # initial bias of the forget gate f
    lr: float = 0.02  # Adam step size
    beta1: float = 0.9  # Adam decay of the gradient mean
    beta2: float = 0.999  # Adam decay of the squared-gradient mean
    eps: float = 1e-8  # Adam denominator guard
    iterations: int = 1500  # full-batch Adam steps
    seed: int = 0  # seeds the initial weights


def softmax(s: Array) -> Array:
    """Softmax over the last axis."""
    e: Array = np.exp(s - s.max(axis=-1, keepdims=True))
    z: Array = e.sum(axis=-1, keepdims=True)
    return e / z


def init_params(vocab_size: int, config: LMConfig) -> Params:
    """Uniform initial weights, zero biases except the forget gate's."""
    rng = np.random.default_rng(config.seed)
    V, D, H, s = vocab_size, config.embed, config.hidden, config.init_scale
    shapes = {"E": (V, D), "W_x": (D, 4 * H), "W_h": (H, 4 * H), "b": (4 * H,), "W_s": (H, V), "b_s": (V,)}
    params = {k: rng.uniform(-s, s, shape) for k, shape in shapes.items()}
    params["b"][:] = 0.0
    gate = lstm.GATES.index("f")
    params["b"][gate * H : (gate + 1) * H] = config.forget_bias
    params["b_s"][:] = 0.0
    return params


def _cell(params: Params, ids: Ints, h_prev: Array, c_prev: Array) -> tuple[Array, Array, Array, lstm.Cache]:
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


def loss_and_grads(params: Params, ids: Ints, mask: Array) -> tuple[float, Params]:
    """Mean next-word cross-entropy over the unmasked targets of ids (B, T+1), and its BPTT gradients."""
    W_x, W_h, W_s = params["W_x"], params["W_h"], params["W_s"]
    B, T = mask.shape
    H = W_h.shape[0]
    inputs, targets = ids[:, :-1], ids[:, 1:]  # (B, T)
    h, c = np.zeros((B, H)), np.zeros((B, H))
    cache_ = []
    hs = np.empty((B, T, H))  # (B, T, H)
    for t in range(T):
        x, h, c, k = _cell(params, inputs[:, t], h, c)
        cache_.append((x, k))
        hs[:, t] = h
    s = hs @ W_s + params["b_s"]  # (B, T, V)
    p = softmax(s)  # (B, T, V)
    total = mask.sum()
    picked = np.take_along_axis(p, targets[:, :, None], axis=2)[:, :, 0]  # (B, T)
    loss = float(-(np.log(picked) * mask).sum() / total)
    # backward: d loss / d s = (p - onehot(target)) * mask / total
    ds = p
    np.put_along_axis(ds, targets[:, :, None], picked[:, :, None] - 1.0, axis=2)
    ds *= (mask / total)[:, :, None]
    grads = {k: np.zeros_like(v) for k, v in params.items()}
    grads["W_s"] = hs.reshape(-1, H).T @ ds.reshape(B * T, -1)
    grads["b_s"] = ds.sum(axis=(0, 1))
    dhs = ds @ W_s.T  # (B, T, H)
    dh_next, dc_next = np.zeros((B, H)), np.zeros((B, H))
    for t in reversed(range(T)):
        x, k = cache_[t]
        dA, dh_next, dc_next = lstm.backward(k, dhs[:, t] + dh_next, dc_next, W_h, grads["W_h"])
        grads["W_x"] += x.T @ dA
        grads["b"] += dA.sum(axis=0)
        np.add.at(grads["E"], inputs[:, t], dA @ W_x.T)
    return loss, grads


def encode(sentences: Sequence[str], vocab: Sequence[str]) -> tuple[Ints, Array]:
    """Sentences as ids (B, T+1) from <s> to </s> padded with </s>, and the target mask (B, T)."""
    index = {w: i for i, w in enumerate(vocab)}
    rows = [[index[BOS]] + [index[w] for w in s.split()] + [index[EOS]] for s in sentences]
    T = max(len(r) for r in rows) - 1
    ids = np.full((len(rows), T + 1), index[EOS], dtype=np.int64)
    mask = np.zeros((len(rows), T))
    for r, row in enumerate(rows):
        ids[r, : len(row)] = row
        mask[r, : len(row) - 1] = 1.0
    return ids, mask


def train(config: LMConfig, log_every: int = 0) -> tuple[Params, list[float]]:
    """Full-batch Adam on the shipped LM corpus; returns the weights and the loss per step."""
    data = corpus_data()["lm"]
    ids, mask = encode(data["sentences"], data["vocab"])
    params = init_params(len(data["vocab"]), config)
    opt = Adam(params, config.beta1, config.beta2, config.eps)
    losses = []
    for t in range(1, config.iterations + 1):
        loss, grads = loss_and_grads(params, ids, mask)
        opt.step(params, grads, config.lr)
        losses.append(loss)
        if log_every and t % log_every == 0:
            print(f"step {t:5d}  loss {loss:.4f}")
    return params, losses


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


def _seven_digits(a: Array) -> list:
    """An array as nested lists of floats written with 7 significant digits (float32's precision, half the bytes)."""
    return np.array([float(f"{v:.7g}") for v in a.ravel()]).reshape(a.shape).tolist()


def main(argv: Sequence[str] | None = None) -> None:
    """`python -m ptrnet.lm train`: train on the shipped corpus and write data/lm_weights.json."""
    import argparse  # here, not at the top: the browser never runs this command line

    parser = argparse.ArgumentParser(prog="python -m ptrnet.lm")
    sub = parser.add_subparsers(dest="command", required=True)
    tr = sub.add_parser("train", help=f"train the LSTM LM, write data/{WEIGHTS_FILE}")
    tr.add_argument("--seed", type=int, default=LMConfig.seed)
    tr.add_argument("--iterations", type=int, default=LMConfig.iterations)
    tr.add_argument("--out", type=Path, default=Path(__file__).parent / "data" / WEIGHTS_FILE)
    args = parser.parse_args(argv)
    config = LMConfig(seed=args.seed, iterations=args.iterations)
    start = time.perf_counter()
    params, losses = train(config, log_every=100)
    vocab = corpus_data()["lm"]["vocab"]
    payload = {
        "config": asdict(config),
        "vocab": vocab,
        "final_loss": losses[-1],
        "params": {k: _seven_digits(params[k]) for k in PARAM_NAMES},
    }
    args.out.write_text(json.dumps(payload), encoding="utf-8")
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes) in {time.perf_counter() - start:.1f} s")
    for seed in range(5):
        tokens = [vocab.index(BOS)]
        while vocab[tokens[-1]] != EOS and len(tokens) < MAX_TOKENS:
            p = last_step(params, tokens)["p"].reshape(-1)
            tokens.append(choose(p, False, seed, len(tokens)))
        print("sample:", " ".join(vocab[t] for t in tokens))


if __name__ == "__main__":
    main()
