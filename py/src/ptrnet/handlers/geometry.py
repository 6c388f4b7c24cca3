"""Demo 2 [sequences], the companion page [three-problems] and the article's A1 figure [tsp-student]: exact answers,
and our models beside them."""

from ptrnet import formats
from ptrnet.geometry.degenerate import notes
from ptrnet.geometry.notation import delaunay_sequence, hull_sequence, tsp_sequence
from ptrnet.geometry.tsp import tour_length
from ptrnet.handlers.base import INSTANCES, InputError, bool_param, handler, model_points, tsp_points
from ptrnet.limits import MIN_MODEL_POINTS
from ptrnet.pointer.tasks import SPECS


def _hull_and_tour(points: list[list[float]], triangulation: bool = False) -> dict:
    """Hull and optimal tour in the canonical notation, the tour's length, and notes on a degenerate point set
    (triangulation: the answer will show Delaunay too)."""
    hull, tsp = hull_sequence(points), tsp_sequence(points)
    length = tour_length(points, [i - 1 for i in tsp[:-1]])
    return {
        "hull": hull,
        "tsp": tsp,
        "tsp_length": length,
        "notes": notes(points, triangulation),
        "text": {
            "hull": formats.sequence(hull),
            "tsp": formats.sequence(tsp),
            "tsp_length": formats.fixed(length, formats.LENGTH_DIGITS),
        },
    }


@handler("sequences", "solve")
def _sequences(params: dict) -> dict:
    """Convex hull and optimal tour of up to HELD_KARP_MAX points (ptrnet.limits)."""
    return _hull_and_tour(tsp_points(params))


def _three_problems_weights(params: dict) -> tuple[str, ...]:
    """The three problems' Ptr-Nets, and the A1-taught one only where its tour is asked for."""
    student = ("tsp_ptrnet_a1",) if params.get("student") is True else ()
    return (*(f"{task}_ptrnet" for task in SPECS), *student)


@handler("three-problems", "solve", weights=_three_problems_weights)
def _three_problems(params: dict) -> dict:
    """The paper's three problems on up to HELD_KARP_MAX points: exact answers, our trained Ptr-Nets' answers and,
    beside the optimal tour, A1's and, where params["student"] asks (its drag costs a fifth more), that of the
    Ptr-Net taught by A1 (ptrnet.views.companion); where params["mine"] names a [ptrnet-trainer] instance, the
    reader's hull model beside ours."""
    from ptrnet.views import companion

    points = tsp_points(params)
    exact = _hull_and_tour(points, triangulation=True)
    exact["delaunay"] = delaunay_sequence(points)
    exact["text"]["delaunay"] = formats.triangles(exact["delaunay"])
    models = companion.three_models(
        points, exact, vote=bool_param(params, "vote", False), student=bool_param(params, "student", False)
    )
    if "mine" in params:
        mine = companion.mine_hull(points, exact, _readers_trainer(params["mine"]))
        models |= mine | {"text": models["text"] | mine["text"]}
    return {"points": points, **exact, **models, "text": exact["text"] | models["text"]}


def _readers_trainer(instance: object):
    """The trainer of the [ptrnet-trainer] instance named, None where the page has not made it yet."""
    if not isinstance(instance, str):
        raise InputError("mine 값은 학습 데모의 instance 이름(문자열)이어야 합니다.")
    reader = INSTANCES["ptrnet-trainer"].get(instance)
    return None if reader is None else reader.trainer


@handler("tsp-student", "solve", weights=("tsp_ptrnet_a1",))
def _tsp_student(params: dict) -> dict:
    """The optimal tour of 3..MAX_MODEL_POINTS points beside A1's and that of the Ptr-Net taught only by A1, as the
    companion page's TSP panel writes them (ptrnet.views.companion)."""
    from ptrnet.views import companion

    points = model_points(params, MIN_MODEL_POINTS)
    exact = _hull_and_tour(points)
    tours = companion.tours_beside(points, exact["tsp_length"])
    return {"points": points, **exact, **tours, "text": exact["text"] | tours["text"]}
