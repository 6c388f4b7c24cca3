"""The sorter's core checks inside Pyodide (pytest-pyodide, `selenium` fixture).

Needs a Pyodide dist dir (--dist-dir) whose pyodide-lock.json lists the ptrnet wheel.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pytest_pyodide import run_in_pyodide

from ptrnet.sorter import model as sorter
from ptrnet.sorter import trainer as sorter_trainer


@run_in_pyodide(packages=["ptrnet"], pytest_assert_rewrites=False)
def test_gradients_match_finite_differences(selenium: Any) -> None:
    import numpy as np

    from ptrnet.sorter import backprop
    from ptrnet.sorter import model as sorter

    rng = np.random.default_rng(0)
    theta = rng.normal(0.0, 1.0, 96)
    x = rng.random((3, 6))
    for mask in (True, False):
        _, grads = backprop.loss_and_grads(sorter.unflatten(theta), x, mask)
        ana = sorter.flatten(grads)
        num = np.zeros(96)
        for i in range(96):
            up, down = theta.copy(), theta.copy()
            up[i] += 1e-6
            down[i] -= 1e-6
            num[i] = (
                backprop.loss_and_grads(sorter.unflatten(up), x, mask)[0]
                - backprop.loss_and_grads(sorter.unflatten(down), x, mask)[0]
            ) / 2e-6
        for k in range(6):  # one parameter vector of 16 at a time
            a, n = ana[16 * k : 16 * k + 16], num[16 * k : 16 * k + 16]
            assert np.linalg.norm(a - n) / (np.linalg.norm(a) + np.linalg.norm(n)) < 1e-5


@run_in_pyodide(packages=["ptrnet"], pytest_assert_rewrites=False)
def test_same_seed_is_bit_identical(selenium: Any) -> None:
    import numpy as np

    from ptrnet.sorter import model as sorter
    from ptrnet.sorter import trainer as sorter_trainer

    a = sorter_trainer.Trainer(sorter.SorterConfig(seed=4))
    b = sorter_trainer.Trainer(sorter.SorterConfig(seed=4))
    c = sorter_trainer.Trainer(sorter.SorterConfig(seed=5))
    a.train(50)
    b.train(20)
    b.train(30)
    c.train(50)
    assert np.array_equal(a.theta, b.theta)
    assert not np.array_equal(a.theta, c.theta)


@run_in_pyodide(packages=["ptrnet"], pytest_assert_rewrites=False)
def test_short_training_run_lowers_the_loss_and_sorts(selenium: Any) -> None:
    from ptrnet.sorter import evaluation as sorter_eval
    from ptrnet.sorter import trainer as sorter_trainer

    trainer = sorter_trainer.Trainer()
    losses = trainer.train(200)["losses"]
    assert sum(losses[-20:]) < 0.5 * sum(losses[:20])
    assert sorter_eval.accuracy(trainer.params, n=10) >= 0.9
    assert max(sorter_eval.evaluate(trainer.params, [5, 20, 50], count=50)["invalid"]) == 0.0


@run_in_pyodide(packages=["ptrnet"], pytest_assert_rewrites=False)
def _train_in_pyodide(selenium: Any, seed: int, k: int) -> list[float]:
    from ptrnet.sorter import model as sorter
    from ptrnet.sorter import trainer as sorter_trainer

    trainer = sorter_trainer.Trainer(sorter.SorterConfig(seed=seed))
    trainer.train(k)
    return [float(t) for t in trainer.theta]


def test_pyodide_training_follows_cpython(selenium: Any) -> None:
    """Same seed, same data, same updates: only libm rounding may differ between runtimes."""
    theta = np.array(_train_in_pyodide(selenium, 3, 30))
    trainer = sorter_trainer.Trainer(sorter.SorterConfig(seed=3))
    trainer.train(30)
    assert np.allclose(theta, trainer.theta, rtol=0.0, atol=1e-9)
