"""Demo 5 [sort-trainer] driven like a reader: train, pause, step, reset, mask, test length, URL."""

import pytest

from ptrnet.api import dispatch
from ptrnet.limits import MAX_SORTER_CHUNK
from tests.browser.conftest import MAX_FRAME_GAP_MS, longest_frame_gap, out_value, wait_ready, watch_frames
from tests.browser.settle import calls_ahead, open_with_clock

DEMO = "sort-trainer"
ROOT = '[data-demo="sort-trainer"]'


@pytest.fixture
def demo(page, site_url):
    """Demo 5, answered, on a page whose timers run on Playwright's clock (tests/browser/settle.py)."""
    open_with_clock(page, site_url + "index.html")
    wait_ready(page, DEMO)
    return page


def click(page, action):
    page.click(f'{ROOT} [data-action="{action}"]')


def message(page):
    return page.text_content(f"{ROOT} .demo-message > span")


def iteration(page):
    return out_value(page, DEMO, "iteration")


def wait_iteration(page, at_least, timeout=30_000):
    page.wait_for_function(
        "(n) => JSON.parse(document.querySelector('[data-demo=\"sort-trainer\"] [data-out=\"iteration\"]')?.dataset.value ?? '0') >= n",
        arg=at_least,
        timeout=timeout,
    )


def shown(page, name):
    return page.text_content(f'{ROOT} [data-out="{name}"]')


def python_view_after_steps(steps: int) -> dict:
    """CPython's view of the default demo (seed 0, mask, length 8, sample 0) after that many single steps."""
    instance = f"browser-oracle-{steps}"
    dispatch(DEMO, "reset", {"seed": 0, "mask": True, "instance": instance})
    for _ in range(steps):
        dispatch(DEMO, "train", {"iterations": 1, "instance": instance})
    return dispatch(DEMO, "view", {"length": 8, "sample_seed": 0, "instance": instance})


def assert_shows_python_text(page, expected: dict) -> None:
    """The loss, the accuracy and the values of both orders read exactly as Python wrote them."""
    assert shown(page, "loss") == expected["text"]["loss"]
    assert shown(page, "accuracy10") == expected["text"]["accuracy10"]
    heatmap = expected["heatmap"]
    labels = heatmap["text"]["x"]
    rows = page.locator(f"{ROOT} .order-line").all()
    assert rows[0].locator(".order-item").all_text_contents() == [labels[j] for j in heatmap["correct"]]
    assert rows[1].locator(".order-item").all_text_contents() == [labels[j] for j in heatmap["choices"]]


def test_starts_untrained_with_a_heat_map_of_eight_numbers(demo):
    assert iteration(demo) == 0
    assert out_value(demo, DEMO, "loss") is None
    assert 0 <= out_value(demo, DEMO, "accuracy10") <= 1
    order = out_value(demo, DEMO, "order")
    assert len(order["correct"]) == len(order["model"]) == 8
    assert sorted(order["correct"]) == list(range(1, 9))
    assert out_value(demo, DEMO, "model") == {"seed": 0, "mask": True, "diverged": False}
    assert demo.is_enabled(f'{ROOT} [data-action="train"]')
    assert demo.is_disabled(f'{ROOT} [data-action="pause"]')
    assert "반복" in demo.text_content(ROOT) and "손실" in demo.text_content(ROOT)
    assert_shows_python_text(demo, python_view_after_steps(0))
    # A request the page would never send gets a Korean InputError and leaves the demo working.
    error = demo.evaluate(
        """async () => {
            const { getRuntime } = await import('./js/runtime/client.js');
            try { await getRuntime().call('sort-trainer', 'view', { length: 99, sample_seed: 0 }); return null; }
            catch (err) { return { kind: err.kind, message: err.message }; }
        }"""
    )
    assert error["kind"] == "input"
    assert any("\uac00" <= ch <= "\ud7a3" for ch in error["message"])
    assert demo.watch.console_errors == []
    assert demo.watch.foreign_requests == []


