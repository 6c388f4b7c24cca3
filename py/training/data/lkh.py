"""Near-optimal TSP tours from LKH-3 (the PyPI package elkai) for sizes Held-Karp cannot label in time.

Training side only: never in the wheel or the site. Tours come in the notation's form (from P1, second city
smaller than the second-to-last), so they can stand in for ptrnet.geometry.notation.tsp_sequence.

    PYTHONPATH=py/src:py python -m training.data.lkh check      # LKH-3 against Held-Karp on 200 sets, n = 12..14
    PYTHONPATH=py/src:py python -m training.data.lkh write-sets # the evaluation's TSP test sets above Held-Karp's sizes
    PYTHONPATH=py/src:py python -m training.data.lkh write-runner-tours # the experiment runner's reference tours
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
from pathlib import Path

import elkai
import numpy as np

from ptrnet.geometry.notation import tsp_sequence
from ptrnet.geometry.tsp import tour_length
from ptrnet.limits import HELD_KARP_MAX
from ptrnet.pointer import tasks
from training.data import datasets
from training.paths import PACKAGE_DATA

SCALE = 10_000_000  # LKH-3 works on integer distances: coordinates in [0, 1] are scaled by this and rounded
RUNS = 10  # LKH-3 restarts per instance (elkai's default)
TEST_SETS = {20: 1000, 25: 1000, 30: 1000, 40: 1000, 50: 1000}  # n -> sets of the evaluation's LKH-3 test files
TEST_SEED = 2000  # the file for n draws its points with seed TEST_SEED + n (tasks.random_points)


def lkh_tour(points: np.ndarray) -> list[int]:
    """LKH-3's tour of the points, 1-based from city 1 back to 1, second city smaller than the second-to-last."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)  # (n, 2)
    dist = np.sqrt(((pts[:, None, :] - pts[None, :, :]) ** 2).sum(axis=2))  # (n, n)
    tour = elkai.DistanceMatrix(np.rint(dist * SCALE).astype(np.int64).tolist()).solve_tsp(runs=RUNS)[:-1]
    k = tour.index(0)
    tour = tour[k:] + tour[:k]  # from city 0
    if tour[1] > tour[-1]:
        tour = [0] + tour[:0:-1]
    return [j + 1 for j in tour] + [1]


def tsp_label(points: np.ndarray) -> list[int]:
    """The training label of a TSP instance: Held-Karp's optimal tour up to HELD_KARP_MAX cities, LKH-3's above."""
    return tsp_sequence(points) if len(points) <= HELD_KARP_MAX else lkh_tour(points)


def check(sizes: tuple[int, ...], per_size: int, seed: int) -> dict:
    """LKH-3's tour length against Held-Karp's on random sets: the largest relative excess per size."""
    report = {}
    for n in sizes:
        points, _ = tasks.generate("tsp", n, per_size, seed + n)
        excess = []
        for p in points:
            exact = tour_length(p, np.array(tsp_sequence(p)[:-1]) - 1)
            lkh = tour_length(p, np.array(lkh_tour(p)[:-1]) - 1)
            excess.append(lkh / exact - 1.0)
        report[n] = {
            "sets": per_size,
            "max_excess": float(max(excess)),
            "same_length": int(sum(e < 1e-9 for e in excess)),
        }
        print(
            f"n = {n}: {report[n]['same_length']}/{per_size} same length, largest excess {max(excess):.2e}", flush=True
        )
    return report


def test_file_name(n: int) -> str:
    """The name of the LKH-3-labelled TSP test file of n cities."""
    return f"tsp_{n}_test_lkh_seed{TEST_SEED + n}.txt"


def write_sets(folder: Path) -> None:
    """Write each gzip test file of TEST_SETS (the paper's text format) and print its name and sha256."""
    for n, count in TEST_SETS.items():
        rng = np.random.default_rng(TEST_SEED + n)
        points = [tasks.random_points(rng, n) for _ in range(count)]
        text = "".join(datasets.format_line(p, lkh_tour(p)) + "\n" for p in points).encode("ascii")
        name = test_file_name(n)
        (folder / f"{name}.gz").write_bytes(gzip.compress(text, mtime=0))
        print(f'"{name}": "{hashlib.sha256(text).hexdigest()}",', flush=True)


def write_runner_tours(out: Path) -> None:
    """LKH-3 tours of the experiment runner's seeded TSP sets above Held-Karp's sizes, as its data file."""
    from ptrnet.experiments import runner

    arrays = {}
    for seed in runner.REFERENCE_SEEDS:
        for n in runner.REFERENCE_SIZES:
            tours = [lkh_tour(runner.point_set(seed, n, i))[:-1] for i in range(runner.REFERENCE_SETS)]
            arrays[f"s{seed}_n{n}"] = np.array(tours, dtype=np.uint8) - 1  # (sets, n) 0-based from city 0
    np.savez_compressed(out / f"{runner.REFERENCE_FILE}.npz", **arrays)
    print(f"wrote {out / runner.REFERENCE_FILE}.npz: {len(arrays)} arrays", flush=True)


def main() -> None:
    """Command line: check LKH-3 against Held-Karp, or write the LKH-3 test files."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    ck = sub.add_parser("check")
    ck.add_argument("--sizes", type=int, nargs="+", default=[12, 13, 14])
    ck.add_argument("--per-size", type=int, default=200)
    ck.add_argument("--seed", type=int, default=4242)
    ws = sub.add_parser("write-sets")
    ws.add_argument("--out", type=Path, default=datasets.OFFICIAL_DIR)
    wr = sub.add_parser("write-runner-tours")
    wr.add_argument("--out", type=Path, default=PACKAGE_DATA)
    args = ap.parse_args()
    if args.cmd == "check":
        check(tuple(args.sizes), args.per_size, args.seed)
    elif args.cmd == "write-sets":
        write_sets(args.out)
    else:
        write_runner_tours(args.out)


if __name__ == "__main__":
    main()
