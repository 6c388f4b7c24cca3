"""The computations behind demos 1, 3, 4 and 7: output slots, mixing vs pointing, hull steps, generate or copy."""

import json
import math
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from itertools import pairwise

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ptrnet import formats
from ptrnet.limits import POINT_DECIMALS, SEQ2SEQ_N

START, END = "⇒", "⇐"

# --- demo 1 [slots]: a softmax over a fixed output vocabulary cannot name input 6


def random_points(n: int, seed: int) -> list[list[float]]:
    """n points uniform in [0, 1]^2 drawn from default_rng(seed), rounded as the point editors keep them."""
    return np.random.default_rng(seed).random((n, 2)).round(POINT_DECIMALS).tolist()  # (n, 2)


def slot_counts(hull: Sequence[int], n: int, trained_n: int = SEQ2SEQ_N) -> dict:
    """Answer tokens of a 1-based hull, which a seq2seq trained at trained_n can emit, and the n + 1 Ptr-Net slots."""
    vocab = [str(i) for i in range(1, trained_n + 1)] + [START, END]
    answer = [START, *(str(i) for i in hull), END]
    emittable = [token in vocab for token in answer]
    return {
        "seq2seq_vocab": vocab,
        "answer": answer,
        "emittable": emittable,
        "seq2seq_missing": emittable.count(False),
        "ptr_slots": n + 1,
        "ptr_labels": [f"P{i}" for i in range(1, n + 1)] + [END],
    }


# --- demo 3 [mix-vs-point]: attention mixes the encoder states, a pointer picks one

ENCODERS = np.array([[1.0, 0.25], [0.2, 0.85], [-0.9, 0.6], [-0.7, -0.55], [0.45, -1.05]])  # (5, 2) e1..e5, convex
MAX_D = 8.0  # longest decoder vector the demo allows


def clamp_length(d: ArrayLike, max_len: float = MAX_D) -> NDArray[np.float64]:
    """d shortened to length max_len if it is longer, direction kept."""
    d = np.asarray(d, dtype=np.float64)  # (2,)
    if math.hypot(*d) <= max_len:
        return d
    d = d / np.abs(d).max()  # into [-1, 1]^2 first, so its length cannot overflow to inf
    return d * (max_len / math.hypot(*d))


def attention(encoders: ArrayLike, d: ArrayLike) -> dict:
    """Dot-product scores u_j = e_j . d, softmax weights a, the mix sum_j a_j e_j and the pointer (1-based argmax)."""
    e = np.asarray(encoders, dtype=np.float64)  # (m, 2)
    d = np.asarray(d, dtype=np.float64)  # (2,)
    u = e @ d  # (m,)
    a = np.exp(u - u.max())  # (m,)
    a /= a.sum()
    live = a[a > 0]  # exp may underflow for very long d; 0 log 0 = 0
    return {
        "encoders": e.tolist(),
        "d": d.tolist(),
        "scores": u.tolist(),
        "weights": a.tolist(),
        "mixed": (a @ e).tolist(),  # (2,)
        "pointer": int(np.argmax(a)) + 1,
        "entropy": float(-(live * np.log(live)).sum()),  # nats
        "max_weight": float(a.max()),
    }


# --- demo 4 [hull-steps]: the 7-point example (limits.HULL_EXAMPLE) decoded step by step (illustrative probabilities)

HULL_STEPS = 6  # P3 P6 P4 P5 P3 ⇐


@cache
def _data(name: str) -> dict:
    """A JSON file of ptrnet/data, read through the installed package (so also from the wheel in Pyodide)."""
    return json.loads((resources.files("ptrnet") / "data" / name).read_text(encoding="utf-8"))


def _index(label: str) -> int:
    """A candidate's output index: 'P3' -> 3, '⇐' -> 0."""
    return 0 if label == END else int(label[1:])


def hull_step(step: int, mask: bool) -> dict:
    """Demo 4 at step 1..6: decoder input, choice, the 8 probabilities [P1..P7, ⇐], output so far."""
    table = _data("hull_steps.json")
    labels = table["candidates"]  # P1..P7, ⇐
    choices = [_index(s["choice"]) for s in table["steps"]]  # [3, 6, 4, 5, 3, 0]
    before = choices[: step - 1]  # chosen at earlier steps
    # the mask removes points chosen before, except the first one, which closes the polygon; ⇐ (0) always stays
    masked = [mask and i in before and i != choices[0] for i in map(_index, labels)]
    probs = np.array([table["steps"][step - 1]["probs"][c] for c in labels])  # (8,)
    if any(masked):
        probs[masked] = 0.0
        probs /= probs.sum()  # what the mask leaves, renormalised
    return {
        "input": before[-1] if before else 0,  # 0 stands for ⇒ at the first step
        "choice": choices[step - 1],
        "probs": probs.tolist(),
        "output": choices[:step],
        "output_text": formats.partial(choices[:step]),
        "masked": masked,
    }


# --- demo 7 [pointer-generator]: P(w) = p_gen P_vocab(w) + (1 - p_gen) sum_{i: w_i = w} a_i (See et al., 2017)


def pointer_generator_example() -> dict:
    """Demo 7's illustrative source sentence, attention over it and vocabulary distribution."""
    data = _data("pointer_generator.json")
    return {"source": list(data["source"]), "attention": list(data["attention"]), "vocab": dict(data["vocab"])}


def mix_pointer_generator(
    p_gen: float, p_vocab: Mapping[str, float], attention: Sequence[float], source: Sequence[str]
) -> dict:
    """Final P(w) over source words (in order) then vocabulary-only words, each word's origin, and the argmax."""
    copied: dict[str, float] = {}
    for word, a in zip(source, attention, strict=True):
        copied[word] = copied.get(word, 0.0) + float(a)  # repeated source words add their attention
    words = list(copied) + [w for w in p_vocab if w not in copied]
    final = {w: p_gen * float(p_vocab.get(w, 0.0)) + (1.0 - p_gen) * copied.get(w, 0.0) for w in words}
    origin = {w: "both" if w in copied and w in p_vocab else "source" if w in copied else "vocab" for w in words}
    return {"final": final, "origin": origin, "chosen": max(words, key=final.__getitem__)}  # first of equals wins


def pointer_generator_switches(
    p_vocab: Mapping[str, float], attention: Sequence[float], source: Sequence[str]
) -> list[tuple[float, str, str]]:
    """Where, as p_gen grows from 0 to 1, the most probable word changes: [(p_gen, word before, word after)].
    Each word's P(w) is linear in p_gen, so the changes lie where two of those lines cross."""
    start, end = (mix_pointer_generator(p, p_vocab, attention, source)["final"] for p in (0.0, 1.0))
    crossings = sorted(
        {
            (start[u] - start[w]) / ((start[u] - start[w]) - (end[u] - end[w]))
            for u in start
            for w in start
            if (start[u] - start[w]) * (end[u] - end[w]) < 0  # the two lines swap order inside (0, 1)
        }
    )
    switches, top = [], mix_pointer_generator(0.0, p_vocab, attention, source)["chosen"]
    for p, following in pairwise([*crossings, 1.0]):  # each crossing and the next one (or p_gen = 1)
        after = mix_pointer_generator((p + following) / 2, p_vocab, attention, source)["chosen"]
        if after != top:
            switches.append((p, top, after))
            top = after
    return switches