def test_training_runs_while_the_page_keeps_animating_and_pause_stops_it(demo):
    watch_frames(demo)
    click(demo, "train")
    assert demo.get_attribute(ROOT, "data-state") == "busy"
    assert demo.is_disabled(f'{ROOT} [data-action="train"]')
    wait_iteration(demo, 1)
    first_loss = out_value(demo, DEMO, "loss")
    seen = iteration(demo)
    wait_iteration(demo, seen + 1000)  # the counter keeps growing while training
    gap = longest_frame_gap(demo)
    assert gap < MAX_FRAME_GAP_MS, f"a {gap:.0f} ms gap between frames while training: the main thread was blocked"
    assert isinstance(first_loss, float) and out_value(demo, DEMO, "loss") < first_loss
    # Pause: at most the chunk in flight still lands, then the counter stands still.
    click(demo, "pause")
    at_pause = iteration(demo)
    demo.wait_for_function("(root) => document.querySelector(root).dataset.state === 'idle'", arg=ROOT)
    after = iteration(demo)
    assert at_pause <= after <= at_pause + MAX_SORTER_CHUNK  # the largest chunk a request may train
    assert calls_ahead(demo) == []  # nothing more is asked, seconds later either
    assert iteration(demo) == after
    assert demo.is_enabled(f'{ROOT} [data-action="train"]')
    assert demo.is_disabled(f'{ROOT} [data-action="pause"]')
    assert demo.watch.console_errors == []


def test_step_is_one_iteration_and_reset_starts_over_from_the_seed(demo):
    for k in (1, 2, 3):
        click(demo, "step")
        wait_ready(demo, DEMO)
        assert iteration(demo) == k
    loss_after_three = out_value(demo, DEMO, "loss")
    assert_shows_python_text(demo, python_view_after_steps(3))
    assert isinstance(loss_after_three, float)
    click(demo, "train")
    wait_iteration(demo, 50)
    click(demo, "reset")  # while training
    wait_ready(demo, DEMO)
    assert iteration(demo) == 0
    assert out_value(demo, DEMO, "loss") is None
    assert calls_ahead(demo) == [], "training stopped"
    assert iteration(demo) == 0
    assert demo.is_disabled(f'{ROOT} [data-action="pause"]')
    for _ in range(3):
        click(demo, "step")
        wait_ready(demo, DEMO)
    assert out_value(demo, DEMO, "loss") == loss_after_three  # same seed, same weights, same data


def test_with_the_mask_it_learns_to_sort_and_a_mask_toggle_keeps_the_weights(demo):
    click(demo, "train")
    demo.wait_for_function(
        """() => {
            const value = (name) => JSON.parse(document.querySelector(`[data-demo="sort-trainer"] [data-out="${name}"]`)?.dataset.value ?? 'null');
            return value('iteration') >= 300 && value('accuracy10') >= 0.95;
        }""",
        timeout=30_000,
    )
    click(demo, "pause")
    wait_ready(demo, DEMO)
    assert out_value(demo, DEMO, "accuracy10") >= 0.95
    assert out_value(demo, DEMO, "loss") < 0.5
    order = out_value(demo, DEMO, "order")
    assert order["model"] == order["correct"]
    assert "정렬 성공" in demo.text_content(f'{ROOT} [data-out="order"]')
    # Switching the mask off keeps the trained weights, and the demo says so.
    trained = iteration(demo)
    accuracy, order = out_value(demo, DEMO, "accuracy10"), out_value(demo, DEMO, "order")
    demo.uncheck(f'{ROOT} [data-control="mask"]')
    wait_ready(demo, DEMO)
    assert iteration(demo) == trained
    assert out_value(demo, DEMO, "model")["mask"] is False
    assert "가중치는 그대로" in message(demo)
    assert "sort-trainer.mask=0" in demo.url
    demo.check(f'{ROOT} [data-control="mask"]')
    wait_ready(demo, DEMO)
    assert iteration(demo) == trained and out_value(demo, DEMO, "model")["mask"] is True
    # the same weights: the same accuracy on the fixed test set and the same decoding of the shown sequence
    assert out_value(demo, DEMO, "accuracy10") == accuracy and out_value(demo, DEMO, "order") == order


