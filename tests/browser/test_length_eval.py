"""Demo 6 [length-eval]: the model demo 5 trained, evaluated on every length 5–50 in the browser.

One page (and one trained model) serves the whole module; the tests run in file order and the
last one re-trains the shared model without the mask.
"""

import re

import pytest

from ptrnet import formats
from tests.browser.conftest import ARTIFACTS, PageWatch, out_value, wait_ready
from tests.browser.settle import calls_ahead

DEMO = "length-eval"
ROOT = '[data-demo="length-eval"]'
TRAINER = '[data-demo="sort-trainer"]'
LENGTHS = list(range(5, 51))


def click(page, action, root=ROOT):
    page.click(f'{root} [data-action="{action}"]')


def train_to(page, at_least):
    click(page, "train", TRAINER)
    page.wait_for_function(
        "(n) => JSON.parse(document.querySelector('[data-demo=\"sort-trainer\"] [data-out=\"iteration\"]')?.dataset.value ?? '0') >= n",
        arg=at_least,
        timeout=30_000,
    )
    click(page, "pause", TRAINER)
    wait_ready(page, "sort-trainer")


def evaluate(page):
    """Click 평가 (evaluate) and wait for the finished run; returns the progress values seen meanwhile."""
    page.evaluate(
        """() => {
            window.__progress = [];
            const out = document.querySelector('[data-demo="length-eval"] [data-out="progress"]');
            new MutationObserver(() => window.__progress.push(JSON.parse(out.dataset.value))).observe(out, { attributes: true });
        }"""
    )
    click(page, "evaluate")
    page.wait_for_function(
        "() => document.querySelector('[data-demo=\"length-eval\"] [data-out=\"progress\"]').dataset.value === '46'",
        timeout=30_000,
    )
    wait_ready(page, DEMO)
    return page.evaluate("() => window.__progress")


def assert_summary_written_by_python(page):
    """The summary line gives the latest run's shares exactly as ptrnet.formats writes them."""
    curves = out_value(page, DEMO, "curves")
    at = {key: dict(zip(curves["lengths"], curves[key], strict=True)) for key in ("seq_acc", "pos_acc")}
    written = [formats.percent(v) for v in (at["seq_acc"][10], at["seq_acc"][50], at["pos_acc"][50])]
    worst = formats.percent(max(curves["invalid"]))
    assert page.text_content(f'{ROOT} [data-out="curves"]') == (
        f"수열 정확도 n = 10: {written[0]}, n = 50: {written[1]} · 위치별 정확도 n = 50: {written[2]} · 잘못된 출력 최대 {worst}"
    )


@pytest.fixture(scope="module")
def trained_page(browser, site_url):
    """index.html with demo 5's model trained with the mask to at least 600 iterations."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, device_scale_factor=1)
    page = context.new_page()
    page.watch = PageWatch(page)
    page.clock.install()  # the page's timers, for calls_ahead to run ahead
    page.goto(site_url + "index.html")
    wait_ready(page, "sort-trainer")
    wait_ready(page, DEMO)
    train_to(page, 600)
    yield page
    context.close()


@pytest.fixture
def demo(trained_page, request):
    yield trained_page
    ARTIFACTS.mkdir(exist_ok=True)
    name = re.sub(r"[^\w.-]+", "_", request.node.name)
    trained_page.locator(ROOT).scroll_into_view_if_needed()
    trained_page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_the_masked_model_sorts_every_length_up_to_fifty(demo):
    trained_iteration = out_value(demo, "sort-trainer", "iteration")
    progress = evaluate(demo)
    curves = out_value(demo, DEMO, "curves")
    assert curves["lengths"] == LENGTHS
    assert len(curves["seq_acc"]) == len(curves["pos_acc"]) == len(curves["invalid"]) == 46
    assert curves["seq_acc"][-1] >= 0.9
    assert min(curves["pos_acc"]) >= 0.9
    assert curves["invalid"] == [0] * 46
    assert all(0 <= v <= 1 for key in ("seq_acc", "pos_acc", "invalid") for v in curves[key])
    # Progress streamed: several partial counts before 46, never going back.
    assert len([p for p in progress if 0 < p < 46]) >= 3
    assert progress == sorted(progress)
    assert "46/46" in demo.text_content(ROOT)
    assert_summary_written_by_python(demo)
    model = out_value(demo, DEMO, "model")
    assert model["iteration"] == trained_iteration and model["mask"] is True
    assert demo.watch.console_errors == []


def test_cancel_stops_sending_chunks(demo):
    before = out_value(demo, DEMO, "curves")
    click(demo, "evaluate")
    assert demo.get_attribute(ROOT, "data-state") == "busy"
    demo.wait_for_function(
        '() => JSON.parse(document.querySelector(\'[data-demo="length-eval"] [data-out="progress"]\').dataset.value) > 0'
    )
    click(demo, "cancel")
    stopped = out_value(demo, DEMO, "progress")
    assert 0 < stopped < 46
    wait_ready(demo, DEMO)
    assert calls_ahead(demo) == []  # no chunk follows the one in flight
    assert out_value(demo, DEMO, "progress") == stopped
    assert out_value(demo, DEMO, "curves") == before  # only complete runs are written
    assert "취소" in demo.text_content(f"{ROOT} .demo-message")
    assert demo.is_enabled(f'{ROOT} [data-action="evaluate"]')
    assert demo.is_disabled(f'{ROOT} [data-action="cancel"]')


def test_re_evaluating_keeps_faint_runs_and_clear_removes_them(demo):
    evaluate(demo)
    evaluate(demo)
    assert out_value(demo, DEMO, "faint_runs") >= 1
    assert demo.is_enabled(f'{ROOT} [data-action="clear"]')
    latest = out_value(demo, DEMO, "curves")
    click(demo, "clear")
    assert out_value(demo, DEMO, "faint_runs") == 0
    assert demo.is_disabled(f'{ROOT} [data-action="clear"]')
    assert out_value(demo, DEMO, "curves") == latest


def test_evaluation_interleaves_with_training(demo):
    click(demo, "train", TRAINER)
    start = out_value(demo, "sort-trainer", "iteration")
    evaluate(demo)
    click(demo, "pause", TRAINER)
    wait_ready(demo, "sort-trainer")
    model = out_value(demo, DEMO, "model")
    first, last = model["iterations"]
    assert start <= first < last <= out_value(demo, "sort-trainer", "iteration")
    assert out_value(demo, DEMO, "curves")["lengths"] == LENGTHS


def test_without_the_mask_invalid_outputs_appear_and_grow_with_length(demo):
    demo.uncheck(f'{TRAINER} [data-control="mask"]')
    click(demo, "reset", TRAINER)
    wait_ready(demo, "sort-trainer")
    assert out_value(demo, "sort-trainer", "iteration") == 0
    train_to(demo, 600)
    evaluate(demo)
    curves = out_value(demo, DEMO, "curves")
    assert out_value(demo, DEMO, "model")["mask"] is False
    assert curves["invalid"][-1] >= 0.5
    assert curves["invalid"][-1] >= curves["invalid"][0]
    assert curves["seq_acc"][-1] < 0.5
    assert_summary_written_by_python(demo)  # here the worst invalid share is not 0
