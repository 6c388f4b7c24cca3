"""Demo 4 [hull-steps] with the trained Ptr-Net (the default mode): real probabilities, draggable points."""

import json

import pytest

from ptrnet.api import dispatch
from ptrnet.limits import HULL_PRESETS
from tests.browser.conftest import canvas_points, drag, out_value, pixel_of, wait_ready
from training.paths import RECORDS

DEMO = "hull-steps"
ROOT = '[data-demo="hull-steps"]'
CANVAS = f"{ROOT} canvas"


def assert_matches_model(page, step: int, mask: bool) -> dict:
    """The page shows step `step` of the CPython model's decoding of the page's own points."""
    points = canvas_points(page, CANVAS)
    expected = dispatch("hull-steps", "real", {"points": points, "mask": mask})
    probs = out_value(page, DEMO, "probs")
    assert len(probs) == len(points) + 1
    assert sum(probs) == pytest.approx(1, abs=1e-6)  # the pages decode in float32
    assert probs == pytest.approx(expected["steps"][step - 1]["probs"], abs=5e-5)  # float32, summed in other orders
    assert out_value(page, DEMO, "choice") == expected["steps"][step - 1]["choice"]
    assert out_value(page, DEMO, "output") == [s["choice"] for s in expected["steps"][:step]]
    return expected


def test_the_real_model_is_the_default_and_every_step_is_a_distribution(demo):
    assert demo.is_checked(f'{ROOT} [data-control="model"]')
    assert "실제" in demo.text_content(f"{ROOT} .illustrative-badge")
    expected = assert_matches_model(demo, 1, False)
    for step in range(2, len(expected["steps"]) + 1):
        demo.click(f'{ROOT} [data-action="next"]')
        wait_ready(demo, DEMO)
        assert out_value(demo, DEMO, "step") == step
        assert_matches_model(demo, step, False)


def test_with_the_mask_the_chosen_points_get_zero_but_the_first(demo):
    demo.check(f'{ROOT} [data-control="mask"]')
    wait_ready(demo, DEMO)
    expected = assert_matches_model(demo, 1, True)
    last = len(expected["steps"])
    for _ in range(last - 1):
        demo.click(f'{ROOT} [data-action="next"]')
    wait_ready(demo, DEMO)
    probs = assert_matches_model(demo, last, True)["steps"][last - 1]["probs"]
    chosen_before = {s["choice"] for s in expected["steps"][: last - 1]} - {expected["steps"][0]["choice"], 0}
    assert all(probs[k - 1] == 0 for k in chosen_before)


def test_dragging_a_point_makes_the_model_decode_the_new_set(demo):
    before = out_value(demo, DEMO, "probs")
    points = canvas_points(demo, CANVAS)
    drag(demo, CANVAS, points[0], (0.05, 0.95), steps=5)  # P1, inside the hull
    wait_ready(demo, DEMO)
    after = canvas_points(demo, CANVAS)
    assert after[0] == pytest.approx([0.05, 0.95], abs=0.01)
    assert out_value(demo, DEMO, "step") == 1
    assert out_value(demo, DEMO, "probs") != before
    assert_matches_model(demo, 1, False)


def test_points_can_be_added_up_to_twelve_and_deleted_down_to_three(demo):
    free = [(0.05 + 0.08 * k, 0.04) for k in range(5)]  # 7 points to start with
    for k, spot in enumerate(free):
        demo.mouse.click(*pixel_of(demo, CANVAS, spot))
        wait_ready(demo, DEMO)
        assert len(canvas_points(demo, CANVAS)) == 8 + k
    assert len(canvas_points(demo, CANVAS)) == 12
    assert_matches_model(demo, 1, False)
    demo.mouse.click(*pixel_of(demo, CANVAS, (0.95, 0.5)))
    assert len(canvas_points(demo, CANVAS)) == 12 and "12개까지" in demo.text_content(f"{ROOT} .demo-message")
    while len(points := canvas_points(demo, CANVAS)) > 3:
        demo.mouse.dblclick(*pixel_of(demo, CANVAS, points[-1]))
        wait_ready(demo, DEMO)
    demo.mouse.dblclick(*pixel_of(demo, CANVAS, canvas_points(demo, CANVAS)[0]))
    assert len(canvas_points(demo, CANVAS)) == 3 and "3개 이상" in demo.text_content(f"{ROOT} .demo-message")
    assert_matches_model(demo, 1, False)


