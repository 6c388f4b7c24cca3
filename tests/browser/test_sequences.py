"""Demo 2 [sequences] driven like a reader: real clicks and drags on the canvas in Chromium."""

import pytest

from ptrnet.geometry.degenerate import notes
from ptrnet.geometry.notation import hull_sequence, tsp_sequence
from tests.browser.conftest import canvas_points, drag, out_value, pixel_of, wait_ready

DEMO = "sequences"
CANVAS = '[data-demo="sequences"] canvas'


def assert_matches_oracle(page):
    """hull and tsp shown by the page equal the CPython answers for the page's own points."""
    points = canvas_points(page, CANVAS)
    assert out_value(page, DEMO, "hull") == hull_sequence(points)
    assert out_value(page, DEMO, "tsp") == tsp_sequence(points)
    return points


def test_page_reaches_ready_and_shows_answers_for_default_points(demo):
    assert demo.get_attribute("html", "data-python") == "ready"
    points = assert_matches_oracle(demo)
    assert len(points) >= 3
    assert demo.watch.console_errors == []
    assert demo.watch.foreign_requests == []


def test_dragging_a_point_recomputes_hull_and_tour(demo):
    before = canvas_points(demo, CANVAS)
    # Drag an interior-ish point far outside the current hull: both answers must change.
    k = 4
    drag(demo, CANVAS, before[k], (0.97, 0.03))
    wait_ready(demo, DEMO)
    after = assert_matches_oracle(demo)
    assert after[k] == pytest.approx([0.97, 0.03], abs=0.01)
    assert [p for i, p in enumerate(after) if i != k] == [p for i, p in enumerate(before) if i != k]
    assert k + 1 in out_value(demo, DEMO, "hull")


def test_a_fast_drag_ends_on_the_final_state(demo):
    points = canvas_points(demo, CANVAS)
    demo.mouse.move(*pixel_of(demo, CANVAS, points[0]))
    demo.mouse.down()
    for t in range(40):  # no waiting between moves: replies arrive out of step with the pointer
        demo.mouse.move(*pixel_of(demo, CANVAS, (0.1 + 0.02 * t, 0.9 - 0.02 * t)))
    demo.mouse.up()
    wait_ready(demo, DEMO)
    final = assert_matches_oracle(demo)
    assert final[0] == pytest.approx([0.88, 0.12], abs=0.01)


def test_a_drag_writes_the_url_once_when_it_ends_not_on_every_move(demo):
    demo.evaluate("""() => {
      window.__urlWrites = 0;
      const replace = history.replaceState.bind(history);
      history.replaceState = (...args) => { window.__urlWrites += 1; return replace(...args); };
    }""")
    points = canvas_points(demo, CANVAS)
    demo.mouse.move(*pixel_of(demo, CANVAS, points[2]))
    demo.mouse.down()
    demo.mouse.move(*pixel_of(demo, CANVAS, (0.42, 0.58)), steps=30)
    assert demo.evaluate("() => window.__urlWrites") == 0
    demo.mouse.up()
    wait_ready(demo, DEMO)
    assert demo.evaluate("() => window.__urlWrites") == 1
    assert "0.42,0.58" in demo.evaluate("() => location.hash")


def test_clicks_add_points_up_to_twelve_then_refuse_with_a_message(demo):
    n = len(canvas_points(demo, CANVAS))
    spots = [(0.05 + 0.08 * i, 0.97) for i in range(12)]
    for spot in spots[: 12 - n]:
        demo.mouse.click(*pixel_of(demo, CANVAS, spot))
        wait_ready(demo, DEMO)
    assert len(canvas_points(demo, CANVAS)) == 12
    assert_matches_oracle(demo)
    demo.mouse.click(*pixel_of(demo, CANVAS, (0.5, 0.02)))
    assert len(canvas_points(demo, CANVAS)) == 12
    message = demo.text_content('[data-demo="sequences"] .demo-message')
    assert "12개" in message
    assert demo.get_attribute('[data-demo="sequences"]', "data-state") == "idle"


def test_double_click_and_right_click_delete_a_point(demo):
    points = canvas_points(demo, CANVAS)
    demo.mouse.dblclick(*pixel_of(demo, CANVAS, points[2]))
    wait_ready(demo, DEMO)
    after = canvas_points(demo, CANVAS)
    assert after == points[:2] + points[3:]
    assert_matches_oracle(demo)
    demo.mouse.click(*pixel_of(demo, CANVAS, after[0]), button="right")
    wait_ready(demo, DEMO)
    assert canvas_points(demo, CANVAS) == after[1:]
    assert_matches_oracle(demo)


def test_keyboard_selects_moves_and_deletes_points(demo):
    points = canvas_points(demo, CANVAS)
    demo.focus(CANVAS)
    demo.keyboard.press("]")  # selects P1
    demo.keyboard.press("Shift+ArrowRight")
    wait_ready(demo, DEMO)
    moved = canvas_points(demo, CANVAS)
    assert moved[0] == pytest.approx([points[0][0] + 0.05, points[0][1]], abs=1e-9)
    demo.keyboard.press("Delete")
    wait_ready(demo, DEMO)
    assert canvas_points(demo, CANVAS) == moved[1:]
    assert_matches_oracle(demo)


