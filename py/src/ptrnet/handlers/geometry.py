"""Demo 2 [sequences] and the companion page [three-problems]: exact answers, and our models beside them."""

from ptrnet.geometry.degenerate import notes
from ptrnet.geometry.notation import delaunay_sequence, format_sequence, format_triangles, hull_sequence, tsp_sequence
from ptrnet.geometry.tsp import tour_length
from ptrnet.handlers.base import bool_param, handler, tsp_points
from ptrnet.pointer.tasks import SPECS


def _hull_and_tour(points: list[list[float]], triangulation: bool = False) -> dict:
    """Hull and optimal tour in the canonical notation, the tour's length, and notes on a degenerate point set
    (triangulation: the answer will show Delaunay too)."""
    hull, tsp = hull_sequence(points), tsp_sequence(points)
    return {
        "hull": hull,
        "tsp": tsp,
        "tsp_length": tour_length(points, [i - 1 for i in tsp[:-1]]),
        "notes": notes(points, triangulation),
        "text": {"hull": format_sequence(hull), "tsp": format_sequence(tsp)},
    }


@handler("sequences", "solve")
def _sequences(params: dict) -> dict:
    """Convex hull and optimal tour of up to 12 points."""
    return _hull_and_tour(tsp_points(params))


@handler("three-problems", "solve", weights=(*(f"{task}_ptrnet" for task in SPECS), "tsp_ptrnet_a1"))
def _three_problems(params: dict) -> dict:
    """The paper's three problems on up to 12 points: exact answers, our trained Ptr-Nets' answers and, beside the
    optimal tour, A1's and that of the Ptr-Net taught by A1."""
    from ptrnet.pointer import trained

    points = tsp_points(params)
    exact = _hull_and_tour(points, triangulation=True)
    exact["delaunay"] = delaunay_sequence(points)
    exact["text"]["delaunay"] = format_triangles(exact["delaunay"])
    models = trained.three_models(points, exact, vote=bool_param(params, "vote", False))
    return {"points": points, **exact, **models, "text": exact["text"] | models["text"]}
