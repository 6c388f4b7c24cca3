"""CLI: train the hull Ptr-Net / seq2seq baseline and evaluate them (CPython only; tqdm and shapely are imported here).

    python -m ptrnet.train train --model ptrnet
    python -m ptrnet.train train --model seq2seq
    python -m ptrnet.train evaluate
"""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from ptrnet import hull_data
from ptrnet import lstm_ptr as L

REPO = Path(__file__).resolve().parents[3]  # <repo>: py/src/ptrnet/train.py
DATA_DIR = Path(__file__).resolve().parent / "data"  # the package data the weights ship in
SHARED = REPO.parent / "shared" / "data"  # the paper's released test files, never copied in
CACHE = REPO / ".cache" / "hull"  # checkpoints, generated test sets, training records
VAL_SEED = 7000  # validation sets: seed VAL_SEED + n
VAL_COUNT = 500  # validation lines per n
TEST_SUBSET = 10000  # lines of the official n = 5 file the test re-checks (all of them: ~5 s)
PAPER = {  # SPEC section 7, Table 1 rows the page shows next to ours
    "ptrnet_5": {"method": "Ptr-Net", "train_n": "5-50", "test_n": 5, "accuracy": 0.920, "area": 0.996},
    "ptrnet_10": {"method": "Ptr-Net", "train_n": "5-50", "test_n": 10, "accuracy": 0.870, "area": 0.998},
    "ptrnet_50": {"method": "Ptr-Net", "train_n": "5-50", "test_n": 50, "accuracy": 0.696, "area": 0.999},
    "seq2seq_5": {"method": "LSTM", "train_n": "5", "test_n": 5, "accuracy": 0.877, "area": 0.996},
}


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


def train_batch(config: TrainConfig, step: int) -> L.Batch:
    """The step-th training batch: a function of (seed, step) only, so a resumed run sees the same data."""
    rng = np.random.default_rng([config.seed, step])
    n = 5 if config.model == "seq2seq" else int(rng.integers(config.min_n, config.max_n + 1))
    examples = hull_data.generate(n, config.batch, int(rng.integers(2**62)))
    return L.make_batch([p for p, _ in examples], [s for _, s in examples])


def accuracy(params: L.Params, examples: list[hull_data.Example], chunk: int = 2500) -> tuple[float, list[list[int]]]:
    """Greedy exact-match accuracy and the outputs (1-based, without ⇐)."""
    outputs: list[list[int]] = []
    for k in range(0, len(examples), chunk):
        part = examples[k : k + chunk]
        choices, _ = L.decode(params, np.stack([p for p, _ in part]))
        outputs += L.sequences(params, choices)
    hits = sum(o == s for o, (_, s) in zip(outputs, examples, strict=True))
    return hits / max(len(examples), 1), outputs


def area_coverage(examples: list[hull_data.Example], outputs: list[list[int]]) -> dict:
    """Mean output-polygon area / true hull area over simple outputs; FAIL when > 1 % are not simple polygons."""
    from shapely.geometry import LinearRing, Polygon

    ratios, bad = [], 0
    for (pts, truth), out in zip(examples, outputs, strict=True):
        ring = out[:-1] if len(out) > 1 and out[0] == out[-1] else out
        ok = len(ring) >= 3 and len(set(ring)) == len(ring) and all(1 <= j <= len(pts) for j in ring)
        if ok:
            coords = [tuple(pts[j - 1]) for j in ring]
            ok = LinearRing(coords).is_simple and Polygon(coords).area > 0
        if not ok:
            bad += 1
            continue
        true_area = Polygon([tuple(pts[j - 1]) for j in truth[:-1]]).area
        ratios.append(Polygon(coords).area / true_area)
    frac_bad = bad / max(len(examples), 1)
    return {"area_coverage": float(np.mean(ratios)) if ratios else None, "not_simple": frac_bad,
            "area_fail": frac_bad > 0.01}


# ---------------------------------------------------------------- train


def _ckpt_path(config: TrainConfig, cache: Path) -> Path:
    """Checkpoint file of a model."""
    return cache / config.model / "checkpoint.npz"


