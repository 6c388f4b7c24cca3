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


@run_in_pyodide(packages=["ptrnet"], pytest_assert_rewrites=False)
def test_gate_order_matches_separate_gates(selenium: Any) -> None:
    import numpy as np

    from ptrnet.nn import lstm
    from ptrnet.prelude import lm

    N, D, H, V = 2, 3, 4, 5
    rng = np.random.default_rng(0)
    Wx = {k: rng.normal(size=(D, H)) for k in "fgio"}
    Wh = {k: rng.normal(size=(H, H)) for k in "fgio"}
    b = {k: rng.normal(size=H) for k in "fgio"}
    E, W_s, b_s = rng.normal(size=(V, D)), rng.normal(size=(H, V)), rng.normal(size=V)
    ids, h_prev, c_prev = rng.integers(0, V, N), rng.normal(size=(N, H)), rng.normal(size=(N, H))
    x = E[ids]

    def gate(k: str) -> np.ndarray:
        return x @ Wx[k] + h_prev @ Wh[k] + b[k]

    f, i, o = (1.0 / (1.0 + np.exp(-gate(k))) for k in "fio")
    g = np.tanh(gate("g"))
    c = f * c_prev + i * g
    h = o * np.tanh(c)
    order = lstm.GATES  # the package's one gate order
    params = {
        "E": E,
        "W_x": np.hstack([Wx[k] for k in order]),
        "W_h": np.hstack([Wh[k] for k in order]),
        "b": np.concatenate([b[k] for k in order]),
        "W_s": W_s,
        "b_s": b_s,
    }
    out = lm.step(params, ids, h_prev, c_prev)
    for name, want in {"f": f, "g": g, "i": i, "o": o, "c": c, "h": h}.items():
        assert np.allclose(out[name], want, rtol=1e-12, atol=1e-14), name
    assert out["A"].shape == (N, 4 * H) and out["p"].shape == (N, V)
    # A as the prelude's source lays it out: f | g | i | o
    assert lm.GATES == "fgio" and np.allclose(out["A"], np.hstack([gate(k) for k in "fgio"]), rtol=1e-12, atol=1e-14)
    assert np.allclose(out["p"].sum(axis=1), 1.0)


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
