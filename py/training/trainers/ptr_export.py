"""Export of a trained checkpoint to ptrnet's data folder: int8 weights, PyTorch's golden decodings of those very
weights, and the training record."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch

from ptrnet.pointer import tasks
from training.paths import RECORDS
from training.reports.cards import golden_name
from training.trainers.ptr_data import make_batch
from training.trainers.ptr_model import PtrNet, from_numpy_params, greedy, to_numpy_params
from training.trainers.ptr_train import load_checkpoint

GOLDEN_SIZES = {"hull": (5, 8, 12, 20), "tsp": (5, 8, 10), "delaunay": (5, 7, 10)}  # inputs per task, 2 sets each


def model_kind(config: dict) -> str:
    """A run's model kind, the <kind> of <task>_<kind>.npz: "ptrnet", or "ptrnet_a1" for a TSP Ptr-Net taught by A1."""
    return "ptrnet" + (f"_{config['teacher'].lower()}" if config.get("teacher") else "")


def golden(model: PtrNet, task: str) -> dict:
    """Greedy decodings by PyTorch (float64) of fixed inputs: points, choices and every step's probabilities."""
    cases = []
    spec = tasks.SPECS[task]
    with torch.no_grad():
        for n in GOLDEN_SIZES[task]:
            x, _ = make_batch(task, n, 2, 31337 + n)
            x = x.astype(np.float64)
            record: list = []
            choices = greedy(
                model, torch.from_numpy(x), max_steps=spec.max_steps(n), constrained=spec.constrained, record=record
            )
            for b in range(len(x)):
                row = choices[b].tolist()
                steps = row.index(0) + 1 if 0 in row else len(row)
                cases.append(
                    {
                        "points": x[b].tolist(),
                        "choices": row[:steps],
                        "probs": [record[t][b].tolist() for t in range(steps)],
                    }
                )
    return {
        "task": task,
        "framework": f"torch {torch.__version__}, float64",
        "decoding": "greedy" + (", constrained to valid tours" if spec.constrained else ", unconstrained"),
        "cases": cases,
    }


def write_golden(task: str, out_dir: Path, kind: str = "ptrnet", records: Path = RECORDS) -> None:
    """PyTorch's greedy decodings with the shipped (quantised) weights <task>_<kind>.npz in out_dir, to
    records/cards.golden_name."""
    from ptrnet.pointer import weights

    shipped = from_numpy_params(weights.load((out_dir / f"{task}_{kind}.npz").read_bytes()))
    (records / golden_name(task, kind)).write_text(json.dumps(golden(shipped, task)) + "\n")


def export(ckpt_path: Path, out_dir: Path, records: Path = RECORDS) -> None:
    """Write <task>_<kind>.npz (int8 rows), its golden outputs from those very weights, and the training record."""
    from ptrnet.pointer import weights

    model, ckpt = load_checkpoint(ckpt_path)
    task, kind = ckpt["config"]["task"], model_kind(ckpt["config"])
    weights.save(out_dir / f"{task}_{kind}.npz", to_numpy_params(model))
    write_golden(task, out_dir, kind, records)
    record = {k: ckpt[k] for k in ("config", "step", "wall", "history", "device", "start_from")}
    if ckpt.get("resumes"):
        record["resumes"] = ckpt["resumes"]  # each resumed session: its first step and schedule changes
    if ckpt.get("earlier"):
        record["earlier"] = ckpt["earlier"]  # the training record of the weights this run started from
    record["trainer"] = f"PyTorch {torch.__version__}: py/training/trainers/ptr_torch.py"
    if ckpt["config"]["data"]:
        with np.load(ckpt["config"]["data"]) as pool:
            record["pool_per_n"] = len(pool[f"x{ckpt['config']['min_n']}"])
    (records / f"{task}_{kind}_training.json").write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {out_dir}/{task}_{kind}.npz, {records}/{golden_name(task, kind)} and {task}_{kind}_training.json")
