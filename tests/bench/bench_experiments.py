"""Benchmark of demo 9 [experiments] in headless Chromium against CPython (SPEC section 6's runner budgets).

Run after a build: python tests/bench/bench_experiments.py (or `npm run bench`). Prints the time of 100 hull
sets at n = 50 (greedy) from the click to the last row, the longest wait between progress updates, how long
a cancel takes to settle, the longest gap between animation frames meanwhile, the same sets measured by ptrnet
on CPython and the ratio, and the Pyodide seconds per cost unit that the runner's estimate uses
(experiments.runner.UNIT_SECONDS). Asserts nothing.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from ptrnet.experiments import runner  # noqa: E402
from tests.harness import LAUNCH_ARGS, chromium, print_table, serving, url_of  # noqa: E402
from tests.site_build import config  # noqa: E402

ROOT = '[data-demo="experiments"]'
SETS, N = 100, 50

# Progress updates and animation frames, timed from the page itself.
PROBE = """(root) => {
  const progress = document.querySelector(`${root} [data-out=progress]`);
  window.__progress = [];
  window.__frames = [];
  new MutationObserver(() => window.__progress.push(performance.now()))
    .observe(progress, { attributes: true, attributeFilter: ['data-value'] });
  const frame = (t) => { window.__frames.push(t); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
}"""
FINISHED = """(root) => { const v = document.querySelector(`${root} [data-out=results]`).dataset.value;
  return v && JSON.parse(v).complete; }"""
# Click cancel, then time until the demo settles idle (its request in flight answered and dropped).
CANCEL = """async (root) => {
  const el = document.querySelector(root);
  const start = performance.now();
  document.querySelector(`${root} [data-action=cancel]`).click();
  const shown = performance.now() - start;
  while (el.dataset.state !== 'idle') await new Promise((r) => setTimeout(r, 2));
  return [shown, performance.now() - start];
}"""


def gaps(times: list[float]) -> list[float]:
    return [b - a for a, b in zip(times, times[1:], strict=False)]


def browser_run(browser, url: str) -> dict:
    """One reader's run of 100 hull sets at n = 50, then a cancelled run."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{url}three-problems.html#experiments.model=hull&experiments.sizes={N}&experiments.sets={SETS}")
    page.locator(ROOT).scroll_into_view_if_needed()
    page.wait_for_function("() => document.documentElement.dataset.python === 'ready'", timeout=120_000)
    page.wait_for_function(f"() => !document.querySelector('{ROOT} [data-action=run]').disabled", timeout=60_000)
    # A first short run fetches the weights, so that the timed run measures the measuring.
    page.evaluate(PROBE, ROOT)
    start = time.perf_counter()
    page.click(f"{ROOT} [data-action=run]")
    page.wait_for_function(FINISHED, arg=ROOT, timeout=300_000)
    first = time.perf_counter() - start
    page.evaluate(PROBE, ROOT)
    start = time.perf_counter()
    page.click(f"{ROOT} [data-action=run]")
    page.wait_for_function(FINISHED, arg=ROOT, timeout=300_000)
    took = time.perf_counter() - start
    progress, frames = page.evaluate("() => [window.__progress, window.__frames]")
    page.locator(f"{ROOT} [data-control=sets]").fill("1000")
    page.locator(f"{ROOT} [data-control=sets]").dispatch_event("change")
    page.wait_for_function(f"() => !document.querySelector('{ROOT} [data-action=run]').disabled", timeout=60_000)
    page.click(f"{ROOT} [data-action=run]")
    page.wait_for_timeout(1500)
    shown, settled = page.evaluate(CANCEL, ROOT)
    page.close()
    return {
        "first": first,
        "took": took,
        "progress_gap": max(gaps(progress)),
        "updates": len(progress),
        "frame_gap": max(gaps(frames)),
        "cancel_shown": shown,
        "cancel_settled": settled,
    }


def main() -> None:
    with serving(config.DIST) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium(), args=LAUNCH_ARGS)
        b = browser_run(browser, url_of(server))
        browser.close()
    start = time.perf_counter()
    runner.measure("hull", N, 1, 0, SETS, "greedy")
    cpython = time.perf_counter() - start
    units = SETS * runner.cost("hull", N, "greedy")
    rows = [
        (f"{SETS} hull sets at n = {N}, greedy: click to last row", f"{b['took']:.2f} s", "≤ 10 s"),
        ("  the first run (weights fetched on the way)", f"{b['first']:.2f} s", ""),
        ("  same sets measured on CPython (runner.measure)", f"{cpython:.2f} s", ""),
        ("  Pyodide / CPython time ratio", f"{b['took'] / cpython:.2f}", ""),
        (f"longest wait between progress updates ({b['updates']} updates)", f"{b['progress_gap']:.0f} ms", "≤ 500 ms"),
        ("longest gap between animation frames during the run", f"{b['frame_gap']:.0f} ms", "≤ 50 ms"),
        ("cancel: the run shown as cancelled", f"{b['cancel_shown']:.0f} ms", "≤ 200 ms"),
        ("cancel: the demo idle again (request in flight answered)", f"{b['cancel_settled']:.0f} ms", ""),
        (
            "Pyodide seconds per cost unit (runner.UNIT_SECONDS)",
            f"{b['took'] / units:.2e}",
            f"{runner.UNIT_SECONDS:.1e}",
        ),
    ]
    print_table("Experiment runner benchmark (same run, same machine)", rows)


if __name__ == "__main__":
    main()
