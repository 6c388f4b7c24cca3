"""Example files in the paper's text format ('x1 y1 ... xn yn output i ... i', 1-based), the paper's released
test sets (gzip copies in tests/data, checked against the originals' sha256), our TSP test sets labelled by
LKH-3 (tests/data, written by py/training/data/lkh.py write-sets) and our generated test sets."""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ptrnet.pointer import tasks
from training.paths import REPO

Example = tuple[NDArray[np.float64], list[int]]  # (n, 2) points, 1-based target sequence
OFFICIAL_DIR = REPO / "tests" / "data"  # gzip copies of ../shared/data, so that a clone is complete
OFFICIAL = {  # the paper's released files: sha256 of the uncompressed originals
    "convex_hull_5_test.txt": "0e5ba4d58c21f035a18c72403ffc1ef0a4525e8b407369bcb5f4b564561df99e",
    "tsp_10_test_exact.txt": "31ce95d4227e24a23d2d81972cf002b9c18cc2ac11c9f7fbd9da80d6e7b76be8",
}
LKH_SETS = {  # TSP sets above Held-Karp's sizes, tours by LKH-3 (py/training/data/lkh.py write-sets): sha256 as written
    "tsp_20_test_lkh_seed2020.txt": "64f582bfe3da3c60947df64aff1b9f0c82efac4e6ccd7b47f9c46e602e8cf267",
    "tsp_25_test_lkh_seed2025.txt": "37a8f12b51a14dfb6a76c14bb3478933d226d20bbd67708b404efac747ba4736",
    "tsp_30_test_lkh_seed2030.txt": "aaa37e7745066896c799abc2191f18551d22231cf6cddf54ebcf657931202492",
    "tsp_40_test_lkh_seed2040.txt": "031210bb4262aa37528f06f89fbea5458feb471b0377055b711f43d13015d69e",
    "tsp_50_test_lkh_seed2050.txt": "9ca97609226ffd2afb5f3ab8f67671c2720ca20fbe24d502fa82dfa51c5300d9",
}


def format_line(points: NDArray[np.float64], sequence: Sequence[int], decimals: int = 8) -> str:
    """One line of the paper's format (the released hull file has 8 decimals)."""
    coords = " ".join(f"{v:.{decimals}f}" for v in np.asarray(points).reshape(-1))
    return f"{coords} output {' '.join(map(str, sequence))}"


def parse_line(line: str) -> Example:
    """Inverse of format_line."""
    coords, output = line.split("output")
    return np.array(coords.split(), dtype=np.float64).reshape(-1, 2), [int(v) for v in output.split()]


def parse_text(text: str, limit: int | None = None) -> list[Example]:
    """The examples of a whole file's text, up to limit."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return [parse_line(ln) for ln in lines[:limit]]


def write_file(path: str | Path, examples: Iterable[Example]) -> None:
    """Write examples, one line each."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text("".join(format_line(p, s) + "\n" for p, s in examples))


def official_text(name: str, folder: Path = OFFICIAL_DIR) -> str:
    """The text of one of the paper's released files or of our LKH-3 sets, from its gzip copy; refuses a copy
    that differs from the recorded sha256."""
    raw = gzip.decompress((folder / f"{name}.gz").read_bytes())
    if hashlib.sha256(raw).hexdigest() != (OFFICIAL | LKH_SETS)[name]:
        raise ValueError(f"{folder / name}.gz is not the recorded {name} (sha256 differs)")
    return raw.decode("ascii")


def official(name: str, limit: int | None = None) -> list[Example]:
    """Parsed examples of one of the paper's released test files (or of our LKH-3 sets)."""
    return parse_text(official_text(name), limit)


def generated(task: str, n: int, count: int, seed: int, cache_dir: str | Path) -> list[Example]:
    """A generated test set (labels by our exact solvers), written to cache_dir once and read back."""
    path = Path(cache_dir) / f"{task}_{n}_test_seed{seed}_count{count}.txt"
    if not path.exists():
        points, seqs = tasks.generate(task, n, count, seed)
        write_file(path, zip(points, seqs, strict=True))
    return parse_text(path.read_text())
