"""What the browser worker calls: dispatch(demo, fn, params) -> plain, JSON-ready Python values."""

import math
from collections.abc import Callable

import numpy as np

import ptrnet
from ptrnet.notation import delaunay_sequence, hull_sequence, tsp_sequence
from ptrnet.tsp import tour_length

MAX_TSP_POINTS = 12  # Held-Karp runs live on every drag

Handler = Callable[[dict], dict]
HANDLERS: dict[tuple[str, str], Handler] = {}


class InputError(ValueError):
    """A request the page should not have sent; the message is Korean and shown to the reader."""


def handler(demo: str, fn: str) -> Callable[[Handler], Handler]:
    """Register the decorated function as the handler of (demo, fn)."""

    def register(f: Handler) -> Handler:
        HANDLERS[(demo, fn)] = f
        return f

    return register


def dispatch(demo: str, fn: str, params: dict) -> dict:
    """Run the handler registered for (demo, fn) on params."""
    if (demo, fn) not in HANDLERS:
        raise InputError(f"알 수 없는 요청입니다: {demo}/{fn}")
    if not isinstance(params, dict):
        raise InputError("요청 인자는 이름-값 객체여야 합니다.")
    return HANDLERS[(demo, fn)](params)


def parse_points(params: dict) -> list[list[float]]:
    """params["points"] checked as a list of [x, y] finite numbers in [0, 1]."""
    points = params.get("points")
    if not isinstance(points, (list, tuple)):
        raise InputError("점 목록(points)이 필요합니다: [[x, y], ...] 형태의 목록을 보내 주세요.")
    parsed = []
    for p in points:
        if not isinstance(p, (list, tuple)) or len(p) != 2:
            raise InputError("각 점은 [x, y] 두 수로 이루어져야 합니다.")
        if not all(_is_unit_number(v) for v in p):
            raise InputError("점 좌표는 0과 1 사이의 유한한 수여야 합니다.")
        parsed.append([float(p[0]), float(p[1])])
    return parsed


def _is_unit_number(v: object) -> bool:
    """Whether v is a real number (not a bool) that is finite and within [0, 1]."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and 0.0 <= v <= 1.0


def _tsp_points(params: dict) -> list[list[float]]:
    """The checked points of a request that runs Held-Karp, so at most MAX_TSP_POINTS of them."""
    points = parse_points(params)
    if len(points) > MAX_TSP_POINTS:
        raise InputError(f"외판원 문제는 점 {MAX_TSP_POINTS}개까지만 실시간으로 풉니다.")
    return points


def _hull_and_tour(points: list[list[float]]) -> dict:
    """Hull and optimal tour in the canonical notation, plus the tour's length."""
    tsp = tsp_sequence(points)
    return {"hull": hull_sequence(points), "tsp": tsp, "tsp_length": tour_length(points, [i - 1 for i in tsp[:-1]])}


@handler("sequences", "solve")
def _sequences(params: dict) -> dict:
    """Convex hull and optimal tour of up to 12 points."""
    return _hull_and_tour(_tsp_points(params))


@handler("three-problems", "solve")
def _three_problems(params: dict) -> dict:
    """The paper's three problems on up to 12 points."""
    points = _tsp_points(params)
    return {**_hull_and_tour(points), "delaunay": delaunay_sequence(points)}


@handler("runtime", "ping")
def _ping(params: dict) -> dict:
    """Versions of the numpy and ptrnet the runtime has loaded."""
    return {"numpy": np.__version__, "ptrnet": ptrnet.__version__}