def _save_ckpt(config: TrainConfig, cache: Path, params: L.Params, opt: L.Adam, step: int, wall: float,
               history: list) -> None:
    """Parameters, Adam moments, step and wall time so far."""
    path = _ckpt_path(config, cache)
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {f"p.{k}": v for k, v in params.items()} | {f"m.{k}": v for k, v in opt.m.items()}
    arrays |= {f"v.{k}": v for k, v in opt.v.items()}
    meta = json.dumps({"step": step, "adam_t": opt.t, "wall": wall, "config": asdict(config), "history": history})
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, meta=np.array(meta), **arrays)
    os.replace(tmp, path)


def train(config: TrainConfig, resume: bool = False, out_dir: Path = DATA_DIR, cache: Path = CACHE,
          progress: bool = True, until: int | None = None) -> dict:
    """Run (or resume) training, write the (int8-rounded) weights to out_dir and a training record to the cache.

    until stops the run after that many updates with a checkpoint (as if interrupted); --resume goes on.
    """
    from tqdm import tqdm

    params = L.init_params(config.model, config.hidden, config.seed, config.init_scale, config.forget_bias)
    opt = L.Adam(params, clip=config.clip)
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
    val = {n: hull_data.generate(n, VAL_COUNT, VAL_SEED + n) for n in val_ns}
    t0, avg = time.perf_counter() - wall, None
    stop = config.steps if until is None else min(until, config.steps)
    bar = tqdm(range(start, stop), initial=start, total=config.steps, desc=config.model, mininterval=2.0,
               disable=not progress)
    for step in bar:
        loss, grads = L.loss_and_grads(params, train_batch(config, step))
        opt.step(params, grads, _lr(config, step))
        avg = loss if avg is None else 0.98 * avg + 0.02 * loss
        done = step + 1
        if done % config.val_every == 0 or done == config.steps:
            accs = {f"val_acc_{n}": accuracy(params, ex)[0] for n, ex in val.items()}
            history.append({"step": done, "loss": round(avg, 5), "wall": round(time.perf_counter() - t0, 1), **accs})
            bar.set_postfix(loss=f"{avg:.4f}", **{k: f"{v:.3f}" for k, v in accs.items()})
            bar.write(json.dumps(history[-1]))
        if done % config.ckpt_every == 0 or done in (config.steps, stop):
            _save_ckpt(config, cache, params, opt, done, time.perf_counter() - t0, history)
    wall = time.perf_counter() - t0
    if stop < config.steps:
        return {"config": asdict(config), "wall_seconds": round(wall, 1), "history": history, "stopped_at": stop}
    out_dir.mkdir(parents=True, exist_ok=True)
    L.save_params(out_dir / f"hull_{config.model}.npz", params)
    record = {"config": asdict(config), "wall_seconds": round(wall, 1), "history": history}
    (cache / config.model).mkdir(parents=True, exist_ok=True)
    (cache / config.model / "record.json").write_text(json.dumps(record, indent=1))
    return record


# ---------------------------------------------------------------- evaluate


