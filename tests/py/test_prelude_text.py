"""Tests of how the prelude demos' numbers are written (ptrnet.formats, ptrnet.views.prelude): the pages show these
strings as they are, so each is checked against the number it writes, worked out here independently."""

from __future__ import annotations

import math

import pytest

from ptrnet import api, formats

NBSP = "\u00a0"


@pytest.mark.parametrize(
    ("value", "digits", "text"),
    [(0.1, 3, "0.100"), (0.025, 3, "0.0250"), (0.0237154, 3, "0.0237"), (1.0, 2, "1.0")],
)
def test_significant_keeps_trailing_zeros(value: float, digits: int, text: str) -> None:
    assert formats.significant(value, digits) == text


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (0.5, "0.5000"),
        (0.001, "0.0010"),
        (9.87e-4, "9.87 × 10⁻⁴"),
        (5.0623e-12, "5.06 × 10⁻¹²"),
        (1.2e-100, "1.20 × 10⁻¹⁰⁰"),
        (0.0, "0"),
        (None, "–"),
        (math.nan, "–"),
    ],
)
def test_a_small_probability_is_written_with_a_power_of_ten_below_a_thousandth(p: float | None, text: str) -> None:
    assert formats.small_probability(p) == text.replace(" ", NBSP)


@pytest.mark.parametrize("tokens", [[0], [0, 5], [0, 5, 9, 2]])
def test_the_lm_step_lists_its_five_likeliest_words(tokens: list[int]) -> None:
    r = api.dispatch("lm-shapes", "step", {"tokens": tokens, "mode": "greedy"})
    probs, vocab = r["probs"], r["vocab"]
    ranked = sorted(zip(probs, range(len(probs)), strict=True), key=lambda pair: (-pair[0], pair[1]))[:5]
    assert r["text"]["top"] == " · ".join(f"{vocab[k]} {100 * p:.1f}{NBSP}%" for p, k in ranked)
    assert r["text"]["top"].split(" ")[0] == r["token"]["word"]  # greedy: the first listed is the one chosen


def test_the_nplm_summary_writes_every_number_it_shows() -> None:
    api.dispatch("nplm", "reset", {"seed": 2, "direct": True})
    for s in (api.dispatch("nplm", "view", {}), api.dispatch("nplm", "train", {"iterations": 1500})):
        text, ppl = s["text"], s["perplexity"]
        assert text["iteration"] == f"{s['iteration']:,}"
        assert text["loss"] == ("–" if s["loss"] is None else f"{s['loss']:.3f}")
        assert text["perplexity"] == f"{ppl['model']:.1f} / {ppl['trigram']:.1f}"
        assert text["lr"] == f"{s['lr']:#.3g}"
        for model in ("model", "untrained", "trigram"):
            assert text["sentence_logprob_sum"][model] == f"{s['sentence_logprob_sum'][model]:.1f}"
            assert text["sentence_logprobs"][model] == [f"{v:.1f}" for v in s["sentence_logprobs"][model]]
            assert text["per_word_prob"][model] == formats.percent(s["per_word_prob"][model])
            assert text["sentence_prob"][model] == formats.small_probability(s["sentence_prob"][model])
    assert s["iteration"] == 1500 and text["iteration"] == "1,500"
