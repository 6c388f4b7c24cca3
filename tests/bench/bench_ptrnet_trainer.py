"""Benchmark of the reader's Ptr-Net trainer [ptrnet-trainer] in headless Chromium (Pyodide in the page's worker)
against the same code in CPython, in one run, and of the two ways to keep the page live while it trains.

Run after a build: python tests/bench/bench_ptrnet_trainer.py [--heap-minutes M] (or `npm run bench`). Prints:
- Adam updates per second in Pyodide and in CPython (same settings, same batches) and their ratio;
- from a fresh page with the default settings, the demo's own accuracy at n = 5 / 10 / 20 against wall time;
- the companion drag's round trip (pointer move → the frame after demo 8's answer, bench_models' probe) with
  nothing training, while the demo trains in the page's one worker (the shipped design: training waits while
  the reader drags), and while the same training runs in a second worker that only this script starts (the
  alternative), with each one's training speed, the second worker's start-up and the renderer's memory;
- the JS heap at the start and the end of M minutes of training (default 1). Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from ptrnet.learn.hull_trainer import Recipe, Trainer  # noqa: E402
from tests.bench.bench_models import CANVAS, DRAG_PROBE, SEVEN  # noqa: E402
from tests.bench.bench_site import percentile  # noqa: E402
from tests.harness import LAUNCH_ARGS, chromium, drag_per_answer, print_table, serving, url_of  # noqa: E402
from tests.site_build import config  # noqa: E402

UPDATES = 200  # timed updates in each runtime
CHUNK = 10  # updates per request in the timed Pyodide run
BUDGET_S = 180  # training wall time of the fresh-page run (the 3 minutes)
TARGET = 0.5  # exact share at n = 5 the fresh-page run waits for
MOVES = 60  # pointer moves of one drag, each after the previous one's answer
SHIFT = (0.3, 0.2)  # how far a drag moves P1 of demo 8's example
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

# The demo's accuracy as it comes while it trains, until the target share at n = 5 or the budget.
WATCH = """async ({ budgetMs, target }) => {
  const root = document.querySelector('[data-demo="ptrnet-trainer"]');
  const read = (name) => JSON.parse(root.querySelector(`[data-out="${name}"]`).dataset.value ?? 'null');
  const start = performance.now();
  const curve = [];
  let seen = null;
  while (performance.now() - start < budgetMs) {
    const shares = read('accuracy');
    if (shares && JSON.stringify(shares) !== seen) {
      seen = JSON.stringify(shares);
      curve.push({ s: +((performance.now() - start) / 1000).toFixed(1), iteration: read('iteration'), ...shares });
      if (shares['5'] >= target) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return curve;
}"""

# The alternative: a second Python worker (the site's worker.js, spoken to directly) that trains the same model
# in chunks of ~30 ms without end; window.second.iteration follows it. Resolves with its start-up time.
SECOND_WORKER = """async () => {
  const began = performance.now();
  const worker = new Worker('./js/runtime/worker.js', { type: 'module' });
  const waiting = new Map();
  let id = 0;
  const ready = new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => {
      if (data.channel === 'status' && data.stage === 'ready') resolve();
      if (data.channel === 'status' && data.stage === 'error') reject(new Error(data.message));
      if (data.channel === 'rpc') waiting.get(data.id)(data.result);
    };
  });
  await ready;
  const readyMs = performance.now() - began;
  const call = (fn, params) =>
    new Promise((resolve) => {
      waiting.set(++id, resolve);
      worker.postMessage({ channel: 'rpc', id, demo: 'ptrnet-trainer', fn, params: { ...params, instance: 'second' } });
    });
  await call('reset', { seed: 0, hidden: 32 });
  window.second = { iteration: 0, stop: false };
  (async () => {
    while (!window.second.stop) window.second.iteration = (await call('train', { iterations: 2 })).iteration;
    worker.terminate();
  })();
  return readyMs;
}"""


def _heap_mb(page) -> float:
    page.evaluate("() => window.gc && window.gc()")
    return page.evaluate("() => performance.memory.usedJSHeapSize") / 2**20


def _renderer_mb() -> float | None:
    """Resident memory of Chromium's renderer processes (the page and its workers), where /proc tells it."""
    total = 0
    for pid in filter(str.isdigit, os.listdir("/proc") if os.path.isdir("/proc") else []):
        try:
            if b"--type=renderer" not in Path(f"/proc/{pid}/cmdline").read_bytes():
                continue
            rss = next(
                line for line in Path(f"/proc/{pid}/status").read_text().splitlines() if line.startswith("VmRSS")
            )
            total += int(rss.split()[1])
        except (OSError, StopIteration):
            continue
    return total / 1024 if total else None


def _iteration(page, expression: str) -> int:
    return int(page.evaluate(expression) or 0)


def _drag_while(page, expression: str, drag: int) -> tuple[list[float], float]:
    """The page's drag number `drag` (from 0) of demo 8's P1, a move after each answer, there and back again: its
    round trips, and how many updates per second the training that `expression` counts made meanwhile."""
    before, start = _iteration(page, expression), time.perf_counter()
    probe = DRAG_PROBE if drag == 0 else "() => { window.__roundTrips = []; }"  # the probe stays installed
    there = drag % 2 == 0
    origin = SEVEN[0] if there else [SEVEN[0][0] + SHIFT[0], SEVEN[0][1] + SHIFT[1]]
    shift = SHIFT if there else (-SHIFT[0], -SHIFT[1])
    drag_per_answer(page, CANVAS, "three-problems", probe, origin, shift, MOVES)
    rate = (_iteration(page, expression) - before) / (time.perf_counter() - start)
    return page.evaluate("() => window.__roundTrips"), rate


