"""The companion page's three hand-drawn SVG figures show the Python example's points and its exact answers:
every point, the hull, the Delaunay triangles in the notation's order and the optimal tour with its length are
checked against ptrnet's own solvers on explain.HULL_EXAMPLE."""

import re
from pathlib import Path

import pytest

from ptrnet.explain import HULL_EXAMPLE
from ptrnet.geometry.notation import delaunay_sequence, hull_sequence, tsp_sequence
from ptrnet.geometry.tsp import tour_length

PAGE = Path(__file__).resolve().parents[2] / "site" / "three-problems.html"
FIGURES = {
    name: re.search(
        rf'<svg[^>]*aria-labelledby="fig-{name}-title">(.*?)</svg>', PAGE.read_text(encoding="utf-8"), re.S
    ).group(1)
    for name in ("hull", "delaunay", "tsp")
}


def _xy(point: list[float]) -> tuple[float, float]:
    """A unit-square point in the figures' coordinates (100 units, y down)."""
    return round(100 * point[0], 6), round(100 * (1 - point[1]), 6)


def _circles(svg: str, cls: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in re.findall(rf'<circle class="{cls}" cx="([\d.]+)" cy="([\d.]+)"', svg)]


def _vertex(svg_point: tuple[float, float]) -> int:
    """The 1-based example point drawn at these figure coordinates."""
    return [_xy(p) for p in HULL_EXAMPLE].index(svg_point) + 1


def _path_ends(svg: str, cls: str) -> list[tuple[int, int]]:
    """Each drawn edge (start and end of its path) as 1-based points, in the page's order."""
    ends = []
    for d in re.findall(rf'<path class="{cls}"[^>]* d="([^"]+)"', svg):
        coords = [tuple(map(float, pair.split())) for pair in re.findall(r"[ML]\s*([\d.]+ [\d.]+)", d)]
        ends.append((_vertex(coords[0]), _vertex(coords[-1])))
    return ends


@pytest.mark.parametrize("name", FIGURES)
def test_every_figure_draws_the_example_points_with_their_labels(name: str) -> None:
    svg = FIGURES[name]
    drawn = set(_circles(svg, "fig-pt")) | set(_circles(svg, "fig-pt-in"))
    assert drawn == {_xy(p) for p in HULL_EXAMPLE}
    labels = [
        (k, float(x), float(y))
        for x, y, k in re.findall(r'<text class="fig-label" x="([\d.]+)" y="([\d.]+)"[^>]*>P(\d+)</text>', svg)
    ]
    assert sorted(int(k) for k, _, _ in labels) == list(range(1, len(HULL_EXAMPLE) + 1))
    for k, x, y in labels:  # each label sits nearer its own point than any other
        nearest = min(
            range(len(HULL_EXAMPLE)),
            key=lambda j: (x - _xy(HULL_EXAMPLE[j])[0]) ** 2 + (y - _xy(HULL_EXAMPLE[j])[1]) ** 2,
        )
        assert nearest + 1 == int(k)


def test_the_hull_figure_is_the_hull_in_the_notations_order() -> None:
    svg = FIGURES["hull"]
    hull = hull_sequence(HULL_EXAMPLE)
    assert _path_ends(svg, "fig-hull-edge") == list(zip(hull, hull[1:], strict=False))
    polygon = [
        tuple(map(float, p.split(","))) for p in re.search(r'class="fig-hull" points="([^"]+)"', svg).group(1).split()
    ]
    assert [_vertex(p) for p in polygon] == hull[:-1]
    assert _circles(svg, "fig-pt-start") == [_xy(HULL_EXAMPLE[hull[0] - 1])]
    inside = {_vertex(p) for p in _circles(svg, "fig-pt-in")}
    assert inside == set(range(1, len(HULL_EXAMPLE) + 1)) - set(hull)


def test_the_delaunay_figure_numbers_the_notations_triangles_in_order() -> None:
    svg = FIGURES["delaunay"]
    triangles = [
        sorted(_vertex(tuple(map(float, p.split(",")))) for p in pts.split())
        for pts in re.findall(r'class="fig-tri" points="([^"]+)"', svg)
    ]
    want = delaunay_sequence(HULL_EXAMPLE)
    assert sorted(triangles) == sorted(want)
    numbers = {
        int(k): (float(x), float(y))
        for x, y, k in re.findall(r'<text class="fig-order" x="([\d.]+)" y="([\d.]+)"[^>]*>(\d+)</text>', svg)
    }
    assert sorted(numbers) == list(range(1, len(want) + 1))
    for k, tri in enumerate(want, 1):  # number k sits inside the notation's k-th triangle
        (ax, ay), (bx, by), (cx, cy) = (_xy(HULL_EXAMPLE[j - 1]) for j in tri)
        x, y = numbers[k]
        signs = [
            (bx - ax) * (y - ay) - (by - ay) * (x - ax),
            (cx - bx) * (y - by) - (cy - by) * (x - bx),
            (ax - cx) * (y - cy) - (ay - cy) * (x - cx),
        ]
        assert all(s > 0 for s in signs) or all(s < 0 for s in signs), k


def test_the_tsp_figure_and_the_text_give_the_optimal_tour_and_its_length() -> None:
    tour = tsp_sequence(HULL_EXAMPLE)
    assert _path_ends(FIGURES["tsp"], "fig-tour-edge") == list(zip(tour, tour[1:], strict=False))
    length = f"{tour_length(HULL_EXAMPLE, [j - 1 for j in tour[:-1]]):.4f}"
    text = PAGE.read_text(encoding="utf-8")
    assert re.findall(r"2\.\d{4}", text) and set(re.findall(r"\b2\.\d{4}\b", text)) == {length}
