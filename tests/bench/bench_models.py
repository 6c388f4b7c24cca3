"""Benchmark of the trained Ptr-Nets in headless Chromium (Pyodide in the worker) against CPython.

Run after a build: python tests/bench/bench_models.py (or `npm run bench`). Prints demo 4's decoding
time at 12 points, the companion page's drag round trip at 7 points (all six answers redrawn) and
the Pyodide/CPython ratios (same run, same machine). Asserts nothing.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from ptrnet.api import dispatch  # noqa: E402
from tests.bench.bench_site import TWELVE, percentile  # noqa: E402
from tests.harness import LAUNCH_ARGS, chromium, drag_per_answer, print_table, serving, url_of  # noqa: E402
from tests.site_build import config  # noqa: E402

SEVEN = [[0.45, 0.45], [0.6, 0.35], [0.15, 0.3], [0.85, 0.75], [0.3, 0.85], [0.8, 0.15], [0.5, 0.65]]
CANVAS = '[data-demo="three-problems"] canvas[data-panel="hull"]'

# The worker's answer time for one request, repeated: request posted → reply received.
WORKER_CALLS = """async ({ demo, fn, params, repeat }) => {
  const { getRuntime } = await import('./js/runtime/client.js');
  const runtime = getRuntime();
  await runtime.ready;
  await runtime.call(demo, fn, params);  // the first call fetches the weights
  const times = [];
  for (let i = 0; i < repeat; i++) {
    const start = performance.now();
    await runtime.call(demo, fn, params);
    times.push(performance.now() - start);
  }
  return times;
}"""

# For each pointer move on the companion page: input event → the first frame after the answer's
# last value (tsp_ratio, written after the six answers) changed.
DRAG_PROBE = """() => {
  const canvas = document.querySelector('[data-demo="three-problems"] canvas[data-panel="hull"]');
  const last = document.querySelector('[data-demo="three-problems"] [data-out="tsp_ratio"]');
  window.__roundTrips = [];
  let start = null;
  const moveEvent = 'onpointerrawupdate' in canvas ? 'pointerrawupdate' : 'pointermove';
  canvas.addEventListener(moveEvent, (e) => { if (e.buttons) start = e.timeStamp; }, { capture: true });
  new MutationObserver(() => {
    if (start === null) return;
    const began = start;
    start = null;
    requestAnimationFrame(() => window.__roundTrips.push(performance.now() - began));
  }).observe(last, { attributes: true, attributeFilter: ['data-value'] });
}"""


def worker_times(browser, url: str, demo: str, fn: str, params: dict, repeat: int) -> list[float]:
    """Answer times of one request through the page's worker."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(url)
    times = page.evaluate(WORKER_CALLS, {"demo": demo, "fn": fn, "params": params, "repeat": repeat})
    context.close()
    return times


def drag_round_trips(browser, url: str, moves: int = 80) -> list[float]:
    """Drag P1 of the 7-point example in small steps, one move per answer."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(url)
    drag_per_answer(page, CANVAS, "three-problems", DRAG_PROBE, SEVEN[0], (0.3, 0.2), moves)
    times = page.evaluate("() => window.__roundTrips")
    context.close()
    return times


def cpython_times(demo: str, fn: str, params: dict, repeat: int) -> list[float]:
    """The same request answered by ptrnet on CPython."""
    dispatch(demo, fn, params)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        dispatch(demo, fn, params)
        times.append((time.perf_counter() - start) * 1e3)
    return times


def main() -> None:
    twelve = {"points": TWELVE, "mask": False}
    seven = {"points": SEVEN}
    seven_voted = {"points": SEVEN, "vote": True}
    with serving(config.DIST) as server, sync_playwright() as playwright:
        base = url_of(server)
        browser = playwright.chromium.launch(executable_path=chromium(), args=LAUNCH_ARGS)
        decode = worker_times(browser, base + "index.html", "hull-steps", "real", twelve, 50)
        solve = worker_times(browser, base + "three-problems.html", "three-problems", "solve", seven, 50)
        voted = worker_times(browser, base + "three-problems.html", "three-problems", "solve", seven_voted, 50)
        trips = drag_round_trips(browser, base + "three-problems.html")
        browser.close()
    decode_py = cpython_times("hull-steps", "real", twelve, 50)
    solve_py = cpython_times("three-problems", "solve", seven, 50)

    med = statistics.median
    rows = [
        ("demo 4: decode 12 points (hull Ptr-Net), median", f"{med(decode):.1f} ms", "≤ 100 ms"),
        ("  same on CPython, median", f"{med(decode_py):.1f} ms", ""),
        ("  Pyodide / CPython time ratio", f"{med(decode) / med(decode_py):.2f}", ""),
        (f"companion page drag, 7 points, all six answers, median of {len(trips)}", f"{med(trips):.1f} ms", "≤ 50 ms"),
        ("  p95", f"{percentile(trips, 0.95):.1f} ms", ""),
        ("  of which: worker answer (exact + three models), median", f"{med(solve):.1f} ms", ""),
        ("  same on CPython, median", f"{med(solve_py):.1f} ms", ""),
        ("  Pyodide / CPython time ratio", f"{med(solve) / med(solve_py):.2f}", ""),
        ("  with the symmetry vote (8 images), median", f"{med(voted):.1f} ms", ""),
        ("  vote / plain time ratio", f"{med(voted) / med(solve):.2f}", ""),
    ]
    print_table(
        "Trained-model benchmark (same run, same machine). Worker times run from the request\n"
        "posted to the reply received; the drag round trip from the input event to the first\n"
        "frame after the last of the six answers is in the DOM.",
        rows,
    )


if __name__ == "__main__":
    main()
