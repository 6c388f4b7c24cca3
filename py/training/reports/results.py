"""Measure the shipped models on fixed test sets and write, from those measurements only, each task's results
JSON (py/training/records), model card and README table: `python -m training evaluate`."""

from __future__ import annotations

import json
import time
from pathlib import Path

from ptrnet.experiments.paper import PAPER
from ptrnet.limits import MAX_MODEL_POINTS, MIN_MODEL_POINTS
from ptrnet.pointer import answers, symmetry, tasks, weights
from training.data import datasets
from training.data.datasets import Example
from training.paths import CACHE as _CACHE
from training.paths import PACKAGE_DATA, README, RECORDS
from training.reports import cards, evaluation, over_training, tables

CACHE = _CACHE / "test-sets"  # generated test sets, made once from their seeds
OVER_TRAINING = "attention_over_training"  # the hull results' key for over_training.measure's rows

# (n, source): the paper's released file or one of our LKH-3 files (tests/data), or (count, seed) of a generated set
TEST_SETS: dict[str, dict[int, str | tuple[int, int]]] = {
    "hull": {
        5: "convex_hull_5_test.txt",
        10: (1000, 1010),
        20: (1000, 1020),
        50: (1000, 1050),
        100: (1000, 1100),
        200: (1000, 1200),
        500: (200, 1500),
    },
    "tsp": {
        5: (10000, 2005),
        10: "tsp_10_test_exact.txt",
        **{int(name.split("_")[1]): name for name in datasets.LKH_SETS},  # n = 20, 25, 30, 40, 50
    },
    "delaunay": {5: (1000, 3005), 10: (1000, 3010)},
}

DEMO_SIZES = range(
    MIN_MODEL_POINTS, MAX_MODEL_POINTS + 1
)  # the sizes demo 4 and the companion page take: the hull model's accuracy at each
DEMO_SIZE_SETS = (1000, 4000)  # (count, seed base) of those generated sets: seed = base + n


def test_set(task: str, n: int) -> tuple[list[Example], str]:
    """The examples of one test set and a line saying where they come from (a size without a set of its own:
    1,000 generated sets, seed 1000 + n, as the hull's)."""
    source = TEST_SETS[task].get(n, (1000, 1000 + n))
    if source in datasets.LKH_SETS:
        return datasets.official(source), f"{source}: our set, tours by LKH-3 (tests/data/{source}.gz)"
    if isinstance(source, str):
        return datasets.official(source), f"{source}: the paper's released test set (tests/data/{source}.gz)"
    count, seed = source
    return (
        datasets.generated(task, n, count, seed, CACHE),
        f"generated: tasks.generate({task!r}, {n}, {count}, seed={seed}), labelled by our exact solver",
    )


def _reference_kind(task: str, n: int) -> str:
    """What the reference tour of a TSP test set is."""
    source = TEST_SETS[task][n]
    return "LKH-3" if source in datasets.LKH_SETS else "공개 파일" if isinstance(source, str) else "Held-Karp"


def _test_sizes(model: str, task: str) -> list[int]:
    """The test sizes a model kind is measured at."""
    if model in cards.BASELINE_SIZES:
        return list(cards.BASELINE_SIZES[model])
    return list(cards.TEACHER_SIZES) if model in cards.TEACHERS else list(TEST_SETS[task])


METHODS = {"ptrnet": "Ptr-Net", "seq2seq": "LSTM seq2seq", "attention": "LSTM seq2seq + attention"}


