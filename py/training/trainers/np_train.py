"""CLI: the numpy trainer of the hull models, and the evaluation of every shipped model (CPython only).

    python -m training.trainers.np_train --model seq2seq      # the n = 5 LSTM seq2seq baseline (numpy, CPU)
    python -m training.trainers.np_train --model ptrnet       # a hull Ptr-Net with the numpy trainer

The shipped Ptr-Nets are trained by py/training/trainers/ptr_torch.py (PyTorch, GPU or CPU) and exported to the same
.npz format; the numpy trainer stays as the dependency-free way to train on any machine.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np

from ptrnet.learn import grad as G
from ptrnet.nn.adam import Adam
from ptrnet.pointer import answers, tasks, weights
from ptrnet.pointer import lstm_ptr as L
from training.data.datasets import Example
from training.paths import CACHE as _CACHE
from training.paths import PACKAGE_DATA, RECORDS
from training.reports import cards, evaluation

CACHE = _CACHE / "hull"  # checkpoints of the numpy trainer
VAL_SEED = 7000  # validation sets: seed VAL_SEED + n
VAL_COUNT = 500  # validation lines per n


@dataclass(frozen=True)
class TrainConfig:
    """Hyper-parameters of one training run."""

    model: str = "ptrnet"  # "ptrnet" or "seq2seq"
    hidden: int = 128  # LSTM width of encoder and decoder
    steps: int = 45000  # Adam updates (the shipped seq2seq: 20000)
    batch: int = 128  # examples per update (one n per batch)
    lr: float = 1e-3  # initial Adam step size
    lr_final: float = 1e-4  # step size at the last update (exponential decay)
    clip: float = 2.0  # gradient L2-norm clipping, as in the paper
    min_n: int = 5  # fewest points in a training example
    max_n: int = 10  # most points in a training example (seq2seq: always 5)
    init_scale: float = 0.08  # uniform init range, as in the paper
    forget_bias: float = 1.0  # added to the forget-gate biases at init
    seed: int = 0  # initial weights and the training data stream
    val_every: int = 2500  # updates between validations
    ckpt_every: int = 2500  # updates between checkpoints


def _lr(config: TrainConfig, step: int) -> float:
    """Exponentially decayed step size from lr to lr_final."""
    return config.lr * (config.lr_final / config.lr) ** (step / max(config.steps - 1, 1))


def train_batch(config: TrainConfig, step: int) -> G.Batch:
    """The step-th training batch: a function of (seed, step) only, so a resumed run sees the same data."""
    rng = np.random.default_rng([config.seed, step])
    n = 5 if config.model == "seq2seq" else int(rng.integers(config.min_n, config.max_n + 1))
    points, seqs = tasks.generate("hull", n, config.batch, int(rng.integers(2**62)))
    return G.make_batch(points, seqs)


def val_accuracy(params: L.Params, examples: list[Example]) -> float:
    """Greedy exact-match accuracy on a validation set of one size."""
    outputs = answers.decode(params, "hull", [p for p, _ in examples])
    return evaluation.accuracy(examples, outputs)


# ---------------------------------------------------------------- train


def _ckpt_path(config: TrainConfig, cache: Path) -> Path:
    """Checkpoint file of a model."""
    return cache / config.model / "checkpoint.npz"


def _save_ckpt(
    config: TrainConfig, cache: Path, params: L.Params, opt: Adam, step: int, wall: float, history: list
) -> None:
    """Parameters, Adam moments, step and wall time so far."""
    path = _ckpt_path(config, cache)
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {f"p.{k}": v for k, v in params.items()} | {f"m.{k}": v for k, v in opt.m.items()}
    arrays |= {f"v.{k}": v for k, v in opt.v.items()}
    meta = json.dumps({"step": step, "adam_t": opt.t, "wall": wall, "config": asdict(config), "history": history})
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, meta=np.array(meta), **arrays)
    os.replace(tmp, path)


def train(
    config: TrainConfig,
    resume: bool = False,
    out_dir: Path = PACKAGE_DATA,
    records: Path = RECORDS,
    cache: Path = CACHE,
    progress: bool = True,
    until: int | None = None,
) -> dict:
    """Run (or resume) training; write the (int8-rounded) weights to out_dir and their training record to records.

    until stops the run after that many updates with a checkpoint (as if interrupted); --resume goes on.
    """
    from tqdm import tqdm

    params = G.init_params(config.model, config.hidden, config.seed, config.init_scale, config.forget_bias)
    opt = Adam(params, clip=config.clip)
    start, wall, history = 0, 0.0, []
    if resume and _ckpt_path(config, cache).exists():
        with np.load(_ckpt_path(config, cache)) as f:
            meta = json.loads(str(f["meta"]))
            params = {k: f[f"p.{k}"] for k in params}
            opt.m = {k: f[f"m.{k}"] for k in params}
            opt.v = {k: f[f"v.{k}"] for k in params}
        if meta["config"] != asdict(config):
            raise SystemExit("checkpoint was made with other settings; run without --resume")
        start, wall, history, opt.t = meta["step"], meta["wall"], meta["history"], meta["adam_t"]
    val_ns = (5,) if config.model == "seq2seq" else (5, 10)
    val = {n: list(zip(*tasks.generate("hull", n, VAL_COUNT, VAL_SEED + n), strict=True)) for n in val_ns}
    t0, avg = time.perf_counter() - wall, None
    stop = config.steps if until is None else min(until, config.steps)
    bar = tqdm(
        range(start, stop), initial=start, total=config.steps, desc=config.model, mininterval=2.0, disable=not progress
    )
    for step in bar:
        loss, grads = G.loss_and_grads(params, train_batch(config, step))
        opt.step(params, grads, _lr(config, step))
        avg = loss if avg is None else 0.98 * avg + 0.02 * loss
        done = step + 1
        if done % config.val_every == 0 or done == config.steps:
            accs = {f"val_acc_{n}": val_accuracy(params, ex) for n, ex in val.items()}
            history.append({"step": done, "loss": round(avg, 5), "wall": round(time.perf_counter() - t0, 1), **accs})
            bar.set_postfix(loss=f"{avg:.4f}", **{k: f"{v:.3f}" for k, v in accs.items()})
            bar.write(json.dumps(history[-1]))
        if done % config.ckpt_every == 0 or done in (config.steps, stop):
            _save_ckpt(config, cache, params, opt, done, time.perf_counter() - t0, history)
    wall = time.perf_counter() - t0
    record = {
        "config": asdict(config),
        "step": stop,
        "wall": round(wall, 1),
        "history": history,
        "device": cards.cpu_device(int(os.environ.get("OMP_NUM_THREADS") or os.cpu_count() or 1)),
        "start_from": "uniform init",
        "trainer": "numpy: python -m training.trainers.np_train",
    }
    if stop < config.steps:
        return record | {"stopped_at": stop}
    out_dir.mkdir(parents=True, exist_ok=True)
    weights.save(out_dir / f"hull_{config.model}.npz", params)
    (records / f"hull_{config.model}_training.json").write_text(json.dumps(record, indent=1) + "\n")
    return record


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and train."""
    ap = argparse.ArgumentParser(prog="python -m training.trainers.np_train", description=__doc__)
    for f in fields(TrainConfig):
        ap.add_argument("--" + f.name.replace("_", "-"), type=type(f.default), default=f.default)
    ap.add_argument("--resume", action="store_true", help="continue from .cache/hull/<model>/checkpoint.npz")
    ap.add_argument("--until", type=int, default=None, help="stop after this many updates (resume later)")
    ap.add_argument("--out", type=Path, default=PACKAGE_DATA, help="folder for the weights")
    ap.add_argument("--cache", type=Path, default=CACHE, help="folder for checkpoints")
    args = ap.parse_args(argv)
    config = TrainConfig(**{f.name: getattr(args, f.name) for f in fields(TrainConfig)})
    record = train(config, args.resume, args.out, args.cache, until=args.until)
    print(json.dumps({"wall_seconds": record["wall"], "last": record["history"][-1:]}))


if __name__ == "__main__":
    main()
