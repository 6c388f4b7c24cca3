"""The shipped trained models as the pages run them: their cards, and their decodings of one point set (the pages'
views of these are ptrnet.views)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from functools import cache
from importlib import resources

import numpy as np

from ptrnet.pointer import answers, decoding, symmetry, tasks, weights
from ptrnet.pointer import lstm_ptr as L
from ptrnet.pointer.slot_rules import blocked_slots

# The pages decode in float32: a quarter faster, in the browser too, and the int8 weights carry far less
# precision anyway. The golden outputs and the evaluation use float64.
PAGE_DTYPE = np.float32


@cache
def card(task: str) -> dict:
    """The packaged model card of a task (data/<task>_model_card.json)."""
    return dict(json.loads(resources.files("ptrnet").joinpath(f"data/{task}_model_card.json").read_text("utf-8")))


def available(task: str) -> bool:
    """Whether a Ptr-Net of this task ships (its model card is in the package; the weights may come later)."""
    return resources.files("ptrnet").joinpath(f"data/{task}_model_card.json").is_file()


def _x(points: Sequence[Sequence[float]]) -> np.ndarray:
    """One point set as a (1, n, 2) float64 batch."""
    return np.asarray(points, dtype=np.float64).reshape(1, -1, 2)


def hull_decoding(points: Sequence[Sequence[float]], mask: bool) -> dict:
    """Greedy decoding of one point set by the shipped hull Ptr-Net (see hull_steps)."""
    return hull_steps(weights.shipped("hull_ptrnet", PAGE_DTYPE), points, mask)


def hull_steps(params: L.Params, points: Sequence[Sequence[float]], mask: bool) -> dict:
    """Greedy hull Ptr-Net decoding of one point set: each step's choice (0 = ⇐, in the order the network emits
    them: from the leftmost vertex, up to and with ⇐), its (steps, n + 1) probabilities and the slots the rule
    blocked, both over [⇐, P1..Pn], and the answer read into the notation."""
    rule = "mask" if mask else "free"
    choices, probs = decoding.greedy(
        params, _x(points), rule=rule, max_steps=tasks.SPECS["hull"].max_steps(len(points))
    )
    steps = list(itertools.takewhile(lambda c: c >= 0, choices[0].tolist()))
    valid, chosen = np.ones((1, len(points)), dtype=bool), np.zeros((1, len(points) + 1), dtype=bool)
    blocked = []
    for t, choice in enumerate(steps):
        blocked.append(blocked_slots(rule, valid, chosen, np.array(steps[:1]) if t else None, t)[0])  # (n+1,)
        chosen[0, choice] |= choice > 0
    return {
        "choices": steps,
        "probs": probs[0, : len(steps)],
        "blocked": np.array(blocked, dtype=bool).reshape(len(steps), len(points) + 1),
        "output": answers.read(params, "hull", choices[:, : len(steps)])[0],
    }


def attention_decoding(points: Sequence[Sequence[float]]) -> dict:
    """Greedy decoding of the attention seq2seq: each step's token id, its name, and the step's (n,) attention
    weights over the inputs; go is the id of ⇒: the ids below it name points 1, 2, ..."""
    params = weights.shipped("hull_attention", PAGE_DTYPE)
    choices, _, attention = decoding.greedy_attention(params, _x(points), tasks.SPECS["hull"].max_steps(len(points)))
    names = L.tokens(params)
    steps = [(token, a) for token, a in zip(choices[0].tolist(), attention[0], strict=True) if token >= 0]
    return {
        "tokens": [t for t, _ in steps],
        "names": [names[t] for t, _ in steps],
        "attention": [a for _, a in steps],
        "go": L.go_id(params),
    }


def seq2seq_tokens(points: Sequence[Sequence[float]]) -> list[str]:
    """Greedy output tokens of the n = 5 seq2seq baseline, without the final ⇐."""
    params = weights.shipped("hull_seq2seq", PAGE_DTYPE)
    choices, _ = decoding.greedy(params, _x(points))
    row = [t for t in choices[0].tolist() if t >= 0]
    return [L.tokens(params)[t] for t in (row[:-1] if row and row[-1] == L.stop_id(params) else row)]


def answer(task: str, points: Sequence[Sequence[float]], vote: bool = False) -> tuple[list[int], int | None]:
    """A task's Ptr-Net output for one point set (1-based, without ⇐) as the companion page shows it, and how
    many of the 8 symmetric images agreed (None unless voted): the TSP by the paper's beam search over valid
    tours, the hull and Delaunay greedily (their beams gain little) or, on request, by symmetry vote."""
    spec = tasks.SPECS[task]
    params = weights.shipped(f"{task}_ptrnet", PAGE_DTYPE)
    if vote and task in symmetry.TASKS:
        voted, counts = answers.vote(params, task, [_x(points)[0]])
        return voted[0], counts[0]
    method = "greedy" if spec.page_width == 1 else "beam"
    return answers.decode(params, task, [_x(points)[0]], method, spec.page_width)[0], None


def student_tour(points: Sequence[Sequence[float]]) -> list[int]:
    """The tour of the TSP Ptr-Net taught by A1 only, by the paper's constrained beam search."""
    params = weights.shipped("tsp_ptrnet_a1", PAGE_DTYPE)
    return answers.decode(params, "tsp", [_x(points)[0]], "beam", tasks.SPECS["tsp"].page_width)[0]
