"""The trained models inside Pyodide (pytest-pyodide, `selenium` fixture): PyTorch's golden outputs and the
same answers as CPython.

Needs a Pyodide dist dir (--dist-dir) whose pyodide-lock.json lists the ptrnet wheel; the weights
come from dist/models/ (see conftest.py).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import numpy as np
import pytest
from pytest_pyodide import run_in_pyodide

from ptrnet import api
from ptrnet.pointer import tasks
from training.paths import REPO

pytestmark = pytest.mark.slow  # about a minute here: each test first loads the trained weights into Pyodide (13–20 s)

REFERENCE_POINTS = [[0.45, 0.45], [0.60, 0.35], [0.15, 0.30], [0.85, 0.75], [0.30, 0.85], [0.80, 0.15], [0.50, 0.65]]


@run_in_pyodide(packages=["ptrnet"], pytest_assert_rewrites=False)
def _check_steps_in_pyodide(selenium: Any, cases: list) -> None:
    import numpy as np

    from ptrnet import api

    for points, mask, moves, probs in cases:
        res = api.dispatch("hull-steps", "real", {"points": points, "mask": mask})
        assert [[s["input"], s["choice"]] for s in res["steps"]] == moves
        got = np.array([s["probs"] for s in res["steps"]])
        assert np.abs(got - np.array(probs)).max() < 1e-5  # the pages decode in float32


def test_hull_steps_in_pyodide_match_cpython(selenium_with_models: Any) -> None:
    rng = np.random.default_rng(11)
    sets = [REFERENCE_POINTS, rng.random((5, 2)).round(4).tolist(), rng.random((12, 2)).round(4).tolist()]
    cases = []
    for points in sets:
        for mask in (False, True):
            res = api.dispatch("hull-steps", "real", {"points": points, "mask": mask})
            cases.append(
                [points, mask, [[s["input"], s["choice"]] for s in res["steps"]], [s["probs"] for s in res["steps"]]]
            )
    _check_steps_in_pyodide(selenium_with_models, cases)


@run_in_pyodide(packages=["ptrnet"], pytest_assert_rewrites=False)
def _slots_in_pyodide(selenium: Any, points: list) -> dict:
    from ptrnet import api

    res = api.dispatch("slots", "real", {"points": points})
    return {"ptrnet": res["ptrnet"], "seq2seq": res["seq2seq"], "hull": res["hull"]}


def test_slots_in_pyodide_match_cpython(selenium_with_models: Any) -> None:
    for n in (5, 9):
        points = np.random.default_rng(n).random((n, 2)).round(4).tolist()
        host = api.dispatch("slots", "real", {"points": points})
        assert _slots_in_pyodide(selenium_with_models, points) == {k: host[k] for k in ("ptrnet", "seq2seq", "hull")}


@run_in_pyodide(packages=["ptrnet"], pytest_assert_rewrites=False)
def test_without_fetched_weights_the_model_names_the_file_to_fetch(selenium: Any) -> None:
    from importlib import resources

    from ptrnet import MissingData, api
    from ptrnet.pointer import weights

    data = resources.files("ptrnet") / "data"
    for path in data.glob("*.npz"):  # written by an earlier test in this runtime
        path.unlink()
    weights._load_shipped.cache_clear()
    points = [[0.1, 0.2], [0.8, 0.3], [0.5, 0.9]]
    try:
        api.dispatch("hull-steps", "real", {"points": points})
    except MissingData as err:
        assert str(err) == str(data / "hull_ptrnet.npz")
    else:
        raise AssertionError("without its weights the model should raise MissingData")
    reply = api.call("three-problems", "solve", {"points": points, "student": True})  # every declared file at once
    names = ("hull_ptrnet", "tsp_ptrnet", "delaunay_ptrnet", "tsp_ptrnet_a1")
    assert reply["error"]["missing"] == [str(data / f"{name}.npz") for name in names]
    reply = api.call("three-problems", "solve", {"points": points})  # the A1-taught model only where asked for
    assert reply["error"]["missing"] == [str(data / f"{name}.npz") for name in names[:3]]


@run_in_pyodide(packages=["ptrnet"], pytest_assert_rewrites=False)
def _golden_in_pyodide(selenium: Any, model: str, rule: str, cases: list) -> float:
    import numpy as np

    from ptrnet.pointer import decoding, weights

    params = weights.shipped(model)
    worst = 0.0
    for case in cases:
        steps = len(case["probs"])
        choices, probs = decoding.greedy(params, np.array(case["points"])[None], rule=rule, max_steps=steps)
        assert choices[0, :steps].tolist() == case["choices"]
        worst = max(worst, float(np.abs(probs[0, :steps] - np.array(case["probs"])).max()))
    return worst


def test_pyodide_reproduces_the_golden_outputs_of_pytorch(selenium_with_models: Any) -> None:
    data = resources.files("ptrnet").joinpath("data")
    cards = {t: json.loads(data.joinpath(f"{t}_model_card.json").read_text()) for t in tasks.SPECS}
    shipped = [(t, kind, m["golden"]) for t, card in cards.items() for kind, m in card["models"].items() if m["golden"]]
    assert {"hull", "tsp", "delaunay"} <= {t for t, _, _ in shipped}
    for task, kind, golden_file in shipped:
        golden = json.loads((REPO / golden_file).read_text())
        rule = "tour" if tasks.SPECS[task].constrained else "free"
        assert _golden_in_pyodide(selenium_with_models, f"{task}_{kind}", rule, golden["cases"]) < 1e-4, kind


@run_in_pyodide(packages=["ptrnet"], pytest_assert_rewrites=False)
def _three_problems_in_pyodide(selenium: Any, points: list) -> dict:
    from ptrnet import api

    return api.dispatch("three-problems", "solve", {"points": points})


def test_the_companion_pages_answers_in_pyodide_match_cpython(selenium_with_models: Any) -> None:
    for n in (3, 7, 12):
        points = np.random.default_rng(100 + n).random((n, 2)).round(4).tolist()
        host = api.dispatch("three-problems", "solve", {"points": points})
        browser = _three_problems_in_pyodide(selenium_with_models, points)
        assert _close(browser, host), n


def _close(a: Any, b: Any) -> bool:
    """Equal structures; floats equal to 1e-9 (the two runtimes' numpy builds may round differently)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return a == pytest.approx(b, rel=1e-9, abs=1e-12)
    return a == b
