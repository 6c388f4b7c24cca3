"""Where demo 7's most probable word changes as p_gen grows, against a fine scan of the mixture."""

import numpy as np
import pytest

from ptrnet import explain


def _top_by_scan(ex: dict, grid: np.ndarray) -> list[str]:
    return [explain.mix_pointer_generator(float(p), ex["vocab"], ex["attention"], ex["source"])["chosen"] for p in grid]


def test_the_switches_are_where_a_fine_scan_sees_the_top_word_change() -> None:
    ex = explain.pointer_generator_example()
    grid = np.linspace(0.0, 1.0, 100_001)
    tops = _top_by_scan(ex, grid)
    scanned = [(grid[k], tops[k - 1], tops[k]) for k in range(1, len(grid)) if tops[k] != tops[k - 1]]
    switches = explain.pointer_generator_switches(ex["vocab"], ex["attention"], ex["source"])
    assert [(b, a) for _, b, a in switches] == [(b, a) for _, b, a in scanned]
    for (p, *_), (q, *_) in zip(switches, scanned, strict=True):
        assert p == pytest.approx(q, abs=1e-5)  # the scan's step


def test_the_first_switch_is_where_the_copied_name_and_the_generated_word_are_equally_likely() -> None:
    ex = explain.pointer_generator_example()
    p, before, after = explain.pointer_generator_switches(ex["vocab"], ex["attention"], ex["source"])[0]
    final = explain.mix_pointer_generator(p, ex["vocab"], ex["attention"], ex["source"])["final"]
    assert final[before] == pytest.approx(final[after], abs=1e-12)
    assert ex["vocab"].get(before, 0.0) == 0.0 and before in ex["source"]  # a word only copying can give


def test_two_words_that_never_cross_give_no_switch() -> None:
    switches = explain.pointer_generator_switches({"a": 0.9, "b": 0.1}, [0.8, 0.2], ["a", "b"])
    assert switches == []
