"""Bengio et al. (2003)'s neural probabilistic language model and an interpolated trigram baseline.

Model (context of n - 1 = 2 words, word vectors of size m = 2, row-vector convention):

    x = (C[w_{t-1}], C[w_{t-2}])                      concatenated, length K = (n - 1) m
    y = b + x W + tanh(d + x H) U                     x W only when the direct connection is on
    P(w_t = j | context) = softmax(y)_j

Loss = mean negative log-likelihood of the mini-batch + decay * (|C|^2 + |H|^2 + |U|^2 + |W|^2):
the weight decay covers the weights and the word vectors C, not the biases b and d (as in the paper).
Training is plain SGD on mini-batches with the learning rate eps_t = eps_0 / (1 + r t).
Sentences are padded with two <s> in front and end with </s>, which is predicted too.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.float64]
Ints = NDArray[np.int64]
Params = dict[str, Array]

BOS, EOS = "<s>", "</s>"
WEIGHTS = ("C", "H", "U", "W")  # the parameters under weight decay (b and d are biases)


@dataclass(frozen=True)
class NPLMConfig:
    """Settings of the NPLM and its training."""

    order: int = 3  # n: predict a word from the n - 1 = 2 words before it
    dim: int = 2  # m: word vector size, 2 so the vectors can be drawn as they are
    hidden: int = 16  # h: tanh units
    direct: bool = True  # the direct connection x W from word vectors to scores
    decay: float = 1e-4  # weight decay on C, H, U, W
    lr0: float = 0.1  # eps_0, the initial SGD learning rate
    lr_decay: float = 1e-3  # r in eps_t = eps_0 / (1 + r t): eps is halved after 1000 steps
    batch: int = 16  # examples per SGD step
    init_scale: float = 0.3  # weights start as N(0, init_scale^2) / sqrt(fan-in), C as N(0, init_scale^2)
    seed: int = 0  # seeds the initial weights and the mini-batch stream


@dataclass(frozen=True)
class Corpus:
    """The NPLM demo's sentences as word ids."""

    vocab: list[str]  # id -> word; 0 is <s>
    train: list[list[int]]  # training sentences, without padding
    heldout: list[list[int]]  # held-out sentences for perplexity
    unseen: list[int]  # the sentence no training sentence is near
    roles: dict[str, str]  # word -> role, for colouring


@cache
def corpus_data() -> dict[str, Any]:
    """The shipped data/prelude_corpus.json."""
    text = (resources.files("ptrnet") / "data" / "prelude_corpus.json").read_text(encoding="utf-8")
    return dict(json.loads(text))


@cache
def load_corpus() -> Corpus:
    """The NPLM part of the shipped corpus, encoded as word ids."""
    data = corpus_data()["nplm"]
    vocab = list(data["vocab"])
    index = {w: i for i, w in enumerate(vocab)}

    def encode(s: str) -> list[int]:
        return [index[w] for w in s.split()]

    return Corpus(
        vocab=vocab,
        train=[encode(s) for s in data["train"]],
        heldout=[encode(s) for s in data["heldout"]],
        unseen=encode(data["unseen"]),
        roles={w: corpus_data()["roles"][w] for w in vocab},
    )


def examples(sentences: Sequence[Sequence[int]], vocab: Sequence[str], order: int) -> tuple[Ints, Ints]:
    """Every prediction in the sentences: contexts (E, n-1) nearest word first, and targets (E,)."""
    bos, eos = vocab.index(BOS), vocab.index(EOS)
    ctx, tgt = [], []
    for s in sentences:
        padded = [bos] * (order - 1) + list(s) + [eos]
        for t in range(order - 1, len(padded)):
            ctx.append(padded[t - order + 1 : t][::-1])  # w_{t-1}, ..., w_{t-n+1}
            tgt.append(padded[t])
    return np.array(ctx, dtype=np.int64).reshape(-1, order - 1), np.array(tgt, dtype=np.int64)


def init_params(vocab_size: int, config: NPLMConfig, rng: np.random.Generator) -> Params:
    """Initial weights (no W when the direct connection is off); biases start at 0."""
    K, h, s = (config.order - 1) * config.dim, config.hidden, config.init_scale
    params = {
        "C": rng.normal(0.0, s, (vocab_size, config.dim)),
        "H": rng.normal(0.0, s / np.sqrt(K), (K, h)),
        "d": np.zeros(h),
        "U": rng.normal(0.0, s / np.sqrt(h), (h, vocab_size)),
        "b": np.zeros(vocab_size),
    }
    if config.direct:
        params["W"] = rng.normal(0.0, s / np.sqrt(K), (K, vocab_size))
    return params


def log_probs(params: Params, ctx: Ints) -> Array:
    """log P(w | context) for every word: (E, V) from contexts (E, n-1)."""
    x = params["C"][ctx].reshape(len(ctx), -1)  # (E, K)
    y: Array = params["b"] + np.tanh(params["d"] + x @ params["H"]) @ params["U"]  # (E, V)
    if "W" in params:
        y = y + x @ params["W"]
    y = y - y.max(axis=1, keepdims=True)
    log_z: Array = np.log(np.exp(y).sum(axis=1, keepdims=True))  # (E, 1)
    return y - log_z


