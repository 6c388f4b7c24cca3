"""What demos 1 and 4 and the attention view beside demo 3 show of the trained models (ptrnet.pointer.trained):
each decoding step as the page draws it, the models' answers in words, and a few lines of the hull model's card."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ptrnet import formats
from ptrnet.geometry.notation import hull_sequence
from ptrnet.limits import ATTENTION_POINTS, MAX_MODEL_POINTS, MIN_MODEL_POINTS, SEQ2SEQ_N
from ptrnet.pointer import attention, metrics, tasks, trained
from ptrnet.pointer.lstm_ptr import Params

MIN_ATTENTION_N, MAX_ATTENTION_N = ATTENTION_POINTS  # the test sizes demo 3-2 states (5 and 10)


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
    steps = []
    for t, (choice, p, blocked) in enumerate(zip(choices, decoded["probs"], decoded["blocked"], strict=True)):
        probs, masked = [*p[1:].tolist(), float(p[0])], [*blocked[1:].tolist(), bool(blocked[0])]
        steps.append(
            {
                "input": choices[t - 1] if t else 0,
                "choice": choice,
                "probs": probs,
                "masked": masked,
                "output": choices[: t + 1],
                "output_text": formats.partial(choices[: t + 1]),
                "text": {"probs": formats.candidates(probs, masked)},
            }
        )
    return {"steps": steps, "output": decoded["output"], "ended": bool(choices) and choices[-1] == 0}


def hull_accuracy(n: int) -> dict:
    """The hull Ptr-Net's greedy exact-match accuracy at n points, one number per n as its results JSON gives it
    (the tables' row where there is one, else the demo sizes' generated sets), and whether it was trained at n."""
    m = trained.card("hull")["models"]["ptrnet"]
    first, _, last = m["train_sizes"].partition("-")  # the sizes over all its runs: '5-50', or '10' for one
    low, high = int(first), int(last or first)
    rows = {r["test_n"]: r["greedy"]["accuracy"] for r in m["metrics"].values()}
    return {
        "n": n,
        "share": rows.get(n, m["demo_sizes"]["accuracy_greedy"][str(n)]),
        "train_n": [low, high],
        "in_training": low <= n <= high,
        "hidden": m["hyper_parameters"]["hidden"],
    }


def accuracy_text(accuracy: dict) -> str:
    """Demo 4's accuracy line: the training range, the demo's sizes outside it, and the accuracy at this n."""
    low, high = accuracy["train_n"]
    outside = [k for k in range(MIN_MODEL_POINTS, MAX_MODEL_POINTS + 1) if not low <= k <= high]
    where = "학습 범위 안" if accuracy["in_training"] else "학습 범위 밖"
    return (
        f"이 모델(은닉 {accuracy['hidden']})은 점 {low}–{high}개로 학습했으므로, 이 데모에서 놓을 수 있는 "
        f"{MIN_MODEL_POINTS}–{MAX_MODEL_POINTS}개 가운데 {'개와 '.join(map(str, outside))}개는 학습 범위 밖입니다. "
        f"점이 {accuracy['n']}개({where})일 때 평가 세트에서 정답 껍질을 그대로 낸 비율은 "
        f"{formats.percent(accuracy['share'])}입니다."
    )


def attention_vs_pointer(points: Sequence[Sequence[float]]) -> dict:
    """The attention seq2seq and the hull Ptr-Net decoding the same points greedily, step by step: the seq2seq's
    attention weights over the inputs, the token its output layer chose (1-based point, 0 for ⇐) and the attention
    on that point against chance (ptrnet.pointer.attention; None at ⇐), the Ptr-Net's pointer distribution
    [P1..Pn, ⇐] and choice, and the true hull; beside them the same measures over test sets and training."""
    decoded = trained.attention_decoding(points)
    go = decoded["go"]
    focus = attention.on_output(np.array([decoded["attention"]]), np.array([decoded["tokens"]]), go)
    seq2seq = [
        {
            "attention": a.tolist(),
            "token": token + 1 if token < go else 0,
            "token_text": name,
            "peak": int(a.argmax()) + 1,
            "mass": float(mass) if named else None,
            "chance": float(chance) if named else None,
            "labels": formats.candidates([*a.tolist(), 0.0], [False] * (len(a) + 1)),
            "text": {"attention": formats.shares_line(a.tolist(), _point_names(len(a)))}
            | ({"mass": formats.percent(mass), "chance": formats.percent(chance)} if named else {}),
        }
        for token, name, a, named, mass, chance in zip(
            decoded["tokens"],
            decoded["names"],
            decoded["attention"],
            focus["named"][0],
            focus["mass"][0],
            focus["chance"][0],
            strict=True,
        )
    ]
    pointer = hull_steps(points, False)
    names, record = [*_point_names(len(points)), "⇐"], _attention_record()
    s2s_output = [s["token"] for s in seq2seq if s["token"] > 0]
    return {
        "seq2seq": seq2seq,
        "pointer": [
            {
                "probs": s["probs"],
                "choice": s["choice"],
                "labels": s["text"]["probs"],
                "text": {"probs": formats.shares_line(s["probs"], names)},
            }
            for s in pointer["steps"]
        ],
        "seq2seq_output": s2s_output,
        "pointer_output": pointer["output"],
        **record,
        "text": record["text"]
        | {"seq2seq_output": formats.points_path(s2s_output), "pointer_output": formats.points_path(pointer["output"])},
    }


def _point_names(n: int) -> list[str]:
    """P1 … Pn, as the pages name the input points."""
    return [f"P{k + 1}" for k in range(n)]


def _attention_record() -> dict:
    """From the hull model card: the shipped attention seq2seq's accuracy and attention on its outputs over the
    test sets (test_sets, by n), and the measured steps of a separate short run (over_training), with their text."""
    m = trained.card("hull")["models"]["attention"]
    rows = {
        str(r["test_n"]): {
            "accuracy": r["greedy"]["accuracy"],
            **{k: r[f"attention_{k}"] for k in ("peak", "mass", "chance")},
            "lines": r["lines"],
        }
        for r in m["metrics"].values()
        if r["test_n"] in (MIN_ATTENTION_N, MAX_ATTENTION_N)
    }
    run = m["over_training"]
    steps = [r["step"] for r in run["rows"]]
    over = {"steps": steps} | {
        f"{k}_{n}": [r[f"n{n}"][k] for r in run["rows"]]
        for n in (MIN_ATTENTION_N, MAX_ATTENTION_N)
        for k in ("accuracy", "peak", "mass", "chance")
    }
    text = {
        "test_sets": {
            n: {k: formats.count(v) if k == "lines" else formats.percent(v) for k, v in r.items()}
            for n, r in rows.items()
        },
        "over_training": {"every": formats.count(run["measured_every"]), "last_step": formats.count(steps[-1])},
    }
    return {"test_sets": rows, "over_training": over, "text": text}


def model_outputs(points: list[list[float]]) -> dict:
    """What the trained Ptr-Net and the seq2seq baseline answer for the points, in words, and whether each answer
    is the true hull (correct, by metrics). The seq2seq answers wherever its output layer has a slot for every point
    (n <= 5), on fewer points than it was trained on too, where it meets inputs unlike any it saw."""
    n = len(points)
    truth = hull_sequence(points)
    s2s = trained.seq2seq_tokens(points) if n <= SEQ2SEQ_N else None
    reason = (
        None
        if s2s is not None
        else f"이 seq2seq의 출력층에는 {SEQ2SEQ_N}번까지의 칸밖에 없어 점 {n}개의 답을 적을 수 없습니다."
    )
    ptr = hull_steps(points, False)["output"]
    text = {"ptrnet": formats.sequence(ptr)}
    if s2s is not None:
        text["seq2seq"] = formats.sequence(s2s)
    if s2s is not None and n < SEQ2SEQ_N:
        text["seq2seq_note"] = _unseen_size_note(n, s2s)
    correct = {
        "ptrnet": metrics.hull_outcome(points, truth, ptr)["correct"],
        "seq2seq": None if s2s is None else metrics.hull_outcome(points, truth, _token_points(s2s, n))["correct"],
    }
    return {
        "ptrnet": ptr,
        "seq2seq": s2s,
        "seq2seq_reason": reason,
        "correct": correct,
        "text": text,
        "model": card_summary("hull"),
    }


def _token_points(tokens: Sequence[str], n: int) -> list[int]:
    """The seq2seq's tokens as 1-based point indices; a token that names no point (⇒, or a number above n) as 0,
    which none is."""
    return [int(t) if t.isdigit() and int(t) <= n else 0 for t in tokens]


def _unseen_size_note(n: int, tokens: Sequence[str]) -> str:
    """Why the seq2seq's answer on fewer points than it learned on deserves a look, and what it named that is not there."""
    absent = sorted({t for t in tokens if t.isdigit() and int(t) > n}, key=int)
    said = f" 답에 나온 {', '.join(absent)}번 점은 이 배치에 없습니다." if absent else ""
    return (
        f"출력 칸은 모자라지 않지만, 이 모델은 점 {SEQ2SEQ_N}개짜리 예제만 보고 배웠습니다. "
        f"점 {n}개는 처음 보는 입력입니다.{said}"
    )
