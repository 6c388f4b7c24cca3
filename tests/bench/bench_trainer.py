"""Benchmark of demos 5 and 6 in headless Chromium (Pyodide in the worker) against CPython.

Run after a build: python tests/bench/bench_trainer.py (or `npm run bench`). Prints training
iterations/s, the full 46-length evaluation time, the page's frame rate while training, and
the Pyodide/CPython ratios (same run, same machine). Asserts nothing.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from ptrnet.api import dispatch  # noqa: E402
from tests.harness import LAUNCH_ARGS, chromium, print_table, serving, url_of  # noqa: E402
from tests.site_build import config  # noqa: E402

ITERATIONS = 1000
CHUNK = 25  # what the demo sends per request: small enough to honour pause within ~50 ms
LENGTHS = list(range(5, 51))
HEAP_MARKS = (1_000, 100_000)  # demo 5 iterations at which the page's JS heap is read
MEMORY_ARGS = ["--js-flags=--expose-gc", "--enable-precise-memory-info"]

# Trains through the real worker protocol in chunks, as demo 5 does, while counting frames.
BROWSER_RUN = """async ({ iterations, chunk, lengths }) => {
  const { getRuntime } = await import('./js/runtime/client.js');
  const runtime = getRuntime();
  await runtime.ready;
  await runtime.call('sort-trainer', 'reset', { seed: 0, mask: true, instance: 'bench' });
  let frames = 0;
  let counting = true;
  const tick = () => { frames += 1; if (counting) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  const start = performance.now();
  for (let done = 0; done < iterations; done += chunk) {
    await runtime.call('sort-trainer', 'train', { iterations: chunk, instance: 'bench' });
  }
  const trainSeconds = (performance.now() - start) / 1000;
  counting = false;
  const evalStart = performance.now();
  await runtime.call('length-eval', 'evaluate', { lengths, instance: 'bench' });
  const evalSeconds = (performance.now() - evalStart) / 1000;
  return { trainSeconds, frames, evalSeconds };
}"""


# The page's JS heap after a garbage collection (Chromium with --expose-gc and precise memory info).
HEAP_MB = "() => { gc(); return performance.memory.usedJSHeapSize / 1e6; }"
ITERATION = "() => JSON.parse(document.querySelector('[data-demo=\"sort-trainer\"] [data-out=\"iteration\"]')?.dataset.value ?? '0')"


def heap_while_training(page, marks: tuple[int, ...]) -> list[float]:
    """Demo 5 trained through its own Train button; the page's JS heap when the iteration count passes each mark."""
    page.click('[data-demo="sort-trainer"] [data-action="train"]')
    heaps = []
    for mark in marks:
        page.wait_for_function(f"() => ({ITERATION})() >= {mark}", timeout=900_000, polling=500)
        heaps.append(page.evaluate(HEAP_MB))
    page.click('[data-demo="sort-trainer"] [data-action="pause"]')
    return heaps


def browser_figures() -> dict[str, float]:
    with serving(config.DIST) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium(), args=[*LAUNCH_ARGS, *MEMORY_ARGS])
        page = browser.new_page()
        page.goto(url_of(server, "/index.html"))
        page.wait_for_function("() => document.documentElement.dataset.python === 'ready'", timeout=120_000)
        figures = page.evaluate(BROWSER_RUN, {"iterations": ITERATIONS, "chunk": CHUNK, "lengths": LENGTHS})
        page.reload()
        page.wait_for_function("() => document.documentElement.dataset.python === 'ready'", timeout=120_000)
        figures["heaps"] = heap_while_training(page, HEAP_MARKS)
        browser.close()
    return figures


def cpython_figures() -> dict[str, float]:
    dispatch("sort-trainer", "reset", {"seed": 0, "mask": True, "instance": "bench"})
    start = time.perf_counter()
    for _ in range(0, ITERATIONS, CHUNK):
        dispatch("sort-trainer", "train", {"iterations": CHUNK, "instance": "bench"})
    train_seconds = time.perf_counter() - start
    start = time.perf_counter()
    dispatch("length-eval", "evaluate", {"lengths": LENGTHS, "instance": "bench"})
    return {"trainSeconds": train_seconds, "evalSeconds": time.perf_counter() - start}


def main() -> None:
    browser = browser_figures()
    cpython = cpython_figures()
    browser_rate = ITERATIONS / browser["trainSeconds"]
    cpython_rate = ITERATIONS / cpython["trainSeconds"]
    rows = [
        (
            f"training in Chromium/Pyodide ({CHUNK}-iteration chunks via the worker)",
            f"{browser_rate:.0f} it/s",
            "≥ 500 it/s",
        ),
        ("training on CPython (same handlers, same chunks)", f"{cpython_rate:.0f} it/s", ""),
        ("Pyodide / CPython training time ratio", f"{cpython_rate / browser_rate:.2f}", "≤ 3"),
        ("page frame rate while training", f"{browser['frames'] / browser['trainSeconds']:.0f} fps", "~60 fps"),
        ("full evaluation, lengths 5-50 x 150, Chromium", f"{browser['evalSeconds']:.2f} s", "≤ 1.5 s"),
        ("full evaluation on CPython", f"{cpython['evalSeconds']:.2f} s", ""),
        ("Pyodide / CPython evaluation time ratio", f"{browser['evalSeconds'] / cpython['evalSeconds']:.2f}", ""),
        (f"page JS heap after {HEAP_MARKS[0]:,} demo 5 iterations (after gc)", f"{browser['heaps'][0]:.1f} MB", ""),
        (f"page JS heap after {HEAP_MARKS[1]:,} demo 5 iterations (after gc)", f"{browser['heaps'][1]:.1f} MB", "flat"),
        ("  ratio", f"{browser['heaps'][1] / browser['heaps'][0]:.2f}", "≈ 1"),
    ]
    print_table("Trainer benchmark (same run, same machine)", rows)


if __name__ == "__main__":
    main()