def cpython_seconds() -> float:
    """The same updates in CPython, after the same warm-up chunk."""
    t = Trainer(Recipe(seed=0, hidden=32))
    t.train(CHUNK)
    start = time.perf_counter()
    t.train(UPDATES)
    return time.perf_counter() - start


def _open(browser, url: str):
    """A fresh page (its own context, closed with page.context.close()) once the trainer demo is idle."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(url)
    page.locator(DEMO).scroll_into_view_if_needed()
    page.wait_for_function(f"() => document.querySelector('{DEMO}')?.dataset.state === 'idle'", timeout=120_000)
    return page


def _trip_row(name: str, trips: list[float], rate: float | None) -> tuple[str, str, str]:
    speed = "" if rate is None else f"training meanwhile {rate:.0f} updates/s"
    return (name, f"{percentile(trips, 0.5):.0f} / {percentile(trips, 0.95):.0f}", speed)


def main() -> None:
    """Print the trainer's figures."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--heap-minutes", type=float, default=1.0, help="training time between the two heap readings")
    heap_minutes = ap.parse_args().heap_minutes
    demo_iteration = f"() => JSON.parse(document.querySelector('{DEMO} [data-out=\"iteration\"]').dataset.value ?? '0')"
    with serving(config.DIST, "/") as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), args=[*LAUNCH_ARGS, *MEMORY_ARGS])
        url = url_of(server, "/three-problems.html")
        page = _open(browser, url)
        pyodide_s = page.evaluate(PYODIDE_RATE, {"updates": UPDATES, "chunk": CHUNK})
        cpython_s = cpython_seconds()
        page.context.close()

        page = _open(browser, url)
        page.click(f'{DEMO} [data-action="train"]')
        curve = page.evaluate(WATCH, {"budgetMs": BUDGET_S * 1000, "target": TARGET})
        page.context.close()

        page = _open(browser, url)
        idle, _ = _drag_while(page, demo_iteration, 0)
        page.click(f'{DEMO} [data-action="train"]')
        time.sleep(3)
        alone = _iteration(page, demo_iteration)
        time.sleep(5)
        alone_rate = (_iteration(page, demo_iteration) - alone) / 5
        one_worker, one_rate = _drag_while(page, demo_iteration, 1)
        page.click(f'{DEMO} [data-action="pause"]')
        page.wait_for_function(f"() => document.querySelector('{DEMO}').dataset.state === 'idle'", timeout=60_000)
        memory_before = _renderer_mb()
        second_ready_ms = page.evaluate(SECOND_WORKER)
        time.sleep(3)
        memory_after = _renderer_mb()
        second, second_rate = _drag_while(page, "() => window.second.iteration", 2)
        page.evaluate("() => { window.second.stop = true; }")
        page.context.close()

        page = _open(browser, url)
        heap_start = _heap_mb(page)
        page.click(f'{DEMO} [data-action="train"]')
        time.sleep(60 * heap_minutes)
        page.click(f'{DEMO} [data-action="pause"]')
        heap_end = _heap_mb(page)
        heap_iterations = _iteration(page, demo_iteration)
        browser.close()

    print("\nAccuracy against wall time from a fresh page (default settings):")
    for row in curve:
        print("  " + json.dumps(row))
    reached = next((row["s"] for row in curve if row["5"] >= TARGET), None)
    memory = "n/a" if memory_before is None or memory_after is None else f"{memory_before:.0f} → {memory_after:.0f} MB"
    print_table(
        "Reader's Ptr-Net trainer (hidden 32, batch 32, n = 5–10)",
        [
            ("Pyodide updates/s", f"{UPDATES / pyodide_s:.1f}", ""),
            ("CPython updates/s", f"{UPDATES / cpython_s:.1f}", ""),
            ("Pyodide / CPython time", f"{pyodide_s / cpython_s:.2f}", "budget ≤ 2.5"),
            ("50 % at n = 5 after (s)", "not reached" if reached is None else f"{reached:.0f}", f"budget ≤ {BUDGET_S}"),
            (f"JS heap over {heap_minutes:g} min of training", f"{heap_start:.1f} → {heap_end:.1f} MB", "flat"),
            ("  updates in that time", f"{heap_iterations}", ""),
        ],
    )
    print_table(
        "Companion drag round trip while training, p50 / p95 ms (budget p95 ≤ 50)",
        [
            _trip_row("nothing training", idle, None),
            ("training alone, page's worker", f"{alone_rate:.0f} updates/s", ""),
            _trip_row("training in the page's worker", one_worker, one_rate),
            _trip_row("training in a second worker", second, second_rate),
            ("  second worker's start-up", f"{second_ready_ms:.0f} ms", "cached files, memory snapshot"),
            ("  renderer memory, one → two workers", memory, ""),
        ],
    )


if __name__ == "__main__":
    main()
