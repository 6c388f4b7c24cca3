"""The prelude's NPLM [nplm] (Bengio et al. 2003) trained live like a reader would, with the CPython handlers as
the oracle: below the trigram baseline while the page keeps animating, pause and reset, seed and direct links."""

import pytest

from ptrnet.api import dispatch
from tests.browser.conftest import MAX_FRAME_GAP_MS, longest_frame_gap, out_value, wait_ready, watch_frames
from tests.browser.settle import calls_ahead, open_with_clock

NPLM = '[data-demo="nplm"]'


SCORED = {"model": "지금의 신경망", "untrained": "학습 전 신경망", "trigram": "3-그램"}  # the sentence view's rows


def click(page, action):
    page.click(f'{NPLM} [data-action="{action}"]')


def nplm_value(page, name):
    return out_value(page, "nplm", name)


def assert_sentence_view_matches(page, expected):
    """The unseen sentence's three scores (network now, same network untrained, trigram) are Python's, as written."""
    logprob = nplm_value(page, "sentence_logprob")
    assert set(logprob) == set(SCORED)
    assert logprob == pytest.approx(expected["sentence_logprob_sum"], rel=1e-6)
    written = expected["text"]
    line = " · ".join(f"{name} {written['sentence_logprob_sum'][key]}" for key, name in SCORED.items())
    assert page.text_content(f'{NPLM} [data-out="sentence_logprob"]') == line
    line = " · ".join(f"{name} {written['sentence_prob'][key]}" for key, name in SCORED.items())
    assert page.text_content(f'{NPLM} [data-out="sentence_prob"]') == line
    chips = page.locator(f"{NPLM} .nplm-word").evaluate_all(
        "els => els.map((el) => [...el.querySelectorAll('.nplm-lp')].map((n) => n.textContent))"
    )
    assert chips == [list(k) for k in zip(*(written["sentence_logprobs"][key] for key in SCORED), strict=True)]


def test_nplm_trains_below_the_trigram_baseline_while_the_page_keeps_animating(page, site_url):
    open_with_clock(page, site_url + "index.html")
    wait_ready(page, "nplm")
    start = dispatch("nplm", "reset", {"seed": 0, "direct": True})
    assert nplm_value(page, "iteration") == 0
    assert nplm_value(page, "perplexity") == pytest.approx(start["perplexity"], rel=1e-9)
    assert nplm_value(page, "sentence_prob") == pytest.approx(start["sentence_prob"], rel=1e-9)
    assert_sentence_view_matches(page, start)
    assert start["sentence_logprob_sum"]["untrained"] == start["sentence_logprob_sum"]["model"]
    vectors = nplm_value(page, "vectors")
    assert set(vectors) == set(start["vectors"])
    for word, xy in start["vectors"].items():
        assert vectors[word] == pytest.approx(xy, abs=1e-12)
    watch_frames(page)
    click(page, "train")
    assert page.get_attribute(NPLM, "data-state") == "busy"
    page.wait_for_function(
        """() => {
            const value = (name) => JSON.parse(document.querySelector(`[data-demo="nplm"] [data-out="${name}"]`)?.dataset.value ?? 'null');
            const p = value('perplexity');
            return value('iteration') >= 1500 && p.model < p.trigram;
        }""",
        timeout=60_000,
    )
    gap = longest_frame_gap(page)
    assert gap < MAX_FRAME_GAP_MS, f"a {gap:.0f} ms gap between frames while training: the main thread was blocked"
    click(page, "pause")
    wait_ready(page, "nplm")
    at_pause = nplm_value(page, "iteration")
    assert calls_ahead(page) == []  # paused: nothing more is asked, seconds later either
    assert nplm_value(page, "iteration") == at_pause
    perplexity = nplm_value(page, "perplexity")
    assert perplexity["model"] < perplexity["trigram"] == pytest.approx(start["perplexity"]["trigram"])
    assert perplexity["model"] < start["perplexity"]["model"]
    probability = nplm_value(page, "sentence_prob")
    assert probability["model"] > probability["trigram"]
    # The same run in CPython: the same seed's stream trained as far gives the same three scores; the untrained
    # network's stays the start's, and even it beats the trigram on this sentence.
    dispatch("nplm", "reset", {"seed": 0, "direct": True})
    for done in range(0, at_pause, 2000):
        trained = dispatch("nplm", "train", {"iterations": min(2000, at_pause - done)})
    assert trained["iteration"] == at_pause
    assert_sentence_view_matches(page, trained)
    scores = nplm_value(page, "sentence_logprob")
    assert scores["untrained"] == pytest.approx(start["sentence_logprob_sum"]["untrained"], rel=1e-9)
    assert scores["model"] > scores["untrained"] > scores["trigram"]
    # The trained model's vectors moved.
    moved = nplm_value(page, "vectors")
    assert any(abs(moved[w][0] - vectors[w][0]) > 1e-3 for w in vectors)
    assert page.is_enabled(f'{NPLM} [data-action="train"]') and page.is_disabled(f'{NPLM} [data-action="pause"]')
    # Reset: back to the seed's starting point.
    click(page, "reset")
    wait_ready(page, "nplm")
    assert nplm_value(page, "iteration") == 0
    assert nplm_value(page, "perplexity") == pytest.approx(start["perplexity"], rel=1e-9)
    assert page.watch.console_errors == []


def test_nplm_seed_and_direct_come_from_the_url_and_the_controls(page, site_url):
    page.goto(f"{site_url}index.html#nplm.seed=3&nplm.direct=0")
    wait_ready(page, "nplm")
    assert not page.is_checked(f'{NPLM} [data-control="direct"]')
    assert page.input_value(f'{NPLM} [data-control="seed"]') == "3"
    assert nplm_value(page, "model") == {"seed": 3, "direct": False}
    expected = dispatch("nplm", "reset", {"seed": 3, "direct": False})
    assert nplm_value(page, "perplexity") == pytest.approx(expected["perplexity"], rel=1e-9)
    page.check(f'{NPLM} [data-control="direct"]')
    wait_ready(page, "nplm")
    assert nplm_value(page, "model") == {"seed": 3, "direct": True}
    assert "nplm.direct=1" in page.url
    expected = dispatch("nplm", "reset", {"seed": 3, "direct": True})
    assert nplm_value(page, "perplexity") == pytest.approx(expected["perplexity"], rel=1e-9)
    assert page.watch.console_errors == []
