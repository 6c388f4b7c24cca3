"""Training of the prelude's LSTM language model (ptrnet.prelude.lm): full-batch BPTT with Adam on the shipped
corpus, written to data/lm_weights.json."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ptrnet.learn.cell import cell_backward
from ptrnet.nn import lstm
from ptrnet.nn.adam import Adam
from ptrnet.prelude.corpus import BOS, EOS, corpus_data
from ptrnet.prelude.lm import (
    MAX_TOKENS,
    PARAM_NAMES,
    WEIGHTS_FILE,
    Array,
    Ints,
    Params,
    cell,
    choose,
    last_step,
    softmax,
)
from training.paths import PACKAGE_DATA


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
        x, h, c, k = cell(params, inputs[:, t], h, c)
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
        dA, dh_next, dc_next = cell_backward(k, dhs[:, t] + dh_next, dc_next, W_h, grads["W_h"])
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


def _seven_digits(a: Array) -> list:
    """An array as nested lists of floats written with 7 significant digits (float32's precision, half the bytes)."""
    return np.array([float(f"{v:.7g}") for v in a.ravel()]).reshape(a.shape).tolist()


def main(argv: Sequence[str] | None = None) -> None:
    """`python -m training.trainers.lm_train`: train on the shipped corpus and write data/lm_weights.json."""
    tr = argparse.ArgumentParser(
        prog="python -m training.trainers.lm_train", description=f"train the LSTM LM, write data/{WEIGHTS_FILE}"
    )
    tr.add_argument("--seed", type=int, default=LMConfig.seed)
    tr.add_argument("--iterations", type=int, default=LMConfig.iterations)
    tr.add_argument("--out", type=Path, default=PACKAGE_DATA / WEIGHTS_FILE)
    args = tr.parse_args(argv)
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
