"""The prelude demos' shipped corpus (data/prelude_corpus.json): the NPLM's sentences as word ids, and the
predictions a sentence holds for an n-gram model."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
from numpy.typing import NDArray

Ints = NDArray[np.int64]

BOS, EOS = "<s>", "</s>"


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
