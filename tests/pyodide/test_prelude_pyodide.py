"""The prelude demos inside Pyodide: data from the wheel, the LSTM step, the NPLM's gradients and training.

Needs a Pyodide dist dir (--dist-dir) whose pyodide-lock.json lists the ptrnet wheel.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
from pytest_pyodide import run_in_pyodide

from ptrnet.api import dispatch
from ptrnet.prelude import corpus as prelude_corpus


def test_lstm_step_in_pyodide_equals_cpythons(selenium: Any) -> None:
    """The step tests/py/test_lm.py checks gate by gate in CPython gives the same tensors inside Pyodide."""
    from ptrnet.prelude import lm

    rng = np.random.default_rng(0)
    N, D, H, V = 2, 3, 4, 5
    shapes = {"E": (V, D), "W_x": (D, 4 * H), "W_h": (H, 4 * H), "b": (4 * H,), "W_s": (H, V), "b_s": (V,)}
    params = {name: rng.normal(size=shape) for name, shape in shapes.items()}
    ids, h_prev, c_prev = rng.integers(0, V, N), rng.normal(size=(N, H)), rng.normal(size=(N, H))
    here = lm.step(params, ids, h_prev, c_prev)
    args = [{k: v.tolist() for k, v in params.items()}, ids.tolist(), h_prev.tolist(), c_prev.tolist()]
    there = _step_in_pyodide(selenium, *args)
    for name in lm.TENSORS:
        np.testing.assert_allclose(np.array(there[name]), here[name], rtol=1e-12, atol=1e-14, err_msg=name)


@run_in_pyodide(packages=["ptrnet"])
def _step_in_pyodide(selenium: Any, params: dict, ids: list, h_prev: list, c_prev: list) -> dict:
    import numpy as np

    from ptrnet.prelude import lm

    arrays = {k: np.array(v) for k, v in params.items()}
    out = lm.step(arrays, np.array(ids), np.array(h_prev), np.array(c_prev))
    return {name: np.asarray(out[name]).tolist() for name in lm.TENSORS}


@run_in_pyodide(packages=["ptrnet"], pytest_assert_rewrites=False)
def test_nplm_gradients_match_finite_differences(selenium: Any) -> None:
    import numpy as np

    from ptrnet.prelude import nplm

    for direct in (True, False):
        rng = np.random.default_rng(1)
        params = nplm.init_params(6, nplm.NPLMConfig(direct=direct, hidden=4), rng)
        for p in params.values():
            p += rng.normal(0.0, 0.5, p.shape)
        ctx, target = rng.integers(0, 6, (7, 2)), rng.integers(0, 6, 7)
        _, grads = nplm.loss_and_grads(params, ctx, target, 0.01)
        for name, p in params.items():
            num = np.zeros_like(p)
            for idx in np.ndindex(p.shape):
                old = p[idx]
                p[idx] = old + 1e-6
                up = nplm.loss_and_grads(params, ctx, target, 0.01)[0]
                p[idx] = old - 1e-6
                down = nplm.loss_and_grads(params, ctx, target, 0.01)[0]
                p[idx] = old
                num[idx] = (up - down) / 2e-6
            a = grads[name]
            assert np.linalg.norm(a - num) / (np.linalg.norm(a) + np.linalg.norm(num)) < 1e-5, (direct, name)


@run_in_pyodide(packages=["ptrnet"], pytest_assert_rewrites=False)
def test_nplm_beats_the_trigram_after_training(selenium: Any) -> None:
    from ptrnet.api import dispatch

    s = dispatch("nplm", "reset", {"seed": 0, "direct": True})
    assert s["loss"] is None and s["iteration"] == 0
    for _ in range(3):
        s = dispatch("nplm", "train", {"iterations": 2000})
    assert s["iteration"] == 6000
    assert s["perplexity"]["model"] < s["perplexity"]["trigram"]
    assert s["sentence_prob"]["model"] > 1000 * s["sentence_prob"]["trigram"]


@run_in_pyodide(packages=["ptrnet"], pytest_assert_rewrites=False)
def _answers_in_pyodide(selenium: Any) -> str:
    import json

    from ptrnet.api import dispatch

    steps = [
        dispatch("lm-shapes", "step", {"tokens": [0, 2, 4], "mode": m, "temperature": 0.7, "seed": 11})
        for m in ("sample", "greedy")
    ]
    dispatch("nplm", "reset", {"seed": 2, "direct": False})
    return json.dumps({"steps": steps, "nplm": dispatch("nplm", "train", {"iterations": 300})})


def _assert_close(got: Any, want: Any, tol: float) -> None:
    """Same JSON structure and values; floats may differ by tol (libm rounding)."""
    if isinstance(want, dict):
        assert list(got) == list(want)
        for key in want:
            _assert_close(got[key], want[key], tol)
    elif isinstance(want, list):
        assert len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            _assert_close(g, w, tol)
    elif isinstance(want, float):
        assert isinstance(got, float) and abs(got - want) <= tol * max(1.0, abs(want)), (got, want)
    else:
        assert got == want and type(got) is type(want), (got, want)


def test_pyodide_answers_match_cpython(selenium: Any) -> None:
    """The shipped LM's step and a short NPLM run give CPython's answers after a JSON round trip."""
    got = json.loads(_answers_in_pyodide(selenium))
    steps = [
        dispatch("lm-shapes", "step", {"tokens": [0, 2, 4], "mode": m, "temperature": 0.7, "seed": 11})
        for m in ("sample", "greedy")
    ]
    dispatch("nplm", "reset", {"seed": 2, "direct": False})
    want = json.loads(json.dumps({"steps": steps, "nplm": dispatch("nplm", "train", {"iterations": 300})}))
    _assert_close(got["steps"], want["steps"], 1e-12)
    _assert_close(got["nplm"], want["nplm"], 1e-8)  # 300 SGD steps may amplify libm rounding a little
    assert np.isfinite(got["nplm"]["perplexity"]["trigram"]) and prelude_corpus.load_corpus().vocab == list(
        got["nplm"]["vectors"]
    )
