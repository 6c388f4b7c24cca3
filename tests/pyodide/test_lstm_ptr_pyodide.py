"""The trained hull models inside Pyodide (pytest-pyodide, `selenium` fixture): same answers as CPython.

Needs a Pyodide dist dir (--dist-dir) whose pyodide-lock.json lists the ptrnet wheel; the weights
come from dist/models/ (see conftest.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pytest_pyodide import run_in_pyodide

from ptrnet import api

REFERENCE_POINTS = [[0.45, 0.45], [0.60, 0.35], [0.15, 0.30], [0.85, 0.75], [0.30, 0.85], [0.80, 0.15], [0.50, 0.65]]


@run_in_pyodide(packages=["ptrnet"], pytest_assert_rewrites=False)
def _check_steps_in_pyodide(selenium: Any, cases: list) -> None:
    import numpy as np

    from ptrnet import api

    for points, mask, moves, probs in cases:
        res = api.dispatch("hull-steps", "real", {"points": points, "mask": mask})
        assert [[s["input"], s["choice"]] for s in res["steps"]] == moves
        got = np.array([s["probs"] for s in res["steps"]])
        assert np.abs(got - np.array(probs)).max() < 1e-6


def test_hull_steps_in_pyodide_match_cpython(selenium_with_models: Any) -> None:
    rng = np.random.default_rng(11)
    sets = [REFERENCE_POINTS, rng.random((5, 2)).round(4).tolist(), rng.random((12, 2)).round(4).tolist()]
    cases = []
    for points in sets:
        for mask in (False, True):
            res = api.dispatch("hull-steps", "real", {"points": points, "mask": mask})
            cases.append([points, mask, [[s["input"], s["choice"]] for s in res["steps"]],
                          [s["probs"] for s in res["steps"]]])
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

    from ptrnet import MissingData, api, lstm_ptr

    data = resources.files("ptrnet") / "data"
    for weights in data.glob("hull_*.npz"):  # written by an earlier test in this runtime
        weights.unlink()
    lstm_ptr.shipped.cache_clear()
    try:
        api.dispatch("hull-steps", "real", {"points": [[0.1, 0.2], [0.8, 0.3], [0.5, 0.9]]})
    except MissingData as err:
        assert str(err) == str(data / "hull_ptrnet.npz")
    else:
        raise AssertionError("without its weights the model should raise MissingData")


@run_in_pyodide(packages=["ptrnet"], pytest_assert_rewrites=False)
def _decode_and_forward_in_pyodide(selenium: Any) -> None:
    import numpy as np

    from ptrnet import lstm_ptr as L

    params = L.shipped("ptrnet")
    x = np.random.default_rng(3).random((8, 7, 2))
    choices, probs = L.decode(params, x)
    live = choices >= 0
    batch = L.Batch(x, np.ones((8, 7), dtype=bool), np.where(live, choices, 0), live)
    _, forward_probs, _ = L.forward(params, batch)
    assert np.array_equal(forward_probs[live], probs[live])


def test_decoding_equals_the_training_forward_in_pyodide(selenium_with_models: Any) -> None:
    _decode_and_forward_in_pyodide(selenium_with_models)
