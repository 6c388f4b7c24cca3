"""The companion page [three-problems]: the 7-point example solved three ways, draggable."""

import pytest

from ptrnet.notation import delaunay_sequence, hull_sequence, tsp_sequence
from tests.browser.conftest import canvas_points, out_value, pixel_of, wait_ready

DEMO = "three-problems"
DEMO_PAGE = "three-problems.html"
REFERENCE = [[0.45, 0.45], [0.6, 0.35], [0.15, 0.3], [0.85, 0.75], [0.3, 0.85], [0.8, 0.15], [0.5, 0.65]]


def canvas(panel):
    return f'[data-demo="three-problems"] canvas[data-panel="{panel}"]'



def test_the_reference_example_gives_the_specs_three_answers(demo):
    for panel in ("hull", "delaunay", "tsp"):
        assert canvas_points(demo, canvas(panel)) == REFERENCE
    assert out_value(demo, DEMO, "hull") == [3, 6, 4, 5, 3]
    assert out_value(demo, DEMO, "tsp") == [1, 2, 6, 4, 7, 5, 3, 1]
    assert out_value(demo, DEMO, "delaunay") == [[1, 3, 5], [1, 5, 7], [1, 2, 3], [1, 2, 7], [4, 5, 7], [2, 3, 6], [2, 4, 7], [2, 4, 6]]
    assert out_value(demo, DEMO, "tsp_length") == pytest.approx(2.6175, abs=1e-4)
    assert demo.watch.console_errors == []
    assert demo.watch.foreign_requests == []


@pytest.mark.parametrize("panel", ["hull", "delaunay", "tsp"])
def test_dragging_in_any_panel_updates_all_three_answers(demo, panel):
    # Pull P1 (inside the hull) out past the right edge of the hull: every answer changes.
    demo.mouse.move(*pixel_of(demo, canvas(panel), REFERENCE[0]))
    demo.mouse.down()
    demo.mouse.move(*pixel_of(demo, canvas(panel), (0.97, 0.45)), steps=6)
    demo.mouse.up()
    wait_ready(demo, DEMO)
    points = canvas_points(demo, canvas("hull"))
    assert points[0] == pytest.approx([0.97, 0.45], abs=0.01)
    assert canvas_points(demo, canvas("tsp")) == points == canvas_points(demo, canvas("delaunay"))
    assert out_value(demo, DEMO, "hull") == hull_sequence(points)
    assert out_value(demo, DEMO, "tsp") == tsp_sequence(points)
    assert out_value(demo, DEMO, "delaunay") == delaunay_sequence(points)
    assert 1 in out_value(demo, DEMO, "hull")


def test_reset_restores_the_reference_example(demo):
    demo.mouse.move(*pixel_of(demo, canvas("hull"), REFERENCE[6]))
    demo.mouse.down()
    demo.mouse.move(*pixel_of(demo, canvas("hull"), (0.5, 0.98)), steps=4)
    demo.mouse.up()
    wait_ready(demo, DEMO)
    assert out_value(demo, DEMO, "hull") != [3, 6, 4, 5, 3]
    demo.click('[data-demo="three-problems"] [data-action="reset"]')
    wait_ready(demo, DEMO)
    assert canvas_points(demo, canvas("hull")) == REFERENCE
    assert out_value(demo, DEMO, "hull") == [3, 6, 4, 5, 3]


def test_degenerate_collinear_points_from_the_url_get_defined_answers(page, site_url):
    page.goto(f"{site_url}three-problems.html#three-problems.points=0.1,0.1_0.5,0.5_0.9,0.9_0.3,0.3")
    wait_ready(page, DEMO)
    points = canvas_points(page, canvas("hull"))
    assert out_value(page, DEMO, "hull") == hull_sequence(points) == [1, 3, 1]
    assert out_value(page, DEMO, "delaunay") == []
    assert out_value(page, DEMO, "tsp") == tsp_sequence(points)


def test_the_page_explains_the_paper_with_its_tables(demo):
    tables = demo.locator("table")
    assert tables.count() >= 3
    text = demo.text_content("main")
    for fact in ["72.6", "69.6", "Held-Karp", "Christofides", "2.87", "7.66", "80.7", "52.8"]:
        assert fact in text
