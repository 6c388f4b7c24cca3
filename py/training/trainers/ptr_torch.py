"""PyTorch trainer for the Ptr-Nets of the paper's three problems (hull, TSP, Delaunay), GPU or CPU.

The network is exactly ptrnet.pointer.lstm_ptr's, so the numpy code the browser runs can load the exported
weights: an LSTM encoder over the (x, y) points, an LSTM decoder started from the encoder's final state
and fed a learned start vector then the previously chosen point's (x, y), and additive attention
u_j = v . tanh(W1 e_j + W2 d_i) over the slots [⇐, P1..Pn] (slot ⇐ has a learned state "end") used as
the output distribution. Teacher forcing lets one LSTM call run the whole decoder.

Labels come from ptrnet.geometry.notation (our hull, Held-Karp and Delaunay code), made in worker processes.
Not part of the wheel; PyTorch is needed only here.

    PYTHONPATH=py/src:py python -m training.trainers.ptr_torch train --task hull --out OUT --minutes 8
    PYTHONPATH=py/src:py python -m training.trainers.ptr_torch export --ckpt OUT/hull.pt
    PYTHONPATH=py/src:py python -m training.trainers.ptr_torch golden --task hull   # for weights already shipped
"""

from __future__ import annotations

import argparse
import os
from dataclasses import fields
from pathlib import Path

import torch

from ptrnet.pointer import tasks
from training.paths import PACKAGE_DATA
from training.trainers.ptr_data import make_data
from training.trainers.ptr_export import export, write_golden
from training.trainers.ptr_model import Config
from training.trainers.ptr_train import train

SCHEDULE = ("lr", "lr_final", "decay_steps", "clip")  # the settings a resumed run may change


def add_config_arguments(parser: argparse.ArgumentParser, config: type) -> None:
    """One --option per field of a settings dataclass, with its default (booleans as --x / --no-x)."""
    for f in fields(config):
        if f.type in (bool, "bool"):
            parser.add_argument(
                "--" + f.name.replace("_", "-"), action=argparse.BooleanOptionalAction, default=f.default
            )
        else:
            parser.add_argument("--" + f.name.replace("_", "-"), type=type(f.default), default=f.default)


def main() -> None:
    """Command line: train or export."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    tr = sub.add_parser("train")
    add_config_arguments(tr, Config)
    tr.set_defaults(**dict.fromkeys(SCHEDULE))  # None: not given, so a resumed run keeps its own
    tr.add_argument("--out", type=Path, required=True, help="folder for <task>.pt")
    tr.add_argument("--minutes", type=float, default=8.0, help="wall-clock budget")
    tr.add_argument("--steps", type=int, default=None, help="stop at this many updates in all")
    tr.add_argument(
        "--resume",
        type=Path,
        default=None,
        help="checkpoint to continue: its settings win, except the schedule (lr, lr-final, decay-steps, clip) given here",
    )
    tr.add_argument("--ckpt-every", type=float, default=60.0, help="seconds between checkpoints")
    tr.add_argument("--val-every", type=int, default=1000, help="updates between validations")
    tr.add_argument("--init", type=Path, default=None, help="start from these numpy weights (.npz)")
    tr.add_argument("--threads", type=int, default=0, help="torch CPU threads (0: torch's default)")
    md = sub.add_parser("make-data", help="a fixed pool of labelled examples for --data")
    md.add_argument("--task", choices=list(tasks.SPECS), required=True)
    md.add_argument("--min-n", type=int, default=5)
    md.add_argument("--max-n", type=int, default=10)
    md.add_argument("--per-n", type=int, default=200000)
    md.add_argument("--seed", type=int, default=1)
    md.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    md.add_argument("--out", type=Path, required=True)
    ex = sub.add_parser("export")
    ex.add_argument("--ckpt", type=Path, required=True)
    ex.add_argument("--out", type=Path, default=PACKAGE_DATA)
    go = sub.add_parser("golden", help="golden outputs of already shipped weights")
    go.add_argument("--task", choices=list(tasks.SPECS), required=True)
    go.add_argument("--out", type=Path, default=PACKAGE_DATA)
    args = ap.parse_args()
    if args.cmd == "train":
        if args.threads:
            torch.set_num_threads(args.threads)
        # A resumed run may change its schedule (e.g. decay sooner to finish within a session).
        schedule = {name: getattr(args, name) for name in SCHEDULE if getattr(args, name) is not None}
        config = Config(**{f.name: getattr(args, f.name) for f in fields(Config) if f.name not in SCHEDULE}, **schedule)
        train(
            config,
            args.out,
            args.minutes,
            args.steps,
            args.resume,
            args.ckpt_every,
            args.val_every,
            args.init,
            schedule,
        )
    elif args.cmd == "make-data":
        make_data(args.task, args.min_n, args.max_n, args.per_n, args.seed, args.workers, args.out)
    elif args.cmd == "export":
        export(args.ckpt, args.out)
    else:
        write_golden(args.task, args.out)


if __name__ == "__main__":
    main()
