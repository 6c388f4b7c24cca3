"""Degenerate point sets, where an answer follows a rule of the notation rather than what the picture
suggests (SPEC section 2), and the notes that tell the reader so: repeated points, fewer than three
places or all points on one line, points on a hull edge, four or more points on one circle."""

from ptrnet.geometry.delaunay import Point, delaunay, distinct_places, incircle
from ptrnet.geometry.hull import convex_hull, orient


def _places(points: list[list[float]]) -> tuple[list[Point], list[int]]:
    """The points as tuples, and the smallest index at each distinct place (as the hull and Delaunay keep)."""
    xy = [(float(x), float(y)) for x, y in points]
    return xy, distinct_places(xy)


def repeated(points: list[list[float]]) -> list[list[int]]:
    """Groups of two or more 0-based indices at the same place, each ascending, by their smallest index."""
    xy, distinct = _places(points)
    groups = [[i for i, p in enumerate(xy) if p == xy[k]] for k in distinct]
    return [g for g in groups if len(g) > 1]


def on_one_line(points: list[list[float]]) -> bool:
    """Whether the points take fewer than three places, or all lie on one line: the hull is no polygon."""
    xy, distinct = _places(points)
    if len(distinct) < 3:
        return True
    a, b = xy[distinct[0]], xy[distinct[1]]
    return all(orient(a, b, xy[c]) == 0 for c in distinct[2:])


def on_hull_edges(points: list[list[float]]) -> list[int]:
    """0-based indices (one per place) of points on a hull edge between two vertices, which are not vertices."""
    xy, distinct = _places(points)
    ring = [distinct[k] for k in convex_hull([xy[i] for i in distinct])]
    if len(ring) < 3:
        return []
    edges = list(zip(ring, ring[1:] + ring[:1], strict=True))
    return [i for i in distinct if i not in ring and any(orient(xy[a], xy[b], xy[i]) == 0 for a, b in edges)]


def cocircular(points: list[list[float]]) -> list[list[int]]:
    """Sets of four or more places (0-based, ascending) on one circle with none inside: there more than one
    triangulation is Delaunay. Two Delaunay triangles share such a circle when the vertex across their common
    edge lies on it; joined that way, each circle's triangles are one group."""
    xy, distinct = _places(points)
    triangles = [[distinct[k] for k in t] for t in delaunay([xy[i] for i in distinct]).tolist()]  # ascending
    sharing: dict[tuple[int, int], list[int]] = {}  # edge (low, high) -> the triangles that have it
    for t, (a, b, c) in enumerate(triangles):
        for edge in ((a, b), (a, c), (b, c)):
            sharing.setdefault(edge, []).append(t)
    group = list(range(len(triangles)))  # union-find: each triangle's representative

    def root(t: int) -> int:
        while group[t] != t:
            t = group[t]
        return t

    for edge, pair in sharing.items():
        if len(pair) == 2:
            a, b, c = triangles[pair[0]]
            if orient(xy[a], xy[b], xy[c]) < 0:
                b, c = c, b
            (d,) = set(triangles[pair[1]]) - set(edge)
            if incircle(xy[a], xy[b], xy[c], xy[d]) == 0:
                group[root(pair[0])] = root(pair[1])
    circles: dict[int, set[int]] = {}
    for t, corners in enumerate(triangles):
        circles.setdefault(root(t), set()).update(corners)
    return sorted(sorted(on) for on in circles.values() if len(on) > 3)


def notes(points: list[list[float]], triangulation: bool = False) -> list[str]:
    """Korean sentences for the reader, one per degeneracy; triangulation: the page shows Delaunay too."""
    said = []
    if groups := repeated(points):
        listed = ", ".join(" = ".join(f"P{i + 1}" for i in g) for g in groups)
        shapes = "볼록 껍질과 들로네 삼각분할" if triangulation else "볼록 껍질"
        said.append(f"같은 자리에 겹친 점이 있습니다({listed}). {shapes}에는 그중 번호가 가장 작은 점만 나옵니다.")
    if on_one_line(points):
        said.append(_no_polygon(points, triangulation))
        return said
    if edge := on_hull_edges(points):
        said.append(f"볼록 껍질의 변 위에 놓인 점({_names(edge)})은 꼭짓점으로 세지 않습니다.")
    if triangulation and (circles := cocircular(points)):
        listed = "; ".join(_names(g) for g in circles)
        said.append(
            f"한 원 위에 네 점 이상이 놓여 있습니다({listed}). 이럴 때 들로네 삼각분할은 하나로 정해지지 않아, "
            "정해진 규칙에 따라 그중 하나를 보여 줍니다."
        )
    return said


def _names(indices: list[int]) -> str:
    """0-based indices as the page names them: P1, P4, P7."""
    return ", ".join(f"P{i + 1}" for i in sorted(indices))


def _no_polygon(points: list[list[float]], triangulation: bool) -> str:
    """What the hull (and the triangulation) are when the points take fewer than three places or lie on one line."""
    xy, distinct = _places(points)
    if not distinct:
        return "점이 하나도 없어 답도 비어 있습니다."
    if len(xy) == 1:
        hull = "점이 하나뿐이라 볼록 껍질은 그 점 하나입니다."
    elif len(distinct) == 1:
        hull = "모든 점이 한 자리에 있어 볼록 껍질은 점 하나입니다."
    elif len(distinct) == 2:
        hull = "서로 다른 자리가 두 곳뿐이라 볼록 껍질은 두 점을 잇는 선분입니다."
    else:
        ends = [distinct[k] for k in convex_hull([xy[i] for i in distinct])]
        hull = f"모든 점이 한 직선 위에 있어 볼록 껍질은 양 끝점({_names(ends)})을 잇는 선분이고, 그 사이의 점은 꼭짓점으로 세지 않습니다."
    return hull + (" 삼각형은 하나도 생기지 않습니다." if triangulation else "")
