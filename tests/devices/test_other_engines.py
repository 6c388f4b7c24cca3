"""Firefox ESR (over WebDriver BiDi) and WebKitGTK (Safari's engine, through its WebDriver): each page
gets ready, the demos in view answer, and there is no worker restart, no demo in error and no page
error. The article loads three times in WebKit, where restarts used to come on some loads only."""

import numpy as np
import pytest
from scipy.spatial import ConvexHull

from tests.devices.visits import PAGES, settle, visit, watch

READY_WITHIN_S = 120


def _assert_works(browser, site, page):
    record = visit(browser, site, page, READY_WITHIN_S)
    assert record.ready_s is not None, f"{browser.name}: {record.last}"
    watch(browser, record, 5)
    answered = settle(browser, record, 60)
    assert record.problems() == [], browser.name
    assert record.last["starts"] == 1
    assert answered, f"{browser.name}: demos still waiting for Python: {record.last['demos']}"
    return record


@pytest.mark.parametrize("page", PAGES)
def test_firefox_runs_each_page(firefox, site, page):
    _assert_works(firefox, site, page)


def test_in_firefox_the_sequences_demo_answers_the_readers_points(firefox, site):
    points = [(0.1, 0.1), (0.9, 0.1), (0.5, 0.8), (0.5, 0.3), (0.2, 0.6)]
    _assert_works(firefox, site, "index.html#sequences.points=" + "_".join(f"{x},{y}" for x, y in points))
    hull = firefox.value(
        """JSON.parse(document.querySelector('[data-demo="sequences"] [data-out="hull"]').dataset.value)"""
    )
    ring = [int(k) + 1 for k in ConvexHull(np.array(points)).vertices]  # Qhull: counter-clockwise
    start = ring.index(min(ring))
    assert hull == ring[start:] + ring[:start] + [min(ring)]


@pytest.mark.parametrize("page", [*PAGES, "index.html", "index.html"])
def test_webkit_runs_each_page(webkit, site, page):
    _assert_works(webkit, site, page)
