"""Demos 1, 3, 4 and 7 inside Pyodide: the data files load from the wheel and the answers match CPython's.

Needs a Pyodide dist dir (--dist-dir) whose pyodide-lock.json lists the ptrnet wheel.
"""

from __future__ import annotations

from typing import Any

from pytest_pyodide import run_in_pyodide

from ptrnet.api import dispatch

REQUESTS = [
    ("slots", {"n": 12, "seed": 7}),
    ("mix-vs-point", {"d": [-3.0, 2.5]}),
    ("hull-steps", {"step": 5, "mask": True}),
    ("pointer-generator", {"p_gen": 0.3}),
]


@run_in_pyodide(packages=["ptrnet"], pytest_assert_rewrites=False)
def test_hull_steps_load_from_the_wheel_and_mask_renormalises(selenium: Any) -> None:
    from ptrnet.api import dispatch

    free = dispatch("hull-steps", "solve", {"step": 5, "mask": False})
    masked = dispatch("hull-steps", "solve", {"step": 5, "mask": True})
    assert free["choice"] == masked["choice"] == 3 and masked["output"] == [3, 6, 4, 5, 3]
    assert masked["masked"] == [False, False, False, True, True, True, False, False]
    kept = sum(p for p, m in zip(free["probs"], masked["masked"], strict=True) if not m)
    for p, q, m in zip(free["probs"], masked["probs"], masked["masked"], strict=True):
        assert abs(q - (0.0 if m else p / kept)) < 1e-12
    assert abs(sum(masked["probs"]) - 1) < 1e-12


@run_in_pyodide(packages=["ptrnet"], pytest_assert_rewrites=False)
def test_pointer_generator_switches_from_generating_to_copying(selenium: Any) -> None:
    from ptrnet.api import dispatch

    gen, default, copy = (dispatch("pointer-generator", "solve", {"p_gen": p}) for p in (1.0, 0.3, 0.0))
    assert gen["origin"][gen["chosen"]] == "vocab" and gen["final"]["Okonkwo"] == 0
    assert default["chosen"] == copy["chosen"] == "Okonkwo"
    assert all(abs(sum(o["final"].values()) - 1) < 1e-12 for o in (gen, default, copy))


@run_in_pyodide(packages=["ptrnet"], pytest_assert_rewrites=False)
def test_mixed_vector_is_the_weighted_sum_of_the_encoders(selenium: Any) -> None:
    from ptrnet.api import dispatch

    out = dispatch("mix-vs-point", "solve", {"d": [30, 40]})
    assert abs(out["d"][0] - 4.8) < 1e-12 and abs(out["d"][1] - 6.4) < 1e-12  # length 8, direction kept
    for k in range(2):
        assert (
            abs(out["mixed"][k] - sum(a * e[k] for a, e in zip(out["weights"], out["encoders"], strict=True))) < 1e-12
        )


@run_in_pyodide(packages=["ptrnet"], pytest_assert_rewrites=False)
def _answers_in_pyodide(selenium: Any, requests: list) -> str:
    import json

    from ptrnet.api import dispatch

    return json.dumps([dispatch(demo, "solve", params) for demo, params in requests])


def assert_close(got: Any, want: Any) -> None:
    """Same JSON structure and values; floats may differ by 1e-12 (libm rounding)."""
    if isinstance(want, dict):
        assert list(got) == list(want)
        for key in want:
            assert_close(got[key], want[key])
    elif isinstance(want, list):
        assert len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            assert_close(g, w)
    elif isinstance(want, float):
        assert isinstance(got, float) and abs(got - want) < 1e-12, (got, want)
    else:
        assert got == want and type(got) is type(want), (got, want)


def test_pyodide_answers_match_cpython(selenium_with_models: Any) -> None:
    """Same seeds and data, same answers as CPython, after a JSON round trip."""
    import json

    want = json.loads(json.dumps([dispatch(demo, "solve", params) for demo, params in REQUESTS]))
    assert_close(json.loads(_answers_in_pyodide(selenium_with_models, REQUESTS)), want)
