"""`python -m training evaluate|history`: measure the shipped models, or render their training lineage."""

import argparse
import json
from pathlib import Path

from ptrnet.pointer import tasks
from training.reports import history, results


def main() -> None:
    """Parse the command line and run one command."""
    ap = argparse.ArgumentParser(prog="python -m training", description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    ev = sub.add_parser("evaluate", help="measure the shipped models: results JSON, model cards, README tables")
    ev.add_argument("--task", choices=[*tasks.SPECS, "all"], default="all")
    ev.add_argument("--only", nargs="+", default=(), help="measure only these model kinds (e.g. attention)")
    ev.add_argument(
        "--kept-weights",
        type=Path,
        default=None,
        help="hull: also measure the weights an attention seq2seq run kept (s2s_torch train --keep-every)",
    )
    ev.add_argument("--kept-every", type=int, default=0, help="measure only the kept steps that are multiples of this")
    sub.add_parser("history", help=f"render every model's training lineage into {history.HISTORY.name}")
    args = ap.parse_args()
    if args.cmd == "evaluate":
        for task in tasks.SPECS if args.task == "all" else [args.task]:
            kept = {"kept_weights": args.kept_weights, "kept_every": args.kept_every} if task == "hull" else {}
            print(json.dumps(results.evaluate(task, only=tuple(args.only), **kept)["ours"], indent=1))
    else:
        history.write()


if __name__ == "__main__":
    main()
