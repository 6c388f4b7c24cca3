"""A reader's visit, the same in every engine: the site served with an error recorder in each page, and
what a page shows (Python's state, worker starts, the banner, each demo's state, the errors it saw)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tests.harness import _SiteAndSources, url_of
from tests.site_build import config
from tests.site_build import server as site_server

PREFIX = "/pointer-networks/"
RECORDER = Path(__file__).with_name("recorder.js")
RECORDER_URL = PREFIX + "__recorder.js"
PAGES = ("index.html", "three-problems.html", "embed-guide.html", "embed.html#demo=sequences")

# The documents of a page: its own and those of its same-origin frames (the embed guide's preview).
DOCUMENTS = """[document, ...[...document.querySelectorAll('iframe')].map((frame) => {
  try { return frame.contentDocument; } catch { return null; }
}).filter((doc) => doc?.location.protocol.startsWith("http"))]"""

# What a page shows, as JSON, over its documents: Python's state (error if any failed, ready once all
# are) and the most times one worker started, the runtime banners, each demo's state (a demo that
# waits to come into view is "view"), and the errors recorded.
# A demo has answered (idle) or failed (error); the article's live figures keep measuring for minutes on a slow
# device and have answered once their first rows show (measuring), as tests/browser/test_pages.py counts them.
ANSWERED = ("idle", "error", "measuring")
PAGE_STATE = f"""(() => {{
  const docs = {DOCUMENTS};
  const pythons = docs.map((doc) => doc.documentElement.dataset.python).filter(Boolean);
  const demos = docs.flatMap((doc) => [...doc.querySelectorAll('[data-demo]')]);
  return {{
    python: pythons.includes('error') ? 'error' : pythons.length && pythons.every((p) => p === 'ready') ? 'ready' : pythons.length ? 'loading' : null,
    starts: Math.max(0, ...docs.map((doc) => Number(doc.documentElement.dataset.pythonStarts ?? 0))),
    banners: docs.flatMap((doc) => [...doc.querySelectorAll('[data-runtime-banner]')])
      .map((banner) => ({{ stage: banner.dataset.stage ?? null, text: banner.textContent }})),
    demos: Object.fromEntries(demos.map((d, k) => [`${{d.dataset.demo}}#${{k}}`,
      d.dataset.deferred === 'view' ? 'view'
        : d.dataset.state === 'busy' && d.querySelector('[data-out=results][data-value]') ? 'measuring'
        : (d.dataset.state ?? 'unmounted')])),
    readyAt: window.__readyAt ?? null,
    firstAnswerAt: window.__firstAnswerAt ?? null,
    errors: docs.flatMap((doc) => doc.defaultView.__pageErrors ??
      (doc.readyState === 'complete' ? ['the error recorder did not run'] : [])),
  }};
}})()"""

# Brings the k-th demo of the page's documents into view (k = -1: none); says how many there are.
SCROLL_TO_DEMO = f"""((k) => {{
  const demos = {DOCUMENTS}.flatMap((doc) => [...doc.querySelectorAll('[data-demo]')]);
  demos[k]?.scrollIntoView({{ block: 'center', behavior: 'instant' }});
  return demos.length;
}})"""


class _RecordingSite(_SiteAndSources):
    """The built site, with the error recorder as each page's first script."""

    def do_GET(self) -> None:
        path = self.path.split("?")[0].split("#")[0]
        if path == RECORDER_URL:
            return self._send(RECORDER.read_bytes(), "text/javascript")
        if path.startswith(PREFIX) and (path.endswith(".html") or path == PREFIX):
            file = Path(self.translate_path(path if path.endswith(".html") else path + "index.html"))
            if file.is_file():
                page = file.read_text(encoding="utf-8")
                page = page.replace("<head>", f'<head>\n<script src="{RECORDER_URL}"></script>', 1)
                return self._send(page.encode(), "text/html; charset=utf-8")
        super().do_GET()

    def _send(self, body: bytes, kind: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(body)


@contextmanager
def recording_site() -> Iterator[str]:
    """dist/ served on a free local port with the recorder in its pages; yields the site's address."""
    import threading

    if not (config.DIST / "index.html").exists():
        raise RuntimeError("dist/ is not built: run `npm test` (or `python3 build.py build`) first")
    server = site_server.make_server(config.DIST, 0, PREFIX, _RecordingSite)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield url_of(server, PREFIX)
    finally:
        server.shutdown()


@dataclass
class Visit:
    """One page load: when Python was ready (the page's own clock, from the navigation) and when every
    demo but those waiting for the screen had answered (polled, from the navigation's start), in s; every
    state seen since."""

    page: str
    ready_s: float | None = None
    answered_s: float | None = None
    states: list[dict] = field(default_factory=list)

    @property
    def last(self) -> dict:
        return self.states[-1]

    @property
    def first_answer_s(self) -> float | None:
        """When Python first answered a demo (the page's own clock, from the navigation), in s."""
        return next((st["firstAnswerAt"] / 1000 for st in self.states if st["firstAnswerAt"] is not None), None)

    def problems(self) -> list[str]:
        """What a reader would call broken: Python failed, a worker restarted, the restart or error banner,
        a demo in error, an error on the page."""
        found = []
        for state in self.states:
            if state["python"] == "error":
                found.append("Python failed to start")
            if state["starts"] > 1:
                found.append(f"the worker started {state['starts']} times")
            found += [f"banner: {b['text']}" for b in state["banners"] if b["stage"] in ("notice", "error")]
            found += [f"demo {name} in error" for name, s in state["demos"].items() if s == "error"]
            found += [f"page error: {error}" for error in state["errors"]]
        return sorted(set(found))


def _answered(state: dict) -> bool:
    return state["python"] == "ready" and all(s in (*ANSWERED, "view") for s in state["demos"].values())


def visit(browser, url: str, page: str, timeout_s: float) -> Visit:
    """Open a page and wait until Python is ready and every demo but those waiting for the screen has
    answered (or timeout_s)."""
    record = Visit(page)
    start = time.monotonic()
    browser.goto(url + page)
    deadline = start + timeout_s
    while time.monotonic() < deadline:
        state = browser.value(PAGE_STATE)
        record.states.append(state)
        now = time.monotonic() - start
        if state["python"] == "ready" and record.ready_s is None:
            record.ready_s = state["readyAt"] / 1000 if state["readyAt"] is not None else now
        if _answered(state) or state["python"] == "error":
            record.answered_s = now if _answered(state) else None
            break
        time.sleep(0.2)
    return record


def watch(browser, record: Visit, seconds: float) -> None:
    """Bring each demo into view in turn, as a reader scrolling down would (so those that wait for the
    screen ask Python too), then keep reading the page until `seconds` have passed; record what it shows."""
    end = time.monotonic() + seconds
    for k in range(browser.value(SCROLL_TO_DEMO + "(-1)")):
        browser.value(SCROLL_TO_DEMO + f"({k})")
        record.states.append(browser.value(PAGE_STATE))
        time.sleep(0.5)
    while time.monotonic() < end:
        record.states.append(browser.value(PAGE_STATE))
        time.sleep(min(1.0, max(0.0, end - time.monotonic())))


def settle(browser, record: Visit, timeout_s: float) -> bool:
    """Wait until every demo (each brought into view by `watch`) has answered; whether they all did."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        record.states.append(browser.value(PAGE_STATE))
        if all(s in ANSWERED for s in record.last["demos"].values()):
            return True
        time.sleep(0.5)
    return False