def test_reset_returns_to_the_default_points(demo):
    default = canvas_points(demo, CANVAS)
    drag(demo, CANVAS, default[1], (0.5, 0.95))
    demo.click('[data-demo="sequences"] [data-action="reset"]')
    wait_ready(demo, DEMO)
    assert canvas_points(demo, CANVAS) == default
    assert_matches_oracle(demo)


def test_permalink_restores_the_point_set(page, site_url):
    points = [[0.1, 0.1], [0.9, 0.1], [0.9, 0.9], [0.1, 0.9], [0.5, 0.5], [0.3, 0.6]]
    fragment = "_".join(f"{x},{y}" for x, y in points)
    page.goto(f"{site_url}index.html#sequences.points={fragment}")
    wait_ready(page, DEMO)
    assert canvas_points(page, CANVAS) == points
    assert out_value(page, DEMO, "hull") == [1, 2, 3, 4, 1]
    assert_matches_oracle(page)


def test_a_dragged_state_survives_a_reload_through_the_url(demo):
    points = canvas_points(demo, CANVAS)
    drag(demo, CANVAS, points[3], (0.33, 0.44))
    wait_ready(demo, DEMO)
    moved = canvas_points(demo, CANVAS)
    demo.reload()
    wait_ready(demo, DEMO)
    assert sum(canvas_points(demo, CANVAS), []) == pytest.approx(sum(moved, []), abs=1e-3)
    assert_matches_oracle(demo)


def test_odd_url_parameters_give_a_message_and_a_working_demo(page, site_url):
    page.goto(f"{site_url}index.html#sequences.points=0.2,0.2_abc_0.8,0.3_5,-1_0.4,0.9&unknown=1")
    wait_ready(page, DEMO)
    assert canvas_points(page, CANVAS) == [[0.2, 0.2], [0.8, 0.3], [1, 0], [0.4, 0.9]]
    assert "건너뛰었습니다" in page.text_content('[data-demo="sequences"] .demo-message')
    assert_matches_oracle(page)


def test_points_on_one_line_get_a_note_until_one_is_dragged_off_it(page, site_url):
    page.goto(f"{site_url}index.html#sequences.points=0.1,0.1_0.5,0.5_0.9,0.9")
    wait_ready(page, DEMO)
    note = page.locator('[data-demo="sequences"] [data-out="notes"]')
    assert out_value(page, DEMO, "notes") == notes(canvas_points(page, CANVAS))
    assert note.is_visible() and "한 직선 위" in note.text_content() and "P1, P3" in note.text_content()
    assert out_value(page, DEMO, "hull") == [1, 3, 1]
    drag(page, CANVAS, (0.5, 0.5), (0.8, 0.2))
    wait_ready(page, DEMO)
    assert out_value(page, DEMO, "notes") == [] and not note.is_visible()
    assert_matches_oracle(page)


def test_too_many_points_in_the_url_keep_the_first_twelve(page, site_url):
    fragment = "_".join(f"{0.05 + 0.06 * i:.2f},{0.5 + 0.3 * (-1) ** i:.2f}" for i in range(15))
    page.goto(f"{site_url}index.html#sequences.points={fragment}")
    wait_ready(page, DEMO)
    assert len(canvas_points(page, CANVAS)) == 12
    assert "12개" in page.text_content('[data-demo="sequences"] .demo-message')
    assert_matches_oracle(page)


def test_a_python_error_comes_back_in_korean_and_the_demo_keeps_working(demo):
    error = demo.evaluate(
        """async () => {
            const { getRuntime } = await import('./js/runtime/client.js');
            try { await getRuntime().call('sequences', 'solve', { points: [[2, 2], [0, 0], [1, 1]] }); return null; }
            catch (err) { return { kind: err.kind, message: err.message }; }
        }"""
    )
    assert error["kind"] == "input"
    assert any("\uac00" <= ch <= "\ud7a3" for ch in error["message"])  # Korean text for the reader
    points = canvas_points(demo, CANVAS)
    drag(demo, CANVAS, points[0], (0.6, 0.6))
    wait_ready(demo, DEMO)
    assert_matches_oracle(demo)


def test_the_site_also_works_served_from_the_root(page, root_site_url):
    page.goto(root_site_url + "index.html")
    wait_ready(page, DEMO)
    assert_matches_oracle(page)
    assert page.watch.console_errors == []


def test_touch_drag_moves_a_point(browser, site_url):
    context = browser.new_context(viewport={"width": 390, "height": 800}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(site_url + "index.html")
    wait_ready(page, DEMO)
    points = canvas_points(page, CANVAS)
    start, end = pixel_of(page, CANVAS, points[1]), pixel_of(page, CANVAS, (0.5, 0.5))
    touch = context.new_cdp_session(page)  # real touch input, turned into pointer events by Chromium
    path = [start] + [
        (start[0] + (end[0] - start[0]) * t / 5, start[1] + (end[1] - start[1]) * t / 5) for t in range(1, 6)
    ]
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]})
    for x, y in path[1:]:
        touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    wait_ready(page, DEMO)
    assert canvas_points(page, CANVAS)[1] == pytest.approx([0.5, 0.5], abs=0.01)
    assert_matches_oracle(page)
    context.close()
