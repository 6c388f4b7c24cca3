"""A slow phone: Chromium's whole browser held to an eighth of one core (a cgroup CPU quota). Each page
gets ready, every demo answers as the reader scrolls to it, and in a minute of use the worker is never
restarted, no demo shows an error and the page reports none."""

import pytest

from tests.devices.visits import settle, visit, watch

READY_WITHIN_S = 240  # about 40 s here on a quiet machine: a generous bound, not a budget (bench_devices.py)
WATCHED_S = 60


@pytest.mark.parametrize("page", ["index.html", "three-problems.html"])
def test_at_an_eighth_of_a_core_a_page_gets_ready_and_keeps_its_one_worker(slow_chromium, site, page):
    record = visit(slow_chromium, site, page, READY_WITHIN_S)
    assert record.ready_s is not None, record.last
    watch(slow_chromium, record, WATCHED_S)
    answered = settle(slow_chromium, record, 120)
    assert record.problems() == []
    assert record.last["starts"] == 1
    assert answered, f"demos still waiting for Python: {record.last['demos']}"
