"""Benchmark of the sorter (demos 5 and 6): training speed and full length evaluation.

Run: python tests/bench/bench_sorter.py. Prints figures, asserts nothing. measure() uses
only ptrnet and the standard library, so the same function can run inside Pyodide.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from ptrnet.sorter import evaluation as sorter_eval
from ptrnet.sorter import model as sorter
from ptrnet.sorter import trainer as sorter_trainer


def _median_seconds(work: Callable[[], object], repeats: int) -> float:
    """Median wall time of calling work() repeats times."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _train_and_evaluate(mask: bool, iterations: int, repeats: int) -> dict[str, float]:
    """Training speed and full-evaluation time with the mask on or off."""
    trainer = sorter_trainer.Trainer(sorter.SorterConfig(mask=mask))
    trainer.train(20)  # warm-up
    seconds = _median_seconds(lambda: trainer.train(iterations), repeats)
    evaluation = _median_seconds(
        lambda: sorter_eval.evaluate(trainer.params, range(5, 51), count=150, mask=mask), repeats
    )
    return {
        f"train_it_per_s_mask_{mask}": iterations / seconds,
        f"chunk_25_ms_mask_{mask}": 1e3 * seconds * 25 / iterations,
        f"evaluate_5_50_s_mask_{mask}": evaluation,
    }


def measure(iterations: int = 500, repeats: int = 3) -> dict[str, float]:
    """Training iterations/s (batch 32, n 5-10) and seconds for evaluating lengths 5-50 x 150."""
    figures = _train_and_evaluate(True, iterations, repeats)
    figures |= _train_and_evaluate(False, iterations, repeats)
    params = sorter.init_params(0)
    x = [i / 50 for i in range(50)]
    figures["heatmap_n50_ms"] = 1e3 * _median_seconds(lambda: sorter_eval.heatmap(params, x, True), 5 * repeats)
    figures["accuracy10_ms"] = 1e3 * _median_seconds(lambda: sorter_eval.accuracy(params), 5 * repeats)
    return figures


if __name__ == "__main__":
    for name, value in measure().items():
        print(f"{name:28s} {value:10.3f}")
