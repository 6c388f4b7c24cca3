"""What every test shares: which tests the fast subset runs, and one Playwright driver for the whole run
(a second one cannot start in the same thread while the first runs)."""

import pytest
from playwright.sync_api import sync_playwright

# The CPython, build and Pyodide tests are in the fast subset (`python3 build.py test --fast`, pytest -m
# fast), new ones too, unless marked slow; a browser test marks itself fast.
FAST_FOLDERS = {"py", "build", "pyodide"}


def pytest_collection_modifyitems(items):
    for item in items:
        if item.path.parent.name in FAST_FOLDERS and not item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.fast)


@pytest.fixture(scope="session")
def playwright_driver():
    with sync_playwright() as driver:
        yield driver
