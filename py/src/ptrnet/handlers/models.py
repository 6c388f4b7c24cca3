"""Demos 1 and 4 and the attention view beside demo 3, with the trained LSTM models (ptrnet.pointer.trained;
weights in data/hull_*.npz)."""

from ptrnet.geometry.degenerate import notes
from ptrnet.geometry.notation import format_sequence, hull_sequence
from ptrnet.handlers.base import MIN_MODEL_POINTS, InputError, bool_param, handler, model_points, parse_points
from ptrnet.pointer.lstm_ptr import S2S_N


def hull_models(n: object) -> tuple[str, ...]:
    """The weights demo 1 needs for n points: the Ptr-Net, and the seq2seq baseline only at its n = 5."""
    return ("hull_ptrnet", "hull_seq2seq") if n == S2S_N else ("hull_ptrnet",)


@handler("hull-steps", "real", weights=("hull_ptrnet",))
def _hull_steps_real(params: dict) -> dict:
    """The trained Ptr-Net decoding the points' hull greedily, every step's [P1..Pn, ⇐] probabilities."""
    from ptrnet.pointer import trained

    points = model_points(params, MIN_MODEL_POINTS)
    mask = bool_param(params, "mask", False)
    return {
        "points": points,
        "mask": mask,
        **trained.hull_steps(points, mask),
        "hull": hull_sequence(points),
        "notes": notes(points),
        "model": trained.summary("hull"),
    }


def _slots_real_weights(params: dict) -> tuple[str, ...]:
    """What demo 1's models need for the points sent: nothing to fetch for a request the handler will refuse."""
    points = params.get("points")
    return hull_models(len(points)) if isinstance(points, (list, tuple)) else ()


@handler("slots", "real", weights=_slots_real_weights)
def _slots_real(params: dict) -> dict:
    """Greedy outputs of the trained Ptr-Net and (at n = 5) of the seq2seq baseline, next to the true hull."""
    points = model_points(params, MIN_MODEL_POINTS)
    return {"points": points, "hull": hull_sequence(points), **model_outputs(points)}


def model_outputs(points: list[list[float]]) -> dict:
    """What the trained Ptr-Net and (only at n = 5) the seq2seq baseline answer for the points, and whether each
    answer is the true hull (correct)."""
    from ptrnet.pointer import trained

    n = len(points)
    s2s = trained.seq2seq_tokens(points) if n == S2S_N else None
    reason = (
        None if s2s is not None else f"seq2seq 기준 모델은 점 {S2S_N}개로만 학습되어 n = {n}에서는 답할 수 없습니다."
    )
    ptr = trained.hull_steps(points, False)["output"]
    truth = [str(j) for j in hull_sequence(points)]
    text = {"ptrnet": format_sequence(ptr)} | ({"seq2seq": format_sequence(s2s)} if s2s is not None else {})
    correct = {"ptrnet": [str(j) for j in ptr] == truth, "seq2seq": None if s2s is None else s2s == truth}
    return {
        "ptrnet": ptr,
        "seq2seq": s2s,
        "seq2seq_reason": reason,
        "correct": correct,
        "text": text,
        "model": trained.summary("hull"),
    }


@handler("attention-vs-pointer", "solve", weights=("hull_attention", "hull_ptrnet"))
def _attention_vs_pointer(params: dict) -> dict:
    """The article's view beside demo 3: the attention seq2seq and the hull Ptr-Net on 5-10 draggable points."""
    from ptrnet.pointer import trained

    low, high = trained.ATTENTION_N
    points = parse_points(params)
    if not low <= len(points) <= high:
        raise InputError(f"어텐션 seq2seq는 점 {low}–{high}개로 학습해서 점을 {low}개부터 {high}개까지 둘 수 있습니다.")
    truth = hull_sequence(points)
    result = trained.attention_vs_pointer(points)
    return {
        "points": points,
        "truth": truth,
        "notes": notes(points),
        "text": {"truth": format_sequence(truth)},
    } | result
