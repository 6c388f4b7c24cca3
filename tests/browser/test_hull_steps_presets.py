"""Demo 4 [hull-steps]'s presets: hard cases for the trained Ptr-Net, checked against the worker's replies and
CPython, kept in the permalink; the candidates' labels and the accuracy line as Python wrote them."""

import pytest

from ptrnet import formats
from ptrnet.api import dispatch
from ptrnet.limits import HESITANT, HULL_PRESETS
from tests.browser.conftest import canvas_points, drag, out_value, wait_ready

DEMO = "hull-steps"
ROOT = '[data-demo="hull-steps"]'
CANVAS = f"{ROOT} canvas"
PRESET = f'{ROOT} [data-control="preset"]'


def choose(page, name: str) -> None:
    """Pick a preset from the select, as a reader would, and wait for the model's answer."""
    page.select_option(PRESET, name)
    wait_ready(page, DEMO)


def page_steps(page) -> list[list[float]]:
    """Every step's probabilities as the page shows them, stepping with ‘다음 ▶’ from step 1 to the last."""
    steps = [out_value(page, DEMO, "probs")]
    while not page.is_disabled(f'{ROOT} [data-action="next"]'):
        page.click(f'{ROOT} [data-action="next"]')
        page.wait_for_function(
            '([root, step]) => document.querySelector(`${root} [data-out="step"]`).dataset.value === String(step)',
            arg=[ROOT, len(steps) + 1],
        )
        steps.append(out_value(page, DEMO, "probs"))
    return steps


def test_the_example_is_the_first_preset_and_the_default(demo):
    options = demo.eval_on_selector_all(f"{PRESET} option", "(os) => os.map((o) => [o.value, o.textContent])")
    assert options[: len(HULL_PRESETS)] == [[name, p["label"]] for name, p in HULL_PRESETS.items()]
    assert demo.input_value(PRESET) == "example"
    assert canvas_points(demo, CANVAS) == HULL_PRESETS["example"]["points"]


def test_each_preset_sets_its_points_from_step_one_and_a_hard_one_has_an_unsure_step(demo):
    least_sure = {}
    for name, preset in HULL_PRESETS.items():
        away = "prev" if demo.is_disabled(f'{ROOT} [data-action="next"]') else "next"  # the last step or the first
        demo.click(f'{ROOT} [data-action="{away}"]')
        assert out_value(demo, DEMO, "step") != 1  # which the preset must reset
        choose(demo, name)
        assert canvas_points(demo, CANVAS) == preset["points"] and out_value(demo, DEMO, "step") == 1
        expected = dispatch(DEMO, "real", {"points": preset["points"]})
        shown = page_steps(demo)
        assert len(shown) == len(expected["steps"])
        for probs, step in zip(shown, expected["steps"], strict=True):
            assert probs == pytest.approx(step["probs"], abs=5e-5)  # float32 in both runtimes, summed in other orders
        assert out_value(demo, DEMO, "output") == [s["choice"] for s in expected["steps"]]
        least_sure[name] = min(max(probs) for probs in shown)
    assert least_sure["example"] >= HESITANT  # the example is an easy one, and the others are not
    assert any(least_sure[name] < HESITANT for name in HULL_PRESETS if name != "example"), least_sure


def test_the_labels_are_pythons_probabilities_as_they_are(demo):
    choose(demo, "nearly-collinear")
    probs = out_value(demo, DEMO, "probs")
    names = [f"P{k + 1}" for k in range(len(probs) - 1)] + ["⇐"]
    text = demo.text_content(f'{ROOT} [data-out="probs"]')
    assert text == " · ".join(f"{name} {formats.probability(p)}" for name, p in zip(names, probs, strict=True))


def test_the_permalink_keeps_a_presets_points_and_a_drag_makes_them_the_readers_own(demo):
    choose(demo, "just-inside")
    assert "hull-steps.points=" in demo.url
    demo.reload()
    wait_ready(demo, DEMO)
    assert canvas_points(demo, CANVAS) == HULL_PRESETS["just-inside"]["points"]
    assert demo.input_value(PRESET) == "just-inside"
    drag(demo, CANVAS, HULL_PRESETS["just-inside"]["points"][0], (0.5, 0.5), steps=4)
    wait_ready(demo, DEMO)
    assert demo.input_value(PRESET) == "custom"


def test_a_preset_chosen_in_the_example_mode_turns_the_real_model_on(demo):
    demo.uncheck(f'{ROOT} [data-control="model"]')
    wait_ready(demo, DEMO)
    choose(demo, "just-outside")
    assert demo.is_checked(f'{ROOT} [data-control="model"]')
    assert canvas_points(demo, CANVAS) == HULL_PRESETS["just-outside"]["points"]
    assert "실제" in demo.text_content(f"{ROOT} .illustrative-badge")
