"""The article's [attention-vs-pointer] view beside demo 3: our attention seq2seq and hull Ptr-Net stepped through
on draggable points, checked against the same models on CPython and scipy's hull."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy.spatial import ConvexHull

from ptrnet.views import models
from tests.browser.conftest import canvas_points, drag, out_value, wait_ready
from tests.site_build import config

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
    _check_share(page, len(points), s2s)


def _check_share(page, n: int, cpython: dict) -> None:
    """The attention on the emitted point and chance, as the page shows them, against the page's own attention
    weights and token counted here (1e-9) and CPython's decoding of the same points (float32: 1e-4)."""
    attention, token = out_value(page, DEMO, "attention"), out_value(page, DEMO, "seq2seq_token")
    mass, chance = out_value(page, DEMO, "mass"), out_value(page, DEMO, "chance")
    if token == 0:  # ⇐ names no point
        assert mass is None and chance is None and cpython["mass"] is None
        return
    assert mass == pytest.approx(attention[token - 1] if token <= n else 0.0, abs=1e-9)
    assert chance == pytest.approx(1 / n if token <= n else 0.0, abs=1e-9)
    assert mass == pytest.approx(cpython["mass"], abs=1e-4) and chance == pytest.approx(cpython["chance"], abs=1e-9)
    assert page.text_content(f'{ROOT} [data-out="mass"]') == f"{100 * mass:.1f}\u00a0%"


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


def test_the_test_set_and_training_numbers_are_the_results_jsons(page, site_url):
    results = json.loads((config.RECORDS / "hull_results.json").read_text())
    page.goto(site_url + "index.html")
    wait_ready(page, DEMO)
    shown = out_value(page, DEMO, "test_sets")
    assert set(shown) == {"5", "10"}
    for n, row in shown.items():
        expected = results["ours"][f"attention_{n}"]
        assert row == {
            "accuracy": expected["greedy"]["accuracy"],
            "peak": expected["attention_peak"],
            "mass": expected["attention_mass"],
            "chance": expected["attention_chance"],
            "lines": expected["lines"],
        }
        cells = page.locator(f"{ROOT} table tbody tr", has=page.locator(f'th:text-is("{n}")')).locator("td")
        assert cells.all_text_contents()[1:] == [
            f"{100 * row[k]:.1f}\u00a0%" for k in ("accuracy", "peak", "mass", "chance")
        ]
    run = results["attention_over_training"]["rows"]
    curve = out_value(page, DEMO, "over_training")
    assert curve["steps"] == [r["step"] for r in run]
    for n in (5, 10):
        for k in ("accuracy", "peak", "mass", "chance"):
            assert curve[f"{k}_{n}"] == [r[f"n{n}"][k] for r in run]
    assert page.watch.console_errors == []
