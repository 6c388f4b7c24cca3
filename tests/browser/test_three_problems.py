"""The companion page [three-problems]: the 7-point example solved three ways, draggable."""

from itertools import pairwise

import numpy as np
import pytest

from ptrnet.geometry.degenerate import notes
from ptrnet.geometry.notation import canonical_tour, delaunay_sequence, hull_sequence, tsp_sequence
from ptrnet.geometry.tsp import tour_length as closed_length
from ptrnet.pointer import answers, tasks, weights
from tests.browser.conftest import canvas_points, drag, out_value, pixel_of, wait_ready

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
    assert out_value(demo, DEMO, "delaunay") == [
        [1, 3, 5],
        [1, 5, 7],
        [1, 2, 3],
        [1, 2, 7],
        [4, 5, 7],
        [2, 3, 6],
        [2, 4, 7],
        [2, 4, 6],
    ]
    assert out_value(demo, DEMO, "tsp_length") == pytest.approx(2.6175, abs=1e-4)
    assert demo.watch.console_errors == []
    assert demo.watch.foreign_requests == []


@pytest.mark.parametrize("panel", ["hull", "delaunay", "tsp"])
def test_dragging_in_any_panel_updates_all_three_answers(demo, panel):
    # Pull P1 (inside the hull) out past the right edge of the hull: every answer changes.
    drag(demo, canvas(panel), REFERENCE[0], (0.97, 0.45), steps=6)
    wait_ready(demo, DEMO)
    points = canvas_points(demo, canvas("hull"))
    assert points[0] == pytest.approx([0.97, 0.45], abs=0.01)
    assert canvas_points(demo, canvas("tsp")) == points == canvas_points(demo, canvas("delaunay"))
    assert out_value(demo, DEMO, "hull") == hull_sequence(points)
    assert out_value(demo, DEMO, "tsp") == tsp_sequence(points)
    assert out_value(demo, DEMO, "delaunay") == delaunay_sequence(points)
    assert 1 in out_value(demo, DEMO, "hull")


def test_reset_restores_the_reference_example(demo):
    drag(demo, canvas("hull"), REFERENCE[6], (0.5, 0.98), steps=4)
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
    said = page.text_content('[data-demo="three-problems"] [data-out="notes"]')
    assert out_value(page, DEMO, "notes") == notes(points, triangulation=True)
    assert "한 직선 위" in said and "삼각형은 하나도" in said


# ---------------------------------------------------------------- our trained Ptr-Nets over the exact answers


def _models_for(points) -> dict:
    """What CPython's ptrnet answers for these points: the page must show the same, computed in its worker."""
    from ptrnet import api

    return api.dispatch("three-problems", "solve", {"points": points})


def _assert_model_outputs(page, points) -> None:
    expected = _models_for(points)
    n = len(points)
    hull = out_value(page, DEMO, "model_hull")
    assert hull == expected["model_hull"] and all(1 <= j <= n for j in hull)
    tour = out_value(page, DEMO, "model_tsp")
    assert tour == expected["model_tsp"]
    assert tour[0] == tour[-1] == 1 and sorted(tour[:-1]) == list(range(1, n + 1))  # constrained: always a tour
    optimal = out_value(page, DEMO, "tsp_length")
    assert out_value(page, DEMO, "tsp_ratio") == pytest.approx(
        closed_length(points, [j - 1 for j in tour[:-1]]) / optimal, rel=1e-9
    )
    assert out_value(page, DEMO, "tsp_ratio") >= 1 - 1e-12
    triangles = out_value(page, DEMO, "model_delaunay")
    assert triangles == expected["model_delaunay"]
    assert all(t == sorted(t) and all(1 <= j <= n for j in t) for t in triangles)


def test_each_panel_shows_the_trained_models_answer_over_the_exact_one(demo):
    _assert_model_outputs(demo, REFERENCE)
    for panel in ("hull", "delaunay", "tsp"):
        assert demo.locator(f'{canvas(panel)} >> xpath=ancestor::figure//*[@data-out="model_{panel}"]').count() == 1
    assert demo.watch.console_errors == []


def test_dragging_redraws_the_model_answers_for_the_new_points(demo):
    drag(demo, canvas("delaunay"), REFERENCE[1], (0.95, 0.05))
    wait_ready(demo, DEMO)
    points = canvas_points(demo, canvas("tsp"))
    assert points[1] == pytest.approx([0.95, 0.05], abs=0.01)
    assert out_value(demo, DEMO, "hull") == hull_sequence(points)
    _assert_model_outputs(demo, points)


