"""Benchmark of the reader's Ptr-Net trainer [ptrnet-trainer] in headless Chromium (Pyodide in the page's worker)
against the same code in CPython, in one run.

Run after a build: python tests/bench/bench_ptrnet_trainer.py (or `npm run bench`). Prints Adam updates per second
in Pyodide and in CPython (same settings, same batches) and their ratio; from a fresh page with the default settings,
the demo's own accuracy at n = 5 / 10 / 20 against wall time while it trains (up to BUDGET_S); the companion drag's
round trip (three-problems solve) while it trains, p95; and the JS heap at the start and the end. Asserts nothing.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from ptrnet.learn.hull_trainer import Recipe, Trainer  # noqa: E402
from ptrnet.limits import HULL_EXAMPLE  # noqa: E402
from tests.harness import LAUNCH_ARGS, chromium, print_table, serving, url_of  # noqa: E402
from tests.site_build import config  # noqa: E402

UPDATES = 200  # timed updates in each runtime
CHUNK = 10  # updates per request in the timed Pyodide run
BUDGET_S = 180  # training wall time of the fresh-page run (the 3 minutes)
TARGET = 0.5  # exact share at n = 5 the fresh-page run waits for
DRAG_EVERY_MS = 250  # a drag's solve request while the demo trains
MEMORY_ARGS = ["--js-flags=--expose-gc", "--enable-precise-memory-info"]
DEMO = '[data-demo="ptrnet-trainer"]'

# Times UPDATES updates through the worker protocol, in CHUNK-sized train requests, after a warm-up chunk.
PYODIDE_RATE = """async ({ updates, chunk }) => {
  const { getRuntime } = await import('./js/runtime/client.js');
  const runtime = getRuntime();
  await runtime.ready;
  const call = (fn, params) => runtime.call('ptrnet-trainer', fn, { ...params, instance: 'bench' });
  await call('reset', { seed: 0, hidden: 32 });
  await call('train', { iterations: chunk });
  const start = performance.now();
  for (let done = 0; done < updates; done += chunk) await call('train', { iterations: chunk });
  return (performance.now() - start) / 1000;
}"""

# While the demo trains: a solve request like a drag's every DRAG_EVERY_MS, and the demo's accuracy as it comes.
WATCH = """async ({ budgetMs, target, everyMs, points }) => {
  const { getRuntime } = await import('./js/runtime/client.js');
  const runtime = getRuntime();
  const root = document.querySelector('[data-demo="ptrnet-trainer"]');
  const read = (name) => JSON.parse(root.querySelector(`[data-out="${name}"]`).dataset.value ?? 'null');
  const start = performance.now();
  const curve = [];
  const trips = [];
  let seen = null;
  while (performance.now() - start < budgetMs) {
    const sent = performance.now();
    await runtime.call('three-problems', 'solve', { points, vote: false });
    trips.push(performance.now() - sent);
    const shares = read('accuracy');
    if (shares && JSON.stringify(shares) !== seen) {
      seen = JSON.stringify(shares);
      curve.push({ s: (performance.now() - start) / 1000, iteration: read('iteration'), ...shares });
      if (shares['5'] >= target) break;
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return { curve, trips };
}"""


def _heap_mb(page) -> float:
    page.evaluate("() => window.gc && window.gc()")
    return page.evaluate("() => performance.memory.usedJSHeapSize") / 2**20


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def cpython_seconds() -> float:
    """The same updates in CPython, after the same warm-up chunk."""
    t = Trainer(Recipe(seed=0, hidden=32))
    t.train(CHUNK)
    start = time.perf_counter()
    t.train(UPDATES)
    return time.perf_counter() - start


def main() -> None:
    """Print the trainer's figures."""
    with serving(config.DIST, "/") as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), args=[*LAUNCH_ARGS, *MEMORY_ARGS])
        page = browser.new_page()
        page.goto(url_of(server, "/three-problems.html"))
        pyodide_s = page.evaluate(PYODIDE_RATE, {"updates": UPDATES, "chunk": CHUNK})
        cpython_s = cpython_seconds()
        page.close()

        page = browser.new_page()
        page.goto(url_of(server, "/three-problems.html"))
        page.locator(DEMO).scroll_into_view_if_needed()
        page.wait_for_function(f"() => document.querySelector('{DEMO}')?.dataset.state === 'idle'", timeout=120_000)
        heap_start = _heap_mb(page)
        page.click(f'{DEMO} [data-action="train"]')
        watched = page.evaluate(
            WATCH,
            {"budgetMs": BUDGET_S * 1000, "target": TARGET, "everyMs": DRAG_EVERY_MS, "points": HULL_EXAMPLE},
        )
        heap_end = _heap_mb(page)
        browser.close()

    print("\nAccuracy against wall time from a fresh page (default settings):")
    for row in watched["curve"]:
        print("  " + json.dumps(row))
    reached = next((row["s"] for row in watched["curve"] if row["5"] >= TARGET), None)
    print_table(
        "Reader's Ptr-Net trainer (hidden 32, batch 32, n = 5–10)",
        [
            ("Pyodide updates/s", f"{UPDATES / pyodide_s:.1f}", ""),
            ("CPython updates/s", f"{UPDATES / cpython_s:.1f}", ""),
            ("Pyodide / CPython time", f"{pyodide_s / cpython_s:.2f}", "budget ≤ 2.5"),
            ("50 % at n = 5 after (s)", "not reached" if reached is None else f"{reached:.0f}", f"budget ≤ {BUDGET_S}"),
            ("drag round trip p95 (ms)", f"{_p95(watched['trips']):.0f}", "budget ≤ 50"),
            ("JS heap start → end (MB)", f"{heap_start:.1f} → {heap_end:.1f}", "flat"),
        ],
    )


if __name__ == "__main__":
    main()
