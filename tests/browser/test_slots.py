"""Demo 1 [slots] driven like a reader: the n slider (mouse-free: fill and keys), re-roll, permalinks."""

import re

from ptrnet.api import dispatch
from tests.browser.conftest import canvas_points, out_value, wait_ready

DEMO = "slots"
ROOT = '[data-demo="slots"]'
CANVAS = f"{ROOT} canvas"
SLIDER = f'{ROOT} [data-control="n"]'


def url_state(page) -> dict:
    return dict(re.findall(r"slots\.(\w+)=([^&]+)", page.evaluate("() => location.hash")))


def assert_matches_oracle(page, n: int, seed: int) -> dict:
    """Everything the demo shows equals the CPython answer for (n, seed)."""
    expected = dispatch("slots", "solve", {"n": n, "seed": seed})
    assert canvas_points(page, CANVAS) == expected["points"]
    assert out_value(page, DEMO, "hull") == expected["hull"]
    assert out_value(page, DEMO, "seq2seq_missing") == expected["seq2seq_missing"]
    assert out_value(page, DEMO, "ptr_slots") == expected["ptr_slots"] == n + 1
    rows = {name: page.locator(f'{ROOT} .slot-row[data-row="{name}"] .slot') for name in ("answer", "seq2seq", "ptr")}
    vocab = expected["seq2seq_vocab"]
    captions = [
        f"칸 {vocab.index(token) + 1}" if ok else "출력 불가"
        for token, ok in zip(expected["answer"], expected["emittable"], strict=True)
    ]
    assert rows["answer"].all_text_contents() == [
        token + caption for token, caption in zip(expected["answer"], captions, strict=True)
    ]
    assert page.locator(f'{ROOT} .slot-row[data-row="answer"] .slot.is-missing').count() == expected["seq2seq_missing"]
    assert rows["seq2seq"].count() == 7
    assert rows["ptr"].all_text_contents() == expected["ptr_labels"]
    return expected


def test_default_shows_three_tokens_a_five_slot_softmax_cannot_say(demo):
    expected = assert_matches_oracle(demo, 8, 6)
    assert expected["seq2seq_missing"] == 3  # the default was picked to show the point
    missing = demo.locator(f'{ROOT} .slot-row[data-row="answer"] .slot.is-missing').first
    assert missing.evaluate("(el) => getComputedStyle(el).borderTopStyle") == "dashed"
    assert "출력 불가" in missing.text_content()
    assert "3–4개" in demo.text_content(f"{ROOT} .demo-note")  # the note points at fewer points than n = 5
    assert demo.watch.console_errors == []


def test_the_slider_sets_n_by_fill_and_by_keys(demo):
    demo.fill(SLIDER, "12")
    wait_ready(demo, DEMO)
    assert_matches_oracle(demo, 12, 6)
    demo.focus(SLIDER)
    demo.keyboard.press("ArrowLeft")
    demo.keyboard.press("ArrowLeft")
    wait_ready(demo, DEMO)
    assert_matches_oracle(demo, 10, 6)
    demo.keyboard.press("Home")
    wait_ready(demo, DEMO)
    expected = assert_matches_oracle(demo, 3, 6)
    assert expected["seq2seq_missing"] == 0  # with three points every answer token has a slot
    assert url_state(demo) == {"n": "3", "seed": "6"}
    assert demo.watch.console_errors == []


def test_reroll_draws_new_points_from_a_new_seed(demo):
    before = canvas_points(demo, CANVAS)
    demo.click(f'{ROOT} [data-action="reroll"]')
    wait_ready(demo, DEMO)
    state = url_state(demo)
    assert state["n"] == "8" and state["seed"] != "6"
    assert_matches_oracle(demo, 8, int(state["seed"]))
    assert canvas_points(demo, CANVAS) != before


def test_permalink_restores_n_and_seed(page, site_url):
    page.goto(f"{site_url}index.html#slots.n=11&slots.seed=7")
    wait_ready(page, DEMO)
    assert page.input_value(SLIDER) == "11"
    expected = assert_matches_oracle(page, 11, 7)
    assert expected["hull"] == [2, 9, 10, 4, 11, 2]


def test_odd_url_values_are_clamped_with_a_message(page, site_url):
    page.goto(f"{site_url}index.html#slots.n=40&slots.seed=abc")
    wait_ready(page, DEMO)
    assert page.input_value(SLIDER) == "12"
    assert_matches_oracle(page, 12, 6)
    message = page.text_content(f"{ROOT} .demo-message")
    assert "범위" in message and "시드" in message
    assert page.get_attribute(ROOT, "data-state") == "idle"


def test_narrow_screen_keeps_every_slot_inside_the_demo(browser, site_url):
    context = browser.new_context(viewport={"width": 375, "height": 800}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{site_url}index.html#slots.n=12&slots.seed=6")
    wait_ready(page, DEMO)
    box = page.locator(ROOT).bounding_box()
    for slot in page.locator(f"{ROOT} .slot").all():
        b = slot.bounding_box()
        assert box["x"] <= b["x"] and b["x"] + b["width"] <= box["x"] + box["width"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    context.close()


def test_the_trained_models_real_answers_are_shown_for_the_points(page, site_url):
    page.goto(f"{site_url}index.html#slots.n=5&slots.seed=3")
    wait_ready(page, "slots")
    points = canvas_points(page, CANVAS)
    expected = dispatch("slots", "real", {"points": points})
    assert out_value(page, "slots", "real_ptrnet") == expected["ptrnet"]
    assert out_value(page, "slots", "real_seq2seq") == expected["seq2seq"]  # n = 5: the baseline answers too
    page.fill('[data-demo="slots"] [data-control="n"]', "9")
    wait_ready(page, "slots")
    assert out_value(page, "slots", "real_seq2seq") is None
    assert "5번까지의 칸밖에" in page.text_content('[data-demo="slots"] [data-out="real_seq2seq"]')
    page.fill('[data-demo="slots"] [data-control="n"]', "3")  # fewer points than it learned on: it answers anyway
    wait_ready(page, "slots")
    expected = dispatch("slots", "real", {"points": canvas_points(page, CANVAS)})
    assert out_value(page, "slots", "real_seq2seq") == expected["seq2seq"]
    note = page.locator('[data-demo="slots"] [data-out="seq2seq_note"]')
    assert note.is_visible() and note.inner_text() == expected["text"]["seq2seq_note"]
