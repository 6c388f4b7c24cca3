"""Measuring the trained Ptr-Nets the way the paper did, with the metrics the browser's experiment runner uses
(ptrnet.pointer.metrics) over whole test sets; A3 (Christofides) needs networkx, so this stays on CPython.

Hull: exact-match accuracy and area coverage (FAIL when over 1 % of outputs are not simple polygons).
TSP: mean tour length against the optimum and the A1/A2/A3 baselines, and the share of valid tours.
Delaunay: exact-set accuracy and triangle coverage (share of the true triangles in the output).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ptrnet.geometry import baselines
from ptrnet.geometry.tsp import tour_length
from ptrnet.pointer import answers, attention, decoding, metrics, tasks
from ptrnet.pointer import lstm_ptr as L
from ptrnet.pointer.lstm_ptr import Params
from training.data.datasets import Example


def accuracy(examples: Sequence[Example], outputs: Sequence[list[int]]) -> float:
    """Share of outputs equal to the target sequence."""
    return float(np.mean([o == s for o, (_, s) in zip(outputs, examples, strict=True)]))


def area_coverage(examples: Sequence[Example], outputs: Sequence[list[int]]) -> dict:
    """Mean output-polygon area / true hull area over simple outputs; FAIL when > 1 % are not simple polygons."""
    outcomes = [metrics.hull_outcome(p, s, o) for o, (p, s) in zip(outputs, examples, strict=True)]
    summary = metrics.hull_summary(outcomes)
    return {key: summary[key] for key in ("area_coverage", "not_simple", "area_fail")}


def tour_metrics(examples: Sequence[Example], outputs: Sequence[list[int]]) -> dict:
    """Mean tour length of the outputs (all must be valid tours), of the optimum, and their ratio."""
    return metrics.tour_summary(
        [
            metrics.tour_outcome(p, tour_length(p, np.array(s[:-1]) - 1), o)
            for o, (p, s) in zip(outputs, examples, strict=True)
        ]
    )


def baseline_lengths(examples: Sequence[Example], names: Sequence[str] = ("A1", "A2", "A3")) -> dict:
    """Mean tour length of each approximate algorithm."""
    return {
        name: float(np.mean([tour_length(p, baselines.ALGORITHMS[name](p)) for p, _ in examples])) for name in names
    }


def triangle_metrics(examples: Sequence[Example], outputs: Sequence[list[int]]) -> dict:
    """Exact-set accuracy and mean triangle coverage."""
    return metrics.triangle_summary(
        [metrics.triangle_outcome(s, o) for o, (_, s) in zip(outputs, examples, strict=True)]
    )


def measure(
    params: Params,
    task: str,
    examples: Sequence[Example],
    width: int,
    vote: bool = False,
    pick: str = "",
    rule: str = "",
) -> dict:
    """Every metric of one task on one test set with one decoding (greedy, beam search answering with the pick
    of answers.PICKS, or symmetry vote), under the task's slot rule or the one given (answers.decode)."""
    method = "vote" if vote else "greedy" if width == 1 else "beam"
    outputs = answers.decode(params, task, [p for p, _ in examples], method, width, pick, rule)
    if task == "hull":
        return metrics.hull_summary(
            [metrics.hull_outcome(p, s, o) for o, (p, s) in zip(outputs, examples, strict=True)]
        )
    if task == "tsp":
        return tour_metrics(examples, outputs)
    return triangle_metrics(examples, outputs)


def attention_on_output(params: Params, examples: Sequence[Example]) -> dict[str, float]:
    """Over the attention seq2seq's greedy output steps that name a point (ptrnet.pointer.attention): the share
    whose attention peaks on that very point, the mean attention mass on it, and the mean that uniform attention
    would put there (chance): did the attention already point, as the paper suggests?"""
    totals = {"steps": 0, "mass": 0.0, "chance": 0.0, "peak": 0.0}
    for k in range(0, len(examples), answers.CHUNK):
        x = np.stack([p for p, _ in examples[k : k + answers.CHUNK]])  # (B, n, 2)
        choices, _, weights = decoding.greedy_attention(params, x, tasks.SPECS["hull"].max_steps(x.shape[1]))
        totals = metrics.merge_sums(totals, attention.sums(weights, choices, L.go_id(params)))
    return attention.summary(totals)
