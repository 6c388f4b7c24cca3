"""Proof that a page is done with an action, for tests that nothing follows it: the page's calls to
Python are recorded, its timers run ahead on Playwright's clock, and a worker round trip shows that
every call sent meanwhile has been answered and drawn. No fixed waits: a slow machine cannot make
such a test pass by luck, and a fast one does not wait for nothing."""

from playwright.sync_api import Page

# Less than the 5 s a worker may stay silent while calls wait (runtime/client.js): a call sent while
# the clock jumps cannot make the page take its worker for dead. More than any timer of a demo
# (a play step 1 s, a generation step 0.32 s, a model snapshot 1 s).
RUN_AHEAD_MS = 3_000

# Wraps the page's one runtime (js/runtime/client.js), once, so that it keeps "demo.fn" of every call it
# sends; the number sent so far.
_RECORD = """async () => {
  if (!window.__sentCalls) {
    const runtime = (await import('./js/runtime/client.js')).getRuntime();
    const call = runtime.call.bind(runtime);
    window.__runtime = runtime;
    window.__sentCalls = [];
    runtime.call = (demo, fn, params) => {
      window.__sentCalls.push(`${demo}.${fn}`);
      return call(demo, fn, params);
    };
  }
  return window.__sentCalls.length;
}"""

# The worker answers calls in order, so once a call sent now is answered, so is every call sent
# before it, and the page has acted on those answers; two animation frames later it has drawn them.
_ROUND_TRIP = """async (mark) => {
  await window.__runtime.call('runtime', 'ping', {});
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  return window.__sentCalls.slice(mark).filter((call) => call !== 'runtime.ping');
}"""

_FRAMES = "(n) => new Promise((resolve) => { const next = (k) => (k ? requestAnimationFrame(() => next(k - 1)) : resolve()); next(n); })"


def calls_ahead(page: Page) -> list[str]:
    """The calls ("demo.fn") the page sends from now on while its timers run RUN_AHEAD_MS ahead on its clock
    (page.clock.install() before the page loaded), once the worker has answered everything sent."""
    mark = page.evaluate(_RECORD)
    page.wait_for_function("() => window.__runtime.pending.size === 0", timeout=60_000)
    page.clock.run_for(RUN_AHEAD_MS)
    return page.evaluate(_ROUND_TRIP, mark)


def after_frames(page: Page, frames: int = 3) -> None:
    """Return once the page has run `frames` animation frames: resize observers have reported and the
    redraws they schedule for the next frame (ui/resize.js, ui/frame.js) are done."""
    page.evaluate(_FRAMES, frames)


def open_with_clock(page: Page, url: str) -> None:
    """Open `url` with the page's timers on Playwright's clock: time flows as usual until calls_ahead runs it ahead."""
    page.clock.install()
    page.goto(url)
