"""Tests of the prelude corpus (ptrnet.prelude.corpus) and the trigram baseline counted from it (ptrnet.prelude.trigram)."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest

from ptrnet.prelude import corpus as prelude_corpus
from ptrnet.prelude import trigram


def test_trigram_distributions_sum_to_one_for_every_context() -> None:
    tri = trigram.trigram()
    vocab = prelude_corpus.load_corpus().vocab
    assert sum(tri.lambdas) == pytest.approx(1.0) and min(tri.lambdas) > 0.0
    for prev in range(len(vocab)):
        for prev2 in range(len(vocab)):
            p = tri.dist(prev, prev2)
            assert p.sum() == pytest.approx(1.0, abs=1e-12)
            assert p[vocab.index("<s>")] == 0.0 and (np.delete(p, vocab.index("<s>")) > 0.0).all()


def test_trigram_is_the_interpolation_of_counts() -> None:
    """P(is | cat, the) from raw counts of the training sentences."""
    corpus = prelude_corpus.load_corpus()
    tri = trigram.trigram()
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
    data = prelude_corpus.corpus_data()["nplm"]
    unseen = data["unseen"].split()
    assert data["unseen"] not in data["train"] + data["heldout"]
    assert not set(data["train"]) & set(data["heldout"])
    assert "the cat is walking in the bedroom" in data["train"]
    train_bigrams = {p for s in data["train"] for p in pairwise(s.split())}
    assert {("a", "dog"), ("dog", "was"), ("was", "running"), ("a", "room")} & train_bigrams == set()
    assert set(unseen) <= set(data["vocab"])