def test_wrong_hull_edges_and_triangles_are_the_differences_from_the_exact_answers(page, site_url):
    points = [
        [0.5, 0.5],
        [0.52, 0.49],
        [0.1, 0.12],
        [0.9, 0.1],
        [0.88, 0.92],
        [0.12, 0.9],
        [0.5, 0.95],
        [0.05, 0.5],
        [0.95, 0.52],
        [0.5, 0.05],
        [0.3, 0.31],
        [0.71, 0.69],
    ]
    fragment = "_".join(f"{x},{y}" for x, y in points)
    page.goto(f"{site_url}three-problems.html#three-problems.points={fragment}")
    wait_ready(page, DEMO)
    _assert_model_outputs(page, points)
    expected = _models_for(points)
    exact_edges = {frozenset(e) for e in pairwise(expected["hull"])}
    model = expected["model_hull"]
    assert {frozenset(e) for e in expected["hull_wrong_edges"]} == {frozenset(e) for e in pairwise(model)} - exact_edges
    truth = [sorted(t) for t in delaunay_sequence(points)]
    assert expected["delaunay_wrong"] == [t for t in out_value(page, DEMO, "model_delaunay") if t not in truth]


def test_the_a1_and_a2_tours_can_be_switched_on_and_are_kept_in_the_link(demo):
    assert demo.locator('[data-baseline="A1"]').is_hidden()
    demo.check('[data-demo="three-problems"] [data-control="a1"]')
    demo.check('[data-demo="three-problems"] [data-control="a2"]')
    assert demo.locator('[data-baseline="A1"]').is_visible() and demo.locator('[data-baseline="A2"]').is_visible()
    optimal = out_value(demo, DEMO, "tsp_length")
    assert (
        out_value(demo, DEMO, "a1_length") >= optimal - 1e-12 and out_value(demo, DEMO, "a2_length") >= optimal - 1e-12
    )
    assert "a1=1" in demo.url and "a2=1" in demo.url
    demo.reload()
    wait_ready(demo, DEMO)
    assert demo.is_checked('[data-demo="three-problems"] [data-control="a2"]')


VOTE_POINTS = [  # 12 points on which the symmetry vote gives another Delaunay answer than greedy decoding
    [0.1, 0.1],
    [0.9, 0.2],
    [0.5, 0.5],
    [0.8, 0.9],
    [0.2, 0.8],
    [0.3, 0.3],
    [0.6, 0.1],
    [0.45, 0.7],
    [0.7, 0.6],
    [0.15, 0.5],
    [0.85, 0.45],
    [0.55, 0.25],
]


def test_the_symmetry_vote_shows_the_majority_answer_and_its_share_and_is_kept_in_the_link(page, site_url):
    from ptrnet import api

    fragment = "_".join(f"{x},{y}" for x, y in VOTE_POINTS)
    page.goto(f"{site_url}three-problems.html#three-problems.points={fragment}")
    wait_ready(page, DEMO)
    greedy = _models_for(VOTE_POINTS)
    voted = api.dispatch("three-problems", "solve", {"points": VOTE_POINTS, "vote": True})
    assert voted["model_delaunay"] != greedy["model_delaunay"]
    assert out_value(page, DEMO, "model_delaunay") == greedy["model_delaunay"]
    assert page.locator('[data-out="model_delaunay_votes"]').get_attribute("data-value") is None
    assert page.locator('[data-out="model_delaunay_votes"]').is_hidden()
    page.check('[data-demo="three-problems"] [data-control="vote"]')
    page.locator('[data-out="model_delaunay_votes"][data-value]').wait_for(state="attached")
    wait_ready(page, DEMO)
    for task in ("hull", "delaunay"):
        assert out_value(page, DEMO, f"model_{task}") == voted[f"model_{task}"]
        assert out_value(page, DEMO, f"model_{task}_votes") == voted["model_votes"][task]
        assert page.locator(f'[data-out="model_{task}_votes"]').is_visible()
        share = page.text_content(f'[data-out="model_{task}_votes"]')
        assert f"8개 중 {voted['model_votes'][task]}개" in share
    assert out_value(page, DEMO, "model_tsp") == greedy["model_tsp"]  # the tour search does not vote
    assert "vote=1" in page.url
    page.reload()
    wait_ready(page, DEMO)
    assert page.is_checked('[data-demo="three-problems"] [data-control="vote"]')
    assert out_value(page, DEMO, "model_delaunay") == voted["model_delaunay"]
    page.uncheck('[data-demo="three-problems"] [data-control="vote"]')
    page.locator('[data-out="model_delaunay_votes"]:not([data-value])').wait_for(state="attached")
    wait_ready(page, DEMO)
    assert out_value(page, DEMO, "model_delaunay") == greedy["model_delaunay"]
    assert page.watch.console_errors == []


