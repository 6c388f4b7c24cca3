"""Model cards: what each shipped model is, how it was trained (from its training record) and what it measured."""

from __future__ import annotations

import json
import re
from pathlib import Path

from ptrnet.pointer import symmetry, tasks, weights
from training.reports.history import HISTORY_ROWS, evenly
from training.reports.tables import row_model

TEACHERS = {"ptrnet_a1": "A1"}  # model kinds taught by an approximate algorithm's tours instead of the optimum
TEACHER_SIZES = (20, 50)  # the test sizes of those models (trained at n = 20; the paper's A1 row is at n = 50)
VOTE = (
    "symmetry vote: the majority answer of 8 greedy decodings of the points mirrored and quarter-turned in the "
    "unit square (ptrnet.pointer.symmetry; test-time augmentation, not the paper's decoding)"
)

PICKS = {  # how a beam search chooses its answer among the finished beams (tasks.Task.beam_pick)
    "probable": "the beam search answers with the most probable finished sequence, as the paper's",
    "shortest": "the beam search answers with the shortest of its finished tours ('beam'); the paper's pick, the "
    "most probable tour, is measured beside it ('beam_probable')",
}

ARCHITECTURE = {
    "ptrnet": "LSTM encoder over (x, y); LSTM decoder from the encoder's final state, fed a learned start vector "
    "then the chosen point's (x, y); additive attention u_j = v.tanh(W1 e_j + W2 d_i) over the n points "
    "plus a learned end state e_0 (slot ⇐) is the output distribution",
    "seq2seq": "LSTM encoder over the points; LSTM decoder fed the one-hot of the previous token (⇒ first); "
    "fixed softmax over {1..n, ⇒, ⇐} for the largest n it was trained at",
    "attention": "the seq2seq baseline with additive attention a_ij = softmax_j(v.tanh(W1 e_j + W2 d_i)) over the "
    "encoder states; its fixed output layer reads [d_i, sum_j a_ij e_j] (softmax over {1..10, ⇒, ⇐})",
}
BASELINE_SIZES = {  # the test sizes of the hull baselines (a fixed output layer only knows its training sizes)
    "seq2seq": (5,),
    "seq2seq_10": (10,),
    "seq2seq_50": (50,),
    "attention": (5, 6, 7, 8, 9, 10),
}
NOTATION = {
    "hull": "hull vertices, smallest index first, counter-clockwise, start repeated, then ⇐",
    "tsp": "optimal tour from P1 back to P1 (second city smaller than the second-to-last), then ⇐",
    "delaunay": "Delaunay triangles sorted by incenter (x, then y), each named counter-clockwise from its leftmost "
    "corner, flattened, then ⇐ (the notation's triangles in its order; read back as ascending triples)",
}
TAUGHT = (
    NOTATION
    | {  # what each Ptr-Net is trained to emit (ptrnet.pointer.tasks.SPECS[task].taught), where not the label
        "hull": "hull vertices counter-clockwise from the leftmost (then lowest) one, start repeated, then ⇐; the answer "
        "is read from its smallest index (the notation) before it is scored or shown",
    }
)
METRICS = {
    "hull": "accuracy: exact match with the true sequence; area_coverage: mean output area / true hull area over "
    "simple outputs; area_fail: more than 1 % of outputs are not simple polygons",
    "tsp": "mean tour length (every output must be a valid tour); reference tour: Held-Karp (n = 5), the "
    "released file's exact tours (n = 10) or LKH-3 (n = 20 and above; reference_kind says which); ratio: mean of "
    "each tour's length over its reference's; A1 nearest neighbour, A2 farthest insertion, A3 Christofides",
    "delaunay": "accuracy: output triangle set equals the true one; triangle_coverage: mean share of the true "
    "triangles present in the output",
}


def models_of(task: str, weights_dir: Path) -> list[str]:
    """Shipped model kinds of a task: the Ptr-Net, for the hull the seq2seq baselines (n = 5, n = 10, with
    attention on 5-10), for TSP the Ptr-Net taught by A1."""
    kinds = {"hull": ["ptrnet", *BASELINE_SIZES], "tsp": ["ptrnet", *TEACHERS]}.get(task, ["ptrnet"])
    return [k for k in kinds if (weights_dir / f"{task}_{k}.npz").exists()]


def record(records: Path, task: str, model: str) -> dict:
    """The training record exported next to the weights (settings, steps, wall time, hardware, history)."""
    return dict(json.loads((records / f"{task}_{model}_training.json").read_text()))


