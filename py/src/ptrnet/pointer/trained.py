"""What the pages ask of the shipped trained models: the Ptr-Nets of the three problems and the n = 5 seq2seq."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources

import numpy as np

from ptrnet import Unavailable
from ptrnet.geometry.notation import (
    canonical_tour,
    format_partial,
    format_sequence,
    format_triangles,
    in_triangle_order,
)
from ptrnet.pointer import answers, decoding, metrics, symmetry, tasks, weights
from ptrnet.pointer import lstm_ptr as L
from ptrnet.pointer.slot_rules import blocked_slots

# The pages decode in float32: a quarter faster, in the browser too, and the int8 weights carry far less
# precision anyway. The golden outputs and the evaluation use float64.
PAGE_DTYPE = np.float32


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
    return {
        "name": "Ptr-Net (LSTM)",
        "hidden": cfg["hidden"],
        "train_n": f"{cfg['min_n']}-{cfg['max_n']}",
        "steps": m["steps"],
        "wall_seconds": m["wall_seconds"],
        "parameters": m["parameters"],
        "hardware": m["hardware"],
        "beam_width": tasks.SPECS[task].beam_width,
        "page_width": tasks.SPECS[task].page_width,
        "greedy": {str(r["test_n"]): r["greedy"][score] for r in metrics},
        "beam": {str(r["test_n"]): r["beam"][score] for r in metrics},
        "illustrative": False,
    } | ({"demo_sizes": m["demo_sizes"]["accuracy_greedy"]} if "demo_sizes" in m else {})


def _x(points: Sequence[Sequence[float]]) -> np.ndarray:
    """One point set as a (1, n, 2) float64 batch."""
    return np.asarray(points, dtype=np.float64).reshape(1, -1, 2)


def hull_steps(points: Sequence[Sequence[float]], mask: bool) -> dict:
    """Greedy hull Ptr-Net decoding of one point set, step by step: the decoder input, the choice (0 = ⇐),
    [P1..Pn, ⇐]'s probabilities, which of them the mask removed, and the output so far (in the order the
    network emits it: from the leftmost vertex); output is the answer read into the notation."""
    params = weights.shipped("hull_ptrnet", PAGE_DTYPE)
    rule = "mask" if mask else "free"
    choices, probs = decoding.greedy(
        params, _x(points), rule=rule, max_steps=tasks.SPECS["hull"].max_steps(len(points))
    )
    n = len(points)
    valid, chosen = np.ones((1, n), dtype=bool), np.zeros((1, n + 1), dtype=bool)
    steps, so_far = [], []
    for t, (choice, p) in enumerate(zip(choices[0].tolist(), probs[0], strict=True)):
        if choice < 0:
            break
        blocked = blocked_slots(rule, valid, chosen, np.array(so_far[:1]) if so_far else None, t)[0]  # (n+1,)
        so_far.append(choice)
        chosen[0, choice] |= choice > 0
        steps.append(
            {
                "input": so_far[-2] if t else 0,
                "choice": choice,
                "probs": [*p[1:].tolist(), float(p[0])],
                "masked": [*blocked[1:].tolist(), bool(blocked[0])],
                "output": list(so_far),
                "output_text": format_partial(so_far),
            }
        )
    return {
        "steps": steps,
        "output": answers.read(params, "hull", choices[:, : len(steps)])[0],
        "ended": bool(steps) and steps[-1]["choice"] == 0,
    }


ATTENTION_N = (5, 10)  # the attention baseline's training sizes: its output layer names the points 1..10


def attention_vs_pointer(points: Sequence[Sequence[float]]) -> dict:
    """The attention seq2seq and the hull Ptr-Net decoding the same points greedily, step by step: the seq2seq's
    attention weights over the inputs and the token its output layer chose (1-based point, 0 for ⇐), the Ptr-Net's
    pointer distribution [P1..Pn, ⇐] and choice, and the true hull."""
    params = weights.shipped("hull_attention", PAGE_DTYPE)
    choices, _, attention = decoding.greedy_attention(params, _x(points), tasks.SPECS["hull"].max_steps(len(points)))
    names, go = L.tokens(params), L.go_id(params)
    seq2seq = [
        {
            "attention": a.tolist(),
            "token": token + 1 if token < go else 0,
            "token_text": names[token],
            "peak": int(np.argmax(a)) + 1,
        }
        for token, a in zip(choices[0].tolist(), attention[0], strict=True)
        if token >= 0
    ]
    pointer = hull_steps(points, False)
    return {
        "seq2seq": seq2seq,
        "pointer": [{"probs": s["probs"], "choice": s["choice"]} for s in pointer["steps"]],
        "seq2seq_output": [s["token"] for s in seq2seq if s["token"] > 0],
        "pointer_output": pointer["output"],
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


def available(task: str) -> bool:
    """Whether a Ptr-Net of this task ships (its model card is in the package; the weights may come later)."""
    return resources.files("ptrnet").joinpath(f"data/{task}_model_card.json").is_file()


def _compared(task: str, seq: list[int], points: Sequence[Sequence[float]], exact: dict) -> dict:
    """One model's answer in the page's notation, with its mistakes against the exact answer."""
    from ptrnet.geometry.tsp import tour_length

    if task == "hull":
        return {
            "model_hull": seq,
            "hull_wrong_edges": metrics.wrong_edges(exact["hull"], seq),
            "text": {"model_hull": format_sequence(seq)},
            "correct": seq == exact["hull"],
        }
    if task == "tsp":
        length = tour_length(points, [j - 1 for j in seq[:-1]])
        ratio = length / exact["tsp_length"] if exact["tsp_length"] > 0 else 1.0
        return {
            "model_tsp": seq,
            "model_tsp_length": length,
            "text": {"model_tsp": format_sequence(seq)},
            "tsp_ratio": ratio,
            "correct": ratio < 1 + 1e-9,  # an optimal tour, whichever of equally short ones
        }
    tris = in_triangle_order(points, tasks.as_triangles(seq))
    truth = [list(t) for t in exact["delaunay"]]
    wrong, missed = metrics.wrong_triangles(truth, tris), metrics.wrong_triangles(tris, truth)
    return {
        "model_delaunay": tris,
        "delaunay_wrong": wrong,
        "delaunay_missed": missed,
        "text": {"model_delaunay": format_triangles(tris)},
        "correct": not wrong and not missed and len(tris) == len(truth) and len(seq) == 3 * len(tris),
    }


def three_models(points: Sequence[Sequence[float]], exact: dict, vote: bool = False) -> dict:
    """The three Ptr-Nets' answers (model_hull, model_tsp, model_delaunay; absent, with a Korean note in
    model_notes, where no model ships or its weights could not be fetched) with their mistakes against the
    exact answers, whether each is right (model_correct; model_unavailable where weights could not be fetched),
    the tour length ratio and the A1 / A2 tours; with vote, the hull and Delaunay answers are
    symmetry votes and model_votes says how many of the 8 images gave each."""
    from ptrnet.geometry import baselines
    from ptrnet.geometry.tsp import tour_length

    out: dict = {"model_notes": {}, "text": {}, "model_votes": {}, "model_correct": {}}
    if not points:  # nothing to answer; the page keeps at least 3 points
        return {
            "model_notes": {},
            "text": {},
            "model_votes": {},
            "model_correct": {},
            "model_hull": [],
            "hull_wrong_edges": [],
            "model_tsp": [],
            "model_tsp_length": 0.0,
            "tsp_ratio": 1.0,
            "model_delaunay": [],
            "delaunay_wrong": [],
            "delaunay_missed": [],
            "baselines": {name: {"tour": [], "length": 0.0} for name in ("A1", "A2")},
            "a1_tour": [],
            "model_tsp_a1": [],
            "model_tsp_a1_length": 0.0,
        }
    for task in tasks.SPECS:
        if not available(task):
            out["model_notes"][task] = "이 문제의 학습된 모델이 아직 없습니다."
            continue
        try:
            seq, votes = answer(task, points, vote)
        except Unavailable:
            out["model_unavailable"] = True  # the page offers to fetch again
            out["model_notes"][task] = (
                "학습한 가중치를 내려받지 못해 모델의 답을 보여 줄 수 없습니다(오프라인일 수 있습니다)."
            )
            continue
        if votes is not None:
            out["model_votes"][task] = votes
        compared = _compared(task, seq, points, exact)
        out["text"] |= compared.pop("text")
        out["model_correct"][task] = compared.pop("correct")
        out |= compared
    out["baselines"] = {}
    for name in ("A1", "A2"):
        tour = baselines.ALGORITHMS[name](points).tolist()
        out["baselines"][name] = {"tour": [j + 1 for j in [*tour, tour[0]]], "length": tour_length(points, tour)}
    out["a1_tour"] = canonical_tour(out["baselines"]["A1"]["tour"])
    out |= _student(points)
    out["text"] |= {"a1_tour": format_sequence(out["a1_tour"])}
    if out["model_tsp_a1"]:
        out["text"]["model_tsp_a1"] = format_sequence(out["model_tsp_a1"])
    return out


def _student(points: Sequence[Sequence[float]]) -> dict:
    """The TSP Ptr-Net taught by A1 only: its tour (the paper's constrained beam search) and length, or a note."""
    from ptrnet.geometry.tsp import tour_length

    try:
        params = weights.shipped("tsp_ptrnet_a1", PAGE_DTYPE)
    except Unavailable:
        return {"model_tsp_a1": None, "model_tsp_a1_length": None}
    seq = answers.decode(params, "tsp", [_x(points)[0]], "beam", tasks.SPECS["tsp"].page_width)[0]
    return {"model_tsp_a1": seq, "model_tsp_a1_length": tour_length(points, [j - 1 for j in seq[:-1]])}
