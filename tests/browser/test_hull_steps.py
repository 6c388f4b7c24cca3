"""Demo 4 [hull-steps], illustrative mode: step buttons, play, mask and permalinks, checked against CPython."""

import pytest

from ptrnet.explain import hull_step
from ptrnet.limits import HULL_EXAMPLE
from tests.browser.conftest import canvas_points, out_value, wait_ready
from tests.browser.settle import calls_ahead, open_with_clock

DEMO = "hull-steps"
DEMO_PAGE = "index.html#hull-steps.model=0"  # the illustrative example's mode
ROOT = '[data-demo="hull-steps"]'
CANVAS = f"{ROOT} canvas"
SEQUENCE = [3, 6, 4, 5, 3, 0]


def assert_step(page, step: int, mask: bool) -> None:
    """The page shows step `step` exactly as ptrnet.explain.hull_step computes it."""
    expected = hull_step(step, mask)
    assert out_value(page, DEMO, "step") == step
    assert out_value(page, DEMO, "choice") == expected["choice"] == SEQUENCE[step - 1]
    assert out_value(page, DEMO, "probs") == pytest.approx(expected["probs"], abs=1e-12)
    assert out_value(page, DEMO, "output") == expected["output"] == SEQUENCE[:step]
    assert out_value(page, DEMO, "input") == expected["input"]  # 0 stands for ⇒
    shown_input = page.text_content(f'{ROOT} [data-out="input"]')
    assert shown_input == ("⇒" if expected["input"] == 0 else f"P{expected['input']}")
    assert page.text_content(f'{ROOT} [data-out="choice"]') == (
        "⇐" if expected["choice"] == 0 else f"P{expected['choice']}"
    )
    assert page.is_checked(f'{ROOT} [data-control="mask"]') == mask
    assert canvas_points(page, CANVAS) == HULL_EXAMPLE


def test_step_one_starts_from_the_start_token(demo):
    assert_step(demo, 1, False)
    assert "1 / 6" in demo.text_content(f"{ROOT} .step-count")
    assert demo.is_disabled(f'{ROOT} [data-action="prev"]')
    assert "예시로 정한 값" in demo.text_content(f"{ROOT} .illustrative-badge")
    assert demo.watch.console_errors == []


def test_next_and_prev_walk_through_all_six_steps(demo):
    for step in range(2, 7):
        demo.click(f'{ROOT} [data-action="next"]')
        wait_ready(demo, DEMO)
        assert_step(demo, step, False)
    assert demo.text_content(f'{ROOT} [data-out="output"]') == "⇒ 3 → 6 → 4 → 5 → 3 ⇐"
    assert demo.is_disabled(f'{ROOT} [data-action="next"]')
    demo.click(f'{ROOT} [data-action="prev"]')
    wait_ready(demo, DEMO)
    assert_step(demo, 5, False)
    assert "hull-steps.step=5" in demo.evaluate("() => location.hash")


def test_the_mask_removes_chosen_points_but_keeps_the_start(demo):
    for _ in range(4):
        demo.click(f'{ROOT} [data-action="next"]')
    wait_ready(demo, DEMO)
    assert_step(demo, 5, False)
    demo.check(f'{ROOT} [data-control="mask"]')
    wait_ready(demo, DEMO)
    assert_step(demo, 5, True)
    probs = out_value(demo, DEMO, "probs")
    assert [probs[k - 1] for k in (6, 4, 5)] == [0, 0, 0]  # chosen before: masked
    assert probs[2] > 0.5  # P3 stays so the polygon can close
    assert "가림" in demo.text_content(f'{ROOT} [data-out="probs"]')
    demo.keyboard.press("Space")  # the toggle keeps focus: the keyboard turns it off again
    wait_ready(demo, DEMO)
    assert_step(demo, 5, False)


def test_play_advances_about_one_step_a_second_and_stops_at_six(page, site_url):
    open_with_clock(page, site_url + DEMO_PAGE)
    wait_ready(page, DEMO)
    page.click(f'{ROOT} [data-action="play"]')
    assert page.get_attribute(f'{ROOT} [data-action="play"]', "aria-pressed") == "true"
    page.wait_for_function(
        "() => document.querySelector('[data-demo=\"hull-steps\"] [data-out=\"step\"]')?.dataset.value === '3'",
        timeout=5_000,
    )
    page.wait_for_function(
        "() => document.querySelector('[data-demo=\"hull-steps\"] [data-out=\"step\"]')?.dataset.value === '6'",
        timeout=10_000,
    )
    wait_ready(page, DEMO)
    assert_step(page, 6, False)
    page.wait_for_function(
        "() => document.querySelector('[data-demo=\"hull-steps\"] [data-action=\"play\"]').getAttribute('aria-pressed') === 'false'",
        timeout=3_000,
    )
    assert calls_ahead(page) == []  # no further step, seconds later either
    assert out_value(page, DEMO, "step") == 6


def test_play_from_the_end_restarts_and_reduced_motion_still_steps(page, site_url):
    page.emulate_media(reduced_motion="reduce")
    open_with_clock(page, f"{site_url}index.html#hull-steps.step=6&hull-steps.mask=1&hull-steps.model=0")
    wait_ready(page, DEMO)
    assert_step(page, 6, True)
    page.click(f'{ROOT} [data-action="play"]')
    wait_ready(page, DEMO)
    assert_step(page, 1, True)
    page.wait_for_function(
        "() => document.querySelector('[data-demo=\"hull-steps\"] [data-out=\"step\"]')?.dataset.value === '2'",
        timeout=5_000,
    )
    page.click(f'{ROOT} [data-action="play"]')  # pressed again: pause
    wait_ready(page, DEMO)
    paused = out_value(page, DEMO, "step")
    assert calls_ahead(page) == []  # seconds pass on the page's clock without a step
    assert out_value(page, DEMO, "step") == paused
    assert_step(page, paused, True)


def test_permalink_restores_step_and_mask_and_clamps_bad_values(page, site_url):
    page.goto(f"{site_url}index.html#hull-steps.step=4&hull-steps.mask=1&hull-steps.model=0")
    wait_ready(page, DEMO)
    assert_step(page, 4, True)
    page.goto(f"{site_url}index.html#hull-steps.step=99&hull-steps.mask=maybe&hull-steps.model=0")
    page.reload()
    wait_ready(page, DEMO)
    assert_step(page, 6, False)
    message = page.text_content(f"{ROOT} .demo-message")
    assert "범위" in message and "마스크" in message
