"""The main article's §7 figures, driven like a reader: the hull and TSP figures measure the experiment runner's
seeded sets (against the CPython evaluation of the same sets) beside the paper's values, only after the demos
already asked have answered; the A1 figure shows A1's and its student's tours on the reader's points."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from ptrnet.experiments import runner
from ptrnet.experiments.sweeps import SWEEPS
from ptrnet.geometry.tsp import tour_length
from ptrnet.limits import HELD_KARP_MAX, HULL_EXAMPLE
from ptrnet.pointer import tasks, trained, weights
from tests.browser.conftest import drag, out_value, wait_ready
from training.reports import evaluation

ARTIFACTS_NAME = "findings"
RUN_TIMEOUT_MS = 300_000  # a whole figure's run on a loaded 2-core machine

# Every call the page posts to its worker and every answer, in order (the worker answers in the order it is asked).
RPC_LOG = """(() => {
  window.__rpcLog = [];
  const post = Worker.prototype.postMessage;
  const watched = new WeakSet();
  Worker.prototype.postMessage = function (message, ...rest) {
    if (!watched.has(this)) {
      watched.add(this);
      this.addEventListener("message", (event) => {
        const data = event.data;
        if (data?.channel === "rpc") window.__rpcLog.push({ answer: data.id });
      });
    }
    if (message?.channel === "rpc") window.__rpcLog.push({ call: `${message.demo}.${message.fn}`, id: message.id });
    return post.call(this, message, ...rest);
  };
})();"""


def _wait_complete(page, demo: str) -> dict:
    page.locator(f'[data-demo="{demo}"]').scroll_into_view_if_needed()
    page.wait_for_function(
        '(demo) => { const v = document.querySelector(`[data-demo="${demo}"] [data-out=results]`)?.dataset.value;'
        " return v && JSON.parse(v).complete; }",
        arg=demo,
        timeout=RUN_TIMEOUT_MS,
    )
    return out_value(page, demo, "results")


def _points(seed: int, n: int, sets: int) -> list[np.ndarray]:
    return [runner.point_set(seed, n, i) for i in range(sets)]


def test_the_hull_figure_measures_the_runners_sets_beside_the_papers_values(page, site_url):
    page.goto(site_url + "index.html")
    results = _wait_complete(page, "hull-sweep")
    sweep = SWEEPS["hull-sweep"]
    assert results["model"] == "hull" and results["seed"] == sweep.seed and results["decoding"] == "greedy"
    assert [row["n"] for row in results["rows"]] == list(sweep.sizes) == [5, 10, 20, 50, 100, 200]
    params = weights.shipped("hull_ptrnet")
    for row in results["rows"]:
        n = row["n"]
        examples = [(p, tasks.SPECS["hull"].label(p)) for p in _points(sweep.seed, n, sweep.sets)]
        offline = evaluation.measure(params, "hull", examples, 1)  # the offline evaluation's code, on CPython
        assert row["sets"] == sweep.sets
        assert row["accuracy"] == offline["accuracy"] and row["not_simple"] == offline["not_simple"], n
        assert row["area_coverage"] == pytest.approx(offline["area_coverage"], abs=1e-9)
    paper = out_value(page, "hull-sweep", "paper")
    assert [p["n"] for p in paper] == [5, 10, 50, 100, 200, 500]
    assert {"n": 500, "accuracy": 0.013, "area_coverage": 0.992} in paper
    bars = out_value(page, "hull-sweep", "collinearity")
    assert sum(bars["sets"]) == sweep.sets * len(sweep.sizes)
    figure = page.locator('[data-demo="hull-sweep"]')
    assert figure.get_attribute("data-state") == "idle"
    figure.screenshot(path=f"test-artifacts/{ARTIFACTS_NAME}-hull-1280.png")
    assert page.watch.console_errors == []


def test_the_tsp_figure_measures_the_ratio_to_the_shipped_lkh_tours(page, site_url):
    page.goto(site_url + "index.html")
    results = _wait_complete(page, "tsp-sweep")
    sweep = SWEEPS["tsp-sweep"]
    assert [row["n"] for row in results["rows"]] == list(sweep.sizes) and max(sweep.sizes) == 50
    tours = weights.shipped(runner.REFERENCE_FILE, np.int64)
    params = weights.shipped("tsp_ptrnet")
    for row in results["rows"]:
        n = row["n"]
        if n not in (10, 50):  # one Held-Karp size and the largest LKH-3 one: the CPython beam search is slow
            continue
        points = _points(sweep.seed, n, sweep.sets)
        if n <= HELD_KARP_MAX:
            examples = [(p, tasks.SPECS["tsp"].label(p)) for p in points]
        else:
            key = f"s{sweep.seed}_n{n}"
            examples = [(p, [*(tours[key][i] + 1).tolist(), int(tours[key][i][0]) + 1]) for i, p in enumerate(points)]
        offline = evaluation.measure(params, "tsp", examples, tasks.SPECS["tsp"].beam_width, pick="probable")
        assert row["ratio"] == pytest.approx(offline["ratio"], abs=1e-9)
        assert row["reference"] == pytest.approx(offline["optimal"], abs=1e-9)
        assert row["reference_kind"] == ("Held-Karp" if n <= HELD_KARP_MAX else "LKH-3")
        a1 = [evaluation.baseline_lengths([e], ("A1",))["A1"] for e in examples]
        references = [tour_length(p, np.array(truth[:-1]) - 1) for p, truth in examples]
        assert row["a1_ratio"] == pytest.approx(np.mean(np.array(a1) / np.array(references)), abs=1e-9)
    paper = out_value(page, "tsp-sweep", "paper")
    assert {p["n"]: round(p["ratio"], 4) for p in paper if "ratio" in p} == {5: 1.0, 10: 1.0035, 20: 1.0131}
    page.locator('[data-demo="tsp-sweep"]').screenshot(path=f"test-artifacts/{ARTIFACTS_NAME}-tsp-1280.png")
    assert page.watch.console_errors == []


def test_the_figures_run_only_after_the_demos_already_asked_have_answered(page, site_url):
    page.add_init_script(RPC_LOG)
    page.goto(site_url + "index.html#demo-6-2")  # the hull figure in view from the start
    page.wait_for_function("() => window.__rpcLog.some((e) => e.call === 'hull-sweep.measure')", timeout=RUN_TIMEOUT_MS)
    log = page.evaluate("() => window.__rpcLog")
    first_sweep = next(k for k, e in enumerate(log) if e.get("call", "").startswith("hull-sweep."))
    answered = {e["answer"] for e in log[:first_sweep] if "answer" in e}
    asked_before = [e for e in log[:first_sweep] if "call" in e]
    assert {"sequences.solve", "lm-shapes.step"} <= {e["call"] for e in asked_before}, asked_before
    assert all(e["id"] in answered for e in asked_before), asked_before


def _nearest_neighbour(points: list[list[float]]) -> list[int]:
    """A1 as the paper's baselines define it, written here: from city 1, always the nearest unvisited city."""
    tour, left = [0], set(range(1, len(points)))
    while left:
        here = points[tour[-1]]
        tour.append(min(left, key=lambda j: (math.dist(here, points[j]), j)))
        left.remove(tour[-1])
    closed = [j + 1 for j in [*tour, 0]]
    return closed if closed[1] < closed[-2] else closed[::-1]  # the notation's direction


