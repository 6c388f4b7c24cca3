"""The experiment runner: one of our trained models measured on fresh seeded point sets, a chunk of sets per
request, through the one answer path (pointer.answers) and the offline evaluation's metrics (pointer.metrics).

Set i of size n under seed s has its own generator, default_rng([s, n, i]), so any chunk can be measured alone
and a run is the same however it is cut into chunks. A chunk answers with its sums (metrics' counts and totals,
plus the runner's own: A1 / A2 lengths, the hull's collinearity bins), which merge_sums adds to the run's; the
table's rows are made from the merged sums, so no request carries more than one chunk's worth.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ptrnet.experiments.paper import PAPER
from ptrnet.geometry import baselines
from ptrnet.geometry.hull import near_collinearity
from ptrnet.geometry.notation import canonical_tour, delaunay_sequence, in_triangle_order, tsp_sequence
from ptrnet.geometry.tsp import tour_length
from ptrnet.limits import HELD_KARP_MAX
from ptrnet.pointer import answers, metrics, tasks, weights
from ptrnet.pointer.lstm_ptr import Params

REFERENCE_SIZES = (20, 25, 30, 40, 50)  # TSP sizes above Held-Karp's with shipped LKH-3 tours
REFERENCE_SEEDS = (1, 2, 3)  # the seeds those tours were computed for (training.data.lkh write-runner-tours)
REFERENCE_SETS = 100  # sets per seed and size with a shipped tour
REFERENCE_FILE = "tsp_runner_tours"  # data/<name>.npz: arrays s<seed>_n<n> of 0-based tours (sets, n)
COLLINEARITY_EDGES = (0.0, 1e-4, 3e-4, 1e-3, 3e-3, 1e-2, float("inf"))  # bins of hull.near_collinearity
UNIT_SECONDS = 1.5e-6  # Pyodide seconds per cost unit (tests/bench/bench_experiments.py measures it: 1.4e-6)


@dataclass(frozen=True)
class RunnerModel:
    """One model the runner offers."""

    task: str  # tasks.SPECS key: what the answers are scored as
    weights: str  # data/<weights>.npz
    label: str  # its name on the page
    min_n: int  # smallest test size offered
    max_n: int  # largest test size offered (TSP also: REFERENCE_SIZES)
    sizes: tuple[int, ...]  # the page's default sizes
    sets: int  # the page's default sets per size
    paper: str  # its rows' prefix in paper.PAPER[task]
    beam: bool = True  # whether beam search is offered


MODELS = {
    "hull": RunnerModel(
        "hull", "hull_ptrnet", "볼록 껍질 Ptr-Net (n = 5–50으로 학습)", 5, 500, (5, 10, 50, 100), 200, "ptrnet"
    ),
    "tsp": RunnerModel(
        "tsp", "tsp_ptrnet", "TSP Ptr-Net (n = 5–20으로 학습)", 5, HELD_KARP_MAX, (5, 10, 20), 100, "ptrnet"
    ),
    "tsp-a1": RunnerModel(
        "tsp", "tsp_ptrnet_a1", "A1에게 배운 TSP Ptr-Net (n = 20)", 5, HELD_KARP_MAX, (10, 20, 50), 100, "ptrnet_a1"
    ),
    "delaunay": RunnerModel(
        "delaunay", "delaunay_ptrnet", "들로네 Ptr-Net (n = 5–10으로 학습)", 5, 50, (5, 10), 200, "ptrnet"
    ),
    "attention-10": RunnerModel(
        "hull",
        "hull_attention",
        "볼록 껍질 LSTM seq2seq + 어텐션 (n = 5–10으로 학습)",
        5,
        10,
        (5, 10),
        500,
        "attention",
        beam=False,
    ),
    "seq2seq-5": RunnerModel(
        "hull", "hull_seq2seq", "볼록 껍질 LSTM seq2seq (n = 5로 학습)", 5, 5, (5,), 500, "seq2seq", beam=False
    ),
    "seq2seq-10": RunnerModel(
        "hull",
        "hull_seq2seq_10",
        "볼록 껍질 LSTM seq2seq (n = 10으로 학습)",
        10,
        10,
        (10,),
        500,
        "seq2seq_10",
        beam=False,
    ),
    "seq2seq-50": RunnerModel(
        "hull",
        "hull_seq2seq_50",
        "볼록 껍질 LSTM seq2seq (n = 50으로 학습)",
        50,
        50,
        (50,),
        200,
        "seq2seq_50",
        beam=False,
    ),
    "mine": RunnerModel(
        "hull",
        "",
        "내가 학습시킨 볼록 껍질 Ptr-Net (위 학습 데모, n = 5–10으로 학습)",
        5,
        100,
        (5, 10, 20, 50),
        200,
        "ptrnet",
    ),  # the reader's model in the page's worker (handlers.learning), no file
}
MINE = "mine"  # the runner's name for the reader's model
DECODINGS = {  # decoding id -> (answers.decode's method, its beam pick, the pages' label)
    "greedy": ("greedy", "", "탐욕"),
    "beam": ("beam", "", "빔 서치"),  # the task's own pick: for the TSP our shortest tour among the beams
    "beam_probable": ("beam", "probable", "빔 서치, 확률이 가장 높은 순회(논문의 선택)"),  # TSP only
}


def offered_sizes(model: str) -> list[int]:
    """Every test size the runner offers a model."""
    m = MODELS[model]
    extra = [n for n in REFERENCE_SIZES if n > m.max_n] if m.task == "tsp" else []
    return [*range(m.min_n, m.max_n + 1), *extra]


def point_set(seed: int, n: int, index: int) -> np.ndarray:
    """Set `index` of size n under a seed: n points uniform in the unit square (8 decimals, as tasks draws them)."""
    return tasks.random_points(np.random.default_rng([seed, n, index]), n)


def cost(model: str, n: int, decoding: str) -> float:
    """Work units of one set (decoding steps x slots, times the beams; Held-Karp's table for small tours)."""
    spec = tasks.SPECS[MODELS[model].task]
    units = spec.max_steps(n) * (n + 24) * (spec.beam_width if DECODINGS[decoding][0] == "beam" else 1)
    if spec.name == "tsp":
        units += n * n * 4 + (2**n * n * n // 40 if n <= HELD_KARP_MAX else 0)
    return float(units)


def _reference_tour(seed: int, n: int, index: int, points: np.ndarray) -> list[int]:
    """The TSP reference tour in the notation: Held-Karp's up to HELD_KARP_MAX cities, else the shipped LKH-3 tour."""
    if n <= HELD_KARP_MAX:
        return tsp_sequence(points)
    tour = weights.shipped(REFERENCE_FILE, np.int64)[f"s{seed}_n{n}"][index].tolist()  # (n,) 0-based from city 0
    return canonical_tour([j + 1 for j in tour] + [tour[0] + 1])


def _outcome(task: str, points: np.ndarray, truth: list[int], answer: list[int]) -> dict:
    """One set's outcome under the task's metrics (plus the hull's near-collinearity and TSP's A1 / A2)."""
    if task == "hull":
        return metrics.hull_outcome(points, truth, answer) | {"closeness": near_collinearity(points)}
    if task == "tsp":
        reference = tour_length(points, np.array(truth[:-1]) - 1)
        lengths = {name.lower(): tour_length(points, baselines.ALGORITHMS[name](points)) for name in ("A1", "A2")}
        return metrics.tour_outcome(points, reference, answer) | lengths | {"a1_ratio": lengths["a1"] / reference}
    return metrics.triangle_outcome(truth, answer)


def _failure(task: str, n: int, index: int, points: np.ndarray, truth: list[int], answer: list[int]) -> dict:
    """A failed set as the gallery draws it: its points, the true and the model's answer in the notation
    (Delaunay as ascending triples) and the model's edges or triangles the true answer lacks."""
    if task == "delaunay":
        truth_shown, shown = delaunay_sequence(points), in_triangle_order(points, tasks.as_triangles(answer))
        wrong = metrics.wrong_triangles(truth_shown, shown)
    else:
        truth_shown, shown, wrong = truth, list(answer), metrics.wrong_edges(truth, answer)
    return {"n": n, "index": index, "points": points.tolist(), "truth": truth_shown, "model": shown, "wrong": wrong}


def _sums(task: str, outcomes: Sequence[dict]) -> dict:
    """A chunk's sums: the task's metrics' and the runner's own (A1 / A2 lengths, A1's ratio, collinearity bins)."""
    if task == "hull":
        closeness = np.array([o["closeness"] for o in outcomes], dtype=np.float64)
        wrong = np.array([not o["correct"] for o in outcomes], dtype=np.int64)
        edges = np.array(COLLINEARITY_EDGES)
        which = np.clip(np.searchsorted(edges, closeness, side="right") - 1, 0, len(edges) - 2)
        return metrics.hull_sums(outcomes) | {
            "bin_sets": np.bincount(which, minlength=len(edges) - 1).tolist(),
            "bin_errors": np.bincount(which, weights=wrong, minlength=len(edges) - 1).astype(np.int64).tolist(),
        }
    if task == "tsp":
        return metrics.tour_sums(outcomes) | {
            k: float(np.sum([o[k] for o in outcomes])) for k in ("a1", "a2", "a1_ratio")
        }
    return metrics.triangle_sums(outcomes)


def measure(model: str, n: int, seed: int, start: int, count: int, decoding: str, params: Params | None = None) -> dict:
    """Sets start..start+count-1 of size n: their sums, and the failed ones with their points; params: the weights
    of a model without a file (the reader's)."""
    m = MODELS[model]
    points = [point_set(seed, n, i) for i in range(start, start + count)]
    if m.task == "tsp":
        truths = [_reference_tour(seed, n, i, p) for i, p in zip(range(start, start + count), points, strict=True)]
    else:
        truths = [tasks.SPECS[m.task].label(p) for p in points]
    method, pick, _ = DECODINGS[decoding]
    outputs = answers.decode(
        weights.shipped(m.weights) if params is None else params, m.task, points, method, pick=pick
    )
    outcomes, failures = [], []
    for i, p, truth, out in zip(range(start, start + count), points, truths, outputs, strict=True):
        outcome = _outcome(m.task, p, truth, out)
        outcomes.append(outcome)
        if not outcome["correct"]:
            failures.append(_failure(m.task, n, i, p, truth, out))
    return {"n": n, "start": start, "count": count, "sums": _sums(m.task, outcomes), "failures": failures}


def row(model: str, n: int, sums: dict) -> dict:
    """One size's row of the results table, from its merged sums."""
    task = MODELS[model].task
    head = {"n": n, "sets": sums["sets"]}
    if task == "hull":
        return head | metrics.hull_from_sums(sums)
    if task == "tsp":
        s = metrics.tour_from_sums(sums)
        return head | {
            "mean_length": s["mean_length"],
            "a1": sums["a1"] / sums["sets"],
            "a2": sums["a2"] / sums["sets"],
            "reference": s["optimal"],
            "reference_kind": "Held-Karp" if n <= HELD_KARP_MAX else "LKH-3",
            "ratio": s["ratio"],
            "a1_ratio": sums["a1_ratio"] / sums["sets"],  # A1's tour over the reference, averaged as ratio is
            "invalid": 1.0 - s["valid"],
        }
    return head | metrics.triangle_from_sums(sums)


def collinearity(sums: dict) -> dict:
    """Error rate of hull answers by how nearly collinear their sets were (bins of near_collinearity)."""
    edges = COLLINEARITY_EDGES
    return {
        "bins": [[float(lo), None if hi == float("inf") else float(hi)] for lo, hi in itertools.pairwise(edges)],
        "sets": list(sums["bin_sets"]),
        "error_rate": [e / s if s else None for e, s in zip(sums["bin_errors"], sums["bin_sets"], strict=True)],
    }


def paper_rows(model: str) -> list[dict]:
    """The paper's values for this model, by test n, as the runner draws them (TSP: with the Ptr-Net's tour over the
    optimal one where the paper reports the optimum)."""
    m = MODELS[model]
    rows = []
    for key, values in PAPER[m.task].items():
        kind, _, n = key.rpartition("_")
        if kind == m.paper:
            ratio = {"ratio": values["ptrnet"] / values["optimal"]} if "optimal" in values else {}
            rows.append({"n": int(n)} | values | ratio)
    return sorted(rows, key=lambda r: r["n"])


def merged(parts: Sequence[dict]) -> dict:
    """Chunks' sums (or a run's total so far and the chunks since) as one total."""
    return functools.reduce(metrics.merge_sums, parts)


def summary(model: str, sums_by_n: dict[int, dict]) -> dict:
    """The run's table rows in size order from each size's merged sums, the paper's values and (hull models) the
    collinearity chart of every size's sets together."""
    sizes = [n for n in sorted(sums_by_n) if sums_by_n[n]["sets"]]
    out = {"rows": [row(model, n, sums_by_n[n]) for n in sizes], "paper": paper_rows(model)}
    if MODELS[model].task == "hull" and sizes:
        out["collinearity"] = collinearity(merged([sums_by_n[n] for n in sizes]))
    return out