def loss_and_grads(params: Params, ctx: Ints, target: Ints, decay: float) -> tuple[float, Params]:
    """Mean NLL of the targets plus weight decay, and its analytic gradients."""
    C, H, U = params["C"], params["H"], params["U"]
    E = len(ctx)
    x = C[ctx].reshape(E, -1)  # (E, K)
    t = np.tanh(params["d"] + x @ H)  # (E, h)
    y = params["b"] + t @ U  # (E, V)
    if "W" in params:
        y = y + x @ params["W"]
    y = y - y.max(axis=1, keepdims=True)
    e = np.exp(y)  # (E, V)
    z = e.sum(axis=1)  # (E,)
    rows = np.arange(E)
    nll = float(np.mean(np.log(z) - y[rows, target]))
    penalty = sum(float(np.sum(params[k] ** 2)) for k in WEIGHTS if k in params)
    # backward: d loss / d y = (p - onehot(target)) / E
    dy = e / z[:, None]  # (E, V)
    dy[rows, target] -= 1.0
    dy /= E
    da = (dy @ U.T) * (1.0 - t * t)  # (E, h)
    dx = da @ H.T  # (E, K)
    grads = {"b": dy.sum(axis=0), "U": t.T @ dy, "d": da.sum(axis=0), "H": x.T @ da}
    if "W" in params:
        grads["W"] = x.T @ dy
        dx += dy @ params["W"].T
    dC = np.zeros_like(C)  # (V, m)
    np.add.at(dC, ctx.reshape(-1), dx.reshape(-1, C.shape[1]))
    grads["C"] = dC
    for k in WEIGHTS:
        if k in params:
            grads[k] = grads[k] + 2.0 * decay * params[k]
    return nll + decay * penalty, grads


def perplexity(logp_targets: Array) -> float:
    """exp of the mean negative log-probability of the predicted words."""
    return float(np.exp(-np.mean(logp_targets)))


class Trigram:
    """Interpolated trigram: l3 P(w | u, v) + l2 P(w | v) + l1 P_add-k(w), lambdas by deleted interpolation.

    Where a context was never seen, its term is dropped and the remaining lambdas are renormalised,
    so every context gives a distribution over the vocabulary (never over <s>) that sums to 1.
    """

    def __init__(self, sentences: Sequence[Sequence[int]], vocab: Sequence[str], add_k: float = 0.5) -> None:
        """Count the training predictions and fit the lambdas."""
        ctx, tgt = examples(sentences, vocab, 3)
        V = len(vocab)
        self.bi = np.zeros((V, V))  # (V, V) counts of w after v
        np.add.at(self.bi, (ctx[:, 0], tgt), 1.0)
        self.tri: dict[tuple[int, int], Array] = {}  # (v, u) -> (V,) counts of w after u v
        for (v, u), w in zip(ctx.tolist(), tgt.tolist(), strict=True):
            self.tri.setdefault((v, u), np.zeros(V))[w] += 1.0
        counts = self.bi.sum(axis=0)  # (V,) how often each word was predicted
        allowed = np.arange(V) != vocab.index(BOS)  # (V,)
        self.unigram = np.where(allowed, counts + add_k, 0.0) / (counts.sum() + add_k * allowed.sum())  # (V,)
        self.lambdas = self._deleted_interpolation(counts)  # (l3, l2, l1)

    def _deleted_interpolation(self, counts: Array) -> tuple[float, float, float]:
        """Brants (2000): each trigram's count votes for the order that predicts it best when left out."""
        votes = np.zeros(3)  # trigram, bigram, unigram
        total = counts.sum()
        bi_ctx = self.bi.sum(axis=1)  # (V,)
        for (v, _u), row in self.tri.items():
            for w in np.flatnonzero(row):
                c, n3, n2 = row[w], row.sum(), bi_ctx[v]
                ratios = [
                    (c - 1) / (n3 - 1) if n3 > 1 else 0.0,
                    (self.bi[v, w] - 1) / (n2 - 1) if n2 > 1 else 0.0,
                    (counts[w] - 1) / (total - 1),
                ]
                votes[int(np.argmax(ratios))] += c
        l3, l2, l1 = votes / votes.sum()
        return float(l3), float(l2), float(l1)

    def dist(self, prev: int, prev2: int) -> Array:
        """P(w | w_{t-1} = prev, w_{t-2} = prev2) for every word w: (V,)."""
        l3, l2, l1 = self.lambdas
        p = l1 * self.unigram  # (V,)
        norm = l1
        row = self.bi[prev]  # (V,)
        if row.sum() > 0:
            p = p + l2 * row / row.sum()
            norm += l2
        tri = self.tri.get((prev, prev2))
        if tri is not None:
            p = p + l3 * tri / tri.sum()
            norm += l3
        out: Array = p / norm
        return out

    def log_probs(self, ctx: Ints, target: Ints) -> Array:
        """log P(target | context) for each example: (E,)."""
        return np.array([np.log(self.dist(int(c[0]), int(c[1]))[w]) for c, w in zip(ctx, target, strict=True)])