def _brute_force_optimum(points: list[list[float]]) -> float:
    rest = range(1, len(points))
    return min(tour_length(points, [0, *perm]) for perm in itertools.permutations(rest))


def test_the_a1_figure_shows_the_teachers_and_the_students_tours_on_the_readers_points(page, site_url):
    page.goto(site_url + "index.html")
    wait_ready(page, "tsp-student")
    assert out_value(page, "tsp-student", "a1_tour") == _nearest_neighbour(HULL_EXAMPLE)
    canvas = '[data-demo="tsp-student"] canvas'
    drag(page, canvas, HULL_EXAMPLE[6], (0.2, 0.62))
    # Busy from the drag's first request until the newest one is answered (runtime/callers.js latestCaller).
    page.wait_for_function("() => document.querySelector('[data-demo=\"tsp-student\"]').dataset.state === 'idle'")
    points = page.evaluate(f"() => JSON.parse(document.querySelector('{canvas}').dataset.points)")
    assert points[6] != HULL_EXAMPLE[6]
    assert out_value(page, "tsp-student", "a1_tour") == _nearest_neighbour(points)
    optimal = out_value(page, "tsp-student", "tsp")
    assert tour_length(points, np.array(optimal[:-1]) - 1) == pytest.approx(_brute_force_optimum(points), abs=1e-9)
    assert out_value(page, "tsp-student", "model_tsp_a1") == trained.student_tour(points)
    assert page.watch.console_errors == []


@pytest.mark.parametrize("width", [1280, 390])
def test_the_figures_fit_the_page_without_errors(browser, site_url, width):
    context = browser.new_context(viewport={"width": width, "height": 900}, service_workers="block")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.goto(site_url + "index.html")
    wait_ready(page, "tsp-student")
    for demo in ("hull-sweep", "tsp-sweep"):
        _wait_complete(page, demo)
    for demo in ("hull-sweep", "tsp-student", "tsp-sweep"):
        figure = page.locator(f'[data-demo="{demo}"]')
        figure.scroll_into_view_if_needed()
        box = figure.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, demo
        figure.screenshot(path=f"test-artifacts/{ARTIFACTS_NAME}-{demo}-{width}.png")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    assert page.evaluate("() => [...document.querySelectorAll('[data-state=error]')].length") == 0
    assert errors == []
    context.close()
