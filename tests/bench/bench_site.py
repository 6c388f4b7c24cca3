"""Benchmark of the site in headless Chromium against the same Python on CPython.

Run after a build: python tests/bench/bench_site.py (or `npm run bench`). Prints figures,
budgets (SPEC §6) and ratios; asserts nothing — timings on a shared 2-core machine are noisy.
"""

from __future__ import annotations

import functools
import gzip
import statistics
import sys
import tempfile
import threading
import timeit
from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from ptrnet.geometry.tsp import held_karp  # noqa: E402
from tests.harness import LAUNCH_ARGS, SETTLED, chromium, drag_per_answer, print_table  # noqa: E402
from tests.site_build import config  # noqa: E402
from tests.site_build import server as site_server  # noqa: E402

TWELVE = [[0.08 + 0.07 * k, 0.5 + 0.4 * (-1) ** k * (0.3 + 0.05 * k)] for k in range(12)]
CANVAS = '[data-demo="sequences"] canvas'

# Listens for pointer moves and, for each, records the time from the event to the first
# animation frame after the answer (data-value of "hull") changed: the reader's round trip.
# It listens to the event the page itself acts on (pointerrawupdate where Chromium has it).
ROUND_TRIP_PROBE = """() => {
  const canvas = document.querySelector('[data-demo="sequences"] canvas');
  const hull = document.querySelector('[data-demo="sequences"] [data-out="hull"]');
  window.__roundTrips = [];
  window.__handled = [];
  let start = null;
  let handled = null;
  const moveEvent = 'onpointerrawupdate' in canvas ? 'pointerrawupdate' : 'pointermove';
  canvas.addEventListener(moveEvent, (e) => {
    if (!e.buttons) return;
    start = e.timeStamp;
    handled = performance.now();
  }, { capture: true });
  new MutationObserver(() => {
    if (start === null) return;
    const [began, dispatched] = [start, handled];
    start = null;
    requestAnimationFrame(() => {
      window.__roundTrips.push(performance.now() - began);
      window.__handled.push(performance.now() - dispatched);
    });
  }).observe(hull, { attributes: true, attributeFilter: ['data-value'] });
  // Whether the page stays responsive meanwhile: every frame's time, and main-thread tasks over 50 ms.
  window.__frames = [];
  const tick = (t) => {
    window.__frames.push(t);
    if (!window.__stopFrames) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  window.__longTasks = [];
  new PerformanceObserver((list) => window.__longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
}"""

# The frames during the drag: the longest gap between two, and how many took over 20 ms.
FRAME_GAPS = """() => {
  window.__stopFrames = true;
  const gaps = window.__frames.slice(1).map((t, k) => t - window.__frames[k]);
  return { longest: Math.max(...gaps), slow: gaps.filter((g) => g > 20).length, frames: gaps.length, longTasks: window.__longTasks };
}"""

# The worker's answer time alone: request posted → reply received, no drawing.
CALL_LATENCY = """async (points) => {
  const { getRuntime } = await import('./js/runtime/client.js');
  const times = [];
  for (let i = 0; i < 100; i++) {
    const start = performance.now();
    await getRuntime().call('sequences', 'solve', { points });
    times.push(performance.now() - start);
  }
  return times;
}"""

