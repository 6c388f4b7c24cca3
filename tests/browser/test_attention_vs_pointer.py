"""The article's [attention-vs-pointer] view beside demo 3: our attention seq2seq and hull Ptr-Net stepped through
on draggable points, checked against the same models on CPython and scipy's hull."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import ConvexHull

from ptrnet.views import models
from tests.browser.conftest import canvas_points, drag, out_value, wait_ready

DEMO = "attention-vs-pointer"
ROOT = f'[data-demo="{DEMO}"]'
CANVAS = f'{ROOT} canvas[data-panel="pointer"]'


def _scipy_hull(points: list[list[float]]) -> list[int]:
    ring = ConvexHull(np.array(points)).vertices + 1
    k = int(np.argmin(ring))
    return [*ring[k:].tolist(), *ring[:k].tolist(), int(ring[k])]


def _check_step(page, step: int) -> None:
    points = canvas_points(page, CANVAS)
    cpython = models.attention_vs_pointer(points)
    s2s = cpython["seq2seq"][min(step, len(cpython["seq2seq"])) - 1]
    ptr = cpython["pointer"][min(step, len(cpython["pointer"])) - 1]
    attention, pointer = out_value(page, DEMO, "attention"), out_value(page, DEMO, "pointer")
    assert out_value(page, DEMO, "step") == step
    assert len(attention) == len(points) and sum(attention) == pytest.approx(1.0, abs=1e-5)
    assert len(pointer) == len(points) + 1 and sum(pointer) == pytest.approx(1.0, abs=1e-5)
    assert attention == pytest.approx(s2s["attention"], abs=1e-4) and pointer == pytest.approx(ptr["probs"], abs=1e-4)
    assert out_value(page, DEMO, "seq2seq_token") == s2s["token"]
    assert out_value(page, DEMO, "truth") == _scipy_hull(points)


def test_stepping_shows_both_models_as_cpython_decodes_them(page, site_url):
    page.goto(site_url + "index.html")
    wait_ready(page, DEMO)
    _check_step(page, 1)
    for step in (2, 3):
        page.click(f'{ROOT} [data-action="next"]')
        page.wait_for_function(
            "([root, step]) => document.querySelector(`${root} [data-out=step]`).dataset.value === String(step)",
            arg=[ROOT, step],
        )
        _check_step(page, step)
    page.click(f'{ROOT} [data-action="prev"]')
    _check_step(page, 2)
    assert "attention-vs-pointer.step=2" in page.url
    assert page.watch.console_errors == []


def test_dragging_a_point_decodes_the_new_points(page, site_url):
    page.goto(site_url + "index.html")
    wait_ready(page, DEMO)
    before = out_value(page, DEMO, "truth")
    drag(page, CANVAS, [0.45, 0.45], [0.05, 0.95])  # P1 from inside the hull to a corner: now a vertex
    page.wait_for_function(
        "(root) => JSON.parse(document.querySelector(`${root} [data-out=truth]`).dataset.value).includes(1)", arg=ROOT
    )
    assert out_value(page, DEMO, "truth") != before
    wait_ready(page, DEMO)
    _check_step(page, 1)


def test_the_points_stay_within_the_models_sizes(page, site_url):
    page.goto(site_url + "index.html#attention-vs-pointer.points=0.1,0.1_0.9,0.1_0.5,0.9")
    wait_ready(page, DEMO)
    assert "5개보다 적어" in page.text_content(f"{ROOT} .demo-message")  # the link's 3 points: the example instead
    assert len(canvas_points(page, CANVAS)) == 7
