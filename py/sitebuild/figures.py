"""The notation figures of the companion page, drawn at build time from the 7-point example and ptrnet's own
answers (hull, Delaunay, TSP), with the example's facts (its three notations and its tour length), so no
point, triangle or number of the example is typed into a page."""

import re

import numpy as np

from ptrnet import explain, formats
from ptrnet.geometry import notation, tsp
from ptrnet.limits import HULL_EXAMPLE
from sitebuild.shell import BuildError

FIGURE = re.compile(r'(<svg data-figure="(\w+)"[^>]*>\s*<title[^>]*>[^<]*</title>)(.*?)(</svg>)', re.S)
SIDE = 100  # the figures' unit square, in SVG units (y grows downwards)
POINT_R, START_R, ORDER_R = 1.8, 3.6, 2.3  # radii: a point, the start marker, a triangle's order dot
LABEL_GAP = 4.5  # a point's label sits this far from it, away from the example's centre
MARK_NEAR = 15  # a mark (a triangle's order dot) closer than this to a point steers its label away


def _xy(point) -> tuple[float, float]:
    return round(SIDE * point[0], 2), round(SIDE * (1 - point[1]), 2)


def _fmt(value: float) -> str:
    return f"{value:g}"


def _points(points, hollow: set[int] = frozenset()) -> list[str]:
    out = []
    for k, point in enumerate(points, start=1):
        x, y = _xy(point)
        kind = "fig-pt-in" if k in hollow else "fig-pt"
        out.append(f'<circle class="{kind}" cx="{_fmt(x)}" cy="{_fmt(y)}" r="{POINT_R}"/>')
    return out


def _labels(points, edges: list[tuple[int, int]], marks: tuple = ()) -> list[str]:
    """P1..Pn, each put in the direction (of eight) furthest in angle from the figure's edges at that point and
    from its marks (SVG positions) nearby, leaning away from the centre of the points on a tie."""
    xy = np.array([_xy(p) for p in points])
    centre = xy.mean(axis=0)
    out = []
    for k in range(1, len(points) + 1):
        spokes = [xy[b - 1] - xy[a - 1] for a, b in edges if a == k] + [
            xy[a - 1] - xy[b - 1] for a, b in edges if b == k
        ]
        spokes += [np.subtract(m, xy[k - 1]) for m in marks if np.linalg.norm(np.subtract(m, xy[k - 1])) < MARK_NEAR]
        angles = [np.arctan2(dy, dx) for dx, dy in spokes]
        outward = xy[k - 1] - centre

        def clearance(theta: float, angles=angles, outward=outward) -> float:
            gap = min((abs((theta - a + np.pi) % (2 * np.pi) - np.pi) for a in angles), default=np.pi)
            return round(gap, 3) + 1e-3 * (np.cos(theta) * outward[0] + np.sin(theta) * outward[1])

        theta = max(np.arange(8) * np.pi / 4, key=clearance)
        dx, dy = np.cos(theta), np.sin(theta)
        lx, ly = xy[k - 1] + LABEL_GAP * np.array([dx, dy]) + [0, 1.5]  # + 1.5: text hangs from its baseline
        anchor = ' text-anchor="end"' if dx < -0.3 else ' text-anchor="middle"' if abs(dx) <= 0.3 else ""
        out.append(f'<text class="fig-label" x="{_fmt(round(lx, 1))}" y="{_fmt(round(ly, 1))}"{anchor}>P{k}</text>')
    return out


def _arrowed_path(points, order: list[int], edge: str, kind: str) -> list[str]:
    """One edge a segment (class fig-{edge}-edge), an arrowhead at its middle (the marker arrow-{kind})."""
    out = []
    for a, b in zip(order, order[1:], strict=False):
        (x0, y0), (x1, y1) = _xy(points[a - 1]), _xy(points[b - 1])
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        path = f"M{_fmt(x0)} {_fmt(y0)} L{_fmt(mx)} {_fmt(my)} L{_fmt(x1)} {_fmt(y1)}"
        out.append(f'<path class="fig-{edge}-edge" marker-mid="url(#arrow-{kind})" d="{path}"/>')
    return out


def _marker(kind: str) -> str:
    return (
        f'<defs><marker id="arrow-{kind}" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="4.5" '
        f'markerHeight="4.5" orient="auto"><path class="fig-arrow-{kind}" d="M1 1 L9 5 L1 9 Z"/></marker></defs>'
    )


def _start(points, k: int) -> str:
    x, y = _xy(points[k - 1])
    return f'<circle class="fig-pt-start" cx="{_fmt(x)}" cy="{_fmt(y)}" r="{START_R}"/>'


