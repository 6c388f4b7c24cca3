"""Labelled training batches for the PyTorch trainer: made fresh (in worker processes) or drawn from a fixed pool.

Labels come from ptrnet.geometry.notation (our hull, Held-Karp and Delaunay code) through ptrnet.pointer.tasks; TSP tours
above ptrnet.limits.HELD_KARP_MAX cities come from LKH-3 (lkh.py).
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ptrnet.geometry import baselines
from ptrnet.pointer import tasks
from training.data.lkh import tsp_label

if TYPE_CHECKING:  # the trainer's settings; importing them here would need PyTorch
    from training.trainers.ptr_model import Config


def labelled(
    task: str, n: int, count: int, seed: int, taught: bool, teacher: str = ""
) -> tuple[list[np.ndarray], list[list[int]]]:
    """tasks.generate's point sets and labels (or taught sequences); TSP tours from lkh.tsp_label (Held-Karp, LKH-3
    above its sizes), or with teacher that approximate algorithm's (baselines.ALGORITHMS) in the order it visits."""
    if task != "tsp":
        return tasks.generate(task, n, count, seed, taught=taught)
    rng = np.random.default_rng(seed)  # the points tasks.generate would draw
    points = [tasks.random_points(rng, n) for _ in range(count)]
    if teacher:
        return points, [[int(j) + 1 for j in baselines.ALGORITHMS[teacher](p)] + [1] for p in points]
    return points, [tsp_label(p) for p in points]


def make_batch(task: str, n: int, batch: int, seed: int, teacher: str = "") -> tuple[np.ndarray, np.ndarray]:
    """batch random point sets of n points and their padded taught sequences (1-based, then 0 = ⇐, -1 = padding)."""
    points, seqs = labelled(task, n, batch, seed, taught=True, teacher=teacher)
    T = max(len(s) for s in seqs) + 1
    target = np.full((batch, T), -1, dtype=np.int64)
    for b, s in enumerate(seqs):
        target[b, : len(s)] = s
        target[b, len(s)] = 0
    return np.stack(points).astype(np.float32), target


def _batch_job(args: tuple) -> tuple[np.ndarray, np.ndarray]:
    """make_batch for a pool worker."""
    return make_batch(*args)


def square_symmetry(rng: np.random.Generator, x: np.ndarray) -> np.ndarray:
    """Each point set (batch, n, 2) under one of the unit square's 8 symmetries, drawn per set: they keep every
    distance, so a TSP label stays an optimal tour (not so for hull and Delaunay labels, which depend on direction)."""
    dtype, k = x.dtype, rng.integers(0, 8, len(x))[:, None, None]  # (batch, 1, 1)
    x = np.where(k & 1, 1.0 - x, x)  # reflect both axes
    x = np.where(k & 2, x * [1.0, -1.0] + [0.0, 1.0], x)  # reflect y
    return np.where(k & 4, x[..., ::-1], x).astype(dtype)  # swap the axes


def batches(config: Config, first_step: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The training stream from first_step on: batch k depends on (seed, k) only, so a resumed run sees the same data."""

    def job(k: int) -> tuple:
        rng = np.random.default_rng([config.seed, k])
        n = int(rng.integers(config.min_n, config.max_n + 1))
        return config.task, n, config.batch, int(rng.integers(2**62)), config.teacher

    if config.augment and config.task != "tsp":
        raise ValueError("augment keeps only TSP labels right")
    k = first_step
    if config.data:
        with np.load(config.data) as f:
            pool = {n: (f[f"x{n}"], f[f"t{n}"]) for n in range(config.min_n, config.max_n + 1)}
        while True:
            rng = np.random.default_rng([config.seed, k])
            x, t = pool[int(rng.integers(config.min_n, config.max_n + 1))]
            idx = rng.integers(0, len(x), config.batch)
            target, points = t[idx], x[idx]
            if config.augment:
                points = square_symmetry(rng, points)
            yield points, target[:, : int((target >= 0).sum(axis=1).max())]
            k += 1
    if config.workers == 0:
        while True:
            yield make_batch(*job(k))
            k += 1
    with mp.get_context("fork").Pool(config.workers) as pool:
        while True:  # a window of jobs in flight, consumed in order
            yield from pool.imap(_batch_job, (job(j) for j in range(k, k + 64 * config.workers)), chunksize=1)
            k += 64 * config.workers


def make_data(task: str, min_n: int, max_n: int, per_n: int, seed: int, workers: int, out: Path) -> None:
    """A pool of per_n labelled examples for every n (the paper trained on a fixed set of 1 M pairs)."""
    chunk = 5000
    jobs = [
        (task, n, chunk, seed * 1_000_003 + n * 10_007 + k)
        for n in range(min_n, max_n + 1)
        for k in range(-(-per_n // chunk))
    ]
    with mp.get_context("fork").Pool(max(workers, 1)) as pool:
        parts = pool.map(_batch_job, jobs, chunksize=1)
    arrays = {}
    for n in range(min_n, max_n + 1):
        mine = [p for p, job in zip(parts, jobs, strict=True) if job[1] == n]
        T = max(t.shape[1] for _, t in mine)
        arrays[f"x{n}"] = np.concatenate([x for x, _ in mine])[:per_n]
        arrays[f"t{n}"] = np.concatenate(
            [np.pad(t, ((0, 0), (0, T - t.shape[1])), constant_values=-1) for _, t in mine]
        )[:per_n]
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, **arrays)
    print(f"wrote {out}: {per_n} examples for each n in {min_n}..{max_n}", flush=True)
