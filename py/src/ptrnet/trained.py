"""What the pages ask of the shipped trained models: the Ptr-Nets of the three problems and the n = 5 seq2seq."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources

import numpy as np

from ptrnet import decoding, tasks, weights
from ptrnet import lstm_ptr as L


@cache
def card(task: str) -> dict:
    """The packaged model card of a task (data/<task>_model_card.json)."""
    return dict(json.loads(resources.files("ptrnet").joinpath(f"data/{task}_model_card.json").read_text("utf-8")))


def summary(task: str = "hull") -> dict:
    """A few lines of a model card for the page: size, training range and greedy / beam scores per test n."""
    m = card(task)["models"]["ptrnet"]
    cfg = m["hyper_parameters"]
    score = {"hull": "accuracy", "tsp": "mean_length", "delaunay": "accuracy"}[task]
    metrics = m["metrics"].values()
    return {"name": "Ptr-Net (LSTM)", "hidden": cfg["hidden"], "train_n": f"{cfg['min_n']}-{cfg['max_n']}",
            "steps": m["steps"], "wall_seconds": m["wall_seconds"], "parameters": m["parameters"],
            "hardware": m["hardware"], "beam_width": tasks.SPECS[task].beam_width,
            "greedy": {str(r["test_n"]): r["greedy"][score] for r in metrics},
            "beam": {str(r["test_n"]): r["beam"][score] for r in metrics}, "illustrative": False}


def _x(points: Sequence[Sequence[float]]) -> np.ndarray:
    """One point set as a (1, n, 2) float64 batch."""
    return np.asarray(points, dtype=np.float64).reshape(1, -1, 2)


def hull_steps(points: Sequence[Sequence[float]], mask: bool) -> dict:
    """Greedy hull Ptr-Net decoding of one point set, step by step: input, choice (0 = ⇐) and [P1..Pn, ⇐]."""
    params = weights.shipped("hull_ptrnet")
    choices, probs = decoding.greedy(params, _x(points), rule="mask" if mask else "free",
                                     max_steps=tasks.SPECS["hull"].max_steps(len(points)))
    steps, prev = [], 0
    for choice, p in zip(choices[0].tolist(), probs[0], strict=True):
        if choice < 0:
            break
        steps.append({"input": prev, "choice": choice, "probs": [*p[1:].tolist(), float(p[0])]})
        prev = choice
    return {"steps": steps, "output": decoding.sequences(params, choices[:, : len(steps)])[0],
            "ended": bool(steps) and steps[-1]["choice"] == 0}


def seq2seq_tokens(points: Sequence[Sequence[float]]) -> list[str]:
    """Greedy output tokens of the n = 5 seq2seq baseline, without the final ⇐."""
    choices, _ = decoding.greedy(weights.shipped("hull_seq2seq"), _x(points))
    row = [t for t in choices[0].tolist() if t >= 0]
    return [L.VOCAB[t] for t in (row[:-1] if row and row[-1] == L.STOP else row)]


def answer(task: str, points: Sequence[Sequence[float]]) -> list[int]:
    """A task's Ptr-Net output for one point set (1-based, without ⇐), by the task's beam search."""
    spec = tasks.SPECS[task]
    params = weights.shipped(f"{task}_ptrnet")
    choices, _ = decoding.beam_search(params, _x(points), spec.beam_width, rule="tour" if spec.constrained else "free",
                                      max_steps=spec.max_steps(len(points)))
    return decoding.sequences(params, choices)[0]
