"""One answer path per task: a trained model's decoding of point sets, read into the task's notation.

The pages (pointer.trained), the offline evaluation and the symmetry vote all decode through decode() or vote();
demo 4's step-by-step greedy decoding reads its choices back with read(). A Ptr-Net's sequence is put in the
task's canonical form (tasks.Task.read, the notation's own functions), the same form the exact answers have.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ptrnet.geometry.tsp import tour_lengths
from ptrnet.pointer import decoding, symmetry, tasks
from ptrnet.pointer import lstm_ptr as L
from ptrnet.pointer.lstm_ptr import Array, Ints, Params

METHODS = ("greedy", "beam", "vote")  # greedy decoding, beam search (answering by PICKS), the symmetry vote (ours)
PICKS = ("probable", "shortest")  # which finished beam answers a beam search (tasks.Task.beam_pick)
CHUNK = 2000  # most point sets decoded at once
CHUNK_FLOATS = 2**25  # and at most this many floats in one (rows, n + 1, hidden) attention block: 256 MB in float64


def read(params: Params, task: str, choices: Ints) -> list[list[int]]:
    """Decoded choices (B, T) as 1-based answers without ⇐: a Ptr-Net's in the task's canonical form, a seq2seq's
    tokens as the indices they name (that baseline emits the notation itself)."""
    seqs = decoding.sequences(params, choices)
    return [tasks.SPECS[task].read(s) for s in seqs] if L.kind(params) == "ptrnet" else seqs


def decode(
    params: Params,
    task: str,
    points: Sequence[Array],
    method: str = "greedy",
    width: int = 0,
    pick: str = "",
    rule: str = "",
) -> list[list[int]]:
    """The model's answers for point sets of one size: greedy, beam search of width (0: the task's beam_width) or
    the symmetry vote; TSP decodes only valid tours, as the paper's search did. pick: which finished beam answers
    ("": the task's beam_pick). rule: which slots a step may take (slot_rules.RULES; "": the task's own, tour for
    the TSP and free otherwise; "mask" keeps a hull from naming a point twice before it closes)."""
    if method == "vote":
        return vote(params, task, points)[0]
    if method not in METHODS:
        raise ValueError(f"unknown decoding {method!r}; one of {METHODS}")
    spec = tasks.SPECS[task]
    rule = rule or ("tour" if spec.constrained else "free")
    width = width or spec.beam_width
    pick = pick or spec.beam_pick
    if pick not in PICKS or (pick == "shortest" and not spec.constrained):
        raise ValueError(f"a {task} beam cannot answer with the {pick!r} one")
    out: list[list[int]] = []
    chunk = _chunk(params, len(points[0]) if len(points) else 0, 1 if method == "greedy" else width)
    for k in range(0, len(points), chunk):
        x = np.stack(points[k : k + chunk])  # (B, n, 2)
        steps = spec.max_steps(x.shape[1])
        if method == "greedy" or width == 1:
            choices, _ = decoding.greedy(params, x, rule=rule, max_steps=steps)
        elif pick == "shortest":
            choices = _shortest_tours(params, x, width, steps)
        else:
            choices, _ = decoding.beam_search(params, x, width, rule=rule, max_steps=steps)
        out += read(params, task, choices)
    return out


def _chunk(params: Params, n: int, rows_per_set: int) -> int:
    """Point sets of n points to decode at once: CHUNK, fewer where their beams' attention blocks would pass
    CHUNK_FLOATS (a width-4 search at n = 200 with hidden 256 holds several such blocks at a time)."""
    hidden = params["dec_Wh"].shape[0]
    return max(1, min(CHUNK, CHUNK_FLOATS // (rows_per_set * (n + 1) * hidden)))


def _shortest_tours(params: Params, x: Array, width: int, steps: int) -> Ints:
    """Choices (B, T) of the shortest finished tour among the beams of a tour-constrained search (ties: the more
    probable)."""
    seqs, _, finished = decoding.beams(params, x, width, rule="tour", max_steps=steps)  # (B, K, T)
    cities = np.maximum(seqs[:, :, : x.shape[1]], 1) - 1  # (B, K, n) 0-based: P1, then every other point once
    lengths = np.where(finished, tour_lengths(x[:, None], cities), np.inf)  # (B, K)
    return seqs[np.arange(len(seqs)), lengths.argmin(axis=1)]


def vote(params: Params, task: str, points: Sequence[Array]) -> tuple[list[list[int]], list[int]]:
    """Each point set's most frequent greedy answer over the 8 images of the square's symmetries (ties: the
    earliest image, the identity first) and how many images gave it; the point sets must be of one size."""
    if task not in symmetry.TASKS:
        raise ValueError(f"symmetry voting is defined for {symmetry.TASKS}, not {task!r}")
    answers: list[list[int]] = []
    counts: list[int] = []
    step = CHUNK // len(symmetry.IMAGES)  # each point set is decoded 8 times at once
    for k in range(0, len(points), step):
        x = np.stack(points[k : k + step])  # (B, n, 2)
        B = len(x)
        images = np.concatenate([symmetry.image(x, *sym) for sym in symmetry.IMAGES])  # (8B, n, 2) image-major
        seqs = decode(params, task, list(images), "greedy")
        for b in range(B):
            seen = [
                symmetry.in_original_frame(task, seqs[j * B + b], symmetry.mirrors(*sym))
                for j, sym in enumerate(symmetry.IMAGES)
            ]
            answer, count = symmetry.majority(task, seen)
            answers.append(answer)
            counts.append(count)
    return answers, counts
