"""Demo 9 [experiments] driven like a reader: settings, run, pause, cancel; its rows against the CPython
evaluation of the same seeded sets, its failures against scipy, bad settings answered in Korean."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import ConvexHull

from ptrnet.experiments import runner
from ptrnet.geometry.tsp import tour_length
from ptrnet.limits import HELD_KARP_MAX, MAX_FAILURES
from ptrnet.pointer import tasks, weights
from tests.browser.conftest import out_value, wait_ready
from tests.browser.settle import calls_ahead
from training.reports import evaluation

DEMO = "experiments"
DEMO_PAGE = "three-problems.html"
ROOT = '[data-demo="experiments"]'


def _open(page, site_url, fragment: str = "") -> None:
    page.goto(site_url + DEMO_PAGE + fragment)
    wait_ready(page, DEMO)  # idle: its plan is back, so the run button is live


def _set(page, control: str, value: str) -> None:
    field = page.locator(f'{ROOT} [data-control="{control}"]')
    if field.evaluate("el => el.tagName") == "SELECT":
        field.select_option(value)
    else:
        field.fill(value)
        field.dispatch_event("change")


def _run_to_end(page, timeout: int = 120_000) -> dict:
    page.wait_for_function(
        "(root) => document.querySelector(`${root} [data-action=run]`).disabled === false", arg=ROOT, timeout=30_000
    )
    page.click(f'{ROOT} [data-action="run"]')
    page.wait_for_function(
        "(root) => { const v = document.querySelector(`${root} [data-out=results]`).dataset.value;"
        " return v && JSON.parse(v).complete; }",
        arg=ROOT,
        timeout=timeout,
    )
    return out_value(page, DEMO, "results")


def _examples(task: str, n: int, seed: int, sets: int) -> list:
    points = [runner.point_set(seed, n, i) for i in range(sets)]
    return [(p, tasks.SPECS[task].label(p)) for p in points]


def _scipy_hull(points: np.ndarray) -> list[int]:
    ring = ConvexHull(points).vertices + 1  # counter-clockwise from scipy's own start
    k = int(np.argmin(ring))
    return [*ring[k:].tolist(), *ring[:k].tolist(), int(ring[k])]


def test_a_hull_run_gives_the_cpython_evaluations_numbers_and_real_failures(page, site_url):
    _open(page, site_url)
    for control, value in (("model", "hull"), ("sizes", "5,50"), ("sets", "60"), ("seed", "321")):
        _set(page, control, value)
    results = _run_to_end(page)
    assert results["model"] == "hull" and results["decoding"] == "greedy" and results["seed"] == 321
    params = weights.shipped("hull_ptrnet")
    for row, n in zip(results["rows"], (5, 50), strict=True):
        offline = evaluation.measure(params, "hull", _examples("hull", n, 321, 60), 1)
        assert row["n"] == n and row["sets"] == 60
        assert row["accuracy"] == offline["accuracy"] and row["not_simple"] == offline["not_simple"]
        assert row["area_coverage"] == pytest.approx(offline["area_coverage"], abs=1e-9)
    assert out_value(page, DEMO, "progress") == {"done": 120, "total": 120}
    failures = out_value(page, DEMO, "failures")
    wrong = sum(round((1 - row["accuracy"]) * 60) for row in results["rows"])
    assert len(failures) == min(wrong, MAX_FAILURES) > 0
    for f in failures:
        truth = _scipy_hull(np.array(f["points"]))
        assert f["truth"] == truth and f["model"] != truth
    chart = out_value(page, DEMO, "collinearity")
    assert sum(chart["sets"]) == 120
    paper = out_value(page, DEMO, "paper")
    assert {"n": 50, "accuracy": 0.696, "area_coverage": 0.999} in paper
    page.locator(f"{ROOT} .failure-thumb").first.click()
    assert page.locator(f"{ROOT} .failure-detail").is_visible()
    assert page.watch.console_errors == []


def test_a_tsp_run_above_held_karps_sizes_uses_the_shipped_lkh_tours(page, site_url):
    _open(page, site_url, "#experiments.model=tsp-a1&experiments.sizes=8,20&experiments.sets=12&experiments.seed=2")
    _set(page, "decoding", "beam")
    results = _run_to_end(page)
    tours = weights.shipped(runner.REFERENCE_FILE, np.int64)
    params = weights.shipped("tsp_ptrnet_a1")
    for row, n in zip(results["rows"], (8, 20), strict=True):
        points = [runner.point_set(2, n, i) for i in range(12)]
        if n <= HELD_KARP_MAX:
            examples = _examples("tsp", n, 2, 12)
        else:
            examples = [
                (p, [*(tours[f"s2_n{n}"][i] + 1).tolist(), int(tours[f"s2_n{n}"][i][0]) + 1])
                for i, p in enumerate(points)
            ]
        offline = evaluation.measure(params, "tsp", examples, tasks.SPECS["tsp"].beam_width)
        assert row["mean_length"] == pytest.approx(offline["mean_length"], abs=1e-9)
        assert row["reference"] == pytest.approx(offline["optimal"], abs=1e-9)
        assert row["reference_kind"] == ("Held-Karp" if n <= HELD_KARP_MAX else "LKH-3") and row["invalid"] == 0
        assert row["a1"] == pytest.approx(evaluation.baseline_lengths(examples, ("A1",))["A1"], abs=1e-9)
    for f in out_value(page, DEMO, "failures"):
        points = np.array(f["points"])
        assert tour_length(points, np.array(f["model"][:-1]) - 1) > tour_length(points, np.array(f["truth"][:-1]) - 1)


def test_a_baseline_run_shows_the_papers_cells_as_the_paper_gives_them(page, site_url):
    _open(page, site_url)
    _set(page, "model", "seq2seq-10")
    _set(page, "sets", "20")
    results = _run_to_end(page)
    assert [r["n"] for r in results["rows"]] == [10]
    cells = page.locator(f"{ROOT} table.data-table tbody tr").first.locator("td").all_inner_texts()
    assert cells[-2:] == ["29.9\xa0%", "FAIL"]  # the paper's n = 10 seq2seq: 29.9 %, area FAIL
    assert not any("NaN" in cell or "undefined" in cell for cell in cells), cells


def test_the_demo_is_busy_until_its_plan_is_back_and_idle_means_it_can_run(page, site_url):
    held = []
    page.route("**/pyodide/pyodide.asm.wasm", lambda route: held.append(route))
    page.goto(site_url + DEMO_PAGE)
    run_disabled = f"() => document.querySelector('{ROOT} [data-action=run]')?.disabled === true"
    page.wait_for_function(run_disabled)
    assert page.get_attribute(ROOT, "data-state") == "busy"  # no plan without Python
    for route in held:
        route.continue_()
    page.unroute("**/pyodide/pyodide.asm.wasm")
    wait_ready(page, DEMO)
    assert page.evaluate(run_disabled) is False
    sizes = len(page.input_value(f'{ROOT} [data-control="sizes"]').split(","))
    _set(page, "sets", "20")  # a new plan: idle again only once Python has checked and estimated it
    wait_ready(page, DEMO)
    assert page.evaluate(run_disabled) is False
    assert f"모두 {20 * sizes}세트" in page.text_content(f"{ROOT} [data-out=estimate]")


def test_pause_holds_the_run_resume_finishes_it_and_cancel_throws_it_away(page, site_url):
    page.clock.install()  # the page's timers, for calls_ahead to run ahead
    _open(page, site_url, "#experiments.model=delaunay&experiments.sizes=10,20&experiments.sets=150")
    page.click(f'{ROOT} [data-action="run"]')
    page.wait_for_function(
        "(root) => JSON.parse(document.querySelector(`${root} [data-out=progress]`).dataset.value || '{\"done\":0}').done > 0",
        arg=ROOT,
    )
    page.click(f'{ROOT} [data-action="pause"]')
    page.wait_for_function("(root) => document.querySelector(root).dataset.state === 'idle'", arg=ROOT)
    held = out_value(page, DEMO, "progress")["done"]
    assert calls_ahead(page) == []  # nothing is measured while paused
    assert out_value(page, DEMO, "progress")["done"] == held < 300
    results = _run_to_end(page)  # the run button resumes
    assert [r["sets"] for r in results["rows"]] == [150, 150] and 0 <= results["rows"][0]["accuracy"] <= 1
    _set(page, "sets", "200")
    page.click(f'{ROOT} [data-action="run"]')
    page.click(f'{ROOT} [data-action="cancel"]')
    page.wait_for_function("(root) => document.querySelector(root).dataset.state === 'idle'", arg=ROOT)
    assert out_value(page, DEMO, "results") is None and "취소" in page.text_content(f"{ROOT} .demo-message")


@pytest.mark.parametrize(
    ("control", "value", "words"),
    [("sizes", "5,abc,9999", "쓸 수 없는 크기"), ("sets", "0", "범위"), ("sizes", "abc", "읽을 수 없어")],
)
def test_bad_settings_get_a_korean_message_and_the_demo_keeps_working(page, site_url, control, value, words):
    _open(page, site_url)
    _set(page, control, value)
    page.wait_for_function(
        "([root, words]) => document.querySelector(`${root} .demo-message`).textContent.includes(words)",
        arg=[ROOT, words],
    )
    _set(page, "sizes", "5")
    _set(page, "sets", "30")
    assert _run_to_end(page)["rows"][0]["sets"] == 30
    assert page.watch.console_errors == []


def test_the_settings_live_in_the_permalink(page, site_url):
    _open(page, site_url, "#experiments.model=delaunay&experiments.sizes=6,7&experiments.sets=40&experiments.seed=9")
    assert page.input_value(f'{ROOT} [data-control="sizes"]') == "6,7"
    assert page.input_value(f'{ROOT} [data-control="model"]') == "delaunay"
    _set(page, "seed", "77")
    assert "experiments.seed=77" in page.url and "experiments.model=delaunay" in page.url
