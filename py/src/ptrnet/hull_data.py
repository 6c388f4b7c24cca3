"""Convex-hull examples in the paper's text format: 'x1 y1 ... xn yn output i ... i' (1-based, start repeated)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ptrnet.notation import hull_sequence

Example = tuple[NDArray[np.float64], list[int]]  # (n, 2) points, 1-based hull sequence
TEST_SEEDS = {10: 1010, 50: 1050}  # seeds of the generated test sets (n -> seed), apart from training seeds
TEST_COUNT = 1000  # lines per generated test set


def generate(n: int | Sequence[int], count: int, seed: int) -> list[Example]:
    """count examples of n points (or n drawn from a list) uniform in [0, 1]^2, rounded to 8 decimals."""
    rng = np.random.default_rng(seed)
    sizes = rng.choice(np.asarray(n), count) if not isinstance(n, int) else np.full(count, n)
    out = []
    for k in sizes.tolist():
        pts = rng.random((k, 2)).round(8)  # (k, 2) as written in the text format
        out.append((pts, hull_sequence(pts)))
    return out


def format_line(points: NDArray[np.float64], sequence: Sequence[int]) -> str:
    """One line of the paper's format (8 decimals, as in the released files)."""
    coords = " ".join(f"{v:.8f}" for v in np.asarray(points).reshape(-1))
    return f"{coords} output {' '.join(map(str, sequence))}"


def parse_line(line: str) -> Example:
    """Inverse of format_line."""
    coords, output = line.split("output")
    return np.array(coords.split(), dtype=np.float64).reshape(-1, 2), [int(v) for v in output.split()]


def write_file(path: str | Path, examples: Iterable[Example]) -> None:
    """Write examples, one line each."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text("".join(format_line(p, s) + "\n" for p, s in examples))


def read_file(path: str | Path, limit: int | None = None) -> list[Example]:
    """Read up to limit examples from a file in the paper's format."""
    lines = [ln for ln in Path(path).read_text().splitlines() if ln.strip()]
    return [parse_line(ln) for ln in lines[:limit]]


def test_set(n: int, cache_dir: str | Path) -> list[Example]:
    """The generated test set for n (TEST_COUNT lines, seed TEST_SEEDS[n]), written to cache_dir once and read back."""
    path = Path(cache_dir) / f"convex_hull_{n}_test_seed{TEST_SEEDS[n]}.txt"
    if not path.exists():
        write_file(path, generate(n, TEST_COUNT, TEST_SEEDS[n]))
    return read_file(path)
