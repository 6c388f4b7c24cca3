"""`python -m training.hard_cases`: search for point sets where demo 4's shipped hull Ptr-Net hesitates (no candidate
above HESITANT at some step) or errs, one family of hard geometry at a time, and print the hardest of each as the
literal that ptrnet.limits.HULL_PRESETS keeps. Decodes as the page does (ptrnet.views.models, mask off)."""

import argparse
from collections.abc import Callable

import numpy as np

from ptrnet.geometry.degenerate import notes
from ptrnet.geometry.notation import hull_sequence
from ptrnet.limits import HESITANT, POINT_DECIMALS
from ptrnet.pointer import metrics
from ptrnet.views import models

Points = list[list[float]]
MIN_GAP = 0.1  # no two points closer (unit square): on a phone each dot and its labels stay clear of the next
MARGIN = 0.08  # keep the points this far inside the square's edges
TRIES, SEED = 1000, 1  # the search that found the stored presets: random candidates per family, and its seed


def _polygon(rng: np.random.Generator, corners: int) -> np.ndarray:
    """A random convex-ish polygon: `corners` points on an ellipse at jittered angles, counter-clockwise."""
    angles = np.sort(rng.uniform(0, 2 * np.pi, corners))
    centre, radius = rng.uniform(0.45, 0.55, 2), rng.uniform(0.3, 0.4, 2)
    return centre + radius * np.stack([np.cos(angles), np.sin(angles)], axis=1)


def _inside(rng: np.random.Generator, ring: np.ndarray, count: int) -> list[np.ndarray]:
    """`count` points well inside the ring: mixtures of its corners pulled towards the middle."""
    weights = rng.dirichlet(np.ones(len(ring)), count)
    middle = ring.mean(axis=0)
    return list(middle + 0.6 * (weights @ ring - middle))


def _bulge(rng: np.random.Generator, ring: np.ndarray, k: int, offset: float) -> list[np.ndarray]:
    """k points spread along the ring's longest edge, pushed `offset` outwards: all on the hull, nearly in line."""
    edges = np.roll(ring, -1, axis=0) - ring
    e = int(np.argmax(np.linalg.norm(edges, axis=1)))
    a, b = ring[e], ring[(e + 1) % len(ring)]
    normal = np.array([b[1] - a[1], a[0] - b[0]]) / np.linalg.norm(b - a)  # outward for a counter-clockwise ring
    ts = np.sort(rng.uniform(0.2, 0.8, k))
    return [a + t * (b - a) + offset * 4 * t * (1 - t) * normal for t in ts]  # on a shallow parabola


def nearly_collinear(rng: np.random.Generator) -> list[np.ndarray]:
    """Three points bowed just out of one hull edge, so five hull vertices lie almost on one line."""
    ring = _polygon(rng, int(rng.integers(4, 6)))
    return [*ring, *_bulge(rng, ring, 3, rng.uniform(0.01, 0.03)), *_inside(rng, ring, int(rng.integers(1, 3)))]


def just_inside(rng: np.random.Generator) -> list[np.ndarray]:
    """A point just inside the middle of a hull edge: it is not on the hull, but only barely."""
    ring = _polygon(rng, int(rng.integers(5, 7)))
    return [*ring, *_bulge(rng, ring, 1, -rng.uniform(0.01, 0.03)), *_inside(rng, ring, int(rng.integers(1, 3)))]


def just_outside(rng: np.random.Generator) -> list[np.ndarray]:
    """A point just outside the middle of a hull edge: it is a hull vertex, but only barely."""
    ring = _polygon(rng, int(rng.integers(5, 7)))
    return [*ring, *_bulge(rng, ring, 1, rng.uniform(0.01, 0.03)), *_inside(rng, ring, int(rng.integers(1, 3)))]


FAMILIES: dict[str, Callable[[np.random.Generator], list[np.ndarray]]] = {
    "nearly-collinear": nearly_collinear,
    "just-inside": just_inside,
    "just-outside": just_outside,
}


def _usable(points: Points) -> bool:
    """Inside the margins, no two points closer than MIN_GAP, and nothing degenerate for the notes to explain."""
    xy = np.array(points)
    gaps = np.linalg.norm(xy[:, None] - xy[None], axis=2) + np.eye(len(xy))
    return bool(((xy >= MARGIN) & (xy <= 1 - MARGIN)).all() and gaps.min() >= MIN_GAP and not notes(points))


def judge(points: Points) -> dict:
    """How the page's model does on the points: the lowest top probability over its steps, and whether it erred."""
    decoded = models.hull_steps(points, False)
    outcome = metrics.hull_outcome(points, hull_sequence(points), decoded["output"])
    confidence = min(max(step["probs"]) for step in decoded["steps"])
    return {"confidence": confidence, "correct": outcome["correct"]}


def hardest(family: str, tries: int, seed: int) -> tuple[Points, dict] | None:
    """The usable set of a family where the model errs or, failing that, where its least sure step is least sure."""
    rng = np.random.default_rng(seed)
    best = None
    for _ in range(tries):
        raw = FAMILIES[family](rng)
        order = rng.permutation(len(raw))  # the hull's points are not listed first
        points = [[round(float(v), POINT_DECIMALS) for v in raw[k]] for k in order]
        if not _usable(points):
            continue
        verdict = judge(points)
        key = (verdict["correct"], verdict["confidence"])
        if best is None or key < best[0]:
            best = (key, points, verdict)
    return None if best is None else (best[1], best[2])


def main() -> None:
    """Search every family and print what was found."""
    ap = argparse.ArgumentParser(prog="python -m training.hard_cases", description=__doc__)
    ap.add_argument("--tries", type=int, default=TRIES, help="random candidates per family")
    ap.add_argument("--seed", type=int, default=SEED)
    args = ap.parse_args()
    for family in FAMILIES:
        found = hardest(family, args.tries, args.seed)
        if found is None:
            print(f"# {family}: no usable candidate")
            continue
        points, verdict = found
        hard = verdict["confidence"] < HESITANT or not verdict["correct"]
        print(f"# {family}: least sure step {verdict['confidence']:.3f}, correct {verdict['correct']}, hard {hard}")
        print(f'"{family}": {points},')


if __name__ == "__main__":
    main()
