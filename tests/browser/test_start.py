"""The two ways the worker starts Python (site/js/runtime/worker.js): the fast start (fast-start/), fresh or
from this browser's memory snapshot, where the loaded Pyodide is the version it was written for, and
Pyodide's plain start on any other. The smoke tests here gate a deploy (.github/workflows/pages.yml)."""

import pytest

from tests.browser.conftest import PageWatch, out_value, wait_ready
from tests.harness import SETTLED, SNAPSHOT_FILES, SNAPSHOT_STORED, wait_until
from tests.site_build import config

START = "() => document.documentElement.dataset.pythonStart"
FAILED_DEMOS = "() => [...document.querySelectorAll('[data-demo][data-state=\"error\"]')].map((d) => d.dataset.demo)"
# The pages that run Python, each with a demo on it to scroll to (the embed guide runs it in embed.html).
PAGES = [
    ("index.html", "sequences"),
    ("three-problems.html", "three-problems"),
    ("embed.html#demo=sort-trainer", "sort-trainer"),
]
OTHER_PYODIDE = "0.27.99"  # a version the fast start was not written for


def _visit(context, path: str, site_url: str, demo: str):
    """A page of the site once Python is ready and every demo on it has answered (or waits for the screen)."""
    page = context.new_page()
    page.watch = PageWatch(page)
    page.workers_started = []
    page.on("worker", lambda worker: page.workers_started.append(worker.url.rsplit("/", 1)[-1]))
    page.notes = []  # the console's messages, the workers' included
    page.on("console", lambda message: page.notes.append(message.text))
    page.goto(site_url + path)
    wait_ready(page, demo)
    page.wait_for_function(SETTLED, timeout=60_000)
    return page


def _as_another_pyodide(route):
    """Pyodide's loader, runtime script and lock, as another version of Pyodide would serve them."""
    response = route.fetch()
    body = response.text().replace(f'"{config.FAST_START_PYODIDE}"', f'"{OTHER_PYODIDE}"')
    route.fulfill(response=response, body=body)


@pytest.mark.smoke
def test_every_page_starts_fast_fresh_then_from_the_snapshot_and_its_demos_answer(browser, site_url):
    context = browser.new_context()
    first = _visit(context, "index.html", site_url, "sequences")
    assert first.evaluate(START) == "fresh"
    assert "wheel-worker.js" in first.workers_started
    assert first.evaluate(FAILED_DEMOS) == [] and first.watch.console_errors == []
    wait_until(first, SNAPSHOT_STORED)
    first.close()
    for path, demo in PAGES:
        page = _visit(context, path, site_url, demo)
        assert page.evaluate(START) == "snapshot", path
        assert page.evaluate(FAILED_DEMOS) == [], path
        assert page.watch.console_errors == [], path
        page.close()
    context.close()


@pytest.mark.smoke
def test_another_pyodide_takes_the_plain_start_answers_and_stores_nothing(browser, site_url):
    context = browser.new_context()
    for name in ("pyodide.mjs", "pyodide.asm.js", "pyodide-lock.json"):
        context.route(f"**/pyodide/{name}", _as_another_pyodide)
    for path, demo in PAGES:
        page = _visit(context, path, site_url, demo)
        assert page.evaluate(START) == "plain", path
        assert any(f"Pyodide {OTHER_PYODIDE}" in note and "보통 시작" in note for note in page.notes), path
        assert "wheel-worker.js" not in page.workers_started, path
        assert page.evaluate(FAILED_DEMOS) == [], path
        if demo == "sequences":
            assert out_value(page, "sequences", "hull")
        if demo == "three-problems":  # a trained model's weights, fetched into the plain start's files
            assert out_value(page, "three-problems", "hull") == [3, 6, 4, 5, 3]
        # The page's first pause in its calls, when a fast start would store its snapshot: nothing is.
        page.evaluate("async () => (await import('./js/runtime/client.js')).getRuntime().quiet(15000)")
        assert page.evaluate(f"async () => (await ({SNAPSHOT_FILES})()).length") == 0, path
        assert page.watch.console_errors == [], path
        page.close()
    context.close()


def test_a_wheel_the_plain_start_cannot_download_is_a_korean_error_naming_it_and_retry_recovers(page, site_url):
    for name in ("pyodide.mjs", "pyodide.asm.js", "pyodide-lock.json"):
        page.route(f"**/pyodide/{name}", _as_another_pyodide)
    page.route("**/pyodide/numpy-*.whl", lambda route: route.fulfill(status=404, body="gone"))
    page.goto(site_url + "index.html")
    page.wait_for_function("() => document.documentElement.dataset.python === 'error'", timeout=60_000)
    banner = page.locator("[data-runtime-banner]").text_content()
    assert "numpy-2.0.2" in banner and "내려받지 못했습니다" in banner
    page.unroute("**/pyodide/numpy-*.whl")
    page.click('[data-action="retry-python"]')
    wait_ready(page, "sequences")
    assert page.evaluate(START) == "plain"
    assert out_value(page, "sequences", "hull")


def test_without_the_fast_start_module_the_worker_takes_the_plain_start(page, site_url):
    page.route("**/js/runtime/fast-start/index.js", lambda route: route.fulfill(status=404, body="gone"))
    page.goto(site_url + "index.html")
    wait_ready(page, "sequences")
    assert page.evaluate(START) == "plain"
    assert out_value(page, "sequences", "hull")
