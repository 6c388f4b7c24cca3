"""Benchmark of the site's start-up in headless Chromium: cold load against a bare Pyodide page, where
the time goes, and the second visit.

Run after a build: python tests/bench/bench_startup.py (or `npm run bench`). The peer is a bare page
built from the same dist files: a module worker that loads Pyodide 0.27.7 with the official full
stdlib, then the official numpy wheel, and imports it. Ours and the peer alternate, each on a fresh browser profile, so
both see the same machine. Prints figures and ratios; asserts nothing.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.harness import (  # noqa: E402
    LAUNCH_ARGS,
    SETTLED,
    SNAPSHOT_STORED,
    chromium,
    print_table,
    serving,
    url_of,
    wait_until,
)
from tests.site_build import config, pyodide_files  # noqa: E402

RUNS = 5  # visits of each kind; the median counts (this machine moves by 10–20 % between runs)
READY = "() => document.documentElement.dataset.python === 'ready'"

PEER_PAGE = """<!doctype html><meta charset="utf-8"><title>peer</title>
<script type="module">
const worker = new Worker("peer-worker.js", { type: "module" });
worker.onmessage = () => { document.documentElement.dataset.python = "ready"; };
</script>"""
PEER_WORKER = """import { loadPyodide } from "./pyodide/pyodide.mjs";
const indexURL = new URL("./pyodide/", import.meta.url).href;
const pyodide = await loadPyodide({ indexURL, stdLibURL: `${indexURL}python_stdlib_full.zip` });
await pyodide.loadPackage(new URL("./peer/NUMPY_WHEEL", import.meta.url).href);
pyodide.runPython("import numpy");
postMessage({ channel: "status", stage: "ready" });
"""
# Our start-up, step by step and one step at a time, in a worker of its own (times from the worker's start).
PROFILE_PAGE = """<!doctype html><meta charset="utf-8"><title>profile</title>
<script type="module">
const worker = new Worker("profile-worker.js", { type: "module" });
worker.onmessage = (event) => { window.__profile = event.data; };
</script>"""
PROFILE_WORKER = """const steps = [];
let last = performance.now();
const mark = (name) => { const now = performance.now(); steps.push([name, now - last]); last = now; };
const { loadPyodide } = await import("./pyodide/pyodide.mjs");
mark("pyodide.mjs fetched and evaluated");
const indexURL = new URL("./pyodide/", import.meta.url).href;
const pyodide = await loadPyodide({ indexURL, fullStdLib: false });
mark("loadPyodide: wasm fetch + compile, stdlib, interpreter");
// As the site: the browser inflates each wheel (the site's helper worker does it while Pyodide
// starts), its files are written into site-packages, and the imports load the extension modules
// they need.
const { wheelFiles } = await import("/source/js/runtime/fast-start/wheel-files.js");
const { relistSitePackages, writeFiles } = await import("/source/js/runtime/fast-start/wheels.js");
const lock = await (await fetch(`${indexURL}pyodide-lock.json`)).json();
const install = async (name) => {
  const file = lock.packages[name].file_name;
  const files = await wheelFiles(new Uint8Array(await (await fetch(indexURL + file)).arrayBuffer()));
  mark(`${name} wheel fetched and inflated (on the site: beside loadPyodide)`);
  writeFiles(pyodide, files);
  relistSitePackages(pyodide);
  mark(`${name} files written`);
};
await install("numpy");
pyodide.runPython("import numpy");
mark("import numpy (loads 3 of its 15 extension modules)");
await install("ptrnet");
pyodide.runPython("import ptrnet.api");
mark("import ptrnet.api");
pyodide.runPython("from ptrnet import api; api.dispatch('sequences', 'solve', {'points': [[0.1, 0.2], [0.8, 0.3], [0.5, 0.9], [0.4, 0.4]]})");
mark("first call (demo 2: its handler family imported, then hull and tour)");
const wasm = performance.getEntriesByType("resource").find((entry) => entry.name.endsWith(".wasm"));
postMessage({ steps, wasmFetch: wasm ? wasm.responseEnd - wasm.startTime : NaN });
"""
# Records when the page made its worker and when each start-up stage was announced.
STAGE_PROBE = """(() => {
  window.__stages = [];
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(...args) {
      super(...args);
      window.__stages.push(["worker created", performance.now()]);
      this.addEventListener("message", (event) => {
        if (event.data?.channel === "status") window.__stages.push([event.data.stage, performance.now()]);
      });
    }
  };
})();"""


def _bench_folder(root: Path) -> None:
    """The peer's and the profile's pages beside the site's own files (links into dist/); the peer loads the
    official numpy wheel (ours ships compiled and trimmed)."""
    for entry in config.DIST.iterdir():
        (root / entry.name).symlink_to(entry)
    lock = pyodide_files.official_lock()
    numpy = pyodide_files.fetch_package_files(lock, None) / lock["packages"]["numpy"]["file_name"]
    (root / "peer").mkdir()
    (root / "peer" / numpy.name).symlink_to(numpy)
    for name, text in {
        "peer.html": PEER_PAGE,
        "peer-worker.js": PEER_WORKER.replace("NUMPY_WHEEL", numpy.name),
        "profile.html": PROFILE_PAGE,
        "profile-worker.js": PROFILE_WORKER,
    }.items():
        (root / name).write_text(text)


def _fresh_visit(playwright, executable: str, url: str) -> dict:
    """A first visit on a new profile: ms to ready, the stage times, and (ours) ms until the demos answered."""
    with tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(profile, executable_path=executable, args=LAUNCH_ARGS)
        context.add_init_script(STAGE_PROBE)
        page = context.new_page()
        page.goto(url, wait_until="commit")
        page.wait_for_function(READY, timeout=120_000, polling="raf")
        ready = page.evaluate("() => performance.now()")
        stages = page.evaluate("() => window.__stages")
        settled = None
        if "peer" not in url:
            page.wait_for_function(SETTLED, timeout=120_000, polling="raf")
            settled = page.evaluate("() => performance.now()")
        context.close()
    return {"ready": ready, "stages": stages, "settled": settled}


def _second_visit(playwright, executable: str, url: str) -> dict:
    """A first visit that lets the service worker fill its cache, then the same page in a new tab."""
    with tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(profile, executable_path=executable, args=LAUNCH_ARGS)
        first = context.new_page()
        first.goto(url)
        first.wait_for_function(SETTLED, timeout=120_000)
        first.evaluate("() => navigator.serviceWorker.ready")
        # The install step's cache.addAll has finished when the wasm is in a ptrnet- cache.
        wait_until(
            first,
            """async () => { for (const key of await caches.keys()) {
                 const cache = await caches.open(key);
                 if ((await cache.keys()).some((r) => r.url.endsWith('.wasm'))) return true; } return false; }""",
        )
        # The first visit leaves a memory snapshot of Python in its private file system (site/js/runtime/fast-start/snapshot-file.js).
        wait_until(first, SNAPSHOT_STORED)
        first.close()
        page = context.new_page()
        page.goto(url, wait_until="commit")
        page.wait_for_function(READY, timeout=120_000, polling="raf")
        ready = page.evaluate("() => performance.now()")
        controlled = page.evaluate("() => Boolean(navigator.serviceWorker.controller)")
        start = page.evaluate("() => document.documentElement.dataset.pythonStart")
        page.wait_for_function(SETTLED, timeout=120_000, polling="raf")
        settled = page.evaluate("() => performance.now()")
        context.close()
    return {"ready": ready, "settled": settled, "controlled": controlled, "start": start}


def _profile(browser, url: str) -> dict:
    page = browser.new_page()
    page.goto(url)
    page.wait_for_function("() => window.__profile", timeout=120_000)
    profile = page.evaluate("() => window.__profile")
    page.close()
    return profile


def main() -> None:
    executable = chromium()
    with tempfile.TemporaryDirectory() as folder, serving(Path(folder)) as server, sync_playwright() as playwright:
        _bench_folder(Path(folder))
        ours, peers = [], []
        for _ in range(RUNS):
            ours.append(_fresh_visit(playwright, executable, url_of(server, "/index.html")))
            peers.append(_fresh_visit(playwright, executable, url_of(server, "/peer.html")))
        seconds = [_second_visit(playwright, executable, url_of(server, "/index.html")) for _ in range(RUNS)]
        browser = playwright.chromium.launch(executable_path=executable, args=LAUNCH_ARGS)
        profiles = [_profile(browser, url_of(server, "/profile.html")) for _ in range(RUNS)]
        browser.close()

    median = statistics.median
    ours_ready, peer_ready = median(v["ready"] for v in ours), median(v["ready"] for v in peers)
    rows = [
        (f"cold load to data-python=ready, ours (median of {RUNS})", f"{ours_ready:.0f} ms", ""),
        ("the bare Pyodide + numpy page (official stdlib and numpy)", f"{peer_ready:.0f} ms", ""),
        ("  ratio ours / bare page", f"{ours_ready / peer_ready:.2f}", "≤ 0.6"),
        ("ours: ready → every demo in view answered", f"{median(v['settled'] - v['ready'] for v in ours):.0f} ms", ""),
        ("ours, when each start-up stage began (median):", "", ""),
    ]
    for k, (stage, _) in enumerate(ours[0]["stages"]):
        rows.append((f"  {stage}", f"{median(v['stages'][k][1] for v in ours):.0f} ms", ""))
    rows += [
        (
            "second visit (service worker) to ready, median",
            f"{median(v['ready'] for v in seconds):.0f} ms",
            "≤ 1000 ms",
        ),
        ("  then every demo in view answered", f"{median(v['settled'] for v in seconds):.0f} ms", ""),
        ("  page controlled by the service worker", str(all(v["controlled"] for v in seconds)), "True"),
        ("  Python started from this browser's snapshot", str(all(v["start"] == "snapshot" for v in seconds)), "True"),
        ("start-up one step at a time, in a worker (median):", "", ""),
    ]
    for k, (step, _) in enumerate(profiles[0]["steps"]):
        rows.append((f"  {step}", f"{median(p['steps'][k][1] for p in profiles):.0f} ms", ""))
    rows.append(("  of which the wasm download", f"{median(p['wasmFetch'] for p in profiles):.0f} ms", ""))
    print_table("Start-up benchmark (same run, same machine; ms from navigation unless said)", rows)


if __name__ == "__main__":
    main()
