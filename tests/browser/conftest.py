"""Fixtures: dist/ served on localhost under a sub-path, and Chromium driven by Playwright."""

import json
import re
from pathlib import Path
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from tests.harness import LAUNCH_ARGS, SETTLED, chromium, serving, url_of
from tests.site_build import config

PREFIX = "/pointer-networks/"  # GitHub Pages project sites live under a sub-path
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _served_dist(prefix: str):
    if not (config.DIST / "index.html").exists():
        pytest.fail("dist/ is not built: run `npm test` (or `python3 build.py build`) first")
    return serving(config.DIST, prefix)


@pytest.fixture(scope="session")
def site_url():
    with _served_dist(PREFIX) as server:
        yield url_of(server, PREFIX)


@pytest.fixture(scope="session")
def root_site_url():
    with _served_dist("/") as server:
        yield url_of(server)


@pytest.fixture(scope="session")
def browser(playwright_driver):
    browser = playwright_driver.chromium.launch(executable_path=chromium(), args=LAUNCH_ARGS)
    yield browser
    browser.close()


class PageWatch:
    """What a page did that a test may forbid: console errors and requests to other origins."""

    def __init__(self, page: Page):
        self.console_errors: list[str] = []
        self.foreign_requests: list[str] = []
        self.requests: list[str] = []
        page.on("console", lambda m: m.type == "error" and self.console_errors.append(m.text))
        page.on("pageerror", lambda e: self.console_errors.append(str(e)))
        page.on("request", self._request)

    def _request(self, request):
        self.requests.append(request.url)
        if urlparse(request.url).hostname not in ("127.0.0.1", None) and not request.url.startswith(("data:", "blob:")):
            self.foreign_requests.append(request.url)


@pytest.fixture
def page(browser, request):
    # Service workers would precache the whole site (17 MB) in every test; only the offline
    # tests, which make their own context, let it run.
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, device_scale_factor=1, service_workers="block"
    )
    page = context.new_page()
    page.watch = PageWatch(page)
    yield page
    ARTIFACTS.mkdir(exist_ok=True)
    name = re.sub(r"[^\w.-]+", "_", request.node.name)
    try:  # a picture to read a failure by; Chromium now and then cannot capture the whole long article
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    except PlaywrightError as err:
        (ARTIFACTS / f"{name}.txt").write_text(f"no screenshot: {err.message}\n", encoding="utf-8")
    finally:
        context.close()


@pytest.fixture
def article(page, site_url):
    """The index page once every formula is typeset by KaTeX."""
    page.goto(site_url + "index.html")
    page.wait_for_function(
        "() => document.querySelectorAll('[data-tex]').length > 0 && document.querySelectorAll('[data-tex] .katex').length === document.querySelectorAll('[data-tex]').length"
    )
    return page


@pytest.fixture
def demo(page, site_url, request):
    """The test module's DEMO on its DEMO_PAGE (index.html unless the module says otherwise), answered."""
    page.goto(site_url + getattr(request.module, "DEMO_PAGE", "index.html"))
    wait_ready(page, request.module.DEMO)
    return page


def drag(page: Page, canvas: str, start, end, steps: int = 8) -> None:
    """Press on a canvas at the unit-square point start, move to end in steps, release."""
    page.mouse.move(*pixel_of(page, canvas, start))
    page.mouse.down()
    page.mouse.move(*pixel_of(page, canvas, end), steps=steps)
    page.mouse.up()


def wait_ready(page: Page, demo: str) -> None:
    """Scroll to the demo, as a reader would, and wait until Python is ready and the demo has answered.

    Demos that run a trained model wait until they come near the screen (data-deferred="view").
    """
    page.locator(f'[data-demo="{demo}"]').first.scroll_into_view_if_needed()
    # Functions, not expression strings: the pages' CSP forbids eval, which expressions need.
    page.wait_for_function("() => document.documentElement.dataset.python === 'ready'", timeout=60_000)
    page.wait_for_function(
        "(demo) => document.querySelector(`[data-demo=\"${demo}\"]`)?.dataset.state === 'idle'",
        arg=demo,
        timeout=30_000,
    )


def imported_file(page: Page, name: str) -> str:
    """Import a module in the page's Python and say which file it came from (runtime/import_module)."""
    return page.evaluate(
        """async (name) => {
          const { getRuntime } = await import('./js/runtime/client.js');
          return (await getRuntime().call('runtime', 'import_module', { name })).file;
        }""",
        name,
    )


def controlled_visit(browser, url: str):
    """A first visit in a new context with its service worker allowed, once demo 2 has answered and the
    worker controls the page: (context, page)."""
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    page.goto(url)
    wait_ready(page, "sequences")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)
    return context, page


def wait_settled(page: Page) -> None:
    """Wait until the page has loaded and every demo on it has mounted and answered (or waits to come into view)."""
    page.wait_for_load_state("load")
    page.wait_for_function(SETTLED, timeout=60_000)
    page.evaluate("async () => { await document.fonts.ready; }")


# Longer than any frame a busy but responsive page takes here; a main thread doing the training
# itself would stall for whole chunks of seconds.
MAX_FRAME_GAP_MS = 250


def watch_frames(page: Page) -> None:
    """Start recording the longest gap between animation frames (read it with longest_frame_gap)."""
    page.evaluate(
        """() => {
            window.__longestFrameGap = 0;
            let last = null;
            const tick = (now) => {
                if (last !== null) window.__longestFrameGap = Math.max(window.__longestFrameGap, now - last);
                last = now;
                requestAnimationFrame(tick);
            };
            requestAnimationFrame(tick);
        }"""
    )


def longest_frame_gap(page: Page) -> float:
    """The longest gap, in ms, between two animation frames since watch_frames."""
    return page.evaluate("() => window.__longestFrameGap")


def out_value(page: Page, demo: str, name: str):
    value = page.get_attribute(f'[data-demo="{demo}"] [data-out="{name}"]', "data-value")
    return None if value is None else json.loads(value)


def canvas_points(page: Page, selector: str) -> list[list[float]]:
    return json.loads(page.get_attribute(selector, "data-points"))


def pixel_of(page: Page, selector: str, point) -> tuple[float, float]:
    """Page coordinates of a unit-square point on a canvas, from its data-viewport."""
    page.locator(selector).scroll_into_view_if_needed()
    box = page.locator(selector).bounding_box()
    left, top, width, height = json.loads(page.get_attribute(selector, "data-viewport"))
    return box["x"] + left + point[0] * width, box["y"] + top + (1 - point[1]) * height
