"""The NPLM demo's baseline: an interpolated trigram model counted from the training sentences."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
from numpy.typing import NDArray

from ptrnet.prelude.corpus import BOS, examples, load_corpus

Array = NDArray[np.float64]
Ints = NDArray[np.int64]


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


@cache
def trigram() -> Trigram:
    """The trigram baseline fitted to the shipped training sentences."""
    corpus = load_corpus()
    return Trigram(corpus.train, corpus.vocab)
