"""Benchmark of the readers' devices: time to ready, cold and on a second visit, in Chromium, Firefox ESR
and WebKitGTK in one run; and Chromium held to a quarter of one core (a slow phone): time to ready and to
the first demo's answer and to every demo's (those that wait for the screen aside), with how many workers
it started.

Run after a build: python tests/bench/bench_devices.py (or `npm run bench`). A second visit comes back
in the same profile once its service worker controls the page (or after a minute). Medians of RUNS
visits, engines interleaved. Prints figures and budgets; asserts nothing.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.devices import drivers  # noqa: E402
from tests.devices.visits import recording_site, visit  # noqa: E402
from tests.harness import LAUNCH_ARGS, chromium, print_table  # noqa: E402

RUNS = 3
PAGE = "index.html"
QUARTER_OF_A_CORE = 1 / 4
CONTROLLED = "navigator.serviceWorker?.controller !== null && navigator.serviceWorker?.controller !== undefined"


def _ms(seconds: list[float | None]) -> str:
    done = [s for s in seconds if s is not None]
    return f"{statistics.median(done) * 1000:,.0f} ms" if len(done) == len(seconds) else "not ready"


def _second_visit_after(browser, site: str) -> float | None:
    """Wait until the service worker controls the page (at most a minute), then visit again."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not browser.value(CONTROLLED):
        time.sleep(0.5)
    time.sleep(3)  # the snapshot is written away at the first pause after the answers
    return visit(browser, site, PAGE, 120).ready_s


def _chromium_visits(site: str) -> tuple[float | None, float | None]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium(), args=LAUNCH_ARGS)
        page = browser.new_context(service_workers="allow").new_page()
        first = drivers.Chromium(page)
        cold = visit(first, site, PAGE, 120).ready_s
        second = _second_visit_after(first, site)
        browser.close()
    return cold, second


def _engine_visits(make, site: str) -> tuple[float | None, float | None]:
    browser = make()
    try:
        cold = visit(browser, site, PAGE, 120).ready_s
        return cold, _second_visit_after(browser, site)
    finally:
        browser.close()


def _slow_visit(site: str) -> tuple[float | None, float | None, float | None, int, list[dict]]:
    with drivers.cpu_quota(QUARTER_OF_A_CORE) as launcher, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(launcher), args=LAUNCH_ARGS, timeout=180_000)
        page = browser.new_context(viewport={"width": 412, "height": 915}, device_scale_factor=2).new_page()
        record = visit(drivers.Chromium(page), site, PAGE, 240)
        calls = page.evaluate("window.__calls")
        browser.close()
    return record.ready_s, record.first_answer_s, record.answered_s, record.last["starts"], calls


def _call_rows(calls: list[dict]) -> list[tuple[str, str, str]]:
    """Each call of a visit: when it was sent (s from the navigation), how long it queued, how long it ran."""
    rows = []
    for call in calls:
        started, answered = call.get("started"), call.get("answered")
        queued = f"{started - call['sent']:,.0f} ms queued" if started is not None else "never started"
        ran = f"{answered - started:,.0f} ms in Python" if None not in (started, answered) else "no answer"
        rows.append((f"{call['sent'] / 1000:5.1f} s  {call['demo']}.{call['fn']}", queued, ran))
    return rows


def main() -> None:
    engines = {"Chromium": [], "Firefox ESR": [], "WebKitGTK": []}
    slow = []
    with recording_site() as site, drivers.virtual_screen() as display:
        for _ in range(RUNS):
            engines["Chromium"].append(_chromium_visits(site))
            engines["Firefox ESR"].append(_engine_visits(drivers.Firefox, site))
            engines["WebKitGTK"].append(_engine_visits(lambda: drivers.WebKit(display), site))
            slow.append(_slow_visit(site))
    rows = []
    for name, visits in engines.items():
        rows.append((f"{name}: cold, to ready", _ms([cold for cold, _ in visits]), ""))
        rows.append((f"{name}: second visit, to ready", _ms([second for _, second in visits]), ""))
    rows.append(("quarter core: cold, to ready", _ms([run[0] for run in slow]), "budget ≤ 15 s"))
    rows.append(("quarter core: first demo answered", _ms([run[1] for run in slow]), "budget ≤ 20 s"))
    rows.append(
        ("quarter core: every demo answered", _ms([run[2] for run in slow]), "(those waiting for the screen aside)")
    )
    rows.append(("quarter core: workers started", " ".join(str(run[3]) for run in slow), "1 each"))
    print_table(f"Devices, {PAGE} (medians of {RUNS}, engines interleaved)", rows)
    print_table("The calls of the last quarter-core visit (sent, queued, in Python)", _call_rows(slow[-1][4]))


if __name__ == "__main__":
    main()