def _frame() -> str:
    return f'<rect class="fig-frame" x="0" y="0" width="{SIDE}" height="{SIDE}"/>'


def hull_figure(points) -> list[str]:
    """The hull as a shaded polygon with arrowed edges from its start; interior points hollow."""
    order = notation.hull_sequence(points)
    corners = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in (_xy(points[k - 1]) for k in order[:-1]))
    interior = set(range(1, len(points) + 1)) - set(order)
    return [
        _marker("hull"),
        _frame(),
        f'<polygon class="fig-hull" points="{corners}"/>',
        *_arrowed_path(points, order, "hull", "hull"),
        _start(points, order[0]),
        *_points(points, interior),
        *_labels(points, list(zip(order, order[1:], strict=False))),
    ]


def delaunay_figure(points) -> list[str]:
    """The triangles, each with its order number on its incentre."""
    triangles = notation.delaunay_sequence(points)
    out = [_frame()]
    for tri in triangles:
        corners = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in (_xy(points[k - 1]) for k in tri))
        out.append(f'<polygon class="fig-tri" points="{corners}"/>')
    centres = [tuple(round(v, 1) for v in _xy(_incentre([points[k - 1] for k in tri]))) for tri in triangles]
    for number, (x, y) in enumerate(centres, start=1):
        out.append(f'<circle class="fig-order-dot" cx="{_fmt(x)}" cy="{_fmt(y)}" r="{ORDER_R}"/>')
        out.append(
            f'<text class="fig-order" x="{_fmt(x)}" y="{_fmt(round(y + 1.2, 1))}" text-anchor="middle">{number}</text>'
        )
    edges = [(a, b) for tri in triangles for a, b in ((tri[0], tri[1]), (tri[1], tri[2]), (tri[0], tri[2]))]
    return [*out, *_points(points), *_labels(points, edges, centres)]


def tsp_figure(points) -> list[str]:
    """The optimal tour with arrowed edges from city 1."""
    order = notation.tsp_sequence(points)
    return [
        _marker("tsp"),
        _frame(),
        *_arrowed_path(points, order, "tour", "tsp"),
        _start(points, 1),
        *_points(points),
        *_labels(points, list(zip(order, order[1:], strict=False))),
    ]


def _incentre(corners) -> np.ndarray:
    a, b, c = (np.asarray(p, dtype=float) for p in corners)
    la, lb, lc = np.linalg.norm(b - c), np.linalg.norm(c - a), np.linalg.norm(a - b)
    return (la * a + lb * b + lc * c) / (la + lb + lc)


FIGURES = {"hull": hull_figure, "delaunay": delaunay_figure, "tsp": tsp_figure}


def example_facts() -> dict[str, str]:
    """The example's answers as the pages write them: its three notations and its optimal tour's length."""
    points = HULL_EXAMPLE
    return {
        "example.hull": formats.sequence(notation.hull_sequence(points)),
        "example.delaunay": formats.triangles(notation.delaunay_sequence(points)),
        "example.tsp": formats.sequence(notation.tsp_sequence(points)),
        "example.tsp_length": formats.fixed(tsp.held_karp(points)[1], formats.LENGTH_DIGITS),
        **_pointer_generator_facts(),
    }


def _pointer_generator_facts() -> dict[str, str]:
    """Demo 7's example: the p_gen at which its most probable word first changes, and the two words."""
    ex = explain.pointer_generator_example()
    p_gen, before, after = explain.pointer_generator_switches(ex["vocab"], ex["attention"], ex["source"])[0]
    return {
        "example.pointer_generator.switch": formats.fixed(p_gen, SWITCH_DIGITS),
        "example.pointer_generator.before": before,
        "example.pointer_generator.after": after,
    }


SWITCH_DIGITS = 3  # the p_gen where demo 7's top word changes, finer than its slider's 0.01 steps


def fill_figures(page: str, name: str) -> str:
    """Draw every <svg data-figure="KIND"> (kept with its <title>) from the example; any other one stops the build."""

    def drawn(match: re.Match) -> str:
        if match.group(2) not in FIGURES:
            raise BuildError(
                f"{name}: unknown figure {match.group(2)!r} (sitebuild.figures.FIGURES: {sorted(FIGURES)})."
            )
        body = "\n".join(FIGURES[match.group(2)](HULL_EXAMPLE))
        return f"{match.group(1)}\n{body}\n{match.group(4)}"

    filled = FIGURE.sub(drawn, page)
    if filled.count("data-figure=") != len(FIGURE.findall(page)):
        raise BuildError(f"{name}: a data-figure that is not <svg data-figure=KIND ...><title>...</title></svg>.")
    return filled