def test_test_length_slider_sets_the_heat_maps_columns(demo):
    slider = f'{ROOT} [data-control="test-length"]'
    heights = {}
    for key, n in (("End", 50), ("Home", 2)):
        demo.focus(slider)
        demo.keyboard.press(key)
        wait_ready(demo, DEMO)
        order = out_value(demo, DEMO, "order")
        assert len(order["correct"]) == len(order["model"]) == n
        heights[n] = demo.locator(f"{ROOT} .heatmap-canvas").bounding_box()["height"]
    assert heights[50] > heights[2]
    demo.keyboard.press("ArrowRight")
    demo.keyboard.press("ArrowRight")
    wait_ready(demo, DEMO)
    assert len(out_value(demo, DEMO, "order")["correct"]) == 4
    assert "sort-trainer.length=4" in demo.url


def test_seed_mask_and_length_come_from_the_url(page, site_url):
    page.goto(f"{site_url}index.html#sort-trainer.seed=7&sort-trainer.mask=0&sort-trainer.length=12")
    wait_ready(page, DEMO)
    assert page.input_value(f'{ROOT} [data-control="seed"]') == "7"
    assert not page.is_checked(f'{ROOT} [data-control="mask"]')
    assert page.input_value(f'{ROOT} [data-control="test-length"]') == "12"
    assert out_value(page, DEMO, "model") == {"seed": 7, "mask": False, "diverged": False}
    assert len(out_value(page, DEMO, "order")["correct"]) == 12
    assert message(page).strip() == ""


def test_bad_url_values_are_clamped_or_ignored_with_a_message(page, site_url):
    page.goto(f"{site_url}index.html#sort-trainer.seed=abc&sort-trainer.mask=maybe&sort-trainer.length=99")
    wait_ready(page, DEMO)
    assert page.input_value(f'{ROOT} [data-control="seed"]') == "0"
    assert page.is_checked(f'{ROOT} [data-control="mask"]')
    assert page.input_value(f'{ROOT} [data-control="test-length"]') == "50"
    assert len(out_value(page, DEMO, "order")["correct"]) == 50
    text = message(page)
    assert "시드" in text and "마스크" in text and "시험 길이" in text
    assert out_value(page, DEMO, "model") == {"seed": 0, "mask": True, "diverged": False}


def test_a_new_seed_applies_at_once_while_untrained_and_on_reset_after_training(demo):
    seed = f'{ROOT} [data-control="seed"]'
    demo.fill(seed, "7")
    demo.press(seed, "Enter")
    demo.locator(seed).blur()
    wait_ready(demo, DEMO)
    assert out_value(demo, DEMO, "model")["seed"] == 7
    assert "sort-trainer.seed=7" in demo.url
    click(demo, "step")
    wait_ready(demo, DEMO)
    demo.fill(seed, "8")
    demo.locator(seed).blur()
    assert "초기화" in message(demo)
    assert out_value(demo, DEMO, "model")["seed"] == 7 and iteration(demo) == 1
    click(demo, "reset")
    wait_ready(demo, DEMO)
    assert out_value(demo, DEMO, "model")["seed"] == 8 and iteration(demo) == 0
    demo.fill(seed, "-3")
    demo.locator(seed).blur()
    assert demo.input_value(seed) == "8"
    assert "정수" in message(demo)


def test_reset_gives_a_uniform_haze_and_training_sharpens_it(demo):
    def spread(probs):
        """Per row, the largest probability times the number of candidates left (1 = uniform)."""
        return [max(row) * sum(p > 0 for p in row) for row in probs]

    assert max(spread(out_value(demo, DEMO, "heatmap"))) < 1.1  # untrained: every candidate alike
    click(demo, "train")
    wait_iteration(demo, 400)
    click(demo, "pause")
    wait_ready(demo, DEMO)
    trained = out_value(demo, DEMO, "heatmap")
    assert min(max(row) for row in trained) > 0.5  # each step now clearly prefers one position
    click(demo, "reset")
    wait_ready(demo, DEMO)
    assert iteration(demo) == 0
    assert max(spread(out_value(demo, DEMO, "heatmap"))) < 1.1
