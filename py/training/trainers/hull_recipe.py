"""CLI: short CPython runs of the page's hull trainer (ptrnet.learn.hull_trainer), to choose its Recipe defaults.

    PYTHONPATH=py/src:py nice -n 19 python3 -m training.trainers.hull_recipe --updates 3000 \
        'batch=64,lr=3e-3' 'batch=32,lr=1e-2' 'batch=32,lr=1e-2,warmup=1000'

Each run prints a JSON line: the updates (and CPU seconds) until 50 % exact at n = 5 on the fixed validation set;
--record adds the runs to py/training/records/trainer_recipes.json, which the page's implementation note states
(training.reports.facts).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import fields, replace
from pathlib import Path

from ptrnet.learn.hull_trainer import Recipe, Trainer, exact_share, validation
from training.paths import RECORDS

TARGET = 0.5  # exact share at n = 5 that ends a run
RECORD = RECORDS / "trainer_recipes.json"  # the runs the page's note states, keyed by their recipe


def _recipe(spec: str) -> Recipe:
    """'batch=32,lr=1e-2' as a Recipe (other fields at their defaults)."""
    types = {f.name: type(f.default) for f in fields(Recipe)}
    pairs = [item.split("=") for item in spec.split(",") if item]
    return replace(Recipe(), **{k: types[k](float(v)) for k, v in pairs})


def run(recipe: Recipe, updates: int, every: int, count: int) -> dict:
    """Train until TARGET at n = 5 or updates; the curve of (update, CPU seconds, share)."""
    trainer, curve = Trainer(recipe), []
    points, truth = validation(5, count)
    start = time.process_time()
    while trainer.iteration < updates:
        trainer.train(every)
        share = exact_share(trainer.params, points, truth)
        curve.append([trainer.iteration, round(time.process_time() - start, 1), share])
        if share >= TARGET:
            break
    reached = curve[-1][0] if curve[-1][2] >= TARGET else None
    return {"reached_at": reached, "cpu_s": curve[-1][1], "curve": curve}


def main(argv: list[str] | None = None) -> None:
    """Run each recipe given on the command line."""
    ap = argparse.ArgumentParser(prog="python -m training.trainers.hull_recipe", description=__doc__)
    ap.add_argument("recipes", nargs="+", help="field=value,... changes to the Recipe defaults")
    ap.add_argument("--updates", type=int, default=3000, help="most updates per run")
    ap.add_argument("--every", type=int, default=250, help="updates between measurements")
    ap.add_argument("--count", type=int, default=200, help="validation point sets")
    ap.add_argument("--record", action="store_true", help=f"add the runs to {RECORD.name}")
    args = ap.parse_args(argv)
    for spec in args.recipes:
        result = {"recipe": spec, "updates": args.updates} | run(_recipe(spec), args.updates, args.every, args.count)
        print(json.dumps(result), flush=True)
        if args.record:
            _record(RECORD, result)


def _record(path: Path, result: dict) -> None:
    """Add (or replace) one run in the record file."""
    runs = json.loads(path.read_text()) if path.exists() else {}
    runs[result["recipe"]] = result
    path.write_text(json.dumps(runs, indent=1) + "\n")


if __name__ == "__main__":
    main()
