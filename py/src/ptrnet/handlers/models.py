"""Demos 1 and 4 and the attention view beside demo 3, with the trained LSTM models (ptrnet.pointer.trained;
weights in data/hull_*.npz) as ptrnet.views.models shows them."""

from ptrnet import formats
from ptrnet.geometry.degenerate import notes
from ptrnet.geometry.notation import hull_sequence
from ptrnet.handlers.base import InputError, bool_param, handler, model_points, parse_points
from ptrnet.limits import ATTENTION_POINTS, MIN_MODEL_POINTS, SEQ2SEQ_N


def hull_models(n: object) -> tuple[str, ...]:
    """The weights demo 1 needs for n points: the Ptr-Net, and the seq2seq baseline where its output layer has a slot
    for every point (n <= 5)."""
    return ("hull_ptrnet", "hull_seq2seq") if isinstance(n, int) and n <= SEQ2SEQ_N else ("hull_ptrnet",)


@handler("hull-steps", "real", weights=("hull_ptrnet",))
def _hull_steps_real(params: dict) -> dict:
    """The trained Ptr-Net decoding the points' hull greedily, every step's [P1..Pn, ⇐] probabilities (and their
    labels), and the model's measured accuracy at this many points."""
    from ptrnet.views import models

    points = model_points(params, MIN_MODEL_POINTS)
    mask = bool_param(params, "mask", False)
    accuracy = models.hull_accuracy(len(points))
    return {
        "points": points,
        "mask": mask,
        **models.hull_steps(points, mask),
        "hull": hull_sequence(points),
        "notes": notes(points),
        "accuracy": accuracy,
        "text": {"accuracy": models.accuracy_text(accuracy)},
    }


def _slots_real_weights(params: dict) -> tuple[str, ...]:
    """What demo 1's models need for the points sent: nothing to fetch for a request the handler will refuse."""
    points = params.get("points")
    return hull_models(len(points)) if isinstance(points, (list, tuple)) else ()


@handler("slots", "real", weights=_slots_real_weights)
def _slots_real(params: dict) -> dict:
    """Greedy outputs of the trained Ptr-Net and (at n <= 5) of the seq2seq baseline, next to the true hull."""
    from ptrnet.views import models

    points = model_points(params, MIN_MODEL_POINTS)
    return {"points": points, "hull": hull_sequence(points), **models.model_outputs(points)}


@handler("attention-vs-pointer", "solve", weights=("hull_attention", "hull_ptrnet"))
def _attention_vs_pointer(params: dict) -> dict:
    """The article's view beside demo 3: the attention seq2seq and the hull Ptr-Net on 5-10 draggable points."""
    from ptrnet.views import models

    low, high = ATTENTION_POINTS
    points = parse_points(params)
    if not low <= len(points) <= high:
        raise InputError(f"어텐션 seq2seq는 점 {low}–{high}개로 학습해서 점을 {low}개부터 {high}개까지 둘 수 있습니다.")
    truth = hull_sequence(points)
    view = models.attention_vs_pointer(points)
    return {
        "points": points,
        "truth": truth,
        "notes": notes(points),
        **view,
        "text": {"truth": formats.sequence(truth), **view["text"]},
    }
