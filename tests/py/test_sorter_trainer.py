"""Tests of the sorter's training (demo 5): one Adam iteration, determinism, divergence and snapshots."""

from __future__ import annotations

import math

import numpy as np

from ptrnet.nn.adam import adam_update
from ptrnet.sorter import backprop
from ptrnet.sorter import model as sorter
from ptrnet.sorter import trainer as sorter_trainer

# ---------------------------------------------------------------- one iteration


def test_trainer_iteration_is_teacher_forced_adam_on_one_sampled_batch() -> None:
    cfg = sorter.SorterConfig(seed=11)
    trainer = sorter_trainer.Trainer(cfg)
    rng = np.random.default_rng(11)
    theta = rng.normal(0.0, cfg.init_scale, 96)
    assert np.array_equal(trainer.theta, theta)
    n = int(rng.integers(5, 11))
    x = rng.random((32, n))
    loss, grads = backprop.loss_and_grads(sorter.unflatten(theta), x, True)
    expected, _, _ = adam_update(theta, sorter.flatten(grads), np.zeros(96), np.zeros(96), 1, cfg.lr)
    report = trainer.train(1)
    assert np.array_equal(trainer.theta, expected)
    assert report["losses"] == [loss] and report["iteration"] == 1


# ---------------------------------------------------------------- determinism


def test_same_seed_is_bit_identical_and_chunking_does_not_matter() -> None:
    a, b, c = (
        sorter_trainer.Trainer(sorter.SorterConfig(seed=5)),
        sorter_trainer.Trainer(sorter.SorterConfig(seed=5)),
        sorter_trainer.Trainer(sorter.SorterConfig(seed=6)),
    )
    ra = a.train(60)
    rb = [b.train(k) for k in (1, 19, 40)]
    c.train(60)
    assert np.array_equal(a.theta, b.theta)
    assert ra["losses"] == rb[0]["losses"] + rb[1]["losses"] + rb[2]["losses"]
    assert not np.array_equal(a.theta, c.theta)


def test_reset_and_set_mask() -> None:
    trainer = sorter_trainer.Trainer()
    trainer.train(5)
    before = trainer.theta.copy()
    trainer.set_mask(False)
    assert trainer.config.mask is False and np.array_equal(trainer.theta, before)
    report = trainer.train(3)
    assert report["mask"] is False and report["iteration"] == 8
    trainer.reset(9)
    assert trainer.iteration == 0 and trainer.loss_avg is None and trainer.config.seed == 9
    assert np.array_equal(sorter.flatten(trainer.params), sorter.flatten(sorter.init_params(9)))
    assert trainer.config.mask is False  # the mask setting survives a reset


def test_train_report() -> None:
    trainer = sorter_trainer.Trainer()
    report = trainer.train(10)
    assert set(report) == {"iteration", "loss", "loss_avg", "losses", "diverged", "mask"}
    assert report["iteration"] == 10 and len(report["losses"]) == 10
    assert report["loss"] == report["losses"][-1]
    assert all(isinstance(v, float) for v in report["losses"])
    assert report["diverged"] is False
    assert trainer.train(0)["losses"] == []


# ---------------------------------------------------------------- divergence


def test_huge_learning_rate_is_reported_as_divergence() -> None:
    trainer = sorter_trainer.Trainer(sorter.SorterConfig(lr=1e308))
    report = trainer.train(50)
    assert report["diverged"] is True and report["iteration"] < 50
    assert np.isfinite(trainer.theta).all()  # the bad update was not applied
    assert all(math.isfinite(v) for v in report["losses"])
    stopped = trainer.train(10)
    assert stopped["diverged"] is True and stopped["losses"] == [] and stopped["iteration"] == report["iteration"]
    trainer.reset()
    assert trainer.diverged is False


def test_non_finite_weights_are_reported_as_divergence() -> None:
    trainer = sorter_trainer.Trainer()
    trainer.train(3)
    trainer.params["v"][2] = np.inf
    report = trainer.train(5)
    assert report["diverged"] is True and report["losses"] == [] and report["iteration"] == 3


# ---------------------------------------------------------------- snapshots


def test_a_restored_snapshot_continues_the_run_bit_for_bit() -> None:
    import json

    a = sorter_trainer.Trainer(sorter.SorterConfig(seed=4))
    a.train(37)
    snap = json.loads(json.dumps(a.snapshot()))  # through JSON, as the page stores it
    b = sorter_trainer.Trainer(sorter.SorterConfig(seed=99, mask=False))
    b.restore(snap)
    assert b.iteration == 37 and b.config.mask is True
    assert a.train(20)["losses"] == b.train(20)["losses"]
    assert np.array_equal(a.theta, b.theta)
