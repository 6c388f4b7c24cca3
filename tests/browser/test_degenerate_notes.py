"""Degenerate point sets on the companion page and in the attention view: a note says why the answer follows a
rule of the notation (demo 2's and demo 4's notes are tested in their own files)."""

import pytest

from ptrnet.geometry.degenerate import notes
from ptrnet.views import models
from tests.browser.conftest import canvas_points, out_value, wait_ready

COMPANION = "three-problems"
ATTENTION = "attention-vs-pointer"
ATTENTION_CANVAS = f'[data-demo="{ATTENTION}"] canvas[data-panel="pointer"]'


def test_the_companion_page_notes_four_points_on_one_circle_until_the_example_is_restored(page, site_url):
    page.goto(f"{site_url}three-problems.html#three-problems.points=0.2,0.2_0.8,0.2_0.8,0.8_0.2,0.8")
    wait_ready(page, COMPANION)
    note = page.locator(f'[data-demo="{COMPANION}"] [data-out="notes"]')
    assert note.is_visible() and "(P1, P2, P3, P4)" in note.text_content() and "들로네" in note.text_content()
    page.click(f'[data-demo="{COMPANION}"] [data-action="reset"]')
    wait_ready(page, COMPANION)
    assert out_value(page, COMPANION, "notes") == [] and not note.is_visible()


def test_the_attention_view_notes_points_on_one_line_beside_the_true_hull(page, site_url):
    line = "_".join(f"{0.1 + 0.1 * k:.1f},{0.1 + 0.1 * k:.1f}" for k in range(6))
    page.goto(f"{site_url}index.html#attention-vs-pointer.points={line}")
    wait_ready(page, ATTENTION)
    points = canvas_points(page, ATTENTION_CANVAS)
    assert out_value(page, ATTENTION, "truth") == [1, 6, 1]
    assert out_value(page, ATTENTION, "notes") == notes(points)
    assert "한 직선 위" in page.text_content(f'[data-demo="{ATTENTION}"] [data-out="notes"]')
    expected = models.attention_vs_pointer(points)  # the models still answer (scipy's hull cannot: flat input)
    assert out_value(page, ATTENTION, "pointer") == pytest.approx(expected["pointer"][0]["probs"], abs=1e-4)