# A second Pyodide on the page's main thread, only to time Held-Karp without messaging.
PYODIDE_TIMING = """async (points) => {
  const { loadPyodide } = await import('./pyodide/pyodide.mjs');
  const pyodide = await loadPyodide({ indexURL: new URL('./pyodide/', location.href).href });
  await pyodide.loadPackage('ptrnet');
  pyodide.globals.set('points_json', JSON.stringify(points));
  // time, not timeit: the site's stdlib holds only what the site imports.
  return pyodide.runPython(`
import json, time
from ptrnet.geometry.tsp import held_karp
pts = json.loads(points_json)
held_karp(pts)
best = float("inf")
for _ in range(5):
    start = time.perf_counter()
    for _ in range(20):
        held_karp(pts)
    best = min(best, (time.perf_counter() - start) / 20)
best
`);
}"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


ANSWERED = """() => [...document.querySelectorAll('[data-demo]')].every((demo) => !demo.dataset.deferred && ['idle', 'error'].includes(demo.dataset.state))"""


def gzip_mb(paths: list[str]) -> float:
    """What GitHub Pages would send for these files: text gzip-compressed, zips and wheels as they are."""
    files = [config.DIST / urlparse(path).path.lstrip("/") for path in paths]  # twice sent, twice counted
    return sum(len(gzip.compress(f.read_bytes(), 6)) for f in files if f.is_file()) / 1e6


def cold_load(playwright, executable: str, url: str, served: list[str]) -> dict[str, float]:
    """A first visit: first canvas paint, ready, and every file the server sent with a body (page,
    worker, service worker) — until ready, once the page has settled, and after scrolling through it.

    A new profile on disk, not an incognito context: incognito's in-memory HTTP cache does not
    keep files over 10 MB (the wasm), so the service worker would download it a second time.
    """
    served.clear()
    with tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=executable, args=LAUNCH_ARGS, viewport={"width": 1280, "height": 900}
        )
        figures, until_ready, settled, read = _first_visit(context, url, served)
    raw = sum(
        (config.DIST / urlparse(u).path.lstrip("/")).stat().st_size
        for u in set(settled)
        if (config.DIST / urlparse(u).path.lstrip("/")).is_file()
    )
    return {
        "ready_ms": figures["ready"],
        "first_paint_ms": figures["paint"],
        "raw_mb": raw / 1e6,
        "gzip_ready_mb": gzip_mb(until_ready),
        "gzip_mb": gzip_mb(settled),
        "gzip_read_mb": gzip_mb(read),
        "files": len(set(settled)),
    }


def _first_visit(context, url: str, served: list[str]) -> tuple[dict, list[str], list[str], list[str]]:
    page = context.new_page()
    page.goto(url, wait_until="commit")
    page.wait_for_function("() => document.documentElement.dataset.python === 'ready'", timeout=120_000)
    figures = page.evaluate(
        """() => {
          const paint = performance.getEntriesByType('paint').find((p) => p.name === 'first-contentful-paint');
          return { ready: performance.now(), paint: paint ? paint.startTime : NaN };
        }"""
    )
    until_ready = list(served)
    page.wait_for_function(SETTLED, timeout=120_000)
    page.evaluate("() => navigator.serviceWorker.ready")
    page.wait_for_timeout(1000)  # the service worker's cache.addAll finishes in the background
    settled = list(served)
    # Then a reader scrolls through the whole article, and every demo answers (the models' weights too).
    for demo in page.locator("[data-demo]").all():
        demo.scroll_into_view_if_needed()
        page.wait_for_timeout(100)
    page.wait_for_function(ANSWERED, timeout=120_000)
    read = list(served)
    context.close()
    return figures, until_ready, settled, read


def round_trips(browser, url: str, moves: int = 150) -> tuple[list[float], list[float], list[float], dict]:
    """Drag one of 12 points in small steps, one move per answer, like a steady hand."""
    fragment = "_".join(f"{x:.3f},{y:.3f}" for x, y in TWELVE)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{url}#sequences.points={fragment}")
    drag_per_answer(page, CANVAS, "sequences", ROUND_TRIP_PROBE, TWELVE[5], (0.3, -0.3), moves)
    frames = page.evaluate(FRAME_GAPS)
    times = page.evaluate("() => [window.__roundTrips, window.__handled]")
    calls = page.evaluate(CALL_LATENCY, TWELVE)
    context.close()
    return *times, calls, frames


# Kill the worker, then time how long a request takes to be answered by the restarted one.
RECOVERY = """async (points) => {
  const { getRuntime } = await import('./js/runtime/client.js');
  const runtime = getRuntime();
  await runtime.ready;
  runtime.worker.terminate();
  const start = performance.now();
  for (;;) {
    try {
      await runtime.call('sequences', 'solve', { points });
      return performance.now() - start;
    } catch (err) {
      if (err.kind !== 'restarted') throw err;
    }
  }
}"""


def on_fresh_page(browser, url: str, script: str) -> float:
    """Run one of the timing scripts above on the twelve points, in a page of its own."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(url)
    result = page.evaluate(script, TWELVE)
    context.close()
    return result


