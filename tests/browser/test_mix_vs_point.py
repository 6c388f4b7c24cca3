"""Demo 3 [mix-vs-point]: drag the decoder vector d with the mouse, by touch and with the keys.

The canvas's data-points is the tip of d as [[u, v]] in unit coordinates of its square, which
shows [-RANGE, RANGE]²: d = ((u - 0.5)·2·RANGE, (v - 0.5)·2·RANGE). data-out="d" holds d itself.
"""

import json

import pytest

from ptrnet.api import dispatch
from ptrnet.explain import ENCODERS, attention
from tests.browser.conftest import canvas_points, drag, out_value, pixel_of, wait_ready

DEMO = "mix-vs-point"
ROOT = '[data-demo="mix-vs-point"]'
CANVAS = f"{ROOT} canvas.vector-canvas"
RANGE = 2


def to_unit(d):
    return [v / (2 * RANGE) + 0.5 for v in d]


def to_vector(u):
    return [(v - 0.5) * 2 * RANGE for v in u]


def assert_matches_oracle(page):
    """weights, mixed and pointer equal CPython's for the d the page shows; the tip agrees with d."""
    d = out_value(page, DEMO, "d")
    [tip] = canvas_points(page, CANVAS)
    assert to_vector(tip) == pytest.approx(d, abs=1e-9)
    expected = attention(ENCODERS, d)
    weights = out_value(page, DEMO, "weights")
    assert weights == pytest.approx(expected["weights"], abs=1e-12)
    assert sum(weights) == pytest.approx(1)
    assert out_value(page, DEMO, "mixed") == pytest.approx(expected["mixed"], abs=1e-12)
    assert out_value(page, DEMO, "pointer") == expected["pointer"] == weights.index(max(weights)) + 1
    assert_shows_python_text(page, d)
    return d


def assert_shows_python_text(page, d):
    """Every number in the outputs reads as CPython's reply writes it."""
    text = dispatch(DEMO, "solve", {"d": d})["text"]

    def shown(name):
        return page.text_content(f'{ROOT} [data-out="{name}"]')

    assert shown("weights") == " · ".join(f"a{j + 1} {a}" for j, a in enumerate(text["weights"]))
    assert shown("d") == f"{text['d']}, 길이 {text['d_length']}"
    assert shown("mixed") == text["mixed"]
    pointer = out_value(page, DEMO, "pointer")
    assert shown("pointer") == f"e{pointer} (a{pointer} = {text['weights'][pointer - 1]})"
    assert shown("max_weight") == f"{text['max_weight']} · 엔트로피 {text['entropy']} (자연로그)"
    bars = page.get_attribute(f"{ROOT} canvas.bar-canvas", "aria-label")  # the bars' value labels, listed
    assert bars.endswith(": " + ", ".join(f"e{j + 1} {share}" for j, share in enumerate(text["shares"])))


def test_default_vector_mixes_and_points(demo):
    assert assert_matches_oracle(demo) == [1.2, 1.0]
    assert canvas_points(demo, CANVAS) == [to_unit([1.2, 1.0])]
    assert json.loads(demo.get_attribute(CANVAS, "data-viewport"))[2] > 100
    assert demo.get_attribute(CANVAS, "tabindex") == "0"
    notes = demo.text_content(f"{ROOT} .demo-notes")
    assert "내적" in notes and "tanh" in notes and "뾰족" in notes
    assert demo.watch.console_errors == []


def test_dragging_the_tip_moves_d_and_the_pointer_follows(demo):
    [tip] = canvas_points(demo, CANVAS)
    drag(demo, CANVAS, tip, (0.2, 0.5))  # d ≈ (-1.2, 0): e3 wins
    wait_ready(demo, DEMO)
    d = assert_matches_oracle(demo)
    assert d == pytest.approx([-1.2, 0.0], abs=0.03)
    assert out_value(demo, DEMO, "pointer") == 3
    drag(demo, CANVAS, (0.2, 0.5), (0.62, 0.05))  # d ≈ (0.48, -1.8): e5 wins
    wait_ready(demo, DEMO)
    d = assert_matches_oracle(demo)
    assert d == pytest.approx([0.48, -1.8], abs=0.03)
    assert out_value(demo, DEMO, "pointer") == 5
    assert f"mix-vs-point.d={d[0]:g},{d[1]:g}" in demo.evaluate("() => location.hash")