def results_accuracy(n: int) -> float:
    """The hull Ptr-Net's greedy accuracy at n in its results JSON: the tables' row, else the demo sizes' sets."""
    res = json.loads((RECORDS / "hull_results.json").read_text(encoding="utf-8"))
    rows = {row["test_n"]: row for name, row in res["ours"].items() if name.startswith("ptrnet_")}
    return rows[n]["greedy"]["accuracy"] if n in rows else res["demo_sizes"][str(n)]


def assert_accuracy_line(page, n: int, in_training: bool) -> None:
    """The line under the model's steps gives the results JSON's number at n and says whether n was trained on."""
    assert len(canvas_points(page, CANVAS)) == n
    value = out_value(page, DEMO, "accuracy")
    assert value["n"] == n and value["share"] == results_accuracy(n) and value["in_training"] is in_training
    line = page.text_content(f'{ROOT} [data-out="accuracy"]')
    assert f"{100 * results_accuracy(n):.1f}\u00a0%" in line and "5–50개로 학습" in line
    assert "3개와 4개는 학습 범위 밖" in line
    assert f"점이 {n}개({'학습 범위 안' if in_training else '학습 범위 밖'})" in line


def test_the_accuracy_line_gives_the_results_jsons_number_at_this_many_points(page, site_url):
    page.goto(f"{site_url}index.html#hull-steps.points=0.2,0.2_0.8,0.3_0.5,0.8")
    wait_ready(page, DEMO)
    assert_accuracy_line(page, 3, False)
    for spot in [(0.3, 0.6), (0.7, 0.7)]:
        page.mouse.click(*pixel_of(page, CANVAS, spot))
        wait_ready(page, DEMO)
    assert_accuracy_line(page, 5, True)  # the tables' 10,000 sets at n = 5, not the demo sizes' 1,000
    page.select_option(f'{ROOT} [data-control="preset"]', "nearly-collinear")
    wait_ready(page, DEMO)
    assert_accuracy_line(page, len(HULL_PRESETS["nearly-collinear"]["points"]), True)
    while len(canvas_points(page, CANVAS)) < 10:  # n = 10: a table row again (92.1 % there, 92.0 % in the demo sizes)
        page.mouse.click(*pixel_of(page, CANVAS, (0.05 + 0.1 * len(canvas_points(page, CANVAS)), 0.04)))
        wait_ready(page, DEMO)
    assert_accuracy_line(page, 10, True)
    page.uncheck(f'{ROOT} [data-control="model"]')  # the illustrative example has no measured accuracy
    wait_ready(page, DEMO)
    assert not page.is_visible(f'{ROOT} [data-out="accuracy"]')


def test_points_on_one_line_are_noted_for_the_model_but_not_for_the_example(page, site_url):
    line = "_".join(f"{0.1 + 0.1 * k:.1f},{0.1 + 0.1 * k:.1f}" for k in range(7))  # on y = x: exactly one line
    page.goto(f"{site_url}index.html#hull-steps.points={line}")
    wait_ready(page, DEMO)
    assert_matches_model(page, 1, False)
    note = page.locator(f'{ROOT} [data-out="notes"]')
    assert (
        out_value(page, DEMO, "notes")
        == dispatch("hull-steps", "real", {"points": canvas_points(page, CANVAS)})["notes"]
    )
    assert note.is_visible() and "양 끝점(P1, P7)" in note.text_content()
    page.click(f'{ROOT} [data-control="model"]')  # the example's fixed points: nothing to note
    wait_ready(page, DEMO)
    assert not note.is_visible()
    page.click(f'{ROOT} [data-control="model"]')  # back to the model: its answer and note come back
    wait_ready(page, DEMO)
    assert note.is_visible() and "한 직선 위" in note.text_content()
