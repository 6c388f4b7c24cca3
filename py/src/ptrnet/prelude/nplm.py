"""Bengio et al. (2003)'s neural probabilistic language model, its SGD training and what the NPLM demo shows.

Model (context of n - 1 = 2 words, word vectors of size m = 2, row-vector convention):

    x = (C[w_{t-1}], C[w_{t-2}])                      concatenated, length K = (n - 1) m
    y = b + x W + tanh(d + x H) U                     x W only when the direct connection is on
    P(w_t = j | context) = softmax(y)_j

Loss = mean negative log-likelihood of the mini-batch + decay * (|C|^2 + |H|^2 + |U|^2 + |W|^2):
the weight decay covers the weights and the word vectors C, not the biases b and d (as in the paper).
Training is plain SGD on mini-batches with the learning rate eps_t = eps_0 / (1 + r t).
Sentences are padded with two <s> in front and end with </s>, which is predicted too
(ptrnet.prelude.corpus); the baseline is ptrnet.prelude.trigram.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ptrnet.nn import rng_state
from ptrnet.prelude.corpus import EOS, examples, load_corpus
from ptrnet.prelude.trigram import trigram

Array = NDArray[np.float64]
Ints = NDArray[np.int64]
Params = dict[str, Array]

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
        self.initial = {k: v.copy() for k, v in self.params.items()}  # the same network untrained, for comparison
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
        return {
            "params": {k: v.tolist() for k, v in self.params.items()},
            "iteration": self.iteration,
            "seed": self.config.seed,
            "direct": self.config.direct,
            "rng": rng_state.to_json(self.rng),
        }

    def restore(self, snap: dict[str, Any]) -> None:
        """Continue the run a snapshot() describes, bit for bit."""
        self.reset(int(snap["seed"]), bool(snap["direct"]))
        params = {k: np.array(v, dtype=np.float64) for k, v in snap["params"].items()}
        if params.keys() != self.params.keys() or any(params[k].shape != self.params[k].shape for k in params):
            raise ValueError("snapshot has other parameters")
        self.params = params
        self.iteration = int(snap["iteration"])
        self.rng = rng_state.from_json(snap["rng"])


def summary(t: Trainer) -> dict[str, Any]:
    """What the NPLM demo shows, as plain JSON-ready values."""
    corpus, tri, vocab = t.corpus, trigram(), t.corpus.vocab

    def model_logp(sentences: list[list[int]], params: Params = t.params) -> Array:
        ctx, tgt = examples(sentences, vocab, t.config.order)
        picked: Array = log_probs(params, ctx)[np.arange(len(tgt)), tgt]  # (predictions,)
        return picked

    def trigram_logp(sentences: list[list[int]]) -> Array:
        return tri.log_probs(*examples(sentences, vocab, 3))  # (predictions,)

    # the unseen sentence, word by word: the network now, the same network untrained, and the trigram
    unseen = {
        "model": model_logp([corpus.unseen]),
        "untrained": model_logp([corpus.unseen], t.initial),
        "trigram": trigram_logp([corpus.unseen]),
    }  # name -> (words,)
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
        "sentence_prob": {k: float(np.exp(lp.sum())) for k, lp in unseen.items()},
        "sentence_logprobs": {k: [float(v) for v in lp] for k, lp in unseen.items()},
        "sentence_logprob_sum": {k: float(lp.sum()) for k, lp in unseen.items()},
        "per_word_prob": {k: float(np.exp(lp.mean())) for k, lp in unseen.items()},
        "roles": dict(corpus.roles),
    }
