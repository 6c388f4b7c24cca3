"""Demo 7 [pointer-generator]: the p_gen slider by fill and keys, the charts' origins, permalinks."""

import pytest

from ptrnet.api import dispatch
from tests.browser.conftest import out_value, wait_ready

DEMO = "pointer-generator"
ROOT = '[data-demo="pointer-generator"]'
SLIDER = f'{ROOT} [data-control="p-gen"]'


def assert_matches_oracle(page, p_gen: float) -> dict:
    expected = dispatch("pointer-generator", "solve", {"p_gen": p_gen})
    assert out_value(page, DEMO, "p_gen") == pytest.approx(p_gen)
    final = out_value(page, DEMO, "final")
    assert list(final) == list(expected["final"])
    assert list(final.values()) == pytest.approx(list(expected["final"].values()), abs=1e-12)
    assert sum(final.values()) == pytest.approx(1)
    assert out_value(page, DEMO, "chosen") == expected["chosen"]
    text = expected["text"]  # the numbers read as Python wrote them
    assert page.text_content(f'{ROOT} [data-out="p_gen"]') == text["p_gen"]
    assert page.text_content(f'{ROOT} [data-out="final"]') == text["top"]
    now = f"지금: P(w) = {text['p_gen']} · P_vocab(w) + {text['copy_share']} · Σ a_i"
    assert page.text_content(f"{ROOT} .pg-formula-now") == now
    # The bars' value labels, as each canvas's label lists them: word, then Python's percentage.
    charts = [canvas.get_attribute("aria-label") for canvas in page.locator(f"{ROOT} canvas.bar-canvas").all()]
    oov = {w for w, outside in zip(expected["source"], expected["oov"], strict=True) if outside}
    copied = [(f"{w}★" if w in oov else w, p) for w, p in zip(expected["source"], text["attention"], strict=True)]
    mixed = [(f"{w}★" if w in oov else w, p) for w, p in text["final"].items()]
    for chart, bars in zip(charts, (copied, text["vocab"].items(), mixed), strict=True):
        assert chart.endswith(": " + ", ".join(f"{word} {p}" for word, p in bars))
    return expected


def test_default_mix_copies_the_oov_name(demo):
    expected = assert_matches_oracle(demo, 0.3)
    assert expected["chosen"] == "Okonkwo"
    assert demo.input_value(SLIDER) == "0.3"
    words = demo.locator(f"{ROOT} .source-word").all_text_contents()
    assert words == ["Okonkwo★", "won", "the", "Valencia★", "marathon", "on", "Sunday"]
    assert demo.text_content(f"{ROOT} .illustrative-badge") == "예시 값"
    assert "P(w) = p_gen · P_vocab(w) + (1 − p_gen) · Σ a_i" in demo.text_content(f"{ROOT} .pg-formula")
    legend = demo.locator(f"{ROOT} .origin-legend li").all_text_contents()
    assert len(legend) == 3 and "둘 다" in legend
    assert demo.locator(f"{ROOT} canvas.bar-canvas").count() == 3
    assert demo.watch.console_errors == []


def test_generating_only_cannot_produce_the_oov_words(demo):
    demo.fill(SLIDER, "1")
    wait_ready(demo, DEMO)
    expected = assert_matches_oracle(demo, 1.0)
    final = out_value(demo, DEMO, "final")
    assert final["Okonkwo"] == 0 and final["Valencia"] == 0
    assert expected["chosen"] == "runner"
    assert "0.00 · Σ a_i" in demo.text_content(f"{ROOT} .pg-formula")
    demo.fill(SLIDER, "0")
    wait_ready(demo, DEMO)
    assert_matches_oracle(demo, 0.0)
    final = out_value(demo, DEMO, "final")
    assert final["runner"] == 0 and final["Okonkwo"] == pytest.approx(0.46)


def test_arrow_keys_move_p_gen_by_a_hundredth(demo):
    demo.focus(SLIDER)
    demo.keyboard.press("ArrowRight")
    demo.keyboard.press("ArrowRight")
    wait_ready(demo, DEMO)
    assert_matches_oracle(demo, 0.32)
    demo.keyboard.press("End")
    wait_ready(demo, DEMO)
    assert_matches_oracle(demo, 1.0)
    assert "pointer-generator.p_gen=1" in demo.evaluate("() => location.hash")


def test_the_winner_changes_where_generating_overtakes_copying(demo):
    # Find the switch-over in CPython, then check the page on both sides of it.
    grid = [k / 100 for k in range(101)]
    winners = [dispatch(DEMO, "solve", {"p_gen": p})["chosen"] for p in grid]
    switch = next(k for k in range(1, 101) if winners[k] != winners[k - 1])
    for p in (grid[switch - 1], grid[switch]):
        demo.fill(SLIDER, str(p))
        wait_ready(demo, DEMO)
        assert_matches_oracle(demo, p)
    assert out_value(demo, DEMO, "chosen") == winners[switch] != winners[switch - 1]


def test_permalink_restores_p_gen_and_clamps_bad_values(page, site_url):
    page.goto(f"{site_url}index.html#pointer-generator.p_gen=0.85")
    wait_ready(page, DEMO)
    assert page.input_value(SLIDER) == "0.85"
    assert_matches_oracle(page, 0.85)
    page.goto(f"{site_url}index.html#pointer-generator.p_gen=3")
    page.reload()
    wait_ready(page, DEMO)
    assert_matches_oracle(page, 1.0)
    assert "범위" in page.text_content(f"{ROOT} .demo-message")