def evaluate(
    task: str,
    package_data: Path = PACKAGE_DATA,
    records: Path = RECORDS,
    readme: Path = README,
    only: tuple[str, ...] = (),
    kept_weights: Path | None = None,
    kept_every: int = 0,
) -> dict:
    """Measure every shipped model of a task (weights in package_data) with greedy and beam decoding; write its
    results JSON to records, its model card to package_data and its table into readme. only: measure just these
    model kinds and keep the other rows of the results JSON as they are. kept_weights: a folder of weights an
    attention seq2seq run kept over training (s2s_torch train --keep-every), measured anew (kept_every > 0:
    only the steps that are multiples of it); without it the results JSON keeps the measurement it has."""
    spec = tasks.SPECS[task]
    path = records / f"{task}_results.json"
    earlier = json.loads(path.read_text()) if path.exists() else {}
    kept = earlier if only else {"ours": {}, "test_sets": {}}
    rows: dict[str, dict] = {}
    sources = dict(kept["test_sets"])
    for model in cards.models_of(task, package_data):
        if only and model not in only:
            rows |= {k: r for k, r in kept["ours"].items() if tables.row_model(k) == model}
            continue
        params = weights.load(package_data / f"{task}_{model}.npz")
        record = cards.record(records, task, model)
        train_n = "5" if model == "seq2seq" else cards.train_span(record)  # the n = 5 baseline records no sizes
        for n in _test_sizes(model, task):
            examples, sources[str(n)] = test_set(task, n)
            t = time.perf_counter()
            row = {
                "method": METHODS[model.split("_")[0]],
                "train_n": train_n,
                "test_n": n,
                "lines": len(examples),
                "greedy": evaluation.measure(params, task, examples, 1),
            }
            if model.startswith("ptrnet"):
                row |= {
                    "beam_width": spec.beam_width,
                    "beam": evaluation.measure(params, task, examples, spec.beam_width),
                }
                if task in symmetry.TASKS:
                    row["vote"] = evaluation.measure(params, task, examples, 1, vote=True)
                if task == "hull":  # beside the paper's free decoding: no point named twice before the polygon closes
                    row["greedy_mask"] = evaluation.measure(params, task, examples, 1, rule="mask")
                    row["beam_mask"] = evaluation.measure(params, task, examples, spec.beam_width, rule="mask")
                if spec.beam_pick != "probable":  # the paper's pick beside ours
                    row["beam_probable"] = evaluation.measure(params, task, examples, spec.beam_width, pick="probable")
            if model == "attention":
                row |= {f"attention_{k}": v for k, v in evaluation.attention_on_output(params, examples).items()}
            if task == "tsp":
                row |= {"baselines": evaluation.baseline_lengths(examples), "reference_kind": _reference_kind(task, n)}
            if model in cards.TEACHERS:
                row["taught_by"] = cards.TEACHERS[model]
            rows[f"{model}_{n}"] = row | {"seconds": round(time.perf_counter() - t, 1)}
    results = {
        "task": task,
        "notation": cards.NOTATION[task],
        "ours": rows,
        "paper": PAPER[task],
        "test_sets": sources,
        "metric_notes": cards.METRICS[task],
    }
    if task == "hull" and "ptrnet_5" in rows:  # measured anew with the Ptr-Net, else kept with its rows
        measured = not only or "ptrnet" in only
        results["demo_sizes"] = (
            demo_size_accuracy(weights.load(package_data / "hull_ptrnet.npz")) if measured else kept["demo_sizes"]
        )
    if kept_weights is not None:
        results[OVER_TRAINING] = over_training.measure(
            kept_weights, {n: test_set(task, n) for n in over_training.SIZES}, kept_every
        )
    elif OVER_TRAINING in earlier:
        results[OVER_TRAINING] = earlier[OVER_TRAINING]
    path.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    card = cards.model_card(task, package_data, records, rows)
    if OVER_TRAINING in results and "attention" in card["models"]:
        card["models"]["attention"]["over_training"] = results[OVER_TRAINING]
    if "demo_sizes" in results:
        card["models"]["ptrnet"]["demo_sizes"] = {
            "accuracy_greedy": results["demo_sizes"],
            "sets": f"generated: {DEMO_SIZE_SETS[0]} per n, seed {DEMO_SIZE_SETS[1]} + n",
        }
    (package_data / f"{task}_model_card.json").write_text(json.dumps(card, indent=1, ensure_ascii=False) + "\n")
    tables.write_readme_table(results, readme)
    return results


def demo_size_accuracy(params: dict) -> dict[str, float]:
    """Greedy exact-match accuracy of the hull Ptr-Net at every size the demos take (generated sets)."""
    count, base = DEMO_SIZE_SETS
    out = {}
    for n in DEMO_SIZES:
        examples = datasets.generated("hull", n, count, base + n, CACHE)
        out[str(n)] = evaluation.accuracy(examples, answers.decode(params, "hull", [p for p, _ in examples]))
    return out