class Trainer:
    """Holds the NPLM's weights and its mini-batch stream; trains in chunks for the UI."""

    def __init__(self, config: NPLMConfig | None = None) -> None:
        """Start from the config's seed and direct setting."""
        self.config = config or NPLMConfig()
        self.corpus = load_corpus()
        self.ctx, self.target = examples(self.corpus.train, self.corpus.vocab, self.config.order)
        self.reset(self.config.seed, self.config.direct)

    def reset(self, seed: int, direct: bool) -> None:
        """Re-initialise the weights and the mini-batch stream."""
        self.config = replace(self.config, seed=seed, direct=direct)
        self.rng = np.random.default_rng(seed)
        self.params = init_params(len(self.corpus.vocab), self.config, self.rng)
        self.iteration = 0

    def lr(self) -> float:
        """The learning rate of the next step, eps_0 / (1 + r t)."""
        return self.config.lr0 / (1.0 + self.config.lr_decay * self.iteration)

    def train(self, k: int) -> list[float]:
        """Run k SGD steps; returns their mini-batch losses."""
        losses = []
        for _ in range(k):
            pick = self.rng.integers(0, len(self.target), self.config.batch)  # (batch,)
            loss, grads = loss_and_grads(self.params, self.ctx[pick], self.target[pick], self.config.decay)
            lr = self.lr()
            for name, g in grads.items():
                self.params[name] -= lr * g
            self.iteration += 1
            losses.append(loss)
        return losses

    def loss(self) -> float:
        """The training objective on the whole training set."""
        return loss_and_grads(self.params, self.ctx, self.target, self.config.decay)[0]

    def snapshot(self) -> dict[str, Any]:
        """Everything needed to continue this run elsewhere, as plain JSON-ready values."""
        rng = self.rng.bit_generator.state  # PCG64: 128-bit integers, kept as strings for JS
        return {
            "params": {k: v.tolist() for k, v in self.params.items()},
            "iteration": self.iteration,
            "seed": self.config.seed,
            "direct": self.config.direct,
            "rng": {
                "state": str(rng["state"]["state"]),
                "inc": str(rng["state"]["inc"]),
                "has_uint32": rng["has_uint32"],
                "uinteger": rng["uinteger"],
            },
        }

    def restore(self, snap: dict[str, Any]) -> None:
        """Continue the run a snapshot() describes, bit for bit."""
        self.reset(int(snap["seed"]), bool(snap["direct"]))
        params = {k: np.array(v, dtype=np.float64) for k, v in snap["params"].items()}
        if params.keys() != self.params.keys() or any(params[k].shape != self.params[k].shape for k in params):
            raise ValueError("snapshot has other parameters")
        self.params = params
        self.iteration = int(snap["iteration"])
        r = snap["rng"]
        self.rng.bit_generator.state = {
            "bit_generator": "PCG64",
            "state": {"state": int(r["state"]), "inc": int(r["inc"])},
            "has_uint32": int(r["has_uint32"]),
            "uinteger": int(r["uinteger"]),
        }


@cache
def trigram() -> Trigram:
    """The trigram baseline fitted to the shipped training sentences."""
    corpus = load_corpus()
    return Trigram(corpus.train, corpus.vocab)


def summary(t: Trainer) -> dict[str, Any]:
    """What the NPLM demo shows, as plain JSON-ready values."""
    corpus, tri, vocab = t.corpus, trigram(), t.corpus.vocab

    def model_logp(sentences: list[list[int]]) -> Array:
        ctx, tgt = examples(sentences, vocab, t.config.order)
        picked: Array = log_probs(t.params, ctx)[np.arange(len(tgt)), tgt]  # (predictions,)
        return picked

    def trigram_logp(sentences: list[list[int]]) -> Array:
        return tri.log_probs(*examples(sentences, vocab, 3))  # (predictions,)

    model_lp, tri_lp = model_logp([corpus.unseen]), trigram_logp([corpus.unseen])  # (words,)
    return {
        "iteration": t.iteration,
        "loss": None if t.iteration == 0 else t.loss(),
        "lr": t.lr(),
        "direct": t.config.direct,
        "seed": t.config.seed,
        "perplexity": {
            "model": perplexity(model_logp(corpus.heldout)),
            "trigram": perplexity(trigram_logp(corpus.heldout)),
        },
        "vectors": {w: [float(v) for v in t.params["C"][i]] for i, w in enumerate(vocab)},
        "sentence": " ".join(vocab[i] for i in corpus.unseen),
        "sentence_words": [vocab[i] for i in [*corpus.unseen, vocab.index(EOS)]],
        "sentence_prob": {"model": float(np.exp(model_lp.sum())), "trigram": float(np.exp(tri_lp.sum()))},
        "sentence_logprobs": {"model": [float(v) for v in model_lp], "trigram": [float(v) for v in tri_lp]},
        "sentence_logprob_sum": {"model": float(model_lp.sum()), "trigram": float(tri_lp.sum())},
        "per_word_prob": {"model": float(np.exp(model_lp.mean())), "trigram": float(np.exp(tri_lp.mean()))},
        "roles": dict(corpus.roles),
    }