def evaluate(weights_dir: Path = DATA_DIR, out_dir: Path = DATA_DIR) -> dict:
    """Measure both shipped models; write hull_results.json and hull_model_card.json to out_dir."""
    official = hull_data.read_file(SHARED / "convex_hull_5_test.txt")
    sets = {5: official, 10: hull_data.test_set(10, CACHE), 50: hull_data.test_set(50, CACHE)}
    rows: dict[str, Any] = {}
    for model, ns in (("ptrnet", (5, 10, 50)), ("seq2seq", (5,))):
        path = weights_dir / f"hull_{model}.npz"
        if not path.exists():
            continue
        params = L.load_params(path)
        for n in ns:
            t = time.perf_counter()
            acc, outs = accuracy(params, sets[n])
            rows[f"{model}_{n}"] = {"method": "Ptr-Net" if model == "ptrnet" else "LSTM seq2seq", "test_n": n,
                                   "lines": len(sets[n]), "accuracy": acc, **area_coverage(sets[n], outs),
                                   "seconds": round(time.perf_counter() - t, 1)}
        if model == "ptrnet":
            rows["ptrnet_5"]["subset_accuracy"] = accuracy(params, official[:TEST_SUBSET])[0]
    sources = {5: "../shared/data/convex_hull_5_test.txt (the paper's released test set, 10,000 lines)",
               10: f"generated: hull_data.generate(10, {hull_data.TEST_COUNT}, seed={hull_data.TEST_SEEDS[10]})",
               50: f"generated: hull_data.generate(50, {hull_data.TEST_COUNT}, seed={hull_data.TEST_SEEDS[50]})"}
    results = {"ours": rows, "paper": PAPER, "test_sets": {str(n): s for n, s in sources.items()},
               "metric_notes": {"accuracy": "exact match of the greedy output with the true hull sequence",
                                "area_coverage": "mean output polygon area / true hull area over simple outputs",
                                "area_fail": "true when more than 1 % of outputs are not simple polygons"}}
    (out_dir / "hull_results.json").write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    card = {"task": "planar convex hull in SPEC section 2's notation (smallest index first, CCW, start repeated, ⇐)",
            "decoding": "greedy, no mask", "weights_dtype": "int8 matrices with a float32 scale per row; float32 vectors", "models": {}}
    for model in ("ptrnet", "seq2seq"):
        rec_path = CACHE / model / "record.json"
        if not rec_path.exists():
            continue
        rec = json.loads(rec_path.read_text())
        cfg = rec["config"]
        npz = weights_dir / f"hull_{model}.npz"
        card["models"][model] = {
            "file": f"data/hull_{model}.npz", "bytes": npz.stat().st_size,
            "parameters": int(sum(v.size for v in L.load_params(npz).values())),
            "architecture": _ARCH[model], "hyper_parameters": cfg,
            "data": {"train": f"fresh batches per update: n uniform in {cfg['min_n']}..{cfg['max_n']}"
                              if model == "ptrnet" else "fresh batches per update: n = 5",
                     "points": "uniform in [0, 1]^2, rounded to 8 decimals; labels from ptrnet.notation.hull_sequence",
                     "stream": "batch k = hull_data.generate(n, batch, seed drawn from default_rng([seed, k]))",
                     "validation": f"hull_data.generate(n, {VAL_COUNT}, seed={VAL_SEED} + n)"},
            "command": f"OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 .cache/venv/bin/python -m ptrnet.train train "
                       f"--model {model} --steps {cfg['steps']} --hidden {cfg['hidden']}",
            "wall_seconds": rec["wall_seconds"], "history": rec["history"],
            "metrics": {k: v for k, v in rows.items() if k.startswith(model)},
        }
    if "ptrnet_5" in rows:
        card["test_subset"] = {"file": "convex_hull_5_test.txt", "first_lines": TEST_SUBSET,
                               "ptrnet_accuracy": rows["ptrnet_5"]["subset_accuracy"]}
    (out_dir / "hull_model_card.json").write_text(json.dumps(card, indent=1, ensure_ascii=False) + "\n")
    return results


_ARCH = {
    "ptrnet": "LSTM encoder over (x, y); LSTM decoder from the encoder's final state, fed a learned start vector "
              "then the chosen point's (x, y); additive attention u_j = v.tanh(W1 e_j + W2 d_i) over the n points "
              "plus a learned end state e_0 (slot ⇐) is the output distribution",
    "seq2seq": "LSTM encoder over the 5 points; LSTM decoder fed the one-hot of the previous token (⇒ first); "
               "fixed softmax over {1..5, ⇒, ⇐}",
}


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and run train or evaluate."""
    ap = argparse.ArgumentParser(prog="python -m ptrnet.train", description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    tr = sub.add_parser("train", help="train one model, write data/hull_<model>.npz")
    for f in fields(TrainConfig):
        tr.add_argument("--" + f.name.replace("_", "-"), type=type(f.default), default=f.default)
    tr.add_argument("--resume", action="store_true", help="continue from .cache/hull/<model>/checkpoint.npz")
    tr.add_argument("--until", type=int, default=None, help="stop after this many updates (resume later)")
    tr.add_argument("--out", type=Path, default=DATA_DIR, help="folder for the weights")
    tr.add_argument("--cache", type=Path, default=CACHE, help="folder for checkpoints and the training record")
    ev = sub.add_parser("evaluate", help="measure the shipped weights, write hull_results.json and the model card")
    ev.add_argument("--weights", type=Path, default=DATA_DIR)
    ev.add_argument("--out", type=Path, default=DATA_DIR)
    args = ap.parse_args(argv)
    if args.cmd == "train":
        config = TrainConfig(**{f.name: getattr(args, f.name) for f in fields(TrainConfig)})
        record = train(config, args.resume, args.out, args.cache, until=args.until)
        print(json.dumps({"wall_seconds": record["wall_seconds"], "last": record["history"][-1:]}))
    else:
        res = evaluate(args.weights, args.out)
        print(json.dumps(res["ours"], indent=1))


if __name__ == "__main__":
    main()
