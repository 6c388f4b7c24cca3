"""Fixtures every browser test shares: one Playwright driver for the whole run (a second one cannot start
in the same thread while the first runs)."""

import pytest
from playwright.sync_api import sync_playwright


@pytest.fixture(scope="session")
def playwright_driver():
    with sync_playwright() as driver:
        yield driver
