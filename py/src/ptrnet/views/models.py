"""What demos 1 and 4 and the attention view beside demo 3 show of the trained models (ptrnet.pointer.trained):
each decoding step as the page draws it, the models' answers in words, and a few lines of the hull model's card."""

from __future__ import annotations

from collections.abc import Sequence

from ptrnet import formats
from ptrnet.geometry.notation import hull_sequence
from ptrnet.limits import SEQ2SEQ_N
from ptrnet.pointer import metrics, tasks, trained
from ptrnet.pointer.lstm_ptr import Params


def card_summary(task: str = "hull") -> dict:
    """A few lines of a model card for the page: size, training range and greedy / beam scores per test n."""
    m = trained.card(task)["models"]["ptrnet"]
    cfg = m["hyper_parameters"]
    score = {"hull": "accuracy", "tsp": "mean_length", "delaunay": "accuracy"}[task]
    rows = m["metrics"].values()
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
        "greedy": {str(r["test_n"]): r["greedy"][score] for r in rows},
        "beam": {str(r["test_n"]): r["beam"][score] for r in rows},
        "illustrative": False,
    } | ({"demo_sizes": m["demo_sizes"]["accuracy_greedy"]} if "demo_sizes" in m else {})


def hull_steps(points: Sequence[Sequence[float]], mask: bool, params: Params | None = None) -> dict:
    """The hull Ptr-Net's greedy decoding step by step: the decoder input, the choice (0 = ⇐), [P1..Pn, ⇐]'s
    probabilities, which of them the mask removed, and the output so far (as emitted: from the leftmost vertex)
    with its text; output is the answer read into the notation, ended whether the network said ⇐. params: a
    Ptr-Net other than the shipped one (the reader's)."""
    decoded = trained.hull_decoding(points, mask) if params is None else trained.hull_steps(params, points, mask)
    choices = decoded["choices"]
    steps = [
        {
            "input": choices[t - 1] if t else 0,
            "choice": choice,
            "probs": [*p[1:].tolist(), float(p[0])],
            "masked": [*blocked[1:].tolist(), bool(blocked[0])],
            "output": choices[: t + 1],
            "output_text": formats.partial(choices[: t + 1]),
        }
        for t, (choice, p, blocked) in enumerate(zip(choices, decoded["probs"], decoded["blocked"], strict=True))
    ]
    return {"steps": steps, "output": decoded["output"], "ended": bool(choices) and choices[-1] == 0}


def attention_vs_pointer(points: Sequence[Sequence[float]]) -> dict:
    """The attention seq2seq and the hull Ptr-Net decoding the same points greedily, step by step: the seq2seq's
    attention weights over the inputs and the token its output layer chose (1-based point, 0 for ⇐), the Ptr-Net's
    pointer distribution [P1..Pn, ⇐] and choice, and the true hull."""
    decoded = trained.attention_decoding(points)
    go = decoded["go"]
    seq2seq = [
        {
            "attention": a.tolist(),
            "token": token + 1 if token < go else 0,
            "token_text": name,
            "peak": int(a.argmax()) + 1,
        }
        for token, name, a in zip(decoded["tokens"], decoded["names"], decoded["attention"], strict=True)
    ]
    pointer = hull_steps(points, False)
    return {
        "seq2seq": seq2seq,
        "pointer": [{"probs": s["probs"], "choice": s["choice"]} for s in pointer["steps"]],
        "seq2seq_output": [s["token"] for s in seq2seq if s["token"] > 0],
        "pointer_output": pointer["output"],
    }


def model_outputs(points: list[list[float]]) -> dict:
    """What the trained Ptr-Net and (only at n = 5) the seq2seq baseline answer for the points, in words, and
    whether each answer is the true hull (correct, by metrics)."""
    n = len(points)
    truth = hull_sequence(points)
    s2s = trained.seq2seq_tokens(points) if n == SEQ2SEQ_N else None
    reason = (
        None
        if s2s is not None
        else f"seq2seq 기준 모델은 점 {SEQ2SEQ_N}개로만 학습되어 n = {n}에서는 답할 수 없습니다."
    )
    ptr = hull_steps(points, False)["output"]
    text = {"ptrnet": formats.sequence(ptr)} | ({"seq2seq": formats.sequence(s2s)} if s2s is not None else {})
    correct = {
        "ptrnet": metrics.hull_outcome(points, truth, ptr)["correct"],
        "seq2seq": None if s2s is None else metrics.hull_outcome(points, truth, _token_points(s2s))["correct"],
    }
    return {
        "ptrnet": ptr,
        "seq2seq": s2s,
        "seq2seq_reason": reason,
        "correct": correct,
        "text": text,
        "model": card_summary("hull"),
    }


def _token_points(tokens: Sequence[str]) -> list[int]:
    """The seq2seq's tokens as 1-based point indices; a token that names no point (⇒) as 0, which none is."""
    return [int(t) if t.isdigit() else 0 for t in tokens]
