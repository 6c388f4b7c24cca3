"""Fixtures for the device tests: the site with the error recorder, and each engine as a `Browser`."""

from contextlib import ExitStack

import pytest

from tests.devices import drivers
from tests.devices.visits import recording_site
from tests.harness import LAUNCH_ARGS

EIGHTH_OF_A_CORE = 1 / 8  # roughly a low-end phone: Chromium's whole process tree on 12.5 % of one core


@pytest.fixture(scope="session")
def site():
    with recording_site() as url:
        yield url


def _available(make):
    try:
        return make()
    except drivers.Unavailable as err:
        pytest.fail(f"{err}: .ci/run installs what the device tests need")


def _entered(stack: ExitStack, manager):
    return _available(lambda: stack.enter_context(manager))


@pytest.fixture
def slow_chromium(playwright_driver):
    """Chromium held to an eighth of one core, on a fresh profile (a cold visit)."""
    with ExitStack() as stack:
        launcher = _entered(stack, drivers.cpu_quota(EIGHTH_OF_A_CORE))
        browser = playwright_driver.chromium.launch(executable_path=str(launcher), args=LAUNCH_ARGS, timeout=180_000)
        context = browser.new_context(viewport={"width": 412, "height": 915}, device_scale_factor=2)
        context.set_default_timeout(120_000)
        yield drivers.Chromium(context.new_page())
        browser.close()


@pytest.fixture(scope="module")
def firefox():
    browser = _available(drivers.Firefox)
    yield browser
    browser.close()


@pytest.fixture(scope="module")
def webkit():
    with ExitStack() as stack:
        display = _entered(stack, drivers.virtual_screen())
        browser = _available(lambda: drivers.WebKit(display))
        yield browser
        browser.close()
