"""Shared fixtures: the paper's public test data (the repository's checked gzip copies) and SPEC section 2's
7-point reference example."""

import copy

import pytest

from training.data import datasets

REFERENCE_POINTS = [[0.45, 0.45], [0.60, 0.35], [0.15, 0.30], [0.85, 0.75], [0.30, 0.85], [0.80, 0.15], [0.50, 0.65]]
REFERENCE = {
    "points": REFERENCE_POINTS,
    "hull": [3, 6, 4, 5, 3],
    "tsp": [1, 2, 6, 4, 7, 5, 3, 1],
    "tsp_length": 2.6175,  # rounded to 4 decimals in the spec
    "delaunay": [[1, 3, 5], [1, 5, 7], [1, 2, 3], [1, 2, 7], [4, 5, 7], [2, 3, 6], [2, 4, 7], [2, 4, 6]],
}


@pytest.fixture
def reference() -> dict:
    """SPEC section 2's example: 7 points and the expected 1-based answers."""
    return copy.deepcopy(REFERENCE)


def parse_line(line: str) -> tuple[list[list[float]], list[int]]:
    """One line of the paper's data files: 'x1 y1 ... xn yn output i ... i' -> (points, 1-based indices)."""
    coords, output = line.split("output")
    xs = [float(v) for v in coords.split()]
    return [xs[k : k + 2] for k in range(0, len(xs), 2)], [int(v) for v in output.split()]


@pytest.fixture
def read_data():
    """Parsed lines of one of the paper's released files (tests/data/<name>.gz, sha256 checked)."""

    def read(name: str) -> list[tuple[list[list[float]], list[int]]]:
        return [parse_line(line) for line in datasets.official_text(name).splitlines() if line.strip()]

    return read