def main() -> None:
    server = site_server.make_server(config.DIST, 0, "/")
    served: list[str] = []  # paths the server answered with 200 and a body

    class CountingHandler(server.RequestHandlerClass.func):  # a partial of the site's handler
        def send_response(self, code, message=None):
            if code == 200:
                served.append(self.path)
            super().send_response(code, message)

    server.RequestHandlerClass = functools.partial(CountingHandler, **server.RequestHandlerClass.keywords)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/index.html"
    executable = chromium()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=LAUNCH_ARGS)
        loads = [cold_load(playwright, executable, url, served) for _ in range(3)]
        trips, handled, calls, frames = round_trips(browser, url)
        pyodide_hk = on_fresh_page(browser, url, PYODIDE_TIMING)
        recovery = statistics.median(on_fresh_page(browser, url, RECOVERY) for _ in range(3))
        browser.close()
    server.shutdown()
    held_karp(TWELVE)
    cpython_hk = min(timeit.repeat(lambda: held_karp(TWELVE), number=20, repeat=5)) / 20

    median = lambda key: statistics.median(load[key] for load in loads)  # noqa: E731
    rows = [
        ("cold load to data-python=ready (median of 3)", f"{median('ready_ms'):.0f} ms", "≤ 3000 ms"),
        ("first contentful paint (median of 3)", f"{median('first_paint_ms'):.0f} ms", "≤ 300 ms"),
        ("index page transfer until ready, gzip", f"{median('gzip_ready_mb'):.2f} MB", ""),
        (f"index page settled, {loads[0]['files']} files, uncompressed", f"{median('raw_mb'):.2f} MB", ""),
        ("index page settled (the demos in view answered, service", "", ""),
        ("  worker installed), gzip-compressed transfer", f"{median('gzip_mb'):.3f} MB", "≤ 8 MB"),
        ("  then scrolled through (every demo answered, the", "", ""),
        ("  hull Ptr-Net's weights too), gzip-compressed", f"{median('gzip_read_mb'):.3f} MB", ""),
        (f"demo 2 round trip, 12 points, median of {len(trips)}", f"{statistics.median(trips):.1f} ms", "≤ 25 ms"),
        ("demo 2 round trip, 12 points, p95", f"{percentile(trips, 0.95):.1f} ms", "≤ 50 ms"),
        ("  of which: handler start → frame, median", f"{statistics.median(handled):.1f} ms", ""),
        ("  of which: worker answer (hull + TSP), median", f"{statistics.median(calls):.1f} ms", ""),
        ("  of which: worker answer, p95", f"{percentile(calls, 0.95):.1f} ms", ""),
        ("UI thread during the drag: longest frame gap", f"{frames['longest']:.1f} ms", ""),
        (f"  frames over 20 ms, of {frames['frames']}", f"{frames['slow']}", ""),
        ("  main-thread tasks over 50 ms", f"{len(frames['longTasks'])}", "none"),
        ("worker killed → request answered again (median of 3)", f"{recovery:.0f} ms", "≤ 5000 ms"),
        ("Held-Karp n=12 in Pyodide (Chromium)", f"{pyodide_hk * 1e3:.2f} ms", ""),
        ("Held-Karp n=12 on CPython", f"{cpython_hk * 1e3:.2f} ms", ""),
        ("Pyodide / CPython time ratio", f"{pyodide_hk / cpython_hk:.2f}", ""),
    ]
    print_table(
        "Site benchmark (same run, same machine). The round trip runs from the input event's\n"
        "timestamp (pointerrawupdate, which Chromium dispatches at once) to the first animation\n"
        "frame after the answer is in the DOM, so it includes waiting for that frame.",
        rows,
    )


if __name__ == "__main__":
    main()
