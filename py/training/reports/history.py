"""HISTORY.md: every shipped model's training lineage, rendered from the training records (never written by hand)."""

from __future__ import annotations

import json
from pathlib import Path

from training.paths import HISTORY, RECORDS

HISTORY_ROWS = 16  # validation points shown per run, here and in the model cards (the records keep them all)
SCHEDULE = ("lr", "lr_final", "decay_steps", "batch", "min_n", "max_n", "hidden", "seed", "data", "teacher")


def lineage(record: dict) -> list[dict]:
    """A record and the runs its weights started from, oldest first."""
    runs = [record]
    while runs[-1].get("earlier"):
        runs.append(runs[-1]["earlier"])
    return runs[::-1]


def _run_lines(k: int, run: dict) -> list[str]:
    """One run: its settings, its resumed sessions and its validation history as a table."""
    cfg = run["config"]
    settings = ", ".join(f"{name} {cfg[name]}" for name in SCHEDULE if cfg.get(name) not in (None, ""))
    lines = [
        f"### Run {k}: {run['step']:,} updates, {run['wall'] / 3600:.1f} h on {run['device']}",
        "",
        f"- trainer: {run.get('trainer', '?')}; started from {run['start_from']}",
        f"- settings: {settings}"
        + (", constrained" if cfg.get("constrained") else "")
        + (", qat" if cfg.get("qat") else "")
        + (", augment (the square's 8 symmetries)" if cfg.get("augment") else ""),
    ]
    for resume in run.get("resumes", []):
        was = resume.get("was", {})  # older records lack it
        change = ", ".join(f"{k} {was[k]} → {v}" if k in was else f"{k} {v}" for k, v in resume["schedule"].items())
        change = change or "no schedule change"
        source = f" from {resume['from']}" if "from" in resume else ""
        lines.append(f"- resumed at update {resume['step']:,}{source} on {resume['device']}: {change}")
    history = run.get("history", [])
    if history:
        keys = [key for key in history[-1] if key != "step"]
        shown = evenly(history, HISTORY_ROWS)
        if len(shown) < len(history):
            lines += ["", f"{len(shown)} of its {len(history)} validation points, evenly spaced, the last included:"]
        lines += ["", "| update | " + " | ".join(keys) + " |", "|---" * (len(keys) + 1) + "|"]
        lines += [f"| {row['step']:,} | " + " | ".join(str(row.get(key, "–")) for key in keys) + " |" for row in shown]
    return [*lines, ""]


def evenly(rows: list, count: int) -> list:
    """At most count rows, evenly spaced from the first to the last."""
    if len(rows) <= count:
        return rows
    return [rows[round(k * (len(rows) - 1) / (count - 1))] for k in range(count)]


def render(records: Path = RECORDS) -> str:
    """The whole lineage of every training record in records, as Markdown."""
    out = [
        "# Training history",
        "",
        "Rendered by `python -m training history` from py/training/records/*_training.json; do not edit by hand.",
        "Each model's runs are listed oldest first: every run started from the weights the one before it left.",
        "",
    ]
    for path in sorted(records.glob("*_training.json")):
        runs = lineage(json.loads(path.read_text()))
        steps, hours = sum(r["step"] for r in runs), sum(r["wall"] for r in runs) / 3600
        out += [
            f"## {path.name.removesuffix('_training.json')}: {len(runs)} run{'s' * (len(runs) > 1)}, "
            f"{steps:,} updates, {hours:.1f} h",
            "",
        ]
        for k, run in enumerate(runs, 1):
            out += _run_lines(k, run)
    return "\n".join(out)


def write(records: Path = RECORDS, target: Path = HISTORY) -> None:
    """Write HISTORY.md."""
    target.write_text(render(records), encoding="utf-8")
    print(f"wrote {target}")
