"""The stateful demos' shared request loop (ui/request-loop.js), seen from the page: a failed
request leaves the demo in error with a Korean message and a retry button, the reader's work is
kept, and retry carries on from the failed request to the same answer an uninterrupted run gives."""

import pytest

from ptrnet.api import dispatch
from tests.browser.conftest import out_value, wait_ready
from tests.browser.settle import calls_ahead, open_with_clock

FAULT = "async ([demo, fn]) => (await import('./js/runtime/client.js')).getRuntime().call('runtime', 'inject_fault', { demo, fn })"


def _state(page, demo):
    return page.get_attribute(f'[data-demo="{demo}"]', "data-state")


def _wait_error(page, demo):
    page.wait_for_function(
        "(demo) => document.querySelector(`[data-demo=\"${demo}\"]`).dataset.state === 'error'",
        arg=demo,
        timeout=30_000,
    )
    message = page.locator(f'[data-demo="{demo}"] .demo-message')
    assert "일부러 넣은 오류" in message.text_content()
    assert message.locator('[data-action="retry"]').is_visible()
    return message


def test_a_failed_generation_step_is_retried_and_the_sentence_finishes_as_python_writes_it(page, site_url):
    page.emulate_media(reduced_motion="reduce")  # no pauses between steps
    page.goto(f"{site_url}index.html#lm-shapes.mode=greedy&lm-shapes.seed=3")
    wait_ready(page, "lm-shapes")
    tokens = [0]
    expected = dispatch("lm-shapes", "step", {"tokens": tokens, "mode": "greedy", "temperature": 1.0, "seed": 3})
    while not expected["done"]:
        tokens.append(expected["token"]["id"])
        expected = dispatch("lm-shapes", "step", {"tokens": tokens, "mode": "greedy", "temperature": 1.0, "seed": 3})
    assert expected["step"] > 2
    page.evaluate(FAULT, ["lm-shapes", "step"])
    page.click('[data-demo="lm-shapes"] [data-action="generate"]')
    message = _wait_error(page, "lm-shapes")
    assert out_value(page, "lm-shapes", "step") == 1  # the first step stays on screen
    message.locator('[data-action="retry"]').click()
    page.wait_for_function(
        '(step) => document.querySelector(\'[data-demo="lm-shapes"] [data-out="step"]\').dataset.value == step',
        arg=expected["step"],
        timeout=30_000,
    )
    wait_ready(page, "lm-shapes")
    assert out_value(page, "lm-shapes", "token") == expected["token"]["word"]
    assert out_value(page, "lm-shapes", "probs") == pytest.approx(expected["probs"], abs=1e-9)
    assert not message.locator('[data-action="retry"]').is_visible()
    assert page.watch.console_errors == []


def _evaluate_to_the_end(page):
    page.wait_for_function(
        "() => document.querySelector('[data-demo=\"length-eval\"] [data-out=\"progress\"]').dataset.value === '46'",
        timeout=60_000,
    )
    wait_ready(page, "length-eval")
    return out_value(page, "length-eval", "curves")


def test_a_failed_evaluation_chunk_is_retried_and_the_run_equals_an_uninterrupted_one(page, site_url):
    open_with_clock(page, site_url + "index.html")
    wait_ready(page, "length-eval")
    wait_ready(page, "sort-trainer")
    page.click('[data-demo="length-eval"] [data-action="evaluate"]')
    uninterrupted = _evaluate_to_the_end(page)
    page.evaluate(FAULT, ["length-eval", "evaluate"])
    page.click('[data-demo="length-eval"] [data-action="evaluate"]')
    message = _wait_error(page, "length-eval")
    stalled = out_value(page, "length-eval", "progress")
    assert stalled < 46
    assert calls_ahead(page) == []  # nothing is sent while in error
    assert out_value(page, "length-eval", "progress") == stalled
    assert page.is_enabled('[data-demo="length-eval"] [data-action="cancel"]')
    message.locator('[data-action="retry"]').click()
    assert _evaluate_to_the_end(page) == uninterrupted
    assert page.watch.console_errors == []


def test_a_failed_training_chunk_keeps_the_model_and_retry_resumes_training(page, site_url):
    open_with_clock(page, site_url + "index.html")
    wait_ready(page, "sort-trainer")
    page.click('[data-demo="sort-trainer"] [data-action="train"]')
    page.wait_for_function(
        '() => JSON.parse(document.querySelector(\'[data-demo="sort-trainer"] [data-out="iteration"]\').dataset.value) >= 100',
        timeout=30_000,
    )
    page.evaluate(FAULT, ["sort-trainer", "train"])
    message = _wait_error(page, "sort-trainer")
    kept = out_value(page, "sort-trainer", "iteration")
    assert kept >= 100 and page.is_enabled('[data-demo="sort-trainer"] [data-action="train"]')
    assert calls_ahead(page) == []  # training stopped
    assert out_value(page, "sort-trainer", "iteration") == kept  # the model kept
    message.locator('[data-action="retry"]').click()
    page.wait_for_function(
        '(n) => JSON.parse(document.querySelector(\'[data-demo="sort-trainer"] [data-out="iteration"]\').dataset.value) > n + 50',
        arg=kept,
        timeout=30_000,
    )
    assert _state(page, "sort-trainer") == "busy" and page.is_enabled(
        '[data-demo="sort-trainer"] [data-action="pause"]'
    )
    page.click('[data-demo="sort-trainer"] [data-action="pause"]')
    wait_ready(page, "sort-trainer")
    assert page.watch.console_errors == []
