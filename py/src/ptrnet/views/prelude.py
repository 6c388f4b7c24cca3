"""What the prelude demos show in words: the LM step's likeliest next words and the NPLM's numbers, every number
written by ptrnet.formats (the page shows these strings as they are)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ptrnet import formats

TOP_WORDS = 5  # the likeliest next words the LM step lists
LOSS_DIGITS = 3  # the NPLM's training loss
PERPLEXITY_DIGITS = 1  # held-out perplexity (the demo's headline)
LOGPROB_DIGITS = 1  # a word's log-probability and the sentence's sum
LR_DIGITS = 3  # significant digits of the learning rate


def lm_step(reply: dict[str, Any]) -> dict[str, Any]:
    """An LM step's reply with its words: the TOP_WORDS likeliest next words and their probabilities."""
    shares = dict(zip(reply["vocab"], reply["probs"], strict=True))  # ties keep the vocabulary's order
    return reply | {"text": {"top": formats.top_shares(shares, TOP_WORDS)}}


def nplm(summary: dict[str, Any]) -> dict[str, Any]:
    """An NPLM summary with its numbers written: the training stats and the unseen sentence's three scores."""
    ppl = summary["perplexity"]

    def each(name: str, write: Callable[[Any], Any]) -> dict[str, Any]:
        """Every model's value of summary[name], written."""
        return {model: write(value) for model, value in summary[name].items()}

    return summary | {
        "text": {
            "iteration": formats.count(summary["iteration"]),
            "loss": formats.fixed(summary["loss"], LOSS_DIGITS),
            "perplexity": " / ".join(formats.fixed(ppl[k], PERPLEXITY_DIGITS) for k in ("model", "trigram")),
            "lr": formats.significant(summary["lr"], LR_DIGITS),
            "sentence_prob": each("sentence_prob", formats.small_probability),
            "per_word_prob": each("per_word_prob", formats.percent),
            "sentence_logprob_sum": each("sentence_logprob_sum", lambda v: formats.fixed(v, LOGPROB_DIGITS)),
            "sentence_logprobs": each("sentence_logprobs", lambda vs: [formats.fixed(v, LOGPROB_DIGITS) for v in vs]),
        }
    }
