"""The companion page's three SVG figures, drawn at build time (sitebuild.figures), show the example's points
and its exact answers: every point, the hull, the Delaunay triangles in the notation's order and the optimal
tour with its length, checked against scipy and brute force on limits.HULL_EXAMPLE."""

import itertools
import re
from pathlib import Path

import numpy as np
import pytest
from scipy.spatial import ConvexHull, Delaunay

from ptrnet.geometry.notation import delaunay_sequence
from ptrnet.limits import HULL_EXAMPLE
from sitebuild import figures
from sitebuild.shell import BuildError

PAGE = Path(__file__).resolve().parents[2] / "site" / "three-problems.html"
FIGURES = {name: "\n".join(draw(HULL_EXAMPLE)) for name, draw in figures.FIGURES.items()}
POINTS = np.array(HULL_EXAMPLE)


def _brute_force_tour() -> tuple[list[int], float]:
    """The shortest closed tour from point 1 over every order of the others (6! of them)."""

    def length(tour):
        return sum(np.linalg.norm(POINTS[a - 1] - POINTS[b - 1]) for a, b in zip(tour, tour[1:], strict=False))

    tours = ([1, *rest, 1] for rest in itertools.permutations(range(2, len(POINTS) + 1)))
    best = min(tours, key=length)
    return best, length(best)


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


def test_the_hull_figure_is_scipys_hull_counterclockwise_from_its_smallest_corner() -> None:
    svg = FIGURES["hull"]
    corners = [int(k) + 1 for k in ConvexHull(POINTS).vertices]  # counterclockwise
    start = corners.index(min(corners))
    hull = [*corners[start:], *corners[:start], min(corners)]
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
    want = delaunay_sequence(HULL_EXAMPLE)  # the notation's order; the triangles themselves are scipy's
    assert (
        sorted(triangles) == sorted(want) == sorted(sorted(int(k) + 1 for k in t) for t in Delaunay(POINTS).simplices)
    )
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


def test_the_tsp_figure_and_the_facts_give_the_brute_force_optimal_tour_and_its_length() -> None:
    best, length = _brute_force_tour()
    tour = best if best[1] < best[-2] else best[::-1]  # the notation's direction: the smaller second city
    assert _path_ends(FIGURES["tsp"], "fig-tour-edge") == list(zip(tour, tour[1:], strict=False))
    facts = figures.example_facts()
    assert facts["example.tsp_length"] == f"{length:.4f}"
    assert facts["example.tsp"] == "⇒ " + " → ".join(map(str, tour)) + " ⇐"


def test_the_page_asks_for_each_figure_and_an_unknown_one_stops_the_build() -> None:
    page = PAGE.read_text(encoding="utf-8")
    assert sorted(re.findall(r'<svg data-figure="(\w+)"', page)) == sorted(figures.FIGURES)
    filled = figures.fill_figures(page, "three-problems.html")
    assert all(f'data-figure="{name}"' in filled and FIGURES[name] in filled for name in figures.FIGURES)
    with pytest.raises(BuildError, match="unknown figure 'tree'"):
        figures.fill_figures('<svg data-figure="tree" viewBox="0 0 1 1"><title>t</title></svg>', "x.html")
