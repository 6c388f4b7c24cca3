"""The experiment runner measures through the offline evaluation's code: the same numbers on the same sets,
whatever the chunks (their sums merge into the whole run's); its failures are real failures by scipy's hull; its
settings are checked in Korean; its table is written by ptrnet.formats."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from scipy.spatial import ConvexHull

from ptrnet import api
from ptrnet.experiments import runner
from ptrnet.geometry import baselines
from ptrnet.geometry.hull import near_collinearity
from ptrnet.geometry.notation import hull_sequence, tsp_sequence
from ptrnet.geometry.tsp import tour_length
from ptrnet.pointer import answers, tasks, weights
from ptrnet.views import experiments as view
from training.reports import evaluation


def _examples(task: str, n: int, seed: int, count: int) -> list:
    points = [runner.point_set(seed, n, i) for i in range(count)]
    return [(p, tasks.SPECS[task].label(p)) for p in points]


@pytest.mark.parametrize(
    ("model", "n", "decoding"),
    [
        ("hull", 10, "greedy"),
        ("hull", 50, "beam"),
        ("delaunay", 7, "beam"),
        ("tsp", 9, "beam"),
        ("seq2seq-5", 5, "greedy"),
        ("seq2seq-10", 10, "greedy"),
        ("seq2seq-50", 50, "greedy"),
        ("attention-10", 7, "greedy"),
    ],
)
def test_a_runner_row_is_the_offline_evaluation_of_the_same_sets(model: str, n: int, decoding: str) -> None:
    m = runner.MODELS[model]
    examples = _examples(m.task, n, 7, 40)
    width = 1 if decoding == "greedy" else tasks.SPECS[m.task].beam_width
    offline = evaluation.measure(weights.shipped(m.weights), m.task, examples, width)
    row = runner.row(model, n, runner.measure(model, n, 7, 0, 40, decoding)["sums"])
    assert row["sets"] == 40
    if m.task == "tsp":
        assert row["mean_length"] == pytest.approx(offline["mean_length"], abs=1e-12)
        assert row["reference"] == pytest.approx(offline["optimal"], abs=1e-12)
        assert row["invalid"] == 1 - offline["valid"]
        assert row["a1"] == pytest.approx(evaluation.baseline_lengths(examples, ("A1",))["A1"], abs=1e-12)
    else:
        assert {k: row[k] for k in offline} == pytest.approx(offline, abs=1e-12)


@pytest.mark.parametrize(("model", "n"), [("hull", 20), ("tsp", 9), ("tsp-a1", 20), ("delaunay", 7)])
def test_the_merged_sums_of_chunks_are_the_sums_of_the_whole_run(model: str, n: int) -> None:
    whole = runner.measure(model, n, 3, 0, 30, "greedy")
    parts = [runner.measure(model, n, 3, start, count, "greedy") for start, count in ((0, 7), (7, 16), (23, 7))]
    merged = runner.merged([p["sums"] for p in parts])
    assert merged.keys() == whole["sums"].keys() and merged["sets"] == 30
    for key, value in whole["sums"].items():
        if isinstance(value, int):
            assert merged[key] == value, key  # counts: exactly
        else:
            assert merged[key] == pytest.approx(value, rel=1e-12), key  # float totals: up to the order of adding
    assert runner.row(model, n, merged) == pytest.approx(runner.row(model, n, whole["sums"]), rel=1e-12)
    assert [f for p in parts for f in p["failures"]] == whole["failures"]


def test_a_chunks_reply_carries_its_own_sums_not_its_sets() -> None:
    small, large = (api.call("experiments", "measure", _chunk(count)) for count in (5, 80))
    assert small["ok"] and large["ok"] and large["result"]["sums"]["sets"] == 80
    size = lambda reply: len(json.dumps({k: v for k, v in reply["result"].items() if k != "failures"}))  # noqa: E731
    assert size(large) < size(small) + 20  # only the counts' digits grow


def _chunk(count: int) -> dict:
    return {"model": "hull", "sizes": [10], "sets": 100, "seed": 4, "n": 10, "start": 0, "count": count}


def test_hull_failures_are_exactly_the_sets_where_the_model_misses_scipys_hull() -> None:
    result = runner.measure("hull", 50, 11, 0, 60, "greedy")
    failed = {f["index"]: f for f in result["failures"]}
    assert failed, "the hull model is not perfect at n = 50"
    points = [runner.point_set(11, 50, i) for i in range(60)]
    decoded = answers.decode(weights.shipped("hull_ptrnet"), "hull", points, "greedy")  # the model, asked directly
    for i, (p, answer) in enumerate(zip(points, decoded, strict=True)):
        ring = ConvexHull(p).vertices + 1  # counter-clockwise, scipy's own start
        k = int(np.argmin(ring))
        truth = [*ring[k:], *ring[:k], ring[k]]
        assert (i in failed) == (answer != truth)
        if i in failed:
            assert failed[i]["model"] == answer and failed[i]["truth"] == truth and failed[i]["points"] == p.tolist()
    assert result["sums"]["correct"] == 60 - len(failed)


def test_tsp_failures_are_longer_than_the_reference_tour() -> None:
    result = runner.measure("tsp-a1", 8, 2, 0, 20, "greedy")
    for f in result["failures"]:
        points = np.array(f["points"])
        assert tour_length(points, np.array(f["model"][:-1]) - 1) > tour_length(points, np.array(f["truth"][:-1]) - 1)
        assert f["truth"] == tsp_sequence(points)


def test_the_shipped_reference_tours_are_tours_of_the_seeded_sets_no_heuristic_beats() -> None:
    tours = weights.shipped(runner.REFERENCE_FILE, np.int64)
    for seed in runner.REFERENCE_SEEDS:
        for n in runner.REFERENCE_SIZES:
            table = tours[f"s{seed}_n{n}"]
            assert table.shape == (runner.REFERENCE_SETS, n)
            for i in range(0, runner.REFERENCE_SETS, 10):
                points = runner.point_set(seed, n, i)
                assert sorted(table[i].tolist()) == list(range(n))
                best = tour_length(points, table[i])
                for name in ("A2", "A3"):
                    assert best <= tour_length(points, baselines.ALGORITHMS[name](points)) + 1e-9


def test_near_collinearity_is_the_smallest_point_to_edge_line_distance_by_brute_force() -> None:
    rng = np.random.default_rng(4)
    for _ in range(50):
        points = rng.random((int(rng.integers(4, 12)), 2))
        ring = [j - 1 for j in hull_sequence(points)]
        best = np.inf
        for a, b in itertools.pairwise(ring):
            for k, p in enumerate(points):
                if k not in (a, b):
                    d = points[b] - points[a]
                    best = min(best, abs(d[0] * (p[1] - points[a][1]) - d[1] * (p[0] - points[a][0])) / np.hypot(*d))
        assert near_collinearity(points) == pytest.approx(best, rel=1e-12)


def test_the_collinearity_chart_counts_every_set_once() -> None:
    result = runner.measure("hull", 30, 5, 0, 80, "greedy")
    chart = runner.collinearity(result["sums"])
    assert len(chart["bins"]) == len(chart["sets"]) == len(chart["error_rate"])
    closeness = [near_collinearity(runner.point_set(5, 30, i)) for i in range(80)]
    for (lo, hi), sets in zip(chart["bins"], chart["sets"], strict=True):
        assert sets == sum(lo <= c < (hi if hi is not None else np.inf) for c in closeness)
    wrong = len(result["failures"])
    assert sum((r or 0) * s for r, s in zip(chart["error_rate"], chart["sets"], strict=True)) == pytest.approx(wrong)


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"model": "hull", "sizes": [5, 7000], "sets": 10}, "쓸 수 없는 크기"),
        ({"model": "hull", "sizes": [5], "sets": 0}, "sets 값은"),
        ({"model": "hull", "sizes": "5,10", "sets": 10}, "정수 목록"),
        ({"model": "hull", "sizes": [5], "sets": "열"}, "정수여야"),
        ({"model": "hull", "sizes": [500], "sets": 300}, "200개까지"),
        ({"model": "seq2seq-5", "sizes": [5], "sets": 10, "decoding": "beam"}, "탐욕 디코딩으로만"),
        ({"model": "tsp", "sizes": [20], "sets": 10, "seed": 99}, "시드"),
        ({"model": "tsp", "sizes": [15], "sets": 10, "seed": 1}, "쓸 수 없는 크기"),
        ({"model": "gpt", "sizes": [5], "sets": 10}, "알 수 없는 모델"),
    ],
)
def test_bad_settings_get_a_korean_message(params: dict, words: str) -> None:
    reply = api.call("experiments", "plan", params)
    assert not reply["ok"] and reply["error"]["kind"] == "input" and words in reply["error"]["message"]


def test_a_plan_estimates_every_size_and_a_summary_sums_up_chunks() -> None:
    plan = api.call("experiments", "plan", {"model": "hull", "sizes": [10, 5], "sets": 20, "seed": 4})["result"]
    assert plan["sizes"] == [5, 10] and set(plan["cost"]) == {"5", "10"} and plan["estimate_seconds"] > 0
    chunk = api.call("experiments", "measure", {**plan, "n": 10, "start": 15, "count": 50})["result"]
    assert chunk["count"] == 5  # the run has 20 sets
    summary = api.call("experiments", "summarize", {"model": "hull", "sums": {"10": [chunk["sums"]]}})
    assert summary["result"]["rows"][0]["sets"] == 5 and summary["result"]["paper"][0]["n"] == 5
    assert summary["result"]["sums"] == {"10": chunk["sums"]}
    more = api.call("experiments", "measure", {**plan, "n": 10, "start": 0, "count": 15})["result"]
    parts = [summary["result"]["sums"]["10"], more["sums"]]  # the total given back, then a chunk since
    again = api.call("experiments", "summarize", {"model": "hull", "sums": {"10": parts}})["result"]
    whole = runner.measure("hull", 10, 4, 0, 20, "greedy")["sums"]
    assert again["rows"] == pytest.approx([runner.row("hull", 10, whole)], rel=1e-12)
    assert summary["result"]["text"]["table"]["head"] == plan["text"]["table"]["head"]
    bad = api.call("experiments", "summarize", {"model": "hull", "sums": {"10": [{"sets": 5}]}})
    assert not bad["ok"] and bad["error"]["kind"] == "input"


def test_the_table_writes_each_rows_numbers_as_formats_does_beside_the_papers() -> None:
    hull = view.table(
        "hull",
        [{"n": 50, "sets": 1200, "accuracy": 0.9996, "area_coverage": 0.99, "not_simple": 0.02, "area_fail": True}],
        runner.paper_rows("hull"),
    )
    assert hull["head"] == ["n", "세트", "정확도", "넓이", "단순하지 않은 출력", "논문 정확도", "논문 넓이"]
    assert hull["rows"] == [
        ["50", "1,200", "99.96\u00a0%", "FAIL (99.0\u00a0%)", "2.0\u00a0%", "69.6\u00a0%", "99.9\u00a0%"]
    ]
    row = {
        "n": 30,
        "sets": 12,
        "mean_length": 4.5,
        "a1": 5.0,
        "a2": 4.62,
        "reference": 4.4,
        "ratio": 1.0227,
        "reference_kind": "LKH-3",
        "invalid": 0.0,
    }
    tsp = view.table("tsp", [row], runner.paper_rows("tsp"))
    assert tsp["rows"] == [["30", "12", "4.500", "5.000", "4.620", "4.400 (LKH-3)", "1.023", "4.72", "5.11"]]
    assert view.table("delaunay", [{"n": 7, "sets": 3, "accuracy": 1.0, "triangle_coverage": 0.5}], [])["rows"] == [
        ["7", "3", "100.00\u00a0%", "50.0\u00a0%", "–", "–"]
    ]
