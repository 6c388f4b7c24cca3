"""Demos 1, 3, 4 and 7 with their illustrative or computed values; the maths lives in ptrnet.explain."""

import math

from ptrnet import explain, formats
from ptrnet.geometry.notation import hull_sequence
from ptrnet.handlers.base import InputError, bool_param, handler, int_param, is_finite_number, is_unit_number
from ptrnet.handlers.models import hull_models
from ptrnet.limits import HULL_EXAMPLE, MAX_SEED, SLOT_DEFAULTS, SLOT_N


@handler(
    "slots",
    "solve",
    weights=lambda params: (
        hull_models(params.get("n", SLOT_DEFAULTS["n"])) if params.get("models", True) is not False else ()
    ),
)
def _slots(params: dict) -> dict:
    """n random points, their hull, and the output slots of a seq2seq trained at n = 5 against the Ptr-Net's n + 1.

    models=False leaves out the trained models' answers ("real": None), which need their weights: the page
    asks for them once the demo comes near the screen.
    """
    n = int_param(params, "n", SLOT_DEFAULTS["n"], *SLOT_N)
    points = explain.random_points(n, int_param(params, "seed", 1, 0, MAX_SEED))
    hull = hull_sequence(points)
    real = None
    if bool_param(params, "models", True):
        from ptrnet.views import models  # the trained models' code only once the page asks for them

        real = models.model_outputs(points)
    return {
        "points": points,
        "hull": hull,
        "text": {"hull": formats.sequence(hull)},
        **explain.slot_counts(hull, n),
        "real": real,
    }


@handler("mix-vs-point", "solve")
def _mix_vs_point(params: dict) -> dict:
    """Dot-product attention of the decoder vector d (clamped to length 8) over the five fixed encoder states."""
    d = params.get("d", [1.0, 0.5])
    if not isinstance(d, (list, tuple)) or len(d) != 2 or not all(is_finite_number(v) for v in d):
        raise InputError("디코더 벡터 d는 유한한 두 수 [dx, dy]여야 합니다.")
    out = explain.attention(explain.ENCODERS, explain.clamp_length(d))
    text = {
        "weights": [formats.fixed(a, formats.WEIGHT_DIGITS) for a in out["weights"]],
        "shares": [formats.percent(a) for a in out["weights"]],  # the bars' labels
        "d": formats.vector(out["d"], formats.VECTOR_DIGITS),
        "d_length": formats.fixed(math.hypot(*out["d"]), formats.VECTOR_DIGITS),
        "mixed": formats.vector(out["mixed"], formats.VECTOR_DIGITS),
        "max_weight": formats.fixed(out["max_weight"], formats.WEIGHT_DIGITS),
        "entropy": formats.fixed(out["entropy"], formats.ENTROPY_DIGITS),
    }
    return {**out, "text": text}


@handler("hull-steps", "solve")
def _hull_steps(params: dict) -> dict:
    """One step of decoding the 7-point example's hull, with or without the mask (illustrative probabilities)."""
    step = int_param(params, "step", 1, 1, explain.HULL_STEPS)
    mask = bool_param(params, "mask", False)
    shown = explain.hull_step(step, mask)
    text = {"probs": formats.candidates(shown["probs"], shown["masked"])}
    return {"points": HULL_EXAMPLE, "step": step, **shown, "text": text, "illustrative": True}


@handler("pointer-generator", "solve")
def _pointer_generator(params: dict) -> dict:
    """Generate or copy: the final word distribution of the illustrative example at p_gen."""
    p_gen = params.get("p_gen", 0.3)
    if not is_unit_number(p_gen):
        raise InputError("p_gen 값은 0과 1 사이의 유한한 수여야 합니다.")
    ex = explain.pointer_generator_example()
    mix = explain.mix_pointer_generator(float(p_gen), ex["vocab"], ex["attention"], ex["source"])
    oov = [w not in ex["vocab"] for w in ex["source"]]
    text = {
        "p_gen": formats.fixed(float(p_gen), formats.P_GEN_DIGITS),
        "copy_share": formats.fixed(1 - float(p_gen), formats.P_GEN_DIGITS),  # 1 − p_gen in the formula line
        "top": formats.top_shares(mix["final"], formats.TOP_WORDS),
        # the bars' labels
        "attention": [formats.percent(a) for a in ex["attention"]],
        "vocab": {w: formats.percent(p) for w, p in ex["vocab"].items()},
        "final": {w: formats.percent(p) for w, p in mix["final"].items()},
    }
    return {**ex, "oov": oov, **mix, "p_gen": float(p_gen), "illustrative": True, "text": text}