def test_arrow_keys_move_the_tip(demo):
    demo.focus(CANVAS)
    for _ in range(3):
        demo.keyboard.press("ArrowUp")
    demo.keyboard.press("Shift+ArrowLeft")
    wait_ready(demo, DEMO)
    assert assert_matches_oracle(demo) == pytest.approx([0.7, 1.3])
    demo.keyboard.press("Shift+ArrowDown")
    demo.keyboard.press("Shift+ArrowDown")
    demo.keyboard.press("ArrowRight")
    wait_ready(demo, DEMO)
    assert assert_matches_oracle(demo) == pytest.approx([0.8, 0.3])


def test_a_longer_d_gives_a_sharper_distribution_and_the_mix_stays_inside(demo):
    before = max(out_value(demo, DEMO, "weights"))
    demo.click(f'{ROOT} [data-action="longer"]')
    wait_ready(demo, DEMO)
    d = assert_matches_oracle(demo)
    assert d == pytest.approx([2.0, 1.67])  # as long as the square allows, same direction
    longer = max(out_value(demo, DEMO, "weights"))
    assert longer > before
    demo.click(f'{ROOT} [data-action="shorter"]')
    demo.click(f'{ROOT} [data-action="shorter"]')
    demo.click(f'{ROOT} [data-action="shorter"]')
    wait_ready(demo, DEMO)
    assert_matches_oracle(demo)
    assert max(out_value(demo, DEMO, "weights")) < before
    # d′ is a convex combination of the e's, so it never leaves their pentagon's bounding box.
    mixed = out_value(demo, DEMO, "mixed")
    assert min(e[0] for e in ENCODERS) <= mixed[0] <= max(e[0] for e in ENCODERS)
    assert min(e[1] for e in ENCODERS) <= mixed[1] <= max(e[1] for e in ENCODERS)


def test_touch_drag_moves_the_tip(browser, site_url):
    context = browser.new_context(viewport={"width": 390, "height": 800}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(site_url + "index.html")
    wait_ready(page, DEMO)
    [tip] = canvas_points(page, CANVAS)
    start, end = pixel_of(page, CANVAS, tip), pixel_of(page, CANVAS, (0.3, 0.8))
    touch = context.new_cdp_session(page)
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]})
    for t in range(1, 6):
        x, y = start[0] + (end[0] - start[0]) * t / 5, start[1] + (end[1] - start[1]) * t / 5
        touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    wait_ready(page, DEMO)
    assert canvas_points(page, CANVAS)[0] == pytest.approx([0.3, 0.8], abs=0.01)
    assert_matches_oracle(page)
    context.close()


def test_permalink_restores_d_and_bad_values_get_a_message(page, site_url):
    page.goto(f"{site_url}index.html#mix-vs-point.d=-1.5,0.5")
    wait_ready(page, DEMO)
    assert assert_matches_oracle(page) == [-1.5, 0.5]
    page.goto(f"{site_url}index.html#mix-vs-point.d=9,-0.25")
    page.reload()
    wait_ready(page, DEMO)
    assert assert_matches_oracle(page) == [RANGE, -0.25]
    assert "범위" in page.text_content(f"{ROOT} .demo-message")
    page.goto(f"{site_url}index.html#mix-vs-point.d=abc")
    page.reload()
    wait_ready(page, DEMO)
    assert assert_matches_oracle(page) == [1.2, 1.0]
    assert "기본값" in page.text_content(f"{ROOT} .demo-message")


def test_a_bad_vector_is_refused_in_korean_and_the_demo_keeps_working(demo):
    error = demo.evaluate(
        """async () => {
            const { getRuntime } = await import('./js/runtime/client.js');
            try { await getRuntime().call('mix-vs-point', 'solve', { d: [1, 'x'] }); return null; }
            catch (err) { return { kind: err.kind, message: err.message }; }
        }"""
    )
    assert error["kind"] == "input"
    assert any("\uac00" <= ch <= "\ud7a3" for ch in error["message"])
    demo.focus(CANVAS)
    demo.keyboard.press("ArrowDown")
    wait_ready(demo, DEMO)
    assert assert_matches_oracle(demo) == pytest.approx([1.2, 0.9])
    assert demo.get_attribute(ROOT, "data-state") == "idle"
