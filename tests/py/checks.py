"""Checks shared by several test files: plain JSON answers, Korean input errors, the package's data files and the
training records read directly, and finite-difference gradients."""

import json
import re
from importlib import resources

import numpy as np
import pytest

from ptrnet.api import InputError, dispatch
from ptrnet.pointer import tasks
from training.paths import RECORDS

HANGUL = re.compile("[가-힣]")
SHIPPED_TASKS = [t for t in tasks.SPECS if (resources.files("ptrnet") / "data" / f"{t}_ptrnet.npz").is_file()]


def assert_plain(value) -> None:
    """Only built-in JSON types all the way down (no numpy scalars or arrays)."""
    if isinstance(value, dict):
        assert all(type(k) is str for k in value)
        for v in value.values():
            assert_plain(v)
    elif isinstance(value, list):
        for v in value:
            assert_plain(v)
    else:
        assert value is None or type(value) in (int, float, str, bool), type(value)  # None is JSON null


def written_percent(share: float) -> str:
    """SPEC section 4's percentage, written out: one decimal, two where one would show 100 %, a no-break space."""
    one = f"{100 * share:.1f}"
    return f"{one if one != '100.0' else f'{100 * share:.2f}'}\u00a0%"


def assert_korean_error(demo: str, params: dict) -> None:
    """dispatch(demo, "solve", params) raises an InputError with a Korean message."""
    with pytest.raises(InputError) as err:
        dispatch(demo, "solve", params)
    assert HANGUL.search(str(err.value)), str(err.value)


def raw_json(name: str) -> dict:
    """A data file of the installed package, read directly (not through ptrnet.explain)."""
    return json.loads((resources.files("ptrnet") / "data" / name).read_text(encoding="utf-8"))


def record_json(name: str) -> dict:
    """A file of the training side's records (results JSON, golden outputs)."""
    return json.loads((RECORDS / name).read_text(encoding="utf-8"))


def rel_err(a: np.ndarray, b: np.ndarray) -> float:
    """|a - b| / (|a| + |b|) in the Euclidean norm."""
    return float(np.linalg.norm(a - b) / (np.linalg.norm(a) + np.linalg.norm(b)))


def numeric_grads(loss, params: dict[str, np.ndarray], h: float = 1e-6) -> dict[str, np.ndarray]:
    """Central finite differences of loss() for every entry of every parameter."""
    out = {}
    for name, p in params.items():
        g = np.zeros_like(p)
        for idx in np.ndindex(p.shape):
            old = p[idx]
            p[idx] = old + h
            up = loss()
            p[idx] = old - h
            down = loss()
            p[idx] = old
            g[idx] = (up - down) / (2 * h)
        out[name] = g
    return out
