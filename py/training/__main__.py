"""`python -m training evaluate|history`: measure the shipped models, or render their training lineage."""

import argparse
import json

from ptrnet.pointer import tasks
from training.reports import history, results


def main() -> None:
    """Parse the command line and run one command."""
    ap = argparse.ArgumentParser(prog="python -m training", description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    ev = sub.add_parser("evaluate", help="measure the shipped models: results JSON, model cards, README tables")
    ev.add_argument("--task", choices=[*tasks.SPECS, "all"], default="all")
    ev.add_argument("--only", nargs="+", default=(), help="measure only these model kinds (e.g. attention)")
    sub.add_parser("history", help=f"render every model's training lineage into {history.HISTORY.name}")
    args = ap.parse_args()
    if args.cmd == "evaluate":
        for task in tasks.SPECS if args.task == "all" else [args.task]:
            print(json.dumps(results.evaluate(task, only=tuple(args.only))["ours"], indent=1))
    else:
        history.write()


if __name__ == "__main__":
    main()
