"""Measuring the trained Ptr-Nets the way the paper did (CPython only: shapely and networkx are imported here).

Hull: exact-match accuracy and area coverage (FAIL when over 1 % of outputs are not simple polygons).
TSP: mean tour length against the optimum and the A1/A2/A3 baselines, and the share of valid tours.
Delaunay: exact-set accuracy and triangle coverage (share of the true triangles in the output).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ptrnet.geometry import baselines
from ptrnet.geometry.tsp import tour_length
from ptrnet.pointer import answers, tasks
from ptrnet.pointer.lstm_ptr import Params
from training.datasets import Example


def accuracy(examples: Sequence[Example], outputs: Sequence[list[int]]) -> float:
    """Share of outputs equal to the target sequence."""
    return float(np.mean([o == s for o, (_, s) in zip(outputs, examples, strict=True)]))


def area_coverage(examples: Sequence[Example], outputs: Sequence[list[int]]) -> dict:
    """Mean output-polygon area / true hull area over simple outputs; FAIL when > 1 % are not simple polygons."""
    from shapely.geometry import LinearRing, Polygon

    ratios, bad = [], 0
    for (pts, truth), out in zip(examples, outputs, strict=True):
        ring = out[:-1] if len(out) > 1 and out[0] == out[-1] else out
        ok = len(ring) >= 3 and len(set(ring)) == len(ring) and all(1 <= j <= len(pts) for j in ring)
        if ok:
            coords = [tuple(pts[j - 1]) for j in ring]
            ok = LinearRing(coords).is_simple and Polygon(coords).area > 0
        if not ok:
            bad += 1
            continue
        true_area = Polygon([tuple(pts[j - 1]) for j in truth[:-1]]).area
        ratios.append(Polygon(coords).area / true_area)
    frac_bad = bad / max(len(examples), 1)
    return {
        "area_coverage": float(np.mean(ratios)) if ratios else None,
        "not_simple": frac_bad,
        "area_fail": frac_bad > 0.01,
    }


def is_tour(seq: Sequence[int], n: int) -> bool:
    """A closed tour in our notation: P1, every other point once, P1 again."""
    return len(seq) == n + 1 and seq[0] == seq[-1] == 1 and sorted(seq[:-1]) == list(range(1, n + 1))


def tour_metrics(examples: Sequence[Example], outputs: Sequence[list[int]]) -> dict:
    """Mean tour length of the outputs (all must be valid tours), of the optimum, and their ratio."""
    valid = [is_tour(o, len(p)) for o, (p, _) in zip(outputs, examples, strict=True)]
    ours = [
        tour_length(p, np.array(o[:-1]) - 1) if ok else np.nan
        for o, (p, _), ok in zip(outputs, examples, valid, strict=True)
    ]
    best = [tour_length(p, np.array(s[:-1]) - 1) for p, s in examples]
    return {
        "mean_length": float(np.mean(ours)),
        "optimal": float(np.mean(best)),
        "valid": float(np.mean(valid)),
        "ratio": float(np.mean(np.array(ours) / np.array(best))),
    }


def baseline_lengths(examples: Sequence[Example], names: Sequence[str] = ("A1", "A2", "A3")) -> dict:
    """Mean tour length of each approximate algorithm."""
    return {
        name: float(np.mean([tour_length(p, baselines.ALGORITHMS[name](p)) for p, _ in examples])) for name in names
    }


def triangles(seq: Sequence[int]) -> set[tuple[int, ...]]:
    """The set of triangles a flat pointer sequence names."""
    return {tuple(t) for t in tasks.as_triangles(seq)}


def triangle_metrics(examples: Sequence[Example], outputs: Sequence[list[int]]) -> dict:
    """Exact-set accuracy and mean triangle coverage."""
    exact, cover = [], []
    for (_, truth), out in zip(examples, outputs, strict=True):
        want, got = triangles(truth), triangles(out)
        exact.append(got == want and len(out) % 3 == 0 and len(out) == 3 * len(want))
        cover.append(len(want & got) / max(len(want), 1))
    return {"accuracy": float(np.mean(exact)), "triangle_coverage": float(np.mean(cover))}


def measure(params: Params, task: str, examples: Sequence[Example], width: int, vote: bool = False) -> dict:
    """Every metric of one task on one test set with one decoding (greedy, beam search or symmetry vote)."""
    method = "vote" if vote else "greedy" if width == 1 else "beam"
    outputs = answers.decode(params, task, [p for p, _ in examples], method, width)
    if task == "hull":
        return {"accuracy": accuracy(examples, outputs), **area_coverage(examples, outputs)}
    if task == "tsp":
        return tour_metrics(examples, outputs)
    return triangle_metrics(examples, outputs)
