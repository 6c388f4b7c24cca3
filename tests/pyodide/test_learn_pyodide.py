"""The reader's Ptr-Net trainer (ptrnet.learn) inside Pyodide: its gradient equals CPython's on the same batch."""

from __future__ import annotations

from typing import Any

import numpy as np
from pytest_pyodide import run_in_pyodide

from ptrnet.learn import grad as G
from ptrnet.learn.hull_trainer import Recipe, Trainer


@run_in_pyodide(packages=["ptrnet"], pytest_assert_rewrites=False)
def _gradient_in_pyodide(selenium: Any, seed: int, update: int) -> dict:
    from ptrnet.learn import grad as G
    from ptrnet.learn.hull_trainer import Recipe, Trainer

    t = Trainer(Recipe(seed=seed))
    loss, grads = G.loss_and_grads(t.params, t.batch(update))
    return {"loss": loss, "grads": {k: g.ravel().tolist() for k, g in grads.items()}}


def test_the_browser_gradient_equals_cpythons_on_the_same_batch(selenium: Any) -> None:
    page = _gradient_in_pyodide(selenium, 4, 17)
    t = Trainer(Recipe(seed=4))
    loss, grads = G.loss_and_grads(t.params, t.batch(17))
    assert abs(page["loss"] - loss) <= 1e-12
    assert set(page["grads"]) == set(grads)
    for name, g in grads.items():
        assert np.abs(np.array(page["grads"][name]) - g.ravel()).max() <= 1e-12, name
