"""How the attention seq2seq's attention came to meet its outputs over training: weights a separate short run kept
every so many steps (`s2s_torch train --keep-every`), each measured on the evaluation's own test sets with the
same functions as the shipped model's rows (greedy accuracy; attention peak share, mass and chance)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from ptrnet.limits import ATTENTION_POINTS
from ptrnet.pointer import weights
from training.data.datasets import Example
from training.paths import RECORDS
from training.reports import evaluation

SIZES = ATTENTION_POINTS  # the test sizes measured at each kept step: the model's fewest and most points
NOTE = (
    "A separate short run from uniform init with the shipped model's settings, not the shipped model's own history "
    "(its checkpoints are gone); each row measures the weights kept at that step, int8 like the shipped ones. "
    "same_log_as_shipped_until: the last step up to which this run's logged loss and validation accuracies equal "
    "the shipped model's training record row for row (0: not even the first)."
)


def kept_files(folder: Path) -> list[tuple[int, Path]]:
    """The kept weights in a folder, (step, path) in step order: hull_attention_<step>.npz."""
    found = [(int(p.stem.rsplit("_", 1)[1]), p) for p in folder.glob("hull_attention_*.npz")]
    return sorted(found)


def same_log_until(history: Sequence[dict], shipped: Sequence[dict]) -> int:
    """The last logged step up to which a run's log equals another's row for row, wall times aside (0: none)."""
    last = 0
    for ours, theirs in zip(history, shipped, strict=False):
        if {k: v for k, v in ours.items() if k != "wall"} != {k: v for k, v in theirs.items() if k != "wall"}:
            break
        last = ours["step"]
    return last


def measure(
    folder: Path, test_sets: dict[int, tuple[Sequence[Example], str]], every: int = 0, records: Path = RECORDS
) -> dict:
    """The greedy accuracy and attention on the output at each test size of every kept step (every > 0: of those
    that are multiples of it), with the run's settings, where the test sets come from, and how far its log
    matches the shipped attention seq2seq's record."""
    run = json.loads((folder / "run.json").read_text())
    shipped = json.loads((records / "hull_attention_training.json").read_text())["history"]
    rows = []
    for step, path in kept_files(folder):
        if every and step % every:
            continue
        params = weights.load(path)
        row: dict = {"step": step}
        for n, (examples, _) in test_sets.items():
            accuracy = evaluation.measure(params, "hull", examples, 1)["accuracy"]
            row[f"n{n}"] = {"accuracy": accuracy} | evaluation.attention_on_output(params, examples)
        rows.append(row)
        print(json.dumps(row), flush=True)
    return {
        "note": NOTE,
        "config": run["config"],
        "start_from": run["from"],
        "keep_every": run["keep_every"],
        "measured_every": every or run["keep_every"],
        "same_log_as_shipped_until": same_log_until(run["history"], shipped),
        "test_sets": {str(n): source for n, (_, source) in test_sets.items()},
        "rows": rows,
    }