def test_points_can_be_added_and_deleted_between_three_and_twelve(demo):
    demo.mouse.click(*pixel_of(demo, canvas("hull"), (0.92, 0.92)))
    wait_ready(demo, DEMO)
    points = canvas_points(demo, canvas("tsp"))
    assert len(points) == 8 and points[7] == pytest.approx([0.92, 0.92], abs=0.01)
    assert out_value(demo, DEMO, "tsp") == tsp_sequence(points)
    _assert_model_outputs(demo, points)
    for point in reversed(points[3:]):
        demo.mouse.dblclick(*pixel_of(demo, canvas("tsp"), point))
        wait_ready(demo, DEMO)
    assert len(canvas_points(demo, canvas("hull"))) == 3
    demo.mouse.dblclick(*pixel_of(demo, canvas("tsp"), points[0]))
    assert len(canvas_points(demo, canvas("hull"))) == 3
    assert "3개 이상" in demo.text_content('[data-demo="three-problems"] .demo-message')
    _assert_model_outputs(demo, points[:3])


def test_only_the_companion_page_fetches_the_tsp_and_delaunay_weights(demo, site_url):
    fetched = [u for u in demo.watch.requests if "/models/" in u]
    assert any(u.endswith("tsp_ptrnet.npz") for u in fetched) and any(
        u.endswith("delaunay_ptrnet.npz") for u in fetched
    )
    before = len(demo.watch.requests)
    demo.goto(site_url + "index.html")
    wait_ready(demo, "hull-steps")
    later = demo.watch.requests[before:]
    assert any(u.endswith("hull_ptrnet.npz") for u in later)  # the article's demos do use the hull model
    assert not [u for u in later if u.endswith(("tsp_ptrnet.npz", "delaunay_ptrnet.npz"))]


def test_a_first_visit_fetches_its_four_models_at_once_and_a_failed_download_can_be_retried(page, site_url):
    """The handler declares its weights: the three problems' Ptr-Nets and (its toggle on) the A1-taught one are
    asked for before any answer (in parallel), and when they
    fail the exact answers still come, with a retry that fetches them again without a reload."""
    asked, failing = [], [True]

    def fetch(route):
        asked.append(route.request.url.rsplit("/", 1)[1])
        if failing[0]:
            route.fulfill(status=503, body="busy")
        else:
            route.continue_()

    page.route("**/models/*.npz", fetch)
    page.goto(f"{site_url}{DEMO_PAGE}#three-problems.student=1")
    wait_ready(page, DEMO)
    wanted = ["delaunay_ptrnet.npz", "hull_ptrnet.npz", "tsp_ptrnet.npz", "tsp_ptrnet_a1.npz"]
    assert sorted(asked) == wanted  # one round, each once
    assert out_value(page, DEMO, "hull") == [3, 6, 4, 5, 3] and out_value(page, DEMO, "model_hull") is None
    message = page.locator(f'[data-demo="{DEMO}"] .demo-message')
    assert "내려받지 못해" in message.inner_text()
    failing[0] = False
    message.locator('[data-action="retry"]').click()
    page.wait_for_function(
        '() => document.querySelector(\'[data-demo="three-problems"] [data-out="model_hull"]\')?.dataset.value',
        timeout=30_000,
    )
    wait_ready(page, DEMO)
    assert out_value(page, DEMO, "model_hull") == [3, 6, 4, 5, 3] and out_value(page, DEMO, "model_tsp")
    assert "내려받지 못해" not in message.inner_text() and len(asked) == 2 * len(wanted)


def test_the_tsp_panel_sets_the_a1_taught_models_tour_beside_a1s_and_the_optimum_once_its_toggle_is_on(demo):
    line = demo.locator('[data-demo="three-problems"] .student-line')
    assert not line.is_visible() and out_value(demo, DEMO, "model_tsp_a1") is None
    assert not [u for u in demo.watch.requests if u.endswith("tsp_ptrnet_a1.npz")]  # not run, not fetched
    demo.locator('[data-demo="three-problems"] [data-control="student"]').check()
    demo.locator('[data-demo="three-problems"] [data-out="model_tsp_a1"][data-value]').wait_for(state="attached")
    wait_ready(demo, DEMO)
    assert line.is_visible() and "three-problems.student=1" in demo.url
    points = canvas_points(demo, canvas("tsp"))
    left, here, tour = set(range(1, len(points))), 0, [0]
    while left:  # A1 by hand: the nearest unvisited city, the lowest index on ties
        here = min(left, key=lambda j: (closed_length(points, [here, j]) / 2, j))
        tour.append(here)
        left.remove(here)
    assert out_value(demo, DEMO, "a1_tour") == canonical_tour([j + 1 for j in tour] + [1])
    student = out_value(demo, DEMO, "model_tsp_a1")
    assert sorted(student[:-1]) == list(range(1, len(points) + 1)) and student[0] == student[-1] == 1
    params = weights.shipped("tsp_ptrnet_a1", np.float32)  # the page decodes in float32
    assert student == answers.decode(params, "tsp", [np.array(points)], "beam", tasks.SPECS["tsp"].page_width)[0]
    demo.locator('[data-demo="three-problems"] [data-control="student"]').uncheck()
    demo.locator('[data-demo="three-problems"] [data-out="model_tsp_a1"]:not([data-value])').wait_for(state="attached")
    assert not line.is_visible()
