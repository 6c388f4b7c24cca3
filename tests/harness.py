"""What the browser tests and the benchmarks share: a served folder, a quiet Chromium, result tables."""

import functools
import http.server
import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.site_build import config, environment
from tests.site_build import server as site_server

# No GPU, no background traffic: the same quiet Chromium for every test and benchmark.
LAUNCH_ARGS = [
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


# Every demo on the page has answered, or waits to come into view (data-deferred="view").
SETTLED = """() => [...document.querySelectorAll('[data-demo]')].every(
    (demo) => demo.dataset.deferred === 'view' || ['idle', 'error'].includes(demo.dataset.state))"""

# The worker's memory snapshot of Python (site/js/runtime/fast-start/snapshot-file.js), in the origin's private
# file system: a page's script that lists the stored files' handles (none while there is no folder).
SNAPSHOT_FILES = """async () => {
  const handles = [];
  try {
    const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle('pyodide-snapshot');
    for await (const handle of folder.values()) handles.push(handle);
  } catch (err) {
    if (err.name !== 'NotFoundError') throw err;
  }
  return handles;
}"""
# The stored file's handle, or null.
SNAPSHOT_FILE = f"async () => (await ({SNAPSHOT_FILES})())[0] ?? null"
# True once a snapshot has been written to its end: its head's length, written last, is not zero.
SNAPSHOT_STORED = f"""async () => {{
  try {{
    for (const handle of await ({SNAPSHOT_FILES})()) {{
      const head = await (await handle.getFile()).slice(0, 4).arrayBuffer();
      if (head.byteLength === 4 && new DataView(head).getUint32(0, true) > 0) return true;
    }}
  }} catch (err) {{
    // the worker is writing it (its access handle locks the file, or changes it while read)
    if (!['NoModificationAllowedError', 'NotReadableError'].includes(err.name)) throw err;
  }}
  return false;
}}"""
# Drops the stored snapshot, so that the next start is a fresh one.
SNAPSHOT_DROPPED = """async () => (await navigator.storage.getDirectory())
  .removeEntry('pyodide-snapshot', { recursive: true }).catch(() => {})"""


def wait_until(page, predicate: str, arg=None, timeout: float = 60, interval: float = 0.2) -> None:
    """Evaluate `predicate` until it is truthy; unlike page.wait_for_function, it awaits an async one
    (wait_for_function takes the promise itself for a truthy answer)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(predicate, arg):
        if time.monotonic() > deadline:
            raise TimeoutError(f"not true within {timeout} s: {predicate}")
        time.sleep(interval)


def chromium() -> str:
    """The Chromium to drive: $CHROMIUM_PATH, or the build's choice."""
    return os.environ.get("CHROMIUM_PATH") or environment.find_chromium()


# The site's modules as written (site/), for tests and benchmarks of single functions: dist/ ships them joined
# into a few bundles (py/sitebuild/scripts.py). Only these local servers have them; the site never does.
SOURCES = "/source/"


class _SiteAndSources(site_server.SiteHandler):
    def translate_path(self, path: str) -> str:
        if not path.startswith(SOURCES):
            return super().translate_path(path)
        under_dist = http.server.SimpleHTTPRequestHandler.translate_path(self, "/" + path[len(SOURCES) :])
        return str(config.SITE / Path(under_dist).relative_to(self.directory))


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args) -> None:
        pass


@contextmanager
def serving(directory: Path, prefix: str = "/", site: bool = True) -> Iterator[http.server.ThreadingHTTPServer]:
    """A folder served on a free local port while the block runs: as the site (dist/, with SOURCES) or as
    plain files."""
    if site:
        server = site_server.make_server(directory, 0, prefix, _SiteAndSources)
    else:
        server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(directory))
        )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()


def url_of(server: http.server.ThreadingHTTPServer, path: str = "/") -> str:
    """The address of a path on a local server."""
    return f"http://127.0.0.1:{server.server_port}{path}"


def print_table(title: str, rows: list[tuple[str, str, str]]) -> None:
    """A benchmark's figures: name, value and budget, one row each."""
    width = max(len(name) for name, _, _ in rows)
    print(f"\n{title}")
    for name, value, budget in rows:
        print(f"  {name:<{width}} {value:>12}   {budget}")


def drag_per_answer(page, canvas: str, demo: str, probe: str, start: tuple, shift: tuple, moves: int) -> None:
    """Once `demo` is idle, install `probe` (it keeps window.__roundTrips) and drag the point at `start` of
    `canvas` by `shift` (data coordinates) in `moves` small steps, each after the previous move's answer."""
    page.wait_for_function(
        f"() => document.querySelector('[data-demo=\"{demo}\"]').dataset.state === 'idle'", timeout=120_000
    )
    page.locator(canvas).scroll_into_view_if_needed()
    page.evaluate(probe)
    box = page.locator(canvas).bounding_box()
    left, top, width, height = json.loads(page.get_attribute(canvas, "data-viewport"))

    def pixel(x, y):
        return box["x"] + left + x * width, box["y"] + top + (1 - y) * height

    (x0, y0), (dx, dy) = start, shift
    page.mouse.move(*pixel(x0, y0))
    page.mouse.down()
    for k in range(1, moves + 1):
        page.mouse.move(*pixel(x0 + dx * k / moves, y0 + dy * k / moves))
        page.wait_for_function("(n) => window.__roundTrips.length >= n", arg=k, timeout=10_000)
    page.mouse.up()
