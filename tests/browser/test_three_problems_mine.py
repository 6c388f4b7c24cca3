"""The companion page's [three-problems] with the reader's own hull model: trained a little in [ptrnet-trainer], then
shown on the hull panel beside ours, equal to CPython's greedy decoding of the same training run; before any
training a Korean note, and the toggle keeps working."""

import numpy as np

from ptrnet.geometry.notation import hull_sequence
from ptrnet.pointer import answers
from ptrnet.views.companion import NO_MINE
from tests.browser.conftest import canvas_points, drag, out_value, wait_ready
from tests.browser.test_ptrnet_trainer import oracle, train_until

DEMO = "three-problems"
HULL_CANVAS = '[data-demo="three-problems"] canvas[data-panel="hull"]'
TOGGLE = '[data-demo="three-problems"] [data-control="mine"]'
LINE = '[data-demo="three-problems"] .answer-mine'


def test_the_readers_trained_model_answers_the_dragged_points_as_cpython_decodes_it(page, site_url):
    page.goto(site_url + "three-problems.html")
    wait_ready(page, "ptrnet-trainer")
    k = train_until(page, 60)  # by then it names points (at 30 updates it still answers ⇐ at once)
    wait_ready(page, DEMO)
    assert page.locator(LINE).is_hidden()
    page.check(TOGGLE)
    wait_ready(page, DEMO)
    assert page.locator(LINE).is_visible() and "three-problems.mine=1" in page.url
    start = canvas_points(page, HULL_CANVAS)[0]
    drag(page, HULL_CANVAS, start, (0.97, 0.45), steps=6)
    wait_ready(page, DEMO)
    points = canvas_points(page, HULL_CANVAS)
    mine = oracle(k).params  # the same updates from the page's default seed and width, in CPython
    expected = answers.decode(mine, "hull", [np.array(points)])[0]
    assert expected, "a model that names no point would make this comparison weak"
    assert out_value(page, DEMO, "model_mine") == expected
    verdict = page.text_content(f"{LINE} .model-verdict")
    assert verdict == "정답" if expected == hull_sequence(points) else verdict.startswith("오답")
    assert out_value(page, DEMO, "model_hull") is not None  # our model still answers beside it
    assert page.watch.console_errors == []


def test_before_any_training_the_toggle_says_so_and_stays_usable(page, site_url):
    page.goto(site_url + "three-problems.html#three-problems.mine=1")
    wait_ready(page, DEMO)
    assert page.is_checked(TOGGLE) and page.locator(LINE).is_visible()
    assert page.text_content(f'{LINE} [data-out="model_mine"]') == NO_MINE
    assert out_value(page, DEMO, "model_mine") is None
    assert out_value(page, DEMO, "model_hull") is not None and out_value(page, DEMO, "hull") is not None
    page.uncheck(TOGGLE)
    wait_ready(page, DEMO)
    assert page.locator(LINE).is_hidden() and "three-problems.mine=1" not in page.url
    page.check(TOGGLE)
    wait_ready(page, DEMO)
    assert page.text_content(f'{LINE} [data-out="model_mine"]') == NO_MINE
    assert page.watch.console_errors == []
