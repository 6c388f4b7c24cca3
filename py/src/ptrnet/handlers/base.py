"""The worker's handler registry and the checks every request's parameters go through (against ptrnet.limits)."""

import math
from collections.abc import Callable
from typing import Any

from ptrnet.limits import HELD_KARP_MAX, MAX_INSTANCE_ID, MAX_MODEL_POINTS

Handler = Callable[[dict], dict]
Weights = tuple[str, ...] | Callable[[dict], tuple[str, ...]]  # weight files (data/<name>.npz), or params -> them
HANDLERS: dict[tuple[str, str], Handler] = {}
WEIGHTS: dict[tuple[str, str], Weights] = {}  # what each handler reads, so the worker fetches it all before one call
FAULTS: set[tuple[str, str]] = set()  # requests that fail once, on purpose (fault-injection tests)
INSTANCES: dict[str, dict[str, Any]] = {
    "sorter": {},
    "nplm": {},
    "ptrnet-trainer": {},
}  # kind -> demo element id -> its live model


class InputError(ValueError):
    """A request the page should not have sent; the message is Korean and shown to the reader."""


def handler(demo: str, fn: str, weights: Weights = ()) -> Callable[[Handler], Handler]:
    """Register the decorated function as the handler of (demo, fn), with the trained weights it reads."""

    def register(f: Handler) -> Handler:
        HANDLERS[(demo, fn)] = f
        WEIGHTS[(demo, fn)] = weights
        return f

    return register


def declared_weights(demo: str, fn: str, params: dict) -> tuple[str, ...]:
    """The weight files the handler of (demo, fn) declares for these params."""
    declared = WEIGHTS.get((demo, fn), ())
    return declared(params) if callable(declared) else declared


def parse_points(params: dict) -> list[list[float]]:
    """params["points"] checked as a list of [x, y] finite numbers in [0, 1]."""
    points = params.get("points")
    if not isinstance(points, (list, tuple)):
        raise InputError("점 목록(points)이 필요합니다: [[x, y], ...] 형태의 목록을 보내 주세요.")
    parsed = []
    for p in points:
        if not isinstance(p, (list, tuple)) or len(p) != 2:
            raise InputError("각 점은 [x, y] 두 수로 이루어져야 합니다.")
        if not all(is_unit_number(v) for v in p):
            raise InputError("점 좌표는 0과 1 사이의 유한한 수여야 합니다.")
        parsed.append([float(p[0]), float(p[1])])
    return parsed


def is_unit_number(v: object) -> bool:
    """Whether v is a real number (not a bool) that is finite and within [0, 1]."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and 0.0 <= v <= 1.0


def is_finite_number(v: object) -> bool:
    """Whether v is a real number (not a bool) that is finite."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def tsp_points(params: dict) -> list[list[float]]:
    """The checked points of a request that runs Held-Karp, so at most HELD_KARP_MAX of them."""
    points = parse_points(params)
    if len(points) > HELD_KARP_MAX:
        raise InputError(f"외판원 문제는 점 {HELD_KARP_MAX}개까지만 실시간으로 풉니다.")
    return points


def model_points(params: dict, low: int) -> list[list[float]]:
    """The checked points of a request to the trained models: low..MAX_MODEL_POINTS of them."""
    points = parse_points(params)
    if not low <= len(points) <= MAX_MODEL_POINTS:
        raise InputError(f"학습된 모델에는 점을 {low}개부터 {MAX_MODEL_POINTS}개까지 보낼 수 있습니다.")
    return points


def int_param(params: dict, name: str, default: int, low: int, high: int) -> int:
    """params[name] as an int within [low, high], or a Korean InputError."""
    v = params.get(name, default)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v != int(v):
        raise InputError(f"{name} 값은 정수여야 합니다.")
    if not low <= v <= high:
        raise InputError(f"{name} 값은 {low}부터 {high} 사이여야 합니다.")
    return int(v)


def bool_param(params: dict, name: str, default: bool) -> bool:
    """params[name] as a bool; anything else (the string "false", 0, 1) is a Korean InputError, not coerced."""
    v = params.get(name, default)
    if not isinstance(v, bool):
        raise InputError(f"{name} 값은 참(true) 또는 거짓(false)이어야 합니다.")
    return v


def instance_param(params: dict) -> str:
    """The demo element a stateful request belongs to: each element keeps its own model in the worker."""
    v = params.get("instance", "main")
    if not isinstance(v, str) or not 0 < len(v) <= MAX_INSTANCE_ID:
        raise InputError(f"instance 값은 1–{MAX_INSTANCE_ID}자의 문자열이어야 합니다.")
    return v


def snapshot_handlers(demo: str, trainer: Callable[[dict], Any], summary: Callable[[Any], dict]) -> None:
    """Register demo's "snapshot" (the instance's whole training state, kept by the page for a restarted worker)
    and "restore" (continue from one, answering with summary) for a trainer with snapshot() and restore()."""

    @handler(demo, "snapshot")
    def _snapshot(params: dict) -> dict:
        return trainer(params).snapshot()

    @handler(demo, "restore")
    def _restore(params: dict) -> dict:
        t = trainer(params)
        try:
            t.restore(params["snapshot"])
        except (KeyError, TypeError, ValueError) as err:
            raise InputError("저장해 둔 학습 상태를 읽을 수 없습니다.") from err
        return summary(t)