def model_card(task: str, package_data: Path, records: Path, rows: dict) -> dict:
    """Data, seeds, hyper-parameters, wall time, hardware and the measured metrics of each shipped model."""
    card: dict = {
        "task": task,
        "notation": NOTATION[task],
        "weights_dtype": "int8 matrices with a float32 scale per row; float32 vectors",
        "decoding": f"greedy and beam search (width {tasks.SPECS[task].beam_width}), "
        + ("constrained to valid tours" if tasks.SPECS[task].constrained else "unconstrained")
        + "; "
        + PICKS[tasks.SPECS[task].beam_pick]
        + (f"; and, apart, {VOTE}" if task in symmetry.TASKS else ""),
        "models": {},
    }
    for model in models_of(task, package_data):
        npz = package_data / f"{task}_{model}.npz"
        rec = record(records, task, model)
        cfg = rec["config"]
        card["models"][model] = {
            "file": f"data/{npz.name}",
            "bytes": npz.stat().st_size,
            "parameters": int(sum(v.size for v in weights.load(npz).values())),
            "architecture": ARCHITECTURE[model.split("_")[0]],
            "trainer": rec["trainer"],
            "hardware": rec["device"],
            "start_from": rec["start_from"],
            "earlier_runs": _earlier_runs(rec),
            "train_sizes": train_span(rec),
            "hyper_parameters": cfg,
            "steps": rec["step"],
            "wall_seconds": rec["wall"],
            "data": {
                "train": _train_data(model, cfg, rec),
                "points": "uniform in [0, 1]^2, rounded to 8 decimals (ptrnet.pointer.tasks.random_points)",
                "labels": _labels(task, model),
            },
            "golden": f"py/training/records/{golden_name(task, model)}"
            if (records / golden_name(task, model)).exists()
            else None,
            # A sample: the card ships in the wheel, the record in py/training/records keeps every point.
            "history": evenly(rec["history"], HISTORY_ROWS),
            "metrics": {k: v for k, v in rows.items() if row_model(k) == model},
        }
    return card


def train_span(rec: dict) -> str:
    """The point-set sizes a model's weights saw over all its runs ('5-50'; '10' where only one): a last run on
    30-50 that went on from weights trained on 5-50 was still trained on 5-50."""
    low, high = rec["config"]["min_n"], rec["config"]["max_n"]
    while rec.get("earlier"):
        rec = rec["earlier"]
        low, high = min(low, rec["config"]["min_n"]), max(high, rec["config"]["max_n"])
    return f"{low}-{high}" if low != high else str(low)


def _earlier_runs(rec: dict) -> list[dict]:
    """The runs whose weights a model's training started from, newest first (training records keep them)."""
    runs = []
    while rec.get("earlier"):
        rec = rec["earlier"]
        runs.append(
            {
                "steps": rec["step"],
                "wall_seconds": rec["wall"],
                "hardware": rec["device"],
                "start_from": rec["start_from"],
                "hyper_parameters": rec["config"],
            }
        )
    return runs


def cpu_device(threads: int) -> str:
    """Both trainers' device line for a CPU run ('CPU, 1 thread', 'CPU, 2 threads'), read back by hardware_in_korean."""
    return f"CPU, {threads} thread{'s' if threads > 1 else ''}"


def hardware_in_korean(device: str) -> str:
    """The trainer's device line for a Korean sentence: 'CPU, 2 threads' -> 'CPU 2스레드'; GPU names unchanged."""
    return re.sub(r"CPU, (\d+) threads?", r"CPU \1스레드", device)


def _labels(task: str, model: str) -> str:
    """What a model was taught."""
    if model in TEACHERS:
        return (
            f"only {TEACHERS[model]}'s tours (ptrnet.geometry.baselines.ALGORITHMS[{TEACHERS[model]!r}], our nearest neighbour "
            "from P1) in the order it visits the cities, back to P1, then ⇐"
        )
    labels = "ptrnet.pointer.tasks.SPECS[{task!r}].{kind}: {text}"
    if model == "ptrnet":
        text = labels.format(task=task, kind="taught", text=TAUGHT[task])
        return text + (
            "; optimal tours by Held-Karp up to 12 cities, LKH-3 above (py/training/data/lkh.py)"
            if task == "tsp"
            else ""
        )
    return labels.format(task=task, kind="label", text=NOTATION[task])


def golden_name(task: str, model: str) -> str:
    """The golden outputs' file of a model kind (py/training/ptr_export and s2s_torch write it there)."""
    return f"{task}_golden.json" if model == "ptrnet" else f"{task}_{model}_golden.json"


def _train_data(model: str, cfg: dict, rec: dict) -> str:
    """Where a model's training batches came from."""
    if model == "seq2seq":
        return "fresh batches per update: n = 5"
    batches = f"batches of {cfg['batch']}, one n per batch, n uniform in {cfg['min_n']}..{cfg['max_n']}"
    if cfg.get("data"):
        return (
            f"{batches}, drawn at random from a fixed pool of {rec['pool_per_n']:,} labelled examples per n "
            f"(py/training/trainers/ptr_torch.py make-data)"
        )
    return f"{batches}, every batch freshly generated"
